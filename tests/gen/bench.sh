#!/bin/sh
# make bench-gen: gcgen's throughput for a 1-million-GC realistic stream
# (the default net8 profile, seed 1), one line per format and leg:
#   generate  output to /dev/null: the generator and its write(2) calls
#   to-file   output to a file in $TMPDIR: plus the kernel's copy into the
#             page cache, writeback and the final fsync and rename
#   callgrind instructions per event for 10000 GCs (when valgrind is
#             installed): unlike times, independent of the machine's load
# MB/s and events/s are per wall-clock second; cpu is user+system time,
# which shows how much of the wall time other processes took.
# BENCH_GCS, BENCH_FORMATS and BENCH_LEGS override the defaults.
gcgen=${1:-./gen/gcgen}
gcs=${BENCH_GCS:-1000000}
formats=${BENCH_FORMATS:-"cbor nettrace-v5 nettrace-v6"}
legs=${BENCH_LEGS:-"generate to-file callgrind"}
dir=$(mktemp -d "${TMPDIR:-/tmp}/gcgen-bench.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM

# stats FILE: "events bytes wall cpu" from gcgen --stats.
stats() {
	sed -n 's/^.*stats: events=\([0-9]*\) bytes=\([0-9]*\) wall=\([0-9.]*\) cpu=\([0-9.]*\)$/\1 \2 \3 \4/p' "$1"
}

report() { # format leg gcs events bytes wall cpu
	awk -v f="$1" -v l="$2" -v g="$3" -v ev="$4" -v b="$5" -v w="$6" -v c="$7" 'BEGIN {
		if (w <= 0) w = 0.001
		printf "gcgen %-12s %-9s %8d GCs %10d events %11.0f bytes  wall %6.2f s  cpu %6.2f s  %7.1f MB/s  %6.2f M events/s\n",
			f, l, g, ev, b, w, c, b / w / 1e6, ev / w / 1e6 }'
}

# A program that renamed a file onto /dev/null made it a file on tmpfs:
# the generate leg would then measure writes into memory.
[ -c /dev/null ] || echo "bench.sh: /dev/null is not a device: the generate leg writes a file" >&2
fail=0
for f in $formats; do
	for leg in $legs; do
		case $leg in
		generate)
			"$gcgen" -q --stats --gcs "$gcs" -f "$f" 2> "$dir/err" > /dev/null || { cat "$dir/err"; fail=1; continue; }
			set -- $(stats "$dir/err")
			report "$f" "$leg" "$gcs" "$1" "$2" "$3" "$4"
			;;
		to-file)
			"$gcgen" -q --stats --gcs "$gcs" -f "$f" -o "$dir/out" 2> "$dir/err" || { cat "$dir/err"; fail=1; continue; }
			rm -f "$dir/out"
			set -- $(stats "$dir/err")
			report "$f" "$leg" "$gcs" "$1" "$2" "$3" "$4"
			;;
		callgrind)
			command -v valgrind > /dev/null || { echo "gcgen $f callgrind: valgrind not installed, skipped"; continue; }
			valgrind --tool=callgrind --callgrind-out-file="$dir/cg" "$gcgen" -q --stats \
				--gcs 10000 -f "$f" > /dev/null 2> "$dir/err" || { cat "$dir/err"; fail=1; continue; }
			ir=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$dir/err")
			set -- $(stats "$dir/err")
			awk -v f="$f" -v ir="$ir" -v ev="$1" -v b="$2" 'BEGIN {
				printf "gcgen %-12s callgrind    10000 GCs %10d events %11.0f bytes  %6.0f instructions/event  %5.1f instructions/byte\n",
					f, ev, b, ir / ev, ir / b }'
			rm -f "$dir/cg"
			;;
		*)
			echo "bench.sh: unknown leg '$leg'" >&2
			exit 2
			;;
		esac
	done
done
exit $fail
