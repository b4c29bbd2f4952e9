#!/usr/bin/env python3
"""gcgen's nettrace shape options (--uncompressed-headers, --block-bytes,
--sp-every, --metadata) change the file's shape and nothing else.

For V5 and V6, every option (and all of them together) must:
  - give a file gcoracle reads with zero errors and zero warnings, whose
    decoded events (names, times, threads, every field) equal those of the
    default shape;
  - really change the shape, read here with a small block walker of this
    test's own (container blocks in file order, EventBlock header flags):
      --uncompressed-headers   every EventBlock's flags say uncompressed
                               (the default: every one compressed)
      --block-bytes 4096       more, smaller EventBlocks than the default
      --sp-every 1             a sequence point after every EventBlock (the
                               default, in a short stream: only the one at
                               the end)
      --metadata upfront       every metadata block before the first EventBlock,
                               describing every spec event (first-use: a
                               metadata block comes after an EventBlock)
By default sequence points go where the runtime puts them (every 10 MiB of
its thread buffers, gen/formats/nettrace/nettrace_wsp.h): a long stream gets several, each
after more than 1 MB and at most 10 MiB of EventBlocks, and --sp-every end
leaves only the final one; both read back as the same events.
Bad option values are usage errors (exit 2), and so are the options with a
format that is not nettrace.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402
from tap import ok  # noqa: E402

top_builddir = os.environ.get("top_builddir", ".")
gcgen = os.path.join(top_builddir, "gen", "gcgen")
oracle = os.path.join(top_builddir, "oracle", "gcoracle")


V6_KINDS = {0: "EndOfStream", 1: "Trace", 2: "EventBlock", 3: "MetadataBlock",
            4: "SPBlock", 5: "StackBlock", 6: "ThreadBlock", 7: "RemoveThreadBlock",
            8: "LabelListBlock"}


def blocks(path):
    """[(kind, size, header flags or None)] in file order, V5 (FastSerialization
    objects) or V6 (typed blocks)."""
    data = open(path, "rb").read()
    out = []
    if data[:8] != b"Nettrace":
        raise ValueError("no Nettrace magic")
    if struct.unpack_from("<I", data, 8)[0] == 0:          # V6: Reserved = 0
        pos = 20
        while pos + 4 <= len(data):
            x = struct.unpack_from("<I", data, pos)[0]
            size, kind = x & 0xFFFFFF, V6_KINDS.get(x >> 24, str(x >> 24))
            body = data[pos + 4:pos + 4 + size]
            flags = struct.unpack_from("<H", body, 2)[0] if kind == "EventBlock" else None
            out.append((kind, size, flags))
            pos += 4 + size
            if kind == "EndOfStream":
                break
        return out
    pos = 12 + struct.unpack_from("<I", data, 8)[0]         # past "!FastSerialization.1"
    while data[pos] != 1:                                   # NullReference ends the stream
        if data[pos:pos + 3] != b"\x05\x05\x01":
            raise ValueError(f"no object at {pos}")
        namelen = struct.unpack_from("<I", data, pos + 11)[0]
        name = data[pos + 15:pos + 15 + namelen].decode()
        pos += 15 + namelen + 1                             # past the type's EndObject
        if name == "Trace":
            out.append((name, 48, None))
            pos += 48 + 1
            continue
        size = struct.unpack_from("<I", data, pos)[0]
        pos += 4
        pos += (4 - pos % 4) % 4                            # padding to a 4-byte file offset
        body = data[pos:pos + size]
        flags = struct.unpack_from("<H", body, 2)[0] if name in ("EventBlock", "MetadataBlock") else None
        out.append((name, size, flags))
        pos += size + 1                                     # the block's EndObject
    return out


def decoded(path):
    """gcoracle's events without byte offsets, and its error and warning diagnostics."""
    p = subprocess.run([oracle, "--json", path], capture_output=True, text=True)
    events, bad = [], []
    for line in p.stdout.splitlines():
        item = json.loads(line)
        if item.get("type") == "event":
            item.pop("offset", None)
            events.append(item)
        elif item.get("type") == "diag" and item["severity"] in ("error", "warning"):
            bad.append(f"{item['code']} {item['message']}")
    return p.returncode, events, bad


def count(bl, kind):
    return sum(1 for b in bl if b[0] == kind)


