#!/usr/bin/env python3
"""Processes that come and go in a machine-wide .etl, as the kernel logger's
Process Start and End records (SYSTEM64, group 3, opcodes 1 and 2) show
them:

- gcgen --processes 4: process 1 starts mid-trace and ends inside its
  second GC, right after its GCStart (a Process End record). Its open GC
  and suspension are no finding (no GC-S003, GC-S025); with its End record
  made a DCEnd (opcode 4: running when the session stopped) both notes come
  back, so the End record is what says so.
- A process id reused: two gcgen runs of process 1001, the second shifted
  after the first, the kernel's End of the first and Start of the second
  between them. The second numbers its GCs from 1 again: no GC-S007, and
  none of the first's state leaks into the second. Without the kernel
  records, the same file gives GC-S007 (a bare decrease proves nothing);
  with the End alone, the id's next events are a new process too.
TAP.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

BUILD = os.environ.get("top_builddir", ".")
GCGEN = os.path.join(BUILD, "gen", "gcgen")
ORACLE = os.path.join(BUILD, "oracle", "gcoracle")
BUFHDR = 0x48
# Header type -> (where the 16-bit size is); all keep the timestamp at 0x10
# (gcgen writes SYSTEM, PERFINFO and EVENT_HEADER records).
SIZE_AT = {0x01: 4, 0x02: 4, 0x10: 4, 0x11: 4, 0x12: 0, 0x13: 0}


def buffers(path):
    data = open(path, "rb").read()
    size = struct.unpack_from("<I", data, 0)[0]
    return [bytearray(data[i:i + size]) for i in range(0, len(data), size)]


def records(buf):
    """(offset, header type) of each record of a buffer."""
    pos, end = BUFHDR, struct.unpack_from("<I", buf, 0x30)[0]
    while pos + 4 <= end and struct.unpack_from("<I", buf, pos)[0] != 0xFFFFFFFF:
        t = buf[pos + 2]
        yield pos, t
        pos += (struct.unpack_from("<H", buf, pos + SIZE_AT[t])[0] + 7) & ~7


def last_time(bufs):
    return max(struct.unpack_from("<Q", b, p + 0x10)[0] for b in bufs[1:] for p, _ in records(b))


def shift(bufs, delta):
    for b in bufs[1:]:
        for p, _ in records(b):
            struct.pack_into("<Q", b, p + 0x10, struct.unpack_from("<Q", b, p + 0x10)[0] + delta)


def process_record(opcode, pid, ts):
    """A Process_V4-shaped SYSTEM64 record: UniqueProcessKey, ProcessId,
    ParentId, SessionId, ExitStatus (the rest of the payload cut)."""
    payload = struct.pack("<QIIII", 0xffffd00000000000 | pid << 12, pid, 1052, 1, 0)
    hdr = struct.pack("<HBBHBBIIQII", 4, 0x02, 0xC0, 0x20 + len(payload), opcode, 3,
                      77, pid if opcode == 2 else 1052, ts, 0, 0)
    return hdr + payload


def kernel_buffer(like, recs):
    b = bytearray(like[:BUFHDR]) + b"".join(r + b"\0" * (-len(r) % 8) for r in recs)
    struct.pack_into("<I", b, 4, len(b))
    struct.pack_into("<I", b, 0x30, len(b))
    return b + b"\xff" * (len(like) - len(b))


def write(path, bufs):
    head = bytearray(bufs[0])
    struct.pack_into("<I", head, 0x48 + 0x20 + 0x24, len(bufs))  # BuffersWritten
    with open(path, "wb") as fh:
        fh.write(head + b"".join(bufs[1:]))


def diags(path, *args):
    out = subprocess.run([ORACLE, "--json", *args, path], capture_output=True, text=True).stdout
    return [d for d in map(json.loads, out.splitlines()) if d["type"] == "diag"]


def codes(path, *args):
    return sorted(d["code"] for d in diags(path, *args))


def main():
    with tempfile.TemporaryDirectory() as t:
        m = os.path.join(t, "m.etl")
        subprocess.run([GCGEN, "-q", "-f", "etl", "--seed", "1", "--processes", "4",
                        "--gcs", "6", "-O", "buffer-size=4096", "-o", m], check=True)
        got = codes(m)
        ok("GC-S003" not in got and "GC-S025" not in got,
           "a process ending inside a GC (kernel Process End): no GC-S003, GC-S025", got)
        ok(codes(m, "--threads", "2") == got, "--threads 2: the same", codes(m, "--threads", "2"))
        quiet = subprocess.run([ORACLE, "--quiet", "--threads", "2", m], capture_output=True,
                               text=True).stdout
        ok("GC-S003" not in quiet and "GC-S025" not in quiet and "GC-W010" in quiet,
           "--quiet --threads 2 (the records queued to the checking thread): the same", quiet)
        bufs = buffers(m)
        ends = 0
        for b in bufs[1:]:
            for p, ty in records(b):
                if ty in (0x01, 0x02) and b[p + 7] == 3 and b[p + 6] == 2:
                    b[p + 6] = 4
                    ends += 1
        dc = os.path.join(t, "dcend.etl")
        write(dc, bufs)
        got = codes(dc)
        ok(ends == 1 and "GC-S003" in got and "GC-S025" in got,
           "the same with its End made a DCEnd: GC-S003 and GC-S025 again", [ends, got])

        a, b = os.path.join(t, "a.etl"), os.path.join(t, "b.etl")
        for path, seed in ((a, 11), (b, 12)):
            subprocess.run([GCGEN, "-q", "-f", "etl", "--seed", str(seed), "--gcs", "6",
                            "-O", "process-id=1001", "-O", "buffer-size=4096", "-o", path],
                           check=True)
        ba, bb = buffers(a), buffers(b)
        end = last_time(ba)
        shift(bb, end + 1000 - struct.unpack_from("<Q", bb[1], BUFHDR + 0x10)[0])
        kernel = [process_record(2, 1001, end + 10), process_record(1, 1001, end + 20)]
        plain = os.path.join(t, "plain.etl")
        write(plain, ba + bb[1:])
        got = codes(plain)
        ok("GC-S007" in got, "pid 1001 twice, no kernel records: GC-S007", got)
        reuse = os.path.join(t, "reuse.etl")
        write(reuse, ba + [kernel_buffer(ba[1], kernel)] + bb[1:])
        serious = [d for d in diags(reuse) if d["severity"] != "note"]
        ok(not serious, "End, then Start of pid 1001: a new process, 0 errors, 0 warnings",
           serious)
        ok(codes(reuse) == sorted(codes(a) + ["GC-W010"]),
           "and the notes of one run alone (and the kernel records' GC-W010)",
           [codes(reuse), codes(a)])
        end_only = os.path.join(t, "end_only.etl")
        write(end_only, ba + [kernel_buffer(ba[1], kernel[:1])] + bb[1:])
        got = codes(end_only)
        ok("GC-S007" not in got and not [d for d in diags(end_only) if d["severity"] != "note"],
           "End alone: the id's later events are a new process", got)
    tap.done()


if __name__ == "__main__":
    main()
