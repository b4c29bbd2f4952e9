#!/bin/sh
# Failures that explain themselves (docs/gcoracle-run.1, docs/using-the-corpus.md,
# docs/accepted-differences.md): gcoracle compare and gcoracle run on a decoder's
# output edited the way a wrong or partial decoder's would be: accepted-differences
# entries without traps, the fault of a failing case named, differences grouped,
# an index shift reported once, a rejection outside the declared checks explained,
# a skipped case never started.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
oracle=$top_builddir/oracle/gcoracle
corpus=$top_srcdir/corpus
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
# ok STATUS DESCRIPTION [FILE]: a TAP line; on failure, FILE's head as comments.
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
		echo "not ok $n - $2"; fail=1
		[ -n "${3:-}" ] && head -20 "$3" | sed 's/^/# /'
	fi
	return 0
}
Y=y_nettrace_v5_realistic_net8
"$oracle" --json "$corpus/cases/$Y.nettrace" 2>/dev/null | grep -v '"type":"diag"' >"$work/y"
runc() { "$oracle" run --corpus "$corpus" "$@" >"$work/out" 2>"$work/err"; }

# --- accepted differences without traps ----------------------------------------
# "fields":{} is no fields: a missing-event entry accepts it, as it accepts an
# event printed without "fields".
sed '/"name":"GCHeapStats_V2"/s/"fields":{[^}]*}/"fields":{}/' "$work/y" >"$work/empty"
printf 'gcconform-accepted-differences 1\nmissing-event GCHeapStats_V2 - we print no fields for it\n' >"$work/acc1"
"$oracle" compare --accept "$work/acc1" "$corpus/expect/$Y.cbor" "$work/empty" >"$work/got" 2>&1
ok $? '"fields":{} matches a missing-event entry' "$work/got"
"$oracle" compare "$corpus/expect/$Y.cbor" "$work/empty" >"$work/got" 2>&1
[ $? = 1 ] && [ "$(grep -c 'GC-K005' "$work/got")" = "$(grep -c '"name":"GCHeapStats_V2"' "$work/empty")" ]
ok $? '"fields":{} without the entry: one GC-K005 per event, not one per field' "$work/got"

# An entry that accepts nothing says what did not happen, the summary names it
# by file:line, and the counts agree with it.
printf 'gcconform-accepted-differences 1\nvalue GCStart_V2 Depth we get Depth wrong\n' >"$work/acc2"
runc --case $Y --accept "$work/acc2" --tap "$work/tap" -- "$oracle" --json {}
rc=$?
grep -q "^# GC-K018 $work/acc2:2: value GCStart_V2 Depth accepted nothing: no field matching Depth of an event matching GCStart_V2 was printed with a value other than the expected one in the 1 cases of this run\$" "$work/tap"
ok $? "an unused entry's TAP message says what did not happen" "$work/tap"
[ $rc = 1 ] && grep -q "^unused: $work/acc2:2: value GCStart_V2 Depth: no field matching Depth" "$work/out" &&
	! grep -q '^failed:' "$work/out" &&
	grep -q '^1 cases: 1 passed, 0 failed, 0 skipped; the run fails: 1 accepted-differences entry accepted nothing' "$work/out"
ok $? "the summary names the unused entry by file:line, and no phantom failed case" "$work/out"

# --- checks, and the runner's own error line -------------------------------------
# A decoder that rightly rejects a stream fault it does not declare: told how to
# declare the reach.
NS=n_nettrace_v5_stream_bgc_inside_gc
cat >"$work/partial.sh" <<X
#!/bin/sh
echo '{"type":"decoder","name":"partial","checks":["container","payload"],"codes":false}'
"$oracle" --json "\$1" | grep -v '"type":"diag"'
case "\$1" in *_stream_*) echo '{"type": "error", "message": "a GC inside a GC"}'; exit 1 ;; esac
X
chmod +x "$work/partial.sh"
runc --case $NS --tap "$work/tap" -- "$work/partial.sh" {}
[ $? = 1 ] && grep -q 'GC-K008 error: error reported, which the case does not allow: "a GC inside a GC" (the case.s fault, GC-S024, is in a reach the decoder does not declare; if it checks that, declare it: "checks":\["container","payload","stream"\])' "$work/tap"
ok $? "a rejection outside the declared checks says which reach to declare" "$work/tap"
# Its error line (JSON with blanks after the colons, as Python's json.dumps
# writes) is its own: the runner adds no "exited with status" beside it.
! grep -q 'exited with status' "$work/tap"
ok $? "no synthetic error line beside the decoder's own" "$work/tap"
runc --case $NS --tap "$work/tap" -- /bin/false {}
grep -q 'error reported, which the case does not allow: "the decoder exited with status 1"' "$work/tap"
ok $? "a decoder that printed no error and exited 1: the runner's error line stands for it" "$work/tap"

