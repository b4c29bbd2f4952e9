#!/bin/sh
# gcoracle --cbor writes the records --json writes, as a CBOR sequence: the
# same records with the same content (tests/oracle/cbor_same.py compares
# them), for streams of every container with events, diagnostics of every
# kind (file and event) and a summary.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}" "${PYTHON3:=python3}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
same=$top_srcdir/tests/oracle/cbor_same.py
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

"$oracle" --json --cbor /dev/null >/dev/null 2>&1; [ $? = 2 ]
ok $? "--json and --cbor together are bad usage: exit 2"
for fmt in cbor nettrace-v5 nettrace-v6; do
	for what in "exhaustive:-m exhaustive --pointer-size 4" \
	            "realistic server GC:--gcs 20 --heaps 4" \
	            "with faults:--gcs 30 -M gcend-count-mismatch,utf16-unpaired-surrogate,extend-payload,unknown-event-id" \
	            "truncated:--gcs 30 -M truncate"; do
		label=${what%%:*} opts=${what#*:}
		case "$fmt:$label" in cbor:truncated) continue ;; esac
		# shellcheck disable=SC2086
		"$gcgen" -q -s 3 -f "$fmt" $opts -o "$work/s" 2>/dev/null || {
			ok 1 "$fmt $label: gcgen wrote the stream"; continue; }
		"$oracle" --json "$work/s" >"$work/j" 2>/dev/null
		sj=$?
		"$oracle" --cbor "$work/s" >"$work/c" 2>/dev/null
		sc=$?
		[ "$sj" = "$sc" ]
		ok $? "$fmt $label: --cbor exits as --json does ($sj)"
		"$PYTHON3" "$same" "$work/c" "$work/j" >"$work/why" 2>&1
		ok $? "$fmt $label: --cbor and --json carry the same records ($(tail -n 1 "$work/why"))"
	done
done
# Two files: one sequence, one summary at the end.
"$gcgen" -q -s 5 --gcs 5 -o "$work/a" && "$gcgen" -q -s 6 --gcs 5 -f nettrace-v6 -o "$work/b"
"$oracle" --json "$work/a" "$work/b" >"$work/j"
"$oracle" --cbor "$work/a" "$work/b" >"$work/c"
"$PYTHON3" "$same" "$work/c" "$work/j" >"$work/why" 2>&1
ok $? "two files: the same records ($(tail -n 1 "$work/why"))"
echo "1..$n"
exit $fail
