#!/bin/sh
# gcoracle run as a sandbox (docs/gcoracle-run.1, oracle/contain.c): nothing a
# decoder starts outlives its case however deep or detached; --memory and
# --max-output count every process it starts; the reports are not open in the
# decoder and what it prints cannot forge or break them; the report paths are
# checked before the first case and the results survive a run cut short.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}" "${PYTHON3:=python3}"
oracle=$top_builddir/oracle/gcoracle
corpus=$top_srcdir/corpus
work=$(mktemp -d) || exit 99
mark=$work/gcrun-mark
cleanup() {
	for p in $(pgrep -f "^$mark" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
run() {
	"$oracle" run --corpus "$corpus" "$@" >"$work/out" 2>"$work/err"
}
y=y_nettrace_v5_realistic_net8
cp "$(command -v sleep)" "$mark"

# 1. A chain of 150 processes, each the parent of the next, and a daemon
# double-forked into a session of its own: none is left when run returns.
cat >"$work/chain.sh" <<X
#!/bin/sh
if [ "\$1" -gt 0 ]; then "\$0" \$((\$1 - 1)) "\$2" & else : >"\$2"; fi
exec "$mark" 300
X
cat >"$work/tree.sh" <<X
#!/bin/sh
"$work/chain.sh" 150 "$work/chain-done" &
(setsid "$mark" 301 </dev/null >/dev/null 2>&1 &)
while [ ! -f "$work/chain-done" ]; do sleep 0.05; done
exec "$oracle" --json "\$1"
X
chmod +x "$work/chain.sh" "$work/tree.sh"
run --case $y -- "$work/tree.sh" {}
rc=$?
left=$(pgrep -f "^$mark" | wc -l)
[ $rc = 0 ] && [ -f "$work/chain-done" ] && [ "$left" = 0 ]
ok $? "a chain of 150 processes and a double-forked setsid daemon: none left (exit $rc, $left left)"
for p in $(pgrep -f "^$mark"); do kill -9 "$p"; done

# 2. --memory counts every process: a child of the decoder holding 600 MB
# fails the case at --memory 100.
cat >"$work/childhog.sh" <<X
#!/bin/sh
"$PYTHON3" -c 'import time; b = b"\\x01" * (600 << 20); time.sleep(5)'
exec "$oracle" --json "\$1"
X
chmod +x "$work/childhog.sh"
run --case $y --memory 100 --tap "$work/tap" -- "$work/childhog.sh" {}
rc=$?
[ $rc = 1 ] && grep -q '^# GC-K019 the decoder crashed: killed holding over 100 MB resident' "$work/tap"
ok $? "a child of the decoder holding 600 MB fails the case at --memory 100 (exit $rc)"

# 3. The decoder's descriptors are 0, 1 and 2: not the TAP or JUnit file,
# nothing else of the runner's.
cat >"$work/fds.sh" <<X
#!/bin/sh
exec "$PYTHON3" -c '
import os, sys, subprocess
fds = []
for fd in sorted(os.listdir("/proc/self/fd"), key=int):
    try:
        os.readlink("/proc/self/fd/" + fd)  # the listing'"'"'s own is closed by now
        fds.append(fd)
    except OSError:
        pass
open(sys.argv[1], "w").write(" ".join(fds) + "\\n")
os.execv(sys.argv[2], [sys.argv[2], "--json", sys.argv[3]])' "$work/fds" "$oracle" "\$1"
X
chmod +x "$work/fds.sh"
run --case $y --tap "$work/tap" --junit "$work/xml" -- "$work/fds.sh" {} 3>"$work/extra"
rc=$?
[ $rc = 0 ] && [ "$(cat "$work/fds")" = "0 1 2" ]
ok $? "the decoder has only descriptors 0 1 2 open ($(cat "$work/fds" 2>/dev/null), exit $rc)"

# 4. Every byte value on the decoder's standard error and standard output,
# lines that look like TAP, CR and ESC: the TAP has one test and its plan,
# nothing raw; the JUnit XML is well-formed UTF-8.
cat >"$work/bytes.py" <<'X'
import sys
junk = bytes(range(0, 10)) + b"\n" + bytes(range(11, 128)) + b"\n" + bytes(range(128, 256)) + b"\n"
forge = b"ok 1 - forged\r\x1b[2J\nBail out! x\r1..1\n"
sys.stderr.buffer.write(junk + forge)
sys.stdout.buffer.write(forge + junk)
sys.exit(1)
X
run --case $y --tap "$work/tap" --junit "$work/xml" -- "$PYTHON3" "$work/bytes.py" {}
rc=$?
bad=$(grep -cv -e '^not ok 1 - y_nettrace_v5_realistic_net8$' -e '^# ' -e '^1\.\.1$' "$work/tap")
[ $rc = 1 ] && [ "$bad" = 0 ] && ! LC_ALL=C grep -q "$(printf '[\r\033]')" "$work/tap" &&
	grep -q '^# stderr: ok 1 - forged\\x0d\\x1b\[2J$' "$work/tap" &&
	grep -q '^# stderr: \\x80\\x81' "$work/tap"
ok $? "TAP: the decoder's bytes cannot add a line or reach it raw (exit $rc, $bad stray lines)"
$PYTHON3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
text = d.getElementsByTagName("failure")[0].firstChild.data
assert "\\x1b[2J" in text and "\\xff" in text, text
' "$work/xml" 2>"$work/pyerr"
ok $? "JUnit: well-formed UTF-8 XML whatever the bytes ($(tail -1 "$work/pyerr"))"

# 5. A report path that cannot be written stops the run before the first case
# (it used to abort with a double free after all of them).
cat >"$work/mark.sh" <<X
#!/bin/sh
: >"$work/ran"
exec "$oracle" --json "\$1"
X
chmod +x "$work/mark.sh"
rm -f "$work/ran"
run --case $y --junit "$work/no/such/dir/x.xml" -- "$work/mark.sh" {}
rc=$?
[ $rc = 2 ] && [ ! -f "$work/ran" ] && grep -q 'no/such/dir/x.xml' "$work/err"
ok $? "--junit to a path that cannot be made: exit 2 before any case runs (exit $rc)"

# 6. A report is replaced whole: while the decoder runs, the old one is
# still in place.
cat >"$work/peek.sh" <<X
#!/bin/sh
cat "$work/tap" "$work/xml" >"$work/seen" 2>&1
exec "$oracle" --json "\$1"
X
chmod +x "$work/peek.sh"
echo old >"$work/tap"
echo old >"$work/xml"
run --case $y --tap "$work/tap" --junit "$work/xml" -- "$work/peek.sh" {}
rc=$?
[ $rc = 0 ] && [ "$(cat "$work/seen")" = "$(printf 'old\nold')" ] && tail -1 "$work/tap" | grep -qx '1\.\.1' &&
	[ -z "$(find "$work" -maxdepth 1 -name 'tap.*' -o -maxdepth 1 -name 'xml.*')" ]
ok $? "reports are replaced whole at the end, no temporary file left (exit $rc)"

# 7. A run cut short (the decoder cannot be run from the second case on)
# still writes the reports of the cases it ran, and says it bailed out.
cat >"$work/once.sh" <<X
#!/bin/sh
chmod -x "\$0"
exec "$oracle" --json "\$1"
X
chmod +x "$work/once.sh"
run --case $y --case n_nettrace_v5_container_undefined_metadata --tap "$work/tap" \
	--junit "$work/xml" -- "$work/once.sh" {}
rc=$?
[ $rc = 2 ] && grep -q '^ok 1 - ' "$work/tap" && grep -q '^Bail out!' "$work/tap" &&
	grep -q 'tests="1" failures="0"' "$work/xml"
ok $? "a run cut short keeps the results it has: TAP, JUnit, exit 2 (exit $rc)"

# 8. Output has a bound over the whole tree: a flooding decoder fails with
# a clear message, and no file it writes grows past the bound.
cat >"$work/flood.sh" <<X
#!/bin/sh
head -c 20000000 /dev/zero >"\$TMPDIR/side"
head -c 50000000 /dev/zero | tr '\\0' x
X
chmod +x "$work/flood.sh"
mkdir "$work/tmp"
TMPDIR=$work/tmp run --case $y --max-output 1 --tap "$work/tap" -- "$work/flood.sh" {}
rc=$?
side=$(wc -c <"$work/tmp/side")
[ $rc = 1 ] && grep -q '^# GC-K019 the decoder crashed: killed after writing over 1048576 bytes of output' "$work/tap" &&
	[ "$side" -le 1048577 ]
ok $? "a flooding decoder fails at --max-output 1, its side file cut at 1 MiB (exit $rc, $side bytes)"
run --case $y --max-output x -- "$oracle" --json {}
[ $? = 2 ] && grep -q -- '--max-output x: not a number' "$work/err"
ok $? "--max-output takes a number"

echo "1..$n"
exit $fail
