#!/usr/bin/env python3
"""gcoracle against real runtime captures kept in the tree (tests/real/fixtures/).

Each NAME.nettrace.gz was written by a real runtime (.NET Core 3.1.3, 8.0, 9.0, 10.0,
11.0.0; through the EventPipe environment variables or dotnet-trace) running the
workload, and NAME.json says how (runtime, GC mode, method, providers) and what
TraceEvent counted in it when it was recorded (tests/real/matrix.py --fixtures).
No .NET needed: for every fixture gcoracle must exit 0 with no error and no
warning, decode GCs, and count what TraceEvent counted: every event of the file,
and the events of each runtime event-version the spec names.
"""
import gzip
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec"))
import speclib  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matrix import PENDING  # noqa: E402  (behaviours the oracle has still to learn)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

top_srcdir = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
top_builddir = os.environ.get("top_builddir", ".")
oracle = os.path.join(top_builddir, "oracle", "gcoracle")
fixdir = os.path.join(top_srcdir, "tests", "real", "fixtures")
RUNTIME = "Microsoft-Windows-DotNETRuntime"


by_key = {(ev["id"], ev["version"]): ev["symbol"]
          for prov, ev, _ in speclib.spec_events(top_srcdir) if prov == RUNTIME}
names = sorted(f[:-len(".nettrace.gz")] for f in os.listdir(fixdir) if f.endswith(".nettrace.gz"))
runtimes = set()
for name in names:
    with open(os.path.join(fixdir, name + ".json"), encoding="utf-8") as f:
        meta = json.load(f)
    runtimes.add(meta["runtime"].rsplit(".", 1)[0])
    what = f"{name} (.NET {meta['runtime']}, {meta['mode']}, {meta['method']})"
    with gzip.open(os.path.join(fixdir, name + ".nettrace.gz")) as f:
        data = f.read()
    # through a pipe: gcoracle reads a stream as it comes
    proc = subprocess.run([oracle, "--json", "-"], input=data, capture_output=True)
    proc.stdout, proc.stderr = proc.stdout.decode(), proc.stderr.decode()
    diags = [json.loads(ln) for ln in proc.stdout.splitlines() if '"type":"diag"' in ln]
    summary = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout.strip() else {}
    cell = {"runtime": meta["runtime"].rsplit(".", 1)[0], "mode": meta["mode"],
            "keywords": "fixture"}
    pending = {code for code, cond, _ in PENDING if cond(cell)}
    bad = [f"{d['code']} {d['severity']} event {d.get('event')}: {d['message']}"
           for d in diags if d["severity"] != "note" and d["code"] not in pending]
    set_aside = len([d for d in diags if d["code"] in pending])
    if set_aside:
        print(f"# {name}: {set_aside} diagnostics pending ({', '.join(sorted(pending))}): "
              "see docs/real-runtime.md")
    ok(proc.returncode == 0 or (proc.returncode == 1 and not bad and set_aside),
       f"{what}: gcoracle exits 0", proc.stderr)
    ok(not bad, f"{what}: no error and no warning", "\n".join(bad[:10]))
    ok(summary.get("gcs", 0) > 0, f"{what}: {summary.get('gcs')} GCs decoded")
    te = meta["traceevent"]
    ok(summary.get("events") == te["total"],
       f"{what}: {summary.get('events')} events, TraceEvent counted {te['total']}")
    per = summary.get("per_event", {})
    diff = []
    for key, count in te["runtime"].items():
        sym = by_key.get(tuple(map(int, key.split("/"))))
        if sym is not None and per.get(sym, 0) != count:
            diff.append(f"{sym}: gcoracle {per.get(sym, 0)}, TraceEvent {count}")
    ok(not diff, f"{what}: every runtime event-version as TraceEvent counted it", "\n".join(diff))
ok(len(runtimes) >= 5, f"fixtures of {len(runtimes)} runtimes: {', '.join(sorted(runtimes))}")
tap.done()
