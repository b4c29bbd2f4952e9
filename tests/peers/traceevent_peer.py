#!/usr/bin/env python3
"""TraceEvent (Microsoft.Diagnostics.Tracing.TraceEvent 4.0.0) as a peer reader.

Builds tests/peers/traceevent/ (restoring TraceEvent from NuGet, or offline
from the local package folders), has gcgen write nettrace files -- V5 and V6,
runtime-like and full metadata (nettrace-v5, -v6, -v5-full, -v6-full), pointer
sizes 4 and 8, every profile's realistic stream and the exhaustive stream --
and requires TraceEvent's decoding of the GC events to equal gcoracle's:

  - every GC event gcoracle decodes, TraceEvent decodes too (same provider, id,
    version, timestamp and thread), and TraceEvent decodes no GC event that
    gcoracle does not;
  - every field TraceEvent names has gcoracle's value for that field.

Where they differ and TraceEvent is wrong, the difference is a known peer
divergence listed, with its evidence, in docs/peers.md (the table rows between
the `divergences` markers). Every difference found must be listed there, and
every listed one must still be found, so the list neither hides nor rots.
Skips when dotnet is missing or TraceEvent cannot be restored (with NuGet's
exact error).
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec"))
import speclib  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

top_srcdir = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
top_builddir = os.environ.get("top_builddir", ".")
gcgen = os.path.join(top_builddir, "gen", "gcgen")
oracle = os.path.join(top_builddir, "oracle", "gcoracle")
proj_dir = os.path.join(top_srcdir, "tests", "peers", "traceevent")
proj = os.path.join(proj_dir, "TraceEventPeer.csproj")
FORMATS = ("nettrace-v5", "nettrace-v6", "nettrace-v5-full", "nettrace-v6-full")
PROVIDERS = {"Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimePrivate",
             "Microsoft-Windows-DotNETRuntimeRundown"}


def norm(v):
    if isinstance(v, str) and re.fullmatch(r"-?\d+", v):
        return int(v)
    return v


def known_divergences():
    """{(format family, event, field or '-', kind): evidence} from docs/peers.md."""
    text = open(os.path.join(top_srcdir, "docs", "peers.md"), encoding="utf-8").read()
    body = text.split("<!-- divergences -->")[1].split("<!-- /divergences -->")[0]
    out = {}
    for line in body.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0] not in ("metadata", "---") and not set(cells[0]) <= {"-"}:
            out[(cells[0], cells[1], cells[2], cells[3])] = cells[4]
    return out


if not shutil.which("dotnet"):
    tap.skip_all("the .NET SDK (dotnet) is not installed")

# Restore: the NuGet feed first, then offline from the local package folders.
local = [d for d in ("/opt/nuget/packages", os.path.expanduser("~/.nuget/packages")) if os.path.isdir(d)]
restore = subprocess.run(["dotnet", "restore", proj, "-nologo", "-v", "quiet"],
                         capture_output=True, text=True)
if restore.returncode != 0 and local:
    restore = subprocess.run(["dotnet", "restore", proj, "-nologo", "-v", "quiet"]
                             + [a for d in local for a in ("--source", d)],
                             capture_output=True, text=True)
if restore.returncode != 0:
    err = [line.strip() for line in (restore.stdout + restore.stderr).splitlines() if "error" in line]
    tap.skip_all("TraceEvent 4.0.0 cannot be restored: " + (err[0] if err else "dotnet restore failed"))
build = subprocess.run(["dotnet", "build", proj, "-c", "Release", "--no-restore", "-nologo", "-v", "quiet",
                        "-nodeReuse:false"], capture_output=True, text=True)
if not ok(build.returncode == 0, "the TraceEvent peer builds", build.stdout + build.stderr):
    print(f"1..{tap.n}")
    sys.exit(1)
peer = os.path.join(proj_dir, "bin", "Release", "net10.0", "TraceEventPeer.dll")
profiles = [line.split()[0] for line in
            subprocess.run([gcgen, "--list-profiles"], capture_output=True, text=True).stdout.splitlines()]

known = known_divergences()
# Every field name the spec gives any version of an event id, per provider: a name
# TraceEvent gives that this version lacks is one of those (it reports a default).
spec_fields = collections.defaultdict(set)
for prov, ev, _ in speclib.spec_events(top_srcdir):
    spec_fields[(prov, ev["id"])].update(f["name"] for f in ev["fields"])


def is_known(k):
    family, sym, field, kind = k
    return any(kf in (family, "any") and ks in (sym, "*") and kfd in (field, "*") and kk == kind
               for kf, ks, kfd, kk in known)


# TraceEvent's names for manifest fields (same value, other name): compared under
# the manifest's name, and listed as name divergences.
ALIASES = {("GCMarkWithType", "Promoted"): "Bytes", ("GCJoin", "ID"): "JoinID"}


def same_bits(tv, gv):
    """TraceEvent shows some unsigned fields as signed: the same bits?"""
    return isinstance(tv, int) and isinstance(gv, int) and tv < 0 and any(
        tv + (1 << w) == gv for w in (8, 16, 32, 64))

found = collections.defaultdict(lambda: [0, ""])   # key -> [count, first example]

with tempfile.TemporaryDirectory() as tmp:
    files = []   # (format, psize, stream name, path)
    for fmt in FORMATS:
        for ps in (4, 8):
            streams = [(p, ["-p", p, "--gcs", "12", "--heaps", "2" if i % 2 else "0", "--stacks"])
                       for i, p in enumerate(profiles)] + [("exhaustive", ["-m", "exhaustive"])]
            # The sample profiler's ThreadSample events (another capture thread).
            streams.append(("net10-sampler", ["-p", "net10", "--gcs", "12", "--stacks",
                                              "-O", "sampler-every=5"]))
            for name, args in streams:
                path = os.path.join(tmp, f"{fmt}-ps{ps}-{name}.nettrace")
                g = subprocess.run([gcgen, "-q", "-f", fmt, "--pointer-size", str(ps), "--seed", "7",
                                    *args, "-o", path], capture_output=True, text=True)
                if g.returncode != 0:
                    ok(False, f"gcgen writes {fmt} ps{ps} {name}", g.stderr)
                    continue
                files.append((fmt, ps, name, path))

    te = collections.defaultdict(list)
    te_unhandled, te_error = {}, {}
    p = subprocess.run(["dotnet", peer, *[f[3] for f in files]], capture_output=True, text=True)
    ok(p.returncode == 0, f"TraceEvent read {len(files)} gcgen nettrace files", p.stderr)
    for line in p.stdout.split("\n")[:-1]:
        try:
            item = json.loads(line)
        except ValueError as e:
            ok(False, "the TraceEvent peer prints JSON lines", f"{e}: {line[:300]}")
            continue
        if "error" in item:
            te_error[item["file"]] = item["error"]
        elif "unhandled" in item:
            te_unhandled[item["file"]] = item["unhandled"]
        else:
            te[item["file"]].append(item)

    group_events = collections.Counter()
    group_values = collections.Counter()
    group_bad = collections.defaultdict(list)
    for fmt, ps, name, path in files:
        family = "full" if fmt.endswith("-full") else "runtime"
        group = f"{fmt} ps{ps}"
        if path in te_error:
            group_bad[group].append(f"{name}: TraceEvent failed: {te_error[path]}")
            continue
        o = subprocess.run([oracle, "--json", path], capture_output=True, text=True)
        ours = collections.defaultdict(list)
        names = {}
        for line in o.stdout.split("\n")[:-1]:
            item = json.loads(line)
            if item.get("type") == "event" and item.get("name") and item.get("provider") in PROVIDERS:
                key = (item["provider"], item["id"], item["version"], item["timestamp"], item["thread"])
                ours[key].append(item)
                names[(item["provider"], item["id"], item["version"])] = item["name"]
            elif item.get("type") == "diag" and item["severity"] == "error":
                group_bad[group].append(f"{name}: gcoracle error {item['code']} {item['message']}")

        def divergence(sym, field, kind, example):
            k = (family, sym, field, kind)
            found[k][0] += 1
            if not found[k][1]:
                found[k][1] = f"{group} {name}: {example}"

        for ev in te[path]:
            key = (ev["provider"], ev["id"], ev["version"], ev["ts"], ev["thread"])
            sym = names.get(key[:3], f"{ev['name']} (id {ev['id']} v{ev['version']})")
            if not ours.get(key):
                divergence(sym, "-", "extra-event", f"TraceEvent decodes {ev['name']} at {ev['ts']}")
                continue
            twin = ours[key].pop(0)
            group_events[group] += 1
            fields = twin.get("fields", {})
            for fname, tv in ev["fields"].items():
                tv = norm(tv)
                alias = ALIASES.get((sym.split("_V")[0], fname))
                if alias:
                    divergence(sym, fname, "field-name", f"TraceEvent's name for {alias}")
                    fname = alias
                if fname not in fields:
                    if fname in spec_fields[(ev["provider"], ev["id"])]:
                        kind = "absent-field" if tv in (0, "", None, False) else "absent-field-value"
                        divergence(sym, fname, kind, f"TraceEvent gives {fname} = {tv!r}, a field "
                                   f"version {ev['version']} does not have")
                    else:
                        divergence(sym, fname, "field-name", f"TraceEvent names a field {fname!r}, "
                                   f"gcoracle has {sorted(fields)}")
                    continue
                gv = fields[fname]
                group_values[group] += 1
                if same_bits(tv, gv):
                    divergence(sym, fname, "signed", f"TraceEvent {tv!r}, gcoracle {gv!r}")
                elif tv != gv:
                    divergence(sym, fname, "value", f"TraceEvent {tv!r}, gcoracle {gv!r}")
        for key, left in ours.items():
            for item in left:
                divergence(item["name"], "-", "missing-event",
                           f"TraceEvent does not decode {item['name']} at {item['timestamp']}")

    # ThreadSample events: TraceEvent dispatches every one gcoracle reads (its
    # provider GUID, which TraceEvent derives from the name, is the runtime's).
    sampled = [f for f in files if f[2] == "net10-sampler"]
    c = subprocess.run(["dotnet", peer, "--count", *[f[3] for f in sampled]],
                       capture_output=True, text=True)
    counts = {}
    for line in c.stdout.splitlines():
        item = json.loads(line)
        counts[item["file"]] = item
    bad = []
    for fmt, ps, name, path in sampled:
        o = subprocess.run([oracle, "--json", path], capture_output=True, text=True)
        evs = [json.loads(l) for l in o.stdout.splitlines()]
        evs = [e for e in evs if e.get("type") == "event"]
        ours = sum(1 for e in evs if e["provider"] == "Microsoft-DotNETCore-SampleProfiler")
        te_item = counts.get(path, {})
        theirs = te_item.get("providers", {}).get("Provider(3c530d44-97ae-513a-1e6d-783e8f8e03a9)")
        if not ours or theirs != ours or te_item.get("total") != len(evs) or "error" in te_item:
            bad.append(f"{fmt} ps{ps}: gcoracle {ours} ThreadSample of {len(evs)}, TraceEvent {te_item}")
    ok(sampled and not bad, f"TraceEvent reads the ThreadSample events of {len(sampled)} "
       f"-O sampler-every streams, as many as gcoracle", "\n".join(bad))
    for group in sorted({f"{f[0]} ps{f[1]}" for f in files}):
        ok(not group_bad[group] and group_events[group] > 0,
           f"{group}: TraceEvent and gcoracle read all streams ({group_events[group]} GC events "
           f"paired, {group_values[group]} field values compared)",
           "\n".join(group_bad[group]))
    new = {k: v for k, v in found.items() if not is_known(k)}
    ok(not new, f"every difference between TraceEvent and gcoracle is a known divergence "
       f"({len(found)} kinds, {sum(c for c, _ in found.values())} field values or events)",
       "\n".join(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | x{c}: {ex}" for k, (c, ex) in sorted(new.items())))
    for k, evidence in sorted(known.items()):
        hits = sum(c for f, (c, _) in found.items() if any(
            kf in (f[0], "any") and ks in (f[1], "*") and kfd in (f[2], "*") and kk == f[3]
            for kf, ks, kfd, kk in [k]))
        ok(hits > 0, f"known divergence still occurs: {' | '.join(k)} ({hits} times)",
           f"docs/peers.md lists {k}, which no longer occurs: remove it")
    # The log shows each divergence once (runtime-like metadata), the two
    # representation kinds only as totals.
    for kind in ("signed", "absent-field"):
        print(f"# divergence any | * | * | {kind}: "
              f"{sum(c for k, (c, _) in found.items() if k[3] == kind)} values")
    for k, (c, ex) in sorted(found.items()):
        if k[0] == "runtime" and k[3] not in ("signed", "absent-field"):
            print(f"# divergence {' | '.join(k)} x{c}: {ex[:200]}")
tap.done()
