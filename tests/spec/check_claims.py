#!/usr/bin/env python3
"""What the seed documents claim (docs/spec/claims/*.toml) against the spec (the runtime's
layouts), with every difference explained by an erratum (docs/spec/errata.toml).

  check_claims.py [SRCDIR]      SRCDIR = repo root (default: $top_srcdir or ../..)

Checks, printing TAP:
  (a) every claims section names an event of the spec;
  (b) every difference between a section and its spec event -- event id, version, provider,
      task, opcode (when the section states them), level (number and name), keywords and
      masks, heading/table names, field names, order and types, missing and extra fields,
      for a manifest also each field's out type, map, count, length and struct membership,
      enum values outside the map or runtime values the document leaves out, values whose
      meaning the runtime has changed (`runtime_meaning` in maps.toml), and the prose
      statements the claims mark as disputed (`disputed`) -- is covered by an erratum
      naming that document, that event (or one of its `also_events`) and, for field
      differences, that field, with a kind that fits the difference;
  (c) the current manifest is held to the same rule as a document ("manifest"): every place
      the spec departs from it -- a struct `layout` it cannot express, a map value only the
      runtime's source has, a value meaning the runtime changed, a field whose values follow
      another map (`describes`) -- needs an erratum against "manifest";
  (d) every erratum names an existing event (and field, if it gives one) and existing
      documents, and explains at least one real difference in each document it names;
  (e) erratum ids are unique and sequential (E001, E002, ...).
It also checks maps.toml: a document is a source of exactly the values it lists (unless a
value-name erratum on that field names the value in its `values`: a value the document gives
the wrong number), every value with a runtime `runtime` symbol has a "runtime ..." source and
the other way round, and a manifest map the runtime has extended is open.
Standard library only (Python 3.11+).
"""
import os
import re
import sys
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speclib import PROVIDER_FILES, Tap, load  # noqa: E402

LEVEL_NAMES = {0: "LogAlways", 1: "Critical", 2: "Error", 3: "Warning",
               4: "Informational", 5: "Verbose"}
KINDS = {"event-id", "version-heading-table", "missing-field", "extra-field", "field-order",
         "field-type", "field-name", "level", "keyword", "opcode", "task", "enum-values",
         "value-name", "value-meaning", "semantics", "other"}
FIELD_KINDS = {"missing-field", "field-order", "field-type", "field-name", "enum-values",
               "value-name", "value-meaning"}
EVENT_KINDS = {"event-id", "version-heading-table", "level", "keyword", "opcode", "task"}
VALUE_KINDS = {"value-name", "value-meaning"}     # errata that name map values in `values`
MANIFEST_FIELD_KEYS = ("out", "map", "count", "length", "member_of")


def is_runtime_source(src):
    return src == "manifest" or src.startswith("runtime")


def as_list(x):
    if x is None:
        return []
    return list(x) if isinstance(x, list) else [x]


def lis_len(seq):
    best = []
    for i, x in enumerate(seq):
        best.append(1 + max([best[j] for j in range(i) if seq[j] < x], default=0))
    return max(best, default=0)


class Diff:
    """One difference between a document's section and the spec event."""

    def __init__(self, doc, event, kinds, what, fields=None, doc_field=None, value=None):
        self.doc, self.event, self.kinds, self.what = doc, event, set(kinds), what
        self.fields = None if fields is None else set(fields)  # None: an event-level difference
        self.doc_field = doc_field                             # for extra fields
        self.value = value                                     # for value-meaning differences

    def covered_by(self, er):
        if self.doc not in er.get("docs", []):
            return False
        if self.event != er.get("event") and self.event not in er.get("also_events", []):
            return False
        if er.get("kind") not in self.kinds:
            return False
        if self.value is not None and self.value not in er.get("values", []):
            return False
        if self.doc_field is not None:
            return er.get("doc_field") == self.doc_field
        if self.fields is None:
            return "field" not in er
        return er.get("field") in self.fields


