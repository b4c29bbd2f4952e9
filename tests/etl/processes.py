#!/usr/bin/env python3
"""Two .NET processes in one .etl, as a machine-wide ETW session records
them: gcgen writes process 1001 (64-bit, EVENT_HEADER64) and process 1002
(32-bit, EVENT_HEADER32) with -O process-id=N; their buffers are
interleaved in one file under a per-processor logfile header (as in
mixed_pointer.py), so that gcoracle's time-order window mixes the two
runtimes' events, both ClrInstanceID 8, both numbering their GCs from 1.
The checker keeps them apart by the event header's ProcessId: 0 errors,
0 warnings, and GCs counted per process; a broken variant (process 1002's
GC numbers going backwards, gc-count-backwards) gives exactly the errors
the broken file gives alone, naming process 1002. 70 processes in one
file overflow the checker's table: the least recently used instance is
dropped, said once, and nothing is reported wrongly. TAP.
"""
import json
import os
import re
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
NO_PER_PROCESSOR_BUFFERING = 0x10000000
LFH = 0x48 + 0x20  # TRACE_LOGFILE_HEADER in buffer 0


def buffers(path):
    data = open(path, "rb").read()
    size = struct.unpack_from("<I", data, 0)[0]
    return [data[i:i + size] for i in range(0, len(data), size)]


def merge(a, b, out, *more):
    """a's buffer 0, then the files' other buffers in turn."""
    bs = [buffers(f) for f in (a, b) + more]
    head = bytearray(bs[0][0])
    rest = []
    for i in range(1, max(map(len, bs))):
        rest += [x[i] for x in bs if i < len(x)]
    mode, = struct.unpack_from("<I", head, LFH + 0x20)
    struct.pack_into("<I", head, LFH + 0x20, mode & ~NO_PER_PROCESSOR_BUFFERING)
    struct.pack_into("<I", head, LFH + 0x24, 1 + len(rest))
    with open(out, "wb") as fh:
        fh.write(head + b"".join(rest))


def gcgen(out, seed, pid, psize, *more):
    subprocess.run([GCGEN, "-q", "-f", "etl", "--seed", str(seed), "--gcs", "100",
                    "--pointer-size", str(psize), "-O", "process-id=%d" % pid, "-o", out, *more],
                   check=True)


def oracle(*args):
    return subprocess.run([ORACLE, *args], capture_output=True, text=True).stdout


def serious(path, suffix=""):
    # Event numbers in messages are the file's: they differ once merged.
    return sorted((d["code"], re.sub(r"event \d+", "event N", d["message"]) + suffix)
                  for d in map(json.loads, oracle("--json", path).splitlines())
                  if d["type"] == "diag" and d["severity"] in ("error", "warning"))


def gcs(summary):
    return re.search(r"(\d+) GCs", summary).group(1)


def main():
    with tempfile.TemporaryDirectory() as t:
        a, b, bad = (os.path.join(t, n + ".etl") for n in ("a", "b", "bad"))
        gcgen(a, 11, 1001, 8)
        gcgen(b, 12, 1002, 4)
        gcgen(bad, 12, 1002, 4, "-M", "gc-count-backwards")
        merged, broken = os.path.join(t, "merged.etl"), os.path.join(t, "broken.etl")
        merge(a, b, merged)
        merge(a, bad, broken)

        recs = [r for r in map(json.loads, oracle("--json", merged).splitlines())
                if r["type"] == "event" and r["name"].startswith("GCStart")]
        counts = [r["fields"]["Count"] for r in recs]
        ok(counts != sorted(counts), "the two processes' GCs interleave in time order",
           counts[:20])
        sa, sb, sm = oracle("--quiet", a), oracle("--quiet", b), oracle("--quiet", merged)
        ok(not serious(a) and not serious(b), "each file alone is clean", sa + sb)
        ok(not serious(merged), "merged: 0 errors, 0 warnings", serious(merged))
        by = dict(re.findall(r"^  process (\d+) +(\d+)$", sm, re.M))
        ok(by == {"1001": gcs(sa), "1002": gcs(sb)}, "the summary counts each process's GCs", sm)
        alone = serious(bad, " (process 1002)")
        ok(any(c == "GC-S007" for c, _ in alone) and serious(broken) == alone,
           "broken: the broken file's own errors, naming process 1002",
           [serious(broken), alone])
        ok(oracle("--quiet", "--threads", "2", merged) == sm, "--threads 2: the same summary")

        # More runtime instances than the checker's table holds (64): the
        # one unused longest is dropped, said once, and none is merged
        # with another (which would break GC numbering and pairing).
        many = []
        for i in range(70):
            many.append(os.path.join(t, "p%d.etl" % i))
            subprocess.run([GCGEN, "-q", "-f", "etl", "--seed", str(i + 1), "--gcs", "4",
                            "-O", "process-id=%d" % (2001 + i), "-O", "buffer-size=4096",
                            "-o", many[-1]], check=True)
        crowd = os.path.join(t, "crowd.etl")
        merge(many[0], many[1], crowd, *many[2:])
        notes = [d for d in map(json.loads, oracle("--json", crowd).splitlines())
                 if d["type"] == "diag" and d["code"] == "GC-S027"]
        ok(not serious(crowd), "70 processes: 0 errors, 0 warnings", serious(crowd))
        ok(len(notes) == 1 and "has its state dropped" in notes[0]["message"],
           "70 processes: the eviction is said once (GC-S027)", notes)
    tap.done()


if __name__ == "__main__":
    main()
