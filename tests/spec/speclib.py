"""Helpers for the spec tests: TAP output and reading the spec TOML.

Deliberately independent of spec/specgen.py, so the tests check the script
rather than repeat it.
"""
import os
import sys
import tomllib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

PROVIDER_FILES = ("dotnet-runtime.toml", "dotnet-runtime-private.toml",
                  "dotnet-runtime-rundown.toml")


class Tap:
    """tests/tap.py behind an object, as the spec tests use it; a failure's
    detail in full."""

    def ok(self, cond, what, detail=None):
        return tap.ok(cond, what, detail or "", lines=None)

    def skip_all(self, why):
        tap.skip_all(why)

    def done(self):
        tap.done()


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
