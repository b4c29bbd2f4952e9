#!/usr/bin/env python3
"""Which errata (docs/spec/errata.toml) the real runtime's traces show.

An erratum says a document is wrong and states the truth; a real trace shows
that truth when the runtime's own bytes (decoded by gcoracle) and its own
decoding (the in-process EventListener) agree with the resolution. One rule
per erratum kind decides it (docs/real-runtime.md explains them); E is the
erratum's event (id and version exactly), F its field:

  every kind      E occurs in the nettrace and the listener saw E under its
                  spec name; gcoracle decoded every E with no payload
                  diagnostic, and every E the listener decoded has a twin
                  with identical values in gcoracle's decoding
  event-id, version-heading-table
                  nothing more (E's id and version are the ones the runtime used)
  missing-field, field-name, field-type
                  the listener names F, spelt exactly so (widths are shown by
                  the payload sizes being exact and the values equal)
  extra-field     the listener's payload has no field of the document's name
  field-order     the listener's field names are the spec's, in its order
  level, keyword  the listener got E at the spec's level / with its keywords
  enum-values     F took a value that each document the erratum names leaves
                  out (versions of E's id with F under the same map count; the
                  document "manifest" lists the map values whose sources name it)
  value-name      F took the first of the erratum's `values` (the number the
                  runtime really uses for the value the document misnumbers)
  semantics       F of the erratum's `witness` took one of its values (values
                  only the truth allows); without a witness, never
  value-meaning, opcode, task
                  never: a payload carries a value's number, not what it means,
                  and the listener reports no opcode or task
  other           nothing more, except that an E with a count-driven array
                  must have held a non-empty one (array layouts are shown)

The test (real_trace.py) requires every erratum marked `confirmed` to be shown
by the traces. Run standalone to mark exactly those they show:

  errata_evidence.py --update ERRATA.toml CAPTURE_DIR GCORACLE
"""
import collections
import json
import os
import re
import subprocess
import sys
import tomllib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec"))
import speclib  # noqa: E402

RUNTIME = "Microsoft-Windows-DotNETRuntime"


def norm(v):
    # The listener writes integers of 2^53 and above as strings.
    if isinstance(v, str) and v.lstrip("-").isdigit():
        v = int(v)
    # .NET Core 3.1's listener gives some UInt64 fields signed
    # (GCPerHeapHistory_V3 PinnedAllocatedAdvance -65608, where the file's
    # UInt64 holds 2^64 - 65608): the same 64 bits.
    if isinstance(v, int) and not isinstance(v, bool) and -(1 << 63) <= v < 0:
        return v + (1 << 64)
    return v


