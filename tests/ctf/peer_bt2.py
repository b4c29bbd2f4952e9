"""babeltrace2 as the peer (python3-bt2): for each trace given, babeltrace2
reads gcgen's CTF trace without an error, and every event's name, time,
thread and field values equal gcoracle's decoding of the same trace. Packed
events (CoreCLR's length + __data__) are compared after decoding their
bytes by the spec here, independently of gcoracle and gcgen.

Usage: peer_bt2.py TOP_SRCDIR GCORACLE TRACE POINTER_SIZE [TRACE POINTER_SIZE...]
Prints TAP (tests/ctf/peer.sh runs it with a Python that has bt2).
"""
import json
import math
import os
import struct
import subprocess
import sys

import bt2

top, oracle = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(top, "tests", "spec"))
import speclib  # noqa: E402
sys.path.insert(0, os.path.join(top, "tests"))
import tap  # noqa: E402
from tap import ok  # noqa: E402

WIDTH = {"UInt8": 1, "UInt16": 2, "UInt32": 4, "UInt64": 8, "Int8": 1, "Int16": 2, "Int32": 4,
         "Int64": 8, "Boolean": 4, "Float": 4, "Double": 8, "GUID": 16}
SIGNED = {"Int8", "Int16", "Int32", "Int64"}


def lttng_provider(name):
    for p in ("Microsoft-", "Windows-"):
        if name.startswith(p):
            name = name[len(p):]
    for p in ("Microsoft-", "Windows-"):
        if name.startswith(p):
            name = name[len(p):]
    return name.replace("-", "_")


SPEC = {}
for prov, ev, _doc in speclib.spec_events(top):
    SPEC[lttng_provider(prov) + ":" + ev["symbol"]] = ev


def width(t, psize):
    return psize if t == "Pointer" else WIDTH.get(t, 0)


def value(t, b, psize):
    """One fixed-size value as gcoracle's JSON shows it."""
    if t == "Float":
        return struct.unpack("<f", b)[0]
    if t == "Double":
        return struct.unpack("<d", b)[0]
    if t == "GUID":
        d1, d2, d3 = struct.unpack("<IHH", b[:8])
        return f"{d1:08x}-{d2:04x}-{d3:04x}-{b[8]:02x}{b[9]:02x}-" + "".join(f"{x:02x}" for x in b[10:16])
    v = int.from_bytes(b, "little", signed=t in SIGNED)
    if t == "Boolean" and v in (0, 1):
        return bool(v)
    return v


def one(t, blob, pos, psize):
    """One value of in-type t at pos: (value, next position)."""
    if t == "UnicodeString":
        end = pos
        while blob[end:end + 2] != b"\0\0":
            if end + 2 > len(blob):
                raise ValueError("a UnicodeString without its NUL")
            end += 2
        return blob[pos:end].decode("utf-16-le", errors="replace"), end + 2
    if t == "AnsiString":
        end = blob.index(b"\0", pos)
        return blob[pos:end].decode("latin-1"), end + 1
    w = width(t, psize)
    if pos + w > len(blob):
        raise ValueError("the payload ends inside a field")
    return value(t, blob[pos:pos + w], psize), pos + w


def decode(ev, blob, psize):
    """The spec decoding of a packed payload: {field: value}."""
    fields = ev["fields"]
    out, pos, vals = {}, 0, {}
    for f in fields:
        t = f["type"]
        if f.get("member_of"):
            continue
        if t == "Struct":
            members = [m for m in fields if m.get("member_of") == f["name"]]
            rows = []
            if f.get("layout") == "natural":
                # the runtime copies C structs: members at their natural alignment
                offs, o, maxa = [], 0, 1
                for m in members:
                    w = width(m["type"], psize)
                    a = 4 if m["type"] == "GUID" else w
                    maxa = max(maxa, a)
                    o = (o + a - 1) // a * a
                    offs.append(o)
                    o += w
                size = (o + maxa - 1) // maxa * maxa
                for _ in range(vals[f["count"]]):
                    rows.append({m["name"]: one(m["type"], blob, pos + offs[k], psize)[0]
                                 for k, m in enumerate(members)})
                    pos += size
            else:
                for _ in range(vals[f["count"]]):
                    row = {}
                    for m in members:
                        if m.get("count"):
                            # an array member: as many values as its
                            # element's count member says
                            row[m["name"]] = []
                            for _ in range(row[m["count"]]):
                                v, pos = one(m["type"], blob, pos, psize)
                                row[m["name"]].append(v)
                        else:
                            row[m["name"]], pos = one(m["type"], blob, pos, psize)
                    rows.append(row)
            out[f["name"]] = rows
        elif t == "Binary":
            n = vals[f["length"]]
            out[f["name"]] = blob[pos:pos + n].hex()
            pos += n
        else:
            out[f["name"]], pos = one(t, blob, pos, psize)
            if not isinstance(out[f["name"]], str):
                vals[f["name"]] = int(out[f["name"]])
    if pos != len(blob):
        raise ValueError(f"{ev['symbol']}: {len(blob)} bytes, the template takes {pos}")
    return out


