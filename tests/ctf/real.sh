#!/bin/sh
# Real CoreCLR LTTng traces: each session is read by gcoracle with zero
# errors and holds GCStart events; every GC event the runtime's in-process
# EventListener decoded during the session (SESSION.listener.jsonl beside
# it) is decoded identically from the trace; and when babeltrace2's Python
# bindings are there, babeltrace2 agrees with gcoracle on every event. The sessions are
# those in REAL_LTTNG_DIR (tests/real/capture_lttng.sh writes them) or, by
# default, the two recorded with .NET 10.0.12 and LTTng 2.12 that the
# project keeps (tests/ctf/real/*.tar.gz: CI cannot record them, as Debian
# 12 has no LTTng 2.12).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
if [ -n "${REAL_LTTNG_DIR:-}" ]; then
	dir=$REAL_LTTNG_DIR
else
	work=$(mktemp -d) || exit 99
	trap 'rm -rf "$work"' EXIT
	tar xzf "$top_srcdir/tests/ctf/real/coreclr-10.0.12-lttng-2.12.tar.gz" -C "$work" || exit 99
	dir=$work/lttng
fi
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
	if [ -f "$d.listener.jsonl" ]; then
		n=$((n + 1))
		if r=$("${PYTHON3:-python3}" "$top_srcdir/tests/ctf/real_listener.py" "$top_srcdir" \
			"$oracle" "$d" "$d.listener.jsonl"); then
			echo "ok $n - $(basename "$d"): all ${r#ok } GC events the runtime's EventListener decoded are decoded identically from the LTTng trace"
		else
			echo "not ok $n - $(basename "$d"): gcoracle and the runtime's EventListener disagree"
			echo "# $r"
			fail=1
		fi
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
