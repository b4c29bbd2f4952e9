#!/bin/sh
# Capture machine-wide LTTng traces: ONE session tracing several .NET processes
# of different runtimes, which start and end while it runs, as a machine-wide
# trace holds them. Publishes the small workload churn/Churn.cs self-contained
# for .NET Core 3.1.3, .NET 8 and .NET 10 (the projects of runtimes/) and runs:
#   two    .NET Core 3.1 started 1.5 s before the session (the trace catches
#          it mid-life, its first GC number > 1), .NET 10 started 1 s into
#          the session and exiting 1 s later, while 3.1 still runs;
#   three  .NET 10 for 3 s from the session's start; .NET 8 started 0.5 s in,
#          exiting after 1 s while a background GC it started runs (churn's
#          bgc); .NET Core 3.1 started 1 s in, collecting gen2 in a loop after
#          1 s until it is killed (SIGKILL) 2.5 s in (its last events may be
#          lost with it: see docs/ctf.md).
# The session enables the GC-keyword tracepoints of DotNETRuntime (not
# GCGenerationRange nor GCBulk*, of other keywords), the background-GC ones of
# DotNETRuntimePrivate (BGC*) and its EEStartupStart, and lttng_ust_statedump's
# start, procname and end (a process registering with the session), with the
# vpid, vtid and procname contexts. Writes
#   OUTDIR/lttng-multi/NAME/      the session (trace in ust/uid/0/64-bit/)
#   OUTDIR/lttng-multi/NAME.log   each process's line (runtime, pid, GC counts)
#                                 and what happened when
#   OUTDIR/lttng-multi/coreclr-multi-lttng-2.12.tar.gz  both, as kept in tests/ctf/real/
# tests/ctf/real_multi.py checks them (REAL_LTTNG_MULTI_DIR=OUTDIR/lttng-multi);
# the project keeps one recording in tests/ctf/real/.
# LTTng 2.12 is needed (tests/real/lttng_session.sh says why and how to get it:
# LTTNG_PREFIX). Exit 77 (skipped) without dotnet or without a usable LTTng 2.12.
#
# Usage: tests/real/capture_lttng_multi.sh OUTDIR
set -eu

