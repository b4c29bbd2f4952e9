# nettrace writer/reader tests: round trips, container faults, truncation and
# a throughput tool (tests/real/real_trace.py runs it over the real captures).
NETTRACE_TEST_LIBS = gen/formats/nettrace/libgcnettrace_w.a oracle/formats/nettrace/libgcnettrace_r.a \
	oracle/formats/libgcblock.a spec/libgcspec.a util/libgcutil.a
NETTRACE_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests

check_PROGRAMS += tests/nettrace/roundtrip tests/nettrace/faults tests/nettrace/ntdump \
	tests/nettrace/sp_model
tests_nettrace_roundtrip_SOURCES = tests/nettrace/roundtrip.c tests/nettrace/ntcommon.h tests/diag_collect.h tests/synth_stream.h
tests_nettrace_roundtrip_CPPFLAGS = $(NETTRACE_TEST_CPPFLAGS)
tests_nettrace_roundtrip_LDADD = $(NETTRACE_TEST_LIBS)
tests_nettrace_faults_SOURCES = tests/nettrace/faults.c tests/nettrace/ntcommon.h tests/diag_collect.h tests/synth_stream.h
tests_nettrace_faults_CPPFLAGS = $(NETTRACE_TEST_CPPFLAGS)
tests_nettrace_faults_LDADD = $(NETTRACE_TEST_LIBS)
tests_nettrace_ntdump_SOURCES = tests/nettrace/ntdump.c
tests_nettrace_ntdump_CPPFLAGS = $(NETTRACE_TEST_CPPFLAGS)
tests_nettrace_ntdump_LDADD = $(NETTRACE_TEST_LIBS)

tests_nettrace_sp_model_SOURCES = tests/nettrace/sp_model.c
tests_nettrace_sp_model_CPPFLAGS = $(NETTRACE_TEST_CPPFLAGS)
tests_nettrace_sp_model_LDADD = $(NETTRACE_TEST_LIBS)

TESTS += tests/nettrace/roundtrip tests/nettrace/faults tests/nettrace/sp_model

# gcgen's nettrace shape flags: the shape changes, the decoded events do not.
TESTS += tests/nettrace/gcgen_shapes.py
EXTRA_DIST += tests/nettrace/gcgen_shapes.py
# -O sampler-every: ThreadSample events captured by a sampler thread of their own.
TESTS += tests/nettrace/gcgen_sampler.py
EXTRA_DIST += tests/nettrace/gcgen_sampler.py

# make bench-nettrace: nettrace write and read throughput (MB/s, events/s), end
# to end.
bench-nettrace: gen/gcgen oracle/gcoracle tests/nettrace/ntdump
	@$(SHELL) $(top_srcdir)/tests/nettrace/bench.sh .
bench-parts: bench-nettrace
.PHONY: bench-nettrace
EXTRA_DIST += tests/nettrace/bench.sh
