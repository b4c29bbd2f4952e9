#!/usr/bin/python3
"""Babeltrace 1 (Debian's python3-babeltrace) as a row of the peer table.

    bt1_adapter.py TRACE-DIRECTORY

The older CTF reader (babeltrace 1.5, still what many LTTng users have):
reads the trace with babeltrace.TraceCollection and prints, when done, the
JSON lines `gcoracle compare` reads, as bt2_adapter.py does: a decoder line
(formats ctf, checks container, codes false, and as events every
event-version except those whose payload babeltrace sees only as the
runtime's LTTng byte blob) and one event line per event, in babeltrace's
time order, with the spec's provider, id and version from the event class
name, the raw clock value as timestamp and the vtid as thread. A trace it
cannot open, or an exception while reading, ends with {"type":"error"} and
exit status 1. Runs under /usr/bin/python3, which python3-babeltrace is
built for.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec"))
import speclib  # noqa: E402

import babeltrace  # noqa: E402

PROVIDERS = {"DotNETRuntime": "Microsoft-Windows-DotNETRuntime",
             "DotNETRuntimePrivate": "Microsoft-Windows-DotNETRuntimePrivate",
             "DotNETRuntimeRundown": "Microsoft-Windows-DotNETRuntimeRundown"}


def plain(v):
    if isinstance(v, dict):
        return {k.lstrip("_"): plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def excluding(symbols, excluded):
    """As bt2_adapter.py: a version-0 symbol stands for its base name in compare."""
    bases = {re.sub(r"_V\d+$", "", s) for s in excluded}
    return sorted(s for s in symbols if s not in excluded and s not in bases)


def main():
    spec = {(prov, ev["symbol"]): ev for prov, ev, _ in speclib.spec_events()}
    lines, opaque, status = [], set(), 0
    try:
        tc = babeltrace.TraceCollection()
        if tc.add_trace(sys.argv[1], "ctf") is None:
            raise IOError("babeltrace cannot open the trace")
        scope = babeltrace.CTFScope
        for ev in tc.events:
            prefix, _, sym = ev.name.partition(":")
            prov = PROVIDERS.get(prefix, prefix)
            sp = spec.get((prov, sym))
            line = {"type": "event", "name": sym, "provider": prov,
                    "id": sp["id"] if sp else -1, "version": sp["version"] if sp else -1,
                    "timestamp": ev.cycles}
            tid = ev.field_with_scope("vtid", scope.STREAM_EVENT_CONTEXT)
            if tid is not None:
                line["thread"] = tid
            vpid = ev.field_with_scope("vpid", scope.STREAM_EVENT_CONTEXT)
            if vpid is not None:
                line["process"] = vpid
            fields = {k.lstrip("_"): plain(ev.field_with_scope(k, scope.EVENT_FIELDS))
                      for k in ev.field_list_with_scope(scope.EVENT_FIELDS)}
            if "data__" in fields:
                opaque.add(sym)
            else:
                line["fields"] = fields
            lines.append(line)
    except Exception as e:
        lines.append({"type": "error", "message": f"{type(e).__name__}: {str(e)[:500]}"})
        status = 1
    out = sys.stdout
    out.write(json.dumps({"type": "decoder", "name": os.environ.get("PEER_NAME", "babeltrace 1 (Python)"),
                          "formats": ["ctf"], "checks": ["container"], "codes": False,
                          "events": excluding({s for _, s in spec}, opaque)}) + "\n")
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
