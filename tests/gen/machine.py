"""gcgen --processes: machine-wide .etl and CTF traces (gen/machine.h).

Each process of a machine-wide trace is checked against a one-process run
of its profile, seed and pointer size: gcoracle's decoding of its events
(names and field values, in order) must be that run's, whole for the
processes that run to the end, a prefix for the one that ends inside a GC,
a suffix starting at a GC above 1 for the attached one. The merged trace
is 0 errors and 0 warnings with a GC count per process, the same bytes for
the same options, and holds the kernel's Process Start/End records (.etl)
or the statedump events (CTF) where processes start and end. Fault classes
act in process 0 with their expectations moved to the merged stream.
TAP.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

build = os.environ.get("top_builddir", ".")
GCGEN = os.path.join(build, "gen", "gcgen")
ORACLE = os.path.join(build, "oracle", "gcoracle")
SEED, GCS = 5, 8
PROFILES = ["net8", "netfx45", "net10", "netcore3"]
PID = [4242 + 1301 * k for k in range(4)]


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def gen(work, name, args):
    path = os.path.join(work, name)
    r = run([GCGEN, "-q", "-o", path] + args)
    if r.returncode:
        sys.exit("gcgen %s: %s" % (" ".join(args), r.stderr))
    return path


def events(path):
    """[(thread, name, fields)] of gcoracle --json, and the summary line."""
    r = run([ORACLE, "--json", path])
    evs, summary = [], None
    for line in r.stdout.splitlines():
        d = json.loads(line)
        if d["type"] == "event" and d["name"] and "fields" in d:
            evs.append((d["thread"], d["name"], d["fields"]))
        elif d["type"] == "summary":
            summary = d
    return evs, summary


def by_process(evs):
    """Events by process k, told by the thread ids' machine-wide offset
    (k << 16); thread ids as the one-process run has them."""
    out = {}
    for thread, name, fields in evs:
        out.setdefault(thread >> 16, []).append((thread & 0xFFFF, name, fields))
    return out


def etl_process_records(path):
    """(type, pid in the payload) of each SYSTEM record of group 3 (the
    kernel's Process events) in an uncompressed .etl."""
    data = open(path, "rb").read()
    size = struct.unpack_from("<I", data, 0)[0]
    found = []
    for b in range(size, len(data), size):
        end = struct.unpack_from("<I", data, b + 0x30)[0]
        at = 0x48
        while at + 8 <= end:
            htype = data[b + at + 2]
            if htype in (0x12, 0x13):
                n = struct.unpack_from("<H", data, b + at)[0]
            else:
                n = struct.unpack_from("<H", data, b + at + 4)[0]
            if htype in (1, 2) and data[b + at + 7] == 3:
                ps = 4 if htype == 1 else 8
                pid = struct.unpack_from("<I", data, b + at + 0x20 + ps)[0]
                found.append((data[b + at + 6], pid))
            at += (n + 7) & ~7
    return found


def check_format(work, fmt):
    ext = "" if fmt == "ctf" else ".etl"
    args = ["--format", fmt, "--processes", "4", "--profile", ",".join(PROFILES[:3]),
            "--seed", str(SEED), "--gcs", str(GCS)]
    a = gen(work, fmt + "_a" + ext, args + ["--expect", os.path.join(work, fmt + ".exp")])
    b = gen(work, fmt + "_b" + ext, args)
    same = run(["diff", "-r", a, b]).returncode == 0
    tap.ok(same, "%s: same options, same bytes" % fmt)
    r = run([ORACLE, "--expect", os.path.join(work, fmt + ".exp"), a])
    tap.ok(r.returncode == 0 and "0 errors, 0 warnings" in run([ORACLE, a]).stdout,
           "%s: 4 processes, 0 errors and 0 warnings, expectations met" % fmt, r.stdout)
    # The --values file (a model stream) names each event's process, so the
    # corpus's expectations of a machine-wide case name the right one.
    vals = os.path.join(work, fmt + ".values")
    gen(work, fmt + "_v" + ext, args + ["--values", vals])

    def procs_of(path):
        out = run([ORACLE, "--json", path]).stdout.splitlines()
        return [d["process"] for d in map(json.loads, out)
                if d["type"] == "event" and d.get("provider", "").startswith("Microsoft-Windows-DotNETRuntime")]
    in_trace, in_values = procs_of(a), procs_of(vals)
    tap.ok(in_trace == in_values and set(in_values) == set(PID),
           "%s: the --values file names each event's process, as the trace does" % fmt,
           "trace %d events, values %d, processes %s" % (len(in_trace), len(in_values), sorted(set(in_values))))
    text = run([ORACLE, a]).stdout
    tap.ok(all("process %d" % p in text for p in PID),
           "%s: the summary counts GCs for each of the 4 processes" % fmt, text[-600:])
    merged, _ = events(a)
    procs = by_process(merged)
    for k in range(4):
        prof = PROFILES[:3][k % 3]
        ps = 8 if fmt == "ctf" or k % 2 == 0 else 4
        gcs = GCS + 2 if k == 2 else GCS
        one = gen(work, "%s_one%d%s" % (fmt, k, ext),
                  ["--format", fmt, "--profile", prof, "--seed", str(SEED + k),
                   "--pointer-size", str(ps), "--gcs", str(gcs)])
        alone, _ = events(one)
        mine = procs.get(k, [])
        if k == 1:
            what, good = "a prefix ending inside its second GC", \
                mine == alone[:len(mine)] and mine and mine[-1][1].startswith("GCStart") and \
                len({e[2]["Count"] for e in mine if e[1].startswith("GCStart")}) == 2
        elif k == 2:
            first = next((e[2]["Count"] for e in mine if e[1].startswith("GCStart")), 0)
            what, good = "a suffix from GC %d (attached mid-life)" % first, \
                mine and mine == alone[len(alone) - len(mine):] and first > 1
        else:
            what, good = "all of it", mine == alone
        tap.ok(good, "%s: process %d (%s, %d-bit, seed %d) is the one-process run's events, %s"
               % (fmt, k, prof, 8 * ps, SEED + k, what),
               "%d events here, %d alone" % (len(mine), len(alone)))
    if fmt == "etl":
        recs = etl_process_records(a)
        want = [(1, PID[1]), (1, PID[3]), (2, PID[1])]
        tap.ok(sorted(recs) == sorted(want),
               "etl: kernel Process Start for processes 1 and 3, End for process 1", str(recs))
    else:
        r = run([ORACLE, "--json", a])
        names = [json.loads(x).get("provider", "") for x in r.stdout.splitlines()]
        tap.ok(names.count("lttng_ust_statedump:procname") == 2,
               "ctf: a statedump (procname) for each of the 2 processes that start",
               str(names.count("lttng_ust_statedump:procname")))


def check_faults(work):
    for fmt in ("etl", "ctf"):
        ext = "" if fmt == "ctf" else ".etl"
        for cls in ("process-swap", "gc-count-backwards"):
            exp = os.path.join(work, "%s_%s.exp" % (fmt, cls))
            out = gen(work, "%s_%s%s" % (fmt, cls, ext),
                      ["--format", fmt, "--processes", "3", "--profile", "net8,net10",
                       "--seed", "2", "--gcs", "8", "--mutate", cls, "--expect", exp])
            r = run([ORACLE, "--expect", exp, out])
            lines = open(exp).read().splitlines()
            named = [l for l in lines if '"event"' in l and '"process":%d' % PID[0] in l]
            tap.ok(r.returncode == 0 and named,
                   "%s --processes 3 --mutate %s: reported where recorded in the merged "
                   "stream, naming process %d" % (fmt, cls, PID[0]), r.stdout + "\n".join(lines))


def check_refusals(work):
    out = os.path.join(work, "x")
    r = run([GCGEN, "-q", "--format", "nettrace-v5", "--processes", "2", "-o", out])
    tap.ok(r.returncode == 2 and "does not name each event's process" in r.stderr,
           "--processes with a container without per-event processes: usage error", r.stderr)
    r = run([GCGEN, "-q", "--mutate", "process-swap", "-o", out])
    tap.ok(r.returncode == 2 and "process-swap" in r.stderr,
           "process-swap in the model stream: usage error", r.stderr)
    r = run([GCGEN, "--list-mutations=nettrace-v5"])
    tap.ok("process-swap" not in r.stdout and "process-swap" in run(
        [GCGEN, "--list-mutations=ctf"]).stdout,
        "process-swap is listed for ctf, not for nettrace")
    r = run([GCGEN, "-q", "--profile", "net8,net10", "--processes", "1", "-f", "etl", "-o", out])
    tap.ok(r.returncode == 2, "a profile list with --processes 1: usage error", r.stderr)
    r = run([GCGEN, "-q", "--processes", "2", "-f", "etl", "-O", "foreign-every=5", "-o", out])
    tap.ok(r.returncode == 2 and "foreign-every" in r.stderr,
           "--processes with -O foreign-every (events the expectations do not count): usage error",
           r.stderr)


def main():
    work = tempfile.mkdtemp()
    try:
        check_format(work, "etl")
        check_format(work, "ctf")
        check_faults(work)
        check_refusals(work)
    finally:
        shutil.rmtree(work)
    tap.done()


main()
