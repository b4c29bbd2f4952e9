"""ntwalk.py - the event headers of a nettrace file, read by the tests with
code of their own (from ../shared/reference/NetTraceFormat-v5.md and -v6.md),
for what gcoracle --json does not print: the capture thread (CaptureThreadId,
V6: the OS thread id of CaptureThreadIndex) beside the event's ThreadId.

    events(path) -> [{"capture", "thread", "ts", "seq", "provider", "id"}]

in file order, V4/V5 (FastSerialization objects) and V6 (typed blocks),
compressed and uncompressed headers. Only what the tests need: no payloads,
no stacks; a malformed file raises ValueError.
"""
import struct

V6_EVENT, V6_META, V6_THREAD, V6_END = 2, 3, 6, 0


def _varuint(d, p):
    v = s = 0
    while True:
        if p >= len(d):
            raise ValueError("varuint past the end")
        b = d[p]
        p += 1
        v |= (b & 0x7F) << s
        s += 7
        if not b & 0x80:
            return v, p


def _utf16z(d, p):
    e = p
    while d[e:e + 2] != b"\0\0":
        e += 2
    return d[p:e].decode("utf-16le"), e + 2


def _rows(body, v6, meta):
    """(header dict, payload) for each event row of an Event/MetadataBlock."""
    hsize, flags = struct.unpack_from("<HH", body, 0)
    p = hsize
    h = dict(meta=0, seq=0, capture=0, proc=0, thread=0, stack=0, ts=0, plen=0)
    while p < len(body):
        if flags & 1:
            f = body[p]
            p += 1
            if f & 1:
                h["meta"], p = _varuint(body, p)
            if f & 2:
                d, p = _varuint(body, p)
                h["seq"] = (h["seq"] + d) & 0xFFFFFFFF
                h["capture"], p = _varuint(body, p)
                h["proc"], p = _varuint(body, p)
            if not meta:
                h["seq"] = (h["seq"] + 1) & 0xFFFFFFFF
            if f & 4:
                h["thread"], p = _varuint(body, p)
            if f & 8:
                h["stack"], p = _varuint(body, p)
            d, p = _varuint(body, p)
            h["ts"] = (h["ts"] + d) & 0xFFFFFFFFFFFFFFFF
            if v6 and f & 16:
                _, p = _varuint(body, p)
            if f & 128:
                h["plen"], p = _varuint(body, p)
        elif v6:
            (_, m, h["seq"], h["thread"], h["capture"], h["proc"], h["stack"], h["ts"], _,
             h["plen"]) = struct.unpack_from("<IIIQQIIQII", body, p)
            h["meta"] = m & 0x7FFFFFFF
            p += 52
        else:
            (_, m, h["seq"], h["thread"], h["capture"], h["proc"], h["stack"],
             h["ts"]) = struct.unpack_from("<IIIQQIIQ", body, p)
            h["meta"] = m & 0x7FFFFFFF
            h["plen"] = struct.unpack_from("<I", body, p + 76)[0]
            p += 80
        payload = body[p:p + h["plen"]]
        p += h["plen"]
        if not flags & 1 and not v6:
            p += (4 - p % 4) % 4   # the block content starts 4-aligned in the file
        yield dict(h), payload


def events(path):
    data = open(path, "rb").read()
    if data[:8] != b"Nettrace":
        raise ValueError("no Nettrace magic")
    metas, threads, out = {}, {}, []
    v6 = struct.unpack_from("<I", data, 8)[0] == 0

    def event_block(body):
        for h, _ in _rows(body, v6, False):
            prov, eid = metas.get(h["meta"], ("?", -1))
            cap, thr = h["capture"], h["thread"]
            if v6:
                cap, thr = threads.get(cap, cap), threads.get(thr, thr)
            out.append({"capture": cap, "thread": thr, "ts": h["ts"], "seq": h["seq"],
                        "provider": prov, "id": eid})

    if v6:
        pos = 20
        while pos + 4 <= len(data):
            x = struct.unpack_from("<I", data, pos)[0]
            size, kind = x & 0xFFFFFF, x >> 24
            body = data[pos + 4:pos + 4 + size]
            pos += 4 + size
            if kind == V6_END:
                break
            if kind == V6_EVENT:
                event_block(body)
            elif kind == V6_META:
                p = 2 + struct.unpack_from("<H", body, 0)[0]
                while p < len(body):
                    n = struct.unpack_from("<H", body, p)[0]
                    row = body[p + 2:p + 2 + n]
                    p += 2 + n
                    mid, q = _varuint(row, 0)
                    ln, q = _varuint(row, q)
                    prov = row[q:q + ln].decode()
                    eid, _ = _varuint(row, q + ln)
                    metas[mid] = (prov, eid)
            elif kind == V6_THREAD:
                p = 0
                while p < len(body):
                    n = struct.unpack_from("<H", body, p)[0]
                    row = body[p + 2:p + 2 + n]
                    p += 2 + n
                    idx, q = _varuint(row, 0)
                    while q < len(row):
                        k = row[q]
                        q += 1
                        if k in (2, 3):
                            val, q = _varuint(row, q)
                            if k == 3:
                                threads[idx] = val
                        elif k == 1:
                            ln, q = _varuint(row, q)
                            q += ln
                        elif k == 4:
                            for _ in range(2):
                                ln, q = _varuint(row, q)
                                q += ln
                        else:
                            raise ValueError(f"thread row kind {k}")
        return out
    pos = 12 + struct.unpack_from("<I", data, 8)[0]
    while data[pos] != 1:                                  # NullReference ends the stream
        if data[pos:pos + 3] != b"\x05\x05\x01":
            raise ValueError(f"no object at {pos}")
        namelen = struct.unpack_from("<I", data, pos + 11)[0]
        name = data[pos + 15:pos + 15 + namelen].decode()
        pos += 15 + namelen + 1
        if name == "Trace":
            pos += 48 + 1
            continue
        size = struct.unpack_from("<I", data, pos)[0]
        pos += 4
        pos += (4 - pos % 4) % 4
        body = data[pos:pos + size]
        pos += size + 1
        if name == "EventBlock":
            event_block(body)
        elif name == "MetadataBlock":
            for _, pl in _rows(body, False, True):
                mid = struct.unpack_from("<I", pl, 0)[0]
                prov, q = _utf16z(pl, 4)
                metas[mid] = (prov, struct.unpack_from("<I", pl, q)[0])
    return out
