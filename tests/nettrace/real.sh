#!/bin/sh
# Real .NET captures (tests/real/ writes them; REAL_NETTRACE_DIR overrides):
# each must read with zero container diagnostics and hold GCStart events.
dir=${REAL_NETTRACE_DIR:-/tmp/real-capture}
dump=${top_builddir:-.}/tests/nettrace/ntdump
set -- "$dir"/*.nettrace
if [ ! -f "$1" ]; then
	echo "1..0 # SKIP no real captures in $dir"
	exit 0
fi
n=0
for f in "$@"; do
	n=$((n + 1))
	out=$("$dump" "$f" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && echo "$out" | grep -q ' diagnostics=0 ' && echo "$out" | grep -q 'gcstart=[1-9]'; then
		echo "ok $n - $(basename "$f"): $out"
	else
		echo "not ok $n - $(basename "$f"): $out"
	fi
done
echo "1..$n"
