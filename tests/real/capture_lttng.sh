#!/bin/sh
# Capture a real CoreCLR LTTng trace: builds workload/ and runs it (workstation
# and server GC) under an LTTng session that enables every DotNETRuntime*
# tracepoint with the vpid, vtid and procname contexts. Writes
#   OUTDIR/lttng/NAME/       the session directory (trace in ust/uid/0/64-bit/)
#   OUTDIR/lttng/NAME.stdout the workload's provenance line
#
# CoreCLR's libcoreclrtraceptprovider.so (x64, .NET 6 to 10) links
# liblttng-ust.so.0, i.e. LTTng-UST 2.12, and a 2.12 application can only be
# traced by lttng-tools 2.12 (2.13 changed the UST ABI). Debian 12 ships 2.13
# only, so LTTNG_PREFIX names a directory holding LTTng 2.12 (usr/bin/lttng,
# usr/bin/lttng-sessiond, usr/lib/x86_64-linux-gnu/...): on Debian 12 make it
# from bullseye's packages without touching the system's apt state:
#   echo 'deb http://deb.debian.org/debian bullseye main' >/tmp/b.list
#   O="-o Dir::State::Lists=/tmp/apt-lists -o Dir::Etc::SourceList=/tmp/b.list
#      -o Dir::Etc::SourceParts=/nonexistent -o Dir::Cache=/tmp/apt-cache"
#   mkdir -p /tmp/apt-lists/partial /tmp/apt-cache/archives/partial
#   apt-get $O update && apt-get $O download lttng-tools=2.12.3-1 \
#     liblttng-ctl0=2.12.3-1 liblttng-ust0=2.12.1-1 liblttng-ust-ctl4=2.12.1-1 liburcu6=0.12.2-1
#   for d in *.deb; do dpkg -x "$d" "$LTTNG_PREFIX"; done
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
prefix=${LTTNG_PREFIX:-}
lib=$prefix/usr/lib/x86_64-linux-gnu
if [ -n "$prefix" ]; then
	lttng=$prefix/usr/bin/lttng
	sessiond=$prefix/usr/bin/lttng-sessiond
	export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
	lttng=$(command -v lttng || true)
	sessiond=$(command -v lttng-sessiond || true)
fi
if [ ! -x "$lttng" ] || [ ! -x "$sessiond" ] || ! ldconfig -p 2>/dev/null | grep -q liblttng-ust.so.0 &&
	[ ! -e "$lib/liblttng-ust.so.0" ]; then
	echo "capture_lttng.sh: no LTTng 2.12 (lttng, lttng-sessiond, liblttng-ust.so.0): set LTTNG_PREFIX (see the comment at the top)" >&2
	exit 77
fi

here=$(cd "$(dirname "$0")" && pwd)
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

# A session daemon of our own, in the foreground of a background job so that
# its process id is known; stopped (by that id) at the end.
export LTTNG_HOME="$out/home"
mkdir -p "$LTTNG_HOME"
set --
[ -n "$prefix" ] && set -- --consumerd64-path="$lib/lttng/libexec/lttng-consumerd" --consumerd64-libdir="$lib"
"$sessiond" --no-kernel "$@" >"$out/sessiond.log" 2>&1 &
sessiond_pid=$!
trap '"$lttng" destroy -a >/dev/null 2>&1; kill "$sessiond_pid" 2>/dev/null; wait "$sessiond_pid" 2>/dev/null' EXIT
i=0
until "$lttng" list >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 50 ] || ! kill -0 "$sessiond_pid" 2>/dev/null; then
		echo "capture_lttng.sh: the session daemon did not start:" >&2
		cat "$out/sessiond.log" >&2
		exit 1
	fi
	sleep 0.2
done

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
