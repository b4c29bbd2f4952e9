#!/bin/sh
# Ground truth by construction: for every fault class gcgen can inject, over
# many seeds, gcoracle reports exactly the diagnostics gcgen recorded (every
# required one at its event, no unexpected error). `make check` runs
# CROSS_SEEDS (default 20) seeds per class and container (CROSS_FORMATS,
# default every container gcgen writes); `make check-faults` thousands.
# Each seed is four processes, and process start-up is most of their cost:
# make check stays within its time by seeds, the long run is check-faults.
# Stream and payload faults run in every container, because a container
# reader can hide them (nettrace's time sort once hid timestamp-backwards);
# container faults are tested in their own suites (tests/*/container_faults*).
# Other containers than cbor get CROSS_CONTAINER_SEEDS seeds (default 2):
# what they can hide, they hide for every seed. CROSS_JOBS classes run at
# once (default 1).
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
seeds=${CROSS_SEEDS:-20}
formats=${CROSS_FORMATS:-$("$gcgen" --list-formats)}
container_seeds=${CROSS_CONTAINER_SEEDS:-2}
jobs=${CROSS_JOBS:-1}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT

# one_class N FORMAT CLASS: its TAP line goes to $work/N.tap
one_class() {
	n=$1 format=$2 class=$3 d=$work/$1 last=$seeds
	[ "$format" = cbor ] || last=$container_seeds
	mkdir -p "$d"
	bad=""
	s=1
	while [ $s -le "$last" ]; do
		if ! "$gcgen" -q --format "$format" --mutate "$class" --seed $s --gcs 12 -o "$d/m" --expect "$d/e" 2>"$d/err"; then
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
		echo "ok $n - $format fault $class: reported as recorded over $last seeds"
	else
		echo "not ok $n - $format fault $class: $bad"
	fi >"$work/$n.tap"
}

n=0 running=0 ncbor=0
for format in $formats; do
	for class in $("$gcgen" --list-mutations="$format" | awk '$2 != "container" {print $1}'); do
		n=$((n + 1))
		[ "$format" = cbor ] && ncbor=$((ncbor + 1))
		one_class $n "$format" "$class" &
		running=$((running + 1))
		if [ $running -ge "$jobs" ]; then
			wait
			running=0
		fi
	done
done
wait
fail=0
i=1
while [ $i -le $n ]; do
	cat "$work/$i.tap"
	grep -q '^not ok' "$work/$i.tap" && fail=1
	i=$((i + 1))
done
case " $formats " in *" cbor "*)
	n=$((n + 1))
	if [ $ncbor -ge 45 ]; then
		echo "ok $n - at least 45 stream and payload fault classes ($ncbor)"
	else
		echo "not ok $n - at least 45 stream and payload fault classes (found $ncbor)"; fail=1
	fi ;;
esac
echo "1..$n"
exit $fail
