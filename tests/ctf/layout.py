"""gcgen's CTF event classes are CoreCLR's: the exhaustive trace (every GC
event-version of the spec) declares exactly the classes, names and field
declarations a real CoreCLR (.NET 10, x64) declared to LTTng, recorded in
tests/ctf/coreclr-classes.txt: typed fields (names, sizes, signedness,
strings), the packed form for templates of more than nine fields, structs
and arrays, and the empty field list of templates without data. TAP.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

top = os.environ.get("top_srcdir", ".")
sys.path.insert(0, os.path.join(top, "tests", "spec"))
from speclib import Tap  # noqa: E402

build = os.environ.get("top_builddir", ".")


def recorded():
    classes, name = {}, None
    with open(os.path.join(top, "tests", "ctf", "coreclr-classes.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("event "):
                name = line[6:]
                classes[name] = []
            elif line.startswith("\t") and name:
                classes[name].append(line.strip())
    return classes


def metadata_text(path):
    """The TSDL of a packetized metadata file (CTF 1.8 section 7.1)."""
    data, text, at = open(path, "rb").read(), b"", 0
    while at + 37 <= len(data):
        magic, = struct.unpack_from("<I", data, at)
        if magic != 0x75D11D57:
            raise ValueError(f"no metadata packet at {at}")
        content, packet = struct.unpack_from("<II", data, at + 24)
        text += data[at + 37:at + content // 8]
        at += packet // 8
    return text.decode("utf-8")


def written(text):
    classes, name, inside = {}, None, False
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("name = \"") and line.startswith("\tname"):
            name = s[len("name = \""):-2]
        elif s == "fields := struct {":
            inside = True
            classes[name] = []
        elif inside and s == "};":
            inside = False
        elif inside and s:
            classes[name].append(s)
    return classes


def main():
    tap = Tap()
    real = recorded()
    work = tempfile.mkdtemp()
    try:
        trace = os.path.join(work, "x")
        rc = subprocess.run([os.path.join(build, "gen", "gcgen"), "-q", "-f", "ctf", "-m", "exhaustive",
                             "--pointer-size", "8", "-o", trace]).returncode
        if not tap.ok(rc == 0, "gcgen writes the exhaustive CTF trace"):
            tap.done()
        ours = written(metadata_text(os.path.join(trace, "metadata")))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tap.ok(len(real) >= 100, f"the recording holds {len(real)} CoreCLR event classes")
    tap.ok(set(ours) == set(real), f"gcgen declares the same {len(ours)} classes",
           f"only gcgen: {sorted(set(ours) - set(real))[:5]}; only CoreCLR: {sorted(set(real) - set(ours))[:5]}")
    differ = [n for n in sorted(set(ours) & set(real)) if ours[n] != real[n]]
    tap.ok(not differ, "every class's field declarations are CoreCLR's, line for line",
           "; ".join(f"{n}: {ours[n][:2]} vs {real[n][:2]}" for n in differ[:3]))
    packed = [n for n in real if any("___data__[" in f for f in real[n])]
    empty = [n for n in real if not real[n]]
    tap.ok(len(packed) > 15 and len(empty) > 5,
           f"they include {len(packed)} packed and {len(empty)} empty classes")
    tap.done()


main()
