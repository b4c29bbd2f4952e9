#!/usr/bin/env python3
"""The peer table tells its outcomes apart as docs/peer-table.md's legend says
(tests/peers/peer_table_run.py, adapters/ctf_text.py, peer_table_render.py):

  - a process killed by a signal is a crash, an exception the adapter caught
    and reported as a defect (exit 70) is not, a run still going at the time
    limit is a hang (TIME), and exit 0 after babeltrace 1's `[error]` lines
    is not an acceptance;
  - a CLI's printed text is read back into values (escaped and raw strings,
    enumerations, arrays), and a wrong printed value is a difference
    gcoracle compare reports (needs babeltrace2 and the corpus);
  - the history marks a version older than a bug as such, not as "before the
    fix" (TraceEvent 2.0.56 and perfview#2444).

Small fixtures (sh one-liners); a few seconds.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "adapters"))
sys.path.insert(0, os.path.join(HERE, "..", "spec"))
import ctf_text  # noqa: E402
import peer_table_render as render  # noqa: E402
import peer_table_run as run  # noqa: E402
import speclib  # noqa: E402

t = speclib.Tap()
top = speclib.srcdir()
tmp = tempfile.mkdtemp()


def outcome(script, timeout=None, **peer):
    peer["argv"] = lambda path: ["sh", "-c", script]
    return run.run_one(peer, "/dev/null", os.path.join(tmp, "out"), timeout)


o = outcome('echo "Stack overflow." >&2; kill -ABRT $$')
t.ok(o[0] == "crash" and "SIGABRT" in o[1] and "Stack overflow" in o[1],
     "a process killed by a signal is a crash, with the runtime's last words", o)
o = outcome("echo 'System.NullReferenceException: Object reference not set' >&2; exit 70")
t.ok(o == ("defect", "System.NullReferenceException: Object reference not set"),
     "an exception caught and reported as a defect (exit 70) is DEFECT, not a crash", o)
o = outcome("echo 'System.OutOfMemoryException: Array dimensions' >&2; exit 71")
t.ok(o[0] == "oom", "exit 71 is out of memory", o)
o = outcome("sleep 5", timeout=1)
t.ok(o == ("timeout", "killed after 1 s"), "a run still going at the time limit is a hang, killed", o)
bt1_err = "echo '[warning] Tracer discarded 3 events' >&2; echo '[error] Packet size is larger' >&2; exit 0"
o = outcome(bt1_err, error_lines=r"^\[error\]")
t.ok(o == ("reject", "exit 0 after 1 error line: [error] Packet size is larger"),
     "babeltrace 1's exit 0 after an [error] line is a rejection", o)
o = outcome("echo '[warning] Tracer discarded 3 events' >&2; exit 0", error_lines=r"^\[error\]")
t.ok(o == ("accept", ""), "exit 0 with only warnings is an acceptance", o)

# The CLI text, read back.
rd = ctf_text.Reader(r'{ a = "q\" b\\ t\t n\n", e = ( "GEN2" : container = 2 ), '
                     r'h = 0x1F, o = 017, arr = [ [0] = { x = -1 }, [1] = { x = 2 } ], f = 1.5 }', False)
got = rd.struct()
t.ok(got == {"a": 'q" b\\ t\t n\n', "e": 2, "h": 31, "o": 15, "arr": [{"x": -1}, {"x": 2}], "f": 1.5},
     "babeltrace2's escaped strings, enumerations, bases, arrays of structures", got)
recs = ctf_text.records('[0000000010] gcgen DotNETRuntime:GCStart_V2: { cpu_id = 0 }, '
                        '{ vpid = 7, vtid = 9 }, { _TypeName = "quote" b, c\n nl", Count = 1 }\n')
line, payload = ctf_text.event(recs[0], {}, True)
t.ok(len(recs) == 1 and payload == {"TypeName": 'quote" b, c\n nl', "Count": 1}
     and line["thread"] == 9 and line["process"] == 7 and line["timestamp"] == 10,
     "babeltrace 1's raw strings, newline and quote included, and the contexts", (recs, line, payload))

# A wrong printed value is a difference.
case = os.path.join(top, "corpus", "cases", "y_ctf_exhaustive_ptr8.ctf")
oracle = os.path.join(os.environ.get("top_builddir", "."), "oracle", "gcoracle")
if subprocess.run(["sh", "-c", "command -v babeltrace2"], capture_output=True).returncode or \
        not os.path.exists(case) or not os.path.exists(oracle):
    t.ok(True, "# SKIP babeltrace2, the corpus or gcoracle is not here")
else:
    text = subprocess.run(["babeltrace2", "--clock-cycles", "--no-delta", case],
                          capture_output=True, text=True).stdout
    expect = os.path.join(top, "corpus", "expect", "y_ctf_exhaustive_ptr8.cbor")

    def differences(txt):
        p = subprocess.run([sys.executable, os.path.join(HERE, "adapters", "ctf_text.py"), "bt2"],
                           input=txt, capture_output=True, text=True)
        with open(os.path.join(tmp, "out.jsonl"), "w") as f:
            f.write(p.stdout)
        c = subprocess.run([oracle, "compare", "--json", expect, f.name], capture_output=True, text=True)
        return [d for d in map(json.loads, c.stdout.splitlines())
                if d.get("type") == "diag" and d.get("severity") == "error"]
    diffs = differences(text)
    t.ok(diffs == [], "babeltrace2's printed values of y_ctf_exhaustive_ptr8 agree", diffs[:3])
    diffs = differences(text.replace("ClrInstanceID = 8", "ClrInstanceID = 9", 1))
    t.ok(len(diffs) == 1 and "ClrInstanceID" in diffs[0]["message"],
         "one wrong printed value is one difference", diffs[:3])

# History: a version older than the bug is not "before the fix".
doc = {"results": {f"te-{v}": {"c": {"outcome": o}} for v, o in
                   (("2.0.56", "defect"), ("3.1.21", "crash"), ("3.2.6", "reject"))}}
peers = [{"id": f"te-{v}", "parser": "TraceEvent", "version": v} for v in ("2.0.56", "3.1.21", "3.2.6")]
hist = os.path.join(tmp, "tests", "peers")
os.makedirs(hist)
with open(os.path.join(hist, "history.tsv"), "w") as f:
    f.write("TraceEvent\t3.1.21\t3.2.6\tx#1\tbug\tc\tfault\n")
rows = render.history_rows(doc, peers, tmp)
t.ok([c[1] for c in rows[0][7]] == ["older", "before", ""],
     "history: 2.0.56 is older than the bug, 3.1.21 has it, 3.2.6 has the fix", rows)
t.done()
