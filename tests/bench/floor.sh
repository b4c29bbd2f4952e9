#!/bin/sh
# The floor walker of make bench (bench/floor.c) reads what gcoracle reads:
# it accepts every y_ nettrace case of the corpus (V4, V5, V6, every
# metadata shape, both pointer sizes) and checks their spec payloads, and it
# rejects a file cut inside a block and the payload faults gcoracle calls
# errors of layout (a field cut, a string without its NUL, a count or a
# Binary length past the payload).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
floor=$top_builddir/bench/floor
cases=$top_srcdir/corpus/cases
work=$(mktemp -d "${TMPDIR:-/tmp}/floor.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }

for f in "$cases"/y_nettrace_*.nettrace; do
	out=$("$floor" "$f" 2>&1)
	st=$?
	# As many events as gcoracle reads, every GC event's payload checked.
	want=$("$top_builddir/oracle/gcoracle" --quiet "$f" | awk 'NR == 1 { print $1 }')
	case $st:$out in
	0:"$want events"*" 0 payloads"*) notok "$(basename "$f"): no payload checked" ;;
	0:"$want events"*) ok "$(basename "$f"): $out" ;;
	0:*) notok "$(basename "$f"): gcoracle read $want events, floor: $out" ;;
	*) notok "$(basename "$f"): status $st: $out" ;;
	esac
done

# Cut inside the last block: the file ends before the block does.
f=$cases/y_nettrace_v5_realistic_net8.nettrace
size=$(wc -c <"$f")
head -c $((size - 100)) "$f" >"$work/cut.nettrace"
if "$floor" "$work/cut.nettrace" >"$work/out" 2>&1; then
	notok "a V5 file cut 100 bytes before its end is accepted: $(cat "$work/out")"
else
	ok "a V5 file cut 100 bytes before its end is rejected: $(cat "$work/out")"
fi
for fault in truncate_at_field string_unterminated string_odd_length \
	struct_count_exceeds_payload binary_length_exceeds_payload; do
	for v in v5 v6; do
		f=$cases/n_nettrace_${v}_payload_$fault.nettrace
		[ -f "$f" ] || continue
		if "$floor" "$f" >"$work/out" 2>&1; then
			notok "$(basename "$f") is accepted: $(cat "$work/out")"
		elif grep -q 'does not fit its template' "$work/out"; then
			ok "$(basename "$f") is rejected: $(cat "$work/out")"
		else
			notok "$(basename "$f") is rejected for another reason: $(cat "$work/out")"
		fi
	done
done
echo "1..$n"
