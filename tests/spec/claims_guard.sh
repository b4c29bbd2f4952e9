#!/bin/sh
# check_claims.py must fail when a claim differs from the spec without an erratum, or an
# erratum stops matching a difference: one case per kind of claim it compares. Each case
# edits a copy of docs/spec and requires check_claims to fail naming what is wrong.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${PYTHON3:=python3}"
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0
fail=0

# check WHAT SED-EXPRESSION FILE EXPECTED-OUTPUT-PART...
check() {
	what=$1 expr=$2 file=$3
	shift 3
	n=$((n + 1))
	rm -rf "$work/t" && mkdir -p "$work/t/docs" && cp -R "$top_srcdir/docs/spec" "$work/t/docs/" || exit 99
	sed -i "$expr" "$work/t/$file"
	if cmp -s "$top_srcdir/$file" "$work/t/$file"; then
		echo "not ok $n - $what # the edit changed nothing"; fail=1; return
	fi
	out=$("$PYTHON3" "$top_srcdir/tests/spec/check_claims.py" "$work/t" 2>&1)
	status=$?
	ok=1
	[ "$status" -eq 1 ] || ok=0
	for part in "$@"; do
		case $out in *"$part"*) ;; *) ok=0 ;; esac
	done
	if [ $ok -eq 1 ]; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		echo "# status $status, wanted: $*"
		printf '%s\n' "$out" | grep -v '^ok' | head -10 | sed 's/^/# /'
		fail=1
	fi
}

check "a level number without an erratum" \
	'/^heading = "GCEnd_V1"/,/^level/s/^level = 4/level = 5/' \
	docs/spec/claims/coreclr-2020.toml "GCEnd_V1" "no erratum (level)" "level 5 (spec 4)"
check "a level name without an erratum" \
	'/^heading = "GCFreeSegment_V1"/,/^level_name/s/"Informational"/"Verbose"/' \
	docs/spec/claims/fx-2017.toml "GCFreeSegment_V1" "no erratum (level)" "level name 'Verbose'"
check "a keyword mask without an erratum" \
	'/^heading = "GCEnd_V1"/,/^keyword_mask/s/^keyword_mask = 0x1/keyword_mask = 0x2/' \
	docs/spec/claims/fx-later.toml "GCEnd_V1" "no erratum (keyword)"
check "an event id without an erratum" \
	'/^heading = "GCFinalizersEnd_V1"/,/^id/s/^id = 13/id = 15/' \
	docs/spec/claims/coreclr-2020.toml "no erratum (event-id)" "id 15 (spec 13)"
check "an opcode without an erratum" \
	'0,/^opcode = "win:Start"/s/^opcode = "win:Start"/opcode = "win:Stop"/' \
	docs/spec/claims/manifest-2016.toml "GCStart" "no erratum (opcode)"
check "a task without an erratum" \
	'0,/^task = "GarbageCollection"/s/^task = "GarbageCollection"/task = "GarbageCollectionPrivate"/' \
	docs/spec/claims/manifest-2016.toml "no erratum (task)"
check "a field width without an erratum" \
	'/^heading = "GCFreeSegment_V1"/,/^]/s/name = "Address", type = "UInt64"/name = "Address", type = "UInt32"/' \
	docs/spec/claims/coreclr-2020.toml "no erratum (field-type, field Address)"
check "a manifest's out type without an erratum" \
	'0,/out = "HexInt64"/s/out = "HexInt64"/out = "HexInt32"/' \
	docs/spec/claims/manifest-2016.toml "no erratum (field-type" "out 'HexInt32'"
check "an enum value outside the map without an erratum" \
	'/^heading = "GCEnd_V1"/,/^\[\[section/s/^Type = \[0, 1, 2\]/Type = [0, 1, 2, 7]/;/^heading = "GCStart_V1"/,/^\[\[section/s/^Type = \[0, 1, 2\]/Type = [0, 1, 2, 7]/' \
	docs/spec/claims/fx-2017.toml "no erratum (enum-values/value-name, field Type)" "[7]"
check "a disputed statement without an erratum" \
	'/^id = "E061"/,$d' \
	docs/spec/errata.toml "GCJoin_V2" "no erratum (semantics, field Heap)"
check "a map value only the runtime has, without an erratum against the manifest" \
	'/name = "PinnedObjectHeap"/s/sources = \["manifest", /sources = [/' \
	docs/spec/maps.toml "departures of the spec from the manifest" "GCSegmentTypeMap lacks runtime values [3]"
check "an erratum that no longer matches a difference" \
	'/name = "SuspendForCodePitching"/s/runtime_meaning = "[^"]*", //' \
	docs/spec/maps.toml "not ok" "E051: explains a difference" "no difference found"
check "a translated field name without an erratum" \
	'/^id = "E013"/,/^kind/s/^kind = "field-name"/kind = "field-type"/' \
	docs/spec/errata.toml "GCFreeSegment_V1" "no erratum (field-name, field Address)"
echo "1..$n"
exit $fail
