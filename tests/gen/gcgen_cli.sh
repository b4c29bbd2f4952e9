#!/bin/sh
# gcgen as a user runs it: determinism, ordering rules per profile, exhaustive
# coverage, every fault class's expect file, and usage errors. TAP.
b=${top_builddir:-.}
gcgen=$b/gen/gcgen
check=$b/tests/gen/model_check
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

"$gcgen" --seed 7 --gcs 200 -o "$t/a" && "$gcgen" --seed 7 --gcs 200 -o "$t/b" && cmp -s "$t/a" "$t/b"
ok $? "same arguments give byte-identical streams"
for f in $("$gcgen" --list-formats); do
	r=0
	for args in "--gcs 150 --heaps 3 --stacks" "--mode exhaustive" "--gcs 150 --mutate all"; do
		"$gcgen" -q -f $f --seed 5 $args -o "$t/d1" -e "$t/e1" &&
		"$gcgen" -q -f $f --seed 5 $args -o "$t/d2" -e "$t/e2" &&
		diff -r -q "$t/d1" "$t/d2" >/dev/null && cmp -s "$t/e1" "$t/e2" || r=1
	done
	ok $r "$f: same arguments, same bytes and expectations (realistic, exhaustive, mutated)"
done
"$gcgen" --seed 8 --gcs 200 -o "$t/c" && ! cmp -s "$t/a" "$t/c"
ok $? "another seed gives another stream"
"$gcgen" --seed 7 --gcs 200 | cmp -s - "$t/a"
ok $? "stdout and -o give the same bytes"

for p in netfx4 netfx45 netcore3 net5 net8 net10; do
	for h in 0 1 64; do
		for ps in 4 8; do
			"$gcgen" -q -p $p --heaps $h --pointer-size $ps -k 0x400003 --gcs 60 -o "$t/r" &&
			"$check" "$t/r" --ordering > "$t/out"
			r=$?
			grep -q '^not ok' "$t/out" && r=1
			ok $r "realistic $p heaps=$h pointer-size=$ps follows the ordering rules"
		done
	done
done

# A container writer alone gets payloads written in place (no field values
# kept: emit.h's direct mode); with --values it gets them encoded from
# values. The container's bytes are the same either way.
r=0
for f in nettrace-v5 nettrace-v6 etl ctf; do
	for args in "--gcs 40" "--gcs 20 --heaps 3 -k 0xFFFFFFFFFFFFFFFF --stacks" "--gcs 30 -p netfx4 --pointer-size 4"; do
		rm -rf "$t/d1" "$t/d2"
		"$gcgen" -q -f $f $args -o "$t/d1" && "$gcgen" -q -f $f $args -o "$t/d2" --values "$t/d2.values" &&
			diff -r "$t/d1" "$t/d2" > /dev/null || { r=1; echo "# $f $args differ"; }
	done
done
rm -rf "$t/d1" "$t/d2" "$t/d2.values"
ok $r "payloads written in place are the bytes encoded from values (nettrace V5/V6, etl, ctf)"

# What real runtimes were seen to do (docs/real-runtime.md), in realistic
# streams: live handles set again and set to null; server GC joins restarted
# under pseudo-heaps 100 and 200 (JoinID 0xFFFFFFFF); on .NET 5 and later a
# tiering thread's GCSuspendEEBegin while a GC's suspension is open (not on
# .NET Framework, nor in workstation GC); pinned objects held by no handle.
# realism NAME ARGS...: the counts model_check --realism gives.
realism() {
	"$gcgen" -q --gcs 200 "$@" -o "$t/real" && "$check" "$t/real" --realism > "$t/realism"
}
count() { awk -v k="$1" '$1 == k {print $2}' "$t/realism"; }
realism -p net10 --heaps 2 &&
	[ "$(count handle-set-again)" -gt 0 ] && [ "$(count handle-set-null)" -gt 0 ] &&
	[ "$(count join-restart-100)" -gt 0 ] && [ "$(count join-restart-200)" -gt 0 ] &&
	[ "$(count suspend-interleaved)" -gt 0 ] && [ "$(count pin-not-handle)" -gt 0 ]
ok $? "net10 server GC: handles set again and to null, restarts under heaps 100 and 200, interleaved suspensions, pins without a handle ($(tr '\n' ' ' < "$t/realism"))"
realism -p netfx4 --heaps 2 && [ "$(count suspend-interleaved)" = 0 ] &&
	[ "$(count join-restart-100)" -gt 0 ] && [ "$(count handle-set-again)" -gt 0 ]
