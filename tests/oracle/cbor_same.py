#!/usr/bin/env python3
"""gcoracle --cbor and --json carry the same records.

usage: cbor_same.py OUT.cbor OUT.jsonl
Decodes the CBOR sequence (RFC 8742) with the small decoder below (Python's
standard library has none) and compares it record by record with the JSON
lines: same keys in the same order, same values. Where the encodings differ
by design, the CBOR value is mapped to the JSON one: a byte string to lower-
case hex, a single-precision float to the float32 the JSON number rounds to.
Exit status 0 when they agree, 1 with the first difference on stderr.
"""
import json
import struct
import sys


class F32(float):
    """A value that was a CBOR single-precision float."""


class Map(list):
    """A CBOR map as its (key, value) pairs, in order."""


class Reader:
    def __init__(self, data):
        self.d = data
        self.i = 0

    def byte(self):
        b = self.d[self.i]
        self.i += 1
        return b

    def take(self, n):
        if self.i + n > len(self.d):
            raise ValueError("item runs past the end at byte %d" % self.i)
        s = self.d[self.i:self.i + n]
        self.i += n
        return s

    def arg(self, ai):
        if ai < 24:
            return ai
        if ai in (24, 25, 26, 27):
            return int.from_bytes(self.take(1 << (ai - 24)), "big")
        raise ValueError("additional information %d at byte %d" % (ai, self.i))

    def item(self):
        ib = self.byte()
        major, ai = ib >> 5, ib & 31
        if major == 7:
            if ai == 20:
                return False
            if ai == 21:
                return True
            if ai == 22:
                return None
            if ai == 26:
                return F32(struct.unpack(">f", self.take(4))[0])
            if ai == 27:
                return struct.unpack(">d", self.take(8))[0]
            raise ValueError("simple value %d" % ai)
        n = self.arg(ai)
        if major == 0:
            return n
        if major == 1:
            return -1 - n
        if major == 2:
            return bytes(self.take(n))
        if major == 3:
            return self.take(n).decode("utf-8")
        if major == 4:
            return [self.item() for _ in range(n)]
        if major == 5:
            pairs = Map()
            for _ in range(n):
                k = self.item()
                pairs.append((k, self.item()))
            return pairs
        raise ValueError("major type %d (tags are not expected)" % major)


def same(c, j, where):
    if isinstance(c, Map):
        if not isinstance(j, dict):
            return "%s: map against %r" % (where, j)
        ck = [k for k, _ in c]
        if ck != list(j.keys()):
            return "%s: keys %s against %s" % (where, ck, list(j.keys()))
        for k, v in c:
            why = same(v, j[k], where + "." + str(k))
            if why:
                return why
        return None
    if isinstance(c, list):
        if not isinstance(j, list) or len(c) != len(j):
            return "%s: array of %d against %r" % (where, len(c), j)
        for n, (x, y) in enumerate(zip(c, j)):
            why = same(x, y, "%s[%d]" % (where, n))
            if why:
                return why
        return None
    if isinstance(c, bytes):
        return None if c.hex() == j else "%s: bytes %s against %r" % (where, c.hex(), j)
    if isinstance(c, F32):
        ok = isinstance(j, (int, float)) and not isinstance(j, bool) and \
            struct.pack("<f", float(j)) == struct.pack("<f", c)
        return None if ok else "%s: float32 %r against %r" % (where, float(c), j)
    if isinstance(c, float):
        ok = isinstance(j, (int, float)) and not isinstance(j, bool) and float(j) == c
        return None if ok else "%s: double %r against %r" % (where, c, j)
    if type(c) is not type(j) or c != j:
        return "%s: %r against %r" % (where, c, j)
    return None


def main():
    with open(sys.argv[1], "rb") as f:
        r = Reader(f.read())
    with open(sys.argv[2], encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    n = 0
    while r.i < len(r.d):
        if n >= len(lines):
            print("record %d: CBOR has more records than JSON (%d)" % (n, len(lines)),
                  file=sys.stderr)
            return 1
        why = same(r.item(), lines[n], "record %d" % n)
        if why:
            print(why, file=sys.stderr)
            return 1
        n += 1
    if n != len(lines):
        print("CBOR has %d records, JSON %d" % (n, len(lines)), file=sys.stderr)
        return 1
    print("%d records agree" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
