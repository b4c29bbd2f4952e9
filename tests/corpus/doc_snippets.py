#!/usr/bin/env python3
"""Every snippet of docs/using-the-corpus.md, docs/accepted-differences.md and
the seed command of docs/fuzzing.md is extracted and run, so none can rot.

  sh     run by sh in a scratch directory, with the built gcoracle and gcgen on
         PATH; stand-ins for the reader's own programs: mydec and tinydec
         (gcoracle --json and tests/corpus/tinydec), myvalidator-check (accepts
         y_, rejects n_), pkg-config (gcconform's variables, for this tree and build);
         NAME is a real case. Snippets that run dotnet are run by
         tests/corpus/examples.sh and make check-peers (named here).
  make   a Makefile of the snippet: `make check-corpus` with the stand-ins
  json   every line is a JSON object `gcoracle compare` takes (a decoder line
         passes an empty case)
  cmake  configured with a stand-in mydec target (skipped without cmake)
  go     the test file of a stdlib-only module, `go test ./...` (skipped without go)
  meson  in a minimal project, `meson setup` with a gcconform.pc naming this tree's
         corpus (skipped without meson)
  text   sample output, not run
  accept an accepted-differences file: gcoracle compare --accept loads it
A fence without a language fails the test: say what it is.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

top_srcdir = os.path.abspath(os.environ.get("top_srcdir", "."))
top_builddir = os.path.abspath(os.environ.get("top_builddir", "."))
oracle = os.path.join(top_builddir, "oracle", "gcoracle")
corpus = os.path.join(top_srcdir, "corpus")
CASE = "y_nettrace_v5_realistic_net8"
COVERED_ELSEWHERE = {"dotnet": "tests/corpus/examples.sh and tests/peers/traceevent_accept.sh"}


def snippets(path):
    text = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(text):
        m = re.match(r"^```(\S*)$", text[i])
        if m:
            start, lang, body = i + 1, m.group(1), []
            i += 1
            while i < len(text) and text[i] != "```":
                body.append(text[i])
                i += 1
            yield start, lang, "\n".join(body) + "\n"
        i += 1


def stand_ins(d):
    bin_ = os.path.join(d, "bin")
    os.makedirs(bin_)
    scripts = {
        "mydec": f'#!/bin/sh\n[ "$1" = --json ] && shift\nexec "{oracle}" --json "$@"\n',
        "tinydec": f'#!/bin/sh\nexec "{top_builddir}/tests/corpus/tinydec" "$@"\n',
        "myvalidator-check": '#!/bin/sh\ncase "$1" in */n_*) exit 1;; esac\nexit 0\n',
        "pkg-config": f'#!/bin/sh\ncase "$*" in\n*corpusdir*) echo "{corpus}";;\n'
                      f'*accepteddir*) echo "{top_srcdir}/accepted";;\n*specdir*) echo "{top_builddir}/spec";;\n'
                      f'*--version*|*--modversion*) echo 1.8.1;;\n'
                      '*) exit 0;;\nesac\n',
    }
    for name, body in scripts.items():
        for where in (bin_, d):
            p = os.path.join(where, name)
            with open(p, "w") as f:
                f.write(body)
            os.chmod(p, 0o755)
    for sub in ("cases", "expect", "events"):
        os.symlink(os.path.join(corpus, sub), os.path.join(d, sub))
    os.symlink(os.path.join(top_srcdir, "examples"), os.path.join(d, "examples"))
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([bin_, os.path.dirname(oracle),
                                   os.path.join(top_builddir, "gen"), env.get("PATH", "")])
    env["GCCONFORM_CORPUS"] = corpus
    env.pop("MAKEFLAGS", None), env.pop("MFLAGS", None), env.pop("MAKELEVEL", None)
    return env


def run_go(d, env, body):
    """The snippet as the test file of a module of its own; only the standard
    library, so nothing is fetched (GOPROXY=off, GOFLAGS=-mod=mod)."""
    with open(os.path.join(d, "go.mod"), "w") as f:
        f.write("module mydec\n\ngo 1.19\n")
    with open(os.path.join(d, "corpus_test.go"), "w") as f:
        f.write(body)
    env = dict(env, GOCACHE=os.path.join(d, ".gocache"), GOPATH=os.path.join(d, ".gopath"),
               GOPROXY="off", GOFLAGS="-mod=mod", GOTOOLCHAIN="local", CGO_ENABLED="0")
    return subprocess.run(["go", "test", "./..."], cwd=d, env=env, capture_output=True,
                           text=True, timeout=600)


def run_meson(d, env, body):
    """The snippet inside a minimal project that prints what it found; the
    real pkg-config (not the stand-in, which answers anything) reads a
    gcconform.pc that names this tree's corpus."""
    pc = os.path.join(d, "pc")
    os.makedirs(pc)
    with open(os.path.join(pc, "gcconform.pc"), "w") as f:
        f.write(f"corpusdir={corpus}\naccepteddir={top_srcdir}/accepted\n\n"
                "Name: gcconform\nDescription: stand-in\nVersion: 1.0\n")
    with open(os.path.join(d, "meson.build"), "w") as f:
        f.write("project('mydec', 'c')\n" + body +
                "if not import('fs').is_file(corpus / 'index.json')\n"
                "  error('corpus is ' + corpus + ', which has no index.json')\nendif\n")
    env = dict(env, PKG_CONFIG_PATH=pc, PKG_CONFIG=shutil.which("pkg-config", path="/usr/bin:/bin"))
    return subprocess.run(["meson", "setup", os.path.join(d, "build")], cwd=d, env=env,
                          capture_output=True, text=True, timeout=600)


