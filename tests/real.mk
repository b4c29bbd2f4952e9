# Tests against the real .NET runtime: tests/real/capture.sh runs the C# workload
# (tests/real/workload/) under the runtime with EventPipe on; real_trace.py checks
# gcoracle and the nettrace reader against the runtime's own bytes and decoding, and
# the errata marked confirmed against what the traces show. Skipped, with a message,
# when dotnet is not installed.
TESTS += tests/real/real_trace.py
# Genuine Windows traces from ../shared/real-traces (skipped when absent).
TESTS += tests/real/windows_traces.sh
EXTRA_DIST += tests/real/real_trace.py tests/real/windows_traces.sh tests/real/errata_evidence.py tests/real/capture.sh \
	tests/real/workload/GcWorkload.csproj tests/real/workload/Program.cs \
	tests/real/workload/Scenarios.cs docs/real-runtime.md

clean-local: clean-local-real
clean-local-real:
	-rm -rf tests/real/capture
.PHONY: clean-local-real
