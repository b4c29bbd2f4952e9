#!/bin/sh
# The worked example of docs/using-the-corpus.md, run as a project that
# vendors the corpus would run it: its own decoder (tests/corpus/tinydec.c,
# which includes nothing of gcconform) decodes every case and checks itself
# through `gcoracle compare`. The decoder declares what it supports (nettrace
# V5, eight GC event-versions, container and payload checks, no gcconform
# codes); compare skips the other formats and passes over the other events,
# saying so. Fails when a case it supports is decoded wrongly.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
decoder=$top_builddir/tests/corpus/tinydec
oracle=$top_builddir/oracle/gcoracle
corpus=${GCCONFORM_CORPUS:-$top_srcdir/corpus}
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0 y=0 nn=0 i=0 skipped=0
for expect in "$corpus"/expect/*.cbor; do
	name=$(basename "$expect" .cbor)
	set -- "$corpus"/cases/"$name".*
	"$decoder" "$1" >"$work/out" 2>/dev/null
	"$oracle" compare --json "$expect" "$work/out" >"$work/cmp" 2>&1
	rc=$?
	result=$(sed -n 's/.*"type":"compare".*"result":"\([a-zA-Z]*\)".*/\1/p' "$work/cmp")
	# A case of a format tinydec does not read is skipped by compare itself:
	# counted below, not a test of its own.
	if [ "$rc" = 0 ] && [ "$result" = skip ]; then
		skipped=$((skipped + 1))
		continue
	fi
	n=$((n + 1))
	if [ "$rc" = 0 ]; then
		echo "ok $n - $name: $(sed -n 's/.*"events_compared":\([0-9]*\).*"events_unsupported":\([0-9]*\).*/\1 events compared, \2 not supported/p' "$work/cmp")"
		case $name in y_*) y=$((y + 1));; n_*) nn=$((nn + 1));; i_*) i=$((i + 1));; esac
	else
		echo "not ok $n - $name"
		grep '"severity":"error"' "$work/cmp" | head -8 | sed 's/^/# /'
		fail=1
	fi
done
# Not vacuous: the decoder was held against cases of every class.
n=$((n + 1))
if [ $y -gt 0 ] && [ $nn -gt 0 ] && [ $i -gt 0 ]; then
	echo "ok $n - tinydec passed $y y_, $nn n_ and $i i_ cases; compare skipped $skipped cases of formats it does not read"
else
	echo "not ok $n - tinydec was compared on $y y_, $nn n_, $i i_ cases: some class is missing"
	fail=1
fi
echo "1..$n"
exit $fail
