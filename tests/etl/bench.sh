#!/bin/sh
# make bench-etl: .etl write and read throughput (MB/s, events/s).
#   the writer alone (etldump -w: 2 M synthetic events),
#   the reader alone (etldump: walking buffers and records),
#   gcgen writing and gcoracle checking a 200000-GC realistic stream,
#   the same in compressed mode (-f etl-compressed: gcgen's LZXPRESS
#   compressor, gcoracle expanding with libfwnt).
# Wall-clock figures: on a loaded machine they vary from run to run.
b=${1:-.}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
"$b/tests/etl/etldump" -w 2000000 "$t/w.etl" 8 || exit 1
"$b/tests/etl/etldump" "$t/w.etl" | sed -n 2p
start=$(date +%s.%N)
"$b/gen/gcgen" -q -f etl --gcs 200000 -o "$t/g.etl" || exit 1
end=$(date +%s.%N)
bytes=$(wc -c < "$t/g.etl")
awk -v s="$start" -v e="$end" -v b="$bytes" 'BEGIN {
	printf "gcgen -f etl: 200000 GCs, %d bytes in %.2f s: %.1f MB/s\n", b, e - s, b / (e - s) / 1e6 }'
"$b/tests/etl/etldump" "$t/g.etl" | sed -n 2p | sed 's/^etl read/etl read (gcgen stream)/'
start=$(date +%s.%N)
"$b/oracle/gcoracle" --quiet "$t/g.etl" > "$t/o" || { cat "$t/o"; exit 1; }
end=$(date +%s.%N)
events=$(awk 'NR == 1 {print $1; exit}' "$t/o")
awk -v s="$start" -v e="$end" -v b="$bytes" -v n="${events:-0}" 'BEGIN {
	printf "gcoracle (read, decode, check): %d bytes in %.2f s: %.1f MB/s, %.1f M events/s\n",
		b, e - s, b / (e - s) / 1e6, n / (e - s) / 1e6 }'
start=$(date +%s.%N)
"$b/gen/gcgen" -q -f etl-compressed --gcs 200000 -o "$t/c.etl" || exit 1
end=$(date +%s.%N)
cbytes=$(wc -c < "$t/c.etl")
awk -v s="$start" -v e="$end" -v b="$cbytes" -v p="$bytes" 'BEGIN {
	printf "gcgen -f etl-compressed: 200000 GCs, %d bytes (%.1f %% of etl) in %.2f s: %.1f MB/s of plain .etl\n",
		b, 100 * b / p, e - s, p / (e - s) / 1e6 }'
"$b/tests/etl/etldump" "$t/c.etl" | sed -n 2p | sed 's/^etl read/etl read (compressed)/'
start=$(date +%s.%N)
"$b/oracle/gcoracle" --quiet "$t/c.etl" > "$t/o" || { cat "$t/o"; exit 1; }
end=$(date +%s.%N)
events=$(awk 'NR == 1 {print $1; exit}' "$t/o")
awk -v s="$start" -v e="$end" -v b="$cbytes" -v p="$bytes" -v n="${events:-0}" 'BEGIN {
	printf "gcoracle compressed (expand, read, decode, check): %d bytes in %.2f s: %.1f MB/s of file, %.1f MB/s of buffers as plain, %.1f M events/s\n",
		b, e - s, b / (e - s) / 1e6, p / (e - s) / 1e6, n / (e - s) / 1e6 }'
