#!/usr/bin/env python3
"""gcdec.py FILE.nettrace: a small decoder of .NET GC events in EventPipe nettrace V5
files, written as another project would write it (from the published nettrace format
and the runtime's manifest; nothing of gcconform), printing JSON lines in the shape
`gcoracle compare` reads. It decodes three GC event-versions, checks the container and
their payloads' lengths, and knows no gcconform codes; its first line says so. Exit status 0, or 1 after an
error line. The worked example of docs/using-the-corpus.md:

    gcoracle run --container nettrace --tap py.tap -- python3 gcdec.py {}
"""
import json
import struct
import sys

GC = "Microsoft-Windows-DotNETRuntime"
KNOWN = {  # (id, version): (name, [(field, struct format)]) from the manifest
    (1, 2): ("GCStart_V2", [("Count", "I"), ("Depth", "I"), ("Reason", "I"), ("Type", "I"),
                            ("ClrInstanceID", "H"), ("ClientSequenceNumber", "Q")]),
    (2, 1): ("GCEnd_V1", [("Count", "I"), ("Depth", "I"), ("ClrInstanceID", "H")]),
    (9, 1): ("GCSuspendEEBegin_V1", [("Reason", "I"), ("Count", "I"), ("ClrInstanceID", "H")]),
}


class Bad(Exception):
    def __init__(self, msg, at):
        super().__init__(msg)
        self.at = at


def out(**line):
    sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")


def varint(d, p, end, at):
    v = shift = 0
    while shift < 70:
        if p >= end:
            raise Bad("an event header runs past its block", at)
        b = d[p]
        p += 1
        v |= (b & 0x7F) << shift
        if not b & 0x80:
            return v, p
        shift += 7
    raise Bad("a varint is too long", at)


def utf16z(d, p, end, at):
    q = p
    while end - q >= 2:
        if d[q] == 0 and d[q + 1] == 0:
            return d[p:q].decode("utf-16-le", "replace"), q + 2
        q += 2
    raise Bad("a string has no NUL terminator", at)


