#!/bin/sh
# Real CoreCLR LTTng traces (tests/real/capture_lttng.sh writes them;
# REAL_LTTNG_DIR overrides /tmp/real-capture/lttng): each session is read by
# gcoracle with zero errors and holds GCStart events, and when babeltrace2's
# Python bindings are there, both agree on every event, value for value.
# Skipped when there is no capture.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
dir=${REAL_LTTNG_DIR:-/tmp/real-capture/lttng}
oracle=$top_builddir/oracle/gcoracle
set --
for d in "$dir"/*/; do
	[ -f "${d}ust/uid/0/64-bit/metadata" ] && set -- "$@" "${d%/}"
done
if [ $# -eq 0 ]; then
	echo "1..0 # SKIP no real LTTng captures in $dir"
	exit 0
fi
py=""
for p in /usr/bin/python3 "${PYTHON3:-python3}"; do
	"$p" -c 'import bt2, tomllib' >/dev/null 2>&1 && { py=$p; break; }
done
n=0 fail=0
for d in "$@"; do
	n=$((n + 1))
	out=$("$oracle" --json "$d" | tail -1)
	if echo "$out" | grep -q '"errors":0,' && echo "$out" | grep -q '"GCStart_V2":[1-9]'; then
		echo "ok $n - $(basename "$d"): no error, GCStart_V2 present"
	else
		echo "not ok $n - $(basename "$d"): $(echo "$out" | cut -c1-200)"
		fail=1
	fi
	[ -n "$py" ] || continue
	n=$((n + 1))
	if r=$("$py" "$top_srcdir/tests/ctf/peer_bt2.py" "$top_srcdir" "$oracle" "${d}/ust/uid/0/64-bit" 8) &&
		! echo "$r" | grep -q '^not ok'; then
		echo "ok $n - $(basename "$d"): babeltrace2 agrees on every event ($(echo "$r" | sed -n 's/.*reads it without an error (\([0-9]*\) events).*/\1/p') events)"
	else
		echo "not ok $n - $(basename "$d"): babeltrace2 disagrees"
		echo "$r" | grep -A1 '^not ok' | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
