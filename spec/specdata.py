"""The spec as installed data: one JSON document (docs/spec-json.md, docs/spec-json.cddl)
and a self-contained C header made from it, for other projects to build decoders from.

specgen.py calls build() with the loaded spec, then writes json_text() and header_text().
Everything here is derived from the spec TOML; the container rules (LTTng class names,
packed or typed CTF layouts) restate those of gcgen's writers, and tests/spec/spec_json.py
checks them against the traces gcgen writes.
"""

import json
import os
import re

SCHEMA_VERSION = 1
# in-type -> (width at pointer size 4, at 8; None = variable), as the wire has it
WIDTHS = {
    "UInt8": (1, 1), "UInt16": (2, 2), "UInt32": (4, 4), "UInt64": (8, 8),
    "Int8": (1, 1), "Int16": (2, 2), "Int32": (4, 4), "Int64": (8, 8),
    "Float": (4, 4), "Double": (8, 8), "Boolean": (4, 4), "Pointer": (4, 8),
    "GUID": (16, 16), "UnicodeString": (None, None), "AnsiString": (None, None),
    "Binary": (None, None), "Struct": (None, None),
}
# in-type -> how an LTTng tracepoint carries it in a typed class (CoreCLR's
# genLttngProvider.py): integers of the same width, Pointer as size_t,
# Boolean as int32, UnicodeString as NUL-terminated UTF-8, GUID as a size_t
# count (4) and four int32.
CTF_TYPED = {
    "UInt8": "u8", "UInt16": "u16", "UInt32": "u32", "UInt64": "u64",
    "Int8": "i8", "Int16": "i16", "Int32": "i32", "Int64": "i64",
    "Float": "f32", "Double": "f64", "Boolean": "i32", "Pointer": "size_t",
    "UnicodeString": "utf8z", "AnsiString": "bytesz", "GUID": "guid",
}
MAX_LTTNG_ARGS = 9


def lttng_provider(name):
    """DotNETRuntime from Microsoft-Windows-DotNETRuntime: genLttngProvider.py's rule."""
    while True:
        for prefix in ("Microsoft-", "Windows-"):
            if name.startswith(prefix):
                name = name[len(prefix):]
                break
        else:
            return name.replace("-", "_")


def nest_fields(fields):
    """The flat TOML field list as a tree: a Struct holds its members."""
    out, counts = [], {}
    for f in fields:
        ref = f.get("count") or f.get("length")
        if ref:
            # A member's count is a member of the same struct.
            counts[(f.get("member_of"), ref)] = f["name"]
    for f in fields:
        w4, w8 = WIDTHS[f["type"]]
        d = {"name": f["name"], "type": f["type"],
             "width": None if w4 is None else [w4, w8]}
        for key in ("out", "map", "count", "length"):
            if key in f:
                d[key] = f[key]
        if (f.get("member_of"), f["name"]) in counts:
            d["count_of"] = counts[(f.get("member_of"), f["name"])]
        if f["type"] == "Struct":
            d["layout"] = f.get("layout", "packed")
            d["members"] = []
        if f.get("member_of"):
            out[-1]["members"].append(d)
        else:
            out.append(d)
    return out


def ctf_class(provider_name, ev):
    top = [f for f in ev["fields"] if not f.get("member_of")]
    packed = (len(top) > MAX_LTTNG_ARGS or
              any(f["type"] in ("Struct", "Binary") for f in top))
    d = {"name": f"{lttng_provider(provider_name)}:{ev['symbol']}",
         "layout": "packed" if packed else "typed"}
    if packed:
        d["fields"] = [{"name": "_length", "encoding": "u32"},
                       {"name": "____data___length", "encoding": "u32"},
                       {"name": "___data__", "encoding": "payload"}]
    else:
        d["fields"] = [{"name": "_" + f["name"], "field": f["name"],
                        "encoding": CTF_TYPED[f["type"]]} for f in top]
    return d