if [ $# -ne 1 ]; then
	echo "usage: $0 OUTDIR" >&2
	exit 2
fi
if ! command -v dotnet >/dev/null 2>&1; then
	echo "capture_lttng_multi.sh: dotnet not found; skipping" >&2
	exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lttng_session.sh"
lttng_find capture_lttng_multi.sh
mkdir -p "$1/lttng-multi"
out=$(cd "$1/lttng-multi" && pwd)

# One self-contained build per runtime (a multi-targeting project fails
# restore as a whole).
for tfm in netcoreapp3.1 net8.0 net10.0; do
	b=$out/build/$tfm
	mkdir -p "$b"
	cp "$here/runtimes/$tfm/GcWorkload.csproj" "$here/churn/Churn.cs" "$b/"
	if ! dotnet publish "$b" -c Release -nologo -v quiet -nodeReuse:false -o "$b/out" >"$b/build.log" 2>&1; then
		cat "$b/build.log" >&2
		exit 1
	fi
done
app() { echo "$out/build/$1/out/GcWorkload"; }

lttng_start "$out"

EVENTS=DotNETRuntime:GCStart*,DotNETRuntime:GCEnd*,DotNETRuntime:GCSuspendEE*,DotNETRuntime:GCRestartEE*
EVENTS=$EVENTS,DotNETRuntime:GCHeapStats*,DotNETRuntime:GCCreateSegment*,DotNETRuntime:GCFreeSegment*
EVENTS=$EVENTS,DotNETRuntime:GCAllocationTick*,DotNETRuntime:GCCreateConcurrentThread*
EVENTS=$EVENTS,DotNETRuntime:GCTerminateConcurrentThread*,DotNETRuntime:GCFinalizers*,DotNETRuntime:GCMark*
EVENTS=$EVENTS,DotNETRuntime:GCTriggered,DotNETRuntime:GCDynamicEvent,DotNETRuntime:GCJoin*
EVENTS=$EVENTS,DotNETRuntime:GCPerHeapHistory*,DotNETRuntime:GCGlobalHeapHistory*,DotNETRuntime:GCLOHCompact
EVENTS=$EVENTS,DotNETRuntime:GCFitBucketInfo,DotNETRuntime:FinalizeObject,DotNETRuntime:PinObjectAtGCTime
EVENTS=$EVENTS,DotNETRuntime:IncreaseMemoryPressure,DotNETRuntime:DecreaseMemoryPressure
EVENTS=$EVENTS,DotNETRuntimePrivate:BGC*,DotNETRuntimePrivate:EEStartupStart*
EVENTS=$EVENTS,lttng_ust_statedump:start,lttng_ust_statedump:procname,lttng_ust_statedump:end

# session NAME: creates and starts the session NAME.
session() {
	rm -rf "${out:?}/$1"
	"$lttng" create "$1" --output="$out/$1" >/dev/null
	"$lttng" enable-event -u "$EVENTS" >/dev/null
	"$lttng" add-context -u -t vpid -t vtid -t procname >/dev/null
	"$lttng" start >/dev/null
	log "$1" "session started"
}
# finish NAME: stops and destroys it.
finish() {
	"$lttng" stop >/dev/null
	"$lttng" destroy "$1" >/dev/null
	log "$1" "session stopped"
	printf 'wrote %s (%s bytes)\n' "$out/$1" "$(du -sb "$out/$1" | cut -f1)"
}
log() { echo "$(date -u +%T.%N | cut -c1-12) $2" >>"$out/$1.log"; }
# launch NAME TFM ARGS...: starts the workload in the background ($! is its pid).
# Without EnableEventLog=1 (3.1 reads COMPlus_ only) 3.1 fires no runtime event
# at all, and 8 and 10 only the events the GC fires itself (no GCStart, no
# GCSuspendEEBegin): the runtime's own keyword checks fail. With it every
# keyword of every provider is on (LTTngConfig, which should narrow them, had no
# effect on 8.0.31 and 10.0.12): the session's event list is what narrows.
launch() {
	name=$1 tfm=$2
	shift 2
	env -u DOTNET_gcServer -u DOTNET_gcConcurrent -u COMPlus_gcServer -u COMPlus_gcConcurrent \
		DOTNET_EnableEventLog=1 COMPlus_EnableEventLog=1 \
		"$(app "$tfm")" "$@" >>"$out/$name.log" &
}

# Workstation GC everywhere: the runtimes' default, whatever the caller's
# environment says (launch clears the GC settings).
rm -f "$out/two.log" "$out/three.log"
launch two netcoreapp3.1 4000
p31=$!
log two "started netcoreapp3.1 (pid $p31) before the session"
sleep 1.5
session two
sleep 1
launch two net10.0 1000
p10=$!
log two "started net10.0 (pid $p10)"
wait "$p10"
log two "net10.0 exited"
wait "$p31"
log two "netcoreapp3.1 exited"
finish two

session three
launch three net10.0 3000
p10=$!
log three "started net10.0 (pid $p10)"
sleep 0.5
launch three net8.0 1000 bgc
p8=$!
log three "started net8.0 (pid $p8), exiting inside a background GC after 1 s"
sleep 0.5
launch three netcoreapp3.1 1000 hold
p31=$!
log three "started netcoreapp3.1 (pid $p31), collecting in a loop after 1 s"
wait "$p8"
log three "net8.0 exited"
sleep 1.5
kill -KILL "$p31"
wait "$p31" || true
log three "netcoreapp3.1 killed (SIGKILL)"
wait "$p10"
log three "net10.0 exited"
finish three

# The fixture as the project keeps it (tests/ctf/real/), byte-for-byte the
# same for the same sessions.
(cd "$out/.." && tar --sort=name --mtime='2026-11-29 00:00Z' --owner=0 --group=0 --numeric-owner \
	-cf - lttng-multi/two lttng-multi/three lttng-multi/two.log lttng-multi/three.log) |
	gzip -9n >"$out/coreclr-multi-lttng-2.12.tar.gz"
echo "wrote $out/coreclr-multi-lttng-2.12.tar.gz: copy it to tests/ctf/real/ to keep it"
