#!/usr/bin/env python3
"""TraceEvent's view of a trace, as the JSON lines `gcoracle compare` reads.

    te_normalise.py NAME < raw.jsonl > compare.jsonl

Reads what tests/peers/adapters/traceevent/Program.cs printed and writes:
  - a decoder line: name NAME, formats nettrace, checks container (TraceEvent
    checks no payload, value or stream rule), codes false, and as events every
    event-version of the spec except those TraceEvent delivered without a
    template in this file (it has none for them: not compared, counted);
  - one event line per event record, in TraceEvent's order (it gives no
    index), with the spec's symbol as name and the spec's field names.

Only representation is translated, never a value: TraceEvent's names for a
manifest field (ALIASES), integers it types as signed read back as the
unsigned bits of the spec's type, fields of a newer version than the event's
dropped (TraceEvent shows the newest version's fields on every version, with
0), and the properties it computes (not payload fields) dropped. Anything else
is printed as TraceEvent gave it, so `gcoracle compare` sees every real
difference.
"""
import json
import re
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec"))
import speclib  # noqa: E402

# TraceEvent's name -> the manifest's, per event symbol (values equal; docs/peers.md).
ALIASES = {("GCMarkWithType", "Promoted"): "Bytes", ("GCJoin", "ID"): "JoinID"}
WIDTH = {"Int8": 8, "UInt8": 8, "Int16": 16, "UInt16": 16, "Int32": 32, "UInt32": 32,
         "HexInt32": 32, "Int64": 64, "UInt64": 64, "HexInt64": 64, "Pointer": 64, "Boolean": 32}
SIGNED = {"Int8", "Int16", "Int32", "Int64"}


def spec_table():
    by_key, symbols = {}, []
    for prov, ev, _ in speclib.spec_events():
        sym = ev["symbol"]
        top = [f for f in ev["fields"] if "member_of" not in f]
        by_key[(prov, ev["id"], ev["version"])] = (sym, re.sub(r"_V\d+$", "", ev["symbol"]), top)
        symbols.append(sym)
    return by_key, symbols


def value(v, ftype):
    """TraceEvent prints integers as decimal strings; give the spec's integer."""
    if isinstance(v, str) and ftype in WIDTH:
        try:
            n = int(v)
        except ValueError:
            return v
        if n < 0 and ftype not in SIGNED:
            n += 1 << WIDTH[ftype]
        return n
    if ftype == "Boolean" and isinstance(v, bool):
        return v
    return v


def excluding(symbols, excluded):
    """symbols less excluded, as a decoder line's "events": gcoracle compare reads a
    version-0 symbol ("GCHeapStats") as its base name, every version, so it goes too
    when any version of its event is excluded."""
    bases = {re.sub(r"_V\d+$", "", s) for s in excluded}
    return sorted(s for s in symbols if s not in excluded and s not in bases)


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "TraceEvent"
    by_key, symbols = spec_table()
    raw = [json.loads(line) for line in sys.stdin.read().split("\n") if line.strip()]
    unhandled = set()
    for r in raw:
        if r.get("type") == "event" and not r.get("handled"):
            k = (r["provider"], r["id"], r["version"])
            if k in by_key:
                unhandled.add(by_key[k][0])
    out = [{"type": "decoder", "name": name, "formats": ["nettrace"],
            "events": excluding(symbols, unhandled),
            "checks": ["container"], "codes": False}]
    for r in raw:
        if r.get("type") != "event":
            out.append(r)
            continue
        k = (r["provider"], r["id"], r["version"])
        e = {"type": "event", "provider": r["provider"], "id": r["id"], "version": r["version"],
             "timestamp": r["timestamp"], "thread": r["thread"]}
        if "process" in r:
            e["process"] = r["process"]
        if k in by_key:
            sym, base, fields = by_key[k]
            e["name"] = sym
            if r.get("handled"):
                got = {ALIASES.get((base, n), n): v for n, v in r["fields"].items()}
                e["fields"] = {f["name"]: value(got[f["name"]], f["type"])
                               for f in fields if f["name"] in got}
                # Fields the version does not define and TraceEvent still names:
                # kept only when they are not one of the event's newer versions' (a
                # name nowhere in the spec for this event is a real difference).
                for n, v in got.items():
                    if n not in e["fields"] and not any(
                            n in {f["name"] for f in by_key[kk][2]}
                            for kk in by_key if kk[:2] == k[:2]) and n not in COMPUTED.get(base, ()):
                        e["fields"][n] = v
        out.append(e)
    sys.stdout.write("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in out))


# Properties TraceEvent computes from other events or fields, not payload fields.
COMPUTED = {"GCHeapStats": ("TotalHeapSize", "TotalPromoted", "Depth"),
            "FinalizeObject": ("TypeName",)}

if __name__ == "__main__":
    main()
