#!/usr/bin/env python3
"""The corpus's y_ runtime-habit cases show the habit they are named after,
and gcoracle accepts them: each is decoded with gcoracle --json and the
habit looked for in the events (what real runtimes do, docs/real-runtime.md).

Usage: runtime_habits.py GCORACLE CASE... (from the test suite: no arguments,
the cases under $top_srcdir/corpus/cases and $top_builddir/oracle/gcoracle).
"""
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ntwalk  # noqa: E402


def events(oracle, path):
    out = subprocess.run([oracle, "--json", path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, check=False)
    evs, every, errors = [], [], []
    for line in out.stdout.splitlines():
        r = json.loads(line)
        if r.get("type") == "event":
            every.append(r)
            if r.get("name"):
                evs.append(r)
        elif r.get("type") == "diag" and r.get("severity") in ("error", "warning"):
            errors.append(r["code"])
    every.sort(key=lambda r: r["index"])
    return out.returncode, evs, errors, every


def base(e):
    n = e["name"]
    return n.rsplit("_V", 1)[0] if "_V" in n else n


def double_gcstart(evs):
    """GCStart_V1 then GCStart_V2 of one GC, on one thread, fields equal."""
    pairs = 0
    for a, b in zip(evs, evs[1:]):
        if a["name"] == "GCStart_V1" and b["name"] == "GCStart_V2" and \
           a["thread"] == b["thread"] and \
           all(a["fields"][k] == b["fields"][k] for k in ("Count", "Depth", "Reason", "Type")):
            pairs += 1
    starts = sum(1 for e in evs if e["name"] == "GCStart_V1")
    return pairs > 0 and pairs == starts, "%d GCStart_V1+V2 pairs of %d GCs" % (pairs, starts)


def regions_recreated(evs):
    """A segment created again with no GCFreeSegment anywhere."""
    seen, again = set(), 0
    for e in evs:
        if base(e) == "GCCreateSegment":
            a = e["fields"]["Address"]
            again += a in seen
            seen.add(a)
    frees = sum(1 for e in evs if base(e) == "GCFreeSegment")
    return again > 0 and frees == 0, "%d re-creations, %d GCFreeSegment" % (again, frees)


def no_segments(evs):
    n = sum(1 for e in evs if base(e) in ("GCCreateSegment", "GCFreeSegment"))
    gcs = sum(1 for e in evs if base(e) == "GCStart")
    return n == 0 and gcs > 0, "%d segment events, %d GCs" % (n, gcs)


def sampler_backoff(evs):
    """A thread's non-GC suspension: begin, restart begin/end (the back-off)
    before its end, with another thread's GCStart in between."""
    state, found = {}, 0
    for e in evs:
        b, t = base(e), e["thread"]
        if b == "GCSuspendEEBegin" and e["fields"]["Count"] == 0xFFFFFFFF:
            state[t] = ["begin", False]
        elif t in state:
            st = state[t]
            if b == "GCRestartEEBegin" and st[0] in ("begin", "backed"):
                st[0] = "backing"
            elif b == "GCRestartEEEnd" and st[0] == "backing":
                st[0] = "backed"
            elif b == "GCSuspendEEEnd":
                found += st[0] == "backed" and st[1]
                del state[t]
        if b == "GCStart":
            for u, st in state.items():
                if u != t and st[0] == "backed":
                    st[1] = True
    return found > 0, "%d back-offs around another thread's GC" % found


def sampler_at_bgc_end(evs):
    """Another thread's non-GC GCSuspendEEBegin between a background GC's
    GCEnd and the GCHeapStats its thread writes next."""
    background, open_end, found = set(), {}, 0
    for e in evs:
        b, t = base(e), e["thread"]
        if b == "GCStart" and e["fields"]["Type"] == 1:
            background.add(e["fields"]["Count"])
        elif b == "GCEnd" and e["fields"]["Count"] in background:
            open_end[t] = False
        elif b == "GCSuspendEEBegin" and e["fields"]["Count"] == 0xFFFFFFFF:
            for u in open_end:
                if u != t:
                    open_end[u] = True
        elif b == "GCHeapStats" and t in open_end:
            found += open_end.pop(t)
    return found > 0, "%d non-GC suspensions begun inside a background GC's end" % found


def sampler_in_bgc_histories(evs):
    """A server GC's background GC writes GCEnd, GCHeapStats and then its
    histories; another thread's non-GC suspension gets the runtime between
    its GCGlobalHeapHistory and its first GCPerHeapHistory."""
    background, non_gc, tail, found = set(), set(), None, 0
    for e in evs:
        b, t = base(e), e["thread"]
        if b == "GCSuspendEEBegin" and e["fields"]["Count"] == 0xFFFFFFFF:
            non_gc.add(t)
        elif b == "GCStart" and e["fields"]["Type"] == 1:
            background.add(e["fields"]["Count"])
        elif b == "GCEnd" and e["fields"]["Count"] in background:
            tail = [t, False]
        elif tail and b == "GCGlobalHeapHistory" and t == tail[0]:
            tail[1] = True
        elif tail and b == "GCSuspendEEEnd" and t in non_gc and t != tail[0]:
            found += tail[1]
        elif tail and b == "GCPerHeapHistory" and t == tail[0]:
            tail = None
    return found > 0, "%d non-GC suspensions got the runtime inside a background GC's " \
        "histories" % found


def nogc_numbers(evs):
    """A GC suspension with no GCStart before its restart, after a
    GCTriggered Reason 1, and the next GCStart's Count skips a number."""
    found, last, pending, triggered, susp = 0, None, False, False, None
    for e in evs:
        b = base(e)
        if b == "GCTriggered":
            triggered = e["fields"]["Reason"] == 1
        elif b == "GCSuspendEEBegin" and e["fields"]["Reason"] == 1:
            susp = [triggered, False]
        elif b == "GCStart" and susp is not None:
            susp[1] = True
        elif b == "GCRestartEEEnd" and susp is not None:
            if susp[0] and not susp[1]:
                pending = True
            susp = None
        if b == "GCStart" and e["fields"]["Type"] != 2:
            c = e["fields"]["Count"]
            if pending and last is not None and c > last + 1:
                found += 1
            pending = False
            last = c
    return found > 0, "%d GC numbers taken by no-GC regions" % found


def sampler_thread_ids(every, path):
    """ThreadSample events (Microsoft-DotNETCore-SampleProfiler, id 0), each
    captured by a thread of their own, not the ThreadId it carries; per
    capture thread the times never go back, per ThreadId they do (what a
    checker keyed on ThreadId would call GC-S023). gcoracle --json does not
    print the capture thread: tests/ntwalk.py reads it, and its events must
    be gcoracle's (ThreadId, time, provider), in file order."""
    sampler = "Microsoft-DotNETCore-SampleProfiler"
    walked = ntwalk.events(path)
    if [(w["thread"], w["ts"], w["provider"]) for w in walked] != \
       [(o["thread"], o["timestamp"], o["provider"]) for o in every]:
        return False, "the walker's events are not gcoracle's"
    samples = [w for w in walked if w["provider"] == sampler and w["id"] == 0]
    caps = {w["capture"] for w in samples}
    others = {w["capture"] for w in walked if w["provider"] != sampler}
    last_cap, last_thr, cap_back, thr_back = {}, {}, 0, 0
    for w in walked:
        c, t = w["capture"], w["thread"]
        cap_back += c in last_cap and w["ts"] < last_cap[c]
        thr_back += t in last_thr and w["ts"] < last_thr[t]
        last_cap[c], last_thr[t] = w["ts"], w["ts"]
    good = samples and len(caps) == 1 and not caps & others and \
        all(w["capture"] != w["thread"] for w in samples) and cap_back == 0 and thr_back > 0
    return good, ("%d ThreadSample events captured by thread %s for %d threads; times back "
                  "%d times per ThreadId (GC-S023 if kept per ThreadId), %d per capture thread"
                  % (len(samples), sorted(caps), len({w["thread"] for w in samples}),
                     thr_back, cap_back))


# Checkers that need every event (named or not) and the file: (every, path).
WITH_FILE = {"sampler_thread_ids"}

HABITS = {
    "netfx45_double_gcstart": double_gcstart,
    "net8_regions_recreated": regions_recreated,
    "netcore3_no_segment_events": no_segments,
    "sampler_backoff": sampler_backoff,
    "sampler_at_bgc_end": sampler_at_bgc_end,
    "sampler_in_bgc_histories": sampler_in_bgc_histories,
    "nogc_region_gc_numbers": nogc_numbers,
    "sampler_thread_ids": sampler_thread_ids,
}


def main(argv):
    top_src = os.environ.get("top_srcdir", ".")
    oracle = argv[1] if len(argv) > 1 else \
        os.path.join(os.environ.get("top_builddir", "."), "oracle", "gcoracle")
    cases = argv[2:]
    if not cases:
        d = os.path.join(top_src, "corpus", "cases")
        cases = sorted(os.path.join(d, f) for f in os.listdir(d)
                       if f.startswith("y_") and "_runtime_" in f)
    print("1..%d" % (len(HABITS)))
    fail, n = 0, 0
    for habit, check in HABITS.items():
        mine = [c for c in cases if c.split("_runtime_", 1)[-1].split(".")[0] == habit]
        n += 1
        if not mine:
            print("not ok %d - %s: no y_*_runtime_%s case in the corpus" % (n, habit, habit))
            fail = 1
            continue
        bad = []
        for c in mine:
            rc, evs, errs, every = events(oracle, c)
            ok, what = check(every, c) if habit in WITH_FILE else check(evs)
            if rc != 0 or errs or not ok:
                bad.append("%s: %s, gcoracle exit %d, %s" % (os.path.basename(c), what, rc,
                                                            errs[:3] or "no diagnostics"))
        if bad:
            print("not ok %d - %s: %s" % (n, habit, "; ".join(bad)))
            fail = 1
        else:
            print("ok %d - %s: %d case%s, gcoracle clean, each shows it (%s)" %
                  (n, habit, len(mine), "" if len(mine) == 1 else "s", what))
    return fail


if __name__ == "__main__":
    sys.exit(main(sys.argv))
