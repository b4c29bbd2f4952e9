"""same_events.py DECODER.jsonl GCORACLE.jsonl: a decoder's events are gcoracle's (--json),
index for index, and it prints every event gcoracle names (other providers' events have
no name there and may be left out). Prints what differs; exit status 1 then."""
import json
import sys


def events(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f.read().split("\n") if line]
    out = {}
    for e in lines:
        if e.get("type") == "event":
            e.pop("offset", None)
            out[e["index"]] = e
    return out


got, want = events(sys.argv[1]), events(sys.argv[2])
named = {i for i, e in want.items() if e["name"]}
bad = [i for i in got if got[i] != want.get(i)] + sorted(named - set(got))
for i in bad[:3]:
    print(f"event {i}: decoder {got.get(i)}, gcoracle {want.get(i)}")
print(f"{len(got)} events, {len(named)} named by gcoracle, {len(bad)} differ")
sys.exit(1 if bad or not got else 0)