def plain(field):
    """A bt2 field as Python values."""
    if isinstance(field, bt2._StructureFieldConst):
        return {k: plain(v) for k, v in field.items()}
    if isinstance(field, bt2._ArrayFieldConst):
        return [plain(v) for v in field]
    if isinstance(field, bt2._StringFieldConst):
        return str(field)
    if isinstance(field, bt2._RealFieldConst):
        return float(field)
    return int(field)


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        # gcoracle prints a Float with 9 digits: equal once both are float32
        fa, fb = float(a), float(b)
        if fa == fb or (math.isnan(fa) and math.isnan(fb)):
            return True
        try:
            return struct.pack("<f", fa) == struct.pack("<f", fb)
        except OverflowError:
            return False
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


STALE = 0


def bt2_events(path, psize):
    out = []
    for msg in bt2.TraceCollectionMessageIterator(path):
        if type(msg) is not bt2._EventMessageConst:
            continue
        ev = msg.event
        payload = plain(ev.payload_field) if ev.payload_field is not None else {}
        spec = SPEC.get(ev.name)
        if "__data__" in payload:
            blob = bytes(x & 0xFF for x in payload["__data__"])
            if payload["length"] != len(blob):
                raise ValueError(f"{ev.name}: length {payload['length']}, {len(blob)} bytes")
            payload = decode(spec, blob, psize) if spec else {}
        out.append((ev.name, msg.default_clock_snapshot.value,
                    int(ev.common_context_field["vtid"]), payload,
                    int(ev.packet.context_field["cpu_id"])))
    return out


def oracle_events(path):
    res = subprocess.run([oracle, "--json", path], capture_output=True)
    out, errors = [], 0
    for line in res.stdout.split(b"\n"):
        if not line:
            continue
        d = json.loads(line)
        if d["type"] == "event" and d["name"]:
            out.append((lttng_provider(d["provider"]) + ":" + d["name"], d["timestamp"], d["thread"],
                        d.get("fields", {})))
        elif d["type"] == "event":
            # passed over (not a GC event): its class name is its provider; no fields
            out.append((d["provider"], d["timestamp"], d["thread"], None))
        elif d["type"] == "summary":
            errors = d["errors"]
    return out, errors


def known_bug(ours, peer):
    """babeltrace2 2.0.x (fixed later: review.lttng.org/c/babeltrace/+/4528)
    shows an empty string field with the value the field had in an earlier
    event of the class (its event objects are recycled and an empty string
    does not reset the field). Where gcoracle reads "" and babeltrace2 shows
    a value it showed for that class and field before, the string was
    empty: count it and take gcoracle's value. Anything else stays a
    difference."""
    seen, n = set(), 0
    for a, b in zip(ours, peer):
        for f, v in list(b[3].items()) if a[3] is not None else []:
            key = (b[0], f, v)
            if isinstance(v, str) and a[3].get(f) == "" and v != "" and key in seen:
                b[3][f] = ""
                n += 1
            elif isinstance(v, str):
                seen.add(key)
    return n


def main():
    args = sys.argv[3:]
    for i in range(0, len(args), 2):
        path, psize = args[i], int(args[i + 1])
        name = os.path.basename(path)
        try:
            peer = bt2_events(path, psize)
            err = None
        except Exception as e:  # babeltrace2 refused the trace
            peer, err = [], f"{type(e).__name__}: {e}"
        if not ok(err is None, f"{name}: babeltrace2 reads it without an error ({len(peer)} events)",
                  err and err.splitlines()[0]):
            continue
        ours, errors = oracle_events(path)
        bad = None
        stale = known_bug(ours, peer)
        if len(ours) != len(peer):
            bad = f"gcoracle {len(ours)} events, babeltrace2 {len(peer)}"
        for k, (a, b) in enumerate(zip(ours, peer)):
            if bad:
                break
            for what, x, y in (("name", a[0], b[0]), ("time", a[1], b[1]), ("thread", a[2], b[2])):
                if x != y:
                    bad = f"event {k} {what}: gcoracle {x!r}, babeltrace2 {y!r}"
            if not bad and a[3] is not None and not same(a[3], b[3]):
                diff = [f for f in set(a[3]) | set(b[3]) if not same(a[3].get(f), b[3].get(f))]
                bad = f"event {k} ({a[0]}) fields {diff[:4]}: gcoracle {[a[3].get(f) for f in diff[:2]]}, " \
                      f"babeltrace2 {[b[3].get(f) for f in diff[:2]]}"
        ok(bad is None, f"{name}: every event's name, time, thread and field values agree ({len(ours)} events)"
           + (f"; {stale} empty strings babeltrace2 2.0.4 shows stale" if stale else ""), bad)
        ok(errors == 0, f"{name}: gcoracle reports no error ({errors})")
    tap.done()


main()
