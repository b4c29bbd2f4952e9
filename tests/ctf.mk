# CTF tests: round trips, faults, babeltrace2 as the peer.
CTF_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests

# The reader on hand-built LTTng-shaped traces, cut and corrupted gcgen traces.
check_PROGRAMS += tests/ctf/reader_test
tests_ctf_reader_test_SOURCES = tests/ctf/reader_test.c
tests_ctf_reader_test_CPPFLAGS = $(CTF_TEST_CPPFLAGS) $(CBOR_CFLAGS)
tests_ctf_reader_test_LDADD = oracle/formats/ctf/libgcctf_r.a $(GEN_LIBS) $(CBOR_LIBS)

TESTS += tests/ctf/reader_test

# Through the CLIs: gcgen's trace directories, gcoracle on directories.
# Round trips against the CBOR model; babeltrace2 as the peer (skipped
# without python3-bt2); the LTTng sample in ../shared (skipped when absent).
TESTS += tests/ctf/cli.sh tests/ctf/roundtrip.py tests/ctf/peer.sh tests/ctf/sample.sh
EXTRA_DIST += tests/ctf/cli.sh tests/ctf/roundtrip.py tests/ctf/peer.sh tests/ctf/peer_bt2.py \
	tests/ctf/sample.sh tests/ctf/bench.sh docs/ctf.md

# Two gcgen traces of two processes (-O vpid=N) merged into one LTTng-shaped
# trace: checked apart per process, counted per process in the summary.
TESTS += tests/ctf/processes.py
EXTRA_DIST += tests/ctf/processes.py

# A process id reused (gcgen --reuse-pid, CTF and .etl) and processes seen
# starting in the genuine LTTng sessions: what the checker concludes.
TESTS += tests/ctf/process_life.py
EXTRA_DIST += tests/ctf/process_life.py

# make bench-ctf: gcoracle's CTF reader alone and babeltrace2 on a ~1 GB trace
# (make bench compares gcoracle and babeltrace2: tests/peers/bench.sh).
bench-ctf: gen/gcgen oracle/gcoracle tests/ctf/ctfdump
	@$(SHELL) $(top_srcdir)/tests/ctf/bench.sh '$(abs_top_builddir)'
bench-parts: bench-ctf
.PHONY: bench-ctf

# A reader-only throughput tool (no payload decoding or checks): ctfdump DIR.
check_PROGRAMS += tests/ctf/ctfdump
tests_ctf_ctfdump_SOURCES = tests/ctf/ctfdump.c
tests_ctf_ctfdump_CPPFLAGS = $(CTF_TEST_CPPFLAGS)
tests_ctf_ctfdump_LDADD = oracle/formats/ctf/libgcctf_r.a spec/libgcspec.a

# gcgen's event classes against those a real CoreCLR declared (recorded in
# tests/ctf/coreclr-classes.txt); real CoreCLR LTTng captures when present
# (tests/real/capture_lttng.sh makes them; skipped otherwise).
TESTS += tests/ctf/layout.py tests/ctf/real.sh
EXTRA_DIST += tests/ctf/layout.py tests/ctf/real.sh tests/ctf/coreclr-classes.txt \
	tests/real/capture_lttng.sh tests/real/lttng_session.sh \
	tests/ctf/real/coreclr-10.0.12-lttng-2.12.tar.gz tests/ctf/real_listener.py

# Machine-wide: one LTTng session of .NET Core 3.1, .NET 8 and .NET 10
# processes that start and end while it runs (tests/real/capture_lttng_multi.sh
# records them): clean, and counted per process as babeltrace2 counts per vpid.
TESTS += tests/ctf/real_multi.py
EXTRA_DIST += tests/ctf/real_multi.py tests/real/capture_lttng_multi.sh tests/real/churn/Churn.cs \
	tests/ctf/real/coreclr-multi-lttng-2.12.tar.gz
