#!/usr/bin/env python3
"""docs/real-parser-bugs.md cannot go stale: everything its table cites exists.

  real_parser_bugs.py [PAGE]     default: $top_srcdir/docs/real-parser-bugs.md

The page maps the bugs real parsers had to what gcconform has for each. Its
"gcconform" column cites, in backticks: corpus cases (y_/n_/i_ names), fault
classes (`-M CLASS`), diagnostic codes (`GC-X000`), writer options (`-O K=V`),
gcgen invocations (`gcgen ARGS`) and paths in the tree. This checks, printing
TAP, that every case is in corpus/index.json with its file present, every
class is listed by `gcgen --list-mutations=all`, every code is in the
catalogue (docs/diagnostics.toml, docs/diagnostics/*.toml) and not retired,
every option and invocation is accepted by gcgen, every path exists; that
each row has a known status, "not covered" rows give their reason, the others
cite something checkable, and the counts line agrees with the table. Last, it
runs the same checks on a copy of the page with one bad citation of each kind
and requires each to be caught, so this test can fail.
Standard library only.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib

SRCDIR = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "..")
BUILDDIR = os.environ.get("top_builddir") or SRCDIR
GCGEN = os.path.join(BUILDDIR, "gen", "gcgen")
STATUSES = ("covered", "partly", "not covered")
# Formats a writer option may belong to (-O is per container).
OPTION_FORMATS = ("nettrace-v5", "etl", "ctf")
ROW = re.compile(r"^\| ([A-Z][0-9.]*[0-9]) \|")
CASE = re.compile(r"^[yni]_[a-z0-9_]+$")
CODE = re.compile(r"^GC-[A-Z][0-9]{3}$")
CLASS = re.compile(r"^-M ([a-z0-9-]+)$")
OPTION = re.compile(r"^-O ([a-z-]+=[^ ]+)$")
GCGEN_RUN = re.compile(r"^gcgen( .+)?$")
PATH = re.compile(r"^(tests|oracle|gen|fuzz|corpus|docs)/[A-Za-z0-9_./-]+$")
# A bug's reference: owner/repo (with #N, a path or a file name after it).
REFERENCE = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")


def parse(text):
    """(rows, counts line or None, problems): rows are (id, bug, cover, status)."""
    rows, problems = [], []
    m = re.search(r"<!-- table -->(.*)<!-- /table -->", text, re.S)
    if not m:
        return rows, None, ["no <!-- table --> ... <!-- /table --> section"]
    for line in m.group(1).splitlines():
        if not ROW.match(line):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 4:
            problems.append("row %s: %d cells, not 4" % (ROW.match(line).group(1), len(cells)))
            continue
        rows.append(tuple(cells))
    counts = re.search(r"<!-- counts -->\s*(.*?)\s*<!-- /counts -->", text, re.S)
    return rows, counts.group(1) if counts else None, problems


def classify(token):
    """(kind, value) of a backticked token of the gcconform column, or (None, token)."""
    for kind, rx in (("case", CASE), ("code", CODE), ("class", CLASS), ("option", OPTION),
                     ("gcgen", GCGEN_RUN), ("path", PATH)):
        m = rx.match(token)
        if m:
            return kind, m.group(1) if kind in ("class", "option") else \
                (m.group(1) or "").strip() if kind == "gcgen" else token
    return None, token


class World:
    """What exists: corpus cases, fault classes, codes, and gcgen to ask about options."""

    def __init__(self):
        with open(os.path.join(SRCDIR, "corpus", "index.json")) as f:
            self.cases = {c["name"]: c["file"] for c in json.load(f)["cases"]}
        out = subprocess.run([GCGEN, "--list-mutations=all"], capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError("gcgen --list-mutations=all failed: " + out.stderr.strip())
        self.classes = {l.split()[0] for l in out.stdout.splitlines() if l.strip()}
        paths = [os.path.join(SRCDIR, "docs", "diagnostics.toml")]
        part = os.path.join(SRCDIR, "docs", "diagnostics")
        paths += sorted(os.path.join(part, f) for f in os.listdir(part) if f.endswith(".toml"))
        self.codes = set()
        for p in paths:
            with open(p, "rb") as f:
                for d in tomllib.load(f).get("diag", []):
                    if not d.get("retired"):
                        self.codes.add(d["code"])
        self.tmp = tempfile.mkdtemp(prefix="real-parser-bugs.")
        self._runs = {}

    def gcgen_ok(self, args):
        """gcgen accepts ARGS and writes a small stream with them."""
        key = tuple(args)
        if key not in self._runs:
            out = os.path.join(self.tmp, "out%d" % len(self._runs))
            r = subprocess.run([GCGEN, "-q", "--gcs", "1"] + list(args) + ["-o", out],
                               capture_output=True, text=True)
            self._runs[key] = r.returncode == 0
        return self._runs[key]

    def option_ok(self, kv):
        return any(self.gcgen_ok(["--format", f, "-O", kv]) for f in OPTION_FORMATS)

    def close(self):
        subprocess.run(["rm", "-rf", self.tmp], check=False)


def check(text, world):
    """{check name: [problems]} for the page's text."""
    rows, counts, problems = parse(text)
    found = {k: [] for k in ("table", "ids", "status", "reference", "reason", "cites",
                             "cases", "classes", "codes", "options", "gcgen", "paths",
                             "tokens", "cross-references", "counts")}
    found["table"] += problems
    if len(rows) < 1:
        found["table"].append("no rows")
    ids = [r[0] for r in rows]
    found["ids"] += ["%s appears %d times" % (i, ids.count(i)) for i in sorted(set(ids))
                     if ids.count(i) > 1]
    tally = {s: 0 for s in STATUSES}
    for rid, bug, cover, status in rows:
        if status not in STATUSES:
            found["status"].append("%s: status %r" % (rid, status))
        else:
            tally[status] += 1
        # The items of §3 cite the issue or code they come from; the derived
        # catalogue's items (D…) are case descriptions.
        if not rid.startswith("D") and not REFERENCE.search(bug):
            found["reference"].append("%s: no owner/repo reference in %r" % (rid, bug[:60]))
        if status == "not covered" and not cover.startswith("Not covered"):
            found["reason"].append("%s: a not-covered row must start 'Not covered' and say why" % rid)
        for ref in re.findall(r"\bas ([A-Z][0-9.]*[0-9])\b", cover):
            if ref not in ids:
                found["cross-references"].append("%s: 'as %s' names no row" % (rid, ref))
        checkable = 0
        for token in re.findall(r"`([^`]+)`", cover):
            kind, value = classify(token)
            if kind == "case":
                f = world.cases.get(value)
                if f is None:
                    found["cases"].append("%s: %s is not in corpus/index.json" % (rid, value))
                elif not os.path.exists(os.path.join(SRCDIR, "corpus", f)):
                    found["cases"].append("%s: %s has no corpus/%s" % (rid, value, f))
            elif kind == "class" and value not in world.classes:
                found["classes"].append("%s: -M %s is not a gcgen fault class" % (rid, value))
            elif kind == "code" and value not in world.codes:
                found["codes"].append("%s: %s is not in the diagnostics catalogue" % (rid, value))
            elif kind == "option" and not world.option_ok(value):
                found["options"].append("%s: no format of gcgen takes -O %s" % (rid, value))
            elif kind == "gcgen" and not world.gcgen_ok(value.split()):
                found["gcgen"].append("%s: gcgen %s fails" % (rid, value))
            elif kind == "path" and not os.path.exists(os.path.join(SRCDIR, value)):
                found["paths"].append("%s: %s does not exist" % (rid, value))
            elif kind is None:
                found["tokens"].append("%s: `%s` is none of case, -M class, code, -O option, "
                                       "gcgen run, path" % (rid, value))
            checkable += kind is not None
        if status in ("covered", "partly") and not checkable:
            found["cites"].append("%s: %s but cites nothing checkable" % (rid, status))
    want = "Counts: %d items; %d covered, %d partly, %d not covered." % (
        len(rows), tally["covered"], tally["partly"], tally["not covered"])
    if counts != want:
        found["counts"].append("the page says %r, the table gives %r" % (counts, want))
    return found


