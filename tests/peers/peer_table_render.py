#!/usr/bin/env python3
"""Render the peer table's results (docs/peer-table.json, written by
peer_table_run.py) as docs/peer-table.md and docs/peer-table.html.

    peer_table_render.py RESULTS.json OUT.md OUT.html
    peer_table_render.py --check RESULTS.json OUT.md OUT.html

--check renders to memory and fails (exit 1) when either page differs from
what the results give: `make check` runs it, cheaply, so the committed pages
never drift from the committed results. Deterministic: the same results give
the same bytes.
"""
import html
import os
import json
import sys

# verdict -> (markdown mark, HTML class, legend)
VERDICTS = {
    "ok": ("ok", "ok", "expected result: a y_ case accepted (values equal, where the peer exposes them), "
           "an n_ case rejected"),
    "ok-accepted": ("ok~", "oka", "y_ accepted, values equal but for the peer's accepted differences "
                    "(accepted/*.accept)"),
    "values": ("VALUES", "val", "accepted, but decoded values differ from the expectation beyond the "
               "accepted differences"),
    "rejected-valid": ("REJ", "rej", "a y_ case (valid) rejected"),
    "accepted-invalid": ("ACC", "acc", "an n_ case (invalid) accepted without complaint"),
    "i-accept": ("i:acc", "iacc", "an i_ case accepted (allowed)"),
    "i-reject": ("i:rej", "irej", "an i_ case rejected (allowed)"),
    "crash": ("CRASH", "crash", "the reader's process died: killed by a signal (for .NET an unhandled "
              "exception, an access violation or a stack overflow aborts the process)"),
    "defect": ("DEFECT", "defect", "the reader threw an exception that means a defect in it (null "
               "dereference, index/argument out of range, overflow, bad cast), caught by the adapter "
               "or the tool: the process lives, the file is unreadable"),
    "timeout": ("TIME", "time", "a hang: still running at the time limit ({timeout} s), killed"),
    "oom": ("OOM", "oom", "out of memory under the limit (allocated what the input declared)"),
}
ORDER = list(VERDICTS)


def legend(doc, k):
    return VERDICTS[k][2].format(timeout=doc["timeout_s"])


def verdict(cls, r):
    o = r["outcome"]
    if o in ("crash", "defect", "timeout", "oom"):
        return o
    values = r.get("values")
    if cls == "y":
        if o != "accept":
            return "rejected-valid"
        return {"differ": "values", "accepted": "ok-accepted"}.get(values, "ok")
    if cls == "n":
        return "ok" if o == "reject" else "accepted-invalid"
    if o == "accept":
        return "values" if values == "differ" else "i-accept"
    return "i-reject"


def tip(r):
    parts = [r["outcome"]]
    if r.get("detail"):
        parts.append(r["detail"])
    if "values" in r:
        parts.append(f"values {r['values']}: {r.get('compared', 0)} events, {r.get('fields', 0)} fields "
                     f"compared, {r.get('differences', 0)} differences, {r.get('accepted', 0)} accepted")
    if r.get("first"):
        parts.append("first: " + r["first"])
    return "; ".join(parts)


def load(path):
    doc = json.load(open(path, encoding="utf-8"))
    peers = [p for p in doc["peers"] if p["id"] in doc["results"]]
    return doc, peers


def summary_rows(doc, peers):
    cases = doc["corpus_cases"]
    rows = []
    for p in peers:
        res = doc["results"][p["id"]]
        mine = [c for c in cases if c["container"] in p["containers"] and c["name"] in res]
        count = {k: 0 for k in ORDER}
        by = {"y": [0, 0], "n": [0, 0], "i": [0, 0]}
        for c in mine:
            v = verdict(c["class"], res[c["name"]])
            count[v] += 1
            by[c["class"]][1] += 1
            by[c["class"]][0] += v in ("ok", "ok-accepted", "i-accept", "i-reject")
        rows.append((p, len(mine), by, count))
    return rows


