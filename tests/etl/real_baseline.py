#!/usr/bin/env python3
"""Real Windows .etl files (../shared/real-traces, PerfView's TraceEvent test
inputs) read by gcoracle and compared with TraceEvent's own decoding of them
(the *.baseline.txt beside each): for every GC event name TraceEvent counts,
gcoracle decodes as many events; for every GC event TraceEvent prints, the
event of the same name at the same place among its kind carries the same
value in every field TraceEvent shows (numbers without TraceEvent's
thousands separators, enum values by the spec's map names, Booleans).

The files are used in place (the zips are unpacked into a temporary
directory); the test skips when they are absent. TAP.

net.4.5.2.x86.etl is a compressed, relogged PerfView merge holding a
64-bit PerfView and the 32-bit process under test: its events must come out
with their own pointer sizes. Diagnostics are asserted only where the rules
are settled: gcevents.etl (.NET 8) has no error and no warning; the 4.5.2
file's double GCStart is the runtime-matrix rules' business.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import tomllib
import zipfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

TOP = os.environ.get("top_srcdir", ".")
BUILD = os.environ.get("top_builddir", ".")
SHARED = os.environ.get("SHARED_DIR", os.path.join(TOP, "..", "shared"))
REAL = os.path.join(SHARED, "real-traces")
ORACLE = os.path.join(BUILD, "oracle", "gcoracle")

# TraceEvent's event names (Provider/GC/<Name>) and the manifest symbols
# (without the _V<n> suffix) they stand for.
TE_NAMES = {
    "Start": "GCStart", "Stop": "GCEnd",
    "SuspendEEStart": "GCSuspendEEBegin", "SuspendEEStop": "GCSuspendEEEnd",
    "RestartEEStart": "GCRestartEEBegin", "RestartEEStop": "GCRestartEEEnd",
    "FinalizersStart": "GCFinalizersBegin", "FinalizersStop": "GCFinalizersEnd",
    "MarkCards": "GCMarkOlderGenerationRoots",
    "FinalizeObject": "FinalizeObject", "PinObjectAtGCTime": "PinObjectAtGCTime",
}
# The private provider's events carry a Prv prefix in the spec where the
# public provider has an event of the same name.
PRIVATE_PREFIX = {"MarkCards": "PrvGCMarkCards", "MarkStackRoots": "PrvGCMarkStackRoots",
                  "MarkHandles": "PrvGCMarkHandles",
                  "MarkFinalizeQueueRoots": "PrvGCMarkFinalizeQueueRoots"}
NOT_FIELDS = {"PID", "TID", "PName", "ProceNum", "DataLen"}
# Fields TraceEvent computes from other events rather than reads from the
# payload: HeapStats' Depth (from the GC's GCStart), FinalizeObject's
# TypeName (from the type's BulkType/rundown events).
DERIVED = {("GCHeapStats", "Depth"), ("FinalizeObject", "TypeName")}
# TraceEvent's names for fields the manifest names otherwise.
TE_FIELDS = {("GCMarkWithType", "Promoted"): "Bytes"}
# TraceEvent's own enums for fields the manifest gives no map, or where its
# names differ from the manifest's (TraceEvent's C# enums in
# GCDynamicEvents/ClrTraceEventParser): value -> name, or "bits" for a
# flags enum printed as "A, B", or "bitindex" for the runtime's
# (1 << 31 | 1 << index) mechanism words.
TE_ENUMS = {
    ("GCGlobalHeapHistory", "Reason"): "GCReasonMap",
    ("GCGlobalHeapHistory", "PauseMode"): {0: "Batch", 1: "Interactive", 2: "LowLatency",
                                           3: "SustainedLowLatency", 4: "NoGC"},
    ("GCGlobalHeapHistory", "GlobalMechanisms"): ("bits", {1: "Concurrent", 2: "Compaction",
                                                           4: "Promotion", 8: "Demotion",
                                                           16: "CardBundles"}),
    ("GCPerHeapHistory", "CompactMechanisms"): ("bitindex", [
        "compact_low_ephemeral", "compact_high_frag", "compact_no_gaps", "compact_loh_forced",
        "compact_last_gc", "compact_induced_compacting", "compact_fragmented_gen0",
        "compact_high_mem_load", "compact_high_mem_frag", "compact_vhigh_mem_frag",
        "compact_no_gc_mode"]),
    ("GCPerHeapHistory", "ExpandMechanisms"): ("bitindex", [
        "expand_reuse_normal", "expand_reuse_bestfit", "expand_new_seg_ep", "expand_new_seg",
        "expand_no_memory", "expand_next_full_gc"]),
    ("GCFitBucketInfo", "BucketKind"): {0: "FLItem", 1: "PlugsInCondemned"},
}


def spec_tables():
    """symbol -> {field -> map name}, and map name -> (kind, {value: name})."""
    fields, maps = {}, {}
    d = os.path.join(TOP, "docs", "spec")
    for f in ("dotnet-runtime.toml", "dotnet-runtime-private.toml", "dotnet-runtime-rundown.toml"):
        with open(os.path.join(d, f), "rb") as fh:
            t = tomllib.load(fh)
        for ev in t.get("event", []):
            fields[ev["symbol"]] = {x["name"]: x.get("map") for x in ev.get("fields", [])}
    with open(os.path.join(d, "maps.toml"), "rb") as fh:
        t = tomllib.load(fh)
    for name, m in t["map"].items():
        maps[name] = (m.get("kind", "value"), {v["value"]: v["name"] for v in m.get("values", m.get("value", []))})
    return fields, maps


def baseline(path):
    """COUNT name -> n for GC events, and the EVENT lines of GC events as
    (provider, name, {field: text}) in file order."""
    counts, events = {}, []
    rx = re.compile(r"^EVENT [0-9,.]+: (Microsoft-Windows-DotNETRuntime\w*)/GC/(\w+) (.*)$")
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.rstrip("\n")
            m = re.match(r"^COUNT (Microsoft-Windows-DotNETRuntime\w*)/GC/(\w+):(\d+)$", line)
            if m:
                counts[(m.group(1), m.group(2))] = int(m.group(3))
                continue
            m = rx.match(line)
            if m:
                kv = {}
                for part in m.group(3).split("; "):
                    if "=" in part:
                        k, v = part.split("=", 1)
                        kv[k] = v.rstrip(";").rstrip()
                events.append((m.group(1), m.group(2), kv))
    return counts, events


def symbol_base(sym):
    return re.sub(r"_V\d+$", "", sym)


def te_base(provider, name):
    if provider.endswith("Private") and name in PRIVATE_PREFIX:
        return PRIVATE_PREFIX[name]
    if name in TE_NAMES:
        return TE_NAMES[name]
    return "GC" + name


def oracle_events(path):
    out = subprocess.run([ORACLE, "--json", path], capture_output=True, text=True)
    evs, summary = [], None
    for line in out.stdout.splitlines():
        r = json.loads(line)
        if r["type"] == "event" and r.get("name"):
            evs.append(r)
        elif r["type"] == "summary":
            summary = r
    return out.returncode, evs, summary


def norm(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def te_enum(text, value, how, maps):
    if isinstance(how, str):
        return value in maps[how][1] and norm(maps[how][1][value]) == norm(text)
    if isinstance(how, dict):
        return how.get(value) == text
    kind, names = how
    if value == 0:
        return text in ("None", "not_specified")
    if kind == "bits":
        full = ", ".join(names[b] for b in sorted(names) if value & b)
    else:
        low = value & 0x7FFFFFFF
        if not value & 0x80000000 or low & (low - 1) or low.bit_length() > len(names):
            return False
        full = names[low.bit_length() - 1]
    return full == text or (text.endswith("...") and full.startswith(text[:-3]))


def same_value(text, value, mapname, maps):
    """TraceEvent's text for a field against gcoracle's value."""
    if isinstance(value, str):
        # TraceEvent shortens strings to 20 characters and "...".
        if text.endswith("...") and len(text) == 23:
            return value.startswith(text[:20])
        return value == text
    if re.fullmatch(r"-?[0-9,]+", text):
        return int(text.replace(",", "")) == value
    if re.fullmatch(r"0x[0-9a-fA-F]+", text):
        return int(text, 16) == value
    if text in ("True", "False"):
        return (text == "True") == (value != 0)
    if re.fullmatch(r"-?[0-9,]*\.[0-9]+", text):
        return abs(float(text.replace(",", "")) - float(value)) < 1e-3
    if mapname:
        kind, vals = maps[mapname]
        if kind == "value":
            if value in vals and norm(vals[value]) == norm(text):
                return True
        else:
            names = [vals[b] for b in sorted(vals) if b and value & b == b]
            if value == 0 and 0 in vals:
                names = [vals[0]]
            if norm("".join(names)) == norm(text):
                return True
        # TraceEvent's own name for "nothing" (its C# enums' 0).
        if value == 0 and text in ("not_specified", "None"):
            return True
    return False


def check(label, etl, base_file, fields, maps, clean):
    counts, bevents = baseline(base_file)
    rc, evs, summary = oracle_events(etl)
    ok(summary is not None and rc in (0, 1), "%s: gcoracle reads it (exit %d)" % (label, rc))
    if summary is None:
        return
    by_base = {}
    for e in evs:
        by_base.setdefault((e["provider"], symbol_base(e["name"])), []).append(e)
    bad = []
    for (prov, name), want in sorted(counts.items()):
        got = len(by_base.get((prov, te_base(prov, name)), []))
        if got != want:
            bad.append("%s/GC/%s: TraceEvent %d, gcoracle %d" % (prov, name, want, got))
    ok(not bad and counts, "%s: all %d GC event kinds TraceEvent counts have its count%s"
       % (label, len(counts), " (" + "; ".join(bad[:5]) + ")" if bad else ""))
    seen, bad, nvals = {}, [], 0
    for prov, name, kv in bevents:
        key = (prov, te_base(prov, name))
        k = seen.get(key, 0)
        seen[key] = k + 1
        lst = by_base.get(key, [])
        if k >= len(lst):
            bad.append("%s/GC/%s #%d: gcoracle has no such event" % (prov, name, k))
            continue
        e = lst[k]
        f = e.get("fields", {})
        fmap = fields.get(e["name"], {})
        base = symbol_base(e["name"])
        for fname, text in kv.items():
            if fname in NOT_FIELDS or (base, fname) in DERIVED:
                continue
            fname = TE_FIELDS.get((base, fname), fname)
            if not fmap:
                # An event-version the spec gives no fields (the 4.5.2
                # private GCPerHeapHistory v0): TraceEvent's values are its
                # guess at an undocumented layout.
                continue
            if text == "" or (fname not in fmap and text in ("0", "not_specified")):
                # TraceEvent prints every field its class knows: empty or
                # 0 for those this version of the event does not carry.
                if fname in f:
                    bad.append("%s #%d: %s is %r in TraceEvent, %r in gcoracle" % (e["name"], k, fname, text, f[fname]))
                continue
            if base == "GCHeapStats" and fname in ("TotalHeapSize", "TotalPromoted"):
                # TraceEvent's sums over the generations.
                part = "GenerationSize" if fname == "TotalHeapSize" else "TotalPromotedSize"
                value = sum(v for x, v in f.items() if x.startswith(part))
            elif fname not in f:
                bad.append("%s #%d: no field %s (TraceEvent %s)" % (e["name"], k, fname, text))
                continue
            else:
                value = f[fname]
            nvals += 1
            how = TE_ENUMS.get((base, fname))
            good = te_enum(text, value, how, maps) if how else same_value(text, value, fmap.get(fname), maps)
            if not good:
                bad.append("%s #%d: %s TraceEvent %s, gcoracle %r" % (e["name"], k, fname, text, value))
    ok(not bad and bevents, "%s: %d GC events TraceEvent prints, %d field values, all equal%s"
       % (label, len(bevents), nvals, " (" + "; ".join(bad[:6] if not os.environ.get("VERBOSE") else bad) + ")" if bad else ""))
    if clean:
        ok(summary["errors"] == 0 and summary["warnings"] == 0,
           "%s: 0 errors, 0 warnings (%d, %d)" % (label, summary["errors"], summary["warnings"]))
    return summary


def diags(path):
    out = subprocess.run([ORACLE, "--json", path], capture_output=True, text=True)
    return [(r["code"], r["offset"]) for r in map(json.loads, out.stdout.splitlines())
            if r["type"] == "diag"]


def mutated(path, t):
    """The small compressed file with one field changed: the compressed
    buffer's faults reported with their codes at the buffer's fields."""
    data = open(path, "rb").read()
    b1 = struct.unpack_from("<I", data, 0)[0]          # buffer 1 follows buffer 0
    lfm = 0x48 + 0x20 + 0x20
    cases = [
        ("Offset 8 past what the data expands to", b1 + 0x30, "GC-W013", b1 + 0x30),
        ("LogFileMode without EVENT_TRACE_COMPRESSED_MODE", lfm, "GC-W014", b1 + 0x34),
    ]
    for what, at, code, where in cases:
        d = bytearray(data)
        v = struct.unpack_from("<I", d, at)[0]
        struct.pack_into("<I", d, at, v + 8 if code == "GC-W013" else v & ~0x04000000)
        f = os.path.join(t, "m.etl")
        open(f, "wb").write(bytes(d))
        got = diags(f)
        ok((code, where) in got, "SelfDescribingSingleEvent, %s: %s at byte %d (%s)" % (what, code, where, got[:4]))


def main():
    files = ["net.4.5.2.x86.etl.zip", "net.4.5.2.x86.baseline.txt", "gcevents.etl.zip",
             "gcevents.baseline.txt", "SelfDescribingSingleEvent.etl"]
    missing = [f for f in files if not os.path.exists(os.path.join(REAL, f))]
    if missing:
        print("1..0 # SKIP real traces not at %s (%s)" % (REAL, ", ".join(missing)))
        return 0
    fields, maps = spec_tables()
    with tempfile.TemporaryDirectory() as t:
        for z in ("net.4.5.2.x86.etl.zip", "gcevents.etl.zip"):
            with zipfile.ZipFile(os.path.join(REAL, z)) as zf:
                zf.extractall(t)
        net = os.path.join(t, "net.4.5.2.x86.etl")
        gce = os.path.join(t, "gcevents", "PerfViewData.etl")
        s = check("net.4.5.2.x86 (compressed, relogged, x86 in a 64-bit merge)", net,
                  os.path.join(REAL, "net.4.5.2.x86.baseline.txt"), fields, maps, True)
        if s:
            d = s.get("diagnostics", {})
            ok(not any(c.startswith("GC-W") and c != "GC-W010" for c in d),
               "net.4.5.2.x86: no container diagnostic but the passed-over note (%s)"
               % ", ".join(sorted(d)))
            ok(d.get("GC-V007", 0) == 0,
               "net.4.5.2.x86: no value error from a wrong pointer size (GC-V007 %d)" % d.get("GC-V007", 0))
        check("gcevents (.NET 8, plain)", gce, os.path.join(REAL, "gcevents.baseline.txt"),
              fields, maps, True)
        out = subprocess.run([ORACLE, "--json", os.path.join(REAL, "SelfDescribingSingleEvent.etl")],
                             capture_output=True, text=True)
        summ = [json.loads(x) for x in out.stdout.splitlines() if '"type":"summary"' in x]
        ok(out.returncode == 0 and summ and summ[0]["events"] == 19 and summ[0]["errors"] == 0
           and summ[0]["warnings"] == 0,
           "SelfDescribingSingleEvent (compressed; header buffer SavedOffset 440, Offset 520): "
           "19 events of other providers, no error, no warning")
        mutated(os.path.join(REAL, "SelfDescribingSingleEvent.etl"), t)
    print("1..%d" % tap.n)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
