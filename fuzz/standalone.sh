#!/bin/sh
# standalone.sh - the gcmutator example harness linked as another project
# links it (gcmutator.h, libgcmutator.a, libcbor), run on gcgen streams.
set -u
b=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in v4 v5 v6; do
	"$b/gen/gcgen" -q -f "nettrace-$v" -g 2 -s 7 --stacks -o "$tmp/$v" || { echo "1..0 # SKIP gcgen failed"; exit 0; }
done
exec "$b/fuzz/gcm_standalone" "$tmp/v4" "$tmp/v5" "$tmp/v6"
