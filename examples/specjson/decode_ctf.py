#!/usr/bin/env python3
"""decode_ctf.py [--spec FILE] TRACE_DIR: decode the .NET GC events of an LTTng (CTF) trace
by gcconform's installed spec data alone, printing JSON lines in the shape `gcoracle
compare` reads. Standard library only.

Everything about the events comes from gcconform-spec.json (docs/spec-json.md): the LTTng
event name of each event-version, its id and version, the typed fields' encodings, and the
payload layout of packed classes (field types, widths, struct arrays). Written here by hand
is the LTTng-UST buffer layout every CoreCLR trace shares (packet header and context, the
large event header LTTng uses for a stream of more than 31 classes), and enough of the TSDL
to tell packed classes from typed ones and to pass over the event context and the events of
classes the spec lacks (a session's other tracepoints). The spec is --spec FILE, else
$GCCONFORM_SPEC, else $(pkg-config --variable=specdir gcconform)/gcconform-spec.json.

    gcoracle run --container ctf --prefix y_ -- python3 decode_ctf.py {}
"""
import json
import os
import re
import struct
import subprocess
import sys

INTS = {"u8": "<B", "u16": "<H", "u32": "<I", "u64": "<Q",
        "i8": "<b", "i16": "<h", "i32": "<i", "i64": "<q", "f32": "<f", "f64": "<d"}
PAYLOAD_INTS = {"UInt8": "u8", "UInt16": "u16", "UInt32": "u32", "UInt64": "u64",
                "Int8": "i8", "Int16": "i16", "Int32": "i32", "Int64": "i64",
                "Float": "f32", "Double": "f64", "Boolean": "u32"}


