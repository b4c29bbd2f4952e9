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

# The runtime matrix (docs/real-runtime.md): the workload published for .NET Core 3.1.3,
# 8.0, 9.0, 10.0 and 11.0.0. In make check one capture per runtime (matrix.py's slice);
# every combination is `make check-runtimes` (about 25 minutes; .ci/run's last leg), its
# covering design `make check-runtimes-covering`. fixtures.py checks the real
# captures kept in the tree, without .NET.
TESTS += tests/real/matrix.py tests/real/fixtures.py
REAL_RUNTIMES = netcoreapp3.1 net8.0 net9.0 net10.0 net11.0
# Recorded by `tests/real/matrix.py --fixtures tests/real/fixtures` (gzip, ~10 KB each).
REAL_FIXTURES = tests/real/fixtures/net10.0-svr-dotnet-trace.json tests/real/fixtures/net10.0-svr-dotnet-trace.nettrace.gz \
	tests/real/fixtures/net10.0-wks-env.json tests/real/fixtures/net10.0-wks-env.nettrace.gz \
	tests/real/fixtures/net11.0-svr-dotnet-trace.json tests/real/fixtures/net11.0-svr-dotnet-trace.nettrace.gz \
	tests/real/fixtures/net11.0-wks-env.json tests/real/fixtures/net11.0-wks-env.nettrace.gz \
	tests/real/fixtures/net11.0-wks-ipc.json tests/real/fixtures/net11.0-wks-ipc.nettrace.gz \
	tests/real/fixtures/net3.1-svr-dotnet-trace.json tests/real/fixtures/net3.1-svr-dotnet-trace.nettrace.gz \
	tests/real/fixtures/net3.1-wks-env.json tests/real/fixtures/net3.1-wks-env.nettrace.gz \
	tests/real/fixtures/net8.0-svr-dotnet-trace.json tests/real/fixtures/net8.0-svr-dotnet-trace.nettrace.gz \
	tests/real/fixtures/net8.0-wks-env.json tests/real/fixtures/net8.0-wks-env.nettrace.gz \
	tests/real/fixtures/net9.0-svr-dotnet-trace.json tests/real/fixtures/net9.0-svr-dotnet-trace.nettrace.gz \
	tests/real/fixtures/net9.0-wks-env.json tests/real/fixtures/net9.0-wks-env.nettrace.gz \
	$(REAL_EVIDENCE)
# Kept by hand: genuine captures that once failed a rule (docs/real-runtime.md), not
# re-recorded by --fixtures.
REAL_EVIDENCE = tests/real/fixtures/net8.0-svr-env-sampler-bgc-end.json \
	tests/real/fixtures/net8.0-svr-env-sampler-bgc-end.nettrace.gz
EXTRA_DIST += tests/real/matrix.py tests/real/fixtures.py tests/real/ipc_collect.py \
	$(REAL_RUNTIMES:%=tests/real/runtimes/%/GcWorkload.csproj) $(REAL_FIXTURES)

# Through automake's TAP driver, so the .trs counts in the CI summary line.
# check-runtimes: every runtime x mode x capture method x keyword set (224
# captures, about 25 minutes one at a time; .ci/run's last leg);
# check-runtimes-covering: the covering design, 36 of them. MATRIX_JOBS
# captures at once (default 2).
RUN_MATRIX = $(AM_TESTS_ENVIRONMENT) $(LOG_DRIVER) --test-name tests/real/matrix-$$which \
	--log-file tests/real/matrix-$$which.log --trs-file tests/real/matrix-$$which.trs \
	--color-tests no --enable-hard-errors yes --expect-failure no -- \
	$(PYTHON3) $(srcdir)/tests/real/matrix.py --$$which $$args && \
	{ grep '^\# |' tests/real/matrix-$$which.log || true; } && \
	! grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' tests/real/matrix-$$which.trs
check-runtimes: all
	@$(MKDIR_P) tests/real
	@which=full; args=; $(RUN_MATRIX)
check-runtimes-covering: all
	@$(MKDIR_P) tests/real
	@which=covering; args=; $(RUN_MATRIX)
# The full matrix's cells round and round for STRESS_SECONDS, gcoracle alone on
# each capture: for the races a real runtime shows once in hundreds of captures.
STRESS_SECONDS = 3600
check-runtimes-stress: all
	@$(MKDIR_P) tests/real
	@which=stress; args=$(STRESS_SECONDS); $(RUN_MATRIX)
.PHONY: check-runtimes check-runtimes-covering check-runtimes-stress
CLEANFILES += tests/real/matrix-full.log tests/real/matrix-full.trs \
	tests/real/matrix-covering.log tests/real/matrix-covering.trs \
	tests/real/matrix-stress.log tests/real/matrix-stress.trs

clean-local: clean-local-real
clean-local-real:
	-rm -rf tests/real/capture tests/real/matrix
.PHONY: clean-local-real
