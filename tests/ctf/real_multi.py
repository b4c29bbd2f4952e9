"""Genuine machine-wide LTTng traces: one LTTng 2.12 session tracing several
.NET processes of different runtimes that start and end while it runs
(tests/real/capture_lttng_multi.sh records them; the sessions kept in
tests/ctf/real/coreclr-multi-lttng-2.12.tar.gz, or those in
$REAL_LTTNG_MULTI_DIR for a new recording). For each session:

  - gcoracle reads it with 0 errors and 0 warnings, and sees GCs of at
    least two processes;
  - babeltrace2 (its CLI, a decoder independent of ours) counts, per vpid,
    as many GCStart events as gcoracle's summary counts GCs for that
    process, and the same number of events of every class: gcoracle's
    events are attributed to processes by their `process` when its JSON
    carries one, else by their thread (vtid), each thread belonging to the
    one vpid babeltrace2 shows it in.

Without babeltrace2 those checks are skipped. TAP.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

top = os.environ.get("top_srcdir", ".")
build = os.environ.get("top_builddir", ".")
ORACLE = os.path.join(build, "oracle", "gcoracle")
TARBALL = os.path.join(top, "tests", "ctf", "real", "coreclr-multi-lttng-2.12.tar.gz")
# babeltrace2's text line: [time] (+delta) host CLASS: { cpu_id = N }, { vpid = N, vtid = N, ...
BT_LINE = re.compile(r"^\[[^]]*\] \([^)]*\) \S+ (\S+): \{ cpu_id = \d+ \}, \{ vpid = (\d+), vtid = (\d+),")


def lttng_class(provider, name):
    """The LTTng class name of one of gcoracle's JSON events: runtime events
    as CoreCLR names them (Microsoft-Windows-DotNETRuntime -> DotNETRuntime),
    events it passes over under the class name it reports as their provider."""
    if not name:
        return provider
    for p in ("Microsoft-", "Windows-"):
        if provider.startswith(p):
            provider = provider[len(p):]
    return provider.replace("-", "_") + ":" + name


def oracle(*args):
    return subprocess.run([ORACLE, *args], capture_output=True, text=True)


def babeltrace(session):
    """Counter of (vpid, class), {vtid: set of vpids}, or None and why not."""
    proc = subprocess.run(["babeltrace2", session], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, None, proc.stderr[-500:]
    counts, threads = collections.Counter(), collections.defaultdict(set)
    for line in proc.stdout.splitlines():
        m = BT_LINE.match(line)
        if not m:
            return None, None, "a line babeltrace2 printed has no vpid/vtid context: " + line[:200]
        counts[(int(m.group(2)), m.group(1))] += 1
        threads[int(m.group(3))].add(int(m.group(2)))
    return counts, threads, ""


def check(session, label):
    run = oracle("--json", session)
    lines = [json.loads(x) for x in run.stdout.splitlines() if x.startswith("{")]
    summary = lines[-1] if lines and lines[-1].get("type") == "summary" else {}
    diags = [d for d in lines if d.get("type") == "diag" and d["severity"] in ("error", "warning")]
    tap.ok(run.returncode == 0 and summary.get("errors") == 0 and summary.get("warnings") == 0,
           f"{label}: gcoracle reads it with 0 errors and 0 warnings ({summary.get('events')} events, "
           f"{summary.get('gcs')} GCs)", [json.dumps(d) for d in diags] or run.stderr)
    text = oracle("--quiet", session).stdout
    by_process = {int(p): int(n) for p, n in re.findall(r"^  process (\d+) +(\d+)$", text, re.M)}
    tap.ok(len([p for p, n in by_process.items() if n > 0]) >= 2,
           f"{label}: GCs of {len(by_process)} processes, counted per process", text)

    if not shutil.which("babeltrace2"):
        tap.skip(f"{label}: babeltrace2 counts as many GCs per process", "no babeltrace2")
        tap.skip(f"{label}: babeltrace2 counts as many events of each class per process",
                 "no babeltrace2")
        return
    bt, threads, why = babeltrace(session)
    if bt is None:
        tap.ok(False, f"{label}: babeltrace2 reads it", why)
        return
    bt_gcs = collections.Counter()
    for (vpid, cls), n in bt.items():
        if re.fullmatch(r"DotNETRuntime:GCStart(_V\d+)?", cls):
            bt_gcs[vpid] += n
    tap.ok(dict(bt_gcs) == by_process,
           f"{label}: babeltrace2 counts as many GCStart events per vpid as gcoracle counts GCs "
           f"per process ({', '.join(f'{p}: {n}' for p, n in sorted(by_process.items()))})",
           [f"babeltrace2 {dict(bt_gcs)}", f"gcoracle    {by_process}"])

    events = [e for e in lines if e.get("type") == "event"]
    shared = sorted(t for t, vpids in threads.items() if len(vpids) > 1)
    ours = collections.Counter()
    for e in events:
        process = e["process"] if "process" in e else min(threads.get(e["thread"], {-1}))
        ours[(process, lttng_class(e["provider"], e["name"]))] += 1
    diff = sorted(set(ours) | set(bt))
    detail = [f"{k}: gcoracle {ours[k]}, babeltrace2 {bt[k]}" for k in diff if ours[k] != bt[k]]
    how = "its process" if events and "process" in events[0] else "its thread's vpid"
    tap.ok(not shared and ours == bt and len(events) == sum(bt.values()),
           f"{label}: babeltrace2 counts as many events of each class per process "
           f"({len(events)} events, {len(bt)} (process, class) pairs; gcoracle's event by {how})",
           ([f"threads seen in two processes: {shared}"] if shared else []) + detail)


def main():
    tmp = None
    try:
        if os.environ.get("REAL_LTTNG_MULTI_DIR"):
            root = os.environ["REAL_LTTNG_MULTI_DIR"]
        else:
            tmp = tempfile.mkdtemp(prefix="gcconform-ltmulti-")
            with tarfile.open(TARBALL) as t:
                if hasattr(tarfile, "data_filter"):
                    t.extractall(tmp, filter="data")
                else:
                    t.extractall(tmp)
            root = os.path.join(tmp, "lttng-multi")
        sessions = sorted(d for d in os.listdir(root)
                          if os.path.isfile(os.path.join(root, d, "ust", "uid", "0", "64-bit", "metadata")))
        if not sessions:
            tap.skip_all(f"no LTTng sessions in {root}")
        for s in sessions:
            check(os.path.join(root, s), s)
    finally:
        if tmp:
            shutil.rmtree(tmp)
    tap.done()


main()
