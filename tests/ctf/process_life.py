#!/usr/bin/env python3
"""A process id taken by a new process, and processes seen starting, in
machine-wide traces:

- gcgen --reuse-pid (CTF and .etl): the last of 4 processes starts once
  process 1 has ended (inside its second GC), under process 1's id and
  with its runtime (ClrInstanceID 9), numbering its GCs from 1 again.
  In .etl the kernel's Process End and Start say so; in CTF, LTTng-UST's
  statedump start for that vpid, followed by GC numbering that starts over
  (its first suspension's Count below the old GC's). Both: 0 errors, 0
  warnings, and process 5543's GCs counted together (2 + 6).
- The same CTF trace with the statedump's start renamed in the metadata
  (same length): a bare decrease is no evidence, the errors come back.
- The genuine LTTng sessions (tests/ctf/real/coreclr-multi-lttng-2.12):
  a .NET 8 or 10 process starting while traced (its EEStartupStart) runs
  its start-up GC without a GCStart; that is no trace edge, so no GC-S002
  note, and still 0 errors, 0 warnings; the .NET 8 process that exits
  inside a background GC leaves it open at the end, and LTTng-UST records
  no exit: its GC-S003 and GC-S025 notes say it may have exited.
TAP.
"""
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

top = os.environ.get("top_srcdir", ".")
build = os.environ.get("top_builddir", ".")
GCGEN = os.path.join(build, "gen", "gcgen")
ORACLE = os.path.join(build, "oracle", "gcoracle")
TARBALL = os.path.join(top, "tests", "ctf", "real", "coreclr-multi-lttng-2.12.tar.gz")


def diags(path):
    out = subprocess.run([ORACLE, "--json", path], capture_output=True, text=True).stdout
    return [d for d in map(json.loads, out.splitlines()) if d["type"] == "diag"]


def serious(path):
    return [(d["code"], d["message"]) for d in diags(path) if d["severity"] != "note"]


def gcs_of(path, pid):
    out = subprocess.run([ORACLE, "--quiet", path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f[:2] == ["process", str(pid)]:
            return int(f[2])
    return None


def main():
    with tempfile.TemporaryDirectory() as t:
        for fmt in ("ctf", "etl"):
            path = os.path.join(t, "reuse." + fmt)
            subprocess.run([GCGEN, "-q", "-f", fmt, "--seed", "1", "--processes", "4",
                            "--profile", "net8,netfx45,net10", "--gcs", "6", "--reuse-pid",
                            "-o", path], check=True)
            ok(not serious(path), "%s: pid 5543 reused, 0 errors, 0 warnings" % fmt,
               serious(path))
            ok(gcs_of(path, 5543) == 8, "%s: both runtimes' GCs counted as 5543's" % fmt,
               gcs_of(path, 5543))
        bare = os.path.join(t, "bare.ctf")
        shutil.copytree(os.path.join(t, "reuse.ctf"), bare)
        meta = os.path.join(bare, "metadata")
        data = open(meta, "rb").read()
        with open(meta, "wb") as fh:
            fh.write(data.replace(b"lttng_ust_statedump:start", b"lttng_ust_statedump:stXrt"))
        ok(serious(bare), "ctf: without the statedump's start, the decrease is an error",
           serious(bare))

        if not os.path.exists(TARBALL):
            tap.skip("genuine sessions", "the LTTng sessions are not there")
        else:
            with tarfile.open(TARBALL) as tf:
                tf.extractall(t)
            root = os.path.join(t, "lttng-multi")
            edge = []
            for s in sorted(os.listdir(root)):
                if not os.path.isdir(os.path.join(root, s)):
                    continue
                ds = diags(os.path.join(root, s))
                ok(not [d for d in ds if d["code"] == "GC-S002" or d["severity"] != "note"],
                   "genuine session %s: no GC-S002 for a process seen starting, "
                   "0 errors, 0 warnings" % s,
                   [(d["code"], d["message"]) for d in ds if d["code"] != "GC-U003"])
                edge += [d["message"] for d in ds if d["code"] in ("GC-S003", "GC-S025")]
            ok(edge and all("or its process exited then" in m for m in edge),
               "genuine sessions: what is open at the end may be a process's exit, "
               "which LTTng-UST does not record: the notes say so", edge)
    tap.done()


if __name__ == "__main__":
    main()
