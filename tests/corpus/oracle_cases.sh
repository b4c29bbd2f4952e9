#!/bin/sh
# gcoracle as a decoder of the whole corpus: for every case, its JSON lines
# held against the case's expectation by gcoracle compare. y_ cases decode
# with zero errors to exactly the values gcgen encoded; n_ cases raise their
# diagnostics; i_ cases one of their allowed outcomes. --all-events: every
# event must be there even after an error.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
oracle=$top_builddir/oracle/gcoracle
corpus=$top_srcdir/corpus
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
for e in "$corpus"/expect/*.cbor; do
	name=$(basename "$e" .cbor)
	n=$((n + 1))
	set -- "$corpus"/cases/"$name".*
	"$oracle" --json "$1" >"$work/out" 2>"$work/err"
	if "$oracle" compare --quiet --all-events "$e" "$work/out" >"$work/cmp" 2>&1; then
		echo "ok $n - $(tail -1 "$work/cmp")"
	else
		echo "not ok $n - $name"
		head -12 "$work/cmp" | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