def set_row(text, rid, row):
    """TEXT with the table row RID replaced by ROW."""
    return re.sub(r"^\| %s \|.*$" % re.escape(rid), lambda m: row, text, count=1, flags=re.M)


def main():
    page = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SRCDIR, "docs", "real-parser-bugs.md")
    with open(page, encoding="utf-8") as f:
        text = f.read()
    world = World()
    n, failed = 0, 0

    def ok(cond, what, detail=()):
        nonlocal n, failed
        n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
        for d in list(detail)[:20]:
            print("# " + d)
        failed += not cond

    try:
        rows, _, _ = parse(text)
        found = check(text, world)
        for name, problems in found.items():
            ok(not problems, "%s (%d rows)" % (name, len(rows)), problems)
        # One bad citation of each kind, in one row: each must be caught.
        bad = text.replace(
            "| D4.6 | GC Count going backwards | `-M gc-count-backwards`",
            "| D4.6 | GC Count going backwards | `-M gc-count-forwards` `n_no_such_case` "
            "`GC-Z999` `-O no-such-option=1` `gcgen --no-such-flag` `tests/no/such/file` "
            "`something-else` as Z9, `-M gc-count-backwards`", 1)
        bad = set_row(bad, "D4.7", "| D4.7 | Server GC with one heap | nothing | covered |")
        bad = set_row(bad, "D1.16", "| D1.16 | Files over 4 GiB | too large | not covered |")
        bad = set_row(bad, "C6", "| C6 | An infinite loop | Not covered: no | not covered |")
        bad = re.sub(r"\| (not covered) \|$", "| maybe |", bad, count=1, flags=re.M)
        bad = bad.replace("Counts: ", "Counts: 1", 1)
        bad = re.sub(r"^\| C1 \|", "| C2 |", bad, count=1, flags=re.M)
        caught = check(bad, world)
        for name in ("cases", "classes", "codes", "options", "gcgen", "paths", "tokens",
                     "cross-references", "counts", "ids", "status", "reason", "cites",
                     "reference"):
            ok(bool(caught[name]) and not found[name],
               "a bad page is caught: %s" % name, caught[name][:1])
    finally:
        world.close()
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
