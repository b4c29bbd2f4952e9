#!/bin/sh
# Ground truth by construction: for every fault class gcgen can inject, over
# many seeds, gcoracle reports exactly the diagnostics gcgen recorded (every
# required one at its event, no unexpected error).
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
seeds=${CROSS_SEEDS:-100}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
for class in $("$gcgen" --list-mutations | awk '{print $1}'); do
	n=$((n + 1))
	bad=""
	s=1
	while [ $s -le "$seeds" ]; do
		if ! "$gcgen" --mutate "$class" --seed $s --gcs 12 -o "$work/m" --expect "$work/e" 2>"$work/err"; then
			bad="gcgen failed at seed $s: $(head -1 "$work/err")"; break
		fi
		if [ ! -s "$work/e" ]; then
			bad="seed $s: gcgen recorded no expected diagnostic"; break
		fi
		if ! "$oracle" --expect "$work/e" "$work/m" >"$work/out" 2>&1; then
			bad="seed $s: $(head -3 "$work/out" | tr '\n' ' ')"; break
		fi
		s=$((s + 1))
	done
	if [ -z "$bad" ]; then
		echo "ok $n - fault $class: reported as recorded over $seeds seeds"
	else
		echo "not ok $n - fault $class: $bad"; fail=1
	fi
done
[ $n -ge 30 ] || { n=$((n + 1)); echo "not ok $n - at least 30 fault classes (found $((n - 1)))"; fail=1; }
echo "1..$n"
exit $fail
