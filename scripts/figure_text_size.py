#!/usr/bin/env python3
"""The smallest text of every book figure as a reader sees it at a given display width.

For each book/src/figures/*.svg: the drawing's width (the viewBox's, else the width
attribute), every text element's font size (its own font-size attribute or style, else the
nearest ancestor's, else 16), and the displayed size font-size * DISPLAY / width, which is
what a browser shows when the figure is scaled to a column DISPLAY px wide (390 px: a
phone). Prints one line per figure, smallest first, and the minimum over all figures.

Usage: scripts/figure_text_size.py [--display 390] [--min PX] [FILES...]
With --min, exits 1 when some figure's smallest text is below PX displayed pixels.
Standard library only; the browser stage's check of the same quantity is in
scripts/book_browser_check.py (BOOK_CHECK_FIGURE_TEXT=1).
"""

import argparse
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def length(value):
    """A length in px from an attribute such as "14", "14px" or "14.5"; None otherwise."""
    if value is None:
        return None
    m = NUMBER.match(value.strip())
    if not m:
        return None
    rest = value.strip()[m.end():].strip()
    if rest not in ("", "px"):
        return None
    return float(m.group(0))


def font_size(element):
    """The element's own font size (attribute or style), or None."""
    size = length(element.get("font-size"))
    style = element.get("style") or ""
    m = re.search(r"font-size\s*:\s*([^;]+)", style)
    if m:
        size = length(m.group(1)) or size
    return size


def drawing_width(root):
    view_box = root.get("viewBox")
    if view_box:
        parts = [float(p) for p in re.split(r"[ ,]+", view_box.strip()) if p]
        if len(parts) == 4 and parts[2] > 0:
            return parts[2]
    width = length(root.get("width"))
    if width:
        return width
    raise ValueError("no viewBox and no width in px")


def texts(element, inherited):
    """(font size, text) of every text element under `element`."""
    own = font_size(element)
    size = own if own is not None else inherited
    tag = element.tag.replace(SVG, "")
    if tag == "text":
        content = "".join(element.itertext()).strip()
        if content:
            yield size, content
        return
    for child in element:
        yield from texts(child, size)


def measure(path, display):
    root = ET.parse(path).getroot()
    width = drawing_width(root)
    found = list(texts(root, 16.0))
    if not found:
        return None
    size, text = min(found, key=lambda t: t[0])
    return size * display / width, size, width, text, len(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--display", type=float, default=390.0)
    parser.add_argument("--min", type=float, default=None)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    files = args.files or sorted(
        glob.glob(os.path.join(here, "..", "book", "src", "figures", "*.svg"))
    )
    rows = []
    for f in files:
        m = measure(f, args.display)
        if m is not None:
            rows.append((m, os.path.basename(f)))
    rows.sort()
    for (shown, size, width, text, count), name in rows:
        print(
            f"{shown:5.2f} px  {name:45s} font {size:6.2f} on {width:5.0f} wide "
            f"({count} texts; smallest: {text[:30]!r})"
        )
    if not rows:
        print("no text in the figures")
        return 0
    low = rows[0]
    print(
        f"minimum at {args.display:.0f} px: {low[0][0]:.2f} px ({low[1]}), "
        f"over {len(rows)} figures with text"
    )
    if args.min is not None:
        below = [r for r in rows if r[0][0] < args.min]
        if below:
            print(f"{len(below)} figures below {args.min} px", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
