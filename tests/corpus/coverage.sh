#!/bin/sh
# The committed corpus keeps its coverage: every event-version in every
# container gcgen writes, at pointer sizes 4 and 8; every value of every value
# map; every fault class; every diagnostic code required by a case or listed
# (with a reason) as uncovered, and that list exact. `make coverage-report`
# prints the same report.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
echo "1..1"
"$top_builddir/gen/gcgen" --list-mutations=all >"$work/classes" &&
	"$top_builddir/gen/gcgen" --list-formats >"$work/formats" || { echo "not ok 1 - gcgen lists"; exit 1; }
if "$top_builddir/corpus/tools/gccorpus" coverage "$top_srcdir/corpus" "$work/classes" \
	"$work/formats" >"$work/report" 2>&1; then
	echo "ok 1 - coverage complete"
	sed 's/^/# /' "$work/report"
else
	echo "not ok 1 - the corpus lost coverage"
	grep -E 'missing|wrong|coverage:' "$work/report" | head -30 | sed 's/^/# /'
	exit 1
fi
