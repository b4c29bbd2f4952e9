#!/usr/bin/env python3
"""Write the golden corpus: corpus/cases/*, expect/*, events/*, index.{cbor,json}.

    mkcorpus.py --gcgen PATH --gccorpus PATH --srcdir DIR --out DIR [--jobs N]

Every case is one gcgen run from fixed arguments: the trace file itself,
--values (the model stream of the same events: the ground truth of every
field value) and --expect (the diagnostics a checker must raise). This script
decides what the cases are (the tables below) and names them; `gccorpus pack`
(C, libcbor) turns gcgen's outputs into the expectation files and the index.
Same gcgen, same tables: same bytes.

Adding a container is one row in CONTAINERS. Its cases follow: the
exhaustive stream at pointer sizes 4 and 8, realistic streams, the payload
faults when the row asks for them, and every container fault class gcgen
lists for its format.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tomllib


class Container:
    """One format gcgen writes, and which case families it gets."""

    def __init__(self, fmt, label, ext, container, version, *, home=False,
                 all_profiles=False, payload_faults=False, variants=(),
                 fault_args=(), truncations=None, base_args=(), clean_expect=(),
                 clock_hz=0):
        self.fmt = fmt                  # gcgen --format
        self.label = label              # in case names: y_<label>_...
        self.ext = ext                  # file name ending ("" for a directory)
        self.container = container      # family name in the expectations
        self.version = version          # container version (nettrace 4/5/6)
        self.home = home                # stream faults are written here
        self.all_profiles = all_profiles  # every runtime profile, realistic
        self.payload_faults = payload_faults
        self.variants = variants        # (suffix, gcgen args, description)
        self.fault_args = list(fault_args)  # extra args for container faults
        self.base_args = list(base_args)    # extra args for every case (size)
        # What the container itself makes a reader say on every case without
        # a fault (gcgen records faults only).
        self.clean_expect = list(clean_expect)
        # A container with a clock of its own (CTF: 1 GHz) records gcgen's
        # ticks converted; the expectation gives them in its clock.
        self.clock_hz = clock_hz
        # The truncate class cuts at a seed-chosen byte: one case per
        # (code the cut must raise, name), the first seed whose cut raises it.
        self.truncations = truncations if truncations is not None else TRUNCATIONS


# nettrace: a cut inside a block (truncate-at-boundary cuts between blocks).
TRUNCATIONS = (("GC-N003", "truncated_inside_block"),)

NETTRACE_VARIANTS = (
    ("uncompressed_headers", ["-O", "uncompressed=1"],
     "event headers written uncompressed: legal in the format, never written by the runtime; "
     "in V4/V5 each uncompressed blob, in a MetadataBlock as in an EventBlock, ends with zero "
     "padding to a 4-byte file offset (NetTrace V5, 'Uncompressed events'; the runtime's own "
     "uncompressed writer, ep-block.c, pads the same way and counts it in EventSize), which "
     "TraceEvent does not skip in MetadataBlocks (it rejects the V5 case: docs/peer-table.md)"),
    ("small_blocks_many_sequence_points", ["-O", "block-bytes=600", "-O", "sp-every=1"],
     "many small EventBlocks with a sequence point after each: stacks and sequence numbers restart often"),
    ("metadata_upfront", ["-O", "metadata-upfront=1"],
     "every event-version's metadata in one block before any event"),
)
# The first foreign record follows this many runtime events, so it is event
# number ETL_FOREIGN_EVERY; the reader notes its provider once, there.
ETL_FOREIGN_EVERY = 5
# Every .etl case uses 4 KiB buffers (Windows' default is 64 KiB, which would
# make each case at least 128 KiB); one case keeps the default.
ETL_SMALL = ["-O", "buffer-size=4096"]
ETL_VARIANTS = (
    ("default_64k_buffers", ["-O", "buffer-size=65536"],
     "64 KiB buffers, the size Windows loggers default to"),
    ("tiny_buffers", ["-O", "buffer-size=1024"],
     "1 KiB buffers: many buffers, records packed up to each buffer's end"),
    ("foreign_provider", ["-O", "foreign-every=%d" % ETL_FOREIGN_EVERY],
     "events of another provider (the TPL EventSource) between the runtime's: passed over "
     "and counted, noted once (GC-U003); they take event indexes, and the expectation lists "
     "the diagnostics only",
     {"extra_expect": [{"code": "GC-U003", "event": ETL_FOREIGN_EVERY}], "events": False}),
)
# Several EventBlocks, so that faults can pick a block and sequence numbers
# can jump between blocks, in a file of a few kilobytes.
NETTRACE_FAULT_ARGS = ["-O", "block-bytes=2048"]

CONTAINERS = [
    Container("cbor", "model", ".cbor", "gcconform-model", 1),
    Container("nettrace-v4", "nettrace_v4", ".nettrace", "nettrace", 4,
              fault_args=NETTRACE_FAULT_ARGS),
    Container("nettrace-v5", "nettrace_v5", ".nettrace", "nettrace", 5, home=True,
              all_profiles=True, payload_faults=True, variants=NETTRACE_VARIANTS,
              fault_args=NETTRACE_FAULT_ARGS),
    Container("nettrace-v5-full", "nettrace_v5_full", ".nettrace", "nettrace", 5,
              fault_args=NETTRACE_FAULT_ARGS),
    Container("nettrace-v6", "nettrace_v6", ".nettrace", "nettrace", 6,
              payload_faults=True, variants=NETTRACE_VARIANTS, fault_args=NETTRACE_FAULT_ARGS),
    Container("nettrace-v6-full", "nettrace_v6_full", ".nettrace", "nettrace", 6,
              fault_args=NETTRACE_FAULT_ARGS),
    Container("etl", "etl", ".etl", "etl", 1, payload_faults=True, variants=ETL_VARIANTS,
              base_args=ETL_SMALL, truncations=(("GC-W002", "truncated_inside_buffer"),)),
    # A CTF case is a trace directory (cases/NAME.ctf/).
    Container("ctf", "ctf", ".ctf", "ctf", 1, payload_faults=True, clock_hz=1000000000),
    Container("etl-merged", "etl_merged", ".etl", "etl", 1, base_args=ETL_SMALL,
              # The kernel records are noted once, at the first (its offset
              # depends on the buffer layout, so no place is given).
              clean_expect=[{"code": "GC-W010"}],
              truncations=(("GC-W002", "truncated_inside_buffer"),)),
    # Compressed mode (LZXPRESS buffers), as PerfView's merges are; its
    # cut is the compressed-truncate class.
    Container("etl-compressed", "etl_compressed", ".etl", "etl", 1, base_args=ETL_SMALL,
              truncations=()),
]

# Faults that must be accepted: real runtimes and real captures do this.
# A fault class with an error among its required diagnostics makes an n_
# case; one listed here, with no error even among the diagnostics that may
# follow, a y_ case; any other an i_ case.
ACCEPT = {
    "trace-ends-inside-gc": "a trace may end anywhere, here inside a GC",
    "handle-double-set": "runtimes reuse handle slots whose destruction they did not trace",
    "sequence-gap": "events were lost during capture (a warning); the file itself is sound",
}
# What an implementation may do with each implementation-defined case.
ALLOWED = {
    "trace-starts-inside-gc":
        "accept the trace, which begins inside a GC (GC-S002 note); a checker that does not "
        "model trace edges may report events before the first complete GC as unpaired "
        "(GC-S010, GC-S011, GC-S013, GC-S014)",
    "extend-payload":
        "decode the fields of the template and ignore the extra bytes (a newer runtime "
        "appends fields), optionally warning (GC-P002); or refuse the event",
    "size-of-other-version":
        "report the payload as the size of the event's previous version (GC-P008) or as "
        "truncated (GC-P001); the event's fields are not compared; or refuse the file",
    "boolean-not-0-or-1":
        "show the 4-byte Boolean as true or as its number, optionally warning (GC-P009)",
    "unknown-event-version":
        "pass the event over (GC-U001 note) or decode what it can; only its header is compared",
    "unknown-event-id":
        "pass the event over (GC-U002 note); only its header is compared",
    "version-minor":
        "read on as version 6.0, as the format says a reader should (GC-N017 note), or refuse",
    "unknown-object":
        "skip the block of an unknown kind, as the format says a reader should (GC-N009 note), "
        "or refuse",
    "bad-padding":
        "read on, the padding being unread (TraceEvent does), optionally warning (GC-N007), "
        "or refuse the file",
    "data-after-end":
        "stop at the end-of-stream marker and ignore what follows, optionally warning "
        "(GC-N021), or refuse the file",
}
# Container faults after which every event is still there, unchanged: the
# expectation lists the events. Other container faults lose or garble
# events in ways a reader may handle differently; only their diagnostics are
# expected.
EVENTS_INTACT = {"sequence-gap", "version-minor", "data-after-end", "bad-padding"}
EVENTS_INTACT_V6 = {"unknown-object"}
# Why a disputed fault class has the class it has, with the evidence
# (docs/peer-table.md, "Settled cases"); appended to the case's description.
WHY = {
    ("unknown-object", "n"):
        "n_: NetTrace V5 lets a writer add an object type only if its fields are all tagged, "
        "so that old readers can skip it ('Versioning the Format', 'Forward compatibility'); "
        "this object carries a block's untagged body under a type name no version defines, "
        "which no reader can skip (TraceEvent refuses it: 'Unrecognized FastSerialization "
        "object type'). V6 blocks carry their length, and V6 tells readers to skip unknown "
        "kinds: there the case is i_",
    ("bad-padding", "i"):
        "i_: NetTrace V5 calls it zero padding and the runtime writes zeros, but no field "
        "is read from it and the format's own reader, TraceEvent, skips it unread; V6 drops "
        "the padding ('Simplify the StreamHeader, Object header/footers, alignment and "
        "versioning': it 'has no real perf benefit')",
}

# Fault classes whose seed picks between variants that real parsers fail
# on differently: (stem, seed, what) adds a case at that seed beside the
# class's own (seed 1). The peer table (docs/peer-table.md, history) shows
# the bug each one exposes.
EXTRA_SEEDS = {
    # Seed 1 negates an EventBlock's BlockSize; seed 2 an object's type-name
    # length, which TraceEvent before 3.2.6 passed to stackalloc (a stack
    # overflow kills the process; microsoft/perfview#2444).
    "negative-length": (("negative_type_name_length", 2,
                         "the object type-name length (0xfffffff0)"),),
}

# Codes no corpus file raises, and why. The coverage check (gccorpus
# coverage) fails unless this is exactly the set of catalogue codes that no
# case requires.
UNCOVERED = {
    "GC-S027": "gcgen writes one runtime instance (ClrInstanceID) per trace and a ninth "
               "would take eight more; tests/oracle/oracle_test triggers it",
    "GC-M006": "a model stream that loses its framing (junk after the header) is a "
               "reader's limit, not a fault class gcgen writes; tests/oracle/oracle_test "
               "and tests/oracle/output_contract.sh trigger it",
    "GC-C018": "an unreadable stream file is a property of the file system (permissions, "
               "I/O errors), which a corpus file cannot carry; tests/oracle/output_contract.sh "
               "triggers it",
    "GC-C019": "a link out of the trace directory names a file outside the corpus, which a "
               "corpus case cannot carry; tests/oracle/output_contract.sh triggers it",
}
UNCOVERED_FAMILIES = {
    "GC-K": "gcoracle compare judges a decoder's output, not a trace file; "
            "tests/corpus/compare_codes.sh triggers every GC-K code",
}

PROFILE_OF_EXHAUSTIVE = "net10"
SEED = 1
REALISTIC_GCS = 6
SAMPLER_EVERY = 7
# What real runtimes do that a checker must accept (docs/real-runtime.md):
# one case each, in the home container (and .NET Framework's in .etl), with
# enough GCs that the seed shows it (tests/corpus/runtime_habits.py checks).
RUNTIME_HABITS = (
    ("netfx45_double_gcstart", "netfx45", 3,
     ".NET Framework 4.5.2 writes every GCStart twice, GCStart_V1 then GCStart_V2, on one "
     "thread with the same Count, Depth, Reason and Type: one GC each"),
    ("net8_regions_recreated", "net8", 6,
     ".NET 8's regions GC fires GCCreateSegment again for a region it hands out again and "
     "never fires GCFreeSegment: a live segment created again is no error here"),
    ("netcore3_no_segment_events", "netcore3", 3,
     ".NET Core 3.1 fires no GCCreateSegment or GCFreeSegment"),
    ("sampler_backoff", "net10", 6,
     "the sample profiler's suspension (Count 0xFFFFFFFF) meets a GC's and backs off: "
     "GCRestartEEBegin and GCRestartEEEnd before its GCSuspendEEEnd, the GC in between"),
    ("sampler_at_bgc_end", "net8", 40,
     "the sample profiler begins to suspend (Count 0xFFFFFFFF) between a background GC's "
     "GCEnd and its GCHeapStats: a background GC ends without the runtime suspended, and "
     "that GC has still just ended"),
    ("sampler_in_bgc_histories", "net10", 40,
     "a server GC's background GC writes GCEnd, GCHeapStats and then its histories, "
     "GCGlobalHeapHistory first, without the runtime suspended: the sample profiler's "
     "suspension (Count 0xFFFFFFFF) gets the runtime between GCGlobalHeapHistory and the "
     "GCPerHeapHistory events, and that GC has still just ended",
     {"args": ["--heaps", "4"]}),
    ("nogc_region_gc_numbers", "net10", 6,
     "a no-GC region takes a GC number with GCTriggered (Reason 1) and a GC suspension but "
     "no GCStart: GC numbers have a gap and the next suspension's Count is one above"),
    # EventPipe's, written by the nettrace writer (-O sampler-every): the first
    # ThreadSample follows SAMPLER_EVERY runtime events, so it is event number
    # SAMPLER_EVERY, where the reader notes its provider once.
    ("sampler_thread_ids", "net10", 6,
     "the sample profiler's ThreadSample events (Microsoft-DotNETCore-SampleProfiler, id 0) "
     "are captured by the sampler thread (CaptureThreadId, its own sequence numbers) but carry "
     "the sampled thread's ThreadId and the time it was stopped, before that thread's latest "
     "event: per ThreadId times go back, per capture thread never; passed over and counted, "
     "noted once (GC-U003); they take event indexes, and the expectation lists the "
     "diagnostics only",
     {"args": ["-O", "sampler-every=%d" % SAMPLER_EVERY],
      "extra_expect": [{"code": "GC-U003", "event": SAMPLER_EVERY}], "events": False}),
)
FAULT_GCS = (3, 6, 12, 24)     # the first that gcgen can place the fault in
# Machine-wide traces (gcgen --processes, gcgen(1)): four processes of three
# runtimes interleaved (ClrInstanceID 8 twice, 9 once; in .etl 32- and
# 64-bit side by side), one starting mid-trace and ending inside its second
# GC, one attached mid-life, one starting mid-trace; and the faults of one
# process while the others stay well-formed. gcgen records the notes the
# machine's own records cause (GC-W010, GC-U003). A CTF trace's statedump
# events take event indexes the model stream does not have: diagnostics only.
MACHINE_ARGS = ["--processes", "4", "--profile", "net8,netfx45,net10", "--gcs", "6"]
MACHINE_DESC = ("a machine-wide trace of 4 .NET processes (net8, netfx45, net10, net8: "
                "ClrInstanceID 8, 9, 8, 8) interleaved in time on shared processors%s; process "
                "1 starts mid-trace and ends inside its second GC (its GC open at the end is no "
                "error), process 2 was attached mid-life (its first GC number is above 1), "
                "process 3 starts mid-trace; %s")
# gcgen --reuse-pid: process 3 takes process 1's id once it has ended.
PID_REUSE_DESC = ("a machine-wide trace of 4 .NET processes as y_*_machine_wide, except that "
                  "process 3 is process 1's runtime again (netfx45, ClrInstanceID 9) under "
                  "process 1's id once process 1 has ended inside its second GC: a process id "
                  "reused, its GCs numbered from 1 again (no error); %s")
MACHINE_CASES = (
    ("etl", "machine_wide", [], [],
     MACHINE_DESC % (", processes 1 and 3 32-bit (EVENT_HEADER32) beside 64-bit ones",
                     "the kernel's Process Start and End records where processes start and "
                     "end (passed over, GC-W010)"), {}),
    ("ctf", "machine_wide", [], [],
     MACHINE_DESC % ("", "LTTng-UST's statedump (start, procname, end) where a process "
                     "starts: events of another provider (GC-U003), so the expectation lists "
                     "the diagnostics only"), {"events": False}),
    ("etl", "machine_wide_pid_reuse", ["--reuse-pid"], [], PID_REUSE_DESC % (
        "the kernel's Process End of process 1 and Process Start of the new one between "
        "them (passed over, GC-W010)"), {}),
    ("ctf", "machine_wide_pid_reuse", ["--reuse-pid"], [], PID_REUSE_DESC % (
        "LTTng-UST's statedump start for that vpid before the new one's events (GC-U003), "
        "so the expectation lists the diagnostics only"), {"events": False}),
    ("etl", "machine_wide_process_swap", [], ["process-swap"], "", {}),
    ("ctf", "machine_wide_process_swap", [], ["process-swap"], "", {"events": False}),
    ("etl", "machine_wide_gc_count_backwards", [], ["gc-count-backwards"], "", {}),
    ("ctf", "machine_wide_gc_count_backwards", [], ["gc-count-backwards"], "",
     {"events": False}),
)


class Case:
    """A case: its name is <class>_<stem>; faults find their class from gcgen's
    expectations (cls None until then)."""

    def __init__(self, stem, cls, cont, args, *, faults=(), reaches=(), events=True,
                 allowed="", description="", profile="net8", mode="realistic",
                 seed=SEED, want_code=None, extra_expect=()):
        self.stem, self.cls, self.cont, self.args = stem, cls, cont, args
        # Diagnostics a writer option causes, which gcgen does not record.
        self.extra_expect = list(extra_expect)
        self.want_code = want_code      # truncate: the code the cut must raise
        self.faults, self.reaches = list(faults), list(reaches)
        self.events, self.allowed, self.description = events, allowed, description
        self.profile, self.mode, self.seed = profile, mode, seed

    @property
    def name(self):
        return "%s_%s" % (self.cls, self.stem)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, check=False)


def load_catalogue(srcdir):
    """code -> severity, from docs/diagnostics.toml and docs/diagnostics/*.toml."""
    paths = [os.path.join(srcdir, "docs", "diagnostics.toml")]
    part = os.path.join(srcdir, "docs", "diagnostics")
    paths += sorted(os.path.join(part, f) for f in os.listdir(part) if f.endswith(".toml"))
    cat = {}
    for p in paths:
        with open(p, "rb") as f:
            for d in tomllib.load(f).get("diag", []):
                if not d.get("retired"):
                    cat[d["code"]] = d["severity"]
    return cat


def profiles(gcgen):
    out = run([gcgen, "--list-profiles"])
    return [(l.split()[0], " ".join(l.split()[1:])) for l in out.stdout.splitlines() if l.strip()]


def fault_classes(gcgen, fmt):
    """[(name, reach, description)] of the classes gcgen applies to fmt."""
    out = run([gcgen, "--list-mutations=" + fmt])
    if out.returncode:
        sys.exit("mkcorpus: gcgen --list-mutations=%s failed: %s" % (fmt, out.stderr.strip()))
    rows = []
    for line in out.stdout.splitlines():
        f = line.split(None, 4)
        if len(f) == 5:
            rows.append((f[0], f[1], f[4]))
    return rows


def plan(gcgen, available):
    """Every case, in a fixed order."""
    cases = []
    profs = profiles(gcgen)
    for c in CONTAINERS:
        if c.fmt not in available:
            continue
        for ps in (4, 8):
            cases.append(Case(
                "%s_exhaustive_ptr%d" % (c.label, ps), "y", c,
                ["--mode", "exhaustive", "--profile", PROFILE_OF_EXHAUSTIVE,
                 "--pointer-size", str(ps)],
                mode="exhaustive", profile=PROFILE_OF_EXHAUSTIVE,
                description="every event-version of the spec and every value of every value "
                            "map (plus values just outside the open maps: GC-V002 warnings), "
                            "pointer size %d" % ps))
        realistic = [(p, d) for p, d in profs] if c.all_profiles else [("net8", ".NET 8")]
        for p, d in realistic:
            cases.append(Case(
                "%s_realistic_%s" % (c.label, p), "y", c,
                ["--profile", p, "--gcs", str(REALISTIC_GCS)], profile=p,
                description="%d GCs as a %s runtime writes them (workstation GC, its "
                            "default pointer size)" % (REALISTIC_GCS, d)))
        cases.append(Case(
            "%s_realistic_net8_server_4_heaps_ptr4" % c.label, "y", c,
            ["--heaps", "4", "--pointer-size", "4", "--gcs", "3"],
            description="server GC with 4 heaps in a 32-bit process (joins, per-heap history)"))
        if c.home:
            cases.append(Case(
                "%s_realistic_net8_server_1_heap" % c.label, "y", c,
                ["--heaps", "1", "--gcs", "3"],
                description="server GC with a single heap (parsers have assumed two or more)"))
            cases.append(Case(
                "%s_realistic_net8_server_64_heaps" % c.label, "y", c,
                ["--heaps", "64", "--gcs", "1"],
                description="server GC with 64 heaps: heap indexes above 63"))
            cases.append(Case(
                "%s_realistic_net8_with_stacks" % c.label, "y", c,
                ["--stacks", "--gcs", "3"],
                description="events with call stacks (StackBlocks, stack ids)"))
            cases.append(Case(
                "%s_realistic_net8_background_gc" % c.label, "y", c,
                ["--gcs", "22"],
                description="a background GC with a foreground GC inside it (GCStart, GCStart, "
                            "GCEnd, GCEnd), the runtime suspended again after the background "
                            "GC began"))
        for habit, prof, gcs, desc, *kw in RUNTIME_HABITS:
            kw = dict(kw[0]) if kw else {}
            extra = kw.pop("args", [])
            if c.home or (c.fmt == "etl" and prof.startswith("netfx") and not extra):
                cases.append(Case("%s_runtime_%s" % (c.label, habit), "y", c,
                                  ["--profile", prof, "--gcs", str(gcs)] + extra, profile=prof,
                                  description=desc, **kw))
        for suffix, args, desc, *kw in c.variants:
            cases.append(Case("%s_%s" % (c.label, suffix), "y", c, args + ["--gcs", "3"],
                              description=desc, **(kw[0] if kw else {})))
        for name, reach, desc in fault_classes(gcgen, c.fmt):
            if reach == "stream" and not c.home:
                continue
            if reach == "payload" and not c.payload_faults:
                continue
            if reach == "container":
                events = name in EVENTS_INTACT or (c.version == 6 and name in EVENTS_INTACT_V6)
                extra = c.fault_args
            else:
                events, extra = True, []
            if name == "truncate":
                for code, what in c.truncations:
                    cases.append(Case("%s_%s" % (c.label, what), None, c, extra,
                                      faults=[name], reaches=[reach], events=False,
                                      description=desc + ": " + what.replace("_", " "),
                                      want_code=code))
                continue
            cases.append(Case("%s_%s_%s" % (c.label, reach, name.replace("-", "_")),
                              None, c, extra, faults=[name], reaches=[reach], events=events,
                              description=desc))
            for stem, seed, what in EXTRA_SEEDS.get(name, ()):
                cases.append(Case("%s_%s_%s" % (c.label, reach, stem), None, c, extra,
                                  faults=[name], reaches=[reach], events=events, seed=seed,
                                  description=desc + ": " + what))
    by_fmt = {c.fmt: c for c in CONTAINERS if c.fmt in available}
    for fmt, stem, args, faults, desc, kw in MACHINE_CASES:
        if fmt not in by_fmt:
            continue
        c = by_fmt[fmt]
        if faults:
            desc = ("%s, in process 0 of a machine-wide trace of 4 processes whose others are "
                    "well-formed" % dict((r[0], r[2]) for r in fault_classes(gcgen, fmt))[faults[0]])
        cases.append(Case("%s_%s" % (c.label, stem), None if faults else "y", c,
                          MACHINE_ARGS + args, faults=faults, reaches=["stream"] * len(faults),
                          description=desc, profile="net8+netfx45+net10", **kw))
    return cases


def gcgen_case(gcgen, case, work, outdir, catalogue):
    """Run gcgen for one case; returns (case, manifest line) or raises."""
    c = case.cont
    data = os.path.join(work, case.stem + ".data" + c.ext)
    values = os.path.join(work, case.stem + ".values")
    expect = os.path.join(work, case.stem + ".expect")
    base = ["--format", c.fmt, "--seed", str(case.seed)] + c.base_args + case.args
    if case.faults:
        base = base + ["--mutate", ",".join(case.faults)]
    tries = []
    if case.faults:
        # The smallest file the fault fits in; the truncate cases search
        # seeds for the cut they are named after.
        seeds = range(1, 200) if case.want_code else [case.seed]
        tries = [(s, g) for s in seeds for g in FAULT_GCS]
    else:
        tries = [(case.seed, None)]
    for seed, gcs in tries:
        args = [a for a in base]
        args[args.index("--seed") + 1] = str(seed)
        if gcs is not None:
            args += ["--gcs", str(gcs)]
        out = run([gcgen, "-q"] + args + ["-o", data, "--values", values, "--expect", expect])
        if out.returncode:
            continue
        if case.want_code:
            with open(expect) as f:
                if '"%s"' % case.want_code not in f.read():
                    continue
        break
    else:
        raise RuntimeError("%s: gcgen cannot write it: %s" % (case.name, out.stderr.strip()))
    case.seed = seed
    extra = case.extra_expect + ([] if case.faults else c.clean_expect)
    if extra:
        with open(expect, "a") as f:
            for d in extra:
                f.write("{%s}\n" % ",".join('"%s":%s' % (k, '"%s"' % v if isinstance(v, str)
                                                         else v) for k, v in d.items()))
    # The class follows the ground truth: an error that must be raised makes
    # an n_ case; otherwise y_ for what must be accepted, else i_.
    must = []
    with open(expect) as f:
        for line in f:
            if '"may":true' in line:
                continue
            code = line.split('"code":"', 1)[1].split('"', 1)[0]
            must.append(code)
    errors = [m for m in must if catalogue.get(m) == "error"]
    with open(expect) as f:
        may_error = any(catalogue.get(c, "error") == "error"
                        for c in (l.split('"code":"', 1)[1].split('"', 1)[0]
                                  for l in f if '"may":true' in l))
    if case.cls is None:
        fault = case.faults[0]
        case.cls = "n" if errors else ("y" if fault in ACCEPT and not may_error else "i")
        if case.cls == "i":
            case.allowed = ALLOWED.get(fault, "accept the file, reporting the diagnostics "
                                              "listed, or refuse it")
        if case.cls == "y":
            case.description += " (%s)" % ACCEPT[fault]
        if (fault, case.cls) in WHY:
            case.description += " (%s)" % WHY[(fault, case.cls)]
    final = os.path.join(outdir, "cases", case.name + c.ext)
    os.replace(data, final)
    reproduce = " ".join(["gcgen"] + args)
    fields = [
        ("name", case.name), ("class", case.cls),
        ("file", "cases/" + case.name + c.ext), ("format", c.fmt),
        ("container", c.container), ("container_version", str(c.version)),
        ("profile", case.profile), ("mode", case.mode),
        ("seed", str(case.seed)), ("clock_hz", str(c.clock_hz)),
        ("faults", ",".join(case.faults)),
        ("reaches", ",".join(case.reaches)), ("events", "yes" if case.events else "no"),
        ("values", values), ("expect", expect), ("allowed", case.allowed),
        ("description", case.description), ("gcgen", reproduce),
    ]
    return "case\t" + "\t".join("%s=%s" % kv for kv in fields)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gcgen", required=True)
    ap.add_argument("--gccorpus", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()

    catalogue = load_catalogue(a.srcdir)
    available = set(run([a.gcgen, "--list-formats"]).stdout.split())
    for sub in ("cases", "expect", "events"):
        shutil.rmtree(os.path.join(a.out, sub), ignore_errors=True)
        os.makedirs(os.path.join(a.out, sub))
    work = os.path.join(a.out, ".work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cases = plan(a.gcgen, available)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        lines = list(pool.map(lambda c: gcgen_case(a.gcgen, c, work, a.out, catalogue), cases))
    names = [c.name for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit("mkcorpus: duplicate case names: %s" % ", ".join(sorted(dup)))
    manifest = os.path.join(work, "manifest")
    with open(manifest, "w") as f:
        for line in lines:
            f.write(line + "\n")
        for code in sorted(catalogue):
            reason = UNCOVERED.get(code) or UNCOVERED_FAMILIES.get(code[:4])
            if reason:
                f.write("uncovered\tcode=%s\treason=%s\n" % (code, reason))
    out = run([a.gccorpus, "pack", manifest, a.out])
    sys.stderr.write(out.stderr)
    if out.returncode:
        sys.exit("mkcorpus: gccorpus pack failed")
    shutil.rmtree(work)
    print("mkcorpus: %d cases in %s" % (len(cases), a.out))


if __name__ == "__main__":
    main()
