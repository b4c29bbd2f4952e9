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
    for f, parent in flat:
        w = f["width"] or [-1, -1]
        ref = f.get("count") or f.get("length")
        # the sizing field's row: a top-level field, or a member of the same struct
        size = [k for k, (g, gp) in enumerate(flat) if g["name"] == ref and gp == parent]
        print(f"  {f['name']} {w[0]} {w[1]} {parent} {size[0] if ref else -1} "
              f"{f.get('map', '-')}")
nvalues = sum(len(m["values"]) for m in spec["maps"].values())
print(f"{len(spec['maps'])} maps, {nvalues} values, {len(spec['errata'])} errata")
