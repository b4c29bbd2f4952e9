#!/usr/bin/env python3
"""Turn the GC event spec (docs/spec/*.toml) into C tables and readable docs.

Build-time only, Python 3.11+ standard library only.

  specgen.py SRCDIR c OUTDIR      write OUTDIR/gcspec_ids.h and OUTDIR/gcspec_tables.c
  specgen.py SRCDIR docs OUTDIR   write OUTDIR/spec.md, errata.md, diagnostics.md
  specgen.py SRCDIR data OUTDIR VERSION
                                  write OUTDIR/gcconform-spec.json and OUTDIR/spec.h, the
                                  spec as installed data (spec/specdata.py, docs/spec-json.md)
  specgen.py SRCDIR check         validate only
  specgen.py SRCDIR inputs        list the TOML files the C tables are made from

A spec error names the file, the event and the field, and exits with status 1,
so a broken spec stops the build instead of producing wrong tables.
"""

import os
import re
import sys
import tomllib

import specdata

PROVIDER_FILES = ("dotnet-runtime.toml", "dotnet-runtime-private.toml",
                  "dotnet-runtime-rundown.toml")
STANDARD_OPCODES = {"win:Info": 0, "win:Start": 1, "win:Stop": 2}
LEVEL_NAMES = {0: "LogAlways", 1: "Critical", 2: "Error", 3: "Warning",
               4: "Informational", 5: "Verbose"}
# in-type -> (C enum suffix, width for pointer size 4, width for 8; None = variable)
TYPES = {
    "UInt8": ("UINT8", 1, 1), "UInt16": ("UINT16", 2, 2),
    "UInt32": ("UINT32", 4, 4), "UInt64": ("UINT64", 8, 8),
    "Int8": ("INT8", 1, 1), "Int16": ("INT16", 2, 2),
    "Int32": ("INT32", 4, 4), "Int64": ("INT64", 8, 8),
    "Float": ("FLOAT", 4, 4), "Double": ("DOUBLE", 8, 8),
    "Boolean": ("BOOLEAN", 4, 4), "Pointer": ("POINTER", 4, 8),
    "GUID": ("GUID", 16, 16),
    "UnicodeString": ("UNICODE_STRING", None, None),
    "AnsiString": ("ANSI_STRING", None, None),
    "Binary": ("BINARY", None, None), "Struct": ("STRUCT", None, None),
}
INTEGER_TYPES = {"UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16",
                 "Int32", "Int64"}
FIELD_KEYS = {"name", "type", "out", "map", "count", "length", "member_of",
              "layout"}
EVENT_KEYS = {"symbol", "id", "version", "task", "opcode", "level", "keywords",
              "template", "fields", "opaque_tail"}
SEVERITIES = {"note": 0, "warning": 1, "error": 2}


class SpecError(Exception):
    pass


