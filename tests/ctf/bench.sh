#!/bin/sh
# make bench-ctf: gcoracle and babeltrace2 decoding the same CTF trace of
# about 1 GB (generated here, removed afterwards). Reports MB/s and events/s
# from CPU time (user + system), which is stable on a shared machine, and
# the wall-clock time beside it. CTF_BENCH_GCS sets the size (default
# 780000 GCs, ~1 GB); CTF_BENCH_DIR where the trace goes (default /tmp).
set -u
b=${1:-.}
gcgen=$b/gen/gcgen oracle=$b/oracle/gcoracle dump=$b/tests/ctf/ctfdump
gcs=${CTF_BENCH_GCS:-780000}
work=$(mktemp -d "${CTF_BENCH_DIR:-/tmp}/ctf-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
t=$work/trace

# cpu_wall CMD...: run it, print "CPU-seconds wall-seconds max-RSS-KiB"
cpu_wall() {
	/usr/bin/time -f '%U %S %e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || return 1
	awk '{ printf "%.3f %.3f %d\n", $1 + $2, $3, $4 }' "$work/time"
}
line() { # name cpu wall rss bytes events
	awk -v n="$1" -v c="$2" -v w="$3" -v m="$4" -v b="$5" -v e="$6" 'BEGIN {
		printf "  %-32s %7.2f s CPU (%6.2f s wall, %6.1f MB RSS) %6.0f MB/s %6.2f M events/s\n",
		       n, c, w, m / 1024, b / c / 1e6, e / c / 1e6 }'
}

echo "bench-ctf: generating $gcs GCs as CTF in $work"
set -- $(cpu_wall "$gcgen" -q -f ctf --gcs "$gcs" -o "$t") || { echo "bench-ctf: gcgen failed"; exit 1; }
bytes=$(du -sb "$t" | cut -f1)
set -- $(cpu_wall "$oracle" --quiet "$t") || { echo "bench-ctf: gcoracle failed"; cat "$work/out"; exit 1; }
ocpu=$1 owall=$2 orss=$3
events=$(sed -n 's/^\([0-9]*\) events (.*/\1/p' "$work/out")
echo "  trace: $bytes bytes, $events events"
line "gcoracle (read, decode, check)" "$ocpu" "$owall" "$orss" "$bytes" "$events"
set -- $(cpu_wall "$dump" "$t") && line "gcoracle's CTF reader alone" "$1" "$2" "$3" "$bytes" "$events"
set -- $(cpu_wall "$dump" -g "$t") && line "  the same, generic interpreter" "$1" "$2" "$3" "$bytes" "$events"
if command -v babeltrace2 >/dev/null 2>&1; then
	set -- $(cpu_wall babeltrace2 "$t" -c sink.utils.dummy) &&
		line "babeltrace2 (dummy sink)" "$1" "$2" "$3" "$bytes" "$events"
	bcpu=$1
	awk -v o="$ocpu" -v b="$bcpu" 'BEGIN { printf "  gcoracle is %.1fx babeltrace2 (CPU time)\n", b / o }'
else
	echo "  babeltrace2: not installed (apt-get install babeltrace2)"
fi
