#!/bin/sh
# gcoracle's promises about its output and its inputs (gcoracle(1) FILES and
# EXIT STATUS), held as a hostile or unlucky user would test them: every
# write checked, bytes from the input never reaching a terminal raw, text
# from the input kept as the UTF-8 it is, the same summary from a file and a
# pipe, bounded work and memory on junk, no file outside a trace directory
# read through a link, and nothing skipped silently. TAP.
b=$(cd "${top_builddir:-.}" && pwd)
s=$(cd "${top_srcdir:-.}" && pwd)
o=$b/oracle/gcoracle
gcgen=$b/gen/gcgen
rusage=$b/tests/oracle/rusage
t=$(mktemp -d) || exit 1
trap 'chmod -R u+rwx "$t" 2>/dev/null; rm -rf "$t"' EXIT
n=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
py=${PYTHON3:-python3}

"$gcgen" -q --gcs 5 -o "$t/s.cbor" -e "$t/s.expect"
"$gcgen" -q -f ctf --gcs 5 -o "$t/trace"

# --- item 5: every write checked --------------------------------------------
if [ -w /dev/full ]; then
	for args in "" "--json" "--cbor" "--quiet" "--expect $t/s.expect"; do
		"$o" $args "$t/s.cbor" > /dev/full 2>"$t/err"; r=$?
		[ $r = 2 ] && grep -q "standard output" "$t/err"
		ok $? "gcoracle $args FILE > /dev/full exits 2 and says why (got $r)"
	done
	for args in "--help" "--version"; do
		"$o" $args > /dev/full 2>/dev/null; r=$?
		[ $r = 2 ]
		ok $? "gcoracle $args > /dev/full exits 2 (got $r)"
	done
	case_=$(ls "$s/corpus/expect" | head -1)
	"$o" compare --print "$s/corpus/expect/$case_" > /dev/full 2>"$t/err"; r=$?
	[ $r = 2 ] && grep -q "standard output" "$t/err"
	ok $? "gcoracle compare --print > /dev/full exits 2 (got $r)"
else
	skip "no writable /dev/full"
fi

# --- item 11: bytes from the input are escaped in text output ---------------
rm -rf "$t/esc" && cp -r "$t/trace" "$t/esc"
# A name of the same length keeps the metadata packets' sizes: ESC ] 0 ; ...
# BEL retitles a terminal, ESC [ 31 m recolours it, a newline forges a line.
$py - "$t/esc/metadata" <<'PY'
import sys
p = sys.argv[1]
b = open(p, 'rb').read()
old = b'DotNETRuntime:GCStart_V2'
new = b'\x1b]0;pwned\x07\x1b[31m\\nGC-FAKE'
assert len(new) == len(old), (len(new), len(old))
open(p, 'wb').write(b.replace(old, new))
PY
"$o" "$t/esc" > "$t/out" 2>&1
! grep -q "$(printf '\033')" "$t/out" && ! grep -q "$(printf '\007')" "$t/out" &&
	! grep -q '^GC-FAKE' "$t/out" && grep -q 'GC-FAKE' "$t/out"
ok $? "text output escapes control bytes from the input (no ESC, no BEL, no forged line)"
"$o" --json "$t/esc" | $py -c '
import json, sys
for l in sys.stdin:
    json.loads(l)
' && ! "$o" --json "$t/esc" | grep -q "$(printf '\033')"
ok $? "JSON output stays valid and escapes the same bytes"

# --- item 12: UTF-8 names from CTF metadata stay UTF-8 ----------------------
rm -rf "$t/utf" && cp -r "$t/trace" "$t/utf"
$py - "$t/utf/metadata" <<'PY'
import sys
p = sys.argv[1]
b = open(p, 'rb').read()
old = b'DotNETRuntime:GCStart_V2'
new = 'DotNETRuntime:GCStär_V2'.encode()
assert len(new) == len(old)
open(p, 'wb').write(b.replace(old, new))
PY
"$o" --json "$t/utf" > "$t/out"
grep -q '"provider":"DotNETRuntime:GCStär_V2"' "$t/out" && ! grep -q 'Ã' "$t/out"
ok $? "JSON: a UTF-8 name from CTF metadata is written once, not double-encoded"
"$o" --cbor "$t/utf" | $py -c '
import sys
b = sys.stdin.buffer.read()
sys.exit(0 if "GCStär_V2".encode() in b and "Ã".encode() not in b else 1)'
ok $? "CBOR: the same name is the same UTF-8"

