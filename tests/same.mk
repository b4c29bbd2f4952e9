# make check-oracle-same (or check-same): gcgen's and gcoracle's outputs are byte
# for byte those of a reference build of SAME_BASE (default: the commit in
# tests/same/BASE), over the corpus and thousands of small generated streams:
# the guard of a change that must not change behaviour (docs/same-output.md).
# Not part of make check (a few minutes); skips outside a git checkout. The
# reference is built once into same-ref/<hash>/ (make clean removes it).
# ORACLE_BASE=/path/to/an/old/gcoracle: that binary is the reference instead
# (gcgen not compared); SAME_BIG=1 adds 100000-GC streams, by checksum.
SAME_BASE =
SAME_SEEDS = 3
SAME_JOBS =
ORACLE_BASE =
SAME_BIG =
check-oracle-same: all
	@$(MKDIR_P) tests/same
	@$(AM_TESTS_ENVIRONMENT) $(LOG_DRIVER) --test-name tests/same/same \
		--log-file tests/same/same.log --trs-file tests/same/same.trs \
		--color-tests no --enable-hard-errors yes --expect-failure no -- \
		$(PYTHON3) $(srcdir)/tests/same/same.py --base '$(SAME_BASE)' --seeds '$(SAME_SEEDS)' \
		--oracle-base '$(ORACLE_BASE)' $(SAME_JOBS:%=--jobs %) $(SAME_BIG:1=--big)
	@grep '^#' tests/same/same.log || true
	@! grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' tests/same/same.trs
check-same: check-oracle-same
.PHONY: check-oracle-same check-same
EXTRA_DIST += tests/same/same.py tests/same/BASE
CLEANFILES += tests/same/same.log tests/same/same.trs

clean-local: clean-local-same
clean-local-same:
	-rm -rf same-ref same-work.*
.PHONY: clean-local-same
