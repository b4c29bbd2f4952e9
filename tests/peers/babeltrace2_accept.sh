#!/bin/sh
# A decoder built on babeltrace2 2.0.4 (tests/peers/adapters/bt2_adapter.py, on
# python3-bt2) passes every y_ CTF case of the corpus with the shipped accepted
# differences (accepted/babeltrace2-2.0.4.accept, docs/accepted-differences.md),
# and every entry of that file still occurs; through gcoracle run, as a user
# would. Without it, the same run fails: the file is what makes the difference.
# Skips, saying why, without python3-bt2 or when its version is not 2.0.4.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
oracle=$top_builddir/oracle/gcoracle
accept=$top_srcdir/accepted/babeltrace2-2.0.4.accept
adapter=$top_srcdir/tests/peers/adapters/bt2_adapter.py
# python3-bt2 is built for Debian's own python3 (docs/peers.md).
py=/usr/bin/python3
ver=$("$py" -c 'import bt2; print(bt2.__version__)' 2>/dev/null) ||
	{ echo "1..0 # SKIP python3-bt2 (babeltrace2's Python bindings) is not installed"; exit 0; }
[ "$ver" = 2.0.4 ] || { echo "1..0 # SKIP python3-bt2 is $ver; the accepted differences are those of 2.0.4"; exit 0; }
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
ncases=$(ls "$top_srcdir/corpus/cases" | grep -c '^y_ctf_')

"$oracle" run --corpus "$top_srcdir/corpus" --prefix y_ --container ctf --accept "$accept" \
	--tap "$work/tap" -- "$py" "$adapter" {} >"$work/sum" 2>&1
rc=$?
sed 's/^/# /' "$work/sum"
[ $rc = 0 ] && grep -q "^ctf        y_ *$ncases *0 *0\$" "$work/sum"
ok $? "babeltrace2 $ver passes all $ncases y_ CTF cases with $(basename "$accept"), every entry occurring"
[ $rc = 0 ] || grep -A12 '^not ok' "$work/tap" | head -40 | sed 's/^/# /'

"$oracle" run --corpus "$top_srcdir/corpus" --prefix y_ --container ctf --quiet \
	-- "$py" "$adapter" {} >"$work/sum2" 2>&1
[ $? = 1 ]
ok $? "without the accepted differences the same decoder fails"
echo "1..$n"
exit $fail
