"""The spec as data (spec/gcconform-spec.json, docs/spec-json.md) against what it describes.
TAP.

- Every key the JSON holds is one docs/spec-json.cddl names (the schema cannot fall behind).
- Its LTTng names and class layouts are those of the traces gcgen writes: the metadata of
  the exhaustive CTF cases (every event-version) declares exactly the JSON's classes, packed
  or typed as it says, with the typed fields it lists, in its order.
- Its errata and event references resolve; it names this build's version.
- spec/spec.mk installs every claims file there is.
"""

import json
import os
import re
import struct
import sys

top = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")
build = os.environ.get("top_builddir") or top
results = []


def ok(cond, what, detail=""):
    results.append((bool(cond), what, detail))


def walk_keys(x, out):
    if isinstance(x, dict):
        for k, v in x.items():
            out.add(k)
            # maps and keywords are keyed by name, not by schema keys
            if k not in ("maps", "keywords", "types"):
                walk_keys(v, out)
            elif k == "maps":
                for m in v.values():
                    walk_keys(m, out)
    elif isinstance(x, list):
        for v in x:
            walk_keys(v, out)


def tsdl(trace):
    with open(os.path.join(trace, "metadata"), "rb") as f:
        d = f.read()
    text, p = b"", 0
    while p < len(d):
        content, size = struct.unpack_from("<II", d, p + 24)
        text += d[p + 37:p + content // 8]
        p += size // 8
    return text.decode("utf-8")


def classes(text):
    """name -> (packed, [typed field names]) of every event class of a TSDL text."""
    out = {}
    for name, body in re.findall(r'event \{\s*name = "([^"]*)";.*?fields := struct \{\n(.*?)\t\};',
                                 text, re.S):
        names = re.findall(r"(\w+)(?:\[ \w+ \])?;\n", body)
        out[name] = ("___data__" in names, names)
    return out


with open(os.path.join(build, "spec", "gcconform-spec.json"), encoding="utf-8") as f:
    spec = json.load(f)
with open(os.path.join(top, "docs", "spec-json.cddl"), encoding="utf-8") as f:
    cddl = f.read()
documented = set(re.findall(r"(\w+):", cddl))
keys = set()
walk_keys(spec, keys)
ok(not keys - documented, "every key of gcconform-spec.json is in docs/spec-json.cddl",
   f"missing: {sorted(keys - documented)}")

for ps in (4, 8):
    case = os.path.join(top, "corpus", "cases", f"y_ctf_exhaustive_ptr{ps}.ctf")
    got = classes(tsdl(case))
    want = {}
    for e in spec["events"]:
        c = e["containers"]["ctf"]
        names = []
        for cf in c["fields"]:
            if cf["encoding"] == "guid":
                names.append(f"_{cf['name']}_length")
            names.append(cf["name"])
        want[c["name"]] = (c["layout"] == "packed", names)
    ok(set(got) == set(want), f"ptr{ps}: gcgen's exhaustive CTF trace declares the JSON's classes",
       f"only in the trace: {sorted(set(got) - set(want))[:5]}; "
       f"only in the JSON: {sorted(set(want) - set(got))[:5]}")
    bad = [n for n in set(got) & set(want) if got[n] != want[n]]
    ok(not bad, f"ptr{ps}: every class is packed or typed, with the fields, as the JSON says",
       "; ".join(f"{n}: trace {got[n]}, JSON {want[n]}" for n in bad[:3]))

symbols = {e["symbol"] for e in spec["events"]}
ids = {er["id"] for er in spec["errata"]}
dangling = [(e["symbol"], x) for e in spec["events"] for x in e["errata"] if x not in ids]
dangling += [(er["id"], s) for er in spec["errata"]
             for s in [er["event"]] + er.get("also_events", []) if s not in symbols]
ok(not dangling, "the errata and the events name each other", str(dangling[:5]))
ok(all(any(er["id"] in e["errata"] for e in spec["events"]) for er in spec["errata"]),
   "every erratum is listed on an event-version")
with open(os.path.join(build, "gcconform.pc"), encoding="utf-8") as f:
    version = re.search(r"^Version: (.*)$", f.read(), re.M)[1]
ok(spec["schema_version"] == 1 and spec["gcconform_version"] == version,
   f"schema_version 1, gcconform_version {version}", spec["gcconform_version"])

with open(os.path.join(top, "spec", "spec.mk"), encoding="utf-8") as f:
    mk = f.read().replace("\\\n", " ")
listed = set(re.search(r"^dist_spec_claims_DATA\s*=(.*)$", mk, re.M)[1].split())
there = {f"docs/spec/claims/{f}" for f in os.listdir(os.path.join(top, "docs", "spec", "claims"))
         if f.endswith(".toml")}
ok(listed == there, "spec/spec.mk installs every docs/spec/claims/*.toml",
   f"not installed: {sorted(there - listed)}; gone: {sorted(listed - there)}")

print(f"1..{len(results)}")
for i, (good, what, detail) in enumerate(results, 1):
    print(f"{'ok' if good else 'not ok'} {i} - {what}")
    if not good and detail:
        print(f"# {detail}")
sys.exit(0 if all(r[0] for r in results) else 1)
