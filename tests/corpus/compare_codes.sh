#!/bin/sh
# gcoracle compare raises each of its codes (docs/diagnostics/compare.toml) for
# the decoder output that earns it, with the exit status it documents:
# gcoracle's own output of a case, edited the way a wrong decoder would be.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
oracle=$top_builddir/oracle/gcoracle
corpus=$top_srcdir/corpus
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
Y=y_nettrace_v5_realistic_net8
N=n_nettrace_v5_stream_drop_gcstart
I=i_nettrace_v5_payload_extend_payload
for c in $Y $N $I; do
	"$oracle" --json "$corpus/cases/$c.nettrace" >"$work/$c" 2>/dev/null
	grep -v '"type":"diag"' "$work/$c" >"$work/$c.nodiag"
done

# check DESCRIPTION CASE INPUT WANT_STATUS [CODE]: compare, then the status
# and (when given) that CODE was raised.
check() {
	n=$((n + 1))
	"$oracle" compare --json "$corpus/expect/$2.cbor" "$3" >"$work/got" 2>&1
	rc=$?
	sed -n 's/.*"code":"\(GC-K[0-9]*\)".*/\1/p' "$work/got" >>"$work/raised"
	if [ "$rc" -ne "$4" ]; then
		echo "not ok $n - $1: exit status $rc, not $4"; fail=1
		head -5 "$work/got" | sed 's/^/# /'
	elif [ -n "${5:-}" ] && ! grep -q "\"code\":\"$5\"" "$work/got"; then
		echo "not ok $n - $1: $5 not raised"; fail=1
		head -5 "$work/got" | sed 's/^/# /'
	else
		echo "ok $n - $1${5:+ ($5)}"
	fi
}
decl() { printf '{"type":"decoder","name":"t"%s}\n' "$1"; }

check "gcoracle's own output of a y_ case passes" $Y "$work/$Y" 0
check "an n_ case with its diagnostics passes" $N "$work/$N" 0
sed '/"index":5,/d' "$work/$Y" >"$work/in"
check "an event left out" $Y "$work/in" 1 GC-K001
{ cat "$work/$Y"; grep '"index":5,' "$work/$Y"; } >"$work/in"
check "an event printed twice" $Y "$work/in" 1 GC-K002
sed 's/"index":5,\(.*\)"timestamp":[0-9]*/"index":5,\1"timestamp":1/' "$work/$Y" >"$work/in"
check "a wrong timestamp" $Y "$work/in" 1 GC-K003
sed '/"index":5,/s/"ClrInstanceID":8/"ClrInstanceID":9/' "$work/$Y" >"$work/in"
check "a wrong field value" $Y "$work/in" 1 GC-K004
sed 's/"AllocationKind":0,/"AllocationKind":"Small",/' "$work/$Y" >"$work/in"
check "a mapped field printed as its value's name" $Y "$work/in" 0
sed 's/"AllocationKind":0,/"AllocationKind":"Large",/' "$work/$Y" >"$work/in"
check "a mapped field printed as another value's name" $Y "$work/in" 1 GC-K004
sed '/"index":5,/{s/"ClrInstanceID":8,//;s/,"ClrInstanceID":8//;}' "$work/$Y" >"$work/in"
check "a field left out" $Y "$work/in" 1 GC-K005
sed '/"index":5,/s/"fields":{/"fields":{"Bogus":1,/' "$work/$Y" >"$work/in"
check "a field the event-version lacks" $Y "$work/in" 1 GC-K006
check "an n_ case without its diagnostic" $N "$work/$N.nodiag" 1 GC-K007
{ cat "$work/$Y"; echo '{"type":"diag","code":"GC-S001","severity":"error","event":3}'; } >"$work/in"
check "a y_ case rejected" $Y "$work/in" 1 GC-K008
{ decl ',"events":["GCStart","GCEnd_V1"]'; cat "$work/$Y"; } >"$work/in"
check "events the decoder does not support are counted, not compared" $Y "$work/in" 0 GC-K009
{ decl ',"checks":["container","payload"]'; cat "$work/$N.nodiag"; } >"$work/in"
check "a stream fault, decoder checks no streams" $N "$work/in" 0 GC-K010
{ decl ',"codes":false'; cat "$work/$N.nodiag"; } >"$work/in"
check "a decoder without codes that does not reject an n_ case" $N "$work/in" 1 GC-K007
{ decl ',"codes":false'; cat "$work/$N.nodiag"; echo '{"type":"error","message":"no"}'; } >"$work/in"
check "a decoder without codes that rejects an n_ case" $N "$work/in" 0
{ decl ',"codes":false'; cat "$work/$Y"; echo '{"type":"error","message":"no"}'; } >"$work/in"
check "a decoder without codes that rejects a y_ case" $Y "$work/in" 1 GC-K008
{ cat "$work/$I.nodiag"; echo '{"type":"error","message":"refused"}'; } >"$work/in"
check "an i_ case rejected, as it may be" $I "$work/in" 0 GC-K011
{ cat "$work/$Y"; echo 'not json'; } >"$work/in"
check "a line that is not JSON" $Y "$work/in" 1 GC-K012
sed 's/,"timestamp":[0-9]*//' "$work/$Y" >"$work/in"
check "events without timestamps" $Y "$work/in" 0 GC-K013
sed 's/,"process":[0-9]*//' "$work/$Y" >"$work/noproc"
check "events without their process" $Y "$work/noproc" 0 GC-K013
n=$((n + 1))
if grep -q "events give no process; not compared" "$work/got"; then
	echo "ok $n - K013 says the process was not compared"