class Evidence:
    """What a set of real traces shows, accumulated event by event."""

    def __init__(self, top):
        self.top = top
        self.spec = {}            # symbol -> spec event dict (runtime provider)
        self.by_key = {}          # (id, version) -> symbol
        self.prov_kw = {}
        for prov, ev, doc in speclib.spec_events(top):
            if prov == RUNTIME:
                self.spec[ev["symbol"]] = ev
                self.by_key[(ev["id"], ev["version"])] = ev["symbol"]
                self.prov_kw = dict(doc["provider"].get("keywords", {}))
        self.seen = collections.Counter()         # symbol -> events in the nettrace
        self.pdiag = collections.Counter()        # symbol -> payload diagnostics
        self.values = collections.defaultdict(set)  # (symbol, field) -> values, mapped fields
        self.nonempty = set()                     # symbols with a non-empty array
        self.lnames = {}                          # symbol -> listener field names (first seen)
        self.lname_mismatch = set()               # symbols the listener named otherwise
        self.llevel = collections.defaultdict(set)
        self.lkeywords = collections.defaultdict(set)
        self.lseen = collections.Counter()
        self.untwinned = collections.Counter()    # symbol -> listener events without a twin
        self.mapped = {s: [f["name"] for f in ev["fields"] if f.get("map")]
                       for s, ev in self.spec.items()}
        # the fields semantics errata name as witnesses: their values are collected too
        epath = os.path.join(top, "docs", "spec", "errata.toml")
        for er in (speclib.load(epath).get("erratum", []) if os.path.exists(epath) else []):
            wit = er.get("witness")
            if wit and er.get("event") in self.mapped and wit.get("field") not in \
                    self.mapped[er["event"]]:
                self.mapped[er["event"]].append(wit["field"])
        self.counts = {s: [f["count"] for f in ev["fields"] if f.get("count")]
                       for s, ev in self.spec.items()}

    # --- accumulate ---------------------------------------------------------
    def oracle_event(self, item):
        if item.get("provider") != RUNTIME or not item.get("name"):
            return
        sym = item["name"]
        self.seen[sym] += 1
        fields = item.get("fields", {})
        for f in self.mapped.get(sym, ()):
            if isinstance(fields.get(f), int):
                self.values[(sym, f)].add(fields[f])
        for c in self.counts.get(sym, ()):
            if isinstance(fields.get(c), int) and fields[c] > 0:
                self.nonempty.add(sym)

    def oracle_diag(self, item):
        if item.get("code", "").startswith("GC-P") and item.get("name"):
            self.pdiag[item["name"]] += 1

    def listener_event(self, ev):
        sym = self.by_key.get((ev["id"], ev["version"]))
        if sym is None:
            return
        if ev.get("name") != sym:
            self.lname_mismatch.add(sym)
        self.lseen[sym] += 1
        self.lnames.setdefault(sym, list(ev.get("payload", {})))
        self.llevel[sym].add(ev.get("level"))
        self.lkeywords[sym].add(int(ev.get("keywords", "0"), 16))

    def untwinned_events(self, sym, n):
        self.untwinned[sym] += n

    # --- judge ----------------------------------------------------------------
    def base(self, sym):
        """Why E cannot be evidence, or None when it can."""
        if sym not in self.spec:
            return f"{sym} is not a runtime-provider event of the spec"
        if not self.seen[sym]:
            return f"no {sym} in the traces"
        if not self.lseen[sym]:
            return f"the listener saw no {sym}"
        if sym in self.lname_mismatch:
            return f"the listener names {sym} otherwise"
        if self.pdiag[sym]:
            return f"{self.pdiag[sym]} payload diagnostics on {sym}"
        if self.untwinned[sym]:
            return f"{self.untwinned[sym]} {sym} decoded differently by the listener"
        return None

    def doc_values(self, doc_id, sym, field):
        """The values document doc_id lists for sym.field, or None."""
        if doc_id == "manifest":
            fmap = next((f.get("map") for f in self.spec[sym]["fields"] if f["name"] == field),
                        None)
            m = speclib.spec_maps(self.top).get(fmap)
            if m is None:
                return None
            return {v["value"] for v in m["values"] if "manifest" in v.get("sources", [])}
        path = os.path.join(self.top, "docs", "spec", "claims", f"{doc_id}.toml")
        if not os.path.exists(path):
            return None
        for sec in speclib.load(path).get("section", []):
            if sec.get("event") != sym:
                continue
            for df in sec.get("fields", []):
                name = df.get("name", "")
                if field in (name, df.get("means")) or name.lower() == field.lower():
                    if name in sec.get("values", {}):
                        return set(sec["values"][name])
        return None

    def same_map_values(self, sym, field):
        ev = self.spec[sym]
        fmap = next((f.get("map") for f in ev["fields"] if f["name"] == field), None)
        out = set()
        for other, oev in self.spec.items():
            if oev["id"] != ev["id"]:
                continue
            if any(f["name"] == field and f.get("map") == fmap for f in oev["fields"]):
                out |= self.values.get((other, field), set())
        return out

    def shows(self, er):
        """(True, what the traces show) or (False, why not)."""
        sym, field, kind = er.get("event"), er.get("field"), er.get("kind")
        why = self.base(sym)
        if why:
            return False, why
        ev = self.spec[sym]
        names = self.lnames.get(sym, [])
        if kind in ("event-id", "version-heading-table"):
            return True, f"{sym} is id {ev['id']} version {ev['version']} in the runtime's trace"
        if kind in ("missing-field", "field-name", "field-type"):
            if field not in names:
                return False, f"the listener's {sym} has no field {field!r} ({names})"
            return True, f"the runtime's {sym} carries {field} with the spec's type and name"
        if kind == "extra-field":
            if er.get("doc_field") in names:
                return False, f"the listener's {sym} has {er.get('doc_field')!r}"
            return True, f"the runtime's {sym} has no {er.get('doc_field')}"
        if kind == "field-order":
            want = [f["name"] for f in ev["fields"] if not f.get("member_of")]
            if not names or names != want[:len(names)] or field not in names:
                return False, f"listener order {names}, spec {want}"
            return True, f"the runtime's {sym} fields come in the spec's order"
        if kind == "level":
            if self.llevel[sym] != {ev["level"]}:
                return False, f"listener levels {sorted(self.llevel[sym])}, spec {ev['level']}"
            return True, f"the runtime emits {sym} at level {ev['level']}"
        if kind == "keyword":
            mask = 0
            for k in ev["keywords"]:
                mask |= self.prov_kw.get(k, 0)
            if not mask or any(kw & mask != mask for kw in self.lkeywords[sym]):
                return False, f"listener keywords {sorted(map(hex, self.lkeywords[sym]))}"
            return True, f"the runtime emits {sym} with keywords {mask:#x}"
        if kind == "enum-values":
            seen = self.same_map_values(sym, field)
            for d in er.get("docs", []):
                listed = self.doc_values(d, sym, field)
                if listed is None:
                    return False, f"{d} lists no values for {sym}.{field}"
                if not seen - listed:
                    return False, f"every value seen ({sorted(seen)}) is in {d}'s list"
            return True, f"{sym}.{field} took values no named document lists"
        if kind == "value-name":
            v = (er.get("values") or [None])[0]
            if v not in self.same_map_values(sym, field):
                return False, f"{sym}.{field} never took {v}"
            return True, f"{sym}.{field} took {v}"
        if kind == "semantics":
            wit = er.get("witness")
            if not wit:
                return False, "a statement without a witness value cannot be shown by a trace"
            took = self.values.get((sym, wit["field"]), set()) & set(wit["values"])
            if not took:
                return False, f"{sym}.{wit['field']} never took any of {wit['values']}"
            return True, f"{sym}.{wit['field']} took {sorted(took)}"
        if kind in ("value-meaning", "opcode", "task"):
            return False, f"a trace cannot show a {kind} erratum"
        if kind == "other":
            if self.counts.get(sym) and sym not in self.nonempty:
                return False, f"no {sym} with a non-empty array"
            return True, f"the runtime's {sym} decodes exactly as the spec has it"
        return False, f"no rule for kind {kind!r}"


