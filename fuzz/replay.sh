#!/bin/sh
# replay.sh - make check's regression run: every harness's seed corpus
# (generated from gcgen here, as fuzz/seeds.sh describes) and every saved
# crash input under fuzz/regress/<harness>/ through the plain-main replay
# drivers, so that fixed bugs stay fixed on any compiler. TAP.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
# The compare harness finds corpus cases' events files here.
GCCONFORM_CORPUS=$(cd "$s" && pwd)/corpus
export GCCONFORM_CORPUS
for h in model nettrace ctf etl decode compare gcgen_args; do
	sh "$s/fuzz/seeds.sh" "$h" "$tmp/$h" "$b/gen/gcgen" "$b/fuzz/fuzz_tool" >"$tmp/$h.log" 2>&1
	ok $? "seed corpus for $h generated ($(ls "$tmp/$h" 2>/dev/null | wc -l) files)"
	dirs="$tmp/$h"
	[ -d "$s/fuzz/regress/$h" ] && dirs="$dirs $s/fuzz/regress/$h"
	# shellcheck disable=SC2086
	"$b/fuzz/replay_$h" $dirs >"$tmp/$h.out" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/$h.out" | sed "s|$tmp/||; s|$s/||"
	ok $rc "replay_$h: seeds and saved crash inputs pass every invariant"
done
# The saved inputs are not empty directories: each reader has its history.
for h in model nettrace ctf etl decode; do
	c=$(find "$s/fuzz/regress/$h" -type f ! -name '.*' 2>/dev/null | wc -l)
	echo "# fuzz/regress/$h: $c saved inputs"
done
echo "1..$n"
exit $fail
