#!/usr/bin/env python3
"""The layering of docs/ARCHITECTURE.md, checked on the sources and the objects.

Includes: spec/ and util/ include neither half; gen/ and oracle/ never
include each other; oracle/decode/ never includes oracle/check/; every
project header is named by its path from the top, so these rules can be read
off the #include lines. Objects: no symbol of a decode object is defined in a
check object, and the "uses a symbol defined in" graph between the objects of
spec/, util/, gen/ and oracle/ has no cycle (an import loop is a pair of files
that cannot be understood one without the other).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import tap  # noqa: E402

SRC = os.environ.get('top_srcdir', '.')
BUILD = os.environ.get('top_builddir', '.')
LAYERS = ('spec', 'util', 'gen', 'oracle')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# (from, to, why): a file under `from` may not include one under `to`.
FORBIDDEN = [
    ('spec/', 'gen/', 'the spec is the bottom layer'),
    ('spec/', 'oracle/', 'the spec is the bottom layer'),
    ('util/', 'gen/', 'util holds generic helpers below both halves'),
    ('util/', 'oracle/', 'util holds generic helpers below both halves'),
    ('gen/', 'oracle/', 'the generator and the oracle share only spec/ and util/'),
    ('oracle/', 'gen/', 'the generator and the oracle share only spec/ and util/'),
    ('oracle/decode/', 'oracle/check/', 'the decoder never depends on the checker'),
]


def sources():
    for layer in LAYERS + ('fuzz',):
        root = os.path.join(SRC, layer)
        for d, _, files in os.walk(root):
            for f in files:
                if f.endswith(('.c', '.h')):
                    p = os.path.relpath(os.path.join(d, f), SRC)
                    yield p.replace(os.sep, '/')


def layer_rules(t):
    files = sorted(sources())
    t.ok(len(files) > 100, f'{len(files)} C sources and headers found under {", ".join(LAYERS)}, fuzz')
    known = set(files)
    bad_path, broken = [], []
    for p in files:
        with open(os.path.join(SRC, p), encoding='utf-8') as fh:
            incs = INCLUDE.findall(fh.read())
        for inc in incs:
            if inc == 'config.h' or p.startswith('fuzz/'):
                continue
            if inc.endswith(('gcspec_ids.h', 'gcspec_tables.c')):
                inc_path = inc
            elif inc in known:
                inc_path = inc
            else:
                bad_path.append(f'{p}: "{inc}"')
                continue
            for frm, to, why in FORBIDDEN:
                if p.startswith(frm) and inc_path.startswith(to):
                    broken.append(f'{p} includes {inc_path} ({why})')
    t.ok(not bad_path, 'every project include names its file from the top: ' + ('; '.join(bad_path[:10]) or 'all do'))
    for frm, to, why in FORBIDDEN:
        hits = [b for b in broken if b.startswith(frm) and f' includes {to}' in b]
        t.ok(not hits, f'nothing in {frm} includes {to} ({why})' + ('; ' + '; '.join(hits[:10]) if hits else ''))


def objects():
    """One object per source of the four layers: automake prefixes an
    object with its target's name (liboracle_a-decode.o), so the source is
    what follows the last '-'. Each source is compiled once, but a tree
    built before may still hold an object of another name: the newest
    object of a source stands for it."""
    seen = {}
    for layer in LAYERS:
        for d, _, files in os.walk(os.path.join(BUILD, layer)):
            for f in sorted(files):
                if not f.endswith('.o'):
                    continue
                rel = os.path.relpath(d, BUILD).replace(os.sep, '/')
                src = rel + '/' + f.rsplit('-', 1)[-1][:-2] + '.c'
                path = os.path.join(d, f)
                if src not in seen or os.path.getmtime(path) > os.path.getmtime(seen[src]):
                    seen[src] = path
    return seen


def symbols(path):
    out = subprocess.run(['nm', '--defined-only', '-g', path], capture_output=True, text=True, check=True).stdout
    defined = {line.split()[-1] for line in out.splitlines() if line.strip()}
    out = subprocess.run(['nm', '-u', path], capture_output=True, text=True, check=True).stdout
    used = {line.split()[-1] for line in out.splitlines() if line.strip()}
    return defined, used


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def object_rules(t):
    objs = objects()
    if len(objs) < 50:
        for what in ('decode uses no check symbol', 'the wall holds for objects', 'no import loop'):
            tap.skip(what, f'only {len(objs)} objects under {BUILD}: build the tree first')
        return
    syms = {src: symbols(o) for src, o in objs.items()}
    owner = {}
    for src, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, src)
    graph = {src: sorted({owner[s] for s in used if s in owner and owner[s] != src})
             for src, (_, used) in syms.items()}
    up = [f'{a} uses {b}' for a, bs in graph.items() if a.startswith('oracle/decode/')
          for b in bs if b.startswith('oracle/check/')]
    t.ok(not up, 'no decode object uses a symbol of a check object' + ('; ' + '; '.join(up) if up else ''))
    wall = [f'{a} uses {b}' for a, bs in graph.items() for b in bs
            if a.split('/')[0] in ('gen', 'oracle') and b.split('/')[0] in ('gen', 'oracle')
            and a.split('/')[0] != b.split('/')[0]]
    t.ok(not wall, 'no gen object uses an oracle symbol, and the reverse' + ('; ' + '; '.join(wall) if wall else ''))
    loops = cycles(graph)
    t.ok(not loops, f'no import loop among {len(graph)} objects' +
         ('; ' + ' | '.join(' <-> '.join(c) for c in loops) if loops else ''))


def main():
    layer_rules(tap)
    object_rules(tap)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
