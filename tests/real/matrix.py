#!/usr/bin/env python3
"""gcoracle across real .NET runtimes: the recorded runtime matrix.

  matrix.py [--slice | --covering | --full [--keep] | --stress SECONDS] [--fixtures DIR]

Publishes the C# workload (tests/real/workload/) self-contained for every
runtime that runs here (tests/real/runtimes/: .NET Core 3.1.3, 8.0, 9.0, 10.0
and 11.0.0), captures it under GC modes, capture methods and keyword sets, and
checks every capture:

  - the workload ran on the runtime asked for, in the GC flavour asked for;
  - gcoracle exits 0 with no error and no warning (notes are fine: events of
    other providers it passes over);
  - every event the runtime's own EventListener decoded has an identical twin
    in gcoracle's decoding (tests/real/errata_evidence.read_trace), and every
    listener event the spec does not describe is one gcoracle counted;
  - the totals equal an independent count: TraceEvent (the peer of
    tests/peers/traceevent, --count) counts every event of the file, and the
    events of each runtime event-version gcoracle names;
  - a sampler capture holds sample-profiler events.

--slice (make check) runs one capture per runtime; --full (make check-runtimes)
runs every combination: every runtime x every GC mode it has x both capture
methods x the four keyword sets (224 captures), plus the nettrace-V6 request
over the diagnostics IPC on 8.0 to 11.0; --covering (make
check-runtimes-covering) runs the covering design of docs/real-runtime.md, 36
of them: every runtime x every GC mode it has, every capture method and keyword
set on every runtime (a passed capture's files are removed again unless --keep:
they add up to gigabytes).
--stress SECONDS (make check-runtimes-stress) captures the full matrix's cells round
and round for that long, each checked by gcoracle alone: how the rare races of
docs/real-runtime.md were found.
--fixtures DIR records the small fixture captures of tests/real/fixtures/
instead (a maintainer's step; tests/real/fixtures.py checks them offline).

Everything is built and written under $top_builddir/tests/real/matrix/. A
runtime whose pack NuGet does not serve, dotnet-trace when it cannot be
installed, and TraceEvent when it cannot be restored are skipped with the
reason. Skips entirely without the .NET SDK.
"""
import collections
import concurrent.futures
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import errata_evidence as ee  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

top_srcdir = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..", ".."))
top_builddir = os.environ.get("top_builddir", ".")
oracle = os.path.abspath(os.path.join(top_builddir, "oracle", "gcoracle"))
here = os.path.join(top_srcdir, "tests", "real")
work = os.path.abspath(os.path.join(top_builddir, "tests", "real", "matrix"))
DOTNET_TRACE = "10.0.750501"   # a version the NuGet mirror serves (dotnet-tool)
RUNTIME = "Microsoft-Windows-DotNETRuntime"
SAMPLER = "Microsoft-DotNETCore-SampleProfiler"
SAMPLER_GUID = "3c530d44-97ae-513a-1e6d-783e8f8e03a9"

# label, project folder under tests/real/runtimes, version prefix, prefix of the runtime's
# configuration variables (3.1 reads only COMPlus_).
RUNTIMES = [
    ("3.1", "netcoreapp3.1", "3.1.", "COMPlus_"),
    ("8.0", "net8.0", "8.0.", "DOTNET_"),
    ("9.0", "net9.0", "9.0.", "DOTNET_"),
    ("10.0", "net10.0", "10.0.", "DOTNET_"),
    ("11.0", "net11.0", "11.0.", "DOTNET_"),
]
# GC modes: the knobs, and whether the GC is a server GC. An explicit heap count turns DATAS
# off (2 heaps: the machine has 2 cores); DATAS is asked for explicitly (8.0 has it off by
# default); GCName loads the segments GC that 8.0 and later ship beside the regions one.
MODES = {
    "wks": ({"gcServer": "0", "gcConcurrent": "1"}, False),
    "wks-nc": ({"gcServer": "0", "gcConcurrent": "0"}, False),
    "svr": ({"gcServer": "1", "gcConcurrent": "1", "GCHeapCount": "2"}, True),
    "svr-nc": ({"gcServer": "1", "gcConcurrent": "0", "GCHeapCount": "2"}, True),
    "datas": ({"gcServer": "1", "gcConcurrent": "1", "GCDynamicAdaptationMode": "1"}, True),
    "segments": ({"gcServer": "0", "gcConcurrent": "1", "GCName": "libclrgc.so"}, False),
}
MODES_31 = ["wks", "wks-nc", "svr", "svr-nc"]   # 3.1 has segments only, and no DATAS
# Keyword sets of the runtime provider: keywords, level, sample profiler on.
KEYWORDS = {
    "gc": (0x1, 5, False),
    "heap": (0x1400001, 5, False),        # + GCHeapSurvivalAndMovement, GCHeapAndTypeNames
    "broad": (0xC14FCCBD, 5, False),      # a broad CLR set (loader, JIT, exceptions, ...)
    "sampler": (0x1, 5, True),            # GC + the sample profiler's suspensions
    "fixture": (0x1, 4, False),           # informational only: the small fixture files
}
KEYWORDS["gc4"] = (0x1, 4, False)          # the slice's lighter sets (fewer events
KEYWORDS["sampler4"] = (0x1, 4, True)     # to compare in make check)
KW_ORDER = ["gc", "heap", "broad", "sampler"]

