#!/usr/bin/env python3
"""mdBook preprocessor, run after mdbook-katex: escapes markdown's characters in the MathML.

mdbook-katex writes each formula as inline HTML into the chapter's markdown, which mdBook
then parses. KaTeX's HTML output holds no character markdown acts on, but its MathML does:
the TeX source in <annotation> (`K_\\mu^*`, `\\{`) and `~` for a wide accent in <mo>. Two `*`
in one paragraph become emphasis, two `~` strikethrough, a backslash escapes the next
character, and the formula's markup breaks (mdBook warns of unclosed tags). This replaces
those characters, in the text between the tags of every <math> element only, by numeric
character references, which the browser reads back as the same characters.

A heading's id is made from its text, and the MathML's text (the formula again, and its
source) would change it: `## The weight $a$` would get the id `the-weight-aaa`, not
`the-weight-a`. A heading with a formula therefore gets its id written out (`{#the-weight-a}`),
made from the text without the MathML, the way mdBook makes ids.

Protocol: `python3 mathml_escape.py supports RENDERER` exits 0; otherwise reads
[context, book] as JSON on stdin and writes the book as JSON on stdout.
"""

import html
import json
import re
import sys

MATH = re.compile(r"<math\b.*?</math>", re.S)
TEXT = re.compile(r">([^<]+)<")
SPECIAL = {c: f"&#{ord(c)};" for c in "\\*_~`[]|$!"}


def escape_text(m):
    return ">" + "".join(SPECIAL.get(c, c) for c in m.group(1)) + "<"


def escape_math(m):
    return TEXT.sub(escape_text, m.group(0))


MATHML_SPAN = re.compile(r'<span class="katex-mathml">.*?</math></span>', re.S)
TAG = re.compile(r"<[^>]*>")


def heading_id(text):
    """mdBook's id for a heading of this text, the formulas read as their HTML only."""
    plain = html.unescape(TAG.sub("", MATHML_SPAN.sub("", text)))
    out = []
    for ch in plain.strip():
        if ch.isalnum() or ch in "_-":
            out.append(ch.lower())
        elif ch.isspace():
            out.append("-")
    return "".join(out)


def fix_heading(line):
    m = re.match(r"(#{1,6}\s+)(.*?)\s*$", line)
    if not m or "<math" not in line or re.search(r"\{#[^}]*\}\s*$", line):
        return line
    return f"{m.group(1)}{m.group(2)} {{#{heading_id(m.group(2))}}}"


def fix_headings(content):
    out, fenced = [], False
    for line in content.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        out.append(line if fenced else fix_heading(line))
    return "\n".join(out)


def walk(items):
    for item in items:
        if isinstance(item, dict) and "Chapter" in item:
            ch = item["Chapter"]
            ch["content"] = MATH.sub(escape_math, fix_headings(ch["content"]))
            walk(ch.get("sub_items", []))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "supports":
        return 0
    context, book = json.load(sys.stdin)
    walk(book.get("items", book.get("sections", [])))
    json.dump(book, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
