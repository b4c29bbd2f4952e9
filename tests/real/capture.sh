#!/bin/sh
# Capture real .NET runtime GC events: builds workload/ and runs it under several GC
# configurations, each run writing
#   OUTDIR/NAME.nettrace        the EventPipe file the runtime itself writes (ground truth bytes)
#   OUTDIR/NAME.listener.jsonl  the same events as decoded in-process by an EventListener
#   OUTDIR/NAME.stdout          runtime version, GC flavour and counts, for provenance
#   OUTDIR/NAME.env             the DOTNET_* settings of the run
# Exit 77 (automake "skipped") when no dotnet is installed.
#
# Usage: tests/real/capture.sh OUTDIR
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
if ! command -v dotnet >/dev/null 2>&1; then
    echo "capture.sh: dotnet not found; skipping real-runtime capture" >&2
    exit 77
fi

here=$(cd "$(dirname "$0")" && pwd)
proj="$here/workload/GcWorkload.csproj"
mkdir -p "$1"
out=$(cd "$1" && pwd)

# GC | GCHandle, level 5 (verbose: GCAllocationTick, PinObjectAtGCTime...). The moved and
# surviving object ranges (0x400000) go only into the heap-dump run: they make a trace ten
# times larger and add nothing per run that one run does not show.
mask=0x3
# GC | GCHandle | Type | GCHeapDump | GCHeapCollect | GCHeapAndTypeNames | GCSampledObjectAllocationLow:
# one heap walk (GCBulk* events, with the BulkType events they refer to) and sampled allocations;
# plus GCHeapSurvivalAndMovement.
heapmask=0x3d80003

# The workload needs no packages, but restore may still want a feed; fall back to the
# local package folder when no registry is reachable.
build() {
    dotnet build "$proj" -c Release -nologo -v quiet -nodeReuse:false "$@" >"$out/build.log" 2>&1
}
if ! build; then
    echo "capture.sh: build failed, retrying offline with --source /opt/nuget/packages" >&2
    build --source /opt/nuget/packages || { cat "$out/build.log" >&2; exit 1; }
fi
dll="$here/workload/bin/Release/net10.0/GcWorkload.dll"

# run NAME KEYWORDS VAR=VALUE...  — every GC/EventPipe knob is cleared first so that the caller's
# environment cannot leak into a capture, then the run's own settings are applied.
run() {
    name=$1 keywords=$2; shift 2
    rm -f "$out/$name.nettrace" "$out/$name.listener.jsonl" "$out/$name.stdout" "$out/$name.env"
    printf '%s\n' "$@" >"$out/$name.env"
    env -u DOTNET_gcServer -u DOTNET_gcConcurrent -u DOTNET_GCHeapCount \
        -u DOTNET_GCDynamicAdaptationMode -u DOTNET_EventPipeCircularMB \
        -u DOTNET_EventPipeOutputStreaming -u DOTNET_EventPipeRundown \
        -u DOTNET_EventPipeConfig -u DOTNET_EventPipeOutputPath -u DOTNET_EnableEventPipe \
        DOTNET_EnableEventPipe=1 \
        DOTNET_EventPipeOutputPath="$out/$name.nettrace" \
        DOTNET_EventPipeConfig="Microsoft-Windows-DotNETRuntime:$keywords:5" \
        "$@" \
        dotnet "$dll" "$out/$name.listener.jsonl" "$keywords" >"$out/$name.stdout"
    for f in nettrace listener.jsonl stdout; do
        printf 'wrote %s (%s bytes)\n' "$out/$name.$f" "$(wc -c <"$out/$name.$f" | tr -d ' ')"
    done
}

# Streaming with a large buffer so nothing is dropped; rundown off keeps the files about GC.
stream="DOTNET_EventPipeOutputStreaming=1 DOTNET_EventPipeCircularMB=100 DOTNET_EventPipeRundown=0"

# shellcheck disable=SC2086 # $stream is a list of words on purpose
run wks $mask $stream DOTNET_gcServer=0 DOTNET_gcConcurrent=1
# An explicit heap count turns off DATAS, so the heap count stays fixed for the run
# (the runtime caps it at the CPU count: 2 heaps on a 2-CPU machine).
# shellcheck disable=SC2086
run svr $mask $stream DOTNET_gcServer=1 DOTNET_gcConcurrent=1 DOTNET_GCHeapCount=4
# Server GC as shipped (DATAS on): adds heap-count tuning GCDynamicEvents.
# shellcheck disable=SC2086
run svr-datas $mask $stream DOTNET_gcServer=1 DOTNET_gcConcurrent=1
# EventPipe's own defaults (no streaming, 1 MB circular buffer, rundown on): the file layout
# a user gets from just DOTNET_EnableEventPipe=1. There is no knob to pick the nettrace version.
run wks-defaults $mask DOTNET_gcServer=0
# The heap walk is started by the in-process listener (see workload/Program.cs); the file
# session only has to have the keywords on to receive the GCBulk* events.
# shellcheck disable=SC2086
run wks-heapdump $heapmask $stream DOTNET_gcServer=0 DOTNET_gcConcurrent=1
