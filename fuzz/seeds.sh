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
ctf)
	# A trace directory travels as its ustar image (fuzz/gcmutator/gcm_tar.h).
	for spec in "net8 -p net8" "net8-p4-server -p net8 --pointer-size 4 --heaps 2" \
		"netcore3-stacks -p netcore3 --stacks" "exhaustive -m exhaustive"; do
		name=${spec%% *}
		# shellcheck disable=SC2086
		"$gcgen" -q -f ctf -g 1 -s 1 ${spec#* } -o "$dir/.t-$name"
		"$tool" pack "$dir/.t-$name" "$dir/$name.tar"
		rm -rf "$dir/.t-$name"
	done
	for m in ctf-truncate ctf-content-size ctf-unknown-event-id ctf-metadata-syntax; do
		"$gcgen" -q -f ctf -g 1 -s 2 -M "$m" -o "$dir/.t-$m"
		"$tool" pack "$dir/.t-$m" "$dir/$m.tar"
		rm -rf "$dir/.t-$m"
	done
	;;
etl)
	# 4 KiB buffers (Windows writes 64 KiB): small inputs, many boundaries.
	b="-O buffer-size=4096"
	# shellcheck disable=SC2086
	{
	g net8 -f etl -g 2 -s 1 $b
	g net8-64k -f etl -g 1 -s 1
	g netfx4-p4 -f etl -g 2 -s 2 -p netfx4 --pointer-size 4 $b
	g merged-server -f etl-merged -g 1 -s 3 --heaps 2 $b
	g exhaustive -f etl -m exhaustive $b
	for m in truncate-at-buffer buffer-offset record-size unknown-header-type extended-data; do
		g "$m" -f etl -g 2 -s 4 -M "$m" $b
	done
	# Compressed mode: LZXPRESS buffers, as PerfView's merges are.
	g compressed -f etl-compressed -g 2 -s 5 $b
	g compressed-p4 -f etl-compressed -g 2 -s 6 --pointer-size 4 -p netfx4 $b
	for m in compressed-data compressed-length compressed-truncate; do
		g "$m" -f etl-compressed -g 2 -s 4 -M "$m" $b
	done
	}
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
compare)
	# First byte even: a decoder's JSON lines against the harness's case;
	# odd: a corpus case file (fuzz/harness/fuzz_compare.c).
	a() { name=$1; shift; { printf '\000'; printf "$@"; } > "$dir/$name"; }
	a decl '{"type":"decoder","name":"d","codes":true,"formats":["cbor-model"]}\n'
	a events '{"type":"event","index":0,"name":"GCStart_V2","id":1,"version":2,"timestamp":1000,"thread":7,"fields":{"Count":1,"Depth":0}}\n{"type":"event","index":1,"name":"GCEnd_V1","id":2,"version":1}\n'
	a diags '{"type":"diag","code":"GC-S005","severity":"error","event":1,"offset":12,"name":"GCEnd_V1","message":"m"}\n{"type":"error","message":"x"}\n'
	a escapes '{"type":"event","index":0,"name":"\\u00e9\\ud83d\\ude00\\n","fields":{"a":[1,2.5e3,-0,true,null,{"b":"c"}]}}\n'
	for f in $(ls "$(dirname "$0")/../corpus/expect" | sed -n '1p;40p;80p;120p;160p;200p'); do
		{ printf '\001'; cat "$(dirname "$0")/../corpus/expect/$f"; } > "$dir/case-$f"
	done
	;;
gcgen_args)
	# gcgen's arguments, NUL-separated (fuzz/harness/fuzz_gcgen_args.c).
	a() { name=$1; shift; printf -- "$@" > "$dir/$name"; }
	a small '--gcs\0003\000-o\000out'
	a ctf '-f\000ctf\000--gcs\0002\000-o\000trace\000-e\000exp'
	a values '--gcs\0002\000--heaps\0004\000--values\000v\000-o\000o\000--stacks'
	a shard '--shard\0001/3\000--gcs\0005\000-o\000s'
	a mutate '--mutate\000drop-gcstart,duplicate-gcend\000--gcs\0004\000-o\000m\000-e\000e'
	a nettrace '-f\000nettrace-v5\000--block-bytes\000512\000--sp-every\000end\000--metadata\000upfront\000-g\0002\000-o\000n'
	a exhaustive '-m\000exhaustive\000-p\000netfx4\000--pointer-size\0004\000-o\000x'
	a lists '--list-mutations=all'
	;;
*)
	echo "seeds.sh: no seed recipe for harness '$h'" >&2
	exit 1
	;;
esac
