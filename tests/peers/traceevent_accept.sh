#!/bin/sh
# A decoder built on TraceEvent 4.0.0 (examples/traceevent) passes every y_
# nettrace case of the corpus with the shipped accepted differences
# (accepted/traceevent-4.0.0.accept, docs/accepted-differences.md), and every
# entry of that file still occurs; through gcoracle run, as a user would.
# Without it, the same run fails: the file is what makes the difference.
# With GCCONFORM_WRITE_ACCEPT=FILE, also regenerates the file into FILE
# (tests/peers/accept_gen.py). Skips, saying why, without dotnet or TraceEvent.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
oracle=$top_builddir/oracle/gcoracle
proj=$top_srcdir/examples/traceevent
accept=$top_srcdir/accepted/traceevent-4.0.0.accept
command -v dotnet >/dev/null 2>&1 || { echo "1..0 # SKIP the .NET SDK (dotnet) is not installed"; exit 0; }
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
# Built in a copy: the source tree may be read-only (make distcheck).
mkdir "$work/proj" && cp "$proj/TraceEventDecoder.csproj" "$proj/Program.cs" "$work/proj/" || exit 99
proj=$work/proj
if ! dotnet restore "$proj/TraceEventDecoder.csproj" -nologo -v quiet >"$work/log" 2>&1; then
	set --
	for d in /opt/nuget/packages "$HOME/.nuget/packages"; do [ -d "$d" ] && set -- "$@" --source "$d"; done
	dotnet restore "$proj/TraceEventDecoder.csproj" -nologo -v quiet "$@" >"$work/log" 2>&1 || {
		echo "1..0 # SKIP TraceEvent 4.0.0 cannot be restored: $(grep -m1 error "$work/log")"; exit 0; }
fi
dotnet build "$proj/TraceEventDecoder.csproj" -c Release --no-restore -nologo -v quiet \
	-nodeReuse:false -o "$work/bin" >"$work/log" 2>&1
ok $? "the TraceEvent decoder example builds"
dec="$work/bin/TraceEventDecoder.dll"

"$oracle" run --corpus "$top_srcdir/corpus" --prefix y_ --container nettrace --accept "$accept" \
	--tap "$work/tap" --junit "$work/xml" -- dotnet "$dec" {} >"$work/sum" 2>&1
rc=$?
sed 's/^/# /' "$work/sum"
[ $rc = 0 ] && grep -q '^nettrace   y_ *[1-9][0-9]* *0 *0$' "$work/sum"
ok $? "TraceEvent passes every y_ nettrace case with $(basename "$accept"), every entry occurring"
[ $rc = 0 ] || grep -A12 '^not ok' "$work/tap" | head -40 | sed 's/^/# /'

"$oracle" run --corpus "$top_srcdir/corpus" --case 'y_nettrace_v5_realistic_net8' --quiet \
	-- dotnet "$dec" {} >"$work/sum2" 2>&1
[ $? = 1 ]
ok $? "without the accepted differences the same decoder fails"

if [ -n "${GCCONFORM_WRITE_ACCEPT:-}" ]; then
	mkdir "$work/out"
	for c in "$top_srcdir"/corpus/cases/y_nettrace_*; do
		b=$(basename "$c" .nettrace)
		dotnet "$dec" "$c" >"$work/out/$b.jsonl"
	done
	$PYTHON3 "$top_srcdir/tests/peers/accept_gen.py" "$work/out" >"$GCCONFORM_WRITE_ACCEPT"
	ok $? "regenerated $GCCONFORM_WRITE_ACCEPT"
fi
echo "1..$n"
exit $fail
