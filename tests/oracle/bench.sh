#!/bin/sh
# make bench-oracle: gcoracle's decode-and-check throughput, per container,
# on realistic streams gcgen writes now (nothing committed). gcoracle runs on
# one core (it has one thread); each stream is checked BENCH_RUNS times and
# the best run counts. CPU time (user + system) is what one core spent; wall
# clock is what the machine's load let it have.
#
#   BENCH_GCS=N        GCs per stream (default 100000: about 2 M events)
#   BENCH_RUNS=N       runs per stream (default 3)
#   BENCH_FORMATS=...  containers (default: cbor nettrace-v5 nettrace-v6 etl ctf;
#                      a CTF trace is a directory, measured by its files' bytes)
# For the model stream it also times the CBOR layer alone, our scanner
# against libcbor's streaming decoder (tests/oracle/cbor_bench).
#   BENCH_CALLGRIND=1  also count instructions per event with callgrind
#                      (stable under load; a 5000-GC stream)
set -u
gcgen=${1:-./gen/gcgen}
oracle=${2:-./oracle/gcoracle}
rusage=${3:-./tests/oracle/rusage}
cbor_bench=${4:-./tests/oracle/cbor_bench}
gcs=${BENCH_GCS:-100000}
runs=${BENCH_RUNS:-3}
formats=${BENCH_FORMATS:-cbor nettrace-v5 nettrace-v6 etl ctf}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# Bytes of a stream: a file, or the files of a trace directory.
size_of() {
	if [ -d "$1" ]; then
		find "$1" -type f -exec cat {} + | wc -c
	else
		wc -c < "$1"
	fi
}

echo "gcoracle --quiet, decode and check, one core; $gcs-GC realistic net8 streams, best of $runs runs"
printf '%-12s %9s %11s | %7s %8s %7s | %7s %8s %7s | %7s\n' \
	container events bytes "cpu s" "MB/s" "Mev/s" "wall s" "MB/s" "Mev/s" "max RSS"
for fmt in $formats; do
	f=$work/stream.$fmt
	if ! "$gcgen" -q --gcs "$gcs" --format "$fmt" -o "$f"; then
		echo "bench-oracle: gcgen could not write $fmt" >&2
		exit 1
	fi
	bytes=$(size_of "$f")
	events=$("$oracle" --quiet "$f" | awk 'NR == 1 { print $1 }')
	best_cpu= best_wall= rss=0
	i=0
	while [ $i -lt "$runs" ]; do
		line=$("$rusage" -- "$oracle" --quiet "$f") || {
			echo "bench-oracle: gcoracle failed on $fmt: $line" >&2; exit 1; }
		set -- $(echo "$line" | tr '=' ' ')
		# status N wall S cpu S maxrss_kb K
		wall=$4 cpu=$6 rss=$8
		best_cpu=$(awk -v a="${best_cpu:-$cpu}" -v b="$cpu" 'BEGIN { print (b < a ? b : a) }')
		best_wall=$(awk -v a="${best_wall:-$wall}" -v b="$wall" 'BEGIN { print (b < a ? b : a) }')
		i=$((i + 1))
	done
	awk -v fmt="$fmt" -v ev="$events" -v by="$bytes" -v c="$best_cpu" -v w="$best_wall" -v rss="$rss" 'BEGIN {
		if (c <= 0) c = 0.001; if (w <= 0) w = 0.001
		printf "%-12s %9d %11d | %7.3f %8.0f %7.2f | %7.3f %8.0f %7.2f | %5d MB\n",
		       fmt, ev, by, c, by / c / 1e6, ev / c / 1e6, w, by / w / 1e6, ev / w / 1e6, rss / 1024 }'
	if [ "$fmt" = cbor ] && [ -x "$cbor_bench" ]; then
		# The CBOR layer alone (the file in memory): why the model
		# reader scans CBOR itself rather than through libcbor.
		"$cbor_bench" "$f" both | sed 's/^/    cbor layer: /' >"$work/layer"
	fi
	rm -rf "$f"
done
echo "targets: >= 1000 MB/s and >= 30 Mev/s (CPU time on one core)"
if [ -s "$work/layer" ]; then cat "$work/layer"; fi

if [ "${BENCH_CALLGRIND:-0}" = 1 ]; then
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "bench-oracle: BENCH_CALLGRIND=1 needs valgrind" >&2
		exit 1
	fi
	echo "instructions per event (callgrind, 5000-GC streams):"
	for fmt in $formats; do
		f=$work/small.$fmt
		"$gcgen" -q --gcs 5000 --format "$fmt" -o "$f" || exit 1
		events=$("$oracle" --quiet "$f" | awk 'NR == 1 { print $1 }')
		ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$oracle" --quiet "$f" 2>&1 >/dev/null |
			awk '/refs:/ { gsub(",", "", $NF); print $NF }')
		awk -v fmt="$fmt" -v ir="$ir" -v ev="$events" 'BEGIN {
			printf "%-12s %12d instructions / %d events = %d per event\n", fmt, ir, ev, ir / ev }'
		rm -rf "$f"
	done
fi
