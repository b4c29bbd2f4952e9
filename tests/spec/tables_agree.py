#!/usr/bin/env python3
"""The generated C tables say what the TOML spec says: ids, versions, levels,
opcodes, keyword masks, field lists, fixed payload sizes, map sizes and the
diagnostics catalogue. Sizes are computed here on their own, from the widths
the manifest defines, not by calling specgen.py."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speclib import Tap, load, spec_events, spec_maps, srcdir  # noqa: E402

WIDTH = {"UInt8": 1, "UInt16": 2, "UInt32": 4, "UInt64": 8, "Int8": 1,
         "Int16": 2, "Int32": 4, "Int64": 8, "Float": 4, "Double": 8,
         "Boolean": 4, "GUID": 16}
# enum gcspec_type, in declaration order starting at 1
TYPE_CODES = ["UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32",
              "Int64", "Float", "Double", "Boolean", "Pointer", "GUID",
              "UnicodeString", "AnsiString", "Binary", "Struct"]
SEV = {"note": 0, "warning": 1, "error": 2}

tap = Tap()
exe = os.path.join(os.environ.get("top_builddir", "."), "tests", "spec", "dump_tables")
out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
events, fields, maps, diags = {}, {}, {}, []
for line in out.splitlines():
    kind, *rest = line.split(" ")
    if kind == "event":
        events[rest[1]] = rest
    elif kind == "field":
        fields.setdefault(rest[0], []).append(rest[1:])
    elif kind == "map":
        maps[rest[0]] = rest[1:]
    elif kind == "diag":
        diags.append(rest)


def fixed(fl, psize):
    total = 0
    for f in fl:
        if f.get("member_of"):
            continue
        if f["type"] == "Pointer":
            total += psize
        elif f["type"] in WIDTH:
            total += WIDTH[f["type"]]
        else:
            return -1
    return total


spec = spec_events()
tap.ok(len(events) == len(spec), f"the tables hold {len(spec)} event-versions",
       f"tables hold {len(events)}")
for prov, ev, doc in spec:
    sym = ev["symbol"]
    row = events.get(sym)
    if not tap.ok(row is not None, f"{sym} is in the tables"):
        continue
    ops = {"win:Info": 0, "win:Start": 1, "win:Stop": 2}
    for t in doc.get("task", []):
        ops.update(t.get("opcodes", {}))
    mask = 0
    for k in ev["keywords"]:
        mask |= doc["provider"]["keywords"][k]
    top = sum(1 for f in ev["fields"] if not f.get("member_of"))
    want = [prov, sym, str(ev["id"]), str(ev["version"]), str(ev["level"]),
            str(ops[ev["opcode"]]), hex(mask), str(len(ev["fields"])), str(top),
            str(fixed(ev["fields"], 4)), str(fixed(ev["fields"], 8)), "1"]
    got = row[:6] + row[7:]
    tap.ok(got == want, f"{sym}: header, field counts, fixed sizes (4/8), lookup",
           f"spec   {want}\ntables {got}")
    fl = fields.get(sym, [])
    want_f = [[str(i), f["name"], str(TYPE_CODES.index(f["type"]) + 1),
               f.get("map", "-")] for i, f in enumerate(ev["fields"])]
    got_f = [r[:4] for r in fl]
    tap.ok(got_f == want_f, f"{sym}: field names, types and maps in order",
           f"spec   {want_f}\ntables {got_f}")
for name, m in spec_maps().items():
    want = [str(len(m["values"])), "1" if m["kind"] == "bitmap" else "0",
            "1" if m.get("open") else "0"]
    tap.ok(maps.get(name) == want, f"map {name}: size, kind, openness",
           f"spec {want} tables {maps.get(name)}")
diag_paths = [os.path.join(srcdir(), "docs", "diagnostics.toml")]
part_dir = os.path.join(srcdir(), "docs", "diagnostics")
diag_paths += sorted(os.path.join(part_dir, f) for f in os.listdir(part_dir)
                     if f.endswith(".toml"))
cat = [d for p in diag_paths for d in load(p).get("diag", [])]
tap.ok(diags == [[d["code"], str(SEV[d["severity"]])] for d in cat],
       f"the diagnostics table holds the catalogue's {len(cat)} codes and severities")
tap.done()
