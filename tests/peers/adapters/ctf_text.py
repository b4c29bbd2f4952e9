#!/usr/bin/python3
"""The text a babeltrace CLI prints, as the JSON lines `gcoracle compare` reads.

    babeltrace2 --clock-cycles --no-delta TRACE | ctf_text.py NAME [--raw-strings]

So that the peer table holds what a CLI prints against the expectation, not only
its exit status. A line is `[CYCLES] [HOST] PROVIDER:SYMBOL: { ... }, { ... }`: the
group holding vtid is the common context (thread, process), a group of cpu_id
alone the packet context, the last other group the payload. Values: integers in
any base the CLI prints, enumerations as their integer, strings, arrays
(`[ [0] = v, ... ]`) and structures. babeltrace2 escapes a string (C escapes);
babeltrace 1 prints it raw (--raw-strings), newlines and quotes included, so a
raw string ends at the first quote followed by a separator (`, ` or ` }` or
` ]`) and a line that is not an event line continues the one before: a string
holding `", ` reads short there, which the peer table shows as a difference.
A line this cannot read ends the output with {"type":"error"} and exit 1.
The decoder line excludes, as bt2_adapter.py does, events whose payload is the
runtime's LTTng byte blob (data__).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec"))
import speclib  # noqa: E402

PROVIDERS = {"DotNETRuntime": "Microsoft-Windows-DotNETRuntime",
             "DotNETRuntimePrivate": "Microsoft-Windows-DotNETRuntimePrivate",
             "DotNETRuntimeRundown": "Microsoft-Windows-DotNETRuntimeRundown"}
HEAD = re.compile(r"\[(\d+)\] (?:\S+ )?(\S+): ")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
           "\\": "\\", '"': '"', "'": "'", "0": "\0"}
NUMBER = re.compile(r"-?(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?|nan|inf)")


class Unreadable(Exception):
    pass


class Reader:
    def __init__(self, text, raw):
        self.s, self.i, self.raw = text, 0, raw

    def skip(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def expect(self, tok):
        self.skip()
        if not self.s.startswith(tok, self.i):
            raise Unreadable(f"expected {tok!r} at column {self.i}")
        self.i += len(tok)

    def peek(self, tok):
        self.skip()
        return self.s.startswith(tok, self.i)

    def value(self):
        self.skip()
        c = self.s[self.i:self.i + 1]
        if c == "{":
            return self.struct()
        if c == "[":
            return self.array()
        if c == '"':
            return self.string()
        if c == "(":  # enumeration: ( "LABEL" : container = N )
            self.i += 1
            self.string() if self.peek('"') else None
            self.expect(":")
            self.expect("container")
            self.expect("=")
            v = self.value()
            self.expect(")")
            return v
        m = NUMBER.match(self.s, self.i)
        if not m:
            raise Unreadable(f"no value at column {self.i}")
        self.i = m.end()
        return number(m.group(0))

    def items(self, close, item):
        out = []
        if self.peek(close):
            self.i += 1
            return out
        while True:
            out.append(item())
            if self.peek(","):
                self.i += 1
                continue
            self.expect(close)
            return out

    def struct(self):
        self.expect("{")

        def field():
            self.skip()
            m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.s, self.i)
            if not m:
                raise Unreadable(f"no field name at column {self.i}")
            self.i = m.end()
            self.expect("=")
            return m.group(0).lstrip("_"), self.value()
        return dict(self.items("}", field))

    def array(self):
        self.expect("[")

        def element():
            self.expect("[")
            m = re.compile(r"\d+").match(self.s, self.i)
            self.i = m.end() if m else self.i
            self.expect("]")
            self.expect("=")
            return self.value()
        return self.items("]", element)

    def string(self):
        self.expect('"')
        out = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == '"' and (not self.raw or re.match(r'"(, | \}| \]|$)', self.s[self.i:])):
                self.i += 1
                return "".join(out)
            if c == "\\" and not self.raw and self.i + 1 < len(self.s):
                out.append(ESCAPES.get(self.s[self.i + 1], self.s[self.i + 1]))
                self.i += 2
                continue
            out.append(c)
            self.i += 1
        raise Unreadable("unterminated string")


def number(tok):
    neg, t = tok.startswith("-"), tok.lstrip("-")
    if t[:2] in ("0x", "0X", "0b", "0B"):
        v = int(t, 0)
    elif re.fullmatch(r"0[0-7]+", t):
        v = int(t, 8)
    elif re.fullmatch(r"[0-9]+", t):
        v = int(t)
    else:
        return float(tok)
    return -v if neg else v


def records(text):
    """Event lines; a line that does not start an event continues the one before
    (babeltrace 1 prints a string's newlines as they are)."""
    out = []
    for ln in text.rstrip("\n").split("\n"):
        if HEAD.match(ln) or not out:
            out.append(ln)
        else:
            out[-1] += "\n" + ln
    return [r for r in out if r.strip()]


def event(rec, spec, raw):
    m = HEAD.match(rec)
    if not m:
        raise Unreadable("not an event line")
    prefix, _, sym = m.group(2).partition(":")
    prov = PROVIDERS.get(prefix, prefix)
    sp = spec.get((prov, sym))
    line = {"type": "event", "name": sym, "provider": prov,
            "id": sp["id"] if sp else -1, "version": sp["version"] if sp else -1,
            "timestamp": int(m.group(1))}
    rd = Reader(rec[m.end():], raw)
    groups = [rd.struct()]
    while rd.peek(","):
        rd.i += 1
        groups.append(rd.struct())
    rd.skip()
    if rd.i != len(rd.s):
        raise Unreadable(f"text after the last group at column {rd.i}")
    payload = {}
    for g in groups:
        if "vtid" in g:
            line["thread"] = g["vtid"]
            if "vpid" in g:
                line["process"] = g["vpid"]
        elif set(g) != {"cpu_id"}:
            payload = g
    return line, payload


def main():
    name, raw = sys.argv[1], "--raw-strings" in sys.argv[2:]
    spec = {(prov, ev["symbol"]): ev for prov, ev, _ in speclib.spec_events()}
    text = sys.stdin.buffer.read().decode("utf-8", "replace")
    lines, opaque, status = [], set(), 0
    for n, rec in enumerate(records(text), 1):
        try:
            line, payload = event(rec, spec, raw)
        except Unreadable as e:
            lines.append({"type": "error", "message": f"{name} output, event {n}: {e}"})
            status = 1
            break
        if "data__" in payload:
            opaque.add(line["name"])
        else:
            line["fields"] = payload
        lines.append(line)
    bases = {re.sub(r"_V\d+$", "", s) for s in opaque}
    events = sorted(s for _, s in spec if s not in opaque and s not in bases)
    out = sys.stdout
    out.write(json.dumps({"type": "decoder", "name": name, "formats": ["ctf"], "checks": ["container"],
                          "codes": False, "events": events}) + "\n")
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
