#!/usr/bin/env python3
"""campaign_report.py WORK DIR - the dated summary of a fuzzing campaign.

Reads what fuzz/campaign.sh left in WORK/<harness>/ (result, logs,
artifacts, coverage.json from fuzz/coverage.sh) and writes DIR/summary.json
and DIR/summary.md; every crash, timeout or out-of-memory input up to 1 MiB
is copied to DIR/crashes/<harness>/ so the summary's reproducers are kept
with it. Environment: CAMPAIGN_COMMIT, CAMPAIGN_CLANG, CAMPAIGN_LOAD (what
the summary says the campaign ran on).
"""
import json
import os
import re
import shutil
import sys

# The sources each harness exists to test: the summary's coverage rows
# (another harness shows every file it reached; summary.json keeps every
# instrumented file).
OWN_SOURCES = {
    "model": ["oracle/formats/model/"],
    "nettrace": ["oracle/formats/nettrace/"],
    "ctf": ["oracle/formats/ctf/"],
    "etl": ["oracle/formats/etl/"],
    "decode": ["oracle/decode/decode.c"],
    "compare": ["oracle/compare/"],
    "example": ["fuzz/gcmutator/example_parser.c"],
    "gcgen_args": ["gen/options.c", "gen/run.c"],
}
# libFuzzer's artifact prefixes and bt2ctf's / gcextrun's verdict names.
KINDS = {"crash": "crash", "leak": "crash", "deadly": "crash", "timeout": "timeout",
         "oom": "oom", "memory": "oom"}
MAX_KEPT = 1 << 20


def read_result(path):
    res = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, sep, val = line.rstrip("\n").partition("=")
            if sep:
                res[key] = val
    return res


def pair(text):
    files, size = (text or "0 0").split()
    return {"files": int(files), "bytes": int(size)}


