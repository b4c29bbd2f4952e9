#!/usr/bin/python3
"""babeltrace2's Python bindings (python3-bt2) as a row of the peer table.

    bt2_adapter.py TRACE-DIRECTORY

Reads a CTF trace with source.ctf.fs through bt2.TraceCollectionMessageIterator
(the muxer orders the streams' events by time, as gcoracle indexes them) and
prints, when it is done, the JSON lines `gcoracle compare` reads: a decoder line (name, formats
ctf, checks container, codes false, and as events every event-version except those whose payload babeltrace2 sees only as the runtime LTTng byte blob "data__") and one event line per event message,
with the spec's provider, id, version and symbol (from the event class name
"DotNETRuntime:GCStart_V2"), the default clock's raw value as timestamp, the
common context's vtid as thread, its vpid (else the trace env's vpid) as process, and the payload with the leading "_" of CTF
field names removed. Integers, strings and arrays of structures go out as
babeltrace2 gives them. An exception from babeltrace2 ends the output with
{"type":"error"} and exit status 1. Runs under /usr/bin/python3, the Python
that Debian's python3-bt2 is built for.
"""
import json
import re
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec"))
import speclib  # noqa: E402

import bt2  # noqa: E402

PROVIDERS = {"DotNETRuntime": "Microsoft-Windows-DotNETRuntime",
             "DotNETRuntimePrivate": "Microsoft-Windows-DotNETRuntimePrivate",
             "DotNETRuntimeRundown": "Microsoft-Windows-DotNETRuntimeRundown"}


def plain(f):
    if isinstance(f, bt2._StructureFieldConst):
        return {k.lstrip("_"): plain(v) for k, v in f.items()}
    if isinstance(f, (bt2._ArrayFieldConst,)):
        return [plain(v) for v in f]
    if isinstance(f, bt2._StringFieldConst):
        return str(f)
    if isinstance(f, bt2._BoolFieldConst):
        return bool(f)
    if isinstance(f, bt2._RealFieldConst):
        return float(f)
    if isinstance(f, bt2._IntegerFieldConst):
        return int(f)
    if isinstance(f, (bt2._VariantFieldConst, bt2._OptionFieldConst)):
        return plain(f.selected_option) if hasattr(f, "selected_option") else plain(f.field)
    return str(f)


def excluding(symbols, excluded):
    """symbols less excluded, as a decoder line's "events": gcoracle compare reads a
    version-0 symbol ("GCHeapStats") as its base name, every version, so it goes too
    when any version of its event is excluded."""
    bases = {re.sub(r"_V\d+$", "", s) for s in excluded}
    return sorted(s for s in symbols if s not in excluded and s not in bases)


def process_of(msg, ctx):
    """The event's vpid context (machine-wide LTTng), else the per-process trace's env vpid."""
    if ctx is not None and "vpid" in ctx:
        return int(ctx["vpid"])
    env = msg.event.packet.stream.trace.environment
    return int(env["vpid"]) if "vpid" in env else None


def main():
    spec = {(prov, ev["symbol"]): ev for prov, ev, _ in speclib.spec_events()}
    out = sys.stdout
    lines, opaque = [], set()
    status = 0
    try:
        for msg in bt2.TraceCollectionMessageIterator(sys.argv[1]):
            if type(msg) is not bt2._EventMessageConst:
                continue
            ev = msg.event
            prefix, _, sym = ev.name.partition(":")
            prov = PROVIDERS.get(prefix, prefix)
            sp = spec.get((prov, sym))
            line = {"type": "event", "name": sym, "provider": prov,
                    "id": sp["id"] if sp else -1, "version": sp["version"] if sp else -1,
                    "timestamp": msg.default_clock_snapshot.value}
            ctx = ev.common_context_field
            if ctx is not None and "vtid" in ctx:
                line["thread"] = int(ctx["vtid"])
            vpid = process_of(msg, ctx)
            if vpid is not None:
                line["process"] = vpid
            fields = plain(ev.payload_field) if ev.payload_field is not None else {}
            if "data__" in fields:
                opaque.add(sym)   # the runtime's LTTng blob: bytes to babeltrace2
            else:
                line["fields"] = fields
            lines.append(line)
    except Exception as e:  # babeltrace2 reports every failure as an exception
        lines.append({"type": "error", "message": f"{type(e).__name__}: {str(e)[:500]}"})
        status = 1
    # Events whose payload babeltrace2 sees only as a byte blob are not compared.
    out.write(json.dumps({"type": "decoder", "name": os.environ.get("PEER_NAME", "babeltrace2 (Python)"),
                          "formats": ["ctf"], "checks": ["container"], "codes": False,
                          "events": excluding({s for _, s in spec}, opaque)}) + "\n")
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