def run_version(stdout_text):
    """(runtime version, rid) from the workload's first output line."""
    m = re.search(r"runtime=(\S+)", stdout_text)
    r = re.search(r"rid=(\S+)", stdout_text)
    return (m.group(1) if m else None, r.group(1) if r else None)


def read_trace(evd, capdir, name, oracle, trace=None):
    """gcoracle over one capture (trace: its file or directory, by default
    the capture's .nettrace), compared with the capture's listener; feeds
    evd. Returns what the test reports: gcoracle's exit status, its error
    diagnostics, every other diagnostic as {(code, severity): count}, per spec
    event name how many listener events there were and how many had no twin,
    and the listener's events that the spec does not describe (not compared)."""
    res = {"status": None, "errors": [], "diags": collections.Counter(),
           "seen": collections.Counter(), "missing": collections.Counter(),
           "first_missing": {}, "not_in_spec": collections.Counter(),
           "oracle_unknown": collections.Counter(), "summary": {}}
    if trace is None:
        trace = os.path.join(capdir, name + ".nettrace")
    proc = subprocess.Popen([oracle, "--json", trace],
                            stdout=subprocess.PIPE, text=True)
    decoded = collections.defaultdict(collections.Counter)
    for line in proc.stdout:
        item = json.loads(line)
        if item.get("type") == "event":
            evd.oracle_event(item)
            if item.get("provider") != RUNTIME:
                continue
            key = (item["id"], item["version"])
            if not item.get("name"):
                res["oracle_unknown"][key] += 1
                continue
            decoded[key][json.dumps(item.get("fields", {}), sort_keys=True)] += 1
        elif item.get("type") == "summary":
            res["summary"] = item
        elif item.get("type") == "diag":
            evd.oracle_diag(item)
            if item["severity"] == "error":
                res["errors"].append(f"{item['code']} event {item['event']} "
                                     f"{item.get('name')}: {item['message']}")
            else:
                res["diags"][(item["code"], item["severity"])] += 1
    res["status"] = proc.wait()

    # Every listener event of a spec event must have an identical twin among
    # gcoracle's events of that id and version, projected onto the fields the
    # listener has (it stops at the first variable-length array).
    projected = {}
    with open(os.path.join(capdir, name + ".listener.jsonl"), encoding="utf-8") as f:
        for line in f:
            ev = json.loads(line)
            if "name" not in ev:
                continue  # phase markers
            key = (ev["id"], ev["version"])
            if key not in evd.by_key:
                res["not_in_spec"][(ev["name"], ev["id"], ev["version"])] += 1
                continue
            evd.listener_event(ev)
            fields = {k: norm(v) for k, v in ev["payload"].items()}
            names_key = (key, tuple(sorted(fields)))
            if names_key not in projected:
                c = collections.Counter()
                for js, count in decoded.get(key, {}).items():
                    full = json.loads(js)
                    c[json.dumps({k: norm(full.get(k)) for k in fields}, sort_keys=True)] += count
                projected[names_key] = c
            pool = projected[names_key]
            js = json.dumps(fields, sort_keys=True)
            res["seen"][ev["name"]] += 1
            if pool[js] > 0:
                pool[js] -= 1
            else:
                res["missing"][ev["name"]] += 1
                res["first_missing"].setdefault(ev["name"], js)
    for evname, n in res["missing"].items():
        evd.untwinned_events(evname, n)
    return res


