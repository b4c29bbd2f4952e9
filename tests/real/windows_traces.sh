#!/bin/sh
# Genuine traces recorded on Windows by other runtimes (../shared/real-traces,
# see its README) give gcoracle 0 errors and 0 warnings. Skipped when the
# shared folder is absent; the traces are unpacked to a temporary directory,
# never copied into the project.
#
# HeartRateMonitor.10068.nettrace: EventPipe V4 from a 32-bit .NET Core app
# with the sample profiler on: the sampler thread writes events that carry the
# sampled thread's ThreadId (GC-S023 is kept per writing thread), and 1623
# runtime suspensions, most of them the sampler's.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}" "${PYTHON3:=python3}"
oracle=$top_builddir/oracle/gcoracle
shared=${SHARED_DIR:-$top_srcdir/../shared}
zip=$shared/real-traces/HeartRateMonitor.10068.nettrace.zip
echo "1..2"
if [ ! -f "$zip" ]; then
	echo "ok 1 # SKIP $zip is absent"
	echo "ok 2 # SKIP $zip is absent"
	exit 0
fi
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
if ! "$PYTHON3" -m zipfile -e "$zip" "$work" 2>"$work/err"; then
	echo "not ok 1 - unzip $zip: $(head -1 "$work/err")"
	echo "not ok 2 - # not read"
	exit 1
fi
trace=$work/HeartRateMonitor.10068.nettrace
"$oracle" --quiet --strict "$trace" >"$work/out" 2>&1
rc=$?
sum=$(grep '^diagnostics:' "$work/out")
fail=0
if [ $rc -eq 0 ] && printf '%s\n' "$sum" | grep -q '^diagnostics: 0 errors, 0 warnings,'; then
	echo "ok 1 - HeartRateMonitor.10068.nettrace: $sum"
else
	echo "not ok 1 - HeartRateMonitor.10068.nettrace: exit $rc, $sum"; fail=1
	grep 'GC-[A-Z][0-9]* \(error\|warning\)' "$work/out" | head -5 | sed 's/^/# /'
fi
# The trace was read to its end: every suspension and the GC decoded.
head=$(head -1 "$work/out")
gcs=$(printf '%s\n' "$head" | sed -n 's/.*: \([0-9]*\) GCs, \([0-9]*\) suspensions.*/\1 \2/p')
set -- $gcs
if [ $# -eq 2 ] && [ "$1" -ge 1 ] && [ "$2" -ge 1000 ]; then
	echo "ok 2 - read to the end: $head"
else
	echo "not ok 2 - not read to the end: $head"; fail=1
fi
exit $fail
