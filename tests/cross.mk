# gen against oracle: they share only the spec tables, so agreement here is
# evidence about both.
TESTS += tests/cross/realistic_clean.sh tests/cross/faults_detected.sh tests/cross/fault_combos.sh \
	tests/cross/payload_breadth.sh
# Two classes at once: make check runs on two cores.
AM_TESTS_ENVIRONMENT += CROSS_JOBS=2; export CROSS_JOBS;
EXTRA_DIST += tests/cross/realistic_clean.sh tests/cross/faults_detected.sh \
	tests/cross/fault_combos.sh tests/cross/payload_breadth.sh

# Every fault class over thousands of seeds (make check runs 20 per class),
# and classes together: --mutate all and random lists over many seeds, and
# realistic streams over 100 seeds a profile (make check: 10).
FAULT_SEEDS = 2000
FAULT_JOBS = 2
check-faults: all
	top_builddir=$(abs_top_builddir) CROSS_SEEDS=$(FAULT_SEEDS) \
	CROSS_CONTAINER_SEEDS=200 CROSS_JOBS=$(FAULT_JOBS) $(SHELL) $(srcdir)/tests/cross/faults_detected.sh
	top_builddir=$(abs_top_builddir) COMBO_ALL_SEEDS=200 COMBO_RUNS=4000 \
	$(SHELL) $(srcdir)/tests/cross/fault_combos.sh
	top_builddir=$(abs_top_builddir) BREADTH_SEEDS=100 \
	$(SHELL) $(srcdir)/tests/cross/payload_breadth.sh
	top_builddir=$(abs_top_builddir) CROSS_SEEDS=100 \
	$(SHELL) $(srcdir)/tests/cross/realistic_clean.sh
.PHONY: check-faults

# The decoder at every field boundary of every event-version, with payloads
# gcgen's encoder writes (what truncate-at-field and extend-payload record).
check_PROGRAMS += tests/cross/prefix_cuts
tests_cross_prefix_cuts_SOURCES = tests/cross/prefix_cuts.c
tests_cross_prefix_cuts_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests
tests_cross_prefix_cuts_LDADD = $(ORACLE_LIBS) $(GEN_LIBS) $(CBOR_LIBS) $(FWNT_LIBS)
TESTS += tests/cross/prefix_cuts
