#!/usr/bin/env python3
"""make check-oracle-same: gcgen and gcoracle give the same bytes as a reference build.

The guard of a change that must not change behaviour (a restructuring): the
reference is gcgen and gcoracle built from a git revision (tests/same/BASE, or
SAME_BASE), cached under the build tree in same-ref/<hash>/; the programs under
test are the build tree's gen/gcgen and oracle/gcoracle. Both run the same
commands, with the same argv[0], in directories of the same name, and every
byte they leave must agree: exit status, standard output and error, and every
file they write (a CTF trace as a whole directory tree). Over the golden corpus
(gcoracle's text, JSON and CBOR outputs, gcoracle compare, gcoracle run) and
thousands of small generated streams (every format, profile, fault class,
mode, workstation and server, a range of seeds: gcgen's outputs, then
gcoracle's on each stream). TAP on standard output; skips outside a git
checkout (a release tarball has no history to build the reference from).
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

PROGS = ("gen/gcgen", "oracle/gcoracle")
FAMILY = {".cbor": "cbor", ".nettrace": "nettrace", ".etl": "etl", ".ctf": "ctf"}
SHOWN_DIFFS = 40


def say(line=""):
    print(line, flush=True)


def git(src, *args):
    return subprocess.run(["git", "-C", src] + list(args), capture_output=True, text=True)


def source_checkout(src):
    """Why src is not the top of a git checkout, or None when it is. A
    distcheck tree is unpacked inside the build tree, which may itself sit in
    a checkout: only a checkout whose top is src itself counts."""
    if shutil.which("git") is None:
        return "git is not installed"
    top = git(src, "rev-parse", "--show-toplevel")
    if top.returncode != 0 or os.path.realpath(top.stdout.strip()) != os.path.realpath(src):
        return "%s is not a git checkout (a release tarball has no history to build the reference from)" % src
    return None


def build_reference(src, build, rev, jobs):
    """The reference programs of commit rev, built once into build/same-ref/rev/."""
    ref = os.path.join(build, "same-ref", rev)
    if all(os.access(os.path.join(ref, p), os.X_OK) for p in PROGS):
        say("# reference %s: cached in %s" % (rev, ref))
        return ref
    say("# reference %s: building in a temporary directory (once; cached in %s)" % (rev, ref))
    tmp = tempfile.mkdtemp(prefix="gcconform-same-ref.")
    try:
        log = open(os.path.join(tmp, "build.log"), "w+")
        tree = os.path.join(tmp, "tree")
        os.mkdir(tree)
        archive = subprocess.Popen(["git", "-C", src, "archive", "--format=tar", rev],
                                   stdout=subprocess.PIPE)
        untar = subprocess.run(["tar", "-x", "-C", tree], stdin=archive.stdout)
        archive.stdout.close()
        if archive.wait() != 0 or untar.returncode != 0:
            raise RuntimeError("git archive %s | tar -x failed" % rev)
        # The programs' own make targets do not build automake's BUILT_SOURCES
        # (the generated spec tables): a second makefile names them.
        with open(os.path.join(tmp, "built.mk"), "w") as f:
            f.write("same-built-sources: $(BUILT_SOURCES)\n.PHONY: same-built-sources\n")
        steps = ["./bootstrap", "./configure",
                 "make -f Makefile -f ../built.mk -j%d same-built-sources" % jobs,
                 "make -j%d %s" % (jobs, " ".join(PROGS))]
        for step in steps:
            log.write("$ %s\n" % step)
            log.flush()
            r = subprocess.run(step, shell=True, cwd=tree, stdout=log, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                log.seek(0)
                tail = log.read().splitlines()[-30:]
                raise RuntimeError("%s failed (exit %d) building %s:\n%s"
                                   % (step, r.returncode, rev, "\n".join(tail)))
        part = tempfile.mkdtemp(prefix=rev + ".part.", dir=os.path.dirname(ref)) \
            if os.path.isdir(os.path.dirname(ref)) else None
        if part is None:
            os.makedirs(os.path.dirname(ref), exist_ok=True)
            part = tempfile.mkdtemp(prefix=rev + ".part.", dir=os.path.dirname(ref))
        for p in PROGS:
            os.makedirs(os.path.join(part, os.path.dirname(p)), exist_ok=True)
            shutil.copy2(os.path.join(tree, p), os.path.join(part, p))
        if os.path.isdir(ref):
            shutil.rmtree(ref)      # an earlier build that did not finish
        os.rename(part, ref)
        return ref
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# -- running one command on both sides ------------------------------------

class Run:
    """One command: argv[0] is "gcgen" or "gcoracle" (the program of each side);
    outputs are the files it writes in its directory. shared: both sides run in
    one directory (they only read there)."""

    def __init__(self, argv, outputs=(), stdin=None, shared=False, normalize=None, digest=False):
        self.argv = list(argv)
        self.digest = digest    # large outputs: compared by SHA-256, never held
        self.outputs = list(outputs)
        self.stdin = stdin
        self.shared = shared
        self.normalize = normalize

    def text(self):
        return " ".join(a if re.fullmatch(r"[\w./=,:+@%-]+", a) else "'%s'" % a for a in self.argv) \
            + (" <%s" % self.stdin if self.stdin else "")


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return "sha256 " + h.hexdigest()


def read_tree(path, digest=False):
    """A file's bytes, a directory's {relative path: bytes}, or None (with
    digest, SHA-256 digests in place of the bytes)."""
    def read(p):
        if digest:
            return file_digest(p)
        with open(p, "rb") as f:
            return f.read()
    if os.path.isfile(path):
        return read(path)
    if os.path.isdir(path):
        tree = {}
        for d, _, files in os.walk(path):
            for n in files:
                p = os.path.join(d, n)
                tree[os.path.relpath(p, path)] = read(p)
        return tree
    return None


def execute(run, bins, cwd):
    prog = bins[run.argv[0]]
    # A side may add options to a program's decoding runs (tests/oracle/
    # threads_same.py: gcoracle --threads 2 against one thread).
    extra = bins.get(run.argv[0] + " options")
    if extra and run.argv[1:2] not in (["compare"], ["run"]):
        run = Run(run.argv[:1] + extra + run.argv[1:], run.outputs, run.stdin, run.shared,
                  run.normalize, run.digest)
    stdin = open(os.path.join(cwd, run.stdin), "rb") if run.stdin else subprocess.DEVNULL
    try:
        if run.digest:
            with tempfile.TemporaryFile(dir=cwd) as out:
                p = subprocess.run(run.argv, executable=prog, cwd=cwd, stdin=stdin, stdout=out,
                                   stderr=subprocess.PIPE)
                out.seek(0)
                h = hashlib.sha256()
                for chunk in iter(lambda: out.read(1 << 20), b""):
                    h.update(chunk)
                p.stdout = "sha256 " + h.hexdigest()
        else:
            p = subprocess.run(run.argv, executable=prog, cwd=cwd, stdin=stdin, capture_output=True)
    finally:
        if run.stdin:
            stdin.close()
    got = {"exit status": p.returncode, "stdout": p.stdout, "stderr": p.stderr}
    for o in run.outputs:
        got[o] = read_tree(os.path.join(cwd, o), run.digest)
    if run.normalize:
        got = run.normalize(got)
    return got


def first_difference(a, b):
    """Where two byte strings first differ, as a line for the report."""
    if isinstance(a, (int, str)) or a is None or b is None:
        return "%r, not %r" % (b, a)
    if isinstance(a, dict):
        if set(a) != set(b):
            return "files %s, not %s" % (sorted(b), sorted(a))
        for k in sorted(a):
            if a[k] != b[k]:
                return "%s: %s" % (k, first_difference(a[k], b[k]))
    n = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    line = a.count(b"\n", 0, n) + 1
    if b"\0" not in a[:n + 64] and b"\0" not in b[:n + 64]:
        la = a[a.rfind(b"\n", 0, n) + 1:].split(b"\n", 1)[0]
        lb = b[b.rfind(b"\n", 0, n) + 1:].split(b"\n", 1)[0]
        return "line %d (byte %d; %d and %d bytes):\n#   reference: %r\n#   this tree: %r" % (
            line, n, len(a), len(b), la[:200], lb[:200])
    return "byte %d (%d and %d bytes): reference %s %r, this tree %s %r" % (
        n, len(a), len(b), a[n:n + 16].hex(" "), a[n:n + 16], b[n:n + 16].hex(" "), b[n:n + 16])


def compare(run, old, new):
    return ["%s differs: %s" % (k, first_difference(old[k], new[k]))
            for k in old if old[k] != new[k]]


class Checker:
    def __init__(self, old, new, work):
        self.bins = {"old": old, "new": new}
        self.work = work
        self.comparisons = 0
        self.diffs = []
        self.lock = threading.Lock()
        self.status = {}    # (program, exit status) -> how often, this tree's side

    def both(self, job, run):
        """Run on both sides in job's directories; returns the new side's result."""
        jd = os.path.join(self.work, job)
        sides = {}
        for side in ("old", "new"):
            cwd = os.path.join(jd, "new" if run.shared else side)
            os.makedirs(cwd, exist_ok=True)
            sides[side] = execute(run, self.bins[side], cwd)
        found = compare(run, sides["old"], sides["new"])
        with self.lock:
            self.comparisons += 1
            key = (run.argv[0], sides["new"]["exit status"])
            self.status[key] = self.status.get(key, 0) + 1
            if found:
                self.diffs.append((job, run.text(), found))
        return sides["new"]

    def clean(self, job):
        with self.lock:
            differed = any(d[0] == job for d in self.diffs)
        if not differed:
            shutil.rmtree(os.path.join(self.work, job), ignore_errors=True)


def parallel(jobs, fn, items):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for f in [ex.submit(fn, i, it) for i, it in enumerate(items)]:
            f.result()


# -- what is compared ------------------------------------------------------

def lines(checker, job, argv):
    got = checker.both(job, Run(argv))
    return got["stdout"].decode().split("\n")


def oracle_runs(path, fam, is_dir, expect=None):
    """gcoracle's ways of reading one stream, path relative to the job's directory."""
    runs = [["gcoracle", path], ["gcoracle", "--quiet", "--strict", path],
            ["gcoracle", "--json", path], ["gcoracle", "--cbor", path],
            ["gcoracle", "--json", "--format", fam, path]]
    if expect:
        runs += [["gcoracle", "--expect", expect, path], ["gcoracle", "--json", "--expect", expect, path]]
    out = [Run(r, shared=True) for r in runs]
    if not is_dir:
        out.append(Run(["gcoracle", "--json", "-"], stdin=path, shared=True))
    return out


def stream_specs(formats, profiles, classes_of, kind_of, seeds):
    """gcgen argument lists: every format x profile x heaps x mode, every
    format x fault class, --mutate all, a few stacked classes and the
    container options. Small streams: -g 3..20."""
    specs = []

    def g(*salt):
        return str(3 + sum(len(str(s)) * 7 + i for i, s in enumerate(salt)) % 18)

    for f in formats:
        for pi, p in enumerate(profiles):
            for h in ("0", "4"):
                for s in range(1, seeds + 1):
                    specs.append(["-f", f, "-p", p, "--heaps", h, "-s", str(s), "-g", g(f, p, h, s)])
                specs.append(["-f", f, "-p", p, "--heaps", h, "-m", "exhaustive"])
                for i in range(3):
                    specs.append(["-f", f, "-p", p, "--heaps", h, "-m", "exhaustive",
                                  "-s", str(pi + 1), "--shard", "%d/3" % i])
        classes = classes_of[f]
        for ci, c in enumerate(classes):
            for s in range(1, seeds + 1):
                p = profiles[(ci + s) % len(profiles)]
                h = "0" if (ci + s) % 2 else "2"
                specs.append(["-f", f, "-p", p, "--heaps", h, "-s", str(s), "-g", g(f, c, s), "-M", c])
        stacking = [c for c in classes if kind_of[c] in ("stream", "payload")]
        for s in range(1, seeds + 1):
            for h in ("0", "3"):
                specs.append(["-f", f, "--heaps", h, "-s", str(s), "-g", "12", "-M", "all"])
            if len(stacking) > 2:
                a, b = stacking[s % len(stacking)], stacking[(s * 7 + 3) % len(stacking)]
                specs.append(["-f", f, "-s", str(s), "-g", "10", "-M", "%s,%s" % (a, b)])
        for extra in (["--stacks"], ["--pointer-size", "4"], ["-n", "40"], ["-k", "0x1", "-l", "4"],
                      ["-k", "0xFFFFFFFFFFFFFFFF"], ["-p", "netfx4", "--stacks", "--heaps", "2"]):
            specs.append(["-f", f, "-s", "5", "-g", "8"] + extra)
        if f.startswith("nettrace"):
            for extra in (["-O", "block-bytes=300"], ["-O", "sp-every=1"], ["-O", "sp-every=end"],
                          ["-O", "uncompressed=1"], ["-O", "metadata-upfront=1"],
                          ["--uncompressed-headers"], ["--block-bytes", "700", "--sp-every", "2"],
                          ["--metadata", "upfront"], ["--full-metadata"],
                          ["-O", "sampler-every=5"],
                          ["-O", "sampler-every=3", "-O", "uncompressed=1", "-O", "sp-every=1"]):
                specs.append(["-f", f, "-s", "6", "-g", "9", "--stacks"] + extra)
        if f.startswith("etl"):
            for extra in (["-O", "buffer-size=1024"], ["-O", "kernel-every=3"],
                          ["-O", "foreign-every=5"], ["-O", "compressed=1"],
                          ["-O", "buffer-size=2048", "-O", "kernel-every=2", "-O", "foreign-every=3"]):
                specs.append(["-f", f, "-s", "6", "-g", "9"] + extra)
    return specs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--srcdir", default=os.environ.get("top_srcdir", "."))
    ap.add_argument("--builddir", default=os.environ.get("top_builddir", "."))
    ap.add_argument("--base", default="", help="git revision of the reference (default: tests/same/BASE)")
    ap.add_argument("--seeds", type=int, default=3, help="seeds per stream shape")
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--oracle-base", default="",
                    help="an old gcoracle binary to hold this one to, in place of a reference build "
                         "(gcgen is then this tree's on both sides)")
    ap.add_argument("--big", action="store_true",
                    help="also 100000-GC streams (the time-order window's partial flushes), "
                         "compared by SHA-256")
    a = ap.parse_args()
    src, build = os.path.abspath(a.srcdir), os.path.abspath(a.builddir)
    t0 = time.monotonic()

    bins = lambda root: {"gcgen": os.path.join(root, PROGS[0]), "gcoracle": os.path.join(root, PROGS[1])}
    new = bins(build)
    if a.oracle_base:
        rev = "gcoracle " + os.path.abspath(a.oracle_base)
        old = dict(new, gcoracle=os.path.abspath(a.oracle_base))
        say("# the reference is %s; gcgen is this tree's on both sides (not compared)" % old["gcoracle"])
    else:
        why = source_checkout(src)
        if why:
            say("1..0 # SKIP %s" % why)
            return 0
        base = a.base.strip()
        if not base:
            with open(os.path.join(src, "tests", "same", "BASE")) as f:
                base = f.read().strip()
        r = git(src, "rev-parse", "--verify", "--quiet", base + "^{commit}")
        if r.returncode != 0:
            say("Bail out! %s is not a commit of %s" % (base, src))
            return 99
        rev = r.stdout.strip()
        try:
            ref = build_reference(src, build, rev, a.jobs)
        except (RuntimeError, OSError) as e:
            say("Bail out! the reference could not be built: %s" % e)
            return 99
        old = bins(ref)
    for p in list(new.values()) + list(old.values()):
        if not os.access(p, os.X_OK):
            say("Bail out! %s is not built" % p)
            return 99
    work = tempfile.mkdtemp(prefix="same-work.", dir=build)
    c = Checker(old, new, work)
    n = 0
    counts = {}

    def group(name, before):
        nonlocal n
        n += 1
        mine = c.diffs[before:]
        counts[name] = c.comparisons
        say("%s %d - %s" % ("not ok" if mine else "ok", n, name))
        return mine

    # The lists come from this tree's gcgen; they must be the reference's too.
    d0 = len(c.diffs)
    formats = [x for x in lines(c, "lists", ["gcgen", "--list-formats"]) if x]
    profiles = [x.split()[0] for x in lines(c, "lists", ["gcgen", "--list-profiles"]) if x]
    classes_of, kind_of = {}, {}
    for f in formats:
        rows = [x.split() for x in lines(c, "lists", ["gcgen", "--list-mutations=" + f]) if x]
        classes_of[f] = [r[0] for r in rows]
        kind_of.update((r[0], r[1]) for r in rows)
    for argv in (["gcgen", "--list-mutations=all"], ["gcgen", "--list-mutations"], ["gcgen", "--help"],
                 ["gcoracle", "--help"], ["gcoracle", "compare", "--help"], ["gcoracle", "run", "--help"]):
        c.both("lists", Run(argv))
    c.clean("lists")
    group("gcgen's lists (%d formats, %d profiles, %d fault classes) and both programs' --help"
          % (len(formats), len(profiles), sum(map(len, classes_of.values()))), d0)

    # Refusals: the option parsers are what a restructuring rewrites first.
    d0, c0 = len(c.diffs), c.comparisons
    bad = [["--bogus"], ["-f", "nope"], ["-p", "net1"], ["-m", "careful"], ["--shard", "3/2"],
           ["--shard", "x"], ["-s", "x"], ["-g", "-1"], ["--heaps", "4294967297"],
           ["--pointer-size", "5"], ["-M", "no-such-class"], ["-M", "nettrace-bad-magic,drop-gcstart"],
           ["-O", "bogus=1"], ["-f", "etl", "-O", "buffer-size=1000"], ["-f", "ctf"],
           ["--list-mutations=nope"], ["-f", "nettrace-v5", "--block-bytes", "99999999"],
           ["-f", "nettrace-v5", "--sp-every", "x"], ["--metadata", "never"],
           ["-f", "etl", "--uncompressed-headers"], ["-k", "zz"], ["-l", "9"], ["-o"],
           ["-f", "cbor", "-o", "no/such/dir/x.cbor"], ["-e", "no/such/dir/x.exp", "-o", "x.cbor"]]
    for i, b in enumerate(bad):
        c.both("usage%d" % i, Run(["gcgen", "-q"] + b, outputs=["x.cbor"]))
        c.clean("usage%d" % i)
    for i, b in enumerate([["--bogus"], ["--json", "--cbor", "x"], ["no-such-file"], ["--format", "zip", "x"],
                           ["--expect", "no-such-file", "x"], [], ["compare"], ["compare", "a"],
                           ["run"], ["run", "--corpus", os.path.join(src, "corpus"), "--container", "nettrace7", "--", "true"]]):
        c.both("ousage%d" % i, Run(["gcoracle"] + b))
        c.clean("ousage%d" % i)
    group("refusals: %d bad command lines" % (c.comparisons - c0), d0)

    # The golden corpus.
    d0, c0 = len(c.diffs), c.comparisons
    corpus = os.path.join(src, "corpus")
    cases = sorted(os.listdir(os.path.join(corpus, "cases")))

    def corpus_case(i, name):
        stem, ext = os.path.splitext(name)
        path = os.path.join(corpus, "cases", name)
        job = "corpus/" + stem
        for r in oracle_runs(path, FAMILY[ext], os.path.isdir(path)):
            c.both(job, r)
        exp = os.path.join(corpus, "expect", stem + ".cbor")
        jd = os.path.join(work, job, "new")
        # Its output against its expectation, and against the next case's
        # (differences to report); the outputs are this tree's gcoracle's.
        other = cases[(i + 1) % len(cases)]
        for nm, case in (("out.jsonl", name), ("other.jsonl", other)):
            with open(os.path.join(jd, nm), "wb") as f:
                subprocess.run(["gcoracle", "--json", os.path.join(corpus, "cases", case)],
                               executable=new["gcoracle"], stdout=f, stderr=subprocess.DEVNULL)
        if os.path.exists(exp):
            for argv in (["compare", exp, "out.jsonl"], ["compare", "--json", "--all-events", exp, "out.jsonl"],
                         ["compare", "--quiet", exp, "other.jsonl"], ["compare", "--json", "--max", "0", exp, "other.jsonl"],
                         ["compare", "--print", "--corpus", corpus, exp]):
                c.both(job, Run(["gcoracle"] + argv, shared=True))
        c.clean(job)

    parallel(a.jobs, corpus_case, cases)
    for argv in (["--quiet", os.path.join(corpus, "cases")], ["--json", os.path.join(corpus, "cases")]):
        c.both("corpus-all", Run(["gcoracle"] + argv, shared=True))
    c.clean("corpus-all")
    group("the corpus: %d cases, gcoracle's outputs and gcoracle compare (%d comparisons)"
          % (len(cases), c.comparisons - c0), d0)

    # gcoracle run over the corpus, with this tree's gcoracle as the decoder
    # in both; the JUnit report's times are the only thing that may differ.
    d0, c0 = len(c.diffs), c.comparisons
    no_times = lambda got: dict(got, **{"t.xml": re.sub(rb' time="[0-9.]+"', b"", got["t.xml"] or b"")})
    dec = new["gcoracle"]
    runs = [Run(["gcoracle", "run", "--corpus", corpus, "--tap", "t.tap", "--junit", "t.xml", "--",
                 dec, "--json", "{}"], outputs=["t.tap", "t.xml"], normalize=no_times),
            Run(["gcoracle", "run", "--corpus", corpus, "--prefix", "n_", "--container", "etl,model",
                 "--max", "0", "--tap", "-", "--", "sh", "-c",
                 '"$0" --json "$1" | grep -v \'"type":"diag"\'', dec, "{}"])]
    accept = os.path.join(src, "accepted")
    for acc in sorted(os.listdir(accept)) if os.path.isdir(accept) else []:
        runs.append(Run(["gcoracle", "run", "--corpus", corpus, "--container", "nettrace", "--prefix", "y_",
                         "--accept", os.path.join(accept, acc), "--tap", "-", "--", dec, "--json", "{}"]))
    for i, r in enumerate(runs):
        c.both("run%d" % i, r)
        c.clean("run%d" % i)
    group("gcoracle run over the corpus (%d runs)" % (c.comparisons - c0), d0)

    # Generated streams: gcgen's outputs, then gcoracle's on each.
    specs = stream_specs(formats, profiles, classes_of, kind_of, a.seeds)
    ext = {f: "ctf" if f == "ctf" else f.split("-")[0] for f in formats}
    fam = {f: "cbor" if f == "cbor" else ext[f] for f in formats}
    per = {f: [0, 0] for f in formats}  # streams, comparisons
    made = set()
    d0 = len(c.diffs)

    def stream(i, spec):
        f = spec[spec.index("-f") + 1]
        job = "stream/%d" % i
        out = "s." + ext[f]
        k = 1
        got = c.both(job, Run(["gcgen", "-q"] + spec + ["-o", out, "--expect", "s.exp", "--values", "s.val"],
                              outputs=[out, "s.exp", "s.val"]))
        if i % 7 == 0 and f != "ctf":
            c.both(job, Run(["gcgen", "-q"] + spec))    # to standard output
            k += 1
        if got[out] is not None:
            made.add(i)
            for r in oracle_runs(out, fam[f], f == "ctf", "s.exp" if got["s.exp"] is not None else None):
                c.both(job, r)
                k += 1
        c.clean(job)
        with c.lock:
            per[f][0] += 1
            per[f][1] += k

    parallel(a.jobs, stream, specs)
    for f in formats:
        mine = [d for d in c.diffs[d0:] if specs[int(d[0].split("/")[1])][1] == f]
        n += 1
        say("%s %d - %s: %d streams, %d comparisons" % ("not ok" if mine else "ok", n, f, per[f][0], per[f][1]))

    for job, cmd, found in c.diffs[:SHOWN_DIFFS]:
        say("# DIFFERENT: %s   (in %s)" % (cmd, os.path.join(work, job)))
        for line in found:
            say("#   " + line)
    if len(c.diffs) > SHOWN_DIFFS:
        say("# ... and %d more differences" % (len(c.diffs) - SHOWN_DIFFS))
    if a.big:
        c0, big = c.comparisons, 0
        for f in [x for x in ("nettrace-v5", "nettrace-v6", "etl", "ctf", "cbor") if x in formats]:
            job, out = "big/" + f, "b." + ext[f]
            got = c.both(job, Run(["gcgen", "-q", "-f", f, "-g", "100000", "-o", out], outputs=[out], digest=True))
            if got[out] is not None:
                big += 1
                for mode in ("--json", "--quiet"):
                    c.both(job, Run(["gcoracle", mode, out], shared=True, digest=True))
            shutil.rmtree(os.path.join(work, job), ignore_errors=True)     # hundreds of MB
        mine = [d for d in c.diffs if d[0].startswith("big/")]
        n += 1
        say("%s %d - %d streams of 100000 GCs (%d comparisons, by SHA-256)"
            % ("not ok" if mine else "ok", n, big, c.comparisons - c0))

    say("# exit statuses (this tree): " + ", ".join(
        "%s %d: %d" % (p, rc, k) for (p, rc), k in sorted(c.status.items())))
    # Identical failures everywhere would agree too: most streams must have
    # been written and read.
    n += 1
    written = sum(1 for i in range(len(specs)) if i in made)
    say("%s %d - gcgen wrote %d of the %d streams (at least 90%% must be written)"
        % ("ok" if written * 10 >= len(specs) * 9 else "not ok", n, written, len(specs)))
    if written * 10 < len(specs) * 9:
        c.diffs.append(("stream", "gcgen", ["only %d of %d streams written" % (written, len(specs))]))
    say("# check-oracle-same: reference %s: %d comparisons (%d corpus cases, %d streams), %d different, %.0f s"
        % (rev if a.oracle_base else rev[:12], c.comparisons, len(cases), len(specs), len(c.diffs),
           time.monotonic() - t0))
    say("1..%d" % n)
    if not c.diffs:
        shutil.rmtree(work, ignore_errors=True)
    else:
        say("# the differing commands' files are kept in %s" % work)
    return 1 if c.diffs else 0


if __name__ == "__main__":
    sys.exit(main())
