# The spec tables: generated from docs/spec/*.toml by spec/specgen.py, never
# edited, and rebuilt whenever the spec, the catalogue or the script changes.
SPEC_TOML = \
	docs/spec/dotnet-runtime.toml \
	docs/spec/dotnet-runtime-private.toml \
	docs/spec/dotnet-runtime-rundown.toml \
	docs/spec/maps.toml
# Every file specgen.py reads (`specgen.py . inputs`), diagnostics catalogues
# included: tests/spec/inputs_listed.py fails on one missing here.
DIAG_TOML = docs/diagnostics.toml docs/diagnostics/ctf.toml \
	docs/diagnostics/etl.toml docs/diagnostics/compare.toml
SPEC_INPUTS = $(SPEC_TOML) $(DIAG_TOML) spec/specgen.py
SPEC_GENERATED = spec/gcspec_ids.h spec/gcspec_tables.c

EXTRA_DIST += $(SPEC_INPUTS) docs/spec/errata.toml docs/spec/claims \
	docs/spec.md docs/errata.md docs/diagnostics.md
BUILT_SOURCES += $(SPEC_GENERATED)
CLEANFILES += $(SPEC_GENERATED) spec/spec.stamp

spec/spec.stamp: $(addprefix $(srcdir)/,$(SPEC_INPUTS))
	$(AM_V_GEN)$(MKDIR_P) spec && \
	$(PYTHON3) $(srcdir)/spec/specgen.py $(srcdir) c spec && touch $@
$(SPEC_GENERATED): spec/spec.stamp
	@test -f $@ || { rm -f spec/spec.stamp; $(MAKE) $(AM_MAKEFLAGS) spec/spec.stamp; }

noinst_LIBRARIES += spec/libgcspec.a
spec_libgcspec_a_SOURCES = spec/gcspec.h
nodist_spec_libgcspec_a_SOURCES = $(SPEC_GENERATED)

# docs/spec.md, errata.md and diagnostics.md are committed so people can read
# them without building; `make docs` refreshes them, `make check` fails when
# they are stale.
docs: $(addprefix $(srcdir)/,$(SPEC_INPUTS))
	$(AM_V_GEN)$(PYTHON3) $(srcdir)/spec/specgen.py $(srcdir) docs $(srcdir)/docs
.PHONY: docs
