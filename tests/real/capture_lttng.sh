#!/bin/sh
# Capture a real CoreCLR LTTng trace: builds workload/ and runs it (workstation
# and server GC) under an LTTng session that enables every DotNETRuntime*
# tracepoint with the vpid, vtid and procname contexts. Writes
#   OUTDIR/lttng/NAME/       the session directory (trace in ust/uid/0/64-bit/)
#   OUTDIR/lttng/NAME.stdout the workload's provenance line
#
# LTTng 2.12 is needed (tests/real/lttng_session.sh says why and how to get
# it: LTTNG_PREFIX).
# Exit 77 (skipped) without dotnet or without a usable LTTng 2.12.
#
# Usage: tests/real/capture_lttng.sh OUTDIR
set -eu

if [ $# -ne 1 ]; then
	echo "usage: $0 OUTDIR" >&2
	exit 2
fi
if ! command -v dotnet >/dev/null 2>&1; then
	echo "capture_lttng.sh: dotnet not found; skipping" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lttng_session.sh"
lttng_find capture_lttng.sh
proj="$here/workload/GcWorkload.csproj"
mkdir -p "$1/lttng"
out=$(cd "$1/lttng" && pwd)
if ! dotnet build "$proj" -c Release -nologo -v quiet -nodeReuse:false >"$out/build.log" 2>&1 &&
	! dotnet build "$proj" -c Release -nologo -v quiet -nodeReuse:false --source /opt/nuget/packages \
		>"$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	exit 1
fi
dll="$here/workload/bin/Release/net10.0/GcWorkload.dll"

lttng_start "$out"

# run NAME VAR=VALUE...
run() {
	name=$1
	shift
	rm -rf "${out:?}/$name"
	"$lttng" create "$name" --output="$out/$name" >/dev/null
	"$lttng" enable-event -u 'DotNETRuntime*' >/dev/null
	"$lttng" add-context -u -t vpid -t vtid -t procname >/dev/null
	"$lttng" start >/dev/null
	env -u DOTNET_gcServer -u DOTNET_gcConcurrent -u DOTNET_GCHeapCount DOTNET_LTTng=1 "$@" \
		dotnet "$dll" "$out/$name.listener.jsonl" 0x3 >"$out/$name.stdout"
	"$lttng" stop >/dev/null
	"$lttng" destroy "$name" >/dev/null
	printf 'wrote %s (%s bytes)\n' "$out/$name" "$(du -sb "$out/$name" | cut -f1)"
}
run wks DOTNET_gcServer=0 DOTNET_gcConcurrent=1
run svr DOTNET_gcServer=1 DOTNET_gcConcurrent=1 DOTNET_GCHeapCount=4