# Real-runtime behaviours gcoracle still reports, each written down with its evidence in
# docs/real-runtime.md for the oracle's rules to learn (issue 15). Only the code,
# in exactly these captures, is set aside (printed, not failed); any other diagnostic fails.
PENDING = [
    # (code, lambda cell: bool, "what the runtime does"): none at the moment. .NET 8.0's
    # regions re-creating segments (GC-S017) and the sample profiler's thread ids (GC-S023)
    # were here until the oracle learned them (issue 15).
]
METHODS = ["env", "dotnet-trace"]


def plan(which):
    """[(runtime label, mode, method, keyword set)]: every combination (full), the
    covering design (covering), or one capture per runtime (slice)."""
    cells = []
    if which == "full":
        for label, _, _, _ in RUNTIMES:
            for mode in (MODES_31 if label == "3.1" else list(MODES)):
                for method in METHODS:
                    for kwset in KW_ORDER:
                        cells.append((label, mode, method, kwset))
        return cells
    if which == "slice":
        # One capture per runtime, each in another mode and keyword set, env variables only
        # (no tool to install): the full matrix rotates the rest.
        return [("3.1", "svr", "env", "gc"), ("8.0", "wks-nc", "env", "gc4"),
                ("9.0", "datas", "env", "gc4"), ("10.0", "wks", "env", "sampler4"),
                ("11.0", "svr-nc", "env", "gc4")]
    for r, (label, _, _, _) in enumerate(RUNTIMES):
        modes = MODES_31 if label == "3.1" else list(MODES)
        for i, mode in enumerate(modes):
            # keyword set and method rotate independently, so every runtime gets every
            # keyword set and both methods, and across runtimes every (keywords, method) pair.
            cells.append((label, mode, METHODS[i % 2], KW_ORDER[(i + r) % 4]))
    return cells


def clean_env(extra):
    """The caller's environment less every runtime knob (no leak into a capture)."""
    env = {k: v for k, v in os.environ.items()
           if not re.match(r"(DOTNET|COMPlus|CORECLR)_(?!CLI_|NOLOGO|SKIP_FIRST|GENERATE)", k)
           and not k.startswith("GCWORKLOAD_")}
    env.update(extra)
    return env


def knobs(prefix, mode):
    return {prefix + k: v for k, v in MODES[mode][0].items()}


def providers(kwset):
    kw, level, sampler = KEYWORDS[kwset]
    p = f"{RUNTIME}:{kw:#x}:{level}"
    return p + (f",{SAMPLER}:0:5" if sampler else "")


def copy_if_changed(src, dst):
    """Copies keeping the time stamp, so an unchanged source does not rebuild."""
    if not os.path.exists(dst) or open(src, "rb").read() != open(dst, "rb").read():
        shutil.copy2(src, dst)