ok $? "netfx4 server GC: joins restart under heap 100, no tiering thread interleaves"
realism -p net10 && [ "$(count join-restart-100)" = 0 ]
ok $? "net10 workstation GC: no joins"
realism -p netfx45 && [ "$(count suspend-interleaved)" = 0 ]
ok $? "netfx45 workstation GC: no tiering thread, no sample profiler: no interleaved suspensions"

"$gcgen" --mode exhaustive --coverage -o "$t/x" 2> "$t/cov"
grep -q "^event-versions: \([0-9]*\)/\1$" "$t/cov"
ok $? "exhaustive mode writes every event-version ($(grep '^event-versions' "$t/cov"))"
grep -q "^map values: \([0-9]*\)/\1$" "$t/cov"
ok $? "exhaustive mode writes every map value in every field that uses it ($(grep '^map values' "$t/cov"))"
grep -q "^open-map fields with a value outside the map: \([1-9][0-9]*\)/\1$" "$t/cov"
ok $? "exhaustive mode writes a value outside the map in every open-map field"
grep -q "^integer fields with 0, 1, max-1 and max: \([1-9][0-9]*\)/\1$" "$t/cov"
ok $? "exhaustive mode writes the boundaries of every free integer field ($(grep '^integer' "$t/cov"))"
grep -q "^string fields with each of [1-9] awkward strings: \([1-9][0-9]*\)/\1$" "$t/cov"
ok $? "exhaustive mode writes every awkward string in every UnicodeString field"
[ "$(grep -c . "$t/cov")" = 5 ]; ok $? "the coverage report names nothing missing"
for ps in 4 8; do
	"$gcgen" --mode exhaustive --pointer-size $ps --coverage -o "$t/x$ps" 2>&1 >/dev/null |
		grep -q "^event-versions: \([0-9]*\)/\1$"
	ok $? "exhaustive coverage is complete at pointer size $ps"
done
"$check" "$t/x" --ordering | grep -q '^not ok'
[ $? = 1 ]; ok $? "the exhaustive stream keeps the ordering rules"
"$check" "$t/x" --names | awk '{print $1}' | sort -u | wc -l | grep -q "^$("$b/tests/spec/dump_tables" | grep -c '^event')\$"
ok $? "the model holds every event symbol of the spec"

for c in $("$gcgen" --list-mutations | awk '{print $1}'); do
	codes=$("$gcgen" --list-mutations | awk -v c="$c" '$1 == c {print $3}')
	"$gcgen" -q --seed 3 --gcs 300 --mutate "$c" -o "$t/m" --expect "$t/e"
	r=$?
	first=$(grep -v '"may"' "$t/e" | head -1 | sed 's/.*"code":"\([^"]*\)".*/\1/')
	[ $r = 0 ] && [ -n "$first" ] && echo "$codes" | tr '|,' '\n\n' | grep -qx "$first"
	ok $? "mutation $c expects $codes (got $first)"
done

"$gcgen" --no-such-option > /dev/null 2> "$t/err"; r=$?
[ $r = 2 ] && grep -q "no-such-option" "$t/err"; ok $? "an unknown option exits 2 with a message"
"$gcgen" --profile nope > /dev/null 2> "$t/err"; r=$?
[ $r = 2 ] && grep -q "unknown profile" "$t/err"; ok $? "an unknown profile exits 2"
"$gcgen" --pointer-size 5 > /dev/null 2>&1; [ $? = 2 ]; ok $? "pointer size 5 exits 2"
"$gcgen" --gcs abc > /dev/null 2>&1; [ $? = 2 ]; ok $? "a non-number exits 2"
"$gcgen" --mutate nope > /dev/null 2>&1; [ $? = 2 ]; ok $? "an unknown fault class exits 2"
"$gcgen" --shard 3/2 > /dev/null 2>&1; [ $? = 2 ]; ok $? "a bad shard exits 2"
"$gcgen" -o /nonexistent-dir/x 2> /dev/null; [ $? = 1 ]; ok $? "an unwritable output exits 1"
mkfifo "$t/fifo" && { cat "$t/fifo" > "$t/from-fifo" & } && "$gcgen" --seed 7 --gcs 200 -o "$t/fifo"
r=$?; wait
[ $r = 0 ] && [ -p "$t/fifo" ] && cmp -s "$t/from-fifo" "$t/a"
ok $? "-o onto a FIFO writes into it and leaves it a FIFO (as for /dev/null: no rename onto a device)"
"$gcgen" --seed 7 --gcs 200 -o - | cmp -s - "$t/a"; ok $? "-o - writes standard output"
# Past 64 MiB a file is synced and dropped from the cache as it grows.
"$gcgen" -q --gcs 11000 -o "$t/big" && [ "$(wc -c < "$t/big")" -gt 67108864 ] &&
	"$gcgen" -q --gcs 11000 | cmp -s - "$t/big"
