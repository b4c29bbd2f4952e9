#!/bin/sh
# signed-view accepts exactly the two's-complement reading of the field's own
# width (docs/accepted-differences.md): UInt16 0xFFFF as -1, and nothing for a
# value whose top bit is clear (UInt32 0 is never -256, UInt16 8 never 8-2^32
# or 8-2^64).
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}" "${PYTHON3:=python3}"
oracle=$top_builddir/oracle/gcoracle
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
case=y_nettrace_v5_realistic_net8
# A corpus of one case whose first event's ClrInstanceID (UInt16) is 0xFFFF:
# the events file's first "ClrInstanceID": 8 becomes 0xFFFF (CBOR counts
# items, not bytes, so the file stays well-formed).
mkdir -p "$work/c/expect" "$work/c/events" "$work/c/cases"
cp "$top_srcdir/corpus/expect/$case.cbor" "$work/c/expect/"
cp "$top_srcdir/corpus/cases/$case.nettrace" "$work/c/cases/"
ev=$($PYTHON3 -c '
import re, sys
d = open(sys.argv[1], "rb").read()
print(re.search(rb"events/[0-9a-z_]+\.cbor", d).group(0).decode())' "$work/c/expect/$case.cbor")
$PYTHON3 -c '
import sys
d = open(sys.argv[1], "rb").read()
key = b"\x6dClrInstanceID"
i = d.index(key + b"\x08")
open(sys.argv[2], "wb").write(d[:i] + key + b"\x19\xff\xff" + d[i + len(key) + 1:])' \
	"$top_srcdir/corpus/$ev" "$work/c/$ev"
"$oracle" --json "$work/c/cases/$case.nettrace" >"$work/json"
printf 'gcconform-accepted-differences 1\nsigned-view * * C# int/short\n' >"$work/acc"
# set.py OUTPUT [FIELD WHICH VALUE]...: the output with FIELD of the
# WHICH-th event that has it (0-based; "depth0": the first whose Depth is 0)
# set to VALUE, and the first event's ClrInstanceID to -1 (0xFFFF as Int16).
cat >"$work/set.py" <<'X'
import json, sys
edits = {("ClrInstanceID", "0"): -1}
for i in range(2, len(sys.argv), 3):
    edits[(sys.argv[i], sys.argv[i + 1])] = int(sys.argv[i + 2])
seen = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    f = d.get("fields", {})
    for field in list(f):
        k = seen.get(field, 0)
        seen[field] = k + 1
        for which in (str(k), "depth0" if field == "Depth" and f[field] == 0 else None):
            if (field, which) in edits:
                f[field] = edits.pop((field, which))
    sys.stdout.write(json.dumps(d) + "\n")
X
try() {
	$PYTHON3 "$work/set.py" "$work/json" "$@" >"$work/actual"
	"$oracle" compare --quiet --accept "$work/acc" --corpus "$work/c" "$work/c/expect/$case.cbor" \
		"$work/actual" >"$work/out" 2>&1
}
try
rc=$?
[ $rc = 0 ]
ok $? "UInt16 0xFFFF printed -1: accepted as its signed view (exit $rc)"
try ClrInstanceID 1 -65528
rc=$?
[ $rc = 1 ] && grep -q 'ClrInstanceID: expected 8, got -65528' "$work/out"
ok $? "UInt16 8 printed 8-2^16: not a signed view (exit $rc)"
try ClrInstanceID 1 -4294967288
rc=$?
[ $rc = 1 ] && grep -q 'ClrInstanceID: expected 8, got -4294967288' "$work/out"
ok $? "UInt16 8 printed 8-2^32: not a signed view (exit $rc)"
try ClrInstanceID 1 -18446744073709551608
rc=$?
[ $rc = 1 ] && grep -q 'ClrInstanceID: expected 8, got -18446744073709551608' "$work/out"
ok $? "UInt16 8 printed 8-2^64: not a signed view (exit $rc)"
try Depth depth0 -256
rc=$?
[ $rc = 1 ] && grep -q 'Depth: expected 0, got -256' "$work/out"
ok $? "UInt32 0 printed -256: not a signed view (exit $rc)"
try ClrInstanceID 0 -65537
rc=$?
[ $rc = 1 ]
ok $? "UInt16 0xFFFF printed -65537 (its 32-bit reading less 2^16): not a signed view (exit $rc)"
echo "1..$n"
exit $fail