def build(spec, errata, claims, version):
    by_event = {}
    for er in errata:
        for sym in [er.get("event")] + er.get("also_events", []):
            by_event.setdefault(sym, []).append(er["id"])
    docs_of = {}
    documents = []
    for cl in claims:
        doc = cl.get("document", {})
        documents.append({k: doc[k] for k in ("id", "title", "revision", "covers") if k in doc})
        for s in cl.get("section", []):
            docs_of.setdefault(s.get("event"), []).append(
                {"document": doc.get("id"), "heading": s.get("heading")})
    providers, events = [], []
    for p in spec["providers"]:
        providers.append({"key": p["key"], "name": p["name"], "guid": p["guid"],
                          "lttng_name": lttng_provider(p["name"]),
                          "keywords": p.get("keywords", {})})
        for e in p["events"]:
            fixed = e["fixed_size"]
            events.append({
                "symbol": e["symbol"], "name": e["name"],
                "provider": p["name"], "provider_guid": p["guid"],
                "id": e["id"], "version": e["version"],
                "keywords": e["keywords"], "keyword_mask": e["keyword_mask"],
                "level": e["level"],
                "opcode": e["opcode_value"], "opcode_name": e["opcode"],
                "task": e["task_value"], "task_name": e["task"],
                "payload_size": {"fixed": None if fixed[0] < 0 else fixed,
                                 "min": e["min_size"]},
                "opaque_tail": bool(e.get("opaque_tail")),
                "fields": nest_fields(e["fields"]),
                "containers": {
                    "etl": {"provider_guid": p["guid"], "id": e["id"],
                            "version": e["version"], "opcode": e["opcode_value"],
                            "task": e["task_value"]},
                    "nettrace": {"provider": p["name"], "id": e["id"],
                                 "version": e["version"], "event_name": "",
                                 "full_metadata_name": e["name"]},
                    "ctf": ctf_class(p["name"], e),
                },
                "documented_by": docs_of.get(e["symbol"], []),
                "errata": by_event.get(e["symbol"], []),
            })
    maps = {}
    for name, m in spec["maps"].items():
        maps[name] = {"kind": m["kind"], "open": bool(m.get("open")),
                      "values": [{"value": v["value"], "name": v["name"],
                                  "sources": v.get("sources", [])} for v in m["values"]]}
        if m.get("runtime_enum"):
            maps[name]["runtime_enum"] = m["runtime_enum"]
    keep = ("id", "event", "field", "also_events", "kind", "docs", "values", "says",
            "truth", "source", "witness", "confirmed")
    return {
        "schema_version": SCHEMA_VERSION,
        "gcconform_version": version,
        "source": "dotnet/runtime ClrEtwAll.man commit 68813511, reconciled with the "
                  "runtime's GC sources and real traces (docs/errata.md)",
        "types": {t: (None if w[0] is None else list(w)) for t, w in WIDTHS.items()},
        "providers": providers,
        "events": events,
        "maps": maps,
        "documents": documents,
        "errata": [{k: er[k] for k in keep if k in er} for er in errata],
    }


