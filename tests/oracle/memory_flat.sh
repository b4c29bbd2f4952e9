#!/bin/sh
# gcoracle's memory stays flat in the size of what it reads: gcgen pipes a
# realistic stream into gcoracle (through a pipe: nothing can be sought or
# mapped), rusage measures gcoracle's peak resident memory, and a stream
# MEMORY_SCALE (default 20) times larger must not need more memory than a
# small one, within a fixed bound per container. make check runs about
# 1.3 GB of model stream, 0.5 GB of nettrace V6, 0.12 GB of nettrace V5,
# 0.3 GB of .etl (all through a pipe) and a 0.13 GB CTF directory (on
# disk: a CTF trace is a directory); make check-memory runs
# MEMORY_SCALE=150 (about 10, 3.5, 0.9, 2.1 and 1 GB).
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
rusage=$top_builddir/tests/oracle/rusage
scale=${MEMORY_SCALE:-20}
if [ -n "${ORACLE_SAN_CFLAGS:-}" ]; then
	echo "1..0 # SKIP built with sanitizers ($ORACLE_SAN_CFLAGS): their shadow memory is not gcoracle's"
	exit 0
fi
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

# measure FORMAT GCS: sets rss (KB), bytes, errors. A CTF trace is a
# directory of files, so it is written first and read from disk (its
# streams are read one after another, each streamed).
measure() {
	if [ "$1" = ctf ]; then
		rm -rf "$work/ctf"
		"$gcgen" -q -s 7 --gcs "$2" -f ctf -o "$work/ctf" &&
			"$rusage" -o "$work/out" -- "$oracle" --quiet "$work/ctf" >"$work/ru"
		rm -rf "$work/ctf"
	else
		"$gcgen" -q -s 7 --gcs "$2" -f "$1" |
			"$rusage" -o "$work/out" -- "$oracle" --quiet - >"$work/ru"
	fi
	rss=$(sed 's/.*maxrss_kb=//' "$work/ru")
	bytes=$(awk 'NR == 1 { gsub("[(]", "", $3); print $3 }' "$work/out")
	errors=$(awk '/^diagnostics:/ { print $2 }' "$work/out")
}

# container, GCs of the small stream, bound on peak memory (MB), growth
# allowed from the small stream to the large one (MB)
for spec in "cbor 10000 24 4" "nettrace-v6 20000 64 8" "nettrace-v5 5000 64 8" \
	"etl 5000 16 4" "ctf 5000 16 4"; do
	set -- $spec
	fmt=$1 small=$2 bound=$3 slack=$4
	measure "$fmt" "$small"
	rss1=$rss bytes1=$bytes err1=$errors
	measure "$fmt" $((small * scale))
	rss2=$rss bytes2=$bytes err2=$errors
	how="through a pipe"; [ "$fmt" = ctf ] && how="from a directory"
	[ "${err1:-x}" = 0 ] && [ "${err2:-x}" = 0 ] && [ "${bytes2:-0}" -gt $((bytes1 * scale / 2)) ]
	ok $? "$fmt: gcoracle read ${bytes1:-?} and ${bytes2:-?} bytes $how, zero errors"
	[ "$rss1" -lt $((bound * 1024)) ] && [ "$rss2" -lt $((bound * 1024)) ]
	ok $? "$fmt: peak memory $((rss1 / 1024)) MB and $((rss2 / 1024)) MB, below $bound MB"
	[ "$rss2" -le $((rss1 + slack * 1024)) ]
	ok $? "$fmt: a stream $scale times larger needs at most $slack MB more ($(((rss2 - rss1) / 1024)) MB)"
done
echo "1..$n"
exit $fail
