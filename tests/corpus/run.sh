#!/bin/sh
# gcoracle run, the corpus runner (docs/gcoracle-run.1): gcoracle itself as the
# decoder passes; a decoder that crashes, hangs, fails on a valid case or prints
# nothing fails with the code that says so; an accepted-differences entry that
# accepts nothing fails the run; TAP, JUnit XML and the summary say the same.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
oracle=$top_builddir/oracle/gcoracle
corpus=$top_srcdir/corpus
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
run() {
	"$oracle" run --corpus "$corpus" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ -f "$work/tap" ] && grep -o 'GC-K0[0-9]*' "$work/tap" >>"$work/raised"
	return $rc
}
sel="--case *_v5_realistic_net8 --case n_nettrace_v5_container_undefined_metadata --case i_nettrace_v5_payload_extend_payload"

# shellcheck disable=SC2086
run $sel --tap "$work/tap" --junit "$work/xml" -- "$oracle" --json {}
ok $? "gcoracle as the decoder passes a selection by glob (exit 0)"
grep -q '^3 cases: 3 passed, 0 failed, 0 skipped$' "$work/out"
ok $? "the summary counts the three cases selected ($(tail -1 "$work/out"))"
grep -q '^nettrace   n_ *1 *0 *0$' "$work/out"
ok $? "the summary counts per container and prefix"
[ "$(grep -c '^ok [0-9]* - ' "$work/tap")" = 3 ] && tail -1 "$work/tap" | grep -qx '1\.\.3'
ok $? "TAP: one test per case and the plan"
[ "$(grep -c '<testcase ' "$work/xml")" = 3 ] && grep -q 'tests="3" failures="0" skipped="0"' "$work/xml" &&
	$PYTHON3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$work/xml"
ok $? "JUnit XML: well-formed, one testcase per case, the totals"

run --prefix n_ --container etl --quiet -- "$oracle" --json {}
ok $? "a selection by prefix and container passes"
got=$(sed -n 's/^etl  *n_  *\([0-9]*\) .*/\1/p' "$work/out")
want=$(ls "$corpus/expect" | grep -c '^n_etl_')
[ "$got" = "$want" ] && ! grep -q '^nettrace' "$work/out"
ok $? "--prefix n_ --container etl runs the $want n_ .etl cases and nothing else ($got)"

cat >"$work/crash.sh" <<'X'
#!/bin/sh
kill -SEGV $$
X
cat >"$work/slow.sh" <<'X'
#!/bin/sh
exec sleep 20
X
cat >"$work/fails.sh" <<X
#!/bin/sh
"$oracle" --json "\$1"
exit 3
X
cat >"$work/verdict.sh" <<'X'
#!/bin/sh
# Accept or reject only: no events declared, the exit status is the verdict.
echo '{"type":"decoder","name":"verdict","events":[],"codes":false}'
case "$1" in */n_*) exit 1 ;; esac
exit 0
X
chmod +x "$work/crash.sh" "$work/slow.sh" "$work/fails.sh" "$work/verdict.sh"
run --case y_nettrace_v5_realistic_net8 --tap "$work/tap" -- "$work/crash.sh" {}
[ $? = 1 ] && grep -q '^# GC-K019 the decoder crashed: signal 11' "$work/tap"
ok $? "a decoder killed by a signal fails (GC-K019, exit 1)"
t0=$(date +%s)
run --case y_nettrace_v5_realistic_net8 --timeout 0.5 --tap "$work/tap" -- "$work/slow.sh" {}
rc=$?
[ $rc = 1 ] && grep -q '^# GC-K020 the decoder timed out' "$work/tap" && [ $(($(date +%s) - t0)) -lt 10 ]
ok $? "a decoder past --timeout is killed and fails (GC-K020)"
run --case y_nettrace_v5_realistic_net8 --tap "$work/tap" -- "$work/fails.sh" {}
[ $? = 1 ] && grep -q '^# GC-K021 the decoder failed on a valid case: exit 3' "$work/tap"
ok $? "a non-zero exit on a y_ case fails even when the output is right (GC-K021)"
run --case n_nettrace_v5_container_undefined_metadata --case y_nettrace_v5_realistic_net8 \
	-- "$work/verdict.sh" {}