# --- a failing case names its fault, and what the decoder did there ---------------
# A decoder that never rejects anything: gcoracle's events without its diagnostics.
cat >"$work/lenient.sh" <<X
#!/bin/sh
"$oracle" --json "\$1" | grep -v '"type":"diag"'
exit 0
X
chmod +x "$work/lenient.sh"
NC=n_nettrace_v5_container_undefined_metadata
runc --case $NS --case $NC -- "$work/lenient.sh" {}
# What index.json says of each case, as the explanation must say it.
$PYTHON3 - "$corpus/index.json" $NS $NC >"$work/want" <<'PY'
import json, sys
cases = {c["name"]: c for c in json.load(open(sys.argv[1]))["cases"]}
for name in sys.argv[2:]:
    c = cases[name]
    w = next(d for d in c["diagnostics"] if d["must"])
    at = " at event %d" % w["event"] if "event" in w else " at byte %d" % w["offset"]
    print("  the case: n_, must be rejected: fault %s (reach %s): %s; must raise %s (%s)%s"
          % (",".join(c["faults"]), ",".join(c["reaches"]), c["description"], w["code"],
             w["severity"], at))
PY
grep -qxF "$(sed -n 1p "$work/want")" "$work/out" && grep -qF "$(sed -n 2p "$work/want")" "$work/out"
ok $? "each failing case names its class, fault, reach, description, code and place" "$work/out"
grep -q "^  the decoder accepted it: [0-9]* events printed, no error; event 62 in the file: GCStart_V2 {.*\"Type\":1.*}; the decoder printed it as GCStart_V2 {.*\"Type\":1.*}\$" "$work/out"
ok $? "a missed rejection says what the file held at the fault and what the decoder printed there" "$work/out"
grep -q "^  the decoder accepted it: [0-9]* events printed, no error; the last event it printed: [0-9]* [A-Za-z0-9_]* at byte [0-9]*\$" "$work/out"
ok $? "a missed rejection of a container fault says the decoder accepted it" "$work/out"
"$oracle" --json "$corpus/cases/$NS.nettrace" 2>/dev/null | grep -v '"type":"diag"' |
	sed '/"index":62,/s/,"fields":{[^}]*}//' >"$work/nofields"
"$oracle" compare "$corpus/expect/$NS.cbor" "$work/nofields" >"$work/got" 2>&1
[ $? = 1 ] && grep -q "the decoder printed it as GCStart_V2 (no fields)\$" "$work/got"
ok $? "an event printed without fields at the fault is said so (exit 1, no crash)" "$work/got"

# --- an index shift is one difference ------------------------------------------
# A decoder that numbers its own events: one event left out (or one too many)
# puts every later one a place off. Realistic case, event 40 of 123.
$PYTHON3 - "$work/y" "$work" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
ev = [l for l in lines if '"type":"event"' in l]
rest = [l for l in lines if l and '"type":"event"' not in l]
def write(name, evs, index=True):
    out = [re.sub(r'"index":\d+,', '"index":%d,' % i if index else "", l) for i, l in enumerate(evs)]
    open(sys.argv[2] + "/" + name, "w").write("\n".join(out + rest) + "\n")
write("drop", ev[:40] + ev[41:])
write("drop-noindex", ev[:40] + ev[41:], index=False)
write("drop3", ev[:40] + ev[43:])
write("extra", ev[:40] + [ev[10]] + ev[40:])
PY
shift_check() {
	"$oracle" compare --max 0 "$corpus/expect/$Y.cbor" "$work/$1" >"$work/got" 2>&1
	rc=$?
	[ $rc = 1 ] && [ "$(grep -c ' error: ' "$work/got")" = 1 ] && grep -q "$2" "$work/got"
	ok $? "$3" "$work/got"
}
shift_check drop 'GC-K001 error: event 40 .*: missing event at index 40 (shifted by one)' \
	"an event left out and the rest renumbered: exactly one 'missing event at index 40 (shifted by one)'"
