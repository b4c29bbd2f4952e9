#!/bin/sh
# docs/spec.md, errata.md and diagnostics.md are generated from the spec and
# committed; they must match what specgen.py makes from today's spec.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${PYTHON3:=python3}"
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
"$PYTHON3" "$top_srcdir/spec/specgen.py" "$top_srcdir" docs "$work" || { echo "not ok 1 - specgen docs ran"; echo "1..1"; exit 1; }
n=0 fail=0
for f in spec.md errata.md diagnostics.md; do
	n=$((n + 1))
	if diff -u "$top_srcdir/docs/$f" "$work/$f" >"$work/diff" 2>&1; then
		echo "ok $n - docs/$f is up to date"
	else
		echo "not ok $n - docs/$f is stale: run 'make docs'"
		head -20 "$work/diff" | sed 's/^/# /'
		fail=1
	fi
done
echo "1..$n"
exit $fail
