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
{ decl ',"formats":["ctf"]'; cat "$work/$Y"; } >"$work/in"
check "a format the decoder does not read is skipped" $Y "$work/in" 0 GC-K014
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

# Every ClrInstanceID wrong: far more than the 40 differences printed by default;
# all are counted either way, and --all-differences prints each one.
sed 's/"ClrInstanceID":8/"ClrInstanceID":9/' "$work/$Y" >"$work/in"
"$oracle" compare --json "$corpus/expect/$Y.cbor" "$work/in" >"$work/some" 2>&1
"$oracle" compare --json --all-differences "$corpus/expect/$Y.cbor" "$work/in" >"$work/all" 2>&1
shown=$(grep -c '"code":"GC-K004"' "$work/some")
every=$(grep -c '"code":"GC-K004"' "$work/all")
counted=$(sed -n 's/.*"differences":\([0-9]*\).*/\1/p' "$work/all")
n=$((n + 1))
if [ "$shown" -eq 40 ] && [ "$every" -gt 40 ] && [ "$every" -eq "$counted" ]; then
	echo "ok $n - 40 differences printed by default, all $every with --all-differences"
else
	echo "not ok $n - printed $shown by default, $every with --all-differences, $counted counted"; fail=1
fi

# Every GC-K code of the catalogue was raised above.
n=$((n + 1))
missing=""
for k in $(sed -n 's/^code = "\(GC-K[0-9]*\)"/\1/p' "$top_srcdir/docs/diagnostics/compare.toml"); do
	grep -qx "$k" "$work/raised" || missing="$missing $k"
done
if [ -z "$missing" ]; then echo "ok $n - every GC-K code of the catalogue was raised"
else echo "not ok $n - never raised:$missing"; fail=1; fi
echo "1..$n"
exit $fail