shift_check drop-noindex 'GC-K001 error: event 40 .*: missing event at index 40 (shifted by one)' \
	"the same without indices: one difference"
shift_check drop3 'GC-K001 error: event 40 .*: missing events at index 40 to 42 (shifted by 3)' \
	"three events left out: one difference naming them"
shift_check extra 'GC-K002 error: extra event at index 40 (shifted by one)' \
	"an extra event and the rest renumbered: exactly one 'extra event'"

# --- differences grouped by (code, event-version, field) -------------------------
sed 's/"ClrInstanceID":8/"ClrInstanceID":9/' "$work/y" >"$work/clr"
"$oracle" compare --max 5 "$corpus/expect/$Y.cbor" "$work/clr" >"$work/got" 2>&1
total=$(sed -n 's/.*; \([0-9]*\) differences$/\1/p' "$work/got")
sum=$(sed -n "s/^$Y: *\([0-9]*\) GC-K004 [A-Za-z0-9_]* ClrInstanceID, e\.g\. event [0-9]*: field ClrInstanceID: expected 8, got 9.*/\1/p" "$work/got" | awk '{ s += $1 } END { print s + 0 }')
[ "$(grep -c ': GC-K004 error: ' "$work/got")" = 5 ] &&
	grep -q "^$Y: \.\.\. and $((total - 5)) more differences (--max 0 shows all); all $total by kind:\$" "$work/got" &&
	[ "$sum" = "$total" ]
ok $? "the first --max 5 in full, then all $total by (code, event-version, field) with counts summing to them ($sum) and an example each" "$work/got"
cat >"$work/clr.sh" <<X
#!/bin/sh
"$oracle" --json "\$1" | sed 's/"ClrInstanceID":8/"ClrInstanceID":9/'
X
chmod +x "$work/clr.sh"
runc --case $Y -- "$work/clr.sh" {}
[ "$(grep -c '^  *[0-9]* GC-K004 [A-Za-z0-9_]* ClrInstanceID, e\.g\. event' "$work/out")" = 5 ] &&
	grep -q '^ *\.\.\. and [0-9]* more kinds$' "$work/out"
ok $? "gcoracle run prints the five most frequent kinds under the FAIL line" "$work/out"
# The kinds' examples hold what the decoder printed: escaped on the terminal
# (an ESC in the decoder's string reaches it as \u001b, never raw).
cat >"$work/esc.sh" <<X
#!/bin/sh
"$oracle" --json "\$1" | sed 's/"ClrInstanceID":8/"ClrInstanceID":"\\\\u001b[2J\\\\u0007"/'
X
chmod +x "$work/esc.sh"
runc --case $Y -- "$work/esc.sh" {}
esc=$(printf '\033')
grep -q 'ClrInstanceID, e\.g\. event.*got "\\u001b\[2J\\u0007"' "$work/out" && ! grep -q "$esc" "$work/out"
ok $? "the explanation under a FAIL line escapes the decoder's control bytes" "$work/out"

# --- speed: a case the declaration skips never starts the decoder ---------------
cat >"$work/ctfonly.sh" <<X
#!/bin/sh
echo started >>"$work/starts"
echo '{"type":"decoder","name":"ctfonly","formats":["ctf"],"events":[],"codes":false}'
X
chmod +x "$work/ctfonly.sh"
: >"$work/starts"
runc --prefix y_ --tap "$work/tap" -- "$work/ctfonly.sh" {}
nctf=$(ls "$corpus/expect" | grep -c '^y_ctf_')
nother=$(($(ls "$corpus/expect" | grep -c '^y_') - nctf))
starts=$(wc -l <"$work/starts")
[ "$starts" = "$nctf" ] && [ "$(grep -c ' # SKIP the decoder does not read this format' "$work/tap")" = "$nother" ]
ok $? "a CTF-only decoder is started on the $nctf y_ CTF cases only ($starts starts), the $nother others skipped" "$work/out"

echo "1..$n"
exit $fail
