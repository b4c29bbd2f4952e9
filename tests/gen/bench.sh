#!/bin/sh
# make bench: throughput of gcgen for a 1-million-GC realistic stream.
gcgen=${1:-./gen/gcgen}
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
"$gcgen" -q --gcs 1000000 -o "$out" || exit 1
end=$(date +%s.%N)
bytes=$(wc -c < "$out")
"$gcgen" -q --gcs 1000000 | wc -c > /dev/null
awk -v s="$start" -v e="$end" -v b="$bytes" 'BEGIN {
	t = e - s; printf "gcgen: 1000000 GCs, %d bytes in %.2f s: %.1f MB/s\n", b, t, b / t / 1e6 }'