def field_map(sym, sf, describes):
    """The map a spec field's values follow: a non-manifest map that `describes` the field
    (the runtime's own enum, where the manifest has none or the wrong one), else its map."""
    return describes.get(f"{sym}.{sf['name']}") or sf.get("map")


def section_diffs(doc, sec, ev, prov, maps, describes):
    """Every difference between claims section `sec` and spec event `ev` (of provider
    `prov`), plus schema problems (strings) that make the section unreadable."""
    diffs, problems = [], []
    sym = ev["symbol"]
    prov_kw = prov.get("keywords", {})
    manifest_doc = doc.get("kind") == "manifest"

    def add(kinds, what, fields=None, doc_field=None, value=None):
        diffs.append(Diff(doc["id"], sym, kinds, what, fields, doc_field, value))

    # names in heading and event table
    for key in ("heading", "table_event"):
        if sec.get(key) != sym:
            add({"version-heading-table", "other"},
                f"{key} names {sec.get(key)!r}, the event is {sym}")
    # id; and, where the section states them, version, provider, task and opcode
    if sec.get("id") != ev["id"]:
        add({"event-id"}, f"id {sec.get('id')} (spec {ev['id']})")
    if "version" in sec and sec["version"] != ev["version"]:
        add({"version-heading-table"}, f"version {sec['version']} (spec {ev['version']})")
    if "provider" in sec and sec["provider"] != prov.get("name"):
        add({"other"}, f"provider {sec['provider']} (spec {prov.get('name')})")
    for key in ("task", "opcode"):
        if key in sec and sec[key] != ev[key]:
            add({key}, f"{key} {sec[key]} (spec {ev[key]})")
    # level, number and name (the document may declare how it spells level names)
    glossary = doc.get("level_names", {})
    lname = sec.get("level_name")
    if sec.get("level") != ev["level"]:
        add({"level"}, f"level {sec.get('level')} (spec {ev['level']})")
    if glossary.get(lname, lname) != LEVEL_NAMES[ev["level"]]:
        add({"level"}, f"level name {lname!r} (spec {LEVEL_NAMES[ev['level']]})")
    # keywords and masks
    kws, masks = as_list(sec.get("keyword")), as_list(sec.get("keyword_mask"))
    if sorted(kws) != sorted(ev["keywords"]):
        add({"keyword"}, f"keywords {kws} (spec {ev['keywords']})")
    if len(masks) == len(kws):
        for k, m in zip(kws, masks):
            if prov_kw.get(k) != m:
                add({"keyword"}, f"keyword {k} mask {m:#x} (spec {prov_kw.get(k)})")
    else:
        total = 0
        for k in ev["keywords"]:
            total |= prov_kw.get(k, 0)
        if len(masks) != 1 or masks[0] != total:
            add({"keyword"}, f"keyword masks {masks} (spec {total:#x})")

    # fields: pair each document field with a spec field
    dfields = sec.get("fields", [])
    sfields = ev["fields"]
    pair = [None] * len(dfields)          # doc index -> spec index
    used = set()

    def take(di, pred):
        for si, sf in enumerate(sfields):
            if si not in used and pred(sf):
                pair[di] = si
                used.add(si)
                return

    for di, df in enumerate(dfields):
        if "name" not in df or "type" not in df:
            problems.append(f"field {di + 1} needs name and type")
            continue
        take(di, lambda sf: sf["name"] == df["name"])
    for di, df in enumerate(dfields):
        if pair[di] is None and "means" in df:
            if not any(sf["name"] == df["means"] for sf in sfields):
                problems.append(f"field {df.get('name')}: means {df['means']!r}, "
                                f"which {sym} does not have")
            take(di, lambda sf: sf["name"] == df["means"])
    for di, df in enumerate(dfields):
        if pair[di] is None and "name" in df:
            take(di, lambda sf: sf["name"].lower() == df["name"].lower())
    for di, df in enumerate(dfields):
        si = pair[di]
        if si is None:
            if "name" in df:
                add({"extra-field"}, f"field {df['name']} is not in the spec",
                    doc_field=df["name"])
            continue
        sf = sfields[si]
        if df["name"] != sf["name"]:
            add({"field-name"}, f"field {df['name']!r} is {sf['name']!r}", [sf["name"]])
        if df["type"] != sf["type"]:
            add({"field-type"}, f"field {sf['name']}: type {df['type']} (spec {sf['type']})",
                [sf["name"]])
        if manifest_doc:
            # A manifest states a field's whole description; the spec keeps it all.
            for key in MANIFEST_FIELD_KEYS:
                if df.get(key) != sf.get(key):
                    add({"enum-values", "other"} if key == "map" else {"field-type"},
                        f"field {sf['name']}: {key} {df.get(key)!r} (spec {sf.get(key)!r})",
                        [sf["name"]])
    for si, sf in enumerate(sfields):
        if si not in used:
            add({"missing-field"}, f"field {sf['name']} ({sf['type']}) is missing", [sf["name"]])
    paired = [(di, pair[di]) for di in range(len(dfields)) if pair[di] is not None]
    seq = [si for _, si in paired]
    if seq != sorted(seq):
        full = lis_len(seq)
        movable = [sfields[si]["name"] for k, (_, si) in enumerate(paired)
                   if lis_len(seq[:k] + seq[k + 1:]) == full]
        add({"field-order"}, "fields out of order: "
            + ", ".join(sfields[si]["name"] for si in seq), movable)

    # enum values the document lists
    by_doc_name = {df.get("name"): di for di, df in enumerate(dfields)}
    claimed = []                          # (map name, value, spec field name)
    for dname, vals in sec.get("values", {}).items():
        di = by_doc_name.get(dname)
        if di is None:
            problems.append(f"values given for {dname!r}, which is not among the fields")
            continue
        if pair[di] is None:
            continue                      # an extra field: already a difference
        sf = sfields[pair[di]]
        mname = field_map(sym, sf, describes)
        if mname is None or mname not in maps:
            add({"enum-values", "other"},
                f"field {sf['name']}: values listed but no map describes the field",
                [sf["name"]])
            continue
        known = {v["value"]: v for v in maps[mname]["values"]}
        outside = [v for v in vals if v not in known]
        if outside:
            add({"enum-values", "value-name"},
                f"field {sf['name']}: values {outside} are not in {mname}", [sf["name"]])
        left_out = sorted(v for v, mv in known.items()
                          if v not in vals and any(map(is_runtime_source, mv.get("sources", []))))
        if left_out:
            add({"enum-values"}, f"field {sf['name']}: leaves out runtime values "
                f"{left_out} of {mname}", [sf["name"]])
        for v in vals:
            if known.get(v, {}).get("runtime_meaning"):
                add({"value-meaning"}, f"field {sf['name']}: value {v} is "
                    f"{known[v]['name']} to the document; the runtime: "
                    f"{known[v]['runtime_meaning']}", [sf["name"]], value=v)
        claimed += [(mname, v, sf["name"]) for v in vals]

    # prose the claims mark as contradicting the runtime (what a field means, when the
    # event is raised): no table can be compared, so each such statement is recorded
    for st in sec.get("disputed", []):
        if not isinstance(st, dict) or not st.get("says"):
            problems.append("a disputed statement needs `says`")
            continue
        f = st.get("field")
        if f is not None and f not in [x["name"] for x in sfields]:
            problems.append(f"disputed statement on {f!r}, which {sym} does not have")
            continue
        add({"semantics"}, f"says {st['says']!r}", None if f is None else [f])
    return diffs, problems, claimed


