#!/bin/sh
# gcgen --format etl and gcoracle through their CLIs: every runtime profile
# in both pointer sizes is clean; gcoracle decodes the same values from the
# .etl as from the model stream of the same seed (realistic, server GC with
# stacks, exhaustive); a pipe gets the same bytes as a file and gcoracle
# reads .etl from a pipe. TAP.
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
seeds=${ETL_SEEDS:-3}
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

# gcoracle --json without byte offsets (they differ between containers).
values() { "$oracle" --json "$1" | sed 's/"offset":[0-9]*,//; s/"bytes":[0-9]*,//'; }

profiles=$("$gcgen" --list-profiles | awk '{print $1}')
for profile in $profiles; do
	for ps in 4 8; do
		bad=""
		s=1
		while [ $s -le "$seeds" ]; do
			"$gcgen" -q -f etl --profile "$profile" --pointer-size $ps --seed $s --gcs 25 -o "$t/a.etl" ||
				{ bad="gcgen failed"; break; }
			"$gcgen" -q -f cbor --profile "$profile" --pointer-size $ps --seed $s --gcs 25 -o "$t/a.cbor" ||
				{ bad="gcgen failed"; break; }
			"$oracle" --quiet "$t/a.etl" > "$t/out" 2>&1 || { bad="seed $s: $(grep -m2 GC- "$t/out" | tr '\n' ' ')"; break; }
			values "$t/a.etl" > "$t/v1"; values "$t/a.cbor" > "$t/v2"
			cmp -s "$t/v1" "$t/v2" || { bad="seed $s: decoded values differ from the model stream's"; break; }
			s=$((s + 1))
		done
		[ -z "$bad" ]; ok $? "$profile pointer size $ps: $seeds seeds clean, values as in the model stream${bad:+ ($bad)}"
	done
done

for ps in 4 8; do
	"$gcgen" -q -f etl --heaps 4 --stacks --pointer-size $ps --seed 5 --gcs 40 -o "$t/s.etl" &&
		"$gcgen" -q -f cbor --heaps 4 --stacks --pointer-size $ps --seed 5 --gcs 40 -o "$t/s.cbor" &&
		"$oracle" --quiet "$t/s.etl" > /dev/null && values "$t/s.etl" > "$t/v1" && values "$t/s.cbor" > "$t/v2" &&
		cmp -s "$t/v1" "$t/v2"
	ok $? "server GC with stacks (extended data), pointer size $ps: clean, values as in the model stream"
	"$gcgen" -q -f etl --mode exhaustive --pointer-size $ps -o "$t/x.etl" &&
		"$gcgen" -q -f cbor --mode exhaustive --pointer-size $ps -o "$t/x.cbor" &&
		values "$t/x.etl" > "$t/v1" && values "$t/x.cbor" > "$t/v2" && cmp -s "$t/v1" "$t/v2" &&
		! grep '"type":"diag"' "$t/v1" | grep -v '"code":"GC-V002"' | grep -q .
	ok $? "exhaustive, pointer size $ps: every event-version decoded as in the model stream, no diagnostic but open-map warnings"
done

for ps in 4 8; do
	"$gcgen" -q -f etl-merged --pointer-size $ps --seed 6 --gcs 40 -o "$t/m.etl" &&
		"$gcgen" -q -f cbor --pointer-size $ps --seed 6 --gcs 40 -o "$t/m.cbor" &&
		values "$t/m.etl" > "$t/v1" && values "$t/m.cbor" > "$t/v2" &&
		grep -v '"type":"diag"' "$t/v1" | sed 's/"notes":1,/"notes":0,/; s/"GC-W010":1//' > "$t/v3" &&
		grep -v '"type":"diag"' "$t/v2" > "$t/v4" && cmp -s "$t/v3" "$t/v4" &&
		grep '"type":"diag"' "$t/v1" | grep -q '"code":"GC-W010","severity":"note"' &&
		[ "$(grep -c '"type":"diag"' "$t/v1")" = 1 ]
	ok $? "etl-merged pointer size $ps: kernel records passed over with one GC-W010 note; events and values as in the model stream"
done

