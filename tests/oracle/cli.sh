#!/bin/sh
# gcoracle's command line: exit statuses and the JSON line shapes.
# Uses the C test to write a small model stream? No: builds one with python.
o=${top_builddir:-.}/oracle/gcoracle
n=0; fail=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
"$o" --help >/dev/null; ok $? "--help exits 0"
"$o" --version >/dev/null; ok $? "--version exits 0"
"$o" >/dev/null 2>&1; [ $? = 2 ]; ok $? "no file is bad usage: exit 2"
"$o" --bogus x >/dev/null 2>&1; [ $? = 2 ]; ok $? "unknown option: exit 2"
"$o" "$t/missing" >/dev/null 2>&1; [ $? = 2 ]; ok $? "missing file: exit 2"
printf 'hello' >"$t/junk"; "$o" "$t/junk" >/dev/null 2>&1; [ $? = 2 ]; ok $? "unrecognised file: exit 2"
# header + GCStart_V2(1) + GCEnd_V1 with Count 2 (S005), written by hand in CBOR.
${PYTHON3:-python3} - "$t" <<'PY'
import struct, sys
def head(major, n):
    if n < 24: return bytes([major << 5 | n])
    for ai, fmt in ((24, '>B'), (25, '>H'), (26, '>I'), (27, '>Q')):
        try: return bytes([major << 5 | ai]) + struct.pack(fmt, n)
        except struct.error: pass
def enc(v):
    if isinstance(v, int): return head(0, v)
    if isinstance(v, str): b = v.encode(); return head(3, len(b)) + b
    if isinstance(v, bytes): return head(2, len(v)) + v
    if isinstance(v, dict): return head(5, len(v)) + b''.join(enc(k) + enc(x) for k, x in v.items())
hdr = enc({"format": "gcconform-model", "version": 1, "pointer_size": 8, "clock_frequency": 10**7,
           "start_ticks": 0, "process_id": 1, "profile": "net8", "mode": "realistic", "seed": 1,
           "keywords": 1, "level": 5, "generator": "cli.sh"})
def ev(ts, id, ver, payload):
    return enc({"timestamp": ts, "thread": 1, "provider": "Microsoft-Windows-DotNETRuntime", "id": id,
                "version": ver, "level": 4, "opcode": 1, "keywords": 1, "name": "", "payload": payload})
