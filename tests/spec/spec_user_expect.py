"""spec_user_expect.py SPEC.json: what tests/spec/spec_user.c must print for that JSON."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    spec = json.load(f)
for e in spec["events"]:
    c = e["containers"]["ctf"]
    print(f"{e['symbol']} {e['provider']} {e['id']} {e['version']} {hex(e['keyword_mask'])} "
          f"{e['level']} {e['opcode']} {e['task']} {c['name']} {c['layout']} "
          f"[{','.join(e['errata'])}]")
    flat = []
    for f in e["fields"]:
        flat.append((f, -1))
        flat += [(m, len(flat) - 1) for m in f.get("members", [])]
    top = [f["name"] for f, parent in flat if parent < 0]
    for f, parent in flat:
        w = f["width"] or [-1, -1]
        ref = f.get("count") or f.get("length")
        print(f"  {f['name']} {w[0]} {w[1]} {parent} {top.index(ref) if ref else -1} "
              f"{f.get('map', '-')}")
nvalues = sum(len(m["values"]) for m in spec["maps"].values())
print(f"{len(spec['maps'])} maps, {nvalues} values, {len(spec['errata'])} errata")
