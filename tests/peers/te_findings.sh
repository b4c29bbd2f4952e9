#!/bin/sh
# te_findings.sh - the recorded TraceEvent findings (fuzz/findings/traceevent-<version>/)
# still reproduce with that version: each input makes the peer table's TraceEvent adapter
# for the version (built by tests/peers/build_peers.sh; make peer-table) crash (a signal,
# or exit 70: an exception that means a defect), run out of memory (exit 71), or, where
# FILE.values holds a pattern, print the wrong values that pattern matches. Version-
# gated: a version whose adapter is not built is skipped, saying so. TAP; `make check-peers`.
set -u
s=${top_srcdir:-.}
b=${top_builddir:-.}
n=0
fail=0
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
for dir in "$s"/fuzz/findings/traceevent-*/; do
	v=$(basename "$dir" | sed 's/^traceevent-//')
	dll=$b/tests/peers/te/$v/out/TraceEventAdapter.dll
	if ! command -v dotnet >/dev/null 2>&1 || [ ! -f "$dll" ]; then
		n=$((n + 1))
		echo "ok $n # SKIP TraceEvent $v adapter not built (make peer-table builds it)"
		continue
	fi
	for f in "$dir"*.nettrace; do
		n=$((n + 1))
		# An access violation outside the payload is not certain on every run (the bytes
		# past the event may be mapped): three tries.
		got=""
		for try in 1 2 3; do
			DOTNET_GCHeapHardLimit=0x20000000 DOTNET_gcServer=0 timeout 120 dotnet "$dll" "$f" >"$out" 2>&1
			rc=$?
			case $rc in
			70|71|13[0-9]) got=$rc; break ;;
			esac
			# A finding whose certain symptom is wrong values (FILE.values: an ERE the
			# adapter's output matches only with them) reproduces on those alone.
			if [ -f "$f.values" ] && grep -Eq "$(cat "$f.values")" "$out"; then
				got="$rc, wrong values"
				break
			fi
		done
		if [ -n "$got" ]; then
			echo "ok $n - TraceEvent $v finding $(basename "$f") still reproduces (exit $got)"
		else
			echo "not ok $n - TraceEvent $v finding $(basename "$f") no longer reproduces (exit $rc)"
			fail=1
		fi
	done
done
echo "1..$n"
exit $fail
