#!/bin/sh
# The main job (placeholder until gcgen and gcoracle land): summarise the spec.
set -eu
builddir=$1
"$builddir/tests/spec/dump_tables" | awk '
	$1 == "event" { n++; p[$2]++ } $1 == "map" { m++ } $1 == "diag" { d++ }
	END { printf "spec: %d event-versions, %d value maps, %d diagnostic codes\n", n, m, d
	      for (k in p) printf "  %-40s %d event-versions\n", k, p[k] }'
