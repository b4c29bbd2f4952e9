#!/bin/sh
# make bench-nettrace: nettrace write and read throughput, end to end, in MB/s
# and events/s. For V5 and V6: gcgen writing a realistic stream of GCS GCs
# (default 200000, about 4 M events and 230 MB); gcoracle reading it back
# (container, payload decoding and every check); and the container reader
# alone (tests/nettrace/ntdump). Wall-clock: on a shared machine, numbers
# measured under load are lower bounds.
#
# Usage: bench.sh BUILDDIR [GCS]
set -eu
top=${1:-.}
gcs=${2:-200000}
gcgen=$top/gen/gcgen oracle=$top/oracle/gcoracle ntdump=$top/tests/nettrace/ntdump
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-nettrace.XXXXXX")
trap 'rm -rf "$dir"' EXIT

now() { date +%s.%N; }
# report WHAT EVENTS BYTES START END
report() {
	awk -v w="$1" -v n="$2" -v b="$3" -v s="$4" -v e="$5" 'BEGIN {
		t = e - s; printf "%-40s %9d events %10d bytes %6.2f s %8.1f MB/s %6.2f M events/s\n",
		w, n, b, t, b / t / 1e6, n / t / 1e6 }'
}

for v in 5 6; do
	f=$dir/v$v.nettrace
	s=$(now)
	"$gcgen" -q -f nettrace-v$v --gcs "$gcs" -o "$f"
	e=$(now)
	bytes=$(wc -c <"$f" | tr -d ' ')
	s2=$(now)
	summary=$("$oracle" "$f" | grep ' events (')
	e2=$(now)
	events=${summary%% events*}
	report "nettrace-v$v write (gcgen)" "$events" "$bytes" "$s" "$e"
	report "nettrace-v$v read (gcoracle, all checks)" "$events" "$bytes" "$s2" "$e2"
	s3=$(now)
	"$ntdump" "$f" >/dev/null
	e3=$(now)
	report "nettrace-v$v read (container only)" "$events" "$bytes" "$s3" "$e3"
done