ok $? "accept/reject only (\"events\":[]): the exit status rejects the n_ case, accepts the y_"
run --case n_nettrace_v5_container_undefined_metadata --tap "$work/tap" -- /bin/true {}
[ $? = 1 ] && grep -q 'GC-K007' "$work/tap"
ok $? "a decoder that prints nothing and accepts an n_ case fails"

printf 'gcconform-accepted-differences 1\nvalue GCStart_V2 Depth not seen here\n' >"$work/acc"
run --case y_nettrace_v5_realistic_net8 --accept "$work/acc" --tap "$work/tap" -- "$oracle" --json {}
[ $? = 1 ] && grep -q '^not ok 2 - every accepted difference occurred' "$work/tap" &&
	grep -q "^# GC-K018 $work/acc:2: value GCStart_V2 Depth accepted nothing" "$work/tap"
ok $? "an accepted difference that never occurs fails the run (GC-K018)"
run --case y_nettrace_v5_realistic_net8 --accept "$work/acc" --allow-unused -- "$oracle" --json {}
ok $? "--allow-unused lets it pass"

# Nothing a decoder starts outlives its case, not even a helper in a session
# of its own (oracle/contain.c); the marker names this run's helpers only.
mark=$work/gcrun-helper
cp "$(command -v sleep)" "$mark"
cat >"$work/leaves.sh" <<X
#!/bin/sh
setsid "$mark" 300 </dev/null >/dev/null 2>&1 &
"$oracle" --json "\$1"
X
chmod +x "$work/leaves.sh"
run --case y_nettrace_v5_realistic_net8 -- "$work/leaves.sh" {}
rc=$?
sleep 0.2
left=$(pgrep -f "^$mark" | wc -l)
pkill -f "^$mark" 2>/dev/null
[ $rc = 0 ] && [ "$left" = 0 ]
ok $? "a decoder's setsid helper dies with its case (exit $rc, $left left)"
run --case y_nettrace_v5_realistic_net8 -- "$work/no-such-decoder" {}
[ $? = 2 ] && grep -q 'cannot run .*no-such-decoder: No such file or directory' "$work/err"
ok $? "a decoder that cannot be run: exit 2 with the reason, no verdict"

# The memory limit is on resident memory: a decoder that touches 400 MB is
# killed at --memory 100 and fails as a crash (K019), while an address-space
# reservation as large as a sanitizer's shadow is no reason to stop it.
cat >"$work/hog.sh" <<X
#!/bin/sh
exec "$PYTHON3" -c 'import mmap, sys, time
m = mmap.mmap(-1, 1 << 33, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0))
if sys.argv[1] == "touch":
    b = bytearray(400 << 20)
    time.sleep(5)
import subprocess; subprocess.run(["$oracle", "--json", sys.argv[2]])' "\$@"
X
chmod +x "$work/hog.sh"
run --case y_nettrace_v5_realistic_net8 --memory 100 --tap "$work/tap" -- "$work/hog.sh" touch {}
[ $? = 1 ] && grep -q '^# GC-K019 the decoder crashed: killed holding over 100 MB resident' "$work/tap"
ok $? "a decoder past --memory (resident) is killed and fails (GC-K019)"
run --case y_nettrace_v5_realistic_net8 --memory 100 -- "$work/hog.sh" reserve {}
ok $? "an 8 GiB address-space reservation alone is within --memory 100"

run -- ; [ $? = 2 ]; ok $? "no decoder command: exit 2"
run --container nettrace7 -- "$oracle" --json {}; [ $? = 2 ] && grep -q 'unknown container "nettrace7"' "$work/err"
ok $? "an unknown container: exit 2, saying which"
run --case 'nothing_*' -- "$oracle" --json {}; [ $? = 2 ] && grep -q 'no case' "$work/err"
ok $? "a selection of no case: exit 2"
"$oracle" run --corpus "$work/none" -- "$oracle" --json {} >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q 'No such file or directory' "$work/err"
ok $? "a corpus that is not there: exit 2 with the reason"

# Every run-* code of the catalogue was raised above (compare_codes.sh checks
# the compare-* ones).
missing=""
for k in $(awk '/^code = /{c=$3} /^name = "run-/{print c}' "$top_srcdir/docs/diagnostics/compare.toml" | tr -d '"'); do
	grep -qx "$k" "$work/raised" || missing="$missing $k"
done
[ -z "$missing" ]; ok $? "every run-* code of the catalogue was raised${missing:+ (never:$missing)}"
echo "1..$n"
exit $fail
