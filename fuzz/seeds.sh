#!/bin/sh
# seeds.sh HARNESS DIR GCGEN FUZZ_TOOL - write HARNESS's seed corpus into DIR
# from gcgen output: small files (a few GCs) in every shape the reader must
# know, so fuzzing starts from deep inside the format rather than from its
# magic number. Seeds are generated, never committed: they follow the writers
# as the formats grow, and gcgen is deterministic, so every build gets the
# same bytes. A new reader's harness adds its case below.
set -eu
[ $# -eq 4 ] || { echo "usage: seeds.sh HARNESS DIR GCGEN FUZZ_TOOL" >&2; exit 2; }
h=$1 dir=$2 gcgen=$3 tool=$4
mkdir -p "$dir"
g() {
	name=$1
	shift
	"$gcgen" -q "$@" -o "$dir/$name"
}
case $h in
model)
	g net8 -f cbor -g 2 -s 1
	g netfx4-p4 -f cbor -g 2 -s 2 -p netfx4 --pointer-size 4
	g server3 -f cbor -g 1 -s 3 --heaps 3
	g allkeywords -f cbor -g 1 -s 4 -k 0xffffffffffffffff
	g stream-faults -f cbor -g 6 -s 5 -M drop-gcstart,duplicate-gcend,timestamp-backwards,suspend-nested
	g payload-faults -f cbor -g 6 -s 6 -p net10 -M truncate-at-field,utf16-unpaired-surrogate,closed-enum-value,boolean-not-0-or-1
	;;
nettrace)
	for v in v4 v5 v6 v5-full v6-full; do
		g "$v" -f "nettrace-$v" -g 2 -s 1 --stacks
	done
	g v6-server-p4 -f nettrace-v6 -g 1 -s 2 --heaps 2 --pointer-size 4
	g v5-netcore3 -f nettrace-v5 -g 2 -s 3 -p netcore3 -k 0xffffffffffffffff
	g v6-exhaustive -f nettrace-v6-full -m exhaustive
	for m in truncate undefined-metadata metadata-id-zero bad-padding undefined-stack; do
		g "v5-$m" -f nettrace-v5 -g 2 -s 4 -M "$m"
	done
	;;
decode)
	tmp=$dir/.stream
	"$gcgen" -q -f cbor -m exhaustive -o "$tmp"
	"$tool" decode-seeds "$tmp" "$dir"
	"$gcgen" -q -f cbor -m exhaustive -p netfx4 --pointer-size 4 -o "$tmp"
	"$tool" decode-seeds "$tmp" "$dir"
	rm -f "$tmp"
	;;
example)
	g v5 -f nettrace-v5 -g 2 -s 1
	g v6 -f nettrace-v6 -g 2 -s 1 --stacks
	;;
*)
	echo "seeds.sh: no seed recipe for harness '$h'" >&2
	exit 1
	;;
esac