def manifest_diffs(events, maps, describes):
    """Every place the spec departs from the current manifest, as differences of the
    pseudo-document "manifest"."""
    diffs = []
    for sym, ev in events.items():
        if ev.get("opaque_tail"):
            diffs.append(Diff("manifest", sym, {"other"}, "payload: the runtime writes bytes "
                              "of its own after the template (opaque_tail)", None))
        for sf in ev["fields"]:
            f = sf["name"]
            if sf.get("layout"):
                diffs.append(Diff("manifest", sym, {"other"}, f"field {f}: layout "
                                  f"{sf['layout']} (the manifest cannot express padding)", [f]))
            m = maps.get(sf.get("map"))
            if m is None:
                continue
            extra = [v["value"] for v in m["values"] if "manifest" not in v.get("sources", [])]
            if extra:
                diffs.append(Diff("manifest", sym, {"enum-values"}, f"field {f}: "
                                  f"{sf['map']} lacks runtime values {extra}", [f]))
            for v in m["values"]:
                if v.get("runtime_meaning") and "manifest" in v.get("sources", []):
                    diffs.append(Diff("manifest", sym, {"value-meaning"},
                                      f"field {f}: {sf['map']} names {v['value']} {v['name']}; "
                                      f"the runtime: {v['runtime_meaning']}", [f],
                                      value=v["value"]))
            other = describes.get(f"{sym}.{f}")
            if other and other != sf["map"]:
                diffs.append(Diff("manifest", sym, {"value-meaning", "enum-values"},
                                  f"field {f}: the manifest maps it with {sf['map']}, the "
                                  f"runtime fills it from {other}", [f]))
    return diffs