ok $? "a file past 64 MiB holds the same bytes as standard output"
rm -f "$t/big"
"$gcgen" --help | grep -q -- "--mutate"; ok $? "--help lists the options"
"$gcgen" --version | grep -q "gcgen"; ok $? "--version names the program"
r=0
for o in $("$gcgen" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "$(echo "$o" | sed 's/-/\\\\-/g')" "${srcdir:-.}/docs/gcgen.1" || { echo "# gcgen.1 lacks $o"; r=1; }
done
ok $r "docs/gcgen.1 describes every option --help lists"
"$gcgen" --shard 0/2 --gcs 20 -o "$t/s0" && "$gcgen" --shard 1/2 --gcs 20 -o "$t/s1" && ! cmp -s "$t/s0" "$t/s1"
ok $? "shards differ"
"$gcgen" --shard 1/2 --gcs 20 | cmp -s - "$t/s1"; ok $? "a shard is deterministic"
# Shards partition the work: realistic shards share the GCs out (each
# stream valid on its own), exhaustive shards the items, framed alike.
gcstarts() { "$check" "$1" --names | awk '$1 ~ /^GCStart/ {n += $2} END {print n + 0}'; }
total=0 r=0
for i in 0 1 2; do
	"$gcgen" -q --shard $i/3 --gcs 100 -o "$t/p$i" || r=1
	"$check" "$t/p$i" --ordering | grep -q '^not ok' && r=1
	total=$((total + $(gcstarts "$t/p$i")))
done
[ $r = 0 ] && [ $total = 100 ]; ok $? "--gcs 100 in 3 shards: $total GCs in all, each shard keeps the ordering rules"
"$gcgen" -q --shard 5/7 --gcs 3 -o "$t/p5" && "$check" "$t/p5" > "$t/out"
grep -q '^ok 1 - header' "$t/out" && grep -q '^ok 2 - all 0 items' "$t/out"
ok $? "a shard with no share of the GCs is a stream without events"
"$gcgen" --mode exhaustive -o "$t/xall" && "$check" "$t/xall" --names > "$t/xall.names"
r=$?
for i in 0 1 2; do
	"$gcgen" --mode exhaustive --shard $i/3 --coverage -o "$t/x$i" 2> "$t/cov$i" || r=1
	"$check" "$t/x$i" --names
done > "$t/xs.names"
[ $r = 0 ] && ! cat "$t/cov0" "$t/cov1" "$t/cov2" | grep '^missing' | sort | uniq -c | grep -q '^ *3 ' &&
	grep -q '^missing' "$t/cov0"
ok $? "exhaustive shards: each misses items, nothing is missing from all three"
# Per symbol, the shards' events minus the whole stream's: 2 extra copies of
# the 7 framing GC events (the GC every shard's variants sit in), 0 else.
awk 'NR == FNR {all[$1] = $2; next} {sum[$1] += $2} END {
	for (k in sum) { d = sum[k] - all[k]; if (d == 2) framing++; else if (d != 0) bad++ }
	for (k in all) if (!(k in sum)) bad++
	exit !(framing == 7 && bad == 0) }' "$t/xall.names" "$t/xs.names"
ok $? "exhaustive shards write every item exactly once"
"$gcgen" -q -f nettrace-v5 --gcs 1000000000 -o "$t/killed" & p=$!
sleep 0.3; kill -TERM $p; wait $p 2> /dev/null; r=$?
[ $r -gt 128 ] && ! ls "$t" | grep -q killed
ok $? "a run ended by a signal leaves neither its output nor its temporary file"
if command -v script > /dev/null && command -v timeout > /dev/null; then
	# script(1) gives gcgen a terminal; Ctrl-C (SIGINT) ends it after 4 s.
	# script needs an open stdin (make check may close it): an empty file.
	: > "$t/empty"
	timeout -s INT 4 script -qefc "'$gcgen' -f nettrace-v5 --gcs 1000000000 -o '$t/long'" \
		"$t/typescript" < "$t/empty" > /dev/null 2>&1
	# script(1) can return before gcgen, hung up, has removed its temporary
	# file (a loaded machine): give gcgen 5 s to go.
	i=0
	while ls "$t" | grep -q long && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q "gcgen: [0-9]*/1000000000 GCs (0%)" "$t/typescript" && ! ls "$t" | grep -q long ||
		{ tail -c 300 "$t/typescript" | tr '\r' '\n' | tail -3 | sed 's/^/# /'; ls "$t" | sed 's/^/# /'; false; }
	ok $? "a long run on a terminal shows a progress line, and Ctrl-C leaves no file behind"
