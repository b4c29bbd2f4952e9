#!/usr/bin/env python3
"""gcoracle against the real runtime.

Runs the C# workload under the real runtime (tests/real/capture.sh), which
writes the runtime's own .nettrace and, from an in-process EventListener, the
runtime's own decoding of the same events. Then for every capture:
  - gcoracle reads the .nettrace with zero error diagnostics;
  - every GC event the listener saw is in gcoracle's decoding with identical
    values for every field the listener has (the listener stops at the first
    variable-length array, so arrays are checked by the payload-size rules).
Skips (77) without the .NET SDK."""
import collections
import json
import os
import shutil
import subprocess
import sys

top_srcdir = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
top_builddir = os.environ.get("top_builddir", ".")
oracle = os.path.join(top_builddir, "oracle", "gcoracle")
outdir = os.path.join(top_builddir, "tests", "real", "capture")

n = 0
failed = 0


def ok(cond, what, detail=""):
    global n, failed
    n += 1
    failed += not cond
    print(f"{'' if cond else 'not '}ok {n} - {what}")
    if not cond and detail:
        for line in str(detail).splitlines()[:15]:
            print(f"# {line}")
    sys.stdout.flush()
    return cond


if not shutil.which("dotnet"):
    print("1..0 # SKIP the .NET SDK (dotnet) is not installed")
    sys.exit(0)

cap = subprocess.run(["sh", os.path.join(top_srcdir, "tests", "real", "capture.sh"), outdir],
                     capture_output=True, text=True)
if cap.returncode == 77:
    print("1..0 # SKIP " + cap.stderr.strip().splitlines()[-1])
    sys.exit(0)
if not ok(cap.returncode == 0, "the workload ran under the real runtime", cap.stderr):
    print(f"1..{n}")
    sys.exit(1)


def norm(v):
    # The listener writes integers of 2^53 and above as strings.
    if isinstance(v, str) and v.isdigit():
        return int(v)
    return v


names = sorted(f[:-len(".nettrace")] for f in os.listdir(outdir) if f.endswith(".nettrace"))
for name in names:
    trace = os.path.join(outdir, name + ".nettrace")
    runtime = open(os.path.join(outdir, name + ".stdout")).read().split()[0]
    proc = subprocess.Popen([oracle, "--json", trace], stdout=subprocess.PIPE, text=True)
    decoded = collections.defaultdict(collections.Counter)
    errors, warnings = [], collections.Counter()
    for line in proc.stdout:
        item = json.loads(line)
        if item.get("type") == "event":
            key = (item["id"], item["version"])
            decoded[key][json.dumps(item.get("fields", {}), sort_keys=True)] += 1
        elif item.get("type") == "diag":
            if item["severity"] == "error":
                errors.append(f"{item['code']} event {item['event']} {item.get('name')}: {item['message']}")
            else:
                warnings[item["code"]] += 1
    status = proc.wait()
    ok(status in (0, 1), f"{name} ({runtime}): gcoracle read the real trace", f"exit {status}")
    ok(not errors, f"{name}: zero error diagnostics on the real trace",
       f"{len(errors)} errors:\n" + "\n".join(errors[:10]))
    if warnings:
        print(f"# {name}: warnings {dict(warnings)}")

    # Compare field values: every listener event must have an identical twin
    # among gcoracle's events of the same id and version, projected onto the
    # fields the listener has.
    missing = collections.Counter()
    seen = collections.Counter()
    projected = {}
    with open(os.path.join(outdir, name + ".listener.jsonl"), encoding="utf-8") as f:
        for line in f:
            ev = json.loads(line)
            if "name" not in ev:
                continue  # phase markers
            key = (ev["id"], ev["version"])
            fields = {k: norm(v) for k, v in ev["payload"].items()}
            names_key = (key, tuple(sorted(fields)))
            if names_key not in projected:
                c = collections.Counter()
                for js, count in decoded.get(key, {}).items():
                    full = json.loads(js)
                    c[json.dumps({k: full.get(k) for k in fields}, sort_keys=True)] += count
                projected[names_key] = c
            pool = projected[names_key]
            js = json.dumps(fields, sort_keys=True)
            seen[ev["name"]] += 1
            if pool[js] > 0:
                pool[js] -= 1
            else:
                missing[ev["name"]] += 1
                if missing[ev["name"]] == 1:
                    print(f"# {name}: no decoded twin for {ev['name']} {js[:300]}")
    for evname in sorted(seen):
        ok(missing[evname] == 0,
           f"{name}: all {seen[evname]} {evname} events the runtime decoded are decoded identically",
           f"{missing[evname]} without an identical twin")
print(f"1..{n}")
sys.exit(1 if failed else 0)
