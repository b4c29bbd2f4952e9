#!/usr/bin/env python3
"""gcoracle --threads 2 says byte for byte what one thread says.

The reading thread (oracle/pipeline.c) hands events, its diagnostics and
progress ticks to the writing one through a bounded queue; any slip in their
order shows in the output. Both sides are this tree's gcoracle, one with
--threads 2; the runs are tests/same/same.py's (text, --quiet --strict,
--json, --cbor, --format, --expect, --json from a pipe), compared as it does
(exit status, standard output and error), over the golden corpus, small
gcgen streams of every container (one in THREADS_SAME_EVERY, default 3, of
its fault classes, --mutate all, stacked classes and writer shapes), and
larger ones that fill the queue many times over, clean and damaged; and --threads 3 and 4, where a compressed .etl
file's buffers are also expanded on worker threads, over the compressed
.etl streams. TAP on standard output.
"""

import importlib.util
import os
import shutil
import sys
import tempfile
import time

SRC = os.path.abspath(os.environ.get("top_srcdir", "."))
BUILD = os.path.abspath(os.environ.get("top_builddir", "."))


def load_same():
    spec = importlib.util.spec_from_file_location("same", os.path.join(SRC, "tests", "same", "same.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    same = load_same()
    t0 = time.monotonic()
    gcgen = os.path.abspath(os.path.join(BUILD, "gen", "gcgen"))
    oracle = os.path.abspath(os.path.join(BUILD, "oracle", "gcoracle"))
    one = {"gcgen": gcgen, "gcoracle": oracle}
    two = dict(one, **{"gcoracle options": ["--threads", "2"]})
    work = tempfile.mkdtemp(prefix="threads-same.", dir=BUILD)
    c = same.Checker(one, two, work)
    jobs = min(4, len(os.sched_getaffinity(0)) + 1)
    n = 0

    def group(name, before):
        nonlocal n
        n += 1
        print("%s %d - %s" % ("not ok" if c.diffs[before:] else "ok", n, name), flush=True)

    def lines(argv):
        got = same.execute(same.Run(argv), one, work)
        return got["stdout"].decode().split("\n")

    formats = [x for x in lines(["gcgen", "--list-formats"]) if x]
    profiles = [x.split()[0] for x in lines(["gcgen", "--list-profiles"]) if x]
    classes_of, kind_of = {}, {}
    for f in formats:
        rows = [x.split() for x in lines(["gcgen", "--list-mutations=" + f]) if x]
        classes_of[f] = [r[0] for r in rows]
        kind_of.update((r[0], r[1]) for r in rows)
    ext = {f: "ctf" if f == "ctf" else f.split("-")[0] for f in formats}
    fam = {f: "cbor" if f == "cbor" else ext[f] for f in formats}

    # The golden corpus: malformed containers, their diagnostics and offsets.
    d0, c0 = len(c.diffs), c.comparisons
    corpus = os.path.join(SRC, "corpus")
    cases = sorted(os.listdir(os.path.join(corpus, "cases")))

    def corpus_case(i, name):
        stem, e = os.path.splitext(name)
        path = os.path.join(corpus, "cases", name)
        exp = os.path.join(corpus, "expect", stem + ".cbor")
        for r in same.oracle_runs(path, same.FAMILY[e], os.path.isdir(path),
                                  exp if os.path.exists(exp) else None):
            c.both("corpus/" + stem, r)
        c.clean("corpus/" + stem)

    same.parallel(jobs, corpus_case, cases)
    group("the corpus: %d cases, %d comparisons" % (len(cases), c.comparisons - c0), d0)

    # Small streams: every fault class of every container, and the shapes.
    specs = [s for s in same.stream_specs(formats, profiles[:2], classes_of, kind_of, 1)
             if "--shard" not in s]
    # THREADS_SAME_EVERY=K takes every K-th of them (default 3: listed by
    # container, then class, so each class still runs in several containers);
    # 1 takes all. Each is a dozen processes, and make check has its time.
    every = max(1, int(os.environ.get("THREADS_SAME_EVERY") or 3))
    specs = specs[::every]
    # Larger ones: the queue fills and waits many times; damaged ones carry
    # many diagnostics through it.
    for f in formats:
        specs.append(["-f", f, "-g", "3000", "-s", "7"])
        specs.append(["-f", f, "-g", "1500", "-s", "8", "--heaps", "3", "-M", "all"])
    specs.append(["-f", "nettrace-v5", "-g", "3000", "-s", "9", "-O", "sp-every=end"])

    def streams_with(chk, prefix):
        def stream(i, spec):
            f = spec[spec.index("-f") + 1]
            job = "%s/%d" % (prefix, i)
            cwd = os.path.join(work, job, "new")
            os.makedirs(cwd, exist_ok=True)
            out = "s." + ext[f]
            big = "3000" in spec or "1500" in spec
            got = same.execute(same.Run(["gcgen", "-q"] + spec + ["-o", out, "--expect", "s.exp"],
                                        outputs=[out, "s.exp"], digest=True), one, cwd)
            if got[out] is not None:
                for r in same.oracle_runs(out, fam[f], f == "ctf", "s.exp" if got["s.exp"] is not None else None):
                    r.digest = big
                    chk.both(job, r)
            chk.clean(job)
        return stream

    d0, c0 = len(c.diffs), c.comparisons
    same.parallel(jobs, streams_with(c, "stream"), specs)
    group("gcgen streams: %d (one in %d of every container's shapes and fault classes, %d of them large), %d comparisons"
          % (len(specs), every, 2 * len(formats) + 1, c.comparisons - c0), d0)

    # With three and four threads a compressed .etl file's buffers are also
    # expanded on one and two worker threads (etl_inflate.c): its streams,
    # every fault class and the large ones, against one thread.
    packed = [sp for sp in specs if sp[sp.index("-f") + 1] == "etl-compressed"]
    for t in ("3", "4"):
        ct = same.Checker(one, dict(one, **{"gcoracle options": ["--threads", t]}), work)
        same.parallel(jobs, streams_with(ct, "etl-threads-" + t), packed)
        n += 1
        print("%s %d - compressed .etl, --threads %s: %d streams, %d comparisons"
              % ("not ok" if ct.diffs else "ok", n, t, len(packed), ct.comparisons), flush=True)
        c.diffs += ct.diffs
        c.comparisons += ct.comparisons

    # Option handling.
    d0 = len(c.diffs)
    for i, bad in enumerate([["--threads", "0"], ["--threads", "x"], ["--threads", "-2"],
                             ["--threads", "1025"], ["--threads", ""]]):
        got = same.execute(same.Run(["gcoracle"] + bad + [os.path.join(corpus, "cases", cases[0])]),
                           one, work)
        if got["exit status"] != 2 or b"--threads" not in got["stderr"]:
            c.diffs.append(("usage", " ".join(bad), ["not refused: %r" % (got,)]))
    group("--threads refuses 0, negative, non-numbers and more than 1024", d0)

    for job, cmd, found in c.diffs[:20]:
        print("# DIFFERENT: %s   (in %s)" % (cmd, os.path.join(work, job)))
        for line in found:
            print("#   " + line)
    print("# %d comparisons, %d different, %.0f s" % (c.comparisons, len(c.diffs), time.monotonic() - t0))
    print("1..%d" % n)
    if not c.diffs:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
