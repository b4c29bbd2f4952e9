#!/bin/sh
# bt2ctf_test.sh - babeltrace2's CTF reader under the bt2ctf harness: a
# valid trace is accepted, in a directory and as a ustar archive; a reader
# abort and a reader that eats memory are recorded (crash, memory) without
# taking the harness down, and the input is saved. The recorded babeltrace2
# findings (fuzz/findings/babeltrace2-<version>/) still reproduce with the
# installed version when it is the one they were found with. TAP.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
x=$b/fuzz/bt2ctf
if [ ! -x "$x" ]; then
	echo "1..0 # SKIP configure found no libbabeltrace2 (Debian: libbabeltrace2-dev): bt2ctf not built"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
"$PYTHON3" "$s/fuzz/mkctf.py" "$tmp/ok" --tar "$tmp/ok.tar"
"$PYTHON3" "$s/fuzz/mkctf.py" "$tmp/abort" --packet-size 9223372036854775808 --tar "$tmp/abort.tar"
"$PYTHON3" "$s/fuzz/mkctf.py" "$tmp/short" --content-size 8
"$x" "$tmp/ok" "$tmp/ok.tar" "$tmp/short" >"$tmp/out" 2>&1
grep -q '^2 accept, 1 reject, 0 crash, 0 timeout, 0 memory$' "$tmp/out"
ok $? "a valid trace is read (directory and archive), a too-short content size is rejected"
"$x" -o "$tmp/found" -t 20 -m 512 "$tmp/abort.tar" "$tmp/ok" >"$tmp/out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/out"
grep -q '^crash .*signal 6' "$tmp/out" && grep -q '^1 accept, 0 reject, 1 crash' "$tmp/out" && [ $rc -eq 1 ]
ok $? "an abort in babeltrace2 is a crash verdict, and the harness goes on to the next trace"
cmp -s "$tmp/found/abort.tar" "$tmp/abort.tar"; ok $? "the crashing input is saved"
version=$(babeltrace2 --version 2>/dev/null | sed -n 's/^Babeltrace \([0-9.]*\).*/\1/p' | head -1)
dir=$s/fuzz/findings/babeltrace2-${version:-none}
if [ -d "$dir" ]; then
	for f in "$dir"/*/; do
		"$x" -t 5 -m 512 "$f" >"$tmp/out" 2>&1
		v=$(head -1 "$tmp/out" | cut -d' ' -f1)
		[ "$v" = crash ] || [ "$v" = memory ] || [ "$v" = timeout ]
		ok $? "babeltrace2 $version finding $(basename "$f") still reproduces ($v)"
	done
else
	n=$((n + 1))
	echo "ok $n # SKIP no recorded findings for babeltrace2 ${version:-(not found)}"
fi
# Malformed limits are refused, not taken as no limit.
for bad in "-t nan" "-t inf" "-t 0" "-t 2s" "-m abc" "-m -1" "-m 1G"; do
	"$x" $bad "$tmp/ok" >/dev/null 2>&1; rc=$?
	[ $rc = 2 ]
	ok $? "bt2ctf $bad is bad usage (exit $rc)"
done
# babeltrace2's Python bindings (python3-bt2, for Debian's /usr/bin/python3) go
# their own way on a failed source: their recorded findings are checked with
# bt2.TraceCollectionMessageIterator while the installed bindings are that version.
vp=$(/usr/bin/python3 -c 'import bt2; print(bt2.__version__)' 2>/dev/null)
dir=$s/fuzz/findings/babeltrace2-python-${vp:-none}
if [ -n "$vp" ] && [ -d "$dir" ]; then
	for f in "$dir"/*/; do
		timeout 20 /usr/bin/python3 -c 'import sys, bt2
for m in bt2.TraceCollectionMessageIterator(sys.argv[1]): pass' "$f" >/dev/null 2>&1
		rc=$?
		[ $rc -ge 128 ] && [ $rc -ne 124 ]
		ok $? "babeltrace2 Python $vp finding $(basename "$f") still reproduces (exit $rc: a signal)"
	done
else
	n=$((n + 1))
	echo "ok $n # SKIP no recorded findings for babeltrace2's Python bindings ${vp:-(not installed)}"
fi

# babeltrace 1 (Debian's babeltrace, a peer of the peer table) shares no code
# path with this harness: its recorded findings are checked with its CLI under
# a time limit, while the installed version is the one they were found with.
v1=$(babeltrace --help 2>&1 | sed -n 's/^BabelTrace Trace Viewer and Converter \([0-9.]*\).*/\1/p' | head -1)
dir=$s/fuzz/findings/babeltrace-${v1:-none}
if [ -n "$v1" ] && [ -d "$dir" ]; then
	for f in "$dir"/*/; do
		timeout 5 babeltrace "$f" >/dev/null 2>&1
		[ $? -eq 124 ]
		ok $? "babeltrace $v1 finding $(basename "$f") still reproduces (timeout)"
	done
else
	n=$((n + 1))
	echo "ok $n # SKIP no recorded findings for babeltrace ${v1:-1 (not installed)}"
fi
echo "1..$n"
exit $fail
