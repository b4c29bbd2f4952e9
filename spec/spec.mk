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

# The spec as installed data (docs/spec-json.md): the JSON and the C header
# made from it, the TOML sources they come from, under $(specdir) and
# $(pkgincludedir)/spec.h; gcconform.pc's specdir names the directory.
SPEC_DATA_GENERATED = spec/gcconform-spec.json spec/spec.h
EXTRA_DIST += spec/specdata.py spec/spec.h.in
CLEANFILES += $(SPEC_DATA_GENERATED) spec/data.stamp
specdir = $(datadir)/gcconform/spec
spec_claimsdir = $(specdir)/claims
nodist_spec_DATA = spec/gcconform-spec.json
dist_spec_DATA = $(SPEC_TOML) docs/spec/errata.toml docs/spec-json.cddl
dist_spec_claims_DATA = docs/spec/claims/coreclr-2020.toml docs/spec/claims/fx-2017.toml \
	docs/spec/claims/fx-later.toml docs/spec/claims/manifest-2016.toml
nodist_pkginclude_HEADERS = spec/spec.h

spec/data.stamp: $(addprefix $(srcdir)/,$(SPEC_TOML) docs/spec/errata.toml spec/specgen.py \
		spec/specdata.py spec/spec.h.in) $(dist_spec_claims_DATA)
	$(AM_V_GEN)$(MKDIR_P) spec && \
	$(PYTHON3) $(srcdir)/spec/specgen.py $(srcdir) data spec '$(PACKAGE_VERSION)' && touch $@
$(SPEC_DATA_GENERATED): spec/data.stamp
	@test -f $@ || { rm -f spec/data.stamp; $(MAKE) $(AM_MAKEFLAGS) spec/data.stamp; }