else echo "not ok $n - K013 does not name the process"; grep K013 "$work/got" | sed 's/^/# /'; fail=1; fi
sed '/"index":5,/s/"process":\([0-9]*\)/"process":1\1/' "$work/$Y" >"$work/in"
check "an event of another process" $Y "$work/in" 1 GC-K022
n=$((n + 1))
if [ "$(grep -c GC-K022 "$work/got")" = 1 ] && ! grep -q GC-K003 "$work/got" &&
   grep -q 'process: expected [0-9]*, got 1[0-9]*' "$work/got"; then
	echo "ok $n - a wrong process is one GC-K022 with both values, not a GC-K003"
else echo "not ok $n - wrong process"; grep '"diag"' "$work/got" | head -3 | sed 's/^/# /'; fail=1; fi
# gcoracle run says once, at its end, that the decoder gave no process.
cat >"$work/noproc.sh" <<EOS
#!/bin/sh
"$oracle" --json "\$1" | sed 's/,"process":[0-9]*//'
EOS
chmod +x "$work/noproc.sh"
n=$((n + 1))
"$oracle" run --corpus "$corpus" --case "$Y" --case y_nettrace_v4_realistic_net8 --tap "$work/tap" \
	-- "$work/noproc.sh" {} >"$work/got" 2>&1
