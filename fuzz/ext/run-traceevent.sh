#!/bin/sh
# run-traceevent.sh [GCEXTRUN OPTIONS...] - TraceEvent (the .NET reader behind
# PerfView and dotnet-trace) as a third-party nettrace decoder under gcextrun:
# builds fuzz/ext/traceevent once (dotnet SDK; NuGet restores TraceEvent),
# then runs it over the options' inputs and mutants. Exit status 70 from the
# wrapper (an exception that means a defect) counts as a crash.
# Example: fuzz/ext/run-traceevent.sh -i corpus-dir -n 500 -o fuzz/findings-new
set -eu
here=$(cd "$(dirname "$0")" && pwd)
b=${top_builddir:-.}
out=$b/fuzz/ext/traceevent-bin
if [ ! -f "$out/TraceEventRead.dll" ]; then
	command -v dotnet >/dev/null || { echo "run-traceevent: no dotnet SDK" >&2; exit 77; }
	dotnet build -nologo -v q -c Release "$here/traceevent/TraceEventRead.csproj" -o "$out" >&2
fi
# The .NET runtime reserves far more address space than it uses, so an
# RLIMIT_AS makes it abort at random: no --memory limit by default, a GC heap
# limit instead (512 MiB), under which a huge allocation is an
# OutOfMemoryException (exit 70) rather than a machine out of memory.
DOTNET_GCHeapHardLimit=0x20000000 DOTNET_gcServer=0 \
	exec "$b/fuzz/gcextrun" -m 0 -c 70 "$@" -- dotnet "$out/TraceEventRead.dll" {}
