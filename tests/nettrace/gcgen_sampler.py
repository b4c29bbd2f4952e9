#!/usr/bin/env python3
"""gcgen's nettrace writer option -O sampler-every=N writes the sample
profiler's ThreadSample events as EventPipe does (docs/nettrace.md): the
sampler thread captures them, each names a thread it sampled and carries the
time that thread was stopped.

For every nettrace format and for compressed, uncompressed and small-block
shapes, with the events read back by gcoracle and, for the capture thread
gcoracle --json does not print, by tests/ntwalk.py (a walker of the tests'
own):
  - gcoracle: exit 0, no error and no warning (the provider is noted once,
    GC-U003), and the walker's events are gcoracle's, index for index;
  - ThreadSample events (Microsoft-DotNETCore-SampleProfiler, id 0) are there,
    about one per N runtime events;
  - their capture thread is one thread of their own (no runtime event is
    captured by it), never the ThreadId they carry, which is a thread that
    writes runtime events; its sequence numbers count them, 1, 2, 3, ...;
  - per capture thread the times never go back; per ThreadId they do, at
    ThreadSample events only (the habit GC-S023 must not call an error);
  - same seed and options, same bytes; sampler-every=0 is the default's bytes.
Bad values are usage errors (exit 2).
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ntwalk  # noqa: E402
import tap  # noqa: E402
from tap import ok  # noqa: E402

top_builddir = os.environ.get("top_builddir", ".")
gcgen = os.path.join(top_builddir, "gen", "gcgen")
oracle = os.path.join(top_builddir, "oracle", "gcoracle")
SAMPLER = "Microsoft-DotNETCore-SampleProfiler"
EVERY = 5


def oracle_events(path):
    p = subprocess.run([oracle, "--json", path], capture_output=True, text=True)
    evs, bad, notes = [], [], set()
    for line in p.stdout.splitlines():
        r = json.loads(line)
        if r.get("type") == "event":
            evs.append(r)
        elif r.get("type") == "diag":
            if r["severity"] in ("error", "warning"):
                bad.append(f"{r['code']} {r['message']}")
            else:
                notes.add(r["code"])
    evs.sort(key=lambda r: r["index"])
    return p.returncode, evs, bad, notes


def check(path, what):
    rc, oevs, bad, notes = oracle_events(path)
    ok(rc == 0 and not bad and notes <= {"GC-U003"},
       f"{what}: gcoracle exit {rc}, no error or warning, notes {sorted(notes)}", bad)
    wevs = ntwalk.events(path)
    same = [(w["thread"], w["ts"], w["provider"]) for w in wevs] == \
        [(o["thread"], o["timestamp"], o["provider"]) for o in oevs]
    ok(same, f"{what}: the walker's {len(wevs)} events are gcoracle's {len(oevs)}, in file order")
    samples = [w for w in wevs if w["provider"] == SAMPLER and w["id"] == 0]
    runtime = [w for w in wevs if w["provider"] != SAMPLER]
    ok(len(runtime) // EVERY // 2 <= len(samples) <= len(runtime) // EVERY,
       f"{what}: {len(samples)} ThreadSample events for {len(runtime)} runtime events")
    caps = {w["capture"] for w in samples}
    writers = {w["capture"] for w in runtime}
    named = {w["thread"] for w in runtime}
    ok(len(caps) == 1 and not caps & writers and
       all(w["capture"] != w["thread"] and w["thread"] in named for w in samples),
       f"{what}: one capture thread of their own {sorted(caps)}, naming runtime threads "
       f"{sorted({w['thread'] for w in samples})}")
    ok([w["seq"] for w in samples] == list(range(1, len(samples) + 1)),
       f"{what}: the sampler's sequence numbers count its events")
    last_cap, last_thr, cap_back, thr_back, thr_back_runtime = {}, {}, 0, 0, 0
    for w in wevs:
        c, t = w["capture"], w["thread"]
        cap_back += c in last_cap and w["ts"] < last_cap[c]
        if t in last_thr and w["ts"] < last_thr[t]:
            thr_back += 1
            thr_back_runtime += w["provider"] != SAMPLER
        last_cap[c] = w["ts"]
        last_thr[t] = max(w["ts"], last_thr.get(t, 0))
    ok(cap_back == 0 and thr_back > 0 and thr_back_runtime == 0,
       f"{what}: per capture thread never back; per ThreadId back {thr_back} times, "
       f"each at a ThreadSample")


def gen(path, *args):
    return subprocess.run([gcgen, "-q", "--profile", "net10", "--gcs", "12", "--seed", "3",
                           *args, "-o", path], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    shapes = (("compressed", ["--stacks"]), ("uncompressed", ["-O", "uncompressed=1"]),
              ("small blocks", ["--stacks", "-O", "block-bytes=600", "-O", "sp-every=1",
                                "-O", "metadata-upfront=1"]))
    for fmt in ("nettrace-v4", "nettrace-v5", "nettrace-v6", "nettrace-v5-full",
                "nettrace-v6-full"):
        for shape, extra in shapes:
            if fmt.endswith("-full") and shape != "compressed":
                continue
            what = f"{fmt} {shape}"
            a, b = os.path.join(tmp, "a.nettrace"), os.path.join(tmp, "b.nettrace")
            args = ["-f", fmt, "-O", f"sampler-every={EVERY}", *extra]
            g = gen(a, *args)
            if not ok(g.returncode == 0, f"{what}: gcgen -O sampler-every={EVERY}", g.stderr):
                continue
            check(a, what)
            gen(b, *args)
            ok(open(a, "rb").read() == open(b, "rb").read(), f"{what}: same seed, same bytes")
        d0, d1 = os.path.join(tmp, "d0.nettrace"), os.path.join(tmp, "d1.nettrace")
        gen(d0, "-f", fmt, "--stacks")
        gen(d1, "-f", fmt, "--stacks", "-O", "sampler-every=0")
        ok(open(d0, "rb").read() == open(d1, "rb").read(),
           f"{fmt}: sampler-every=0 writes the default's bytes")
    for bad in ("sampler-every=x", "sampler-every=-1", "sampler-every=", "sampler-every=4294967296"):
        g = gen(os.path.join(tmp, "bad.nettrace"), "-f", "nettrace-v5", "-O", bad)
        ok(g.returncode == 2 and "sampler-every" in g.stderr, f"-O {bad}: usage error (exit 2)",
           g.stderr)
tap.done()
