#!/bin/sh
# gcm_symbols.sh - the installed libgcmutator.a defines no global symbol but
# the gcm_* functions gcmutator.h declares: anything else (the oracle's and
# gen's internals) would clash with names in the project that links it.
set -u
lib=$top_builddir/fuzz/libgcmutator.a
hdr=$top_srcdir/fuzz/gcmutator/gcmutator.h
echo "1..3"
if ! command -v nm >/dev/null 2>&1; then
	echo "ok 1 # SKIP no nm"; echo "ok 2 # SKIP no nm"; echo "ok 3 # SKIP no nm"; exit 0
fi
syms=$(nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u)
others=$(echo "$syms" | grep -v '^gcm_' | grep -v '^$')
if [ -z "$others" ]; then
	echo "ok 1 - every global symbol libgcmutator.a defines is gcm_*"
else
	echo "not ok 1 - libgcmutator.a defines $(echo "$others" | wc -l) global symbols that are not gcm_*:"
	echo "$others" | head -20 | sed 's/^/# /'
fi
# The public functions: every gcm_ name gcmutator.h declares as a function.
public=$(sed -n 's/^[a-z].*[ *]\(gcm_[a-z_]*\)(.*/\1/p' "$hdr" | sort -u)
if [ "$syms" = "$public" ]; then
	echo "ok 2 - it defines exactly the functions gcmutator.h declares ($(echo $public))"
else
	echo "not ok 2 - defined: $(echo $syms); declared: $(echo $public)"
fi
# And the declared functions are there at all (a header that declares none
# would make test 2 pass on an empty library).
if [ "$(echo "$public" | grep -c .)" -ge 4 ]; then
	echo "ok 3 - gcmutator.h declares $(echo "$public" | grep -c .) functions"
else
	echo "not ok 3 - found only $(echo "$public" | grep -c .) gcm_ functions in gcmutator.h"
fi