def run_one(doc, line, lang, body):
    where = f"{doc}:{line} ({lang})"
    if lang == "text":
        return
    if not lang:
        ok(False, f"{where}: a fence says what it holds (sh, make, json, text, ...)")
        return
    with tempfile.TemporaryDirectory() as d:
        env = stand_ins(d)
        body = body.replace("NAME", CASE)
        if lang == "sh":
            tool = next((t for t in COVERED_ELSEWHERE if re.search(rf"\b{t}\b", body)), None)
            if tool and not shutil.which(tool):
                tap.skip(where, f"{tool} is not installed")
                return
            if tool:
                ok(True, f"{where}: run by {COVERED_ELSEWHERE[tool]}")
                return
            p = subprocess.run(["sh", "-c", body], cwd=d, env=env, capture_output=True, text=True,
                               timeout=600)
            ok(p.returncode == 0, f"{where}: runs and exits 0", p.stdout[-1500:] + p.stderr[-1500:])
        elif lang == "make":
            with open(os.path.join(d, "Makefile"), "w") as f:
                f.write(body)
            target = re.match(r"^([\w-]+):", body, re.M).group(1)
            p = subprocess.run(["make", "-s", target], cwd=d, env=env, capture_output=True,
                               text=True, timeout=600)
            ok(p.returncode == 0, f"{where}: make {target} exits 0", p.stdout[-1500:] + p.stderr[-1500:])
        elif lang == "json":
            try:
                items = [json.loads(l) for l in body.split("\n") if l.strip()]
                good = all(isinstance(i, dict) and "type" in i for i in items)
            except ValueError as e:
                good, items = False, str(e)
            ok(good, f"{where}: every line is a JSON object with a type", items)
        elif lang == "accept":
            with open(os.path.join(d, "f.accept"), "w") as f:
                f.write(body)
            p = subprocess.run([oracle, "compare", "--accept", os.path.join(d, "f.accept"), "--quiet",
                                os.path.join(corpus, "expect", CASE + ".cbor"), "/dev/null"],
                               capture_output=True, text=True)
            ok("f.accept:" not in p.stderr, f"{where}: gcoracle compare --accept reads it", p.stderr)
        elif lang == "cmake":
            if not shutil.which("cmake"):
                tap.skip(where, "cmake is not installed")
                return
            with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
                f.write("cmake_minimum_required(VERSION 3.10)\nproject(mydec C)\nenable_testing()\n"
                        "file(WRITE ${CMAKE_BINARY_DIR}/mydec.c \"int main(void){return 0;}\")\n"
                        "add_executable(mydec ${CMAKE_BINARY_DIR}/mydec.c)\n" + body)
            env["PKG_CONFIG"] = os.path.join(d, "pkg-config")
            p = subprocess.run(["cmake", "-S", d, "-B", os.path.join(d, "build")], env=env,
                               capture_output=True, text=True, timeout=600)
            ok(p.returncode == 0, f"{where}: cmake configures it", p.stdout[-1500:] + p.stderr[-1500:])
        elif lang in ("go", "meson"):
            if not shutil.which(lang):
                tap.skip(where, f"{lang} is not installed")
                return
            p = run_go(d, env, body) if lang == "go" else run_meson(d, env, body)
            ok(p.returncode == 0, f"{where}: {lang} runs it and it passes",
               p.stdout[-1500:] + p.stderr[-1500:])
        else:
            ok(False, f"{where}: unknown snippet language {lang!r}")


for doc in ("docs/using-the-corpus.md", "docs/accepted-differences.md"):
    for line, lang, body in snippets(os.path.join(top_srcdir, doc)):
        run_one(doc, line, lang, body)
# The fuzzing doc's seed command, as a reader of docs/fuzzing.md types it.
fuzz = open(os.path.join(top_srcdir, "docs", "fuzzing.md"), encoding="utf-8").read()
seed = [l for l in fuzz.split("\n") if "gcgen" in l and "seeds/" in l]
ok(len(seed) == 1, "docs/fuzzing.md has one seed command", seed)
if seed:
    with tempfile.TemporaryDirectory() as d:
        env = stand_ins(d)
        cmd = seed[0].split("#")[0]
        p = subprocess.run(["sh", "-c", cmd], cwd=d, env=env, capture_output=True, text=True)
        ok(p.returncode == 0 and os.listdir(os.path.join(d, "seeds")),
           f"docs/fuzzing.md's seed command runs in an empty directory: {cmd.strip()}", p.stderr)
tap.done()
