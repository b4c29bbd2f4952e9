#!/bin/sh
# truncate-at-field and extend-payload take the event-version and the field
# boundary (or the number of bytes added) from the seed: over seeds, every
# profile and workstation and server GC, they must reach many event-versions
# and boundaries, and gcoracle must report every run as recorded. What was
# reached is read from gcoracle's own diagnostics (the event-version and the
# field it names), not from gcgen.
#   BREADTH_SEEDS  seeds per profile and GC kind (default 12)
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
seeds=${BREADTH_SEEDS:-12}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0

# run CLASS: every profile, heaps 0 and 4, $seeds seeds each (each its
# own, so the seed-chosen ranks and boundaries differ); the payload
# diagnostics gcoracle raised go to $work/CLASS.diags.
run() {
	class=$1 bad=""
	: >"$work/$class.diags"
	runs=0 seed=0
	for p in $("$gcgen" --list-profiles | awk '{print $1}'); do
		for h in 0 4; do
			s=1
			while [ $s -le "$seeds" ]; do
				seed=$((seed + 1))
				if ! "$gcgen" -q -p "$p" --heaps $h --mutate "$class" --seed $seed --gcs 12 \
					-o "$work/m" --expect "$work/e" 2>"$work/err"; then
					bad="$p heaps $h seed $seed: gcgen: $(head -1 "$work/err")"; break 3
				fi
				if ! "$oracle" --expect "$work/e" "$work/m" >"$work/out" 2>&1; then
					bad="$p heaps $h seed $seed: $(head -2 "$work/out" | tr '\n' ' ')"; break 3
				fi
				"$oracle" --json "$work/m" | grep '"type":"diag"' |
					grep -E '"code":"GC-P00[123567]"' >>"$work/$class.diags"
				runs=$((runs + 1))
				s=$((s + 1))
			done
		done
	done
}

run truncate-at-field
n=$((n + 1))
if [ -z "$bad" ]; then
	echo "ok $n - truncate-at-field: $runs runs reported as recorded"
else
	echo "not ok $n - truncate-at-field: $bad"; fail=1
fi
sed -E "s/.*\"name\":\"([^\"]*)\".*'([^']*)'.*/\1 \2/" "$work/truncate-at-field.diags" |
	sort -u >"$work/cuts"
kinds=$(awk '{print $1}' "$work/cuts" | sort -u | wc -l)
cuts=$(wc -l <"$work/cuts")
codes=$(grep -o '"code":"GC-P00[1367]"' "$work/truncate-at-field.diags" | sort -u | wc -l)
n=$((n + 1))
if [ "$kinds" -ge 25 ] && [ "$cuts" -ge 70 ] && [ "$codes" -ge 2 ]; then
	echo "ok $n - truncate-at-field reached $kinds event-versions, $cuts field boundaries, $codes codes"
else
	echo "not ok $n - truncate-at-field reached only $kinds event-versions (want 25), $cuts field boundaries (want 70), $codes codes (want 2)"
	fail=1
fi

run extend-payload
n=$((n + 1))
if [ -z "$bad" ]; then
	echo "ok $n - extend-payload: $runs runs reported as recorded"
else
	echo "not ok $n - extend-payload: $bad"; fail=1
fi
grep '"GC-P002"' "$work/extend-payload.diags" |
	sed -E 's/.*"name":"([^"]*)".*payload has ([0-9]+) bytes.*/\1 \2/' | sort -u >"$work/grows"
kinds=$(awk '{print $1}' "$work/grows" | sort -u | wc -l)
sizes=$(awk '{print $2}' "$work/grows" | sort -u | wc -l)
n=$((n + 1))
if [ "$kinds" -ge 25 ] && [ "$sizes" -eq 8 ]; then
	echo "ok $n - extend-payload reached $kinds event-versions, with 1 to 8 bytes added"
else
	echo "not ok $n - extend-payload reached only $kinds event-versions (want 25), $sizes sizes (want 8)"
	fail=1
fi
echo "1..$n"
exit $fail
