#!/bin/sh
# Ground truth by construction: for every fault class gcgen can inject, over
# many seeds, gcoracle reports exactly the diagnostics gcgen recorded (every
# required one at its event, no unexpected error). `make check` runs
# CROSS_SEEDS (default 100) seeds per class; `make check-faults` thousands.
# CROSS_JOBS classes run at once (default 1).
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
seeds=${CROSS_SEEDS:-100}
jobs=${CROSS_JOBS:-1}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT

# one_class N CLASS: its TAP line goes to $work/N.tap
one_class() {
	n=$1 class=$2 d=$work/$1
	mkdir -p "$d"
	bad=""
	s=1
	while [ $s -le "$seeds" ]; do
		if ! "$gcgen" --mutate "$class" --seed $s --gcs 12 -o "$d/m" --expect "$d/e" 2>"$d/err"; then
			bad="gcgen failed at seed $s: $(head -1 "$d/err")"; break
		fi
		if ! grep -v '"may"' "$d/e" | grep -q '"event"'; then
			bad="seed $s: gcgen recorded no required diagnostic"; break
		fi
		if ! "$oracle" --expect "$d/e" "$d/m" >"$d/out" 2>&1; then
			bad="seed $s: $(head -3 "$d/out" | tr '\n' ' ')"; break
		fi
		s=$((s + 1))
	done
	if [ -z "$bad" ]; then
		echo "ok $n - fault $class: reported as recorded over $seeds seeds"
	else
		echo "not ok $n - fault $class: $bad"
	fi >"$work/$n.tap"
}

n=0 running=0
for class in $("$gcgen" --list-mutations | awk '{print $1}'); do
	n=$((n + 1))
	one_class $n "$class" &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
fail=0
i=1
while [ $i -le $n ]; do
	cat "$work/$i.tap"
	grep -q '^not ok' "$work/$i.tap" && fail=1
	i=$((i + 1))
done
[ $n -ge 45 ] || { n=$((n + 1)); echo "not ok $n - at least 45 fault classes (found $((n - 1)))"; fail=1; }
echo "1..$n"
exit $fail
