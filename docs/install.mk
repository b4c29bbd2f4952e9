# What the tools and man pages point to is installed: the docs (corpus/Makefile.inc
# installs the corpus ones), as markdown and
# CDDL, under $(docdir). The installed man pages and .pc files name the
# installed paths, for the prefix given to `make install` (prefix=, DESTDIR):
# gcconform.pc comes from configure and gcmutator.pc from make, so both are
# rewritten as installed.
dist_doc_DATA += docs/accepted-differences.md docs/diagnostics.md \
	docs/faults.md docs/fuzzing.md docs/findings.md docs/ctf.md docs/etl.md docs/nettrace.md \
	docs/real-runtime.md docs/real-parser-bugs.md docs/peers.md docs/spec.md docs/errata.md \
	docs/oracle-performance.md docs/same-output.md docs/model-stream.cddl \
	docs/oracle-output.cddl docs/spec-json.md docs/spec-json.cddl docs/heap-walk.md

# The worked examples the docs point to, beside them under $(docdir)/examples
# (gcconform.pc's examplesdir), so that the installed docs' relative paths hold.
exampledocdir = $(docdir)
nobase_dist_exampledoc_DATA = examples/python/gcdec.py examples/specjson/decode_ctf.py \
	examples/traceevent/Program.cs examples/traceevent/TraceEventDecoder.csproj \
	examples/traceevent-xunit/CorpusTests.cs examples/traceevent-xunit/CorpusTests.csproj

install-data-hook: install-paths
install-paths:
	@for m in gcgen.1 gcoracle.1 gcoracle-run.1; do \
		f="$(DESTDIR)$(man1dir)/$$m"; [ -f "$$f" ] || continue; \
		sed -e 's,docs/\([a-z\\-]*\.\(md\|cddl\)\),$(docdir)/\1,g' "$$f" >"$$f.tmp" && \
		mv "$$f.tmp" "$$f" || exit 1; \
	done
	@f="$(DESTDIR)$(pkgconfigdir)/gcconform.pc"; [ ! -f "$$f" ] || { \
		sed -e 's|^prefix=.*|prefix=$(prefix)|' -e 's|^datarootdir=.*|datarootdir=$(datarootdir)|' \
		    -e 's|^datadir=.*|datadir=$(datadir)|' -e 's|^exec_prefix=.*|exec_prefix=$(exec_prefix)|' \
		    -e 's|^bindir=.*|bindir=$(bindir)|' -e 's|^examplesdir=.*|examplesdir=$(docdir)/examples|' \
		    -e 's|^includedir=.*|includedir=$(includedir)|' \
		    "$$f" >"$$f.tmp" && mv "$$f.tmp" "$$f"; }
	@f="$(DESTDIR)$(pkgconfigdir)/gcmutator.pc"; [ ! -f "$$f" ] || { \
		sed -e 's|@prefix[@]|$(prefix)|' -e 's|@libdir[@]|$(libdir)|' \
		    -e 's|@includedir[@]|$(includedir)|' -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|' \
		    $(srcdir)/fuzz/gcmutator/gcmutator.pc.in >"$$f.tmp" && mv "$$f.tmp" "$$f"; }
.PHONY: install-paths

# make distcheck installs into a staging prefix: what is installed names it.
installcheck-local: installcheck-paths
installcheck-paths:
	@grep -qx 'prefix=$(prefix)' "$(DESTDIR)$(pkgconfigdir)/gcconform.pc" || \
		{ echo "gcconform.pc does not name prefix $(prefix)"; exit 1; }
	@[ -f "$(DESTDIR)$(specdir)/gcconform-spec.json" ] && [ -f "$(DESTDIR)$(pkgincludedir)/spec.h" ] || \
		{ echo "the spec data is not installed in $(specdir) and $(pkgincludedir)"; exit 1; }
	@grep -q 'libdir=$(libdir)' "$(DESTDIR)$(pkgconfigdir)/gcmutator.pc" || \
		{ echo "gcmutator.pc does not name libdir $(libdir)"; exit 1; }
	@grep -q '$(docdir)/using-the-corpus.md' "$(DESTDIR)$(man1dir)/gcoracle.1" && \
		! grep -q ' docs/' "$(DESTDIR)$(man1dir)/gcoracle.1" || \
		{ echo "gcoracle.1 does not name the installed docs under $(docdir)"; exit 1; }
	@grep -qx 'gcoracle=$${bindir}/gcoracle' "$(DESTDIR)$(pkgconfigdir)/gcconform.pc" && \
		grep -qx 'bindir=$(bindir)' "$(DESTDIR)$(pkgconfigdir)/gcconform.pc" && \
		[ -x "$(DESTDIR)$(bindir)/gcoracle" ] || \
		{ echo "gcconform.pc's gcoracle does not name the installed $(bindir)/gcoracle"; exit 1; }
	@grep -qx 'examplesdir=$(docdir)/examples' "$(DESTDIR)$(pkgconfigdir)/gcconform.pc" && \
		[ -f "$(DESTDIR)$(docdir)/examples/python/gcdec.py" ] || \
		{ echo "the examples are not installed where gcconform.pc's examplesdir says"; exit 1; }
	@for d in $(dist_doc_DATA); do [ -f "$(DESTDIR)$(docdir)/`basename $$d`" ] || \
		{ echo "$$d is not installed in $(docdir)"; exit 1; }; done
.PHONY: installcheck-paths