start = struct.pack('<IIIIHQ', 1, 0, 1, 0, 0, 0)
good = hdr + ev(10, 1, 2, start) + ev(20, 2, 1, struct.pack('<IIH', 1, 0, 0))
bad = hdr + ev(10, 1, 2, start) + ev(20, 2, 1, struct.pack('<IIH', 2, 0, 0))
longer = hdr + ev(10, 1, 2, start) + ev(20, 2, 1, struct.pack('<IIHH', 1, 0, 0, 0))
open(sys.argv[1] + '/good.model', 'wb').write(good)
open(sys.argv[1] + '/bad.model', 'wb').write(bad)
open(sys.argv[1] + '/longer.model', 'wb').write(longer)
open(sys.argv[1] + '/expect', 'w').write('{"code":"GC-S005","event":1}\n')
open(sys.argv[1] + '/expect-wrong', 'w').write('{"code":"GC-S005","event":0}\n')
PY
"$o" "$t/good.model" >/dev/null; ok $? "a valid stream: exit 0"
"$o" "$t/bad.model" >"$t/out"; [ $? = 1 ]; ok $? "a GCEnd Count mismatch: exit 1"
grep -q '^GC-S005 error: event 1 (GCEnd_V1)' "$t/out"; ok $? "text diagnostic names code, event and name"
"$o" "$t/longer.model" >/dev/null; ok $? "a longer payload is a warning: exit 0"
"$o" --strict "$t/longer.model" >/dev/null; [ $? = 1 ]; ok $? "--strict makes it an error: exit 1"
"$o" --json "$t/bad.model" >"$t/json"
grep -q '^{"type":"event","index":0,"offset":[0-9]*,"name":"GCStart_V2","provider":"Microsoft-Windows-DotNETRuntime","id":1,"version":2,"timestamp":10,"thread":1,"process":1,"fields":{"Count":1,"Depth":0,"Reason":1,"Type":0,"ClrInstanceID":0,"ClientSequenceNumber":0}}$' "$t/json"; ok $? "JSON event line, with the stream's process"
grep -q '^{"type":"diag","code":"GC-S005","severity":"error","event":1,' "$t/json"; ok $? "JSON diag line"
tail -n 1 "$t/json" | grep -q '^{"type":"summary","events":2,'; ok $? "JSON summary last"
"$o" --expect "$t/expect" "$t/bad.model" >"$t/x"; ok $? "--expect met: exit 0"
grep -q '^expectations met: 1 required diagnostic reported where recorded' "$t/x"; ok $? "--expect met: says so"
"$o" --quiet --expect "$t/expect" "$t/bad.model" >"$t/x"; [ ! -s "$t/x" ]; ok $? "--quiet --expect met: prints nothing"
"$o" --expect "$t/expect-wrong" "$t/bad.model" >"$t/x"; [ $? = 1 ]; ok $? "--expect not met: exit 1"
grep -q 'GC-S005 at event 0' "$t/x"; ok $? "--expect prints the first mismatch"
# Type names with U+2028, U+2029 and U+0085 (the exhaustive stream has them)
# still give one JSON line per line to any line splitter.
"${top_builddir:-.}/gen/gcgen" -q --mode exhaustive -o "$t/ex.cbor" && "$o" --json "$t/ex.cbor" >"$t/ex.json"
${PYTHON3:-python3} - "$t/ex.json" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
lines = text.splitlines()
assert lines == text.split("\n")[:-1], "a line splitter sees more lines than there are"
assert all(json.loads(l) for l in lines)
assert "\\u2028" in text, "the stream's line separator is not there"
PY
ok $? "JSON output escapes NEL and the line and paragraph separators"
# A netperf file (nettrace V1-V3, .NET Core 2.x): the serialization header
# with no "Nettrace" magic in front, then a Trace object of version 3. It is
# recognised and refused by name (GC-N016), with or without --format.
printf '\024\000\000\000!FastSerialization.1\004\004\001\003\000\000\000\000\000\000\000\005\000\000\000Trace\006' >"$t/v3.netperf"
"$o" "$t/v3.netperf" >"$t/x" 2>&1; [ $? = 2 ]; ok $? "a netperf file: exit 2"
grep -q '^GC-N016 error: byte 0: a netperf file .*Trace version 3.*not netperf 1-3' "$t/x"; ok $? "a netperf file is detected and refused as netperf (GC-N016)"
! grep -q 'not a format' "$t/x"; ok $? "a netperf file is not 'not a format this oracle reads'"
head -c 31 "$t/v3.netperf" >"$t/to-version.netperf"
"$o" "$t/to-version.netperf" 2>&1 | grep -q '^GC-N016 error: byte 0: a netperf file .*Trace version 3'; ok $? "a netperf file cut after its Trace version still says the version"
head -c 24 "$t/v3.netperf" >"$t/short.netperf"
"$o" --format nettrace "$t/short.netperf" >"$t/x" 2>&1; [ $? = 2 ]; ok $? "--format nettrace, a netperf header alone: exit 2"
grep -q '^GC-N016 error: byte 0: a netperf file .*not netperf 1-3' "$t/x"; ok $? "--format nettrace: a netperf header alone is refused as netperf (GC-N016)"
# --help (gcoracle's and compare's) and the man page's OPTIONS name the same options.
man=${top_srcdir:-.}/docs/gcoracle.1
help_opts=$({ "$o" --help; "$o" compare --help; } | grep -o -- '--[a-z][a-z-]*' | sort -u)
man_opts=$(grep -E '^\.BI? \\-\\-' "$man" | sed 's/\\//g' | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ -n "$help_opts" ] && [ "$help_opts" = "$man_opts" ]
ok $? "--help and docs/gcoracle.1 list the same options ($(echo $help_opts))"
# The command line says what is wrong, and only that.
"$o" "$t/missing" >"$t/out" 2>"$t/err"; [ $? = 2 ] && grep -qx "gcoracle: $t/missing: No such file or directory" "$t/err" && [ ! -s "$t/out" ]
ok $? "a file that cannot be opened: the reason (strerror), exit 2, no summary of zeros"
"$o" --json --cbor x >"$t/out" 2>"$t/err"; [ $? = 2 ] && grep -qx 'gcoracle: --json and --cbor exclude each other: choose one' "$t/err" && ! grep -q usage "$t/err"
ok $? "--json --cbor says that they exclude each other, not the whole usage"
mkdir -p "$t/tree/deep/er/still"; cp "$t/junk" "$t/tree/deep/er/still/x"
"$o" "$t/tree" >"$t/out" 2>"$t/err"; [ $? = 2 ] && grep -q 'no trace this oracle reads' "$t/err" && [ ! -s "$t/out" ]
ok $? "a directory without a trace: exit 2, no summary of zeros"
"$o" --format cbor-model "${top_srcdir:-.}/corpus/cases/y_model_realistic_net8.cbor" >"$t/a" 2>&1 &&
	"$o" --format cbor "${top_srcdir:-.}/corpus/cases/y_model_realistic_net8.cbor" >"$t/b" 2>&1 && cmp -s "$t/a" "$t/b" &&
	"$o" --help | grep -q 'read as FMT (cbor, nettrace, ctf, etl)'
