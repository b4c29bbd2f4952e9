#!/usr/bin/env python3
"""Write accepted/traceevent-4.0.0.accept from the evidence docs/peers.md rests on.

  accept_gen.py DECODER-OUTPUT-DIR > accepted/traceevent-4.0.0.accept

DECODER-OUTPUT-DIR holds NAME.jsonl, the output of examples/traceevent
(TraceEventDecoder) on corpus/cases/NAME.* for every y_ nettrace case
(tests/peers/traceevent_accept.sh writes them). Each case is compared with
`gcoracle compare --json --max 0`, which names for every difference the kind
of entry that would accept it; the differences are grouped into entries and
each entry takes its reason from the docs/peers.md divergence row for the same
event, field and kind (the rows TraceEvent's peer test keeps true), or from
REASONS below for what the peer test does not look at (event names, fields
TraceEvent does not print). A difference with no reason fails: write one.
Needs top_srcdir and top_builddir in the environment (or runs from the top).
"""
import collections
import json
import os
import subprocess
import sys

top_srcdir = os.environ.get("top_srcdir", ".")
top_builddir = os.environ.get("top_builddir", ".")
oracle = os.path.join(top_builddir, "oracle", "gcoracle")

# TraceEvent's names for manifest fields (as in traceevent_peer.py's ALIASES).
ALIASES = {("GCMarkWithType", "Bytes"): "Promoted", ("GCJoin_V2", "JoinID"): "ID"}

# Differences the peer test does not see (it compares the fields TraceEvent names).
REASONS = {
    ("name", "*", "-"): "TraceEvent names events by task and opcode (\"GC/Start\", "
    "\"GC/RestartEEStop\"), and \"EventID(N)\" where it has no template; the spec names them "
    "by symbol (GCStart_V2). Header id, version, timestamp and thread are still compared.",
    ("missing-field", "*", "Values"): "TraceEvent's PayloadNames do not include the event's "
    "Struct array (Values): its elements are not available through PayloadValue, so the "
    "decoder cannot print them.",
    ("missing-field", "BGCOverflow_V1", "GenNumber"): "TraceEvent's BGCOverflow class has no "
    "GenNumber property: the field version 1 added is not named.",
    ("missing-event", "BGC1stSweepEnd", "-"): "TraceEvent 4.0.0 has no template for the "
    "private event 26: it reaches the decoder as \"EventID(26)\" without fields "
    "(docs/peers.md).",
    ("rejects", "y_nettrace_v5_uncompressed_headers", "-"): "TraceEvent 4.0.0 rejects "
    "uncompressed V5 event headers: it does not skip the padding to a 4-byte offset after each "
    "uncompressed event blob (docs/peers.md, \"Outside the peer test\"). The runtime never writes "
    "them.",
}


def peer_rows():
    text = open(os.path.join(top_srcdir, "docs", "peers.md"), encoding="utf-8").read()
    body = text.split("<!-- divergences -->")[1].split("<!-- /divergences -->")[0]
    rows = {}
    for line in body.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0] not in ("metadata",) and not set(cells[0]) <= {"-"}:
            rows[(cells[1], cells[2], cells[3])] = cells[4]
    return rows


def peer_reason(rows, kind, event, field):
    """The docs/peers.md row for this entry, by the peer test's kinds."""
    kinds = {"signed-view": ["signed"], "absent-field": ["absent-field", "absent-field-value"],
             "value": ["value"], "missing-event": ["missing-event"],
             "computed": ["field-name"], "name": ["field-name"]}.get(kind, [])
    for pk in kinds:
        for ev in (event, "*"):
            for fd in (field, "*"):
                if (ev, fd, pk) in rows:
                    return rows[(ev, fd, pk)]
    return None


def main():
    outdir = sys.argv[1]
    rows = peer_rows()
    found = collections.Counter()
    for name in sorted(os.listdir(outdir)):
        if not name.endswith(".jsonl"):
            continue
        case = name[:-6]
        p = subprocess.run([oracle, "compare", "--json", "--max", "0",
                            os.path.join(top_srcdir, "corpus", "expect", case + ".cbor"),
                            os.path.join(outdir, name)], capture_output=True, text=True)
        diffs = [json.loads(l) for l in p.stdout.split("\n") if l]
        diffs = [d for d in diffs if d.get("type") == "diag" and d["severity"] == "error"]
        if any(d.get("accept", {}).get("kind") == "rejects" for d in diffs):
            found[("rejects", case, "-")] += 1
            continue  # a rejected case's events are not compared once that is accepted
        for d in diffs:
            if "accept" not in d:
                sys.exit(f"{case}: {d['code']} {d['message']}: no kind of entry can accept this")
            found[(d["accept"]["kind"], d["name"], d["accept"]["field"])] += 1
    entries = {}
    for (kind, event, field), n in found.items():
        alias = ALIASES.get((event, field)) if kind == "missing-field" else None
        if alias:
            entries[("name", event, f"{field}={alias}")] = peer_reason(rows, "name", event, alias)
            continue
        if kind == "computed" and (event, None) and any(
                ev == event and al == field for (ev, _), al in ALIASES.items()):
            continue  # the alias entry covers it
        if kind in ("signed-view", "absent-field") or (kind == "name" and field == "-"):
            event, field = "*", "*" if kind != "name" else "-"
        reason = (REASONS.get((kind, event, field)) or REASONS.get((kind, "*", field))
                  or peer_reason(rows, kind, event, field))
        if not reason:
            sys.exit(f"no reason for {kind} {event} {field} ({n} differences): add a row to "
                     "docs/peers.md or REASONS in tests/peers/accept_gen.py")
        entries[(kind, event, field)] = reason
    print("# Differences a decoder built on Microsoft.Diagnostics.Tracing.TraceEvent 4.0.0")
    print("# knowingly has against the gcconform corpus (docs/accepted-differences.md).")
    print("# Generated by tests/peers/accept_gen.py from TraceEvent's output on every y_")
    print("# nettrace case; reasons from docs/peers.md. `make check-peers` requires that")
    print("# TraceEvent pass every y_ nettrace case with it and that every entry still occurs.")
    print("gcconform-accepted-differences 1")
    print("decoder TraceEvent 4.0.0 (examples/traceevent)")
    order = ["rejects", "name", "signed-view", "absent-field", "computed", "missing-field",
             "missing-event", "value"]
    for k in sorted(entries, key=lambda k: (order.index(k[0]), k[1], k[2])):
        print(f"{k[0]:<13} {k[1]:<30} {k[2]:<28} {entries[k]}")


main()
