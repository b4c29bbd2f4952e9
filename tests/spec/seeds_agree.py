#!/usr/bin/env python3
"""The claims files say what the seed documents say: a mechanical transcription check.

Reads ../shared/seeds/ when it is there (skips otherwise) and checks:
  - the English extracts (000_english_extract.md, 003_english_extract.md) are exactly the
    English originals of 000 and 003 (the text kept in the sxs-lookup spans);
  - the English originals of the Portuguese (001) and Chinese (002) copies are identical to
    000's, as the seeds' README says, below the front matter;
  - in every translated span of 000-003, the numbers and data types (0x.., decimals,
    win:...) are those of its English original, except at the places the claims list in
    `translation_notes` (and every listed place really differs);
  - every section of each document -- 000 and 003 from their English text, 004 from its
    Spanish text, which has no English -- matches its claims section: heading, event-table
    name, event id, keyword rows (names and masks), level (name and number), field names
    and data types in order, and the hex values listed in each field's description.
Standard library only.
"""
import html
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speclib import Tap, load, srcdir  # noqa: E402

SPAN = re.compile(r'<span data-ttu-id="([^"]*)">(.*?)</span><span class="sxs-lookup">'
                  r'<span data-stu-id="[^"]*">(.*?)</span></span>', re.S)
NUMERIC = re.compile(r"0x[0-9a-f]+|\b\d+\b|win:\w+", re.I)
HEX = re.compile(r"\b0x([0-9a-f]+)\b", re.I)


def english(text):
    return SPAN.sub(lambda m: m.group(3), text)


def body(text):
    """The text below the front matter (which the translations localise)."""
    parts = text.split("\n---\n", 1)
    return parts[1] if len(parts) == 2 else text


def numeric_tokens(s):
    return sorted(t.lower() for t in NUMERIC.findall(s))


def cells(line):
    return [html.unescape(c).replace("`", "").strip() for c in line.strip().strip("|").split("|")]


def hex_values(s):
    return sorted({int(h, 16) for h in HEX.findall(s)})


def md_sections(text):
    """Sections of an English markdown document: heading event name -> parsed tables."""
    out = []
    for chunk in re.split(r"\n## ", "\n" + text)[1:]:
        head = re.sub(r"<[^>]*>", "", chunk.split("\n", 1)[0]).split()
        if not head or not re.match(r"^[A-Z]\w+$", head[0]) or head[0] == "See":
            continue
        sec = {"heading": head[0], "keywords": [], "fields": [], "values": {}}
        for line in chunk.split("\n")[1:]:
            if not line.lstrip().startswith("|") or "---" in line:
                continue
            c = cells(line)
            m = re.fullmatch(r"(\w+Keyword) \((0x[0-9a-fA-F]+)\)", c[0])
            if m and len(c) >= 2:
                lv = re.fullmatch(r"(\w+) \((\d)\)", c[1])
                sec["keywords"].append((m.group(1), int(m.group(2), 16)))
                sec["level"] = (lv.group(1), int(lv.group(2))) if lv else (c[1], None)
            elif len(c) >= 3 and re.fullmatch(r"\d+", c[1]):
                sec["table_event"], sec["id"] = c[0], int(c[1])
            elif len(c) >= 3 and c[1].startswith("win:"):
                sec["fields"].append((c[0], c[1][4:]))
                vals = hex_values(c[2])
                if vals:
                    sec["values"][c[0]] = vals
        out.append(sec)
    return out


def plain_sections(text):
    """Sections of the Spanish-only 004: 'Evento NAME' lines open them; table rows are
    'a | b | c |' lines, some of them broken after the first cell."""
    lines = text.split("\n")
    out, sec, carry = [], None, None
    for line in lines:
        m = re.fullmatch(r"Evento (\w+)", line.strip())
        if m:
            sec = {"heading": m.group(1), "keywords": [], "fields": [], "values": {}}
            out.append(sec)
            carry = None
            continue
        if sec is None or "|" not in line or line.startswith("---"):
            continue
        c = [x.strip() for x in line.strip().rstrip("|").split("|")]
        if len(c) == 1:                   # a row broken after its first cell
            if carry and re.fullmatch(r"\w+ \(\d\)", c[0]):
                lv = re.fullmatch(r"(\w+) \((\d)\)", c[0])
                sec["level"] = (lv.group(1), int(lv.group(2)))
                carry = None
                continue
            carry = c[0]
            km = re.fullmatch(r"(\w+Keyword) \((0x[0-9a-fA-F]+)\)", c[0])
            if km:
                sec["keywords"].append((km.group(1), int(km.group(2), 16)))
            continue
        if carry and re.fullmatch(r"\d+", c[0]):
            sec["table_event"], sec["id"] = carry, int(c[0])
        elif len(c) >= 3 and c[1].startswith("win:"):
            sec["fields"].append((c[0], c[1][4:]))
            vals = hex_values(c[2])
            if vals:
                sec["values"][c[0]] = vals
        carry = None
    return out


