# ETL tests: round trips, container faults, truncation, the CLI (profiles,
# modes, values against the model stream) and a throughput tool.
ETL_TEST_LIBS = gen/formats/etl/libgcetl_w.a oracle/formats/etl/libgcetl_r.a spec/libgcspec.a $(FWNT_LIBS)
ETL_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests

check_PROGRAMS += tests/etl/roundtrip tests/etl/faults tests/etl/etldump
tests_etl_roundtrip_SOURCES = tests/etl/roundtrip.c tests/etl/etcommon.h tests/diag_collect.h tests/synth_stream.h
tests_etl_roundtrip_CPPFLAGS = $(ETL_TEST_CPPFLAGS)
tests_etl_roundtrip_LDADD = $(ETL_TEST_LIBS)
tests_etl_faults_SOURCES = tests/etl/faults.c tests/etl/etcommon.h tests/diag_collect.h tests/synth_stream.h
tests_etl_faults_CPPFLAGS = $(ETL_TEST_CPPFLAGS)
tests_etl_faults_LDADD = $(ETL_TEST_LIBS)
tests_etl_etldump_SOURCES = tests/etl/etldump.c tests/etl/etcommon.h tests/diag_collect.h tests/synth_stream.h
tests_etl_etldump_CPPFLAGS = $(ETL_TEST_CPPFLAGS)
tests_etl_etldump_LDADD = $(ETL_TEST_LIBS)

TESTS += tests/etl/roundtrip tests/etl/faults tests/etl/cli.sh tests/etl/mixed_pointer.py \
	tests/etl/real_baseline.py tests/etl/processes.py tests/etl/process_life.py
EXTRA_DIST += tests/etl/cli.sh tests/etl/bench.sh tests/etl/mixed_pointer.py \
	tests/etl/real_baseline.py tests/etl/processes.py tests/etl/process_life.py

# make bench-etl: .etl write and read throughput.
bench-etl: gen/gcgen oracle/gcoracle tests/etl/etldump
	@$(SHELL) $(top_srcdir)/tests/etl/bench.sh .
bench-parts: bench-etl
.PHONY: bench-etl