ok $? "--format cbor (gcgen's name for the model stream), and cbor-model as an alias"
if command -v script >/dev/null; then
	: >"$t/empty"
	script -qefc "'$o' --cbor '${top_srcdir:-.}/corpus/cases/y_model_realistic_net8.cbor'" "$t/ts" <"$t/empty" >/dev/null 2>&1
	rc=$?
	[ $rc = 2 ] && grep -q 'not to a terminal' "$t/ts"
	ok $? "--cbor refuses to write binary to a terminal (exit $rc)"
else
	n=$((n + 1)); echo "ok $n # SKIP script(1) missing: no terminal"
fi
# On a terminal a long run shows a progress line on standard error
# (GCORACLE_PROGRESS_AFTER=0: from the start) and erases it before the
# summary; off a terminal nothing of it is written.
if command -v script >/dev/null; then
	: >"$t/empty"
	"${top_builddir:-.}/gen/gcgen" -q --gcs 3000 -f nettrace-v5 -o "$t/prog.nettrace"
	GCORACLE_PROGRESS_AFTER=0 script -qefc "'$o' '$t/prog.nettrace'" "$t/ts" <"$t/empty" >/dev/null 2>&1
	esc=$(printf '\033')
	grep -q "gcoracle: $t/prog.nettrace: [0-9]*% (.* MB of .* MB)" "$t/ts" &&
		grep -q "$esc\[K[0-9]* events (" "$t/ts"
	ok $? "a progress line on a terminal, erased before the summary"
	GCORACLE_PROGRESS_AFTER=0 "$o" "$t/prog.nettrace" >"$t/out" 2>"$t/err"
	[ ! -s "$t/err" ] && ! grep -q "$esc" "$t/out"
	ok $? "no progress line when standard error is not a terminal"
else
	n=$((n + 1)); echo "ok $n # SKIP script(1) missing: no terminal"
	n=$((n + 1)); echo "ok $n # SKIP script(1) missing: no terminal"
fi
# A directory that holds no trace is looked into only so far (512
# directories), not walked whole, and gcoracle says so.
mkdir -p "$t/notrace"
i=0; while [ $i -lt 600 ]; do mkdir "$t/notrace/d$i"; i=$((i + 1)); done
"$o" "$t/notrace" >"$t/out" 2>"$t/err"
rc=$?
[ $rc = 2 ] && grep -q 'no trace this oracle reads in the first 512 directories below it' "$t/err" &&
	! grep -q '^events' "$t/out"
ok $? "a directory of 600 directories and no trace: exit $rc, looked into 512, said so"
rm -rf "$t/notrace"
# The man pages: every option once; no text line troff would take for a request.
for page in gcoracle.1 gcgen.1 gcoracle-run.1; do
	f=${top_srcdir:-.}/docs/$page
	# (gcoracle.1's COMPARE section documents compare's own options.)
	dup=$(sed '/^\.SH COMPARE/q' "$f" | grep -E '^\.(BI?|BR) \\-\\-[a-z]' | sed 's/\\//g' | grep -o -- '^\.[A-Z]* --[a-z-]*' | sort | uniq -d)
	bad=$(grep -nE '^\.' "$f" | grep -vE '^[0-9]+:\.(TH|SH|SS|TP|PP|IP|B|BI|BR|I|IR|RB|RS|RE|br|nf|fi)( |$)')
	[ -z "$dup$bad" ]
	ok $? "docs/$page: every option documented once, every line starting with . a request${dup:+ (twice: $dup)}${bad:+ (not a request: $bad)}"
done
# A process the trace attached to mid-life: its first GC numbered above 1
# and the first suspension being that GC's. A gcgen stream cut at GC 3's
# GCSuspendEEBegin (model stream: header, then the events from there on).
"${top_builddir:-.}/gen/gcgen" -q -f cbor --profile net8 --gcs 6 -o "$t/m.cbor" &&
	"$o" --json "$t/m.cbor" >"$t/m.json" &&
	${PYTHON3:-python3} - "$t" <<'PY'
import json, sys
t = sys.argv[1]
ev = [json.loads(l) for l in open(t + "/m.json") if l.startswith('{"type":"event"')]
d = open(t + "/m.cbor", "rb").read()
cut = next(e for e in ev if e["name"].startswith("GCSuspendEEBegin") and e["fields"]["Count"] == 3)
open(t + "/mid.cbor", "wb").write(d[:ev[0]["offset"]] + d[cut["offset"]:])
PY
"$o" "$t/mid.cbor" >"$t/out" 2>&1 && grep -q '^diagnostics: 0 errors, 0 warnings, 0 notes$' "$t/out" &&
	grep -q ' [1-9][0-9]* GCs, [1-9][0-9]* suspensions' "$t/out"
ok $? "a process attached mid-life (first GC number 3): no diagnostic at all"
echo "1..$n"
exit $fail
