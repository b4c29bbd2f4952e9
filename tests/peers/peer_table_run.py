#!/usr/bin/env python3
"""The peer table's full run (`make peer-table`): every corpus case through
every peer reader available here, each run isolated, into a results file.

    peer_table_run.py [--only PEER-ID-PREFIX] [--cases SUBSTRING,...] OUT.json

Peers (tests/peers/peers.py finds which are here): TraceEvent at every
version built by tests/peers/build_peers.sh, `dotnet-trace convert` at every
version installed by it, babeltrace2 2.x and babeltrace 1.x, each as its CLI
(its printed text read back) and its Python bindings (decoded values). Each peer
reads the cases of the containers it reads (nettrace, CTF); .etl is read by
none here (docs/peer-table.md says why).

Every run is a child process with a time limit (TIMEOUT seconds) and a
memory limit: RLIMIT_AS for native readers, a GC heap hard limit for .NET
(whose runtime reserves far more address space than it uses). Outcome:

  accept    exit 0, and no stderr line matching the peer's error_lines
            (babeltrace 1 prints `[error]` for a packet it skips, then exits 0)
  reject    any other exit status (the reader said the file is bad), or exit
            0 after such error lines
  crash     the process died: killed by a signal (SIGSEGV, SIGABRT: for .NET
            an unhandled exception, an access violation or a stack overflow)
  defect    an exception that means a defect in the reader, caught (exit 70
            from the .NET adapters: null dereference, index or argument out
            of range, bad cast, overflow): the process lives, the file is lost
  timeout   still running at the time limit (TIMEOUT s; killed): a hang
  oom       out of memory: OutOfMemoryException (exit 71), MemoryError, or
            an allocation failure under the limit

For the value peers, on accepted y_ and i_ cases, `gcoracle compare --json`
(every difference) holds the output against the case's expectation, with
--accept the peer's accepted-differences file (peers.accept_file): values
agree, agree but for accepted differences, or differ (with the first
difference that is not accepted).
"""
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers as peerlib  # noqa: E402

TIMEOUT = 60
MEMORY = 2 << 30


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    os.setsid()


MEMORY_WORDS = ("OutOfMemoryException", "MemoryError", "failed to allocate", "Cannot allocate memory",
                "std::bad_alloc", "out of memory")
# The stderr line that says what happened: an exception, an error, or the runtime's
# own last words (.NET prints "Stack overflow." before it aborts).
TELLING = ("Exception", "rror", "Stack overflow", "Fatal error")


def run_one(peer, path, out_path, timeout=None):
    """Run the peer over path, its stdout to out_path: (outcome, detail)."""
    timeout = timeout or TIMEOUT
    env = dict(os.environ, **peer.get("env", {}))
    cmd = peer["argv"](path)
    with open(out_path, "wb") as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env,
                             preexec_fn=limit_memory if peer.get("rlimit", True) else os.setsid)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return "timeout", f"killed after {timeout} s"
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return classify(peer, rc, stderr)


def classify(peer, rc, stderr):
    """(outcome, detail) of a run that ended with status rc (negative: the signal)."""
    tail = stderr[-4000:]
    first = next((ln.strip() for ln in tail.splitlines() if any(w in ln for w in TELLING)), "")
    if rc < 0:
        sig = signal.Signals(-rc).name
        if any(w in tail for w in MEMORY_WORDS):
            return "oom", f"{sig} on an allocation failure"
        return "crash", (sig + (f": {first}" if first else ""))[:200]
    if rc == 71 or (rc != 0 and any(w in tail for w in MEMORY_WORDS[:2])):
        return "oom", first[:200]
    if rc == 70:
        return "defect", first[:200]
    if rc == 0:
        pattern = peer.get("error_lines")
        errors = [ln.strip() for ln in stderr.splitlines() if pattern and re.search(pattern, ln)]
        if errors:
            return "reject", (f"exit 0 after {len(errors)} error line{'s' * (len(errors) > 1)}: "
                              + errors[0])[:200]
        return "accept", ""
    return "reject", first[:200]


