"""Round trips through CTF: for every runtime profile, both pointer sizes,
workstation and server GC, and the exhaustive stream (every event-version
of the spec), gcgen's CTF trace decodes in gcoracle to exactly what the same
stream decodes to from the CBOR model stream: the same events in the same
order, names, ids, versions, threads, every field value, timestamps in
nanoseconds (the model's ticks x 100), and the same diagnostics (none for
realistic streams). The reader's generic interpreter gives byte-identical
output to its fast paths. TAP.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ.get("top_srcdir", "."), "tests", "spec"))
from speclib import Tap  # noqa: E402

build = os.environ.get("top_builddir", ".")
GCGEN = os.path.join(build, "gen", "gcgen")
ORACLE = os.path.join(build, "oracle", "gcoracle")


def run(args, env=None):
    return subprocess.run(args, capture_output=True, env=env).stdout


def decode(path, generic=False):
    env = dict(os.environ)
    if generic:
        env["GCCONFORM_CTF_GENERIC"] = "1"
    out = run([ORACLE, "--json", path], env)
    events, diags = [], []
    for line in out.split(b"\n"):
        if not line:
            continue
        d = json.loads(line)
        if d["type"] == "event":
            events.append(d)
        elif d["type"] == "diag":
            diags.append((d["code"], d["event"]))
    return out, events, diags


def compare(model, ctf):
    """None when the CTF decoding equals the model's, else what differs."""
    if len(model) != len(ctf):
        return f"{len(model)} events from CBOR, {len(ctf)} from CTF"
    for a, b in zip(model, ctf):
        for k in ("index", "name", "provider", "id", "version", "thread", "fields"):
            if a.get(k) != b.get(k):
                return f"event {a['index']}: {k} {a.get(k)!r} != {b.get(k)!r}"
        if a["timestamp"] * 100 != b["timestamp"]:
            return f"event {a['index']}: time {a['timestamp']} ticks, {b['timestamp']} ns"
    return None


def main():
    tap = Tap()
    work = tempfile.mkdtemp()
    try:
        profiles = [ln.split()[0] for ln in run([GCGEN, "--list-profiles"]).decode().splitlines()]
        cases = []
        for p in profiles:
            for ps in ("4", "8"):
                cases.append((f"{p} realistic pointer size {ps}",
                               ["--profile", p, "--pointer-size", ps, "--gcs", "15", "--seed", "3"]))
        cases.append(("net8 server GC, 4 heaps", ["--profile", "net8", "--heaps", "4", "--gcs", "10"]))
        for ps in ("4", "8"):
            cases.append((f"exhaustive pointer size {ps}",
                          ["--mode", "exhaustive", "--pointer-size", ps]))
        for name, args in cases:
            cbor = os.path.join(work, "m.cbor")
            ctf = os.path.join(work, "t")
            r1 = subprocess.run([GCGEN, "-q", "-o", cbor] + args)
            r2 = subprocess.run([GCGEN, "-q", "-f", "ctf", "-o", ctf] + args)
            if not tap.ok(r1.returncode == 0 and r2.returncode == 0, f"{name}: gcgen writes CBOR and CTF"):
                continue
            _, mev, mdiag = decode(cbor)
            fast, cev, cdiag = decode(ctf)
            why = compare(mev, cev)
            tap.ok(why is None and len(cev) > 0, f"{name}: {len(cev)} events decode as from CBOR", why)
            realistic = "exhaustive" not in name
            tap.ok(cdiag == mdiag and (not realistic or not cdiag),
                   f"{name}: the same diagnostics as CBOR ({len(cdiag)})", f"{cdiag[:5]} vs {mdiag[:5]}")
            slow, _, _ = decode(ctf, generic=True)
            tap.ok(fast == slow, f"{name}: the generic interpreter's output is byte-identical")
            shutil.rmtree(ctf, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.done()


main()
