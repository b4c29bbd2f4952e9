#!/usr/bin/env python3
"""`make check`'s cheap look at the peer table (the full run is `make peer-table`):

  - docs/peer-table.md and docs/peer-table.html are exactly what
    tests/peers/peer_table_render.py makes of the committed results
    (docs/peer-table.json);
  - every result names a case and a peer the results list;
  - every fixed upstream bug of tests/peers/history.tsv holds in the results:
    its cases crash (the process dies) in every version of the parser from
    the first with the bug to the fix, and in no version from the fix on.

It does not rerun any peer. When the corpus in the tree has cases the results
do not, it says so (a note: `make peer-table` refreshes them).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "spec"))
import peer_table_render as render  # noqa: E402
import speclib  # noqa: E402

top = speclib.srcdir()
t = speclib.Tap()
results_path = os.path.join(top, "docs", "peer-table.json")
md_path = os.path.join(top, "docs", "peer-table.md")
html_path = os.path.join(top, "docs", "peer-table.html")

p = subprocess.run([sys.executable, os.path.join(HERE, "peer_table_render.py"), "--check",
                    results_path, md_path, html_path], capture_output=True, text=True)
t.ok(p.returncode == 0, "docs/peer-table.md and .html are fresh from docs/peer-table.json", p.stderr)

doc, peers = render.load(results_path)
names = {c["name"] for c in doc["corpus_cases"]}
ids = {p["id"] for p in doc["peers"]}
unknown = [(pid, c) for pid, row in doc["results"].items() for c in row
           if pid not in ids or c not in names]
t.ok(not unknown, "every result is of a listed peer and case", unknown[:10])

for parser, since, fixed, ref, what, case, fault, cells in render.history_rows(doc, peers, top):
    if case is None:
        continue
    before = [c for c in cells if c[1] == "before"]
    after = [c for c in cells if c[1] == ""]
    t.ok(case in names, f"{ref}: case {case} is in the results")
    t.ok(bool(before) and all(c[2] == "crash" for c in before),
         f"{ref}: {case} crashes {parser} {', '.join(c[0] for c in before) or '(none has the bug)'}",
         cells)
    t.ok(bool(after) and all(c[2] not in ("crash", "defect", "") for c in after),
         f"{ref}: {case} does not crash {parser} {fixed} or later", cells)

index = json.load(open(os.path.join(top, "corpus", "index.json"), encoding="utf-8"))
missing = sorted({c["name"] for c in index["cases"]} - names)
if missing:
    print(f"# note: {len(missing)} corpus cases are not in docs/peer-table.json yet "
          f"(make peer-table): {', '.join(missing[:5])}")
t.done()
