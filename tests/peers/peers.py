"""The peer readers of the peer table: which are here, how each is run, and
their accepted differences (tests/peers/peer_table_run.py uses this).

A peer is a dict: id ("traceevent-3.2.8"), parser, version, containers it
reads, values (whether it prints decoded values for gcoracle compare, or
only accepts and rejects), note, argv (path -> command), post (a command
that turns its output into what gcoracle compare reads), env, rlimit
(False for .NET, whose runtime reserves far more address space than it
uses: a GC heap hard limit stands in for RLIMIT_AS), error_lines (a
pattern of stderr lines that mean the reader gave up on part of the file
even when it exits 0: babeltrace 1's `[error]`).
"""
import glob
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DOTNET_ENV = {"DOTNET_GCHeapHardLimit": "0x20000000", "DOTNET_gcServer": "0",
              "DOTNET_CLI_TELEMETRY_OPTOUT": "1", "DOTNET_NOLOGO": "1"}


def top_srcdir():
    return os.environ.get("top_srcdir") or os.path.join(HERE, "..", "..")


def top_builddir():
    return os.environ.get("top_builddir") or "."


def vkey(v):
    return [int(x) if x.isdigit() else x for x in re.split(r"[.-]", v)]


def find_peers(top, build):
    """([peer...], [(what, why missing)...])."""
    found, missing = [], []
    adapters = os.path.join(top, "tests", "peers", "adapters")
    te = sorted(glob.glob(os.path.join(build, "tests", "peers", "te", "*", "out", "TraceEventAdapter.dll")),
                key=lambda p: vkey(p.split(os.sep)[-3]))
    if not shutil.which("dotnet"):
        missing.append(("TraceEvent, dotnet-trace", "the .NET SDK (dotnet) is not installed"))
    elif not te:
        missing.append(("TraceEvent", "no adapter built: run tests/peers/build_peers.sh"))
    for dll in te:
        v = dll.split(os.sep)[-3]
        found.append({
            "id": f"traceevent-{v}", "parser": "TraceEvent", "version": v,
            "containers": ["nettrace"], "values": True,
            "note": "Microsoft.Diagnostics.Tracing.TraceEvent, EventPipeEventSource with the CLR parsers; "
                    "every field read and every event formatted",
            "argv": lambda path, dll=dll: ["dotnet", dll, path],
            "post": ["python3", os.path.join(adapters, "te_normalise.py"), f"TraceEvent {v}"],
            "env": DOTNET_ENV, "rlimit": False})
    for tool in sorted(glob.glob(os.path.join(build, "tests", "peers", "dotnet-trace", "*", "dotnet-trace")),
                       key=lambda p: vkey(p.split(os.sep)[-2])):
        v = tool.split(os.sep)[-2]
        found.append({
            "id": f"dotnet-trace-{v}", "parser": "dotnet-trace convert", "version": v,
            "containers": ["nettrace"], "values": False,
            "note": "nettrace to speedscope through TraceLog (a real consumer: accept/reject only)"
                    + (f"; bundles TraceEvent {te_of(tool)}" if te_of(tool) else ""),
            "argv": lambda path, tool=tool: [os.path.join(adapters, "dotnet_trace.sh"), tool, path],
            "env": DOTNET_ENV, "rlimit": False})
    for cli, mod, parser, adapter in (("babeltrace2", "bt2", "babeltrace2", "bt2_adapter.py"),
                                      ("babeltrace", "babeltrace", "babeltrace 1", "bt1_adapter.py")):
        if not shutil.which(cli):
            missing.append((parser, f"{cli} is not installed (.ci/deps)"))
            continue
        v = cli_version(cli)
        # babeltrace 1 reports a packet it cannot read as an `[error]` line and carries on
        # to exit 0: such a run did not read the whole file.
        bt1 = {"error_lines": r"^\[error\]"} if cli == "babeltrace" else {}
        found.append({
            "id": f"{cli}-cli-{v}", "parser": f"{parser} CLI", "version": v, "containers": ["ctf"],
            "values": True, "note": f"`{cli} --clock-cycles --no-delta TRACE`, its text read back by "
                                    "adapters/ctf_text.py: every event's payload as printed",
            "argv": lambda path, cli=cli: [cli, "--clock-cycles", "--no-delta", path],
            "post": ["/usr/bin/python3", os.path.join(adapters, "ctf_text.py"), f"{parser} CLI {v}"]
                    + (["--raw-strings"] if bt1 else []), **bt1})
        py = "/usr/bin/python3"
        if subprocess.run([py, "-c", f"import {mod}"], capture_output=True).returncode != 0:
            missing.append((f"{parser} Python", f"{py} cannot import {mod} (.ci/deps)"))
            continue
        found.append({
            "id": f"{cli}-python-{v}", "parser": f"{parser} Python", "version": v, "containers": ["ctf"],
            "values": True, "note": f"the Python bindings ({mod}), every event's payload",
            "argv": lambda path, py=py, adapter=adapter: [py, os.path.join(adapters, adapter), path], **bt1})
    return found, missing


def cli_version(cli):
    p = subprocess.run([cli, "--version"], capture_output=True, text=True)
    m = re.search(r"(\d+\.\d+\.\d+)", p.stdout + p.stderr)
    return m.group(1) if m else "unknown"


def te_of(tool):
    deps = glob.glob(os.path.join(os.path.dirname(tool), ".store", "dotnet-trace", "*", "dotnet-trace", "*",
                                  "tools", "*", "any", "dotnet-trace.deps.json"))
    for d in deps:
        m = re.search(r'"Microsoft\.Diagnostics\.Tracing\.TraceEvent/([^"]+)"', open(d, encoding="utf-8").read())
        if m:
            return m.group(1)
    return ""


def merge_peer_lists(old, new):
    """Peers of an earlier run stay listed (a partial run keeps their results)."""
    ids = {p["id"] for p in new}
    return sorted([p for p in old if p["id"] not in ids] + new,
                  key=lambda p: (p["parser"], vkey(p["version"])))


def accept_file(top, peer):
    """The accepted-differences file (docs/accepted-differences.md) gcoracle compare is
    given for the peer, or None: TraceEvent's is the one the project maintains,
    accepted/traceevent-4.0.0.accept, for every version (an older version's other
    differences, such as fields it lacks, are real and stay differences)."""
    if peer["parser"] == "TraceEvent":
        return os.path.join(top, "accepted", "traceevent-4.0.0.accept")
    return None
