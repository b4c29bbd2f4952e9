# Peer readers against gcgen's files (docs/peers.md): TraceEvent. Not part of
# `make check` (it needs a NuGet restore and ~10 s): `make check-peers`, and
# `make check-all` after `make check`. The test skips, saying why, without dotnet.
PEER_TESTS = tests/peers/traceevent_peer.py tests/peers/traceevent_accept.sh
EXTRA_DIST += $(PEER_TESTS) tests/peers/traceevent/TraceEventPeer.csproj \
	tests/peers/traceevent/Program.cs docs/peers.md \
	examples/traceevent/TraceEventDecoder.csproj examples/traceevent/Program.cs
CLEANFILES += tests/peers/traceevent_peer.log tests/peers/traceevent_peer.trs \
	tests/peers/traceevent_accept.log tests/peers/traceevent_accept.trs

# Through automake's TAP driver, so the .trs counts in check-all's closing line.
check-peers: all
	@$(MKDIR_P) tests/peers
	@$(AM_TESTS_ENVIRONMENT) $(LOG_DRIVER) --test-name tests/peers/traceevent_peer.py \
		--log-file tests/peers/traceevent_peer.log --trs-file tests/peers/traceevent_peer.trs \
		--color-tests no --enable-hard-errors yes --expect-failure no -- \
		$(PYTHON3) $(srcdir)/tests/peers/traceevent_peer.py
	@$(AM_TESTS_ENVIRONMENT) $(LOG_DRIVER) --test-name tests/peers/traceevent_accept.sh \
		--log-file tests/peers/traceevent_accept.log --trs-file tests/peers/traceevent_accept.trs \
		--color-tests no --enable-hard-errors yes --expect-failure no -- \
		$(SHELL) $(srcdir)/tests/peers/traceevent_accept.sh
	@! grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' tests/peers/traceevent_peer.trs \
		tests/peers/traceevent_accept.trs
CHECK_ALL_EXTRA += check-peers
.PHONY: check-peers

clean-local: clean-local-peers
clean-local-peers:
	-rm -rf $(srcdir)/tests/peers/traceevent/bin $(srcdir)/tests/peers/traceevent/obj \
		$(srcdir)/tests/peers/tecount/bin $(srcdir)/tests/peers/tecount/obj \
		$(srcdir)/examples/traceevent/bin $(srcdir)/examples/traceevent/obj
.PHONY: clean-local-peers

# make bench: gcoracle side by side with TraceEvent (nettrace), babeltrace2
# (CTF) and cat, on the same files in the same run; BENCH_SIZE, BENCH_RUNS,
# BENCH_FORMATS (docs/oracle-performance.md). The other bench-* targets
# measure one part each.
bench: bench-peers
bench-peers: gen/gcgen$(EXEEXT) oracle/gcoracle$(EXEEXT) tests/oracle/rusage$(EXEEXT)
	@$(SHELL) $(top_srcdir)/tests/peers/bench.sh '$(abs_top_builddir)' '$(abs_top_srcdir)'
.PHONY: bench bench-peers
EXTRA_DIST += tests/peers/bench.sh tests/peers/tecount/TraceEventCount.csproj \
	tests/peers/tecount/Program.cs
