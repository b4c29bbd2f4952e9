#!/usr/bin/env python3
"""A real LTTng session against the runtime's own decoding of it.

Usage: real_listener.py TOP_SRCDIR GCORACLE SESSION_DIR LISTENER_JSONL

The runtime that wrote the LTTng trace also ran an in-process EventListener
(tests/real/), which wrote its own decoding of the same GC events. Every
listener event of an event the spec describes must have a twin in gcoracle's
decoding of the LTTng trace with identical values (the comparison is
tests/real/errata_evidence.py's, as for the runtime's .nettrace). Prints one
line: "ok N" (events compared) or "not ok WHY"; exits 1 on a difference.
"""
import os
import sys

top_srcdir, oracle, session, listener = sys.argv[1:5]
sys.path.insert(0, os.path.join(top_srcdir, "tests", "real"))
import errata_evidence as ee  # noqa: E402

capdir, jsonl = os.path.split(listener)
name = jsonl[:-len(".listener.jsonl")]
res = ee.read_trace(ee.Evidence(top_srcdir), capdir, name, oracle, trace=session)
seen = sum(res["seen"].values())
missing = {k: v for k, v in res["missing"].items() if v}
if res["status"] != 0 or res["errors"] or missing or not seen:
    why = f"exit {res['status']}, {len(res['errors'])} errors, {seen} compared"
    for k in sorted(missing):
        why += f"; {missing[k]} {k} without a twin, e.g. {res['first_missing'][k][:200]}"
    print("not ok " + why)
    sys.exit(1)
print(f"ok {seen}")