# Compressed mode: the same events and values as the plain file of the
# same seed (and so as the model stream), much smaller; to a pipe as to a
# file; and -O compressed=1 is the same writer.
for ps in 4 8; do
	"$gcgen" -q -f etl-compressed --heaps 2 --stacks --pointer-size $ps --seed 7 --gcs 80 -o "$t/c.etl" &&
		"$gcgen" -q -f etl --heaps 2 --stacks --pointer-size $ps --seed 7 --gcs 80 -o "$t/c0.etl" &&
		"$oracle" --quiet "$t/c.etl" > /dev/null && values "$t/c.etl" > "$t/v1" && values "$t/c0.etl" > "$t/v2" &&
		cmp -s "$t/v1" "$t/v2" && [ "$(wc -c < "$t/c.etl")" -lt "$(($(wc -c < "$t/c0.etl") / 2))" ]
	ok $? "etl-compressed pointer size $ps: clean, values as in the plain .etl, under half its size ($(wc -c < "$t/c.etl") of $(wc -c < "$t/c0.etl") bytes)"
done
"$gcgen" -q -f etl-compressed --seed 3 --gcs 60 > "$t/cp.etl" &&
	"$gcgen" -q -f etl-compressed --seed 3 --gcs 60 -o "$t/cf.etl" && cmp -s "$t/cp.etl" "$t/cf.etl" &&
	"$gcgen" -q -f etl -O compressed=1 --seed 3 --gcs 60 -o "$t/co.etl" && cmp -s "$t/co.etl" "$t/cf.etl" &&
	cat "$t/cf.etl" | "$oracle" --quiet - > /dev/null
ok $? "gcgen -f etl-compressed to a pipe, to a file and as -f etl -O compressed=1: the same bytes; gcoracle reads it from a pipe"

"$gcgen" -q -f etl --seed 3 --gcs 60 -o "$t/f.etl" && "$gcgen" -q -f etl --seed 3 --gcs 60 > "$t/p.etl" &&
	cmp -s "$t/f.etl" "$t/p.etl"
ok $? "gcgen -f etl to a pipe writes the same bytes as to a file"
"$oracle" --quiet "$t/f.etl" > "$t/o1" && cat "$t/f.etl" | "$oracle" --quiet - > "$t/o2" && cmp -s "$t/o1" "$t/o2"
ok $? "gcoracle reads an .etl from a pipe as from a file"
"$oracle" --format etl --quiet "$t/f.etl" > /dev/null
ok $? "gcoracle --format etl"
head -c 100000 "$t/f.etl" > "$t/cut.etl"
"$oracle" --json "$t/cut.etl" > "$t/o" 2>&1; r=$?
[ $r = 1 ] && grep -q '"code":"GC-W002","severity":"error"' "$t/o" && grep -q '"offset":100000' "$t/o"
ok $? "a cut .etl: exit 1 with GC-W002 at the cut"
# A per-processor buffered file (LogFileMode without NO_PER_PROCESSOR_BUFFERING,
# byte 0x8B) whose buffers 1 and 2 are swapped, as two processors' buffers
# flushed out of time order: gcoracle sorts the events back and finds the
# stream clean; the same bytes claiming one time-ordered buffer stream are
# not clean.
"$gcgen" -q -f etl --seed 4 --gcs 150 -o "$t/o.etl"
bs=65536
{ dd if="$t/o.etl" bs=$bs count=1 2>/dev/null; dd if="$t/o.etl" bs=$bs skip=2 count=1 2>/dev/null
  dd if="$t/o.etl" bs=$bs skip=1 count=1 2>/dev/null; dd if="$t/o.etl" bs=$bs skip=3 2>/dev/null; } > "$t/swapped.etl"
cp "$t/swapped.etl" "$t/percpu.etl"
printf '\000' | dd of="$t/percpu.etl" bs=1 seek=139 conv=notrunc 2>/dev/null
[ "$(wc -c < "$t/o.etl")" -ge $((4 * bs)) ] && ! cmp -s "$t/o.etl" "$t/swapped.etl" &&
	"$oracle" --quiet "$t/percpu.etl" > /dev/null && ! "$oracle" --quiet "$t/swapped.etl" > /dev/null 2>&1
ok $? "per-processor buffers flushed out of time order: sorted back and clean; the same claiming time order: errors"
"$gcgen" -f etl --list-mutations | awk '$2 == "container"' | grep -c . > "$t/c"
[ "$(cat "$t/c")" -ge 12 ]; ok $? "gcgen lists $(cat "$t/c") container fault classes for etl"
echo "1..$n"
exit $fail
