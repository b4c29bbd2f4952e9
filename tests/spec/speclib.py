"""Helpers for the spec tests: TAP output and reading the spec TOML.

Deliberately independent of spec/specgen.py, so the tests check the script
rather than repeat it.
"""
import os
import sys
import tomllib

PROVIDER_FILES = ("dotnet-runtime.toml", "dotnet-runtime-private.toml",
                  "dotnet-runtime-rundown.toml")


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, what, detail=None):
        self.n += 1
        if not cond:
            self.failed += 1
        print(f"{'' if cond else 'not '}ok {self.n} - {what}")
        if not cond and detail:
            for line in str(detail).splitlines():
                print(f"# {line}")
        return cond

    def skip_all(self, why):
        print(f"1..0 # SKIP {why}")
        sys.exit(0)

    def done(self):
        print(f"1..{self.n}")
        sys.exit(1 if self.failed else 0)


def srcdir():
    return os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")


def load(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def spec_events(top=None):
    """Every event of the spec as (provider name, event dict)."""
    top = top or srcdir()
    out = []
    for fn in PROVIDER_FILES:
        doc = load(os.path.join(top, "docs", "spec", fn))
        for ev in doc.get("event", []):
            out.append((doc["provider"]["name"], ev, doc))
    return out


def spec_maps(top=None):
    top = top or srcdir()
    return load(os.path.join(top, "docs", "spec", "maps.toml")).get("map", {})
