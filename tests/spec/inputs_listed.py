"""spec/spec.mk lists the TOML files the spec tables are made from (make
rebuilds the tables when one changes and puts them in the tarball), and
spec/specgen.py finds them itself (docs/diagnostics/*.toml by directory): the
two lists must be the same, so a new catalogue file that spec.mk does not
name fails here instead of being missed by make and by make dist. TAP."""

import os
import re
import subprocess
import sys

top = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")


def mk_list(text, var):
    """The words of `VAR = ...` in a Makefile fragment, continuations joined."""
    text = text.replace("\\\n", " ")
    m = re.search(rf"^{var}\s*=(.*)$", text, re.M)
    return m.group(1).split() if m else None


with open(os.path.join(top, "spec", "spec.mk"), encoding="utf-8") as f:
    mk = f.read()
listed = []
for var in ("SPEC_TOML", "DIAG_TOML"):
    words = mk_list(mk, var)
    if words is None:
        print("1..1")
        print(f"not ok 1 - spec/spec.mk defines {var}")
        sys.exit(1)
    listed += words
found = subprocess.run([sys.executable, os.path.join(top, "spec", "specgen.py"), top, "inputs"],
                       capture_output=True, text=True, check=True).stdout.split()

print("1..3")
missing = sorted(set(found) - set(listed))
extra = sorted(set(listed) - set(found))
print(("ok" if not missing else "not ok") +
      " 1 - spec.mk names every TOML file specgen.py reads" +
      (f": add {' '.join(missing)} to DIAG_TOML or SPEC_TOML" if missing else ""))
print(("ok" if not extra else "not ok") +
      " 2 - spec.mk names no TOML file specgen.py does not read" +
      (f": {' '.join(extra)}" if extra else ""))
# Test 1 must be able to fail: the catalogue directory is not empty.
parts = [f for f in found if f.startswith("docs/diagnostics/")]
print(("ok" if parts else "not ok") +
      f" 3 - specgen.py reads the per-part catalogues ({len(parts)} in docs/diagnostics/)")
sys.exit(1 if missing or extra or not parts else 0)
