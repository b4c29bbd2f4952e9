# Peer readers against gcgen's files (docs/peers.md): TraceEvent. Not part of
# `make check` (it needs a NuGet restore and ~10 s): `make check-peers`, and
# `make check-all` after `make check`. The test skips, saying why, without dotnet.
PEER_TESTS = tests/peers/traceevent_peer.py tests/peers/traceevent_accept.sh
EXTRA_DIST += $(PEER_TESTS) tests/peers/traceevent/TraceEventPeer.csproj \
	tests/peers/traceevent/Program.cs docs/peers.md \
	examples/traceevent/TraceEventDecoder.csproj examples/traceevent/Program.cs
CLEANFILES += tests/peers/traceevent_peer.log tests/peers/traceevent_peer.trs \
	tests/peers/traceevent_accept.log tests/peers/traceevent_accept.trs \
	tests/peers/te_findings.log tests/peers/te_findings.trs

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
	@$(AM_TESTS_ENVIRONMENT) $(LOG_DRIVER) --test-name tests/peers/te_findings.sh \
		--log-file tests/peers/te_findings.log --trs-file tests/peers/te_findings.trs \
		--color-tests no --enable-hard-errors yes --expect-failure no -- \
		$(SHELL) $(srcdir)/tests/peers/te_findings.sh
	@! grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' tests/peers/traceevent_peer.trs \
		tests/peers/traceevent_accept.trs tests/peers/te_findings.trs
CHECK_ALL_EXTRA += check-peers

# babeltrace2 2.0.4 with its accepted differences over every y_ CTF case: a
# second or so, so in `make check` (it skips, saying why, without python3-bt2).
TESTS += tests/peers/babeltrace2_accept.sh
EXTRA_DIST += tests/peers/babeltrace2_accept.sh
.PHONY: check-peers

# The peer table (docs/peers.md, "The peer table"): every corpus case through every
# peer reader and version here. `make peer-table` builds the .NET peers
# (tests/peers/build_peers.sh), runs them all, isolated, into docs/peer-table.json
# and renders docs/peer-table.md and .html from it; about half an hour on two
# cores. PEER_TABLE_ARGS='--cases NAME,... --only PEER' reruns a part in place.
# `make check` only checks that the pages are what the committed results give
# and that the history the results show still holds (tests/peers/peer_table_check.py).
PEER_TABLE_SRC = tests/peers/peers.py tests/peers/peer_table_run.py \
	tests/peers/peer_table_render.py tests/peers/build_peers.sh tests/peers/history.tsv \
	tests/peers/adapters/te_normalise.py \
	tests/peers/adapters/bt2_adapter.py tests/peers/adapters/bt1_adapter.py \
	tests/peers/adapters/ctf_text.py \
	tests/peers/adapters/dotnet_trace.sh tests/peers/adapters/traceevent/Program.cs \
	tests/peers/adapters/traceevent/TraceEventAdapter.csproj
PEER_TABLE_DOCS = docs/peer-table.json docs/peer-table.md docs/peer-table.html
TESTS += tests/peers/peer_table_check.py
# How the peer table tells outcomes apart and reads a CLI's text back: small
# fixtures, a few seconds.
TESTS += tests/peers/peer_outcome.py
EXTRA_DIST += $(PEER_TABLE_SRC) $(PEER_TABLE_DOCS) tests/peers/peer_table_check.py \
	tests/peers/peer_outcome.py \
	tests/peers/te_findings.sh
PEER_TABLE_ARGS =

peer-table: all
	@$(MKDIR_P) tests/peers
	top_srcdir=$(srcdir) $(SHELL) $(srcdir)/tests/peers/build_peers.sh
	top_srcdir=$(srcdir) top_builddir=. nice -n 19 $(PYTHON3) $(srcdir)/tests/peers/peer_table_run.py \
		$(PEER_TABLE_ARGS) $(srcdir)/docs/peer-table.json
	$(MAKE) $(AM_MAKEFLAGS) peer-table-render
peer-table-render:
	$(PYTHON3) $(srcdir)/tests/peers/peer_table_render.py $(srcdir)/docs/peer-table.json \
		$(srcdir)/docs/peer-table.md $(srcdir)/docs/peer-table.html
.PHONY: peer-table peer-table-render

clean-local: clean-local-peers
clean-local-peers:
	-rm -rf $(srcdir)/tests/peers/traceevent/bin $(srcdir)/tests/peers/traceevent/obj \
		$(srcdir)/tests/peers/tecount/bin $(srcdir)/tests/peers/tecount/obj \
		$(srcdir)/examples/traceevent/bin $(srcdir)/examples/traceevent/obj
	-rm -rf tests/peers/te tests/peers/dotnet-trace tests/peers/dotnet-trace-*.log
.PHONY: clean-local-peers

# make bench: gcoracle side by side with TraceEvent (nettrace), babeltrace2
# (CTF) and cat, on the same files in the same run; BENCH_SIZE, BENCH_RUNS,
# BENCH_FORMATS (docs/oracle-performance.md). The other bench-* targets
# measure one part each.
bench: bench-peers
bench-peers: gen/gcgen$(EXEEXT) oracle/gcoracle$(EXEEXT) tests/oracle/rusage$(EXEEXT) bench/floor$(EXEEXT)
	@$(SHELL) $(top_srcdir)/tests/peers/bench.sh '$(abs_top_builddir)' '$(abs_top_srcdir)'
.PHONY: bench bench-peers
EXTRA_DIST += tests/peers/bench.sh tests/peers/tecount/TraceEventCount.csproj \
	tests/peers/tecount/Program.cs