if [ "$(grep -c "the decoder's events give no process on 2 cases" "$work/got")" = 1 ] &&
   grep -q "^# note: GC-K013 the decoder's events give no process on 2 cases" "$work/tap" &&
   grep -q "2 cases: 2 passed" "$work/got"; then
	echo "ok $n - gcoracle run notes once that the decoder gave no process (2 cases pass)"
else echo "not ok $n - gcoracle run's no-process note"; sed 's/^/# /' "$work/got"; fail=1; fi
{ decl ',"formats":["ctf"]'; cat "$work/$Y"; } >"$work/in"
check "a format the decoder does not read is skipped" $Y "$work/in" 0 GC-K014
# Accepted differences (docs/accepted-differences.md): let through, reported
# apart (K015), the rest still fails.
acc() { printf 'gcconform-accepted-differences 1\n%s\n' "$1" >"$work/acc"; }
checka() { # like check, with --accept "$work/acc"
	n=$((n + 1))
	"$oracle" compare --json --accept "$work/acc" "$corpus/expect/$2.cbor" "$3" >"$work/got" 2>&1
	rc=$?
	sed -n 's/.*"code":"\(GC-K[0-9]*\)".*/\1/p' "$work/got" >>"$work/raised"
	if [ "$rc" -ne "$4" ] || { [ -n "${5:-}" ] && ! grep -q "\"code\":\"$5\"" "$work/got"; }; then
		echo "not ok $n - $1: exit status $rc (want $4${5:+, $5})"; fail=1
		head -5 "$work/got" | sed 's/^/# /'
	else
		echo "ok $n - $1${5:+ ($5)}"
	fi
}
sed 's/"ClrInstanceID":8/"ClrInstanceID":9/' "$work/$Y" >"$work/clr9"
# Every event of the case carries ClrInstanceID 8: each one is a difference.
nclr=$(grep -o '"ClrInstanceID":8' "$work/$Y" | wc -l)
acc 'value * ClrInstanceID a decoder that reads it wrong'
checka "a value difference the accepted differences list passes" $Y "$work/clr9" 0 GC-K015
grep -q "\"message\":\"$nclr accepted: value \\* ClrInstanceID " "$work/got"
ok_line=$?; n=$((n + 1)); [ $ok_line = 0 ] && echo "ok $n - K015 counts them once per entry" || { echo "not ok $n - K015 counts"; fail=1; }
acc 'value GCStart_V2 ClrInstanceID only this event'
checka "differences the file does not list still fail" $Y "$work/clr9" 1 GC-K004
sed '/"index":5,/s/"ClrInstanceID":8/"ClrInstanceID":-65528/' "$work/$Y" >"$work/in"
acc 'signed-view * * a signed C# type'
# 8 is 8 at any width: 8-2^16 is no signed view (tests/corpus/signed_view.sh
# has one that is).
checka "8 shown as 8-2^16 is not a signed view: its top bit is clear" $Y "$work/in" 1 GC-K004
sed '/"index":5,/s/"ClrInstanceID":8/"ClrInstanceID":-5/' "$work/$Y" >"$work/in"
checka "a negative value that is not the same bits is not a signed view" $Y "$work/in" 1 GC-K004
sed '/"index":5,/s/"ClrInstanceID":8/"Clr":8/' "$work/$Y" >"$work/in"
acc 'name GCAllocationTick_V4 ClrInstanceID=Clr our name for it'
checka "a field under the decoder's name (name SPEC=DECODER)" $Y "$work/in" 0 GC-K015
sed '/"index":5,/s/"ClrInstanceID":8/"Clr":9/' "$work/$Y" >"$work/in"
checka "a renamed field's value is still compared" $Y "$work/in" 1 GC-K004
sed 's/"name":"[A-Za-z_0-9]*",/"name":"GC\/Thing",/' "$work/$Y" >"$work/in"
acc 'name * - our event names'
checka "event names of the decoder's own (name * -)" $Y "$work/in" 0 GC-K015
sed '/"index":5,/s/"fields":{/"fields":{"TotalHeapSize":1,/' "$work/$Y" >"$work/in"
acc 'computed GCAllocationTick_V4 TotalHeapSize we add it'
checka "a computed field (computed)" $Y "$work/in" 0 GC-K015
{ decl ',"codes":false'; cat "$work/$Y"; echo '{"type":"error","message":"we do not read this"}'; } >"$work/in"
acc "rejects $Y - our reader does not do this"
checka "a y_ case the decoder rejects (rejects)" $Y "$work/in" 0 GC-K015
printf 'gcconform-accepted-differences 1\nvalue * ClrInstanceID\n' >"$work/acc"
n=$((n + 1))
"$oracle" compare --accept "$work/acc" "$corpus/expect/$Y.cbor" "$work/$Y" >/dev/null 2>"$work/err"
if [ $? = 2 ] && grep -q "acc:2: an entry is KIND EVENT FIELD REASON" "$work/err"; then
	echo "ok $n - an entry without a reason: exit 2, FILE:LINE and why"
else echo "not ok $n - an entry without a reason"; fail=1; fi

# The counts are true, --max says how many are shown, --json shows them all.
n=$((n + 1))
"$oracle" compare "$corpus/expect/$Y.cbor" "$work/clr9" >"$work/got"
if [ "$nclr" -gt 40 ] && grep -q "; $nclr differences\$" "$work/got" &&
   [ "$(grep -c "GC-K004 error: " "$work/got")" = 40 ] &&
   grep -q "^$Y: \.\.\. and $((nclr - 40)) more differences (--max 0 shows all)" "$work/got"; then
	echo "ok $n - $nclr wrong fields: $nclr counted, 40 shown, '... and $((nclr - 40)) more'"
else echo "not ok $n - counts and the more line"; tail -3 "$work/got" | sed 's/^/# /'; fail=1; fi
n=$((n + 1))
"$oracle" compare --max 0 "$corpus/expect/$Y.cbor" "$work/clr9" >"$work/got"
a=$(grep -c "GC-K004 error: " "$work/got")
"$oracle" compare --max 7 "$corpus/expect/$Y.cbor" "$work/clr9" >"$work/got"
b=$(grep -c "GC-K004 error: " "$work/got")
"$oracle" compare --json "$corpus/expect/$Y.cbor" "$work/clr9" >"$work/got"
c=$(grep -c 'GC-K004' "$work/got")
if [ "$a $b $c" = "$nclr 7 $nclr" ] && grep -q "\"differences\":$nclr" "$work/got"; then
	echo "ok $n - --max 0 shows all, --max 7 seven, --json all ($a $b $c)"
else echo "not ok $n - --max 0/7 and --json show $a $b $c, not $nclr 7 $nclr"; fail=1; fi

# A field difference says where: the event's byte offset (the one gcoracle
# --json gives the event) and the field's place and width in the payload.
sed '/"index":5,/s/"ClrInstanceID":8/"ClrInstanceID":9/' "$work/$Y" >"$work/in"
off5=$(sed -n 's/.*"index":5,"offset":\([0-9]*\),.*/\1/p' "$work/$Y")
n=$((n + 1))
"$oracle" compare "$corpus/expect/$Y.cbor" "$work/in" >"$work/got"
if grep -q "event 5 (GCAllocationTick_V4): field ClrInstanceID: expected 8, got 9 \[event at byte $off5, field at payload +8, 2 bytes\]" "$work/got"; then
	echo "ok $n - a field difference names the event's byte offset ($off5) and the field's place and width"
else echo "not ok $n - field difference places"; grep K004 "$work/got" | sed 's/^/# /'; fail=1; fi

# The decoder's message, quoted where it is reported.
{ decl ',"codes":false'; cat "$work/$Y"; printf '{"type":"error","message":"bad block \\u001b[31m","offset":77}\n'; } >"$work/in"
n=$((n + 1))
"$oracle" compare "$corpus/expect/$Y.cbor" "$work/in" >"$work/got"
if grep -q 'GC-K008 error: error reported at byte 77, which the case does not allow: "bad block \\x1b\[31m"' "$work/got"; then
	echo "ok $n - K008 quotes the decoder's message, escaped, and its offset"
else echo "not ok $n - K008 message"; grep K008 "$work/got" | sed 's/^/# /'; fail=1; fi
sed '/"index":5,/s/"fields":{/"fields":{"ClrInstanceID":8,/' "$work/$Y" >"$work/in"
check "a key twice in one object" $Y "$work/in" 1 GC-K016
{ echo 'Segmentation fault'; echo 'at main.c:12'; cat "$work/$Y"; } >"$work/in"
check "output that is not JSON lines: one diagnostic, exit 2" $Y "$work/in" 2 GC-K017
n=$((n + 1))
if [ "$(grep -c GC-K017 "$work/got")" = 1 ] && ! grep -q GC-K012 "$work/got"; then
	echo "ok $n - not JSON lines: one GC-K017, no GC-K012 per line"
else echo "not ok $n - not JSON lines reported more than once"; fail=1; fi

# Hostile output is a difference, not a crash: nesting past the limit, a
# number past 64 bits, a line that is not an object, a huge index.
{ cat "$work/$Y"; awk 'BEGIN { for (i = 0; i < 5000; i++) printf "["; print "" }'
  echo '{"type":"event","index":18446744073709551616,"id":1,"version":2}'
  echo '[1,2,3]'; echo '{"type":"event","index":99999999999,"id":1,"version":2}'; } >"$work/in"
check "nesting, huge numbers and stray values in the output" $Y "$work/in" 1 GC-K012
"$oracle" compare --print "$corpus/expect/$Y.cbor" >"$work/in"
check "the expectation printed by --print matches itself" $Y "$work/in" 0

n=$((n + 1))
"$oracle" compare "$work/nonexistent.cbor" "$work/$Y" >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then echo "ok $n - an unreadable expectation: exit status 2"
else echo "not ok $n - an unreadable expectation: exit status $rc, not 2"; fail=1; fi
n=$((n + 1))
"$oracle" compare "$work/$Y" "$work/$Y" >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then echo "ok $n - a file that is not an expectation: exit status 2"
else echo "not ok $n - a file that is not an expectation: exit status $rc, not 2"; fail=1; fi

# The text output quotes the decoder's values: nothing in them may act on a
# terminal (a C1 CSI, a right-to-left override), so they come out escaped.
sed '0,/"Count":/s/"Count":[0-9]*/"Count":"\\u009b31mRED\\u202e"/' "$work/$Y" >"$work/in"
"$oracle" compare "$corpus/expect/$Y.cbor" "$work/in" >"$work/got" 2>&1
n=$((n + 1))
if grep -q 'u{009B}31mRED\\u{202E}' "$work/got" && ! LC_ALL=C grep -q "$(printf '\302\233')" "$work/got" &&
   ! LC_ALL=C grep -q "$(printf '\342\200\256')" "$work/got"; then
	echo "ok $n - a decoder's C1 control and bidi override are escaped in the text output"
else echo "not ok $n - raw C1/bidi characters reached the text output"; fail=1; fi

# Every GC-K code of the catalogue was raised above.
n=$((n + 1))
missing=""
for k in $(awk '/^code = /{c=$3} /^name = "compare-/{print c}' "$top_srcdir/docs/diagnostics/compare.toml" | tr -d '"'); do
	grep -qx "$k" "$work/raised" || missing="$missing $k"
done
if [ -z "$missing" ]; then echo "ok $n - every GC-K code of the catalogue was raised"
else echo "not ok $n - never raised:$missing"; fail=1; fi
echo "1..$n"
exit $fail