def main():
    top = (sys.argv[1] if len(sys.argv) > 1 else
           os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", ".."))
    specdir = os.path.join(top, "docs", "spec")
    tap = Tap()

    events, prov_of = {}, {}
    for fn in PROVIDER_FILES:
        d = load(os.path.join(specdir, fn))
        for ev in d.get("event", []):
            events[ev["symbol"]] = ev
            prov_of[ev["symbol"]] = d["provider"]
    maps = load(os.path.join(specdir, "maps.toml")).get("map", {})
    describes = {}
    for mname, m in maps.items():
        for target in m.get("describes", []):
            describes[target] = mname

    cdir = os.path.join(specdir, "claims")
    claims = []
    for fn in sorted(os.listdir(cdir)) if os.path.isdir(cdir) else []:
        if fn.endswith(".toml"):
            try:
                claims.append((fn, load(os.path.join(cdir, fn))))
            except tomllib.TOMLDecodeError as e:
                tap.ok(False, f"claims/{fn} loads", e)
    tap.ok(len(claims) > 0, "there are claims files")
    epath = os.path.join(specdir, "errata.toml")
    errata = load(epath).get("erratum", []) if os.path.exists(epath) else []

    doc_ids = set()
    all_diffs, all_claimed = [], []      # claimed: (doc, event, map, value, field)
    for fn, cl in claims:
        doc = cl.get("document", {})
        did = doc.get("id")
        missing = [k for k in ("id", "title", "files", "revision", "covers") if not doc.get(k)]
        tap.ok(not missing and did not in doc_ids and fn == f"{did}.toml",
               f"claims/{fn}: [document] complete, id unique and matching the file name",
               f"missing {missing}, id {did!r}")
        doc_ids.add(did)
        for i, sec in enumerate(cl.get("section", [])):
            label = f"{did} section {i + 1} ({sec.get('heading')})"
            ev = events.get(sec.get("event"))
            if not tap.ok(ev is not None, f"{label} resolves to spec event {sec.get('event')}"):
                continue
            diffs, problems, claimed = section_diffs(doc, sec, ev, prov_of[ev["symbol"]],
                                                     maps, describes)
            for k in ("heading", "table_event", "id", "level", "level_name", "keyword",
                      "keyword_mask"):
                if k not in sec:
                    problems.append(f"needs {k}")
            tap.ok(not problems, f"{label}: well-formed", "\n".join(problems))
            uncovered = [d for d in diffs if not any(d.covered_by(er) for er in errata)]
            tap.ok(not uncovered,
                   f"{label}: all {len(diffs)} differences from {ev['symbol']} have errata",
                   "\n".join(f"no erratum ({'/'.join(sorted(d.kinds))}"
                             + (f", field {'|'.join(sorted(d.fields))}" if d.fields else "")
                             + f"): {d.what}" for d in uncovered))
            all_diffs += diffs
            all_claimed += [(did, ev["symbol"], m, v, f) for m, v, f in claimed]

    # (c) the current manifest, as the document "manifest"
    mdiffs = manifest_diffs(events, maps, describes)
    uncovered = [d for d in mdiffs if not any(d.covered_by(er) for er in errata)]
    tap.ok(not uncovered, f"all {len(mdiffs)} departures of the spec from the manifest "
           "have errata against 'manifest'",
           "\n".join(f"no erratum ({'/'.join(sorted(d.kinds))}, {d.event}"
                     f".{'|'.join(sorted(d.fields or []))}): {d.what}" for d in uncovered))
    all_diffs += mdiffs

    # maps.toml sources agree with the claims; a mismatch needs an erratum on that field
    def value_erratum(doc, event, field, value):
        """value-name errata that list `value` among their `values`."""
        return [er for er in errata if doc in er.get("docs", []) and er.get("event") == event
                and er.get("field") == field and er.get("kind") == "value-name"
                and value in er.get("values", [])]

    used_by_sources = set()
    claimed_set = {(d, m, v) for d, _, m, v, _ in all_claimed}
    for mname, m in maps.items():
        bad = []
        for d, ev, mn, v, f in all_claimed:
            if mn != mname:
                continue
            mv = next((x for x in m["values"] if x["value"] == v), None)
            if mv is not None and d not in mv.get("sources", []):
                ers = value_erratum(d, ev, f, v)
                used_by_sources.update((er["id"], d) for er in ers)
                if not ers:
                    bad.append(f"{d} lists {v} for {ev}.{f}; its sources lack {d}")
        for mv in m["values"]:
            for src in mv.get("sources", []):
                if src in doc_ids and (src, mname, mv["value"]) not in claimed_set:
                    fields = {(ev, f) for d, ev, mn, _, f in all_claimed if d == src and mn == mname}
                    ers = [er for ev, f in fields
                           for er in value_erratum(src, ev, f, mv["value"])]
                    used_by_sources.update((er["id"], src) for er in ers)
                    if not ers:
                        bad.append(f"{mv['value']} names source {src}, which lists no such value")
                elif not (src in doc_ids or is_runtime_source(src)):
                    bad.append(f"{mv['value']}: unknown source {src!r}")
        for target in m.get("describes", []):
            ev, _, f = target.partition(".")
            if ev not in events or f not in [x["name"] for x in events[ev]["fields"]]:
                bad.append(f"describes {target}, which the spec does not have")
        if m.get("open") and not m.get("open_why"):
            bad.append("open but no open_why")
        # runtime provenance: a symbol where the runtime's source defines the value
        for mv in m["values"]:
            rt = any(s.startswith("runtime") for s in mv.get("sources", []))
            if bool(mv.get("runtime")) != rt:
                bad.append(f"{mv['value']}: a `runtime` symbol goes with a 'runtime ...' "
                           "source, and the other way round")
            if rt and not m.get("runtime_enum"):
                bad.append(f"{mv['value']}: a runtime source, but the map names no runtime_enum")
            if mv.get("runtime_meaning") and not mv.get("runtime"):
                bad.append(f"{mv['value']}: runtime_meaning without the runtime's symbol")
        if not m.get("manifest", True) and any(
                "manifest" in v.get("sources", []) for v in m["values"]):
            bad.append("manifest = false, but a value names the manifest as its source")
        if m.get("manifest", True) and not m.get("open") and any(
                "manifest" not in v.get("sources", []) and any(
                    s.startswith("runtime") for s in v.get("sources", [])) for v in m["values"]):
            bad.append("the runtime has values the manifest lacks: the map must be open")
        tap.ok(not bad, f"maps.toml {mname}: sources agree with the claims", "\n".join(bad))

    # (c) and (d): the errata themselves
    ids = [er.get("id") for er in errata]
    want = [f"E{i:03d}" for i in range(1, len(errata) + 1)]
    tap.ok(ids == want, f"erratum ids are unique and sequential (E001..E{len(errata):03d})",
           "\n".join(f"position {i + 1}: {a!r}, want {b}" for i, (a, b) in
                     enumerate(zip(ids, want)) if a != b))
    for er in errata:
        eid = er.get("id", "?")
        bad = []
        ev = events.get(er.get("event"))
        for sym in [er.get("event")] + list(er.get("also_events", [])):
            other = events.get(sym)
            if other is None:
                bad.append(f"event {sym!r} is not in the spec")
            elif "field" in er and er["field"] not in [f["name"] for f in other["fields"]]:
                bad.append(f"field {er['field']!r} is not a field of {sym}")
        wit = er.get("witness")
        if wit is not None and not (
                isinstance(wit, dict) and set(wit) == {"field", "values"}
                and ev is not None and wit["field"] in [f["name"] for f in ev["fields"]]
                and wit["values"] and all(isinstance(v, int) for v in wit["values"])):
            bad.append("witness, when present, must be { field = F, values = [...] }: values "
                       "of a field of the event that only the truth allows")
        if not er.get("docs") or any(d not in doc_ids | {"manifest"} for d in er.get("docs", [])):
            bad.append(f"docs {er.get('docs')} must be known document ids {sorted(doc_ids)} "
                       "or 'manifest'")
        if er.get("kind") not in KINDS:
            bad.append(f"kind {er.get('kind')!r} is not one of {sorted(KINDS)}")
        if er.get("kind") in FIELD_KINDS and "field" not in er:
            bad.append(f"kind {er.get('kind')} needs a field")
        if er.get("kind") in EVENT_KINDS and "field" in er:
            bad.append(f"kind {er.get('kind')} is about the event; it takes no field")
        if ("values" in er or er.get("kind") in VALUE_KINDS) and (
                er.get("kind") not in VALUE_KINDS or not er.get("values") or not all(
                isinstance(v, int) for v in er["values"])):
            bad.append("values (the map values a value-name or value-meaning erratum is "
                       "about) must be a non-empty list of integers, on such an erratum")
        if er.get("kind") == "extra-field" and not er.get("doc_field"):
            bad.append("kind extra-field needs doc_field (the document's field name)")
        for k in ("says", "truth", "source"):
            if not isinstance(er.get(k), str) or not er.get(k).strip():
                bad.append(f"{k} must be a non-empty string")
        conf = er.get("confirmed")
        if conf is not None and not (
                isinstance(conf, dict) and set(conf) == {"runtime", "rid"}
                and re.fullmatch(r"\d+\.\d+\.\d+", str(conf["runtime"]))
                and re.fullmatch(r"[a-z]+-[a-z0-9]+", str(conf["rid"]))):
            bad.append("confirmed, when present, must be { runtime = \"MAJOR.MINOR.PATCH\", "
                       "rid = \"os-arch\" } (absent until a real trace shows the erratum)")
        tap.ok(not bad, f"{eid}: names an existing event, field and documents", "\n".join(bad))
        idle = [d for d in er.get("docs", []) if (eid, d) not in used_by_sources
                and not any(x.doc == d and x.covered_by(er) for x in all_diffs)]
        tap.ok(not idle, f"{eid}: explains a difference in each document it names",
               f"no difference found for {idle} ({er.get('kind')} {er.get('event')}"
               f"{'.' + er['field'] if er.get('field') else ''})")
    tap.done()


if __name__ == "__main__":
    main()
