#!/usr/bin/env python3
"""mdBook preprocessor, run after mdbook-katex: escapes markdown's characters in the MathML.

mdbook-katex writes each formula as inline HTML into the chapter's markdown, which mdBook
then parses. KaTeX's HTML output holds no character markdown acts on, but its MathML does:
the TeX source in <annotation> (`K_\\mu^*`, `\\{`) and `~` for a wide accent in <mo>. Two `*`
in one paragraph become emphasis, two `~` strikethrough, a backslash escapes the next
character, and the formula's markup breaks (mdBook warns of unclosed tags). This replaces
those characters, in the text between the tags of every <math> element only, by numeric
character references, which the browser reads back as the same characters.

Protocol: `python3 mathml_escape.py supports RENDERER` exits 0; otherwise reads
[context, book] as JSON on stdin and writes the book as JSON on stdout.
"""

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


def walk(items):
    for item in items:
        if isinstance(item, dict) and "Chapter" in item:
            ch = item["Chapter"]
            ch["content"] = MATH.sub(escape_math, ch["content"])
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
