#!/bin/sh
# A broken spec must stop specgen.py with a message that names the file, the
# event and the field, and a non-zero exit. One case per kind of mistake.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${PYTHON3:=python3}"
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0
fail=0

# break SED-EXPRESSION FILE EXPECTED-MESSAGE-PART... : copy the spec, apply the
# edit, and require specgen to fail naming every expected part.
check() {
	what=$1 expr=$2 file=$3
	shift 3
	n=$((n + 1))
	rm -rf "$work/t" && mkdir -p "$work/t/docs" && cp -R "$top_srcdir/docs/spec" "$work/t/docs/" &&
		cp "$top_srcdir/docs/diagnostics.toml" "$work/t/docs/" &&
		cp -R "$top_srcdir/docs/diagnostics" "$work/t/docs/" || exit 99
	sed -i "$expr" "$work/t/$file"
	if cmp -s "$top_srcdir/$file" "$work/t/$file"; then
		echo "not ok $n - $what # the edit changed nothing"; fail=1; return
	fi
	msg=$("$PYTHON3" "$top_srcdir/spec/specgen.py" "$work/t" check 2>&1)
	status=$?
	ok=1
	[ "$status" -eq 1 ] || ok=0
	for part in "$@"; do
		case $msg in *"$part"*) ;; *) ok=0 ;; esac
	done
	if [ $ok -eq 1 ]; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"; echo "# status $status: $msg"; fail=1
	fi
}

check "an unknown field type is named with file, event and field" \
	'/symbol = "GCStart_V2"/,/^]/s/name = "Reason", type = "UInt32"/name = "Reason", type = "UInt33"/' \
	docs/spec/dotnet-runtime.toml dotnet-runtime.toml "event GCStart_V2" "field Reason" "UInt33"
check "a map that does not exist is named" \
	'/symbol = "GCStart_V1"/,/^]/s/map = "GCTypeMap"/map = "GCTypoMap"/' \
	docs/spec/dotnet-runtime.toml dotnet-runtime.toml "event GCStart_V1" "field Type" "GCTypoMap"
check "a struct whose count field does not exist is named" \
	'/symbol = "GCBulkNode"/,/^]/s/count = "Count"/count = "Cnt"/' \
	docs/spec/dotnet-runtime.toml dotnet-runtime.toml "event GCBulkNode" "field Values" "Cnt"
check "a duplicate id and version is named" \
	'/symbol = "GCEnd_V1"/,/^version/s/^version = 1/version = 0/' \
	docs/spec/dotnet-runtime.toml dotnet-runtime.toml "event GCEnd_V1" "GCEnd"
check "a member outside its struct is named" \
	'/symbol = "GCBulkEdge"/,/^]/s/member_of = "Values"/member_of = "Valeus"/' \
	docs/spec/dotnet-runtime.toml dotnet-runtime.toml "event GCBulkEdge" "field Value" "Valeus"
check "invalid TOML is named with its file" \
	'1s/^/[[[/' docs/spec/maps.toml maps.toml "not valid TOML"
check "a diagnostic with an unknown severity is named" \
	'0,/severity = "error"/s/severity = "error"/severity = "fatal"/' \
	docs/diagnostics.toml diagnostics.toml "GC-M001" "severity"
check "a malformed erratum confirmation is named with its erratum" \
	'0,/^confirmed = { runtime/s/^confirmed = { runtime/confirmed = { runtim/' \
	docs/spec/errata.toml errata.toml "E001" "confirmed"
echo "1..$n"
exit $fail