else
	n=$((n + 1)); echo "ok $n # SKIP script(1) or timeout(1) missing: no terminal to show progress on"
fi
if command -v script > /dev/null; then
	# A run that ends: its progress line reaches 100 % and is then erased.
	: > "$t/empty"
	script -qefc "'$gcgen' -f nettrace-v5 --gcs 1500000 -o '$t/done'" "$t/ts" < "$t/empty" > /dev/null 2>&1
	if grep -q 'GCs (' "$t/ts"; then
		tr '\r' '\n' < "$t/ts" | grep 'GCs (' | tail -1 | grep -q '^gcgen: 1500000/1500000 GCs (100%)' &&
			tr -d '\r' < "$t/ts" | grep -q "(100%)$(printf '\033')\[K"
		ok $? "a finished run's progress line reaches 100 % and is cleared"
	else
		n=$((n + 1)); echo "ok $n # SKIP the run took less than a second: no progress line to check"
	fi
	# No binary stream on a terminal unless asked for with -o -.
	script -qefc "'$gcgen' --gcs 10" "$t/ts" < "$t/empty" > /dev/null 2>&1
	r=$?
	script -qefc "'$gcgen' --gcs 10 -o -" "$t/ts2" < "$t/empty" > /dev/null 2>&1
	[ $r = 2 ] && grep -q 'stream is binary: give -o FILE' "$t/ts" && [ $? = 0 ] &&
		! grep -q 'is binary' "$t/ts2"
	ok $? "without -o, gcgen refuses to write binary to a terminal (exit $r); -o - forces it"
else
	n=$((n + 2)); echo "ok $((n - 1)) # SKIP script(1) missing"; echo "ok $n # SKIP script(1) missing"
fi
"$gcgen" --gcs 1000 -q -o "$t/quiet" 2> "$t/err" && [ ! -s "$t/err" ]
ok $? "a short run prints nothing on stderr"
"$gcgen" --gcs 1000 --stats -o "$t/stats" 2> "$t/err" &&
	grep -q "^gcgen: stats: events=[1-9][0-9]* bytes=$(wc -c < "$t/stats") wall=[0-9.]* cpu=[0-9.]*\$" "$t/err"
ok $? "--stats reports events, the bytes written, wall and cpu time"
"$gcgen" -q --gcs 100 -f ctf --stats -o "$t/stats-ctf" 2> "$t/err" &&
	grep -q "^gcgen: stats: events=[1-9][0-9]* bytes=$(cat "$t/stats-ctf"/* | wc -c) wall=" "$t/err"
ok $? "--stats reports a CTF trace's bytes (its files')"
"$gcgen" -q --gcs 100 -f etl -o "$t/etl-file" && "$gcgen" -q --gcs 100 -f etl --stats -o /dev/null 2> "$t/err" &&
	grep -q "bytes=$(wc -c < "$t/etl-file") " "$t/err" &&
	"$gcgen" -q --gcs 100 -f etl | cmp -s - "$t/etl-file" &&
	"$gcgen" -q --gcs 100 -f etl --drop-cache -o "$t/etl-drop" && cmp -s "$t/etl-drop" "$t/etl-file"
ok $? ".etl to /dev/null (its header rewritten in place), to a pipe and with --drop-cache: the same bytes"
"$gcgen" -q --gcs 20 -f nettrace-v6 --full-metadata -o "$t/fm" &&
	"$gcgen" -q --gcs 20 -f nettrace-v6-full -o "$t/fm-full" && cmp -s "$t/fm" "$t/fm-full" &&
	"$gcgen" -q --gcs 20 -f nettrace-v6 -o "$t/fm-plain" && ! cmp -s "$t/fm" "$t/fm-plain" &&
	! "$gcgen" -q -f cbor --full-metadata -o "$t/fm-cbor" 2> /dev/null
ok $? "--full-metadata writes the -full format's bytes, and only for nettrace V5/V6"
ls "$t" | grep -q tmp; [ $? = 1 ]; ok $? "no temporary files are left behind"
echo "1..$n"