with tempfile.TemporaryDirectory() as tmp:
    base_args = ["--seed", "5", "--gcs", "40", "--heaps", "2", "--stacks", "-q"]
    for fmt in ("nettrace-v5", "nettrace-v6"):
        def make(name, *opts):
            path = os.path.join(tmp, f"{fmt}-{name}.nettrace")
            p = subprocess.run([gcgen, "--format", fmt, *base_args, *opts, "-o", path],
                               capture_output=True, text=True)
            if p.returncode != 0:
                raise RuntimeError(f"gcgen {fmt} {' '.join(opts)}: {p.stderr}")
            return path

        base = make("default")
        rc, base_events, bad = decoded(base)
        ok(rc == 0 and not bad and len(base_events) > 1000,
           f"{fmt}: the default shape reads back clean ({len(base_events)} events)", "\n".join(bad))
        base_bl = blocks(base)
        small_bl = blocks(make("small", "--block-bytes", "4096"))
        shapes = {
            "uncompressed": ["--uncompressed-headers"],
            "small": ["--block-bytes", "4096"],
            "sp1": ["--block-bytes", "4096", "--sp-every", "1"],
            "upfront": ["--block-bytes", "4096", "--metadata", "upfront"],
            "all": ["--uncompressed-headers", "--block-bytes", "2000", "--sp-every", "3",
                    "--metadata", "upfront"],
        }
        files = {}
        for name, opts in shapes.items():
            files[name] = make(name, *opts)
            rc, events, bad = decoded(files[name])
            same = events == base_events
            ok(rc == 0 and not bad and same,
               f"{fmt} {' '.join(opts)}: zero errors and warnings, the same {len(events)} "
               "events as the default shape",
               "\n".join(bad) + ("" if same else f"\nevents differ ({len(events)} vs {len(base_events)})"))
            ok(open(files[name], "rb").read() != open(base, "rb").read(),
               f"{fmt} {' '.join(opts)}: the bytes differ from the default shape")

        ev_flags = {f for k, _, f in base_bl if k == "EventBlock"}
        unc = blocks(files["uncompressed"])
        ok(ev_flags == {1} and {f for k, _, f in unc if k == "EventBlock"} == {0},
           f"{fmt} --uncompressed-headers: EventBlock flags 0 (default: 1 = compressed)",
           f"default {ev_flags}, uncompressed {[f for k, _, f in unc if k == 'EventBlock'][:5]}")
        big = max(s for k, s, _ in base_bl if k == "EventBlock")
        little = max(s for k, s, _ in small_bl if k == "EventBlock")
        ok(count(small_bl, "EventBlock") > 4 * count(base_bl, "EventBlock") and little < 4096 + 1024 < big,
           f"{fmt} --block-bytes 4096: {count(small_bl, 'EventBlock')} EventBlocks of at most "
           f"{little} bytes (default: {count(base_bl, 'EventBlock')} of up to {big})")
        sp = blocks(files["sp1"])
        ok(count(base_bl, "SPBlock") == 1 and count(sp, "SPBlock") >= count(sp, "EventBlock")
           and all(sp[i + 1][0] != "EventBlock" for i, b in enumerate(sp[:-1]) if b[0] == "EventBlock"),
           f"{fmt} --sp-every 1: {count(sp, 'SPBlock')} sequence points, one after every EventBlock "
           f"(default: {count(base_bl, 'SPBlock')})")
        up = blocks(files["upfront"])
        first_ev = next(i for i, b in enumerate(up) if b[0] == "EventBlock")
        late_small = any(b[0] == "MetadataBlock" for b in small_bl[
            next(i for i, b in enumerate(small_bl) if b[0] == "EventBlock"):])
        ok(all(b[0] != "MetadataBlock" for b in up[first_ev:]) and late_small,
           f"{fmt} --metadata upfront: every metadata block before the first EventBlock "
           "(first-use: a metadata block comes after an EventBlock)")
        meta = {}
        for name in ("small", "upfront"):
            out = subprocess.run([os.path.join(top_builddir, "tests", "nettrace", "ntdump"),
                                  files[name]], capture_output=True, text=True).stdout
            meta[name] = int(out.split("metadata=")[1].split()[0])
        ok(meta["upfront"] > meta["small"],
           f"{fmt} --metadata upfront: {meta['upfront']} metadata records, every spec event "
           f"(first-use: {meta['small']}, the event types the stream uses)")

    ntdump = os.path.join(top_builddir, "tests", "nettrace", "ntdump")
    for fmt in ("nettrace-v5", "nettrace-v6"):
        runs = {}
        for name, opts in (("runtime", []), ("end", ["--sp-every", "end"])):
            path = os.path.join(tmp, f"{fmt}-long-{name}.nettrace")
            subprocess.run([gcgen, "-q", "--format", fmt, "--seed", "3", "--gcs", "8000",
                            *opts, "-o", path], check=True)
            summary = subprocess.run([ntdump, path], capture_output=True, text=True).stdout
            rc = subprocess.run([oracle, "--quiet", path], capture_output=True).returncode
            runs[name] = (blocks(path), summary.split(" diagnostics=")[0].split(" ", 2)[2], rc)
            os.unlink(path)
        bl = runs["runtime"][0]
        gaps, since = [], 0
        for kind, size, _ in bl:
            if kind == "EventBlock":
                since += size
            elif kind == "SPBlock":
                gaps.append(since)
                since = 0
        ok(len(gaps) >= 3 and all(1e6 < g <= 10 << 20 for g in gaps[:-1]),
           f"{fmt} default: sequence points where the runtime puts them, {len(gaps)} in "
           f"{sum(s for k, s, _ in bl if k == 'EventBlock')} bytes of EventBlocks, "
           f"{min(gaps[:-1] or [0])} to {max(gaps[:-1] or [0])} bytes apart", str(gaps))
        end_bl = runs["end"][0]
        ok(count(end_bl, "SPBlock") == 1 and end_bl[-1][0] in ("SPBlock", "EndOfStream")
           and runs["end"][1] == runs["runtime"][1] and runs["end"][2] == 0 == runs["runtime"][2],
           f"{fmt} --sp-every end: only the final sequence point, the same events "
           f"({runs['end'][1]}), both clean")

    usage = [["--block-bytes", "0"], ["--block-bytes", "8388609"], ["--metadata", "late"],
             ["--sp-every", "x"], ["--sp-every", "ends"], ["--format", "cbor", "--uncompressed-headers"],
             ["--format", "cbor", "--metadata", "upfront"]]
    for args in usage:
        p = subprocess.run([gcgen, *args, "--gcs", "1", "-o", os.path.join(tmp, "u")],
                           capture_output=True, text=True)
        ok(p.returncode == 2 and p.stderr.strip() and not os.path.exists(os.path.join(tmp, "u")),
           f"gcgen {' '.join(args)}: usage error (exit 2), no file", f"exit {p.returncode}: {p.stderr}")
tap.done()