# --- item 13: the same bytes give the same summary from a file and a pipe ---
bad=0; nf=0
for f in "$s"/corpus/cases/*; do
	[ -f "$f" ] || continue
	nf=$((nf + 1))
	a=$("$o" --json "$f" 2>/dev/null | tail -1)
	p=$(cat "$f" | "$o" --json - 2>/dev/null | tail -1)
	[ "$a" = "$p" ] || { bad=$((bad + 1)); [ $bad = 1 ] && echo "# $f: file: $a" && echo "# pipe: $p"; }
done
[ $bad = 0 ] && [ $nf -gt 0 ]
ok $? "summaries agree from a file and from a pipe ($bad of $nf corpus files differ)"

# --- item 8: junk after a valid model header costs bounded work -------------
hb=$("$o" --json "$t/s.cbor" | $py -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("type") == "event":
        print(r["offset"]); break')
head -c "$hb" "$t/s.cbor" > "$t/zeros.cbor"
head -c 5000000 /dev/zero >> "$t/zeros.cbor"
"$rusage" -o "$t/zeros.json" -- "$o" --json "$t/zeros.cbor" > "$t/ru"
lines=$(wc -l < "$t/zeros.json")
[ "$lines" -lt 1000 ] && grep -q '"GC-M006"' "$t/zeros.json"
ok $? "a header and 5 MB of zeros: a bounded number of diagnostics and a summary one ($lines lines, $(cat "$t/ru"))"
truncate -s 5G "$t/sparse.cbor" 2>/dev/null && head -c "$hb" "$t/s.cbor" | dd of="$t/sparse.cbor" conv=notrunc 2>/dev/null
if [ -s "$t/sparse.cbor" ]; then
	"$rusage" -- timeout 60 "$o" --quiet "$t/sparse.cbor" > "$t/ru"
	w=$(sed -n 's/.*wall=\([0-9]*\).*/\1/p' "$t/ru")
	[ "${w:-99}" -lt 20 ]
	ok $? "a 5 GiB sparse model stream is given up on quickly ($(cat "$t/ru"))"
	rm -f "$t/sparse.cbor"
else
	skip "cannot make a sparse file"
fi

# --- item 9: compare's memory is bounded by what a case can need ------------
if [ -n "${ORACLE_SAN_CFLAGS:-}" ]; then
	skip "sanitizers change what memory a process holds"
	skip "sanitizers change what memory a process holds"
else
"$rusage" -- "$o" compare /dev/zero /dev/null > "$t/ru" 2>/dev/null
kb=$(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$t/ru")
[ "${kb:-999999999}" -lt 150000 ]
ok $? "compare /dev/zero stops reading early ($(cat "$t/ru"))"
case_=$(ls "$s/corpus/expect" | grep '^y_' | head -1)
$py -c '
import sys
sys.stdout.write("{\"type\":\"event\",\"index\":0,\"fields\":{\"x\":[" + ",".join(["0"] * 30000000) + "]}}\n")
' > "$t/long.json"
"$rusage" -- "$o" compare "$s/corpus/expect/$case_" "$t/long.json" > "$t/ru" 2>/dev/null
kb=$(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$t/ru")
[ "${kb:-999999999}" -lt 300000 ]
ok $? "a 60 MB decoder line does not become a 1 GB tree ($(cat "$t/ru"))"
rm -f "$t/long.json"
fi

# --- item 14: no link out of a trace directory is followed ------------------
rm -rf "$t/link" && cp -r "$t/trace" "$t/link"
printf 'secret-bytes-outside-the-trace\n' > "$t/outside"
ln -s "$t/outside" "$t/link/channel0_9"
"$o" "$t/link" > "$t/out" 2>&1
! grep -q "secret" "$t/out" && grep -q "GC-C019" "$t/out"
ok $? "a stream file linking out of the trace is refused with GC-C019, its bytes never quoted"
rm -rf "$t/link2" && cp -r "$t/trace" "$t/link2" && mv "$t/link2/channel0_1" "$t/link2/data1" &&
	ln -s data1 "$t/link2/channel0_1"
"$o" --json "$t/link2" > "$t/out" 2>&1; r=$?
! grep -q "GC-C019" "$t/out"
ok $? "a link inside the trace directory is read (exit $r)"

# --- item 6: a stream file that cannot be read is reported -----------------
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	rm -rf "$t/perm" && cp -r "$t/trace" "$t/perm" && chmod 755 "$t" "$t/perm" &&
		chmod 644 "$t"/perm/* && chmod 000 "$t/perm/channel0_1"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$o" "$t/perm" > "$t/out" 2>&1; r=$?
	[ $r = 1 ] && grep -q "GC-C018.*channel0_1" "$t/out"
	ok $? "an unreadable stream file is an error, GC-C018 naming it (exit $r)"
	chmod 644 "$t/perm/channel0_1"
elif [ "$(id -u)" != 0 ]; then
	rm -rf "$t/perm" && cp -r "$t/trace" "$t/perm" && chmod 000 "$t/perm/channel0_1"
	"$o" "$t/perm" > "$t/out" 2>&1; r=$?
	[ $r = 1 ] && grep -q "GC-C018.*channel0_1" "$t/out"
	ok $? "an unreadable stream file is an error, GC-C018 naming it (exit $r)"
	chmod 644 "$t/perm/channel0_1"
else
	skip "root without setpriv: cannot make a file unreadable"
fi

# --- item 15: --expect reads long lines; --strict labels warnings errors ----
pad=$(head -c 3000 /dev/zero | tr '\0' x)
printf '{"code":"GC-S005","event":1,"pad":"%s"}\n{"code":"GC-NOPE"}\n' "$pad" > "$t/long.expect"
"$o" --expect "$t/long.expect" "$t/s.cbor" > /dev/null 2>"$t/err"
grep -q 'long.expect:2: unknown code GC-NOPE' "$t/err"
ok $? "--expect reads a 3 KB line whole and reports the right line ($(head -1 "$t/err"))"
"$gcgen" -q -m exhaustive -o "$t/x.cbor"
"$o" --strict "$t/x.cbor" > "$t/out"; r=$?
[ $r = 1 ] && ! grep -q '^  GC-V002 warning' "$t/out" && grep -q '^  GC-V002 error' "$t/out"
ok $? "--strict: the summary counts and labels warnings as errors (exit $r)"

echo "1..$n"
