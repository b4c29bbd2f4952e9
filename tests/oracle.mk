# gcoracle tests (TAP). The C test links the oracle library, never gen/ code
# beyond the spec tables; model streams are built in the test with libcbor.
check_PROGRAMS += tests/oracle/oracle_test
tests_oracle_oracle_test_SOURCES = tests/oracle/oracle_test.c \
	tests/oracle/model_builder.h
tests_oracle_oracle_test_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests $(CBOR_CFLAGS)
tests_oracle_oracle_test_LDADD = $(ORACLE_LIBS) $(CBOR_LIBS) $(FWNT_LIBS)
TESTS += tests/oracle/oracle_test tests/oracle/cli.sh tests/oracle/cbor_output.sh
EXTRA_DIST += tests/oracle/cli.sh tests/oracle/cbor_output.sh tests/oracle/cbor_same.py

# The time-order window (oracle/reorder/reorder.c) against a stable sort.
check_PROGRAMS += tests/oracle/reorder_test
tests_oracle_reorder_test_SOURCES = tests/oracle/reorder_test.c
tests_oracle_reorder_test_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests
tests_oracle_reorder_test_LDADD = $(ORACLE_LIBS) $(FWNT_LIBS)
TESTS += tests/oracle/reorder_test

# The output's hand-written number formatters against snprintf and libcbor.
check_PROGRAMS += tests/oracle/out_fast_test
tests_oracle_out_fast_test_SOURCES = tests/oracle/out_fast_test.c
tests_oracle_out_fast_test_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests $(CBOR_CFLAGS)
tests_oracle_out_fast_test_LDADD = $(CBOR_LIBS)
TESTS += tests/oracle/out_fast_test

# Run a command and report its wall clock, CPU time and peak memory
# (the benchmark and the memory tests).
check_PROGRAMS += tests/oracle/rusage
tests_oracle_rusage_SOURCES = tests/oracle/rusage.c

# Memory stays flat in the size of the stream (model, nettrace V5/V6 and .etl
# through a pipe, CTF from a directory: about 2.3 GB in all, 3.5 s); the
# larger run (about 17 GB) has its own target.
TESTS += tests/oracle/memory_flat.sh
EXTRA_DIST += tests/oracle/memory_flat.sh
# gcoracle --threads 2 gives one thread's output byte for byte (corpus,
# every container's fault classes, streams that fill the queue).
TESTS += tests/oracle/threads_same.py
EXTRA_DIST += tests/oracle/threads_same.py
# What gcoracle promises about its output and inputs (gcoracle(1) FILES).
TESTS += tests/oracle/output_contract.sh
EXTRA_DIST += tests/oracle/output_contract.sh
# Names from outside reach the terminal escaped; empty --mutate names and
# NUL bytes in accept files are refused as such.
TESTS += tests/oracle/names_escaped.sh
EXTRA_DIST += tests/oracle/names_escaped.sh
# Sanitizers change what memory a process holds: the test skips under them.
AM_TESTS_ENVIRONMENT += ORACLE_SAN_CFLAGS='$(SAN_CFLAGS)'; export ORACLE_SAN_CFLAGS;
check-memory: all tests/oracle/rusage$(EXEEXT)
	MEMORY_SCALE=150 top_builddir=$(abs_top_builddir) ORACLE_SAN_CFLAGS='$(SAN_CFLAGS)' \
		$(SHELL) $(srcdir)/tests/oracle/memory_flat.sh
.PHONY: check-memory

# make bench-oracle: decode-and-check throughput per container, and instructions
# per event (BENCH_CALLGRIND=1). make bench is tests/peers/bench.sh.
bench-oracle: oracle/gcoracle$(EXEEXT) gen/gcgen$(EXEEXT) tests/oracle/rusage$(EXEEXT) \
		tests/oracle/cbor_bench$(EXEEXT)
	@$(SHELL) $(top_srcdir)/tests/oracle/bench.sh ./gen/gcgen ./oracle/gcoracle \
		./tests/oracle/rusage ./tests/oracle/cbor_bench
bench-parts: bench-oracle
.PHONY: bench-oracle
EXTRA_DIST += tests/oracle/bench.sh

# The model reader on truncated and damaged input; its fast path against
# its careful one.
check_PROGRAMS += tests/oracle/model_faults
tests_oracle_model_faults_SOURCES = tests/oracle/model_faults.c
tests_oracle_model_faults_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests $(CBOR_CFLAGS)
tests_oracle_model_faults_LDADD = $(ORACLE_LIBS) $(CBOR_LIBS) $(FWNT_LIBS)
TESTS += tests/oracle/model_faults

# The model stream's CBOR layer: our scanner against libcbor's streaming
# decoder (make bench-oracle prints both; docs/oracle-performance.md).
check_PROGRAMS += tests/oracle/cbor_bench
tests_oracle_cbor_bench_SOURCES = tests/oracle/cbor_bench.c
tests_oracle_cbor_bench_CPPFLAGS = $(AM_CPPFLAGS) $(CBOR_CFLAGS)
tests_oracle_cbor_bench_LDADD = $(ORACLE_LIBS) $(CBOR_LIBS) $(FWNT_LIBS)

# A faster gcoracle must say exactly what the old one said: make
# check-oracle-same (tests/same.mk), ORACLE_BASE=/path/to/the/old/gcoracle.
clean-local: clean-local-threads-same
clean-local-threads-same:
	-rm -rf threads-same.*
.PHONY: clean-local-threads-same
