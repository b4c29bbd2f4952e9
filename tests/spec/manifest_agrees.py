#!/usr/bin/env python3
"""The spec holds exactly the runtime manifest's GC event-versions, with the
manifest's ids, task, opcode, level, keywords and field lists (names, types,
order, maps, counts); its providers' GUIDs and keyword masks, its tasks' values
and GUIDs and its opcodes' values are the manifest's; and the map values
maps.toml attributes to "manifest" are exactly the manifest's, with its names.
Reads ../shared/reference/ when it is there."""
import csv
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speclib import Tap, load, spec_events, spec_maps, srcdir  # noqa: E402

LEVELS = {"win:LogAlways": 0, "win:Critical": 1, "win:Error": 2,
          "win:Warning": 3, "win:Informational": 4, "win:Verbose": 5}

tap = Tap()
ref = os.path.join(os.environ.get("SHARED_DIR", ""), "reference")
if not os.path.exists(os.path.join(ref, "runtime-gc-events.tsv")):
    tap.skip_all(f"manifest reference not found at {ref}")


def rows(name):
    with open(os.path.join(ref, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


events = rows("runtime-gc-events.tsv")
templates = {}
for r in rows("runtime-gc-templates.tsv"):
    templates.setdefault((r["provider"], r["template_tid"]), []).append(r)

spec = {(p, ev["id"], ev["version"]): ev for p, ev, _ in spec_events()}
errata_path = os.path.join(srcdir(), "docs", "spec", "errata.toml")
errata = {(e.get("event"), e.get("field")) for e in
          (load(errata_path).get("erratum", []) if os.path.exists(errata_path) else [])}
maps = spec_maps()
seen = set()
for r in events:
    key = (r["provider"], int(r["value"]), int(r["version"]))
    seen.add(key)
    ev = spec.get(key)
    label = f"{r['event_symbol']} ({r['provider']} id {r['value']} v{r['version']})"
    if not tap.ok(ev is not None, f"{label} is in the spec"):
        continue
    want = dict(symbol=r["event_symbol"], task=r["task"], opcode=r["opcode"],
                level=LEVELS[r["level"]], keywords=r["keywords"].split())
    got = dict(symbol=ev["symbol"], task=ev["task"], opcode=ev["opcode"],
               level=ev["level"], keywords=ev["keywords"])
    tap.ok(want == got, f"{label}: symbol, task, opcode, level, keywords",
           f"manifest {want}\nspec     {got}")
    want_fields = []
    for f in templates.get((r["provider"], r["template"]), []):
        if f["field_index"] == "-":  # the TSV's marker for an empty template
            continue
        d = {"name": f["field_name"]}
        d["type"] = "Struct" if f["kind"] == "struct" else f["inType"].split(":")[1]
        if f["outType"]:
            d["out"] = f["outType"].split(":")[1]
        for k_tsv, k_spec in (("map", "map"), ("count", "count"),
                              ("length", "length"), ("parent_struct", "member_of")):
            if f[k_tsv]:
                d[k_spec] = f[k_tsv]
        want_fields.append(d)
    # A struct layout the runtime shows (padding the manifest cannot express)
    # is the spec's one addition; each must stand as an erratum.
    spec_fields = []
    for f in ev["fields"]:
        f = dict(f)
        if f.pop("layout", None):
            tap.ok((ev["symbol"], f["name"]) in errata,
                   f"{label}: the {f['name']} struct layout is explained by an erratum")
        spec_fields.append(f)
    tap.ok(want_fields == spec_fields, f"{label}: fields, in order, with types",
           "\n".join(f"manifest {a}\nspec     {b}"
                     for a, b in zip(want_fields + [None] * 99, spec_fields)
                     if a != b)[:2000])
    for f in ev["fields"]:
        if "map" in f:
            tap.ok(f["map"] in maps, f"{label}: map {f['map']} is in maps.toml")

# Providers, keywords, tasks and opcodes (the numbers the tables carry), and map values.
root = ET.parse(os.path.join(ref, "runtime-gc-manifest.xml")).getroot()
provs = {}
for fn in ("dotnet-runtime.toml", "dotnet-runtime-private.toml", "dotnet-runtime-rundown.toml"):
    d = load(os.path.join(srcdir(), "docs", "spec", fn))
    provs[d["provider"]["name"]] = d


def num(s):
    return int(s, 16) if s.lower().startswith("0x") else int(s)


man_maps = {}
for p in root.iter("provider"):
    d = provs.get(p.get("name"))
    if not tap.ok(d is not None, f"provider {p.get('name')} is in the spec"):
        continue
    tap.ok(p.get("guid").strip("{}").lower() == d["provider"]["guid"].lower(),
           f"{p.get('name')}: GUID {p.get('guid')}")
    want = {k.get("name"): num(k.get("mask")) for k in p.iter("keyword")}
    got = d["provider"].get("keywords", {})
    tap.ok(want == got, f"{p.get('name')}: keyword names and masks",
           f"manifest only {sorted(set(want.items()) - set(got.items()))}\n"
           f"spec only {sorted(set(got.items()) - set(want.items()))}")
for t_el in root.iter("task"):
    spec_task = None
    for d in provs.values():
        for tk in d.get("task", []):
            if tk["name"] == t_el.get("name"):
                spec_task = tk
    if not tap.ok(spec_task is not None, f"task {t_el.get('name')} is in the spec"):
        continue
    tap.ok(spec_task["value"] == num(t_el.get("value"))
           and spec_task["guid"].lower() == t_el.get("eventGUID").strip("{}").lower(),
           f"task {t_el.get('name')}: value and GUID")
    want = {o.get("name"): num(o.get("value")) for o in t_el.iter("opcode")}
    tap.ok(want == spec_task.get("opcodes", {}), f"task {t_el.get('name')}: opcode names and values",
           f"manifest {want}\nspec     {spec_task.get('opcodes', {})}")
for m in list(root.iter("valueMap")) + list(root.iter("bitMap")):
    vals = {}
    for v in m.iter("map"):
        msg = re.search(r"\.(\w+)\)$", v.get("message") or "")
        name = re.sub(r"(Map)?Message$", "", msg.group(1)) if msg else None
        vals[num(v.get("value"))] = name
    if m.get("name") in man_maps and man_maps[m.get("name")] != vals:
        tap.ok(False, f"map {m.get('name')} is the same in every provider that defines it")
    man_maps[m.get("name")] = vals
for mname, vals in sorted(man_maps.items()):
    sm = maps.get(mname, {})
    got = {v["value"]: v["name"] for v in sm.get("values", [])
           if "manifest" in v.get("sources", [])}
    tap.ok(got == vals, f"maps.toml {mname}: the values sourced 'manifest' are the manifest's, "
           "with its names", f"manifest {vals}\nspec     {got}")
notman = sorted(n for n, m in maps.items() if m.get("manifest", True) and n not in man_maps)
tap.ok(not notman, "every map not marked manifest = false is a manifest map", "\n".join(notman))

# Events the extract carries beside the GC task's (<relatedNotGcTask>: BulkType, whose
# TypeIDs a heap walk's GCBulk* events name), with their templates, checked the same way.
for rel in root.iter("relatedNotGcTask"):
    tmpls = {t.get("tid"): t for t in rel.iter("template")}
    for e_el in rel.iter("event"):
        key = ("Microsoft-Windows-DotNETRuntime", num(e_el.get("value")), num(e_el.get("version")))
        seen.add(key)
        ev = spec.get(key)
        label = f"{e_el.get('symbol')} (related, id {key[1]} v{key[2]})"
        if not tap.ok(ev is not None, f"{label} is in the spec"):
            continue
        want = dict(symbol=e_el.get("symbol"), task=e_el.get("task"), opcode=e_el.get("opcode"),
                    level=LEVELS[e_el.get("level")], keywords=e_el.get("keywords").split())
        got = dict(symbol=ev["symbol"], task=ev["task"], opcode=ev["opcode"],
                   level=ev["level"], keywords=ev["keywords"])
        tap.ok(want == got, f"{label}: symbol, task, opcode, level, keywords",
               f"manifest {want}\nspec     {got}")
        want_fields = []

        def data(d_el, parent):
            d = {"name": d_el.get("name"), "type": d_el.get("inType").split(":")[1]}
            for k in ("outType", "map", "count", "length"):
                if d_el.get(k):
                    d[{"outType": "out"}.get(k, k)] = (d_el.get(k).split(":")[1]
                                                       if k == "outType" else d_el.get(k))
            if parent:
                d["member_of"] = parent
            return d

        for c in tmpls[e_el.get("template")]:
            if c.tag == "data":
                want_fields.append(data(c, None))
            elif c.tag == "struct":
                want_fields.append({"name": c.get("name"), "type": "Struct",
                                    "count": c.get("count")})
                want_fields += [data(m, c.get("name")) for m in c if m.tag == "data"]
        tap.ok(want_fields == ev["fields"], f"{label}: fields, in order, with types",
               "\n".join(f"manifest {a}\nspec     {b}"
                         for a, b in zip(want_fields + [None] * 99, ev["fields"]) if a != b))

extra = sorted(f"{k[0]} id {k[1]} v{k[2]}" for k in spec if k not in seen)
tap.ok(not extra, "the spec has no event-version the manifest lacks", "\n".join(extra))
tap.done()
