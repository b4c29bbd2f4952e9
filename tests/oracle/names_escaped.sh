#!/bin/sh
# Names from the command line and the accept file reach the terminal escaped
# (util/esc.c), and the small refusals of issue 28: gcgen --mutate with an
# empty class name, an accept-file line holding a NUL byte.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
oracle=$top_builddir/oracle/gcoracle
gcgen=$top_builddir/gen/gcgen
corpus=$top_srcdir/corpus
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
esc=$(printf '\033')
cr=$(printf '\r')
bad="$work/x${esc}[2J${cr}y"
raw() { LC_ALL=C grep -q "[$esc$cr]" "$work/err"; }

for list in , '' 'truncate,,x' 'truncate,'; do
	"$gcgen" --mutate "$list" -o "$work/o.cbor" 2>"$work/err"
	rc=$?
	[ $rc = 2 ] && grep -q "empty fault class name" "$work/err" && [ ! -f "$work/o.cbor" ]
	ok $? "gcgen --mutate '$list': refused, an empty class name (exit $rc)"
done
"$gcgen" --mutate "a${esc}[2Jb" -o "$work/o.cbor" 2>"$work/err"
[ $? = 2 ] && ! raw && grep -q "unknown fault class 'a\\\\x1b\[2Jb'" "$work/err"
ok $? "gcgen: an unknown class name is escaped in its message"
"$gcgen" -o "$bad/o.cbor" 2>"$work/err"
[ $? != 0 ] && ! raw && grep -q 'x\\x1b\[2J\\x0dy' "$work/err"
ok $? "gcgen: an output path with control characters is escaped in its message"

"$oracle" "$bad" 2>"$work/err"
[ $? != 0 ] && ! raw && grep -q 'x\\x1b\[2J\\x0dy: No such file' "$work/err"
ok $? "gcoracle: an input path with control characters is escaped"
"$oracle" --expect "$bad" "$corpus/cases/y_nettrace_v5_realistic_net8.nettrace" >/dev/null 2>"$work/err"
[ $? != 0 ] && ! raw && grep -q 'x\\x1b\[2J\\x0dy' "$work/err"
ok $? "gcoracle --expect: the path is escaped"
"$oracle" compare "$corpus/expect/y_nettrace_v5_realistic_net8.cbor" "$bad" 2>"$work/err"
[ $? = 2 ] && ! raw && grep -q 'x\\x1b\[2J\\x0dy' "$work/err"
ok $? "gcoracle compare: the output path is escaped"
"$oracle" compare "$bad" - </dev/null 2>"$work/err"
[ $? = 2 ] && ! raw && grep -q 'x\\x1b\[2J\\x0dy' "$work/err"
ok $? "gcoracle compare: the expectation path is escaped"
"$oracle" run --corpus "$corpus" --accept "$bad" -- true 2>"$work/err"
[ $? = 2 ] && ! raw && grep -q 'x\\x1b\[2J\\x0dy' "$work/err"
ok $? "gcoracle run --accept: the path is escaped"
"$oracle" run --corpus "$bad" -- true 2>"$work/err"
[ $? = 2 ] && ! raw && grep -q 'x\\x1b\[2J\\x0dy' "$work/err"
ok $? "gcoracle run --corpus: the path is escaped"
"$oracle" run --corpus "$corpus" --case y_nettrace_v5_realistic_net8 -- "$bad" >/dev/null 2>"$work/err"
[ $? = 2 ] && ! raw && grep -q 'cannot run .*x\\x1b\[2J\\x0dy' "$work/err"
ok $? "gcoracle run: a decoder that cannot be run is named escaped"

printf 'gcconform-accepted-differences 1\nvalue GCStart_V2 De\000pth a reason\n' >"$work/acc"
"$oracle" run --corpus "$corpus" --accept "$work/acc" -- true 2>"$work/err"
[ $? = 2 ] && grep -q "acc:2: the line holds a NUL byte" "$work/err"
ok $? "an accept-file line holding a NUL is reported as such"
{ printf 'gcconform-accepted-differences 1\n'; head -c 3000 /dev/zero | tr '\0' a; echo; } >"$work/acc"
"$oracle" run --corpus "$corpus" --accept "$work/acc" -- true 2>"$work/err"
[ $? = 2 ] && grep -q "acc:2: line longer than 2047 bytes" "$work/err"
ok $? "an accept-file line of 3000 bytes is still too long"
echo "1..$n"
exit $fail
