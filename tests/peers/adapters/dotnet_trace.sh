#!/bin/sh
# dotnet_trace.sh DOTNET-TRACE FILE.nettrace - `dotnet-trace convert` as a real
# consumer in the peer table: converts FILE to speedscope (through TraceEvent's
# TraceLog, as users do) in a temporary directory. dotnet-trace prints an
# exception and still exits 0 when a file cannot be read, so the outcome is
# read from what it prints: exit 0 converted; 1 rejected (an exception a
# reader may throw on bad input); 70 an exception that means a defect in the
# reader (null dereference, index or argument out of range, bad cast,
# overflow, access violation); 71 OutOfMemoryException. It exposes no
# decoded values: accept/reject only.
set -u
tool=$1
file=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# A copy: dotnet-trace writes its .etlx beside the input, and leaves it there when
# the conversion fails; the corpus is not ours to write into.
cp "$file" "$tmp/in.nettrace" || exit 2
"$tool" convert --format speedscope -o "$tmp/out" "$tmp/in.nettrace" >"$tmp/log" 2>&1
rc=$?
cat "$tmp/log" >&2
if [ "$rc" -gt 128 ]; then
	# Killed by a signal (a stack overflow aborts the runtime): die of the same signal,
	# so that the runner sees a crash, not an exit status.
	rm -rf "$tmp"
	trap - EXIT
	kill -s "$(kill -l $((rc - 128)))" $$
fi
[ "$rc" -eq 0 ] || exit "$rc"
if grep -q 'OutOfMemoryException' "$tmp/log"; then exit 71; fi
if grep -Eq '(NullReference|IndexOutOfRange|ArgumentOutOfRange|InvalidCast|Overflow|DivideByZero|AccessViolation)Exception' "$tmp/log"; then exit 70; fi
if grep -q 'Exception' "$tmp/log"; then exit 1; fi
ls "$tmp"/out* >/dev/null 2>&1 || exit 1
exit 0