def json_text(data):
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def c_str(s):
    if s is None:
        return "NULL"
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) > 0x7e:
            # hex escapes would swallow the next hex digit: cut the literal
            out.append("".join(f'\\{b:03o}' for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def c_ident(s):
    return re.sub(r"[^A-Za-z0-9_]", "_", s)


def header_text(data, template_path):
    """The installed <gcconform/spec.h>: the template's declarations, then the tables."""
    with open(template_path, encoding="utf-8") as f:
        head, tail = f.read().split("@TABLES@\n")
    maps = list(data["maps"])
    prov = {p["name"]: i for i, p in enumerate(data["providers"])}
    t = [f"#define GCCONFORM_SPEC_SCHEMA_VERSION {data['schema_version']}",
         f"#define GCCONFORM_SPEC_VERSION {c_str(data['gcconform_version'])}", ""]
    t.append("static const struct gcconform_spec_provider gcconform_spec_providers[] = {")
    for p in data["providers"]:
        t.append(f"\t{{ {c_str(p['name'])}, {c_str(p['guid'])}, {c_str(p['lttng_name'])} }},")
    t += ["};", ""]
    fields, evs, first = [], [], 0
    for e in data["events"]:
        flat = []
        for f in e["fields"]:
            flat.append((f, -1))
            parent = len(flat) - 1
            flat += [(m, parent) for m in f.get("members", [])]
        for f, parent in flat:
            ref = f.get("count") or f.get("length")
            # the row of the sizing field: a top-level field, or for an
            # array member a member of the same struct
            size = next((k for k, (g, gp) in enumerate(flat)
                         if g["name"] == ref and gp == parent), -1) if ref else -1
            w = f["width"] or [-1, -1]
            fields.append(
                f"\t{{ {c_str(f['name'])}, GCCONFORM_SPEC_{f['type'].upper()}, "
                f"{{ {w[0]}, {w[1]} }}, {parent}, "
                f"{size}, "
                f"{maps.index(f['map']) if 'map' in f else -1}, "
                f"{len(f.get('members', []))}, "
                f"{1 if f.get('layout') == 'natural' else 0} }}, /* {e['symbol']} */")
        ctf = e["containers"]["ctf"]
        fx = e["payload_size"]["fixed"] or [-1, -1]
        evs.append(
            f"\t{{ {c_str(e['symbol'])}, {c_str(e['name'])}, {prov[e['provider']]}, "
            f"{e['id']}, {e['version']}, UINT64_C({hex(e['keyword_mask'])}), {e['level']}, "
            f"{e['opcode']}, {e['task']}, {first}, {len(flat)}, "
            f"{{ {fx[0]}, {fx[1]} }}, {c_str(ctf['name'])}, "
            f"{1 if ctf['layout'] == 'packed' else 0}, {c_str(','.join(e['errata']))} }},")
        first += len(flat)
    t.append("static const struct gcconform_spec_field gcconform_spec_fields[] = {")
    t += fields + ["};", ""]
    t.append("static const struct gcconform_spec_event gcconform_spec_events[] = {")
    t += evs + ["};", ""]
    values, mrows, first = [], [], 0
    for n in maps:
        m = data["maps"][n]
        mrows.append(f"\t{{ {c_str(n)}, {1 if m['kind'] == 'bitmap' else 0}, "
                     f"{1 if m['open'] else 0}, {first}, {len(m['values'])} }},")
        values += [f"\t{{ UINT64_C({hex(v['value'])}), {c_str(v['name'])} }}, /* {n} */"
                   for v in m["values"]]
        first += len(m["values"])
    t.append("static const struct gcconform_spec_map gcconform_spec_maps[] = {")
    t += mrows + ["};", ""]
    t.append("static const struct gcconform_spec_map_value gcconform_spec_map_values[] = {")
    t += values + ["};", ""]
    t.append("static const struct gcconform_spec_erratum gcconform_spec_errata[] = {")
    for er in data["errata"]:
        t.append(f"\t{{ {c_str(er['id'])}, {c_str(er.get('event'))}, "
                 f"{c_str(er.get('field'))}, {c_str(er.get('kind'))}, "
                 f"{c_str(er.get('says'))}, {c_str(er.get('truth'))}, "
                 f"{1 if er.get('confirmed') else 0} }},")
    t += ["};", ""]
    t += [f"#define GCCONFORM_SPEC_NPROVIDERS {len(data['providers'])}",
          f"#define GCCONFORM_SPEC_NEVENTS {len(data['events'])}",
          f"#define GCCONFORM_SPEC_NFIELDS {len(fields)}",
          f"#define GCCONFORM_SPEC_NMAPS {len(maps)}",
          f"#define GCCONFORM_SPEC_NMAP_VALUES {len(values)}",
          f"#define GCCONFORM_SPEC_NERRATA {len(data['errata'])}", ""]
    return head + "\n".join(t) + tail


def write(data, outdir, template_path, write_if_changed):
    os.makedirs(outdir, exist_ok=True)
    write_if_changed(os.path.join(outdir, "gcconform-spec.json"), json_text(data))
    write_if_changed(os.path.join(outdir, "spec.h"), header_text(data, template_path))
