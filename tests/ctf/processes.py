"""Two processes in one CTF trace, as an LTTng session of two .NET processes
records them: two gcgen traces (different seeds, -O vpid=1001 and 1002)
merged into one directory (the first trace's metadata plus the second's
stream and event classes as stream class 1; the second's stream files
renamed apart, their packets given the first's uuid and stream id 1), so
that the two runtimes' GCs, both numbered from 1 and both ClrInstanceID 0,
interleave in time. The checker keeps them apart: 0 errors and 0 warnings,
and the summary counts each process's GCs. A broken variant (the second
process's GC numbers going backwards, gc-count-backwards) gives exactly the
GC-S007 the second trace gives alone, naming process 1002. TAP.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

build = os.environ.get("top_builddir", ".")
GCGEN = os.path.join(build, "gen", "gcgen")
ORACLE = os.path.join(build, "oracle", "gcoracle")


def metadata_text(path):
    """The TSDL of a packetized metadata file (packet header: 37 bytes;
    content and packet sizes in bits at bytes 24 and 28)."""
    data = open(path, "rb").read()
    out, at = b"", 0
    while at < len(data):
        content, size = struct.unpack_from("<II", data, at + 24)
        out += data[at + 37:at + content // 8]
        at += size // 8
    return out.decode()


def blocks(text, keyword):
    """The top-level `keyword { ... };` blocks of a TSDL text."""
    found = []
    for m in re.finditer(r"^%s \{" % keyword, text, re.M):
        depth, i = 0, m.start()
        while True:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        found.append(text[m.start():text.index(";", i) + 1])
    return found


def restream(path, out, uuid, stream_id):
    """Copy a stream file with every packet's uuid and stream id replaced
    (gcgen's packet header: magic, uuid[16], stream_id, stream_instance_id;
    then the context's timestamp_begin, timestamp_end, content_size and
    packet_size, in bits, at byte 56)."""
    data = bytearray(open(path, "rb").read())
    at = 0
    while at < len(data):
        data[at + 4:at + 20] = uuid
        struct.pack_into("<I", data, at + 20, stream_id)
        at += struct.unpack_from("<Q", data, at + 56)[0] // 8
    open(out, "wb").write(data)


def merge(a, b, out):
    os.mkdir(out)
    ta, tb = metadata_text(os.path.join(a, "metadata")), metadata_text(os.path.join(b, "metadata"))
    extra = [s.replace("id = 0;", "id = 1;", 1) for s in blocks(tb, "stream")]
    extra += [e.replace("stream_id = 0;", "stream_id = 1;") for e in blocks(tb, "event")]
    with open(os.path.join(out, "metadata"), "w") as f:
        f.write(ta + "\n" + "\n\n".join(extra) + "\n")
    uuid = None
    for name in sorted(os.listdir(a)):
        if name != "metadata":
            shutil.copy(os.path.join(a, name), os.path.join(out, name))
            uuid = open(os.path.join(a, name), "rb").read(20)[4:20]
    for name in sorted(os.listdir(b)):
        if name != "metadata":
            restream(os.path.join(b, name), os.path.join(out, name.replace("channel0", "channel1")),
                     uuid, 1)


def gcgen(out, seed, vpid, *more):
    subprocess.run([GCGEN, "-f", "ctf", "--seed", str(seed), "--gcs", "30",
                    "-O", "vpid=%d" % vpid, "-o", out, *more], check=True)


def oracle(*args):
    return subprocess.run([ORACLE, *args], capture_output=True, text=True).stdout


def counts(summary):
    m = re.search(r"diagnostics: (\d+) errors, (\d+) warnings", summary)
    return (int(m.group(1)), int(m.group(2))) if m else None


def diags(path):
    return [json.loads(line) for line in oracle("--json", path).splitlines()
            if '"type":"diag"' in line]


def gcstart_times(path):
    return [json.loads(line)["timestamp"] for line in oracle("--json", path).splitlines()
            if '"type":"event"' in line and '"GCStart' in line]


def gcs(summary):
    return int(re.search(r"(\d+) GCs", summary).group(1))


tmp = tempfile.mkdtemp(prefix="gcconform-ctfproc-")
try:
    a, b, bad = (os.path.join(tmp, n) for n in ("a", "b", "bad"))
    gcgen(a, 11, 1001)
    gcgen(b, 12, 1002)
    gcgen(bad, 12, 1002, "-M", "gc-count-backwards")
    merged, broken = os.path.join(tmp, "merged"), os.path.join(tmp, "broken")
    merge(a, b, merged)
    merge(a, bad, broken)

    ta, tb = gcstart_times(a), gcstart_times(b)
    tap.ok(ta and tb and max(ta[0], tb[0]) < min(ta[-1], tb[-1]),
           "the two traces' GCs interleave in time",
           f"{ta[:1]}..{ta[-1:]} and {tb[:1]}..{tb[-1:]}")
    sa, sb, sm = oracle("--quiet", a), oracle("--quiet", b), oracle("--quiet", merged)
    tap.ok(counts(sa) == (0, 0) and counts(sb) == (0, 0), "each trace alone is clean", sa + sb)
    tap.ok(counts(sm) == (0, 0), "merged: 0 errors, 0 warnings", sm)
    tap.ok(gcs(sm) == gcs(sa) + gcs(sb), "merged: the GCs of both", sm)
    by = dict(re.findall(r"^  process (\d+) +(\d+)$", sm, re.M))
    tap.ok(by == {"1001": str(gcs(sa)), "1002": str(gcs(sb))},
           "the summary counts each process's GCs", sm)
    tap.ok("GCs by process" not in sa, "one process: no per-process lines", sa)
    two = oracle("--quiet", a, b)
    tap.ok("GCs by process" not in two, "two traces of one process each: no per-process lines",
           two)

    alone = [d for d in diags(bad) if d["code"] == "GC-S007"]
    both = [d for d in diags(broken) if d["code"] == "GC-S007"]
    tap.ok(len(alone) >= 1 and len(both) == len(alone),
           "broken: as many GC-S007 as the broken trace alone gives",
           f"{len(alone)} alone, {len(both)} merged: {both}")
    tap.ok(both and all(d["message"].endswith("(process 1002)") for d in both),
           "broken: GC-S007 names process 1002", [d["message"] for d in both])
    def serious(ds, suffix=""):
        # Event numbers in messages are the trace's: they differ once merged.
        return sorted((d["code"], re.sub(r"event \d+", "event N", d["message"]) + suffix)
                      for d in ds
                      if d["severity"] in ("error", "warning"))
    tap.ok(serious(diags(broken)) == serious(diags(bad), " (process 1002)"),
           "broken: the same errors and warnings as the broken trace alone, naming process 1002",
           [serious(diags(broken)), serious(diags(bad))])

    threaded = oracle("--quiet", "--threads", "2", merged)
    tap.ok(threaded == sm, "--threads 2: the same summary", threaded)
finally:
    shutil.rmtree(tmp)
tap.done()
