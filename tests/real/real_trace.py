#!/usr/bin/env python3
"""gcoracle against the real runtime.

Runs the C# workload under the real runtime (tests/real/capture.sh), which
writes the runtime's own .nettrace and, from an in-process EventListener, the
runtime's own decoding of the same events. Then for every capture:
  - the nettrace reader (tests/nettrace/ntdump) reads the container with zero
    diagnostics and finds GCStart events;
  - gcoracle reads it with zero error diagnostics, and every other diagnostic
    it gives is one docs/real-runtime.md lists and explains;
  - every listener event of an event the spec describes is in gcoracle's
    decoding with identical values for every field the listener has (the
    listener stops at the first variable-length array, so arrays are checked
    by the payload-size rules); the listener's other events (BulkType, ...)
    are listed and must be counted by gcoracle as events it passes over.
Finally every erratum marked `confirmed` in docs/spec/errata.toml must be shown
by the traces (tests/real/errata_evidence.py has the rules).
Skips without the .NET SDK.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import errata_evidence as ee  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

top_srcdir = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
top_builddir = os.environ.get("top_builddir", ".")
oracle = os.path.join(top_builddir, "oracle", "gcoracle")
ntdump = os.path.join(top_builddir, "tests", "nettrace", "ntdump")
outdir = os.path.join(top_builddir, "tests", "real", "capture")


def documented_codes():
    """The diagnostic codes docs/real-runtime.md explains (its table rows)."""
    with open(os.path.join(top_srcdir, "docs", "real-runtime.md"), encoding="utf-8") as f:
        return set(re.findall(r"^\| (GC-[A-Z]\d{3}) \|", f.read(), re.M))


if not shutil.which("dotnet"):
    print("1..0 # SKIP the .NET SDK (dotnet) is not installed")
    sys.exit(0)

cap = subprocess.run(["sh", os.path.join(top_srcdir, "tests", "real", "capture.sh"), outdir],
                     capture_output=True, text=True)
if cap.returncode == 77:
    print("1..0 # SKIP " + cap.stderr.strip().splitlines()[-1])
    sys.exit(0)
if not ok(cap.returncode == 0, "the workload ran under the real runtime", cap.stderr):
    print(f"1..{tap.n}")
    sys.exit(1)

explained = documented_codes()
evd = ee.Evidence(top_srcdir)
runtimes = set()
for name in ee.captures(outdir):
    trace = os.path.join(outdir, name + ".nettrace")
    with open(os.path.join(outdir, name + ".stdout")) as f:
        runtime, rid = ee.run_version(f.read())
    runtimes.add((runtime, rid))

    dump = subprocess.run([ntdump, trace], capture_output=True, text=True)
    ok(dump.returncode == 0 and " diagnostics=0 " in dump.stdout
       and re.search(r"gcstart=[1-9]", dump.stdout),
       f"{name} (.NET {runtime}, {rid}): the nettrace reader reads the container cleanly",
       dump.stdout + dump.stderr)

    res = ee.read_trace(evd, outdir, name, oracle)
    ok(res["status"] == 0, f"{name}: gcoracle read the real trace (exit 0)", f"exit {res['status']}")
    ok(not res["errors"], f"{name}: zero error diagnostics on the real trace",
       f"{len(res['errors'])} errors:\n" + "\n".join(res["errors"][:10]))
    codes = {code for code, _ in res["diags"]}
    ok(codes <= explained, f"{name}: every warning and note is one docs/real-runtime.md explains",
       f"unexplained: {sorted(codes - explained)}")
    if res["diags"]:
        print(f"# {name}: " + ", ".join(f"{c} {s} x{k}" for (c, s), k in sorted(res["diags"].items())))

    for (evname, eid, ver), count in sorted(res["not_in_spec"].items()):
        print(f"# {name}: not in the spec, not compared: {evname} (id {eid} version {ver}) x{count}")
        ok(res["oracle_unknown"][(eid, ver)] > 0,
           f"{name}: gcoracle passes over {evname} (id {eid} version {ver}), counting it",
           f"gcoracle has no nameless event {eid}/{ver}")
    for evname in sorted(res["seen"]):
        if res["missing"][evname]:
            print(f"# {name}: no decoded twin for {evname} {res['first_missing'][evname][:300]}")
        ok(res["missing"][evname] == 0,
           f"{name}: all {res['seen'][evname]} {evname} events the runtime decoded are decoded identically",
           f"{res['missing'][evname]} without an identical twin")

# Errata: every one marked confirmed must be shown by the traces and name this
# runtime's major.minor (a newer patch release only gets a note).
ok(len(runtimes) == 1, "every capture ran on one runtime", str(sorted(runtimes)))
runtime, rid = sorted(runtimes)[0]
errata = ee.speclib.load(os.path.join(top_srcdir, "docs", "spec", "errata.toml"))["erratum"]
nshown = 0
for er in errata:
    shown, what = evd.shows(er)
    nshown += shown
    conf = er.get("confirmed")
    label = f"{er['id']} ({er['kind']} {er['event']}{'.' + er['field'] if er.get('field') else ''})"
    if shown and not conf:
        # Not a failure: a rare runtime event (say GCTerminateConcurrentThread) may show an
        # erratum in one run only; marking it is a maintainer's step.
        print(f"# {label}: shown by this run ({what}) but not marked confirmed: "
              "tests/real/errata_evidence.py --update marks it")
    elif shown:
        good = conf.get("runtime", "").split(".")[:2] == runtime.split(".")[:2]
        ok(good, f"{label}: confirmed, and the traces show it: {what}",
           f"confirmed by .NET {conf.get('runtime')}, but this is .NET {runtime}: "
           "tests/real/errata_evidence.py --update")
        if conf.get("runtime") != runtime:
            print(f"# {er['id']}: confirmed by {conf.get('runtime')}, shown again by {runtime}")
    else:
        ok(not conf, f"{label}: not confirmed, and the traces do not show it ({what})",
           f"marked confirmed ({conf}) but the traces do not show it: {what}")
print(f"# errata: {nshown} of {len(errata)} shown by .NET {runtime} ({rid})")
tap.done()