def captures(capdir):
    return sorted(f[:-len(".nettrace")] for f in os.listdir(capdir) if f.endswith(".nettrace"))


def update(path, shown, runtime, rid):
    """Rewrite the `confirmed` line of every erratum: set where shown, else removed."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for line in lines:
        m = re.match(r'id = "(E\d+)"', line)
        if m:
            cur = m.group(1)
        if line.startswith("confirmed ="):
            continue
        out.append(line)
        if line.startswith("source =") and cur in shown:
            out.append(f'confirmed = {{ runtime = "{runtime}", rid = "{rid}" }}')
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    os.replace(path + ".tmp", path)


def main(argv):
    if len(argv) != 5 or argv[1] != "--update":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, capdir, oracle = argv[2:]
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))
    evd = Evidence(top)
    names = captures(capdir)
    for name in names:
        read_trace(evd, capdir, name, oracle)
    with open(os.path.join(capdir, names[0] + ".stdout")) as f:
        runtime, rid = run_version(f.read())
    errata = speclib.load(path)["erratum"]
    shown = set()
    for er in errata:
        ok, what = evd.shows(er)
        print(f"{er['id']} {'shown' if ok else 'not shown'}: {what}")
        if ok:
            shown.add(er["id"])
    update(path, shown, runtime, rid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
