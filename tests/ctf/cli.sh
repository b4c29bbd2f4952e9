#!/bin/sh
# The CTF format through the command lines: gcgen writes a trace directory
# atomically and deterministically and never replaces what it did not write;
# gcoracle reads a trace directory, finds traces below a session directory,
# names files in its diagnostics, and says why when it cannot read one;
# container fault expectations name the file. TAP.
set -u
: "${top_builddir:=.}"
gcgen=$top_builddir/gen/gcgen
oracle=$top_builddir/oracle/gcoracle
t=$(mktemp -d) || exit 99
trap 'rm -rf "$t"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

"$gcgen" --help | grep -q '^  ctf  *(dir) LTTng CTF'
ok $? "gcgen --help lists ctf as a directory format"
"$gcgen" -q -f ctf --gcs 3 >/dev/null 2>"$t/err"; r=$?
[ $r = 2 ] && grep -q "writes a directory: give -o DIR" "$t/err"
ok $? "ctf without -o exits 2 and asks for a directory"
"$gcgen" -q -f ctf --gcs 20 --seed 4 -o "$t/a" && "$gcgen" -q -f ctf --gcs 20 --seed 4 -o "$t/b" &&
	diff -r "$t/a" "$t/b" >/dev/null
ok $? "same seed and options: byte-identical trace directories"
[ -f "$t/a/metadata" ] && ls "$t/a" | grep -q '^channel0_[0-9]*$'
ok $? "the trace holds metadata and channel0_<cpu> stream files"
cp -r "$t/a" "$t/a.before"
"$gcgen" -q -f ctf --gcs 20 --seed 5 -o "$t/a" && ! diff -r "$t/a" "$t/a.before" >/dev/null &&
	[ -z "$(ls -d "$t"/a.tmp* "$t"/a.old* 2>/dev/null)" ]
ok $? "writing over a trace replaces it and leaves no temporary directory"
mkdir "$t/mine" && echo keep >"$t/mine/notes.txt"
"$gcgen" -q -f ctf --gcs 3 -o "$t/mine" 2>"$t/err"; r=$?
[ $r = 1 ] && [ "$(cat "$t/mine/notes.txt")" = keep ] && grep -q "not a trace gcgen wrote" "$t/err" &&
	[ -z "$(ls -d "$t"/mine.tmp* 2>/dev/null)" ]
ok $? "a directory gcgen did not write is left alone (exit 1, nothing left behind)"
echo old >"$t/file"
"$gcgen" -q -f ctf --gcs 3 -o "$t/file" && [ -f "$t/file/metadata" ]
ok $? "a regular file at the output path is replaced by the trace"
"$gcgen" -q -f ctf -m exhaustive --mutate drop-gcend -o "$t/refused" 2>/dev/null; r=$?
[ $r = 2 ] && [ ! -e "$t/refused" ] && [ -z "$(ls -d "$t"/refused.tmp* 2>/dev/null)" ]
ok $? "a refused run leaves no directory"

# gcoracle
"$oracle" --quiet "$t/b" >"$t/direct"
ok $? "gcoracle reads a trace directory (exit 0)"
mkdir -p "$t/session/ust/uid/0/64-bit" && cp "$t/b"/* "$t/session/ust/uid/0/64-bit/"
"$oracle" --quiet "$t/session" >"$t/below" && cmp -s "$t/direct" "$t/below"
ok $? "a session directory: the trace below it is read the same"
mkdir -p "$t/two/x" "$t/two/y" && cp "$t/b"/* "$t/two/x/" && cp "$t/b"/* "$t/two/y/"
e1=$("$oracle" --json "$t/b" | grep -c '"type":"event"')
e2=$("$oracle" --json "$t/two" | grep -c '"type":"event"')
[ "$e2" -eq $((2 * e1)) ]
ok $? "two traces below a directory are both read ($e1 + $e1 events)"
mkdir "$t/empty"
"$oracle" "$t/empty" >/dev/null 2>"$t/err"; r=$?
[ $r = 2 ] && grep -q "no trace this oracle reads" "$t/err"
ok $? "a directory without a trace: exit 2 and why"
"$oracle" --format ctf "$t/empty" >"$t/out" 2>&1
grep -q 'GC-C001 error: metadata byte 0: the trace has no readable, non-empty metadata file' "$t/out"
ok $? "--format ctf on a directory without metadata: GC-C001"
"$oracle" --format ctf "$t/b/metadata" >/dev/null 2>"$t/err"; r=$?
[ $r = 2 ] && grep -q "is a directory, not a file" "$t/err"
ok $? "--format ctf on a file: exit 2 and why"
"$gcgen" -q -f ctf --gcs 30 --seed 2 --mutate ctf-packet-magic -o "$t/m" --expect "$t/e" &&
	grep -q '^{"code":"GC-C007","file":"channel0_[0-9]*","offset":[0-9]*}$' "$t/e"
ok $? "a container fault's expectation names the file and the offset in it"
"$oracle" --json "$t/m" | grep -q '"code":"GC-C007","severity":"error","event":null,"offset":[0-9]*,"file":"channel0_[0-9]*","file_offset":[0-9]*,'
ok $? "JSON diagnostics carry the trace offset, the file and the offset in the file"
"$oracle" "$t/m" | grep -q '^GC-C007 error: channel0_[0-9]* byte [0-9]*: packet magic'
ok $? "text diagnostics name the file"
"$oracle" --expect "$t/e" "$t/m" >/dev/null
ok $? "gcoracle --expect agrees with the expectation"
sed 's/"file":"channel0_[0-9]*"/"file":"metadata"/' "$t/e" >"$t/e2"
! "$oracle" --expect "$t/e2" "$t/m" >/dev/null 2>&1
ok $? "the same offset in another file does not meet it"
echo "1..$n"
exit $fail
