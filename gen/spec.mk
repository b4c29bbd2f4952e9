# The spec tables: generated from docs/spec/*.toml by gen/specgen.py, never
# edited, and rebuilt whenever the spec, the catalogue or the script changes.
SPEC_TOML = \
	docs/spec/dotnet-runtime.toml \
	docs/spec/dotnet-runtime-private.toml \
	docs/spec/dotnet-runtime-rundown.toml \
	docs/spec/maps.toml
DIAG_TOML = docs/diagnostics.toml docs/diagnostics/ctf.toml \
	docs/diagnostics/etl.toml docs/diagnostics/compare.toml
SPEC_INPUTS = $(SPEC_TOML) $(DIAG_TOML) gen/specgen.py
SPEC_GENERATED = gen/gcspec_ids.h gen/gcspec_tables.c

EXTRA_DIST += $(SPEC_INPUTS) docs/spec/errata.toml docs/spec/claims \
	docs/spec.md docs/errata.md docs/diagnostics.md
BUILT_SOURCES += $(SPEC_GENERATED)
CLEANFILES += $(SPEC_GENERATED) gen/spec.stamp

gen/spec.stamp: $(addprefix $(srcdir)/,$(SPEC_INPUTS))
	$(AM_V_GEN)$(MKDIR_P) gen && \
	$(PYTHON3) $(srcdir)/gen/specgen.py $(srcdir) c gen && touch $@
$(SPEC_GENERATED): gen/spec.stamp
	@test -f $@ || { rm -f gen/spec.stamp; $(MAKE) $(AM_MAKEFLAGS) gen/spec.stamp; }

noinst_LIBRARIES += gen/libgcspec.a
gen_libgcspec_a_SOURCES = gen/gcspec.h
nodist_gen_libgcspec_a_SOURCES = $(SPEC_GENERATED)

# docs/spec.md, errata.md and diagnostics.md are committed so people can read
# them without building; `make docs` refreshes them, `make check` fails when
# they are stale.
docs: $(addprefix $(srcdir)/,$(SPEC_INPUTS))
	$(AM_V_GEN)$(PYTHON3) $(srcdir)/gen/specgen.py $(srcdir) docs $(srcdir)/docs
.PHONY: docs