def first_error(hdir):
    """The first sanitizer or libFuzzer error line of a harness's logs."""
    pat = re.compile(r"(ERROR: \w+|SUMMARY: |==\d+== ERROR|bt2ctf: finding|Unhandled|Exception)")
    out = []
    for name in sorted(os.listdir(hdir)):
        if not name.endswith(".log"):
            continue
        with open(os.path.join(hdir, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                if pat.search(line):
                    out.append(line.strip()[:200])
                    break
    return out


def source_root(filename):
    """A path relative to the tree: coverage files are absolute."""
    for mark in ("/oracle/", "/gen/", "/fuzz/", "/spec/", "/util/"):
        i = filename.rfind(mark)
        if i >= 0:
            return filename[i + 1:]
    return None


def coverage(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        data = json.load(f)["data"][0]
    files = {}
    for ent in data["files"]:
        rel = source_root(ent["filename"])
        if rel is None or rel.startswith(("fuzz/harness/", "spec/gcspec_tables")):
            continue
        summ = ent["summary"]
        files[rel] = {k: [summ[k]["covered"], summ[k]["count"]]
                      for k in ("lines", "branches", "functions")}
    return files


def own(harness):
    base = harness[:-2] if harness.endswith("_s") else harness
    return OWN_SOURCES.get(base, [])


def pct(cov):
    covered, count = cov
    return "n/a" if count == 0 else "%.2f%%" % (100.0 * covered / count)


def collect(work, outdir):
    harnesses = []
    for h in sorted(os.listdir(work)):
        hdir = os.path.join(work, h)
        if not os.path.exists(os.path.join(hdir, "result")):
            continue
        res = read_result(os.path.join(hdir, "result"))
        ent = {"harness": h, "kind": res.get("kind")}
        if ent["kind"] == "skipped":
            ent["reason"] = res.get("reason", "")
            harnesses.append(ent)
            continue
        secs = int(res.get("seconds", "0"))
        execs = int(res.get("execs", "0"))
        ent.update({"seconds": secs, "execs": execs,
                    "execs_per_sec": round(execs / secs, 1) if secs else 0,
                    "corpus": res.get("corpus"),
                    "corpus_before": pair(res.get("corpus_before")),
                    "corpus_after": pair(res.get("corpus_after"))})
        if res.get("cpu_seconds"):
            ent["cpu_seconds"] = float(res["cpu_seconds"])
        if res.get("load"):
            ent["load"] = res["load"]
        for key in ("cov", "ft", "restarts"):
            if res.get(key):
                ent[key] = int(res[key])
        for key in ("mutants", "verdicts"):
            if key in res:
                ent[key] = res[key]
        arts = []
        adir = os.path.join(hdir, "artifacts")
        for name in sorted(os.listdir(adir)) if os.path.isdir(adir) else []:
            kind = KINDS.get(name.split("-")[0], "other")
            if name.startswith("slow-unit"):
                continue
            src = os.path.join(adir, name)
            art = {"file": name, "kind": kind, "bytes": os.path.getsize(src)}
            if art["bytes"] <= MAX_KEPT:
                dst = os.path.join(outdir, "crashes", h)
                os.makedirs(dst, exist_ok=True)
                shutil.copyfile(src, os.path.join(dst, name))
                art["kept"] = "crashes/%s/%s" % (h, name)
            arts.append(art)
        ent["artifacts"] = arts
        ent["errors"] = first_error(hdir) if arts else []
        for kind in ("crash", "timeout", "oom"):
            ent[kind + "es" if kind == "crash" else kind + "s"] = sum(a["kind"] == kind for a in arts)
        cov = coverage(os.path.join(hdir, "coverage.json"))
        if cov is not None:
            ent["coverage"] = cov
        harnesses.append(ent)
    return harnesses


def size(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return ("%d %s" if unit == "B" else "%.1f %s") % (n, unit)
        n /= 1000.0
    return str(n)


def markdown(date, meta, harnesses):
    out = ["# Fuzzing campaign %s" % date, ""]
    out.append("Written by `make fuzz-campaign` (fuzz/campaign.sh, fuzz/campaign_report.py) "
               "from commit `%s`, %s; %s." % (meta["commit"], meta["clang"], meta["load"]))
    out.append("Own harnesses are OSS-Fuzz's build (address + undefined sanitizers, libFuzzer, "
               "dictionary and `max_len` from build.sh), one process at a time; bt2ctf is "
               "babeltrace2's CTF reader run by `fuzz/bt2ctf` in a child for each input; "
               "traceevent is TraceEvent under gcextrun on gcmutator mutants of the nettrace "
               "corpus (no coverage feedback). The corpora are not in git: see "
               "docs/fuzzing.md, \"Campaigns\".")
    out.append("CPU is the harness processes' user + system time: on a shared machine exec/s "
               "is what the share of a core it got allowed, execs per CPU second the harness's "
               "own speed.")
    out += ["", "| harness | time | CPU | executions | exec/s | execs per CPU s | cov / ft "
            "| corpus before | corpus after | crashes | timeouts | OOMs |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for h in harnesses:
        if h["kind"] == "skipped":
            out.append("| %s | skipped: %s | | | | | | | | | | |" % (h["harness"], h["reason"]))
            continue
        cb, ca = h["corpus_before"], h["corpus_after"]
        cov = "%s / %s" % (h.get("cov", "-"), h.get("ft", "-")) if "cov" in h else h.get("verdicts", "-")
        cpu = h.get("cpu_seconds")
        out.append("| `%s` | %d s | %s | %s | %s | %s | %s | %d files, %s | %d files, %s | %d | %d | %d |" % (
            h["harness"], h["seconds"], "%.0f s" % cpu if cpu is not None else "-",
            format(h["execs"], ","), h["execs_per_sec"],
            "%.1f" % (h["execs"] / cpu) if cpu else "-", cov,
            cb["files"], size(cb["bytes"]), ca["files"], size(ca["bytes"]),
            h["crashes"], h["timeouts"], h["ooms"]))
    out += ["", "## Coverage of each harness's own sources", "",
            "llvm-cov over the final corpus replayed by the harness built with "
            "`-fprofile-instr-generate -fcoverage-mapping` (fuzz/coverage.sh); babeltrace2 "
            "and TraceEvent are not instrumented.", "",
            "| harness | source | lines | branches | functions |", "|---|---|---|---|---|"]
    for h in harnesses:
        cov = h.get("coverage")
        if not cov:
            continue
        for path in sorted(cov):
            mine = own(h["harness"])
            if not cov[path]["lines"][1]:
                continue
            if any(path.startswith(p) for p in mine) or (not mine and cov[path]["lines"][0]):
                c = cov[path]
                out.append("| `%s` | `%s` | %s (%d/%d) | %s | %s |" % (
                    h["harness"], path, pct(c["lines"]), c["lines"][0], c["lines"][1],
                    pct(c["branches"]), pct(c["functions"])))
    out += ["", "## Crashes, timeouts and out-of-memory inputs", ""]
    found = [h for h in harnesses if h.get("artifacts")]
    if not found:
        out.append("None.")
    for h in found:
        for a in h["artifacts"]:
            where = "`%s`" % a["kept"] if "kept" in a else "not kept (%d bytes)" % a["bytes"]
            out.append("- `%s`: %s, %s" % (h["harness"], a["kind"], where))
        for e in h["errors"]:
            out.append("  - `%s`" % e.replace("`", "'"))
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: campaign_report.py WORK DIR")
    work, outdir = sys.argv[1], sys.argv[2]
    date = os.path.basename(os.path.normpath(outdir))
    os.makedirs(outdir, exist_ok=True)
    shutil.rmtree(os.path.join(outdir, "crashes"), ignore_errors=True)
    meta = {"commit": os.environ.get("CAMPAIGN_COMMIT", "unknown"),
            "clang": os.environ.get("CAMPAIGN_CLANG", "clang"),
            "load": os.environ.get("CAMPAIGN_LOAD", "load not recorded")}
    harnesses = collect(work, outdir)
    for name, text in (("summary.json", json.dumps(dict(date=date, **meta, harnesses=harnesses),
                                                   indent=1, sort_keys=True) + "\n"),
                       ("summary.md", markdown(date, meta, harnesses))):
        tmp = os.path.join(outdir, "." + name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, os.path.join(outdir, name))
    print("fuzz-campaign: %s/summary.md" % outdir)


if __name__ == "__main__":
    main()
