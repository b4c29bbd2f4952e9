# gen against oracle: they share only the spec tables, so agreement here is
# evidence about both.
TESTS += tests/cross/realistic_clean.sh tests/cross/faults_detected.sh tests/cross/fault_combos.sh
# Two classes at once: make check runs on two cores.
AM_TESTS_ENVIRONMENT += CROSS_JOBS=2; export CROSS_JOBS;
EXTRA_DIST += tests/cross/realistic_clean.sh tests/cross/faults_detected.sh \
	tests/cross/fault_combos.sh

# Every fault class over thousands of seeds (make check runs 100 per class),
# and classes together: --mutate all and random lists over many seeds.
FAULT_SEEDS = 2000
FAULT_JOBS = 2
check-faults: all
	top_builddir=$(abs_top_builddir) CROSS_SEEDS=$(FAULT_SEEDS) \
	CROSS_CONTAINER_SEEDS=200 CROSS_JOBS=$(FAULT_JOBS) $(SHELL) $(srcdir)/tests/cross/faults_detected.sh
	top_builddir=$(abs_top_builddir) COMBO_ALL_SEEDS=200 COMBO_RUNS=4000 \
	$(SHELL) $(srcdir)/tests/cross/fault_combos.sh
.PHONY: check-faults