def history(top):
    """[(parser, affected_from, fixed_in, ref, what, [case...], fault class)] from
    tests/peers/history.tsv."""
    out = []
    for line in open(os.path.join(top, "tests", "peers", "history.tsv"), encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        parser, since, fixed, ref, what, cases, fault = line.rstrip("\n").split("\t")
        out.append((parser, since, fixed, ref, what, [] if cases == "-" else cases.split(","), fault))
    return out


def vkey(v):
    return [int(x) if x.isdigit() else x for x in v.replace("-", ".").split(".")]


def history_rows(doc, peers, top):
    """Per fixed bug and case: the outcome in every version of the parser, each version
    marked "before" (has the bug: from affected_from to the fix), "older" (before the
    bug: what it does there is another matter) or "" (has the fix)."""
    rows = []
    for parser, since, fixed, ref, what, cases, fault in history(top):
        cols = [p for p in peers if p["parser"] == parser]
        for case in cases or [None]:
            cells = []
            for p in cols:
                r = doc["results"][p["id"]].get(case) if case else None
                v = vkey(p["version"])
                older = since != "-" and v < vkey(since)
                era = "older" if older else "before" if v < vkey(fixed) else ""
                cells.append((p["version"], era, r["outcome"] if r else ""))
            rows.append((parser, since, fixed, ref, what, case, fault, cells))
    return rows


def markdown(doc, peers):
    out = []
    w = out.append
    w("# Peer table: the corpus through the parsers people use\n")
    w("<!-- Generated by tests/peers/peer_table_render.py from docs/peer-table.json "
      "(make peer-table). Do not edit. -->\n")
    w("Every case of the golden corpus (`corpus/`), run through every peer reader available here, "
      "at every version the package registries serve that builds here. Each run is isolated "
      f"(a child process, {doc['timeout_s']} s time limit, {doc['memory_mib']} MiB address-space "
      "limit for native readers, a 512 MiB GC heap limit for .NET). For the peers that expose "
      "decoded values, every accepted y_ and i_ case is held against its expectation by "
      "`gcoracle compare`, modulo the peer's accepted differences (`accepted/traceevent-4.0.0.accept`, docs/accepted-differences.md). "
      "The grid: [peer-table.html](peer-table.html). How it is run and read: "
      "[peers.md](peers.md#the-peer-table).\n")
    w("## Summary\n")
    w("Passed: y_ accepted with equal values (or only accepted differences), n_ rejected, "
      "i_ either way. The counts per verdict follow.\n")
    w("| parser | version | reads | cases | y_ passed | n_ passed | i_ passed | "
      + " | ".join(VERDICTS[k][0] for k in ORDER) + " |")
    w("|---|---|---|---|---|---|---|" + "---|" * len(ORDER))
    for p, n, by, count in summary_rows(doc, peers):
        w(f"| {p['parser']} | {p['version']} | {', '.join(p['containers'])} | {n} | "
          + " | ".join(f"{by[k][0]}/{by[k][1]}" for k in "yni") + " | "
          + " | ".join(str(count[k]) for k in ORDER) + " |")
    w("")
    w("Peers, as run:\n")
    for p in peers:
        w(f"- **{p['parser']} {p['version']}** (`{p['id']}`): {p['note']}"
          + ("" if p["values"] else " (no decoded values)") + ".")
    for what, why in doc.get("missing", []):
        w(f"- not run: {what}: {why}.")
    w("")
    w("Containers no peer reads here: " + ", ".join(sorted(
        {c["container"] for c in doc["corpus_cases"]}
        - {k for p in peers for k in p["containers"]}))
      + " (docs/peers.md says why).\n")
    w("## History: fixed upstream bugs and the cases that catch them\n")
    w("Each row is a bug a peer fixed, the corpus case (and fault class) that exposes it, and "
      "that case's outcome in every version of the parser here; versions that have the bug are "
      "marked *(before)*, versions older than the bug *(older)*: they fail the case, if they do, "
      "for another reason. `make check` (tests/peers/peer_table_check.py) requires from the "
      "committed results that the case crashes every version with the bug and none from the fix "
      "on. The list: `tests/peers/history.tsv`.\n")
    marks = {"before": " *(before)*", "older": " *(older)*", "": ""}
    for parser, since, fixed, ref, what, case, fault, cells in history_rows(doc, peers, TOP):
        w(f"- **{parser} {fixed}**, {ref}: {what}{f' (from {since} on)' if since != '-' else ''}. Fault class: {fault}. "
          + (f"Case `{case}`: " + ", ".join(f"{v}{marks[e]} {o}" for v, e, o in cells)
             + "." if case else "No corpus case: the corpus cannot reach it."))
    w("")
    w("## Legend\n")
    w("| mark | meaning |")
    w("|---|---|")
    for k in ORDER:
        w(f"| {VERDICTS[k][0]} | {legend(doc, k)} |")
    w("")
    for container in sorted({k for p in peers for k in p["containers"]}):
        cols = [p for p in peers if container in p["containers"]]
        rows = [c for c in doc["corpus_cases"] if c["container"] == container]
        w(f"## {container}: {len(rows)} cases\n")
        w("| case | " + " | ".join(f"{p['parser']} {p['version']}" for p in cols) + " |")
        w("|---|" + "---|" * len(cols))
        for c in rows:
            cells = []
            for p in cols:
                r = doc["results"][p["id"]].get(c["name"])
                cells.append(VERDICTS[verdict(c["class"], r)][0] if r else "")
            w(f"| `{c['name']}` | " + " | ".join(cells) + " |")
        w("")
    return "\n".join(out)


TOP = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table.grid{border-collapse:collapse;font-size:12px}
table.grid td,table.grid th{border:1px solid #fff;padding:0}
table.grid td.c{width:30px;height:16px}
table.grid th.p{white-space:nowrap;vertical-align:bottom;padding:0 0 4px 0;font-weight:normal}
table.grid th.p div{writing-mode:vertical-rl;transform:rotate(180deg);margin:0 auto}
table.grid td.n{font-family:ui-monospace,monospace;padding:0 8px 0 0;white-space:nowrap}
table.sum{border-collapse:collapse;font-size:13px;margin-bottom:1em}
table.sum td,table.sum th{border:1px solid #ccc;padding:2px 6px;text-align:right}
table.sum td:first-child,table.sum th:first-child{text-align:left}
.ok{background:#2ca02c}.oka{background:#98df8a}.val{background:#ff7f0e}
.rej{background:#ffd92f}.acc{background:#f4a6a6}.iacc{background:#9ecae1}
.irej{background:#3182bd}.crash{background:#d62728}.time{background:#7f7f7f}
.oom{background:#8c2d04}.defect{background:#e377c2}
table.legend{border-collapse:collapse;font-size:13px;margin-bottom:1em}
table.legend td{padding:1px 6px}
table.legend td.sw{width:18px}
"""


def page(doc, peers):
    out = []
    w = out.append
    w("<!DOCTYPE html>")
    w('<html lang="en"><head><meta charset="utf-8">')
    w("<title>gcconform peer table</title>")
    w("<!-- Generated by tests/peers/peer_table_render.py from docs/peer-table.json. Do not edit. -->")
    w(f"<style>{CSS}</style></head><body>")
    w("<h1>gcconform peer table</h1>")
    w("<p>Every case of the golden corpus through every peer reader here, at every version that "
      "builds: one column per parser and version, one row per case, a colour per outcome. Hover a "
      "cell for what happened. <code>y_</code> cases are valid, <code>n_</code> invalid, "
      "<code>i_</code> implementation-defined. The same in text: "
      '<a href="peer-table.md">peer-table.md</a>.</p>')
    w('<table class="legend">' + "".join(
        f'<tr><td class="sw {VERDICTS[k][1]}"></td><td>{html.escape(VERDICTS[k][0])}</td>'
        f"<td>{html.escape(legend(doc, k))}</td></tr>" for k in ORDER) + "</table>")
    w('<h2>Summary</h2><table class="sum"><tr><th>parser</th><th>version</th><th>cases</th>'
      "<th>y_ passed</th><th>n_ passed</th><th>i_ passed</th>"
      + "".join(f'<th><span class="{VERDICTS[k][1]}">&nbsp;&nbsp;</span> {html.escape(VERDICTS[k][0])}</th>'
                for k in ORDER) + "</tr>")
    for p, n, by, count in summary_rows(doc, peers):
        w(f"<tr><td>{html.escape(p['parser'])}</td><td>{html.escape(p['version'])}</td><td>{n}</td>"
          + "".join(f"<td>{by[k][0]}/{by[k][1]}</td>" for k in "yni")
          + "".join(f"<td>{count[k]}</td>" for k in ORDER) + "</tr>")
    w("</table>")
    for container in sorted({k for p in peers for k in p["containers"]}):
        cols = [p for p in peers if container in p["containers"]]
        rows = [c for c in doc["corpus_cases"] if c["container"] == container]
        w(f"<h2>{html.escape(container)}: {len(rows)} cases</h2>")
        w('<table class="grid"><tr><th></th>' + "".join(
            f'<th class="p"><div>{html.escape(p["parser"])} {html.escape(p["version"])}</div></th>'
            for p in cols) + "</tr>")
        for c in rows:
            cells = []
            for p in cols:
                r = doc["results"][p["id"]].get(c["name"])
                if not r:
                    cells.append('<td class="c"></td>')
                    continue
                v = verdict(c["class"], r)
                cells.append(f'<td class="c {VERDICTS[v][1]}" title="{html.escape(VERDICTS[v][0] + ": " + tip(r))}"></td>')
            w(f'<tr><td class="n" title="{html.escape(c["description"])}">{html.escape(c["name"])}</td>'
              + "".join(cells) + "</tr>")
        w("</table>")
    w("</body></html>")
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    check = args and args[0] == "--check"
    if check:
        args = args[1:]
    doc, peers = load(args[0])
    md, htm = markdown(doc, peers) + "\n", page(doc, peers)
    if check:
        stale = [path for path, text in ((args[1], md), (args[2], htm))
                 if open(path, encoding="utf-8").read() != text]
        for path in stale:
            print(f"{path} is not what {args[0]} gives: run tests/peers/peer_table_render.py "
                  f"{' '.join(args)} (make peer-table-render)", file=sys.stderr)
        return 1 if stale else 0
    for path, text in ((args[1], md), (args[2], htm)):
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
