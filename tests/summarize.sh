#!/bin/sh
# Print the suite's closing line, 'N passed, N failed, N skipped', from the
# .trs files automake's test driver left under the build trees named, and fail when any
# test point failed or errored.
set -eu
[ $# -gt 0 ] || set -- .
find "$@" -name '*.trs' -exec cat {} + 2>/dev/null | awk '
	/^:test-result: PASS/ { p++ } /^:test-result: XFAIL/ { p++ }
	/^:test-result: FAIL/ { f++ } /^:test-result: XPASS/ { f++ } /^:test-result: ERROR/ { f++ }
	/^:test-result: SKIP/ { s++ }
	END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0) }'
