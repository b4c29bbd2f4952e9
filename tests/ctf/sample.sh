#!/bin/sh
# A real LTTng-UST 2.13 trace (../shared/reference/lttng-sample: a C probe
# that mimics CoreCLR's generated tracepoints, recorded by lttng-tools in the
# per-UID layout trace/ust/uid/0/64-bit/) read by gcoracle: found below the
# session directory, three GC events decoded with their exact values (a
# typed event, CoreCLR's packed form, a UTF-8 string), the two classes that
# are not GC events passed over, no error; the generic interpreter agrees.
# Skipped when the sample is not there ($SHARED_DIR unset or elsewhere).
set -u
: "${top_builddir:=.}"
oracle=$top_builddir/oracle/gcoracle
trace=${SHARED_DIR:-../shared}/reference/lttng-sample/trace
if [ ! -f "$trace/ust/uid/0/64-bit/metadata" ]; then
	echo "1..0 # SKIP no LTTng sample trace at $trace"
	exit 0
fi
out=$(mktemp) || exit 99
trap 'rm -f "$out" "$out.g"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
has() { grep -qF -- "$1" "$out"; }

"$oracle" --json "$trace" >"$out" 2>&1
ok $? "gcoracle reads the session directory (the trace is three levels below) with exit 0"
has '"type":"summary","events":5,'
ok $? "5 events"
has '"errors":0,"warnings":0,"notes":3,'
ok $? "no error, no warning; 3 notes"
has '"name":"GCStart_V2","provider":"Microsoft-Windows-DotNETRuntime","id":1,"version":2,"timestamp":413959180729,"thread":5704,"process":5704,"fields":{"Count":1,"Depth":0,"Reason":4,"Type":0,"ClrInstanceID":7,"ClientSequenceNumber":42}}'
ok $? "GCStart_V2 (typed fields): time, vtid and every value"
has '"name":"GCHeapStats_V2","provider":"Microsoft-Windows-DotNETRuntime","id":4,"version":2,"timestamp":413959186368,"thread":5704,"process":5704,"fields":{"GenerationSize0":1000,"TotalPromotedSize0":1001,"GenerationSize1":1002,"TotalPromotedSize1":1003,"GenerationSize2":1004,"TotalPromotedSize2":1005,"GenerationSize3":1006,"TotalPromotedSize3":1007,"FinalizationPromotedSize":1008,"FinalizationPromotedCount":5,"PinnedObjectCount":10,"SinkBlockCount":11,"GCHandleCount":12,"ClrInstanceID":7,"GenerationSize4":2000,"TotalPromotedSize4":2001}}'
ok $? "GCHeapStats_V2 (CoreCLR's packed length + __data__): every value"
has '"name":"GCAllocationTick_V4","provider":"Microsoft-Windows-DotNETRuntime","id":10,"version":4,"timestamp":413959187730,"thread":5704,"process":5704,"fields":{"AllocationAmount":102400,"AllocationKind":0,"ClrInstanceID":7,"AllocationAmount64":102400,"TypeID":139638264181572,"TypeName":"System.Stringé","HeapIndex":0,"Address":139640841161949,"ObjectSize":24}}'
ok $? "GCAllocationTick_V4 (nine typed fields, not packed): the UTF-8 TypeName and every value"
has '"code":"GC-U003","severity":"note","event":3,' && has 'events of provider DotNETRuntime:GuidTest are not GC events'
ok $? "DotNETRuntime:GuidTest (GUID sequence, double) is passed over with a note"
has 'events of provider DotNETRuntime:GCNoTemplate are not GC events'
ok $? "DotNETRuntime:GCNoTemplate (no fields) is passed over with a note"
has '"file":"channel0_1","file_offset":391'
ok $? "diagnostics name the stream file and the offset in it"
GCCONFORM_CTF_GENERIC=1 "$oracle" --json "$trace" >"$out.g" 2>&1 && cmp -s "$out" "$out.g"
ok $? "the generic interpreter gives the same output"
echo "1..$n"
exit $fail