def compare(doc_id, parsed, claims, tap):
    secs = claims.get("section", [])
    tap.ok(len(parsed) == len(secs), f"{doc_id}: {len(parsed)} sections in the document, "
           f"{len(secs)} in the claims")
    glossary = claims["document"].get("level_names", {})
    for i, (p, c) in enumerate(zip(parsed, secs)):
        bad = []
        for key in ("heading", "table_event", "id"):
            if p.get(key) != c.get(key):
                bad.append(f"{key}: document {p.get(key)!r}, claims {c.get(key)!r}")
        kws = [k for k, _ in p["keywords"]]
        masks = [m for _, m in p["keywords"]]
        ckw = c.get("keyword") if isinstance(c.get("keyword"), list) else [c.get("keyword")]
        cm = c.get("keyword_mask") if isinstance(c.get("keyword_mask"), list) else [c.get("keyword_mask")]
        if kws != ckw or masks != cm:
            bad.append(f"keywords: document {p['keywords']}, claims {ckw} {cm}")
        lname, lnum = p.get("level", (None, None))
        if (lname, lnum) != (c.get("level_name"), c.get("level")):
            bad.append(f"level: document {lname} ({lnum}), claims {c.get('level_name')} "
                       f"({c.get('level')})")
        if lname not in glossary and lname not in ("Informational", "Verbose", "Information"):
            bad.append(f"level name {lname!r} needs a level_names entry")
        cf = [(f["name"], f["type"]) for f in c.get("fields", [])]
        if p["fields"] != cf:
            bad.append(f"fields: document {p['fields']}, claims {cf}")
        cv = {k: sorted(v) for k, v in c.get("values", {}).items()}
        if p["values"] != cv:
            bad.append(f"values: document {p['values']}, claims {cv}")
        tap.ok(not bad, f"{doc_id} section {i + 1} ({p['heading']}): the claims transcribe "
               "heading, id, keywords, level, fields and values", "\n".join(bad))


def main():
    tap = Tap()
    seeds = os.path.join(os.environ.get("SHARED_DIR", os.path.join(srcdir(), "..", "shared")),
                         "seeds")
    if not os.path.exists(os.path.join(seeds, "README.md")):
        tap.skip_all(f"seed documents not found at {seeds}")

    def read(name):
        with open(os.path.join(seeds, name), encoding="utf-8") as f:
            return f.read()

    files = {f[:3]: f for f in os.listdir(seeds) if re.fullmatch(r"\d{3}_[0-9a-f]+\.txt", f)}
    texts = {k: read(v) for k, v in files.items()}
    cdir = os.path.join(srcdir(), "docs", "spec", "claims")
    claims = {d: load(os.path.join(cdir, f"{d}.toml")) for d in ("coreclr-2020", "fx-2017", "fx-later")}

    for k in ("000", "003"):
        tap.ok(english(texts[k]) == read(f"{k}_english_extract.md"),
               f"{k}_english_extract.md is the English text of {files[k]}")
    for k in ("001", "002"):
        a, b = body(english(texts["000"])), body(english(texts[k]))
        diff = [f"line {i + 1}: {x!r} / {y!r}" for i, (x, y) in
                enumerate(zip(a.split("\n"), b.split("\n"))) if x != y]
        tap.ok(a == b, f"the English originals of {files[k]} are those of {files['000']}",
               "\n".join(diff[:5]))

    notes = {}
    for d, cl in claims.items():
        for nt in cl["document"].get("translation_notes", []):
            notes[(nt["file"], nt["span"])] = d
    found = set()
    for k in ("000", "001", "002", "003"):
        for m in SPAN.finditer(texts[k]):
            if numeric_tokens(m.group(2)) != numeric_tokens(m.group(3)):
                found.add((files[k], m.group(1)))
    tap.ok(found == set(notes), "every translated span states the numbers and types of its "
           "English original, except the places translation_notes lists",
           "\n".join([f"unlisted: {f} span {s}" for f, s in sorted(found - set(notes))]
                     + [f"listed but not different: {f} span {s}"
                        for f, s in sorted(set(notes) - found)]))
    for (f, s), d in sorted(notes.items()):
        tap.ok(f in claims[d]["document"]["files"],
               f"translation note {f} span {s} is on a file of {d}")

    compare("coreclr-2020", md_sections(english(texts["000"])), claims["coreclr-2020"], tap)
    compare("fx-2017", md_sections(english(texts["003"])), claims["fx-2017"], tap)
    compare("fx-later", plain_sections(texts["004"]), claims["fx-later"], tap)
    tap.done()


if __name__ == "__main__":
    main()