def load_toml(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: not valid TOML: {e}") from None
    except OSError as e:
        raise SpecError(f"{path}: {e.strerror}") from None


def guid_bytes(text, where):
    m = re.fullmatch(r"([0-9a-fA-F]{8})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-"
                     r"([0-9a-fA-F]{4})-([0-9a-fA-F]{12})", text)
    if not m:
        raise SpecError(f"{where}: guid '{text}' is not a GUID")
    d1, d2, d3 = int(m[1], 16), int(m[2], 16), int(m[3], 16)
    out = d1.to_bytes(4, "little") + d2.to_bytes(2, "little") + d3.to_bytes(2, "little")
    return out + bytes.fromhex(m[4] + m[5])


def check_event(path, ev, maps):
    sym = ev.get("symbol", "?")
    where = f"{path}: event {sym}"
    missing = {"symbol", "id", "version", "task", "opcode", "level",
               "keywords", "fields"} - ev.keys()
    if missing:
        raise SpecError(f"{where}: missing key(s) {', '.join(sorted(missing))}")
    extra = ev.keys() - EVENT_KEYS
    if extra:
        raise SpecError(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
    if not (0 <= ev["id"] <= 0xFFFF):
        raise SpecError(f"{where}: id {ev['id']} out of range")
    if not (0 <= ev["version"] <= 255):
        raise SpecError(f"{where}: version {ev['version']} out of range")
    if ev["level"] not in LEVEL_NAMES:
        raise SpecError(f"{where}: level {ev['level']} is not 0..5")
    seen = {}
    struct_name = None
    struct_members, layouts = {}, {}
    for i, f in enumerate(ev["fields"]):
        fname = f.get("name", f"#{i + 1}")
        fw = f"{where}: field {fname}"
        extra = f.keys() - FIELD_KEYS
        if extra:
            raise SpecError(f"{fw}: unknown key(s) {', '.join(sorted(extra))}")
        if "name" not in f or "type" not in f:
            raise SpecError(f"{fw}: needs a name and a type")
        if f["type"] not in TYPES:
            raise SpecError(f"{fw}: unknown type '{f['type']}'")
        if "map" in f and f["map"] not in maps:
            raise SpecError(f"{fw}: unknown map '{f['map']}'")
        if "map" in f and f["type"] not in INTEGER_TYPES:
            raise SpecError(f"{fw}: map on a non-integer field")
        member_of = f.get("member_of")
        if member_of is not None:
            if member_of != struct_name:
                raise SpecError(f"{fw}: member_of '{member_of}' does not name "
                                f"the struct just before it")
            if f["type"] in ("Struct", "Binary"):
                raise SpecError(f"{fw}: nested {f['type']} is not supported")
            if fname in struct_members[struct_name]:
                raise SpecError(f"{fw}: duplicate member name")
            if "length" in f or "layout" in f:
                raise SpecError(f"{fw}: a member takes no 'length' or 'layout'")
            if "count" in f:
                # An array member: count values of the member's type, the count
                # in an earlier member of the same element.
                ref = f["count"]
                if f["type"] not in INTEGER_TYPES or "map" in f:
                    raise SpecError(f"{fw}: only an integer member without a map "
                                    f"can be an array")
                if ref not in struct_members[struct_name]:
                    raise SpecError(f"{fw}: count field '{ref}' is not an earlier "
                                    f"member of {struct_name}")
                if struct_members[struct_name][ref].get("type") not in INTEGER_TYPES:
                    raise SpecError(f"{fw}: count field '{ref}' is not an integer")
                if struct_members[struct_name][ref].get("count"):
                    raise SpecError(f"{fw}: count field '{ref}' is an array")
                if layouts.get(struct_name) == "natural":
                    raise SpecError(f"{fw}: an array member in a natural-layout struct")
            struct_members[struct_name][fname] = f
            continue
        struct_name = None
        if fname in seen:
            raise SpecError(f"{fw}: duplicate field name")
        size_key = {"Struct": "count", "Binary": "length"}.get(f["type"])
        for key in ("count", "length"):
            if key in f and key != size_key:
                raise SpecError(f"{fw}: '{key}' only belongs on a "
                                f"{'Struct' if key == 'count' else 'Binary'} field")
        if size_key:
            ref = f.get(size_key)
            if ref is None:
                raise SpecError(f"{fw}: a {f['type']} needs '{size_key}'")
            if ref not in seen:
                raise SpecError(f"{fw}: {size_key} field '{ref}' is not an "
                                f"earlier field of the event")
            if ev["fields"][seen[ref]]["type"] not in INTEGER_TYPES:
                raise SpecError(f"{fw}: {size_key} field '{ref}' is not an integer")
        if "layout" in f and (f["type"] != "Struct" or f["layout"] not in ("natural", "packed")):
            raise SpecError(f"{fw}: layout must be natural or packed, on a Struct")
        if f["type"] == "Struct":
            struct_name = fname
            struct_members[fname] = {}
            layouts[fname] = f.get("layout", "packed")
        seen[fname] = i
    for sname, members in struct_members.items():
        if not members:
            raise SpecError(f"{where}: field {sname}: struct has no members")


def load_spec(srcdir):
    specdir = os.path.join(srcdir, "docs", "spec")
    mpath = os.path.join(specdir, "maps.toml")
    mdoc = load_toml(mpath)
    maps = {}
    for name, m in mdoc.get("map", {}).items():
        if m.get("kind") not in ("value", "bitmap"):
            raise SpecError(f"{mpath}: map {name}: kind must be value or bitmap")
        vals = []
        for v in m.get("values", []):
            if "value" not in v or "name" not in v:
                raise SpecError(f"{mpath}: map {name}: a value needs value and name")
            vals.append(v)
        if len({v["value"] for v in vals}) != len(vals):
            raise SpecError(f"{mpath}: map {name}: duplicate value")
        maps[name] = dict(m, name=name, values=vals)
    providers, events, symbols, keyset = [], [], {}, {}
    for fname in PROVIDER_FILES:
        path = os.path.join(specdir, fname)
        doc = load_toml(path)
        p = doc.get("provider")
        if not p or not {"key", "name", "guid"} <= p.keys():
            raise SpecError(f"{path}: needs [provider] with key, name, guid")
        pidx = len(providers)
        opcodes, tasks = dict(STANDARD_OPCODES), {}
        for t in doc.get("task", []):
            tasks[t["name"]] = t["value"]
            opcodes.update(t.get("opcodes", {}))
        kw = p.get("keywords", {})
        prov = dict(p, index=pidx, guid_bytes=guid_bytes(p["guid"], path),
                    events=[])
        for ev in doc.get("event", []):
            check_event(path, ev, maps)
            sym = ev["symbol"]
            where = f"{path}: event {sym}"
            if sym in symbols:
                raise SpecError(f"{where}: symbol already used in {symbols[sym]}")
            symbols[sym] = path
            key = (pidx, ev["id"], ev["version"])
            if key in keyset:
                raise SpecError(f"{where}: id {ev['id']} version {ev['version']} "
                                f"already used by {keyset[key]}")
            keyset[key] = sym
            if ev["task"] not in tasks:
                raise SpecError(f"{where}: unknown task '{ev['task']}'")
            if ev["opcode"] not in opcodes:
                raise SpecError(f"{where}: unknown opcode '{ev['opcode']}'")
            mask = 0
            for k in ev["keywords"]:
                if k not in kw:
                    raise SpecError(f"{where}: unknown keyword '{k}'")
                mask |= kw[k]
            e = dict(ev, provider=pidx, file=path, keyword_mask=mask,
                     task_value=tasks[ev["task"]],
                     opcode_value=opcodes[ev["opcode"]],
                     name=re.sub(r"_V\d+$", "", sym))
            for ps in (0, 1):
                e.setdefault("fixed_size", [0, 0])
                e.setdefault("min_size", [0, 0])
            fixed, minimum = [0, 0], [0, 0]
            for f in ev["fields"]:
                if f.get("member_of"):
                    continue
                _, w4, w8 = TYPES[f["type"]]
                for i, w in enumerate((w4, w8)):
                    if w is None:
                        fixed[i] = None
                        minimum[i] += {"UnicodeString": 2, "AnsiString": 1}.get(f["type"], 0)
                    else:
                        if fixed[i] is not None:
                            fixed[i] += w
                        minimum[i] += w
            e["fixed_size"] = [-1 if x is None else x for x in fixed]
            e["min_size"] = minimum
            prov["events"].append(e)
            events.append(e)
        providers.append(prov)
    diags = load_diags(srcdir)
    return dict(providers=providers, events=events, maps=maps, diags=diags)


def diag_files(srcdir):
    """docs/diagnostics.toml, then each part's own docs/diagnostics/*.toml
    (one file per container or tool, so parts can grow independently)."""
    main = os.path.join(srcdir, "docs", "diagnostics.toml")
    part_dir = os.path.join(srcdir, "docs", "diagnostics")
    parts = sorted(os.path.join(part_dir, f) for f in os.listdir(part_dir)
                   if f.endswith(".toml")) if os.path.isdir(part_dir) else []
    return [main] + parts


def table_inputs(srcdir):
    """The TOML files the C tables are made from, relative to SRCDIR: the
    list spec/spec.mk's SPEC_TOML and DIAG_TOML must give (make rebuilds and
    distributes those; tests/spec/inputs_listed.py checks they agree)."""
    spec = [f"docs/spec/{f}" for f in PROVIDER_FILES + ("maps.toml",)]
    return spec + [os.path.relpath(p, srcdir) for p in diag_files(srcdir)]


def load_diags(srcdir):
    seen, out = set(), []
    for path in diag_files(srcdir):
        for d in load_toml(path).get("diag", []):
            check_diag(path, d, seen)
            out.append(d)
    return out


def check_diag(path, d, seen):
    code = d.get("code", "?")
    if not re.fullmatch(r"GC-[A-Z]\d{3}", code):
        raise SpecError(f"{path}: diag {code}: code must look like GC-X000")
    if code in seen:
        raise SpecError(f"{path}: diag {code}: duplicate code")
    seen.add(code)
    if d.get("severity") not in SEVERITIES:
        raise SpecError(f"{path}: diag {code}: severity must be note, warning or error")
    for k in ("name", "meaning"):
        if not d.get(k):
            raise SpecError(f"{path}: diag {code}: needs '{k}'")
    for r in d.get("runtime", []):
        if not isinstance(r, dict) or not r.get("follows") or not r.get("evidence"):
            raise SpecError(f"{path}: diag {code}: each 'runtime' entry needs "
                            "'follows' (what the runtime does) and 'evidence' (where it was seen)")


def c_str(s):
    if s is None:
        return "NULL"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def c_ident(s):
    return re.sub(r"[^A-Za-z0-9_]", "_", s)


def write_if_changed(path, text):
    # Leave an unchanged file alone so make does not rebuild what depends on it.
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def emit_c(spec, outdir):
    providers, events, maps, diags = (spec["providers"], spec["events"],
                                      spec["maps"], spec["diags"])
    map_names = list(maps)
    max_versions = max(e["version"] for e in events) + 1
    nfields = sum(len(e["fields"]) for e in events)
    nvalues = sum(len(m["values"]) for m in maps.values())
    h = ["/* Generated by spec/specgen.py from docs/spec/ and docs/diagnostics.toml."
         " Do not edit. */",
         "#ifndef GCSPEC_IDS_H", "#define GCSPEC_IDS_H", "",
         f"#define GCSPEC_NPROVIDERS {len(providers)}",
         f"#define GCSPEC_NEVENTS {len(events)}",
         f"#define GCSPEC_NFIELDS {nfields}",
         f"#define GCSPEC_NMAPS {len(maps)}",
         f"#define GCSPEC_NMAP_VALUES {nvalues}",
         f"#define GCSPEC_NDIAGS {len(diags)}",
         f"#define GCSPEC_MAX_VERSIONS {max_versions}", "",
         "enum gcspec_provider_id {"]
    h += [f"\tGCSPEC_PROV_{p['key'].upper()} = {p['index']}," for p in providers]
    h += ["};", "", "enum gcspec_event_id {"]
    h += [f"\tGCSPEC_EV_{c_ident(e['symbol'])} = {i}," for i, e in enumerate(events)]
    h += ["};", "", "enum gcspec_map_id {"]
    h += [f"\tGCSPEC_MAP_{c_ident(n)} = {i}," for i, n in enumerate(map_names)]
    h += ["};", "", "enum gcspec_diag_id {"]
    h += [f"\tGCSPEC_DIAG_{d['code'][3:]} = {i}, /* {d['name']} */"
          for i, d in enumerate(diags)]
    h += ["};", "", "#endif", ""]

    c = ["/* Generated by spec/specgen.py from docs/spec/ and docs/diagnostics.toml."
         " Do not edit. */", '#include "spec/gcspec.h"', ""]
    fields_c, events_c = [], []
    for e in events:
        first = len(fields_c)
        idx, midx = {}, {}
        for i, f in enumerate(e["fields"]):
            if f.get("member_of"):
                midx[(f["member_of"], f["name"])] = i
            else:
                idx[f["name"]] = i
        for i, f in enumerate(e["fields"]):
            nmem = 0
            if f["type"] == "Struct":
                j = i + 1
                while j < len(e["fields"]) and e["fields"][j].get("member_of") == f["name"]:
                    j += 1
                nmem = j - i - 1
            ref = f.get("count") or f.get("length")
            if ref and f.get("member_of"):
                size_field = midx[(f["member_of"], ref)]
            else:
                size_field = idx[ref] if ref else -1
            mp = map_names.index(f["map"]) if "map" in f else -1
            fields_c.append(
                f"\t{{ {c_str(f['name'])}, {c_str(f.get('out'))}, "
                f"GCSPEC_{TYPES[f['type']][0]}, {1 if f.get('member_of') else 0}, "
                f"{nmem}, {size_field}, {mp}, "
                f"{1 if f.get('layout') == 'natural' else 0} }}, /* {e['symbol']} */")
        events_c.append(
            f"\t{{ {c_str(e['symbol'])}, {c_str(e['name'])}, {c_str(e['task'])}, "
            f"{c_str(e['opcode'])}, UINT64_C({hex(e['keyword_mask'])}), "
            f"{e['id']}, {e['task_value']}, {first}, {len(e['fields'])}, "
            f"{e['provider']}, {e['version']}, {e['opcode_value']}, {e['level']}, "
            f"{{ {e['fixed_size'][0]}, {e['fixed_size'][1]} }}, "
            f"{{ {e['min_size'][0]}, {e['min_size'][1]} }}, "
            f"{1 if e.get('opaque_tail') else 0} }},")
    for p in providers:
        max_id = max(e["id"] for e in p["events"])
        table = [-1] * ((max_id + 1) * max_versions)
        for e in p["events"]:
            table[e["id"] * max_versions + e["version"]] = events.index(e)
        c.append(f"static const int16_t index_{p['key']}[] = {{")
        for i in range(0, len(table), 16):
            c.append("\t" + ", ".join(str(x) for x in table[i:i + 16]) + ",")
        c += ["};", ""]
        p["max_id"] = max_id
    c.append("const struct gcspec_provider gcspec_providers[GCSPEC_NPROVIDERS] = {")
    for p in providers:
        gb = ", ".join(f"0x{b:02x}" for b in p["guid_bytes"])
        c.append(f"\t{{ {c_str(p['key'])}, {c_str(p['name'])}, {c_str(p['guid'])}, "
                 f"{{ {gb} }}, {p['max_id']}, index_{p['key']} }},")
    c += ["};", "", "const struct gcspec_event gcspec_events[GCSPEC_NEVENTS] = {"]
    c += events_c
    c += ["};", "", "const struct gcspec_field gcspec_fields[GCSPEC_NFIELDS] = {"]
    c += fields_c
    c += ["};", "", "const struct gcspec_map gcspec_maps[GCSPEC_NMAPS] = {"]
    values_c, first = [], 0
    for n in map_names:
        m = maps[n]
        c.append(f"\t{{ {c_str(n)}, {first}, {len(m['values'])}, "
                 f"{1 if m['kind'] == 'bitmap' else 0}, {1 if m.get('open') else 0} }},")
        for v in m["values"]:
            values_c.append(f"\t{{ UINT64_C({hex(v['value'])}), {c_str(v['name'])}, "
                            f"{c_str(','.join(v.get('sources', [])))} }},")
        first += len(m["values"])
    c += ["};", "", "const struct gcspec_map_value gcspec_map_values[GCSPEC_NMAP_VALUES] = {"]
    c += values_c
    c += ["};", "", "const struct gcspec_diag gcspec_diags[GCSPEC_NDIAGS] = {"]
    for d in diags:
        c.append(f"\t{{ {c_str(d['code'])}, {c_str(d['name'])}, {c_str(d['meaning'])}, "
                 f"GCSPEC_{d['severity'].upper()} }},")
    c += ["};", ""]
    os.makedirs(outdir, exist_ok=True)
    write_if_changed(os.path.join(outdir, "gcspec_ids.h"), "\n".join(h))
    write_if_changed(os.path.join(outdir, "gcspec_tables.c"), "\n".join(c))


def load_optional(path):
    return load_toml(path) if os.path.exists(path) else {}


def md_escape(s):
    return str(s).replace("|", "\\|")


def load_errata(srcdir):
    """The errata, with `confirmed` (absent, or { runtime, rid }) checked."""
    path = os.path.join(srcdir, "docs", "spec", "errata.toml")
    errata = load_optional(path).get("erratum", [])
    for er in errata:
        c = er.get("confirmed")
        if c is not None and not (isinstance(c, dict) and set(c) == {"runtime", "rid"}
                                  and all(isinstance(v, str) and v for v in c.values())):
            raise SpecError(f"{path}: erratum {er.get('id', '?')}: confirmed must be "
                            "{ runtime = \"X.Y.Z\", rid = \"os-arch\" } or absent")
    return errata


def load_claims(srcdir):
    cdir = os.path.join(srcdir, "docs", "spec", "claims")
    if not os.path.isdir(cdir):
        return []
    return [load_toml(os.path.join(cdir, fn)) for fn in sorted(os.listdir(cdir))
            if fn.endswith(".toml")]


def emit_docs(spec, srcdir, outdir):
    errata = load_errata(srcdir)
    claims = load_claims(srcdir)
    by_event_docs = {}
    for cl in claims:
        did = cl.get("document", {}).get("id", "?")
        for s in cl.get("section", []):
            by_event_docs.setdefault(s.get("event"), []).append(
                f"{did} (as {s.get('heading')})")
    by_event_errata = {}
    for er in errata:
        by_event_errata.setdefault(er.get("event"), []).append(er["id"])

    out = ["# The GC event spec", "",
           "Generated by `spec/specgen.py` from `docs/spec/*.toml`; do not edit.",
           "Layouts are the runtime's (manifest of dotnet/runtime, commit 68813511); "
           "where a document says otherwise, see [errata.md](errata.md).", "",
           "Sizes are for pointer size 4 / 8; `var` means the payload has "
           "variable-length fields (the minimum is given).", ""]
    for p in spec["providers"]:
        out += [f"## {p['name']}", "", f"GUID `{p['guid']}`", ""]
        for e in p["events"]:
            fs = e["fixed_size"]
            size = (f"{fs[0]} / {fs[1]} bytes" if fs[0] >= 0 else
                    f"var (at least {e['min_size'][0]} / {e['min_size'][1]} bytes)")
            out += [f"### {e['symbol']}", "",
                    f"id {e['id']}, version {e['version']}; task {e['task']} "
                    f"({e['task_value']}), opcode {e['opcode']} ({e['opcode_value']}); "
                    f"level {LEVEL_NAMES[e['level']]} ({e['level']}); keywords "
                    f"{' | '.join(e['keywords']) or 'none'} (0x{e['keyword_mask']:x}); "
                    f"payload {size}.", ""]
            if e.get("opaque_tail"):
                out += ["The runtime may write bytes of its own after the template (an opaque "
                        "tail: a raw struct of build-dependent size); a longer payload is no "
                        "GC-P002.", ""]
            docs = by_event_docs.get(e["symbol"])
            out.append("Documented by: " + ("; ".join(docs) if docs else "no seed document") + ".")
            if by_event_errata.get(e["symbol"]):
                out.append("Errata: " + ", ".join(by_event_errata[e["symbol"]]) + ".")
            out.append("")
            if not e["fields"]:
                out += ["No payload fields.", ""]
                continue
            out += ["| # | field | type | notes |", "|---|---|---|---|"]
            n = 0
            for f in e["fields"]:
                notes = []
                if f.get("out"):
                    notes.append(f"out {f['out']}")
                if f.get("map"):
                    notes.append(f"map {f['map']}")
                if f.get("count"):
                    notes.append(f"count in {f['count']}")
                if f.get("length"):
                    notes.append(f"length in {f['length']}")
                if f.get("layout") == "natural":
                    notes.append("elements laid out as a C struct: members naturally "
                                 "aligned, padding included")
                if f.get("member_of"):
                    label = f"{f['member_of']}[].{f['name']}"
                    num = ""
                else:
                    n += 1
                    label, num = f["name"], str(n)
                out.append(f"| {num} | {label} | {f['type']} | {', '.join(notes)} |")
            out.append("")
    out += ["## Value maps", ""]
    for name, m in spec["maps"].items():
        kind = "bit map" if m["kind"] == "bitmap" else "value map"
        openness = "open" if m.get("open") else "closed"
        out += [f"### {name}", "", f"{kind}, {openness}."
                + (f" {m['open_why']}" if m.get("open_why") else "")]
        if m.get("describes"):
            out.append(f"Not a manifest map: the values {', '.join(m['describes'])} "
                       "really takes.")
        if m.get("runtime_enum"):
            out.append(f"The runtime's enum: {m['runtime_enum']}.")
        out += ["", "| value | name | runtime | sources |", "|---|---|---|---|"]
        for v in m["values"]:
            rt = v.get("runtime", "")
            if v.get("runtime_meaning"):
                rt += f" (the runtime's meaning: {v['runtime_meaning']})"
            out.append(f"| {hex(v['value'])} | {v['name']} | {md_escape(rt)} | "
                       f"{', '.join(v.get('sources', []))} |")
        out.append("")
    os.makedirs(outdir, exist_ok=True)
    write_if_changed(os.path.join(outdir, "spec.md"), "\n".join(out))

    er = ["# Errata", "",
          "Generated by `spec/specgen.py` from `docs/spec/errata.toml`; do not edit.",
          "Every place where a seed document (or the 2016 manifest, `manifest-2016`) disagrees "
          "with another or with the runtime, and every place where the spec departs from the "
          "current manifest (`manifest`).",
          "The runtime wins; *confirmed* names the real runtime whose trace showed the "
          "resolution (`confirmed = { runtime, rid }` in the TOML; tests/real checks that every "
          "marked erratum is shown by the real traces, by the rules in "
          "[real-runtime.md](real-runtime.md)).", ""]
    for x in errata:
        title = f"{x['id']}: {x['event']}" + (f".{x['field']}" if x.get("field") else "")
        er += [f"## {title}", "",
               f"- documents: {', '.join(x.get('docs', []))}",
               f"- kind: {x.get('kind', '')}"]
        if x.get("also_events"):
            er.append(f"- also about: {', '.join(x['also_events'])}")
        if x.get("values"):
            er.append(f"- values: {', '.join(str(v) for v in x['values'])}")
        er += [
               f"- they say: {x.get('says', '')}",
               f"- resolution: {x.get('truth', '')}",
               f"- source: {x.get('source', '')}"]
        if x.get("witness"):
            w = x["witness"]
            er.append(f"- a trace shows it when {w['field']} takes one of "
                      f"{', '.join(hex(v) if v > 9 else str(v) for v in w['values'])}")
        er += [f"- confirmed: {confirmed_text(x.get('confirmed'))}", ""]
    write_if_changed(os.path.join(outdir, "errata.md"), "\n".join(er))

    dg = ["# Diagnostics", "",
          "Generated by `spec/specgen.py` from `docs/diagnostics.toml`; do not edit.",
          "Codes are stable: never renumbered, never reused.", "",
          "| code | severity | name | meaning |", "|---|---|---|---|"]
    for d in spec["diags"]:
        dg.append(f"| {d['code']} | {d['severity']} | {d['name']} | {md_escape(d['meaning'])} |")
    dg.append("")
    # Prose the table cannot hold: [[section]] title and points.
    for sec in load_toml(diag_files(srcdir)[0]).get("section", []):
        dg += [f"## {sec['title']}", ""] + [f"- {p}" for p in sec["points"]] + [""]
    ruled = [d for d in spec["diags"] if d.get("runtime")]
    if ruled:
        dg += ["## What real runtimes do that the rules allow", "",
               "A rule that a genuine trace contradicted was changed to follow the runtime; "
               "each entry says what the runtime does and where that was seen.", ""]
        for d in ruled:
            dg.append(f"### {d['code']} {d['name']}")
            dg.append("")
            for r in d["runtime"]:
                dg.append(f"- {r['follows']} Evidence: {r['evidence']}")
            dg.append("")
    write_if_changed(os.path.join(outdir, "diagnostics.md"), "\n".join(dg))


def confirmed_text(c):
    """How errata.md shows an erratum's `confirmed` table (absent: not yet)."""
    if not c:
        return "not yet by a real trace"
    return f"by a real runtime, .NET {c['runtime']} ({c['rid']}), in the traces of tests/real"


def main(argv):
    if (len(argv) < 3 or argv[2] not in ("c", "docs", "data", "check", "inputs")
            or (argv[2] == "data" and len(argv) != 5)):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    srcdir, mode = argv[1], argv[2]
    if mode == "inputs":
        print("\n".join(table_inputs(srcdir)))
        return 0
    try:
        spec = load_spec(srcdir)
        load_errata(srcdir)
        if mode == "c":
            emit_c(spec, argv[3])
        elif mode == "docs":
            emit_docs(spec, srcdir, argv[3])
        elif mode == "data":
            data = specdata.build(spec, load_errata(srcdir), load_claims(srcdir), argv[4])
            specdata.write(data, argv[3], os.path.join(srcdir, "spec", "spec.h.in"),
                           write_if_changed)
    except SpecError as e:
        print(f"specgen: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