def load_spec(argv):
    path = argv[argv.index("--spec") + 1] if "--spec" in argv else os.environ.get("GCCONFORM_SPEC")
    if not path:
        specdir = subprocess.run(["pkg-config", "--variable=specdir", "gcconform"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        path = os.path.join(specdir, "gcconform-spec.json")
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    if spec["schema_version"] != 1:
        sys.exit(f"decode_ctf.py: {path}: schema_version {spec['schema_version']}, not 1")
    return {e["containers"]["ctf"]["name"]: e for e in spec["events"]}


class Reader:
    def __init__(self, data, pos, psize):
        self.d, self.p, self.psize = data, pos, psize

    def num(self, enc):
        if enc == "size_t":
            enc = "u64" if self.psize == 8 else "u32"
        (v,) = struct.unpack_from(INTS[enc], self.d, self.p)
        self.p += struct.calcsize(INTS[enc])
        return v

    def until(self, terminator, step):
        q = self.p
        while self.d[q:q + step] != terminator:
            if q >= len(self.d):
                raise ValueError(f"a string at byte {self.p} has no terminator")
            q += step
        s, self.p = self.d[self.p:q], q + step
        return s

    def guid(self):
        b = self.d[self.p:self.p + 16]
        self.p += 16
        a, b2, c = struct.unpack_from("<IHH", b)
        return f"{a:08x}-{b2:04x}-{c:04x}-{b[8:10].hex()}-{b[10:].hex()}"


def metadata(trace):
    """The TSDL text (packetized as LTTng writes it, or plain) -> (classes, pointer size,
    event context: [(name, bytes)], which a session may extend with _procname[17] ...)."""
    with open(os.path.join(trace, "metadata"), "rb") as f:
        d = f.read()
    text, p = b"", 0
    if d[:4] == b"\x57\x1d\xd1\x75":
        while p < len(d):
            content, size = struct.unpack_from("<II", d, p + 24)
            text += d[p + 37:p + content // 8]
            p += size // 8
    else:
        text = d
    text = text.decode("utf-8")
    classes = {int(i): (n, tsdl_fields(body))
               for n, i, body in re.findall(r'event \{\s*name = "([^"]*)";\s*id = (\d+);(.*?)\n\};',
                                            text, re.S)}
    bits = re.search(r"architecture_bit_width = (\d+);", text)
    decl = re.search(r"event\.context := struct \{(.*?)\};", text, re.S)
    context = [(n, int(size) // 8 * int(k or 1)) for size, n, k in
               re.findall(r"size = (\d+);[^}]*\} (\w+)(?:\[(\d+)\])?;", decl[1] if decl else "")]
    return classes, (4 if bits and bits[1] == "32" else 8), context


def tsdl_fields(body):
    """A class's fields as [(name, bytes or "string", count: a number or an earlier
    field's name)]: enough to pass over the events of a class the spec does not have."""
    out = []
    for decl, name, count in re.findall(r"\t\t(string|integer \{[^}]*\}|floating_point \{[^}]*\})"
                                        r" (\w+)(?:\[ ?(\w+) ?\])?;", body):
        if decl == "string":
            size = "string"
        elif decl.startswith("integer"):
            size = int(re.search(r"size = (\d+);", decl)[1]) // 8
        else:
            size = 4 if "mant_dig = 24;" in decl else 8
        out.append((name, size, int(count) if count.isdigit() else count or 1))
    return out


def skip_fields(r, fields):
    values = {}
    for name, size, count in fields:
        n = values[count] if isinstance(count, str) else count
        for _ in range(n):
            if size == "string":
                r.until(b"\0", 1)
            else:
                values[name] = int.from_bytes(r.d[r.p:r.p + size], "little")
                r.p += size


def payload_field(r, f, values):
    t = f["type"]
    if t != "Struct" and "count" in f:  # an array member: its element's count of values
        return [payload_field(r, {"type": t}, values) for _ in range(values[f["count"]])]
    if t in PAYLOAD_INTS:
        return r.num(PAYLOAD_INTS[t])
    if t == "Pointer":
        return r.num("size_t")
    if t == "GUID":
        return r.guid()
    if t == "UnicodeString":
        return r.until(b"\0\0", 2).decode("utf-16-le", "replace")
    if t == "AnsiString":
        return r.until(b"\0", 1).decode("latin-1")
    if t == "Binary":
        n = values[f["length"]]
        r.p += n
        return r.d[r.p - n:r.p].hex()
    elements = []  # Struct: values[f["count"]] elements of f["members"]
    for _ in range(values[f["count"]]):
        start, elem, widest = r.p, {}, 1
        for m in f["members"]:
            w = (m["width"] or [1, 1])[r.psize // 8]
            widest = max(widest, w)
            if f["layout"] == "natural":
                r.p = start + -(-(r.p - start) // w) * w
            elem[m["name"]] = payload_field(r, m, elem)
        if f["layout"] == "natural":
            r.p = start + -(-(r.p - start) // widest) * widest
        elements.append(elem)
    return elements


def decode_payload(ev, data, psize):
    r, values = Reader(data, 0, psize), {}
    for f in ev["fields"]:
        values[f["name"]] = payload_field(r, f, values)
    return values


def decode_typed(ev, r):
    values = {}
    for cf in ev["containers"]["ctf"]["fields"]:
        enc = cf["encoding"]
        if enc == "utf8z":
            v = r.until(b"\0", 1).decode("utf-8", "replace")
        elif enc == "bytesz":
            v = r.until(b"\0", 1).decode("latin-1")
        elif enc == "guid":
            r.num("size_t")  # the element count, 4
            v = r.guid()
        else:
            v = r.num(enc)
        values[cf["field"]] = v
    return values


def stream_events(path, classes, context, by_name, psize, order):
    with open(path, "rb") as f:
        d = f.read()
    p = 0
    while p < len(d):
        content, size = struct.unpack_from("<QQ", d, p + 48)
        r, end, ts = Reader(d, p + 32 + 40 + psize + 4, psize), p + content // 8, 0
        while r.p < end:
            cid, low = r.num("u16"), None
            if cid == 0xFFFF:
                cid, ts = r.num("u32"), r.num("u64")
            else:
                low = r.num("u32")
                ts = (ts & ~0xFFFFFFFF) | low if low >= ts & 0xFFFFFFFF else \
                     ((ts >> 32) + 1 << 32) | low
            tid, pid = 0, None
            for field, nbytes in context:
                if field == "_vtid":
                    tid = r.num("i32")
                elif field == "_vpid":
                    pid = r.num("i32")
                else:
                    r.p += nbytes
            name, tsdl = classes[cid]
            ev = by_name.get(name)
            if ev is None:
                skip_fields(r, tsdl)
                fields = None
            elif tsdl and tsdl[-1][0] == "___data__":
                r.num("u32")
                n = r.num("u32")
                fields = decode_payload(ev, d[r.p:r.p + n], psize)
                r.p += n
            else:
                fields = decode_typed(ev, r)
            yield (ts, order, r.p), ev, (tid, pid), fields
        p += size // 8


def main(argv):
    trace = argv[-1]
    by_name = load_spec(argv)
    classes, psize, context = metadata(trace)
    files = sorted(f for f in os.listdir(trace) if os.path.isfile(os.path.join(trace, f))
                   and f != "metadata")
    out = sys.stdout
    out.write(json.dumps({"type": "decoder", "name": "decode_ctf.py", "formats": ["ctf"],
                          "checks": [], "codes": False}) + "\n")
    try:
        events = [e for i, f in enumerate(files)
                  for e in stream_events(os.path.join(trace, f), classes, context, by_name,
                                           psize, i)]
    except (ValueError, KeyError, IndexError, struct.error) as e:
        out.write(json.dumps({"type": "error", "message": f"cannot read {trace}: {e!r}"}) + "\n")
        return 1
    events.sort(key=lambda e: e[0])
    for index, (key, ev, (tid, pid), fields) in enumerate(events):
        if ev is None:
            continue  # a class the spec does not have (lttng_ust_statedump:*, ...)
        out.write(json.dumps({"type": "event", "index": index, "name": ev["symbol"],
                              "provider": ev["provider"], "id": ev["id"],
                              "version": ev["version"], "timestamp": key[0], "thread": tid,
                              **({"process": pid} if pid is not None else {}),
                              "fields": fields}, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