class Decoder:
    def __init__(self, d):
        self.d, self.metas, self.index = d, {}, 0
        self.pointer_size, self.stacks = 8, set()  # stack ids since the last sequence point
        self.process = 0  # the Trace object's ProcessId: a nettrace file is one process

    def meta(self, p, end, at):
        if end - p < 4:
            raise Bad("a metadata record is cut", at)
        mid = struct.unpack_from("<I", self.d, p)[0]
        provider, p = utf16z(self.d, p + 4, end, at)
        if end - p < 4:
            raise Bad("a metadata record is cut", at)
        event_id = struct.unpack_from("<I", self.d, p)[0]
        _, p = utf16z(self.d, p + 4, end, at)
        if end - p < 16:
            raise Bad("a metadata record is cut", at)
        if mid == 0:
            raise Bad("a metadata record defines id 0", at)
        self.metas[mid] = (provider, event_id, struct.unpack_from("<I", self.d, p + 8)[0])

    def event(self, m, ts, tid, p, n, at):
        provider, eid, ver = m
        line = {"type": "event", "index": self.index, "provider": provider, "id": eid,
                "version": ver, "timestamp": ts, "thread": tid, "process": self.process}
        known = KNOWN.get((eid, ver)) if provider == GC else None
        if known:
            fmt = "<" + "".join(f for _, f in known[1])
            if n < struct.calcsize(fmt):
                out(**line)
                raise Bad("the payload is shorter than the event's fields", at)
            vals = struct.unpack_from(fmt, self.d, p)
            line["name"] = known[0]
            line["fields"] = {name: v for (name, _), v in zip(known[1], vals)}
        out(**line)
        self.index += 1

    def blobs(self, p, end, is_meta):
        d = self.d
        if end - p < 20:
            raise Bad("a block is smaller than its header", p)
        header_size, flags = struct.unpack_from("<HH", d, p)
        if header_size < 20 or header_size > end - p:
            raise Bad("a block's HeaderSize is below 20 or past the block", p)
        p += header_size
        meta = tid = ts = n = stack = 0
        while p < end:
            at = p
            if flags & 1:
                f = d[p]
                p += 1
                if f & 1:
                    meta, p = varint(d, p, end, at)
                if f & 2:
                    for _ in range(3):
                        _, p = varint(d, p, end, at)
                if f & 4:
                    tid, p = varint(d, p, end, at)
                if f & 8:
                    stack, p = varint(d, p, end, at)
                v, p = varint(d, p, end, at)
                ts = (ts + v) & 0xFFFFFFFFFFFFFFFF  # wraps as the runtime's uint64 does
                p += (16 if f & 16 else 0) + (16 if f & 32 else 0)
                if p > end:
                    raise Bad("an event header runs past its block", at)
                if f & 128:
                    n, p = varint(d, p, end, at)
            else:
                if end - p < 80:
                    raise Bad("an uncompressed event header runs past its block", at)
                meta = struct.unpack_from("<I", d, p + 4)[0] & 0x7FFFFFFF
                tid, ts = struct.unpack_from("<Q", d, p + 12)[0], struct.unpack_from("<Q", d, p + 36)[0]
                stack = struct.unpack_from("<I", d, p + 32)[0]
                n = struct.unpack_from("<I", d, p + 76)[0]
                p += 80
            if n > end - p:
                raise Bad("an event's payload runs past its block", at)
            if is_meta:
                self.meta(p, p + n, at)
            elif meta not in self.metas:
                raise Bad("an event refers to metadata no block defined", at)
            elif stack and stack not in self.stacks:
                raise Bad("an event refers to a stack no stack block defined", at)
            else:
                self.event(self.metas[meta], ts, tid, p, n, at)
            p += n
            if not flags & 1:  # uncompressed events are padded to 4-byte file offsets
                p += -p % 4

    def stack_block(self, p, end):
        if end - p < 8:
            raise Bad("a stack block is smaller than its header", p)
        first, count = struct.unpack_from("<II", self.d, p)
        p += 8
        for i in range(count):
            if end - p < 4 or struct.unpack_from("<I", self.d, p)[0] > end - p - 4:
                raise Bad("a stack runs past its block", p)
            n = struct.unpack_from("<I", self.d, p)[0]
            if n % self.pointer_size:
                raise Bad("a stack's size is not a multiple of the pointer size", p)
            self.stacks.add(first + i)
            p += 4 + n

    def run(self):
        d, pos = self.d, 32
        if len(d) < 32 or d[:8] != b"Nettrace" or d[12:32] != b"!FastSerialization.1":
            raise Bad("not a nettrace file (magic or serialization header)", 0)
        while True:
            at = pos
            if pos >= len(d):
                raise Bad("the file ends without the end tag (truncated?)", pos)
            if d[pos] == 1:
                return
            if len(d) - pos < 15 or d[pos:pos + 3] != b"\x05\x05\x01":
                raise Bad("an object does not begin with its type", at)
            min_version, name_len = struct.unpack_from("<iI", d, pos + 7)
            pos += 15
            if name_len > 64 or len(d) - pos < name_len + 1:
                raise Bad("an object's type name is past the file", at)
            name = d[pos:pos + name_len].decode("ascii", "replace")
            pos += name_len
            if d[pos] != 6:
                raise Bad("an object's type does not end with EndObject", pos)
            pos += 1
            if not 0 <= min_version <= 5:
                raise Bad("the file needs a newer reader", at + 7)
            if name == "Trace":
                if len(d) - pos < 49:
                    raise Bad("the file ends inside the trace header", pos)
                self.pointer_size = struct.unpack_from("<I", d, pos + 32)[0]
                if self.pointer_size not in (4, 8):
                    raise Bad("the trace's pointer size is neither 4 nor 8", pos + 32)
                self.process = struct.unpack_from("<I", d, pos + 36)[0]
                pos += 48
            elif name in ("EventBlock", "MetadataBlock", "StackBlock", "SPBlock"):
                if len(d) - pos < 4:
                    raise Bad("the file ends inside an object", pos)
                size = struct.unpack_from("<I", d, pos)[0]
                pos += 4
                while pos % 4:
                    if pos >= len(d) or d[pos]:
                        raise Bad("alignment padding is not zero", pos)
                    pos += 1
                if size > len(d) - pos:
                    raise Bad("a block size runs past the file", at)
                if name in ("EventBlock", "MetadataBlock"):
                    self.blobs(pos, pos + size, name == "MetadataBlock")
                elif name == "StackBlock":
                    self.stack_block(pos, pos + size)
                else:  # SPBlock: stack ids do not cross sequence points
                    self.stacks.clear()
                pos += size
            else:
                raise Bad("an object of an unknown type", at)
            if pos >= len(d) or d[pos] != 6:
                raise Bad("an object does not end with EndObject", pos)
            pos += 1


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gcdec.py FILE.nettrace")
    out(type="decoder", name="gcdec.py", formats=["nettrace-v5"],
        events=[k[0] for k in KNOWN.values()], checks=["container", "payload"], codes=False)
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    try:
        Decoder(data).run()
    except Bad as e:
        out(type="error", message=str(e), offset=e.at)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
