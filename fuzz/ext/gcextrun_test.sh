#!/bin/sh
# gcextrun_test.sh - the external-decoder harness classifies each run the way
# it says: accept, reject, crash (signal or --crash-exit), timeout; limits
# memory; saves findings; writes structure-aware mutants the decoder sees. TAP.
set -u
b=${top_builddir:-.}
x=$b/fuzz/gcextrun
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
"$b/gen/gcgen" -q -f nettrace-v5 -g 1 -o "$tmp/one.nettrace"
mkdir "$tmp/in"
cp "$tmp/one.nettrace" "$tmp/in/a"
cp "$tmp/one.nettrace" "$tmp/in/b"

"$x" -i "$tmp/in" -- true >"$tmp/out" 2>&1
grep -q '^2 accept, 0 reject, 0 crash, 0 timeout$' "$tmp/out"; ok $? "exit 0 is accept, every file of a directory is run"
"$x" -i "$tmp/one.nettrace" -- false >"$tmp/out" 2>&1
grep -q '^0 accept, 1 reject, 0 crash, 0 timeout$' "$tmp/out"; ok $? "a non-zero exit is reject"
"$x" -q -i "$tmp/one.nettrace" -o "$tmp/found" -- sh -c 'kill -SEGV $$' >"$tmp/out" 2>&1
rc=$?
grep -q '^crash .*signal 11' "$tmp/out" && [ $rc -eq 1 ]; ok $? "death by a signal is a crash, and gcextrun then exits 1"
cmp -s "$tmp/found/crash-one.nettrace" "$tmp/one.nettrace"; ok $? "the crashing input is saved in the findings directory"
"$x" -i "$tmp/one.nettrace" -c 70 -- sh -c 'exit 70' >"$tmp/out" 2>&1
grep -q '^0 accept, 0 reject, 1 crash, 0 timeout$' "$tmp/out"; ok $? "a --crash-exit status is a crash"
"$x" -i "$tmp/one.nettrace" -t 0.3 -- sh -c 'sleep 5' sh {} >"$tmp/out" 2>&1
grep -q '^0 accept, 0 reject, 0 crash, 1 timeout$' "$tmp/out"; ok $? "a run past --timeout is killed and is a timeout"
"$x" -i "$tmp/one.nettrace" -m 200 -- "$PYTHON3" -c 'bytearray(1 << 30)' >"$tmp/out" 2>&1
grep -q '^0 accept, 1 reject' "$tmp/out"; ok $? "--memory limits the child's address space (a 1 GiB allocation fails under 200 MiB)"
"$x" -i "$tmp/one.nettrace" -- sh -c 'test "$(head -c 8 "$1")" = Nettrace' sh {} >"$tmp/out" 2>&1
grep -q '^1 accept' "$tmp/out"; ok $? "{} in the command stands for the input path"
"$x" -q -i "$tmp/one.nettrace" -n 20 -s 5 -- sh -c 'test "$(head -c 8 "$1")" = Nettrace' sh {} >"$tmp/out" 2>&1
a=$(sed -n 's/^\([0-9]*\) accept.*/\1/p' "$tmp/out")
[ "${a:-0}" -ge 15 ]; ok $? "-n writes structure-aware nettrace mutants the command reads (${a:-0} of 21 start with the magic)"

# Item 16: nothing a decoder starts outlives its run, setsid or not, with a
# subreaper (the default) and with a PID namespace (GCCONFORM_CONTAIN=pidns).
# Each helper sleeps for a duration no other process uses, so that pgrep
# finds only it.
left() { pgrep -f "^sleep $1\$" >/dev/null 2>&1; }
for mode in subreaper pidns; do
	if [ $mode = pidns ]; then export GCCONFORM_CONTAIN=pidns; fi
	m=$(( $$ % 900 + 100 ))
	"$x" -i "$tmp/one.nettrace" -- sh -c "sleep 301.$m >/dev/null 2>&1 & exit 0" >"$tmp/out" 2>&1
	sleep 0.2
	! left "301.$m" && grep -q '^1 accept' "$tmp/out"
	ok $? "$mode: a helper left by a decoder that exits in time is killed with it"
	"$x" -i "$tmp/one.nettrace" -- sh -c "setsid sleep 302.$m >/dev/null 2>&1 & sleep 0.2; exit 0" >"$tmp/out" 2>&1
	sleep 0.2
	! left "302.$m"
	ok $? "$mode: a helper started with setsid is killed when the decoder exits"
	"$x" -i "$tmp/one.nettrace" -t 0.5 -- sh -c "setsid sleep 303.$m >/dev/null 2>&1 & sleep 30" >"$tmp/out" 2>&1
	sleep 0.2
	! left "303.$m" && grep -q '^0 accept, 0 reject, 0 crash, 1 timeout$' "$tmp/out"
	ok $? "$mode: a setsid helper of a decoder that times out is killed with it"
	"$x" -q -i "$tmp/one.nettrace" -o "$tmp/found2" -- sh -c 'kill -SEGV $$' >"$tmp/out" 2>&1
	grep -q '^crash .*signal 11' "$tmp/out"
	ok $? "$mode: a decoder that kills itself with SIGSEGV is still a crash"
	for p in $(pgrep -f "^sleep 30[123]\.$m\$"); do kill "$p"; done
	unset GCCONFORM_CONTAIN
done

# Item 17: a command that cannot be run is an error (2), not a reject.
"$x" -i "$tmp/one.nettrace" -- "$tmp/no-such-decoder" >"$tmp/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q 'cannot run' "$tmp/out"
ok $? "a command that cannot be run exits 2 and says so (exit $rc)"

# Item 18: malformed limits are refused; big inputs still give real mutants.
for bad in "-t nan" "-t inf" "-t -1" "-t 0" "-t 1x" "-m abc" "-m -5" "-m 12k" "-n abc" "-n -1" "-s x"; do
	"$x" $bad -i "$tmp/one.nettrace" -- true >/dev/null 2>&1; rc=$?
	[ $rc = 2 ]
	ok $? "gcextrun $bad is bad usage (exit $rc)"
done
"$b/gen/gcgen" -q -f nettrace-v5 -g 600 -o "$tmp/big.nettrace"
sz=$(wc -c < "$tmp/big.nettrace")
"$x" -q -i "$tmp/big.nettrace" -n 4 -- sh -c 'test "$(wc -c < "$1")" -gt 4096' sh {} >"$tmp/out" 2>&1
grep -q '^5 accept' "$tmp/out"
ok $? "mutants of a $sz-byte input are not empty ($(tail -1 "$tmp/out"))"

echo "1..$n"
exit $fail