def compare(case, out_path, accept, oracle, corpus):
    cmd = [oracle, "compare", "--json"] + (["--accept", accept] if accept else [])
    p = subprocess.run(cmd + [os.path.join(corpus, case["expect"]), out_path],
                       capture_output=True, text=True)
    lines = [json.loads(ln) for ln in p.stdout.split("\n") if ln.strip()]
    summary = next((d for d in lines if d.get("type") == "compare"), {})
    left = [d for d in lines if d.get("type") == "diag" and d.get("severity") == "error"]
    res = {"compared": summary.get("events_compared", 0), "fields": summary.get("fields_compared", 0),
           "differences": summary.get("differences", len(left)), "accepted": summary.get("accepted", 0)}
    if summary.get("result") == "skip":
        res["values"] = "skip"
    elif summary.get("result") == "pass":
        res["values"] = "accepted" if res["accepted"] else "agree"
    else:
        res["values"] = "differ"
        if left:
            d = left[0]
            res["first"] = (f"{d['code']} event {d.get('event')} ({d.get('name')}): {d['message']}")[:240]
    return res


def main():
    args = sys.argv[1:]
    only = cases_filter = None
    while args and args[0].startswith("--"):
        if args[0] == "--only":
            only = args[1]
        elif args[0] == "--cases":
            cases_filter = args[1]
        args = args[2:]
    out_file = args[0]
    top = peerlib.top_srcdir()
    build = peerlib.top_builddir()
    corpus = os.path.join(top, "corpus")
    oracle = os.path.join(build, "oracle", "gcoracle")
    index = json.load(open(os.path.join(corpus, "index.json"), encoding="utf-8"))
    cases = [c for c in index["cases"]
             if not cases_filter or any(f in c["name"] for f in cases_filter.split(","))]
    found, missing = peerlib.find_peers(top, build)
    if only:
        found = [p for p in found if p["id"].startswith(only)]
    # A partial run (--only, --cases) updates the results file in place.
    old = json.load(open(out_file, encoding="utf-8")) if os.path.exists(out_file) else {}
    results = old.get("results", {})
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for peer in found:
            accept = peerlib.accept_file(top, peer)
            row = results.setdefault(peer["id"], {})
            n = 0
            for case in cases:
                if case["container"] not in peer["containers"]:
                    continue
                out_path = os.path.join(tmp, "out.jsonl")
                outcome, detail = run_one(peer, os.path.join(corpus, case["file"]), out_path)
                r = {"outcome": outcome}
                if detail:
                    r["detail"] = detail
                if peer["values"] and outcome == "accept" and case["class"] in "yi":
                    if peer.get("post"):
                        with open(out_path, "rb") as raw, open(out_path + ".c", "wb") as cooked:
                            # exit 1: the output could not be read back, which the
                            # error line it ends with tells compare
                            if subprocess.run(peer["post"], stdin=raw, stdout=cooked).returncode > 1:
                                raise SystemExit(f"peer-table: {peer['post']} failed on {case['name']}")
                        os.replace(out_path + ".c", out_path)
                    r.update(compare(case, out_path, accept, oracle, corpus))
                row[case["name"]] = r
                n += 1
            print(f"peer-table: {peer['id']}: {n} cases ({time.time() - t0:.0f} s)", file=sys.stderr)
    # Results of cases the corpus no longer has go (a partial run after `make corpus`).
    for row in results.values():
        for name in set(row) - {c["name"] for c in index["cases"]}:
            del row[name]
    doc = {
        "about": "gcconform peer table: tests/peers/peer_table_run.py; rendered by peer_table_render.py",
        "corpus_cases": [{"name": c["name"], "class": c["class"], "container": c["container"],
                          "format": c["format"], "description": c.get("description", "")}
                         for c in index["cases"]],
        "peers": [{k: v for k, v in p.items() if k not in ("argv", "env", "post", "rlimit")}
                  for p in peerlib.merge_peer_lists(old.get("peers", []), found)],
        "missing": missing,
        "timeout_s": TIMEOUT,
        "memory_mib": MEMORY >> 20,
        "results": results,
    }
    tmp_out = out_file + ".tmp"
    with open(tmp_out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp_out, out_file)


if __name__ == "__main__":
    main()