def build_runtime(label, folder):
    """(path of the published executable, None) or (None, why it cannot be built)."""
    bdir = os.path.join(work, "build", folder)
    os.makedirs(bdir, exist_ok=True)
    copy_if_changed(os.path.join(here, "runtimes", folder, "GcWorkload.csproj"),
                    os.path.join(bdir, "GcWorkload.csproj"))
    for f in ("Program.cs", "Scenarios.cs"):
        copy_if_changed(os.path.join(here, "workload", f), os.path.join(bdir, f))
    out = os.path.join(bdir, "out")
    proc = subprocess.run(["dotnet", "publish", bdir, "-c", "Release", "-nologo", "-v", "quiet",
                           "-nodeReuse:false", "-o", out], capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        missing = re.search(r"(NU110[12]|NETSDK1\d+)[^\n]*", log)
        if missing and re.search(r"Microsoft\.NETCore\.App|runtime pack|target framework", missing.group(0)):
            return None, f"the .NET {label} runtime pack is not available: {missing.group(0)[:200]}"
        return None, "build failed:\n" + log[-3000:]
    return os.path.join(out, "GcWorkload"), None


def install_dotnet_trace():
    tools = os.path.join(work, "tools")
    exe = os.path.join(tools, "dotnet-trace")
    if os.path.exists(exe):
        return exe, None
    proc = subprocess.run(["dotnet", "tool", "install", "--tool-path", tools, "dotnet-trace",
                           "--version", DOTNET_TRACE], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, "dotnet-trace cannot be installed: " + (proc.stdout + proc.stderr).strip()[-300:]
    return exe, None


def build_counter():
    """TraceEvent's event counter (tests/peers/traceevent, --count), or why not."""
    src = os.path.join(top_srcdir, "tests", "peers", "traceevent")
    bdir = os.path.join(work, "build", "traceevent")
    os.makedirs(bdir, exist_ok=True)
    for f in ("TraceEventPeer.csproj", "Program.cs"):
        copy_if_changed(os.path.join(src, f), os.path.join(bdir, f))
    out = os.path.join(bdir, "out")
    proc = subprocess.run(["dotnet", "build", bdir, "-c", "Release", "-nologo", "-v", "quiet",
                           "-nodeReuse:false", "-o", out], capture_output=True, text=True)
    if proc.returncode != 0:
        err = [ln.strip() for ln in (proc.stdout + proc.stderr).splitlines() if "error" in ln]
        return None, "TraceEvent cannot be built: " + (err[0] if err else "dotnet build failed")
    return os.path.join(out, "TraceEventPeer.dll"), None


def wait_for(path, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


# A capture that takes longer than this has hung (they take 2 to 20 s, under load a few
# times that). .NET Core 3.1.3's server GC deadlocks now and then: a heap's GC thread waits
# in a join (mark_phase, scan_dependent_handles) for a thread that never comes, and the
# sample profiler's SuspendEE waits for the thread store lock behind it (1 capture in about
# 300 here, with the sampler through dotnet-trace). Such a capture says nothing about
# gcoracle: it is killed and taken again, up to HANG_TRIES times.
HANG_SECONDS = 120
HANG_TRIES = 3


class Hung(Exception):
    """A process of a capture outlived HANG_SECONDS (it and its children are killed)."""


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def wait_limited(proc, seconds, what):
    """proc's exit status; Hung after `seconds`, with proc's process group killed (a
    client's workload with it)."""
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise Hung(f"{what} still running after {seconds} s") from None


def capture(exe, label, prefix, name, mode, method, kwset, capdir, trace_exe, fmt=1):
    """Runs one capture; returns (ok, detail). Leaves NAME.nettrace, NAME.listener.jsonl,
    NAME.stdout (the workload's summary line) and NAME.env in capdir. A capture whose runtime
    hangs is taken again (HANG_TRIES), saying so on a TAP comment line."""
    hangs = []
    for _ in range(HANG_TRIES):
        try:
            good, detail = capture_once(exe, label, prefix, name, mode, method, kwset, capdir,
                                        trace_exe, fmt)
        except Hung as why:
            hangs.append(str(why))
            continue
        if hangs:
            print(f"# {name}: the runtime hung {len(hangs)} time(s) and was killed "
                  f"({'; '.join(hangs)}); the capture after that is the one checked")
        return good, detail
    return False, f"the runtime hung {len(hangs)} times: {'; '.join(hangs)}"


def timed_capture(*args):
    """capture(*args) with the seconds it took, for a worker thread."""
    t1 = time.monotonic()
    good, detail = capture(*args)
    return good, detail, time.monotonic() - t1


def capture_once(exe, label, prefix, name, mode, method, kwset, capdir, trace_exe, fmt):
    kw, level, _ = KEYWORDS[kwset]
    base = os.path.join(capdir, name)
    for ext in (".nettrace", ".listener.jsonl", ".stdout", ".env", ".log"):
        if os.path.exists(base + ext):
            os.remove(base + ext)
    args = [exe, base + ".listener.jsonl", f"{kw:#x}", str(level)]
    settings = knobs(prefix, mode)
    run_dir = base + ".d"
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    log = open(base + ".log", "w")
    go = os.path.join(run_dir, "go")
    try:
        if method == "env":
            settings.update({prefix + "EnableEventPipe": "1",
                             prefix + "EventPipeConfig": providers(kwset),
                             prefix + "EventPipeOutputStreaming": "1",
                             prefix + "EventPipeCircularMB": "256",
                             prefix + "EventPipeRundown": "0"})
            if label != "3.1":
                # 3.1.3 crashes at start-up with an output path (runtime-matrix.md): it writes
                # GcWorkload.PID.nettrace into its working folder instead.
                settings[prefix + "EventPipeOutputPath"] = base + ".nettrace"
            with open(base + ".stdout", "w") as so:
                app = subprocess.Popen(args, cwd=run_dir, env=clean_env(settings), stdout=so,
                                       stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
                rc = wait_limited(app, HANG_SECONDS, "the workload")
            if label == "3.1":
                made = [f for f in os.listdir(run_dir) if f.endswith(".nettrace")]
                if len(made) == 1:
                    os.replace(os.path.join(run_dir, made[0]), base + ".nettrace")
        elif method == "dotnet-trace" and label != "3.1":
            # The client launches the workload (reverse diagnostics port) and keeps its stdout.
            settings["GCWORKLOAD_SUMMARY"] = base + ".stdout"
            cmd = [trace_exe, "collect", "--providers", providers(kwset), "-o", base + ".nettrace"]
            if kwset == "fixture":
                cmd += ["--rundown", "false"]   # the method rundown is most of a small file
            cmd += ["--"] + args
            client = subprocess.Popen(cmd, cwd=run_dir, env=clean_env(settings), stdout=log,
                                      stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
            rc = wait_limited(client, HANG_SECONDS, "dotnet-trace and the workload it launched")
        else:
            # Attach by pid: 3.1 (no reverse port) with dotnet-trace, or the IPC probe that asks
            # for serialization format `fmt`. The workload waits for the go file.
            settings["GCWORKLOAD_SUMMARY"] = base + ".stdout"
            settings["GCWORKLOAD_GO"] = go
            app = subprocess.Popen(args, cwd=run_dir, env=clean_env(settings), stdout=log,
                                   stderr=log, stdin=subprocess.DEVNULL, start_new_session=True)
            if method == "dotnet-trace":
                client = subprocess.Popen([trace_exe, "collect", "-p", str(app.pid), "--providers",
                                           providers(kwset), "-o", base + ".nettrace"]
                                          + (["--rundown", "false"] if kwset == "fixture" else []),
                                          cwd=run_dir, env=clean_env({}), stdout=log, stderr=log,
                                          stdin=subprocess.DEVNULL, start_new_session=True)
                # dotnet-trace opens its output once the session runs (empty until the first
                # buffer comes).
                started = wait_for(base + ".nettrace", 30)
            else:
                client = subprocess.Popen([sys.executable, os.path.join(here, "ipc_collect.py"),
                                           str(app.pid), str(fmt), providers(kwset),
                                           base + ".nettrace", go],
                                          cwd=run_dir, stdout=subprocess.PIPE, stderr=log, text=True,
                                          start_new_session=True)
                started = wait_for(go, 30) or client.poll() is not None
            open(go, "w").close()
            try:
                rc = wait_limited(app, HANG_SECONDS, "the workload")
            except Hung:
                kill_group(client)
                raise
            try:
                crc = client.wait(timeout=60)
            except subprocess.TimeoutExpired:
                kill_group(client)
                crc = "timeout"
            if method == "ipc":
                answer = client.stdout.read()
                log.write(answer)
                if crc == 3:
                    return "refused", answer.strip()
                if isinstance(rc, int) and rc < 0 and crc == 2:
                    # 8.0 and 9.0 die of the request itself (SIGSEGV before answering)
                    return "crashed", f"the runtime died of signal {-rc} without answering"
            rc = rc or (crc if crc != 0 else 0)
            if not started:
                rc = rc or "no session"
    finally:
        log.close()
    with open(base + ".env", "w") as f:
        f.write("".join(f"{k}={v}\n" for k, v in sorted(settings.items())))
    shutil.rmtree(run_dir, ignore_errors=True)
    detail = open(base + ".log").read()[-2000:]
    if rc != 0:
        return False, f"exit {rc}\n{detail}"
    if not os.path.exists(base + ".nettrace"):
        return False, "no nettrace written\n" + detail
    return True, ""


def trace_version(path):
    """The nettrace Trace object's version (4 for a V4/V5 file, 6 for V6), or None."""
    with open(path, "rb") as f:
        head = f.read(64)
    i = head.find(b"Trace")
    # The object header before the type name: ... version (int32), minimum reader version
    # (int32), name length (int32), "Trace".
    if i < 12:
        return None
    return int.from_bytes(head[i - 12:i - 8], "little")


def traceevent_count(counter, path):
    if counter is None:
        return None
    proc = subprocess.run(["dotnet", counter, "--count", path], capture_output=True, text=True)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": (proc.stdout + proc.stderr)[-500:]}


def check(evd, label, vprefix, name, mode, kwset, capdir, counter, counter_why, row):
    """Every property of one capture; fills row (for the docs table)."""
    base = os.path.join(capdir, name)
    summary = open(base + ".stdout").read() if os.path.exists(base + ".stdout") else ""
    version, _ = ee.run_version(summary)
    row["version"] = version
    ok(bool(version) and version.startswith(vprefix),
       f"{name}: ran on .NET {version}", f"wanted {vprefix}x; workload said {summary!r}")
    server = re.search(r"server=(\w+)", summary)
    ok(server is not None and (server.group(1) == "True") == MODES[mode][1],
       f"{name}: the GC is {'a server' if MODES[mode][1] else 'a workstation'} GC", summary)
    res = ee.read_trace(evd, capdir, name, oracle)
    s = res["summary"]
    pending = {code: why for code, cond, why in PENDING if cond(row)}
    set_aside = collections.Counter()
    errors = []
    for e in res["errors"]:
        if e.split()[0] in pending:
            set_aside[e.split()[0]] += 1
        else:
            errors.append(e)
    warns = {}
    for (c, sev), k in res["diags"].items():
        if sev == "note":
            continue
        if c in pending:
            set_aside[c] += k
        else:
            warns[c] = k
    for c, k in sorted(set_aside.items()):
        print(f"# {name}: pending, set aside: {c} x{k}: {pending[c]}")
    row.update(events=s.get("events"), gcs=s.get("gcs"), bytes=os.path.getsize(base + ".nettrace"),
               diags=dict(s.get("diagnostics", {})), format=trace_version(base + ".nettrace"))
    row["pending"] = dict(set_aside)
    ok(res["status"] == 0 or (res["status"] == 1 and not errors and set_aside),
       f"{name}: gcoracle exits 0", f"exit {res['status']}")
    ok(not errors, f"{name}: no error diagnostic",
       f"{len(errors)} errors:\n" + "\n".join(errors[:10]))
    ok(not warns, f"{name}: no warning", f"warnings: {warns}")
    ok((s.get("gcs") or 0) >= 10, f"{name}: {s.get('gcs')} GCs decoded (the workload induces more than 10)")
    missing = {ev: k for ev, k in res["missing"].items() if k}
    ok(not missing and sum(res["seen"].values()) > 0,
       f"{name}: all {sum(res['seen'].values())} events the runtime's listener decoded have identical twins",
       "\n".join(f"{ev}: {k} without a twin, first {res['first_missing'][ev][:300]}"
                 for ev, k in missing.items()))
    # By id only: .NET 11.0.0 gives its listener ModuleLoad version 3 while the file has
    # version 2 (a loader event, not a GC one).
    counted = {eid for (eid, _), k in res["oracle_unknown"].items() if k}
    unknown = [f"{ev} {eid}/{ver}" for (ev, eid, ver) in res["not_in_spec"] if eid not in counted]
    ok(not unknown, f"{name}: {len(res['not_in_spec'])} kinds of listener event outside the spec, "
       "each counted by gcoracle", f"not counted: {unknown}")
    if counter is None:
        tap.skip(f"{name}: totals against TraceEvent", counter_why)
    else:
        te = traceevent_count(counter, base + ".nettrace")
        if not ok("error" not in te, f"{name}: TraceEvent reads the file", te.get("error")):
            return
        ok(te["total"] == s.get("events"),
           f"{name}: {s.get('events')} events, TraceEvent counts {te['total']}")
        per = s.get("per_event", {})
        diff = []
        for key, cnt in te["runtime"].items():
            eid, ver = map(int, key.split("/"))
            sym = evd.by_key.get((eid, ver))
            if sym is not None and per.get(sym, 0) != cnt:
                diff.append(f"{sym}: gcoracle {per.get(sym, 0)}, TraceEvent {cnt}")
        named = sum(v for k, v in te["runtime"].items()
                    if evd.by_key.get(tuple(map(int, k.split("/")))))
        ok(not diff and named == sum(per.get(k, 0) for k in per if k in evd.spec),
           f"{name}: every runtime event-version has TraceEvent's count ({named} events)",
           "\n".join(diff) or f"TraceEvent {named}, gcoracle {sum(per.values())}")
        if KEYWORDS[kwset][2]:
            # unparsed events carry the provider's GUID (EventSource's name hash)
            sampled = sum(v for k, v in te["providers"].items()
                          if k == SAMPLER or SAMPLER_GUID in k.lower())
            ok(sampled > 0 and s.get("other_provider", 0) >= sampled,
               f"{name}: {sampled} sample-profiler events, passed over by gcoracle",
               json.dumps(te["providers"]))


def record_fixtures(dest, exes, trace_exe, counter):
    """Small captures (GC keyword, informational level) of every runtime, with TraceEvent's
    counts beside them: tests/real/fixtures.py checks gcoracle against them offline."""
    capdir = os.path.join(work, "fixtures")
    os.makedirs(capdir, exist_ok=True)
    os.makedirs(dest, exist_ok=True)
    for label, _, vprefix, prefix in RUNTIMES:
        if label not in exes:
            continue
        cells = [("wks", "env"), ("svr", "dotnet-trace")]
        if label == "11.0":
            cells.append(("wks", "ipc"))   # the stream session over the diagnostics IPC
        for mode, method in cells:
            name = f"net{label}-{mode}-{method}"
            good, detail = capture(exes[label], label, prefix, name, mode, method, "fixture",
                                   capdir, trace_exe)
            if good is not True:
                print(f"{name}: {detail}", file=sys.stderr)
                continue
            base = os.path.join(capdir, name)
            meta = {"runtime": ee.run_version(open(base + ".stdout").read())[0], "mode": mode,
                    "method": method, "providers": providers("fixture"),
                    "traceevent": traceevent_count(counter, base + ".nettrace")}
            meta["traceevent"].pop("file", None)   # a path of the recording machine
            # gzip: a fifth of the size; mtime 0 keeps the bytes the same for the same file
            with open(base + ".nettrace", "rb") as src, \
                    open(os.path.join(dest, name + ".nettrace.gz"), "wb") as raw, \
                    gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as gz:
                shutil.copyfileobj(src, gz)
            with open(os.path.join(dest, name + ".json"), "w") as f:
                json.dump(meta, f, indent=1, sort_keys=True)
                f.write("\n")
            print(f"{name}: {os.path.getsize(base + '.nettrace')} bytes")


def run_stress(cells, exes, trace_exe, capdir, seconds):
    """Captures the full matrix's cells round and round for `seconds`, each checked by
    gcoracle alone (exit 0, no error, no warning): rare races of a real runtime show up
    only over hundreds of captures. A capture that fails is kept in capdir; one TAP line
    per cell."""
    deadline = time.monotonic() + seconds
    # Runtimes in turn, so that a short run sees every runtime.
    per = collections.defaultdict(list)
    for c in cells:
        per[c[0]].append(c)
    cells = [c for i in range(max(map(len, per.values())))
             for lst in per.values() if i < len(lst) for c in [lst[i]]]
    runs, bad = collections.Counter(), collections.defaultdict(list)
    i = 0
    while time.monotonic() < deadline:
        label, mode, method, kwset = cells[i % len(cells)]
        i += 1
        cell = f"net{label}-{mode}-{method}-{kwset}"
        if label not in exes or (method == "dotnet-trace" and trace_exe is None):
            continue
        prefix = next(r for r in RUNTIMES if r[0] == label)[3]
        name = f"{cell}-{i}"
        good, detail = capture(exes[label], label, prefix, name, mode, method, kwset, capdir,
                               trace_exe)
        runs[cell] += 1
        if good is not True:
            bad[cell].append(f"{name}: not captured: {detail[-300:]}")
            continue
        proc = subprocess.run([oracle, os.path.join(capdir, name + ".nettrace")],
                              capture_output=True, text=True)
        said = [ln for ln in proc.stdout.splitlines() + proc.stderr.splitlines()
                if re.match(r"GC-\S+ (error|warning)", ln)]
        if proc.returncode != 0 or said:
            bad[cell].append(f"{name}: gcoracle exit {proc.returncode}: {'; '.join(said[:3])}")
            continue
        for ext in (".nettrace", ".listener.jsonl", ".stdout", ".env", ".log"):
            if os.path.exists(os.path.join(capdir, name + ext)):
                os.remove(os.path.join(capdir, name + ext))
    for cell in sorted(runs):
        ok(not bad[cell], f"{cell}: {runs[cell]} captures, gcoracle clean on "
           f"{runs[cell] - len(bad[cell])}", "\n".join(bad[cell][:5]))
    print(f"# {sum(runs.values())} captures in {seconds:.0f} s; failed ones kept in {capdir}")
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


def main(argv):
    stress = float(argv[argv.index("--stress") + 1]) if "--stress" in argv else 0
    which = "full" if "--full" in argv or stress else \
        "covering" if "--covering" in argv else "slice"
    fixtures = argv[argv.index("--fixtures") + 1] if "--fixtures" in argv else None
    if not shutil.which("dotnet"):
        print("1..0 # SKIP the .NET SDK (dotnet) is not installed")
        return 0
    t0 = time.monotonic()
    os.makedirs(work, exist_ok=True)
    exes = {}
    for label, folder, _, _ in RUNTIMES:
        t1 = time.monotonic()
        exe, why = build_runtime(label, folder)
        print(f"# .NET {label}: publish took {time.monotonic() - t1:.1f} s")
        if exe is None and why.startswith("build failed"):
            ok(False, f"the workload builds for .NET {label}", why)
        elif exe is None:
            tap.skip(f"the workload builds for .NET {label}", why)
        else:
            ok(True, f"the workload builds for .NET {label} ({folder})")
            exes[label] = exe
    cells = plan(which)
    trace_exe, trace_why = (None, "not needed")
    if fixtures or any(c[2] == "dotnet-trace" for c in cells):
        trace_exe, trace_why = install_dotnet_trace()
    counter, counter_why = build_counter()
    if fixtures:
        record_fixtures(fixtures, exes, trace_exe, counter)
        return 0

    capdir = os.path.join(work, "stress" if stress else which)
    os.makedirs(capdir, exist_ok=True)
    if stress:
        return run_stress(cells, exes, trace_exe, capdir, stress)
    rows = []
    evds = {}
    # MATRIX_JOBS captures run at once (default 2, one a core here): each is its own
    # processes and files, and the checks below take them in the plan's order, so the
    # TAP output is the same whatever finishes first.
    jobs = max(1, int(os.environ.get("MATRIX_JOBS") or 2))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    taken = {}
    for label, mode, method, kwset in cells:
        name = f"net{label}-{mode}-{method}-{kwset}"
        if label in exes and not (method == "dotnet-trace" and trace_exe is None):
            prefix = next(r for r in RUNTIMES if r[0] == label)[3]
            taken[name] = pool.submit(timed_capture, exes[label], label, prefix, name, mode,
                                      method, kwset, capdir, trace_exe)
    for label, mode, method, kwset in cells:
        _, _, vprefix, prefix = next(r for r in RUNTIMES if r[0] == label)
        name = f"net{label}-{mode}-{method}-{kwset}"
        if label not in exes:
            tap.skip(name, f"no .NET {label} workload")
            continue
        if method == "dotnet-trace" and trace_exe is None:
            tap.skip(name, trace_why)
            continue
        good, detail, took = taken.pop(name).result()
        if not ok(good is True, f"{name}: captured ({took:.1f} s)", detail):
            continue
        row = {"runtime": label, "mode": mode, "method": method, "keywords": kwset}
        evd = evds.setdefault(label, ee.Evidence(top_srcdir))
        before = tap.failed
        check(evd, label, vprefix, name, mode, kwset, capdir, counter, counter_why, row)
        rows.append(row)
        if which != "slice" and tap.failed == before and "--keep" not in argv:
            # the whole matrix writes about a gigabyte; a passed capture's bulk goes
            for ext in (".nettrace", ".listener.jsonl"):
                os.remove(os.path.join(capdir, name + ext))

    pool.shutdown()

    # Nettrace V6: does the runtime write it when a client asks over the diagnostics IPC
    # (CollectTracing2's format field: 1 is NetTrace V4, 2 would be the next)? A refusal is
    # recorded; an accepted request is a capture like any other and must be a V6 file.
    probes = [lb for lb in ("8.0", "9.0", "10.0", "11.0") if lb in exes]
    probe_kw = "gc"
    if which == "slice":
        probes, probe_kw = [lb for lb in probes if lb == "11.0"], "gc4"
    for label in probes:
        _, _, vprefix, prefix = next(r for r in RUNTIMES if r[0] == label)
        for fmt in (1, 2):
            name = f"net{label}-wks-ipc{fmt}-{probe_kw}"
            good, detail = capture(exes[label], label, prefix, name, "wks", "ipc", probe_kw, capdir,
                                   None, fmt)
            if good in ("refused", "crashed"):
                # Either way no V6 file; format 1 must work.
                ok(fmt > 1, f"{name}: .NET {label} {good} nettrace format {fmt} over IPC ({detail})")
                rows.append({"runtime": label, "mode": "wks", "method": f"ipc format {fmt}",
                             "keywords": probe_kw, "refused": f"{good}: {detail}"})
                continue
            if not ok(good is True, f"{name}: .NET {label} writes format {fmt} over IPC", detail):
                continue
            row = {"runtime": label, "mode": "wks", "method": f"ipc format {fmt}",
                   "keywords": probe_kw}
            evd = evds.setdefault(label, ee.Evidence(top_srcdir))
            check(evd, label, vprefix, name, "wks", probe_kw, capdir, counter, counter_why, row)
            ok(row.get("format") == (4 if fmt == 1 else 6),
               f"{name}: the stream is nettrace V{row.get('format')}")
            rows.append(row)

    # Errata each runtime shows (errata_evidence's rules), for the docs.
    errata = ee.speclib.load(os.path.join(top_srcdir, "docs", "spec", "errata.toml"))["erratum"]
    shown = {}
    for label, evd in sorted(evds.items()):
        shown[label] = sorted(er["id"] for er in errata if evd.shows(er)[0])
        print(f"# errata shown by .NET {label}: {len(shown[label])} of {len(errata)}: "
              + " ".join(shown[label]))
    with open(os.path.join(capdir, "results.json"), "w") as f:
        json.dump({"rows": rows, "errata": shown}, f, indent=1)
    for r in rows:
        d = ", ".join(f"{c} x{k}" for c, k in sorted(r.get("diags", {}).items()))
        print(f"# | {r['runtime']} ({r.get('version', '-')}) | {r['mode']} | {r['method']} | "
              f"{r['keywords']} | {r.get('events', '-')} | {r.get('gcs', '-')} | "
              f"{r.get('refused') or d or '-'} |")
    print(f"# {len(rows)} captures in {time.monotonic() - t0:.0f} s")
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
