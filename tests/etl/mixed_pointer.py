#!/usr/bin/env python3
"""A merged .etl holding a 32-bit and a 64-bit process, as PerfView merges a
32-bit application into a 64-bit session: gcgen writes one stream with
pointer size 4 (EVENT_HEADER32 records) and one with 8 (EVENT_HEADER64);
this test interleaves their buffers in one file whose logfile header says
per-processor buffering (so gcoracle puts the events back in time order in
its window, mixing the two processes' events) and checks that every event
comes out decoded with its own pointer size: the events and values equal
those of the two files read apart. TAP.
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
NO_PER_PROCESSOR_BUFFERING = 0x10000000
LFH = 0x48 + 0x20  # TRACE_LOGFILE_HEADER in buffer 0


def events(path):
    out = subprocess.run([ORACLE, "--json", path], capture_output=True, text=True)
    evs = []
    for line in out.stdout.splitlines():
        r = json.loads(line)
        if r["type"] == "event":
            for k in ("index", "offset"):
                r.pop(k, None)
            evs.append(json.dumps(r, sort_keys=True))
    return evs


def buffers(data):
    size = struct.unpack_from("<I", data, 0)[0]
    return [data[i:i + size] for i in range(0, len(data), size)]


def main():
    with tempfile.TemporaryDirectory() as t:
        files = {}
        for ps, seed in ((4, 11), (8, 12)):
            f = os.path.join(t, "p%d.etl" % ps)
            r = subprocess.run([GCGEN, "-q", "-f", "etl", "--pointer-size", str(ps), "--seed", str(seed),
                                "--gcs", "60", "-o", f])
            ok(r.returncode == 0, "gcgen writes a %d-bit stream" % (ps * 8))
            files[ps] = f
        b4 = buffers(open(files[4], "rb").read())
        b8 = buffers(open(files[8], "rb").read())
        ok(len(b4) > 2 and len(b8) > 2 and len(b4[0]) == len(b8[0]),
           "both hold several buffers of one size (%d and %d)" % (len(b4), len(b8)))
        # Buffer 0 of the 64-bit session, then the two processes' buffers
        # in turn, as per-processor buffers of a merged session arrive.
        head = bytearray(b8[0])
        rest = []
        for i in range(1, max(len(b4), len(b8))):
            for b in (b4, b8):
                if i < len(b):
                    rest.append(b[i])
        mode, = struct.unpack_from("<I", head, LFH + 0x20)
        struct.pack_into("<I", head, LFH + 0x20, mode & ~NO_PER_PROCESSOR_BUFFERING)
        struct.pack_into("<I", head, LFH + 0x24, 1 + len(rest))
        merged = os.path.join(t, "merged.etl")
        with open(merged, "wb") as fh:
            fh.write(head)
            for b in rest:
                fh.write(b)
        apart = sorted(events(files[4]) + events(files[8]))
        together = sorted(events(merged))
        ok(len(together) == len(apart) and len(apart) > 1000,
           "the merged file holds every event of both (%d of %d)" % (len(together), len(apart)))
        diff = [a for a, b in zip(apart, together) if a != b]
        ok(not diff, "every event is decoded with its own process's pointer size (%d differ)%s"
           % (len(diff), (": " + diff[0][:200]) if diff else ""))
        recs = [json.loads(x) for x in
                subprocess.run([ORACLE, "--json", merged], capture_output=True, text=True).stdout.splitlines()
                if '"type":"event"' in x]
        ts = [r["timestamp"] for r in recs]
        by_file = [r["timestamp"] for r in sorted(recs, key=lambda r: r["index"])]
        ok(ts == sorted(ts) and by_file != ts,
           "the file order is not time order, and gcoracle hands the events on in time order")
    print("1..%d" % tap.n)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
