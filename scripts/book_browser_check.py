#!/usr/bin/env python3
"""Read the built book in a real browser (headless Chromium), with the network off.

Builds the mdBook (unless --book-dir points at a built one), opens every chapter page in
the system's Chromium through Playwright, and fails on:

* mdbook warnings while building (an unbalanced HTML tag, for one: KaTeX's `~` read as
  markdown strikethrough breaks the formula's markup; or mdbook-katex built against
  another mdbook than the one running it),
* a page that does not render (no <main>, no heading, no text) or throws a script error,
* a KaTeX error (`.katex-error`, KaTeX's red error colour) or raw TeX left in the text
  (`$$`, `\\(`, `\\frac`, ... in text outside code and outside rendered formulas), or a
  strikethrough made of a formula,
* a broken image (naturalWidth 0 after load, or its file missing), a broken internal link,
  or a link to a `#anchor` that is not an id of the target page,
* an empty listing (a <pre><code> with no text),
* any request that is not to a local file (the book must read offline),
* a file request that fails (a stylesheet, font or script missing),
* a wide table or a display equation that is wider than the text column and not inside a
  box that scrolls horizontally, a display equation whose box cuts its top or bottom, or an
  equation number drawn over its formula, at desktop
  (1280 px) or phone (390 px) width,
* a listing (<pre>) or a table that is wider than its box at desktop width (1280 px), so
  that it scrolls sideways (each reported with its page and first line; at phone width,
  390 px, a listing or table may scroll inside its box),
* search that does not work (typing a word into mdBook's search shows no result),
* a formula without MathML beside its HTML (screen readers read the MathML: KaTeX's HTML is
  marked aria-hidden), on any page,
* on the print page (print.html, the whole book on one page) laid out for print media at the
  width of an A4 sheet (794 px at 96 dpi), a display equation or a table wider than the
  text: paper does not scroll.

It also measures the text of every SVG figure as a phone shows it (390 px): the SVG's
smallest font size times the image's rendered width over the SVG's viewBox width. Figures
whose text renders below FIGURE_TEXT_MIN_PX are listed as a warning; with
BOOK_CHECK_FIGURE_TEXT=1 in the environment (or --figure-text) they fail the check.

It saves screenshots of a few pages at both widths under target/ci/screenshots/.

Usage: scripts/book_browser_check.py [--self-test] [--book-dir DIR] [--screenshots DIR]
       [--chromium /usr/bin/chromium] [--mdbook mdbook]
--self-test first builds a small book with one of each defect and fails unless every one is
reported (and nothing on its good page). The CI stage `browser` (.ci/run) runs it so.
Needs Playwright for Python (pip install playwright); it drives the installed Chromium,
it downloads no browser.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SEARCH_WORD = "Delassus"
# An A4 sheet at 96 dpi (210 mm x 297 mm): the print page is laid out at this width.
A4 = {"width": 794, "height": 1123}
# The smallest figure text a phone reader can read, in CSS px, at 390 px.
FIGURE_TEXT_MIN_PX = 7.0
# Pages mdBook writes that are not chapters: the 404 page, the whole book on one page
# (the same chapters again) and the table of contents for browsers without scripts.
NOT_CHAPTERS = {"404.html", "print.html", "toc.html"}

# Runs in the page once it has loaded: everything the checks need, measured in the DOM.
PAGE_PROBE = r"""
() => {
  const out = {errors: [], ids: [], links: [], pre_overflow: 0, pre_total: 0,
               tables: 0, displays: 0, imgs: 0, widest_table: 0, widest_display: 0};
  const main = document.querySelector('main');
  if (!main) { out.errors.push('no <main> element: the page did not render'); return out; }
  const text = main.innerText.trim();
  if (text.length === 0) out.errors.push('<main> has no text');
  if (!main.querySelector('h1')) out.errors.push('<main> has no <h1> heading');

  for (const el of document.querySelectorAll('[id]')) out.ids.push(el.id);
  for (const el of document.querySelectorAll('a[name]')) out.ids.push(el.getAttribute('name'));

  // KaTeX errors: the class KaTeX gives an unparsable formula, and its red error colour.
  for (const el of main.querySelectorAll('.katex-error'))
    out.errors.push('KaTeX error: ' + (el.getAttribute('title') || el.textContent).slice(0, 120));
  for (const el of main.querySelectorAll('.katex [style*="#cc0000"], .katex [style*="rgb(204, 0, 0)"]'))
    out.errors.push('KaTeX error colour in a formula: ' + el.textContent.slice(0, 80));
  // A `~` in KaTeX's output (the \tilde accent) read by markdown as strikethrough.
  for (const el of main.querySelectorAll('del, s')) {
    if (el.querySelector('.katex') || el.closest('.katex'))
      out.errors.push('strikethrough made of a formula (a `~` in KaTeX output read as markdown): "'
                      + el.textContent.replace(/\s+/g, ' ').slice(0, 60) + '"');
  }

  // Raw TeX in text nodes outside code, scripts and rendered formulas.
  const tex = /\$\$|\\\(|\\\)|\\\[|\\\]|\\(frac|mathbf|mathrm|mathcal|mathbb|operatorname|left|right|begin|end|sum|int|sqrt|lambda|mu|alpha|beta|gamma|delta|Delta|nabla|partial|le|ge|leq|geq|in|cdot|top|text|hat|tilde|bar|boldsymbol|quad|infty|max|min|arg|norm|langle|rangle)\b|\$[^$\s][^$]*\\[a-zA-Z]+[^$]*\$/;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {
    acceptNode(n) {
      const p = n.parentElement;
      if (!p || p.closest('pre, code, script, style, .katex, .katex-display, kbd, samp'))
        return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    }
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const m = n.textContent.match(tex);
    if (m) {
      const i = Math.max(0, m.index - 40);
      out.errors.push('raw TeX in the text: "' + n.textContent.slice(i, m.index + 40).replace(/\s+/g, ' ') + '"');
    }
  }

  // MathML beside KaTeX's HTML: every rendered formula carries a <math> element (KaTeX's
  // output "htmlAndMathml"); the HTML is hidden from screen readers.
  let formulas = 0, without = 0, sample = '';
  for (const k of main.querySelectorAll('.katex')) {
    formulas += 1;
    if (!k.querySelector('math')) {
      without += 1;
      if (!sample) sample = k.textContent.replace(/\s+/g, ' ').slice(0, 40);
    }
  }
  out.formulas = formulas;
  out.mathml = formulas - without;
  if (without > 0)
    out.errors.push('no MathML in ' + without + ' of ' + formulas + ' formulas (first: "' + sample + '")');

  // Images: loaded, with a size.
  for (const img of main.querySelectorAll('img')) {
    out.imgs += 1;
    if (!img.complete || img.naturalWidth === 0)
      out.errors.push('broken image: ' + img.getAttribute('src'));
  }

  // Empty listings.
  for (const code of main.querySelectorAll('pre > code')) {
    if (code.textContent.trim().length === 0) out.errors.push('empty listing (a <pre><code> with no text)');
  }

  // Every link: the content, the previous/next buttons and the sidebar's chapter list.
  for (const a of document.querySelectorAll('a[href]')) out.links.push(a.href);
  return out;
}
"""

# Runs at each viewport width: which wide tables and display equations are wider than the
# text column without a box of their own that scrolls, and which listings overflow.
LAYOUT_PROBE = r"""
() => {
  const main = document.querySelector('main');
  const out = {clipped: [], scrolling: {}, pre_total: 0, pre_overflow: 0, tables: 0, displays: 0,
               wide_pres: [], wide_tables: [],
               widest_table: 0, widest_display: 0, widest_table_idx: -1, widest_display_idx: -1};
  if (!main) return out;
  const m = main.getBoundingClientRect();
  const scrolls = (el) => {
    const o = getComputedStyle(el).overflowX;
    return o === 'auto' || o === 'scroll';
  };
  // The element, or an ancestor inside <main>, that scrolls horizontally and itself fits
  // in the text column.
  const scrollBox = (el) => {
    for (let e = el; e && e !== main; e = e.parentElement) {
      if (scrolls(e)) {
        const r = e.getBoundingClientRect();
        if (r.left >= m.left - 1 && r.right <= m.right + 1) return e;
      }
    }
    return null;
  };
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    const box = scrollBox(el);
    const wide = el.scrollWidth > el.clientWidth + 1 || r.right > m.right + 1 || r.left < m.left - 1
                 || (box !== null && box.scrollWidth > box.clientWidth + 1);
    const need = Math.max(el.scrollWidth, r.width);
    if (wide && box) out.scrolling[what] = (out.scrolling[what] || 0) + 1;
    if (wide && !box) {
      const label = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
      out.clipped.push(what + ' ' + Math.round(need) + ' px wide in a ' + Math.round(m.width)
                       + ' px column, not in a scroll box: "' + label + '"');
    }
    return need;
  };
  main.querySelectorAll('table').forEach((t, i) => {
    out.tables += 1;
    const w = check(t, 'table');
    if (w > out.widest_table) { out.widest_table = w; out.widest_table_idx = i; }
  });
  main.querySelectorAll('.katex-display').forEach((d, i) => {
    out.displays += 1;
    // A display that hides its vertical overflow (so that it can scroll sideways) must not
    // cut the tops and bottoms of tall glyphs.
    const cs = getComputedStyle(d);
    if ((cs.overflowY === 'hidden' || cs.overflowY === 'clip') && d.scrollHeight > d.clientHeight + 1)
      out.clipped.push('display equation cut at its top or bottom (' + (d.scrollHeight - d.clientHeight)
                       + ' px): "' + d.textContent.trim().replace(/\s+/g, ' ').slice(0, 60) + '"');
    // An equation number (\tag) drawn over the formula: KaTeX places it at the right edge
    // of the display's box, which a wide formula runs past.
    const tag = d.querySelector('.katex-html > .tag');
    if (tag) {
      const t = tag.getBoundingClientRect();
      let right = -Infinity;
      for (const b of d.querySelectorAll('.katex-html > .base')) right = Math.max(right, b.getBoundingClientRect().right);
      if (right > t.left + 1)
        out.clipped.push('equation number ' + tag.textContent.trim() + ' drawn over its formula ('
                         + Math.round(right - t.left) + ' px): "'
                         + d.textContent.trim().replace(/\s+/g, ' ').slice(0, 60) + '"');
    }
    // The formula's own width: KaTeX's inner box, which overflows the display block.
    const inner = d.querySelector('.katex-html') || d;
    const w = Math.max(check(d, 'display equation'), inner.scrollWidth);
    if (w > out.widest_display) { out.widest_display = w; out.widest_display_idx = i; }
  });
  // A listing scrolls sideways when the <pre> or its <code> (mdBook's highlighted code
  // is a block that scrolls) is wider than its box.
  for (const pre of main.querySelectorAll('pre')) {
    out.pre_total += 1;
    const boxes = [pre, ...pre.querySelectorAll(':scope > code')];
    const wide = boxes.filter((b) => b.scrollWidth > b.clientWidth + 1);
    if (wide.length > 0) {
      out.pre_overflow += 1;
      const b = wide[wide.length - 1];
      const first = (pre.textContent || '').split('\n').find((l) => l.trim().length > 0) || '';
      out.wide_pres.push('listing ' + b.scrollWidth + ' px wide in a ' + b.clientWidth
                         + ' px box (scrolls sideways): "' + first.trim().slice(0, 70) + '"');
    }
  }
  // A table that fits only by scrolling in its box (at the desktop width this is a
  // defect too: columns hidden at first sight).
  main.querySelectorAll('table').forEach((t) => {
    const box = scrollBox(t);
    if (box && box.scrollWidth > box.clientWidth + 1) {
      const label = (t.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
      out.wide_tables.push('table ' + box.scrollWidth + ' px wide in a ' + box.clientWidth
                           + ' px box (scrolls sideways): "' + label + '"');
    }
  });
  return out;
}
"""

# Runs at phone width: every image's source and rendered width, for the figure text check.
IMG_PROBE = r"""
() => Array.from(document.querySelectorAll('main img')).map((img) => ({
  src: img.src, alt: img.getAttribute('alt') || '', width: img.getBoundingClientRect().width,
}))
"""

# Runs on print.html laid out for print media at A4 width: display equations and tables
# wider than the text (on paper nothing scrolls).
PRINT_PROBE = r"""
() => {
  const out = {wide: [], displays: 0, tables: 0, column: 0};
  const main = document.querySelector('main');
  if (!main) { out.wide.push('the print page has no <main>'); return out; }
  const cs = getComputedStyle(main);
  const column = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  out.column = Math.round(column);
  // The chapter a defect is in: the nearest <h1> before it.
  const heads = Array.from(main.querySelectorAll('h1'));
  const chapter = (el) => {
    let name = '';
    for (const h of heads) {
      if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) name = h.textContent.trim();
      else break;
    }
    return name;
  };
  const label = (el) => (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
  main.querySelectorAll('.katex-display').forEach((d) => {
    out.displays += 1;
    const parts = d.querySelectorAll('.katex-html > .base, .katex-html > .tag');
    let w;
    if (parts.length > 0) {
      let lo = Infinity, hi = -Infinity;
      for (const b of parts) { const r = b.getBoundingClientRect(); lo = Math.min(lo, r.left); hi = Math.max(hi, r.right); }
      w = hi - lo;
    } else {
      const inner = d.querySelector('.katex-html') || d;
      w = Math.max(inner.scrollWidth, d.scrollWidth);
    }
    if (w > column + 1)
      out.wide.push('display equation ' + Math.round(w) + ' px wide on a ' + Math.round(column)
                    + ' px A4 text width (' + chapter(d) + '): "' + label(d) + '"');
  });
  main.querySelectorAll('table').forEach((t) => {
    out.tables += 1;
    const w = Math.max(t.scrollWidth, t.getBoundingClientRect().width);
    if (w > column + 1)
      out.wide.push('table ' + Math.round(w) + ' px wide on a ' + Math.round(column)
                    + ' px A4 text width (' + chapter(t) + '): "' + label(t) + '"');
  });
  return out;
}
"""


def svg_text_scale(path):
    """(smallest font size, viewBox width) of an SVG file, or None if it has no text."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if "<text" not in text:
        return None
    m = re.search(r'<svg\b[^>]*\bviewBox="\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+([\d.eE+]+)', text)
    if not m:
        m = re.search(r'<svg\b[^>]*\bwidth="([\d.]+)(?:px)?"', text)
    if not m:
        return None
    sizes = [float(v) for v in re.findall(r'font-size(?:="|:\s*)([\d.]+)', text)]
    # Text with no size of its own is drawn at the browser's 16 px.
    smallest = min(sizes) if sizes else 16.0
    return smallest, float(m.group(1))


def figure_text(book, images):
    """[(page, message)] for SVG figures whose smallest text renders below
    FIGURE_TEXT_MIN_PX, from (page, {src, alt, width}) at phone width; and the count of
    SVG figures with text that were measured."""
    small, measured, seen = [], 0, set()
    for page, img in images:
        parts = urlsplit(img["src"])
        if parts.scheme != "file" or not parts.path.endswith(".svg"):
            continue
        path = Path(unquote(parts.path))
        key = (page, path)
        if key in seen:
            continue
        seen.add(key)
        scale = svg_text_scale(path)
        if not scale or img["width"] <= 0:
            continue
        measured += 1
        font, vb = scale
        px = font * img["width"] / vb
        if px < FIGURE_TEXT_MIN_PX:
            small.append((page, f"at 390 px: figure text {px:.1f} px (font-size {font:g} in a "
                                f"{vb:g}-wide viewBox drawn {img['width']:.0f} px wide), below "
                                f"{FIGURE_TEXT_MIN_PX:g} px: {path.name}"))
    return small, measured


def build_book(mdbook, book_src, out_dir):
    """mdbook build into out_dir; returns the warnings and errors it logged, grouped."""
    cmd = [mdbook, "build", str(book_src), "-d", str(out_dir)]
    print("+ " + " ".join(cmd), flush=True)
    res = subprocess.run(cmd, capture_output=True, text=True)
    log = re.sub(r"\x1b\[[0-9;]*m", "", res.stdout + res.stderr)
    counts = {}
    for line in log.splitlines():
        # Every warning is a defect: an unbalanced HTML tag, for one, or mdbook-katex's note
        # that it was built against another mdbook (.ci/run pins a pair that agrees).
        bad = " ERROR " in line or "Rendering failed" in line or " WARN " in line
        if bad:
            msg = re.sub(r"^.*?(ERROR|WARN)", r"\1", line.strip())
            counts[msg] = counts.get(msg, 0) + 1
    problems = [m + (f" ({n} times)" if n > 1 else "") for m, n in counts.items()]
    if res.returncode != 0:
        problems.append(f"mdbook exited with status {res.returncode}")
    return problems


def static_ids(path, cache):
    """Ids in an HTML file not opened in the browser (read from its source)."""
    if path not in cache:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        cache[path] = set(re.findall(r'\b(?:id|name)="([^"]*)"', text))
    return cache[path]


def check_book(book, chromium, shots, enforce_figure_text=False):
    """Opens every chapter of the built book at `book`; returns (failures, summary lines).
    Figures whose text is too small at 390 px are failures with `enforce_figure_text`, and
    are printed as warnings otherwise."""
    failures = []  # (page, message)
    pages = sorted(p.name for p in book.glob("*.html") if p.name not in NOT_CHAPTERS)
    if not pages:
        return [("book", f"no pages in {book}")], []
    shots.mkdir(parents=True, exist_ok=True)
    for old in shots.glob("*.png"):
        old.unlink()

    network = []  # every request that was not to a local file
    page_ids = {}  # file path -> ids seen in the DOM
    links = {}  # url -> first page linking to it
    stats = {}
    clipped = 0
    scrolling = {"1280": {}, "390": {}}
    pre_total = pre_overflow = tables = displays = imgs = 0
    formulas = mathml = 0
    images = []  # (page, img) at phone width
    current = {"page": "?"}

    def route(r):
        url = r.request.url
        if url.startswith(("file://", "data:", "blob:")):
            r.continue_()
        else:
            network.append((current["page"], url))
            r.abort()

    def failed_request(req):
        if req.url.startswith("file://"):
            # A load the next navigation cancelled (the favicon, typically) fails with
            # net::ERR_ABORTED although the file is there: not a defect. A missing file
            # fails with another error, or names a path that does not exist.
            path = Path(unquote(urlsplit(req.url).path))
            if "ERR_ABORTED" in str(req.failure) and path.is_file():
                return
            failures.append((current["page"], f"file request failed: {req.url} ({req.failure})"))

    def console(msg):
        # A resource that failed to load is reported by failed_request or as a network
        # request; any other console error is a defect of its own.
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            failures.append((current["page"], f"console error: {msg.text}"))

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"],
        )
        desk_ctx = browser.new_context(viewport=DESKTOP)
        # A phone opens each page at its own width: mdBook hides the sidebar when a page
        # loads in a narrow window, so the page is loaded again rather than resized.
        phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        views = []
        for ctx, width in ((desk_ctx, "1280"), (phone_ctx, "390")):
            ctx.route("**/*", route)
            pg = ctx.new_page()
            pg.on("pageerror", lambda e, w=width: failures.append((current["page"], f"script error at {w} px: {e}")))
            pg.on("console", console)
            pg.on("requestfailed", failed_request)
            views.append((pg, width))
        page, phone_page = views[0][0], views[1][0]

        for name in pages:
            current["page"] = name
            page.goto((book / name).as_uri(), wait_until="load")
            probe = page.evaluate(PAGE_PROBE)
            for e in probe["errors"]:
                failures.append((name, e))
            page_ids[book / name] = set(probe["ids"])
            for u in probe["links"]:
                links.setdefault(u, name)
            imgs += probe["imgs"]
            formulas += probe["formulas"]
            mathml += probe["mathml"]
            layouts = {}
            for pg, width in views:
                if pg is not page:
                    pg.goto((book / name).as_uri(), wait_until="load")
                lay = pg.evaluate(LAYOUT_PROBE)
                layouts[width] = lay
                if width == "390":
                    images += [(name, img) for img in pg.evaluate(IMG_PROBE)]
                for c in lay["clipped"]:
                    failures.append((name, f"at {width} px: {c}"))
                    clipped += 1
                for what, n in lay["scrolling"].items():
                    scrolling[width][what] = scrolling[width].get(what, 0) + n
                # At the desktop width every listing and table fits the column; at phone
                # width they may scroll inside their box.
                if width == "1280":
                    for w in lay["wide_pres"] + lay["wide_tables"]:
                        failures.append((name, f"at {width} px: {w}"))
            desk = layouts["1280"]
            pre_total += desk["pre_total"]
            pre_overflow += desk["pre_overflow"]
            tables += desk["tables"]
            displays += desk["displays"]
            stats[name] = {"desk": desk, "imgs": probe["imgs"]}

        # The print page, laid out for paper at A4 width.
        current["page"] = "print.html"
        print_out = {"wide": [], "displays": 0, "tables": 0, "column": 0}
        if (book / "print.html").exists():
            print_ctx = browser.new_context(viewport=A4)
            print_ctx.route("**/*", route)
            ppg = print_ctx.new_page()
            # mdBook's print page opens the print dialog once loaded: a no-op here.
            ppg.add_init_script("window.print = () => {};")
            ppg.emulate_media(media="print")
            ppg.goto((book / "print.html").as_uri(), wait_until="load")
            print_out = ppg.evaluate(PRINT_PROBE)
            print_ctx.close()
            for w in print_out["wide"]:
                failures.append(("print.html", f"on the print page at A4 width: {w}"))
        else:
            failures.append(("print.html", "no print page (print.html) in the built book"))

        # Links: local targets exist, anchors are ids of the target page.
        cache = {}
        for url, name in links.items():
            parts = urlsplit(url)
            if parts.scheme != "file":
                continue  # a link out of the book: not followed (the network is off)
            target = Path(unquote(parts.path))
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                failures.append((name, f"broken link: {url} (no file {target})"))
                continue
            frag = unquote(parts.fragment)
            if frag:
                if target.suffix != ".html":
                    failures.append((name, f"anchor on a file that is not a page: {url}"))
                    continue
                ids = page_ids.get(target) or static_ids(target, cache)
                if frag not in ids:
                    failures.append((name, f"link to a missing anchor: {target.name}#{frag}"))

        # Search: type a word into mdBook's search box, results must appear.
        current["page"] = "search"
        start = next((p for p in ("introduction.html", "index.html") if p in pages), pages[0])
        page.goto((book / start).as_uri(), wait_until="load")
        n_results = 0
        try:
            page.click("#mdbook-search-toggle")
            # Typed key by key: mdBook searches on keyup.
            page.locator("#mdbook-searchbar").press_sequentially(SEARCH_WORD, delay=20)
            page.wait_for_selector("#mdbook-searchresults li", timeout=10000)
            n_results = page.locator("#mdbook-searchresults li").count()
            first = page.locator("#mdbook-searchresults li a").first.get_attribute("href")
            if not first or not (book / unquote(urlsplit(first).path)).exists():
                failures.append(("search", f"the first result for {SEARCH_WORD} links to no page: {first}"))
        except Exception as e:  # noqa: BLE001 - any failure here means search is broken
            failures.append(("search", f"typing {SEARCH_WORD!r} into the search showed no results ({e})"))

        # Screenshots: the introduction, the page with the widest display equation, the one
        # with the widest table and the one with the most figures, each at both widths,
        # scrolled to that element.
        def pick(key):
            best = max(stats, key=lambda p: stats[p]["desk"][key])
            return best if stats[best]["desk"][key] > 0 else None

        figure = max(stats, key=lambda p: stats[p]["imgs"])
        chosen = []
        for label, name, sel in (
            ("introduction", start, None),
            ("math", pick("widest_display"), ".katex-display"),
            ("table", pick("widest_table"), "main table"),
            ("figure", figure if stats[figure]["imgs"] else None, "main img"),
        ):
            if not name:
                continue
            idx = {".katex-display": stats[name]["desk"]["widest_display_idx"],
                   "main table": stats[name]["desk"]["widest_table_idx"]}.get(sel, 0)
            current["page"] = name
            for pg, width in views:
                pg.goto((book / name).as_uri(), wait_until="load")
                if sel:
                    pg.locator(sel).nth(idx).evaluate("e => e.scrollIntoView({block: 'center'})")
                kind = "desktop" if width == "1280" else "phone"
                pg.screenshot(path=str(shots / f"{label}-{kind}.png"))
            chosen.append(f"{label}: {name}")
        browser.close()

    network = list(dict.fromkeys(network))
    for pg, url in network:
        failures.append((pg, f"network request (the book must read offline): {url}"))

    def scrolled(width, what):
        return scrolling[width].get(what, 0)

    small, measured = figure_text(book, images)
    if enforce_figure_text:
        failures += small
    elif small:
        print(f"==> WARNING: {len(small)} figures with text below {FIGURE_TEXT_MIN_PX:g} px at 390 px "
              "(a failure with BOOK_CHECK_FIGURE_TEXT=1):")
        for pg, msg in small:
            print(f"    {pg}: {msg}")

    summary = [
        f"pages                  {len(pages)}",
        f"links checked          {len(links)} (unique targets, anchors included)",
        f"images                 {imgs}",
        f"display equations      {displays}: scrolling in their box {scrolled('1280', 'display equation')} at 1280 px, {scrolled('390', 'display equation')} at 390 px",
        f"tables                 {tables}: scrolling in their box {scrolled('1280', 'table')} at 1280 px, {scrolled('390', 'table')} at 390 px",
        f"tables and equations clipped (no scroll box) or cut, numbers over formulas (1280, 390 px): {clipped}",
        f"listings wider than their box at 1280 px: {pre_overflow} of {pre_total}",
        f"formulas               {formulas}: with MathML {mathml}",
        f"print page (A4, {print_out['column']} px text): {print_out['displays']} display equations, {print_out['tables']} tables, {len(print_out['wide'])} wider than the text",
        f"SVG figures with text  {measured} measured at 390 px: {len(small)} below {FIGURE_TEXT_MIN_PX:g} px"
        + ("" if enforce_figure_text else " (warning only; BOOK_CHECK_FIGURE_TEXT=1 makes it fail)"),
        f"network requests       {len(network)}",
        f"search {SEARCH_WORD!r}      {n_results} results",
        f"screenshots in {shots}: " + "; ".join(chosen),
    ]
    # Screenshots reload a few pages: report each problem once.
    return list(dict.fromkeys(failures)), summary


# Listings still wider than the column at 1280 px, as (page, the start of their first line):
# each is a console session the program's own output fills (book/src/generated/cli_*.txt,
# written by tests/cli/book.rs). Help, tables and summaries fit a 100-column terminal (or
# nearly: the `solve` table is about 115 columns); what is left is output that is one line
# on purpose: diagnostics (`nonsmooth: ...`, `nonsmooth: warning: ...`, whole sentences
# naming the file, kept on one line so that a log can be searched line by line), JSON Lines
# (one object per line is the format), and the `solve` table of the many long file names of
# data/ under `auto` (whose method column fits `fischer-newton`). They are reported but do
# not fail; an entry that fits now fails, so the list only shrinks. Every other listing must
# fit.
KNOWN_WIDE = [
    ("command-line.html", "$ nonsmooth solve data/ | head -n 14"),  # cli_solve.txt: 128-column table (file names up to 28 characters, auto's methods)
    ("command-line.html", "$ nonsmooth solve --kind ccp --tol 1e-10 --method nsgs data/box_stack_"),  # cli_solve_options.txt: a --json line, the no-convergence diagnostic
    ("command-line.html", "$ nonsmooth convert data/box_stack_5.json --to numpy -o target/tmp/cli"),  # cli_numpy.txt: the no-meta.json warning
    ("real-problems.html", "$ nonsmooth check tests/fixtures/mujoco/condim4_sphere_elliptic.json"),  # cli_mujoco_condim.txt: the condim error and warning
    ("real-problems.html", "$ nonsmooth check data/mujoco/mujoco_sliding_slab_elliptic.json"),  # cli_check_mujoco.txt: the contacts' labels (from geoms and positions) end the per-contact rows
    ("mujoco-bridge.html", "$ nonsmooth check --worst 4 --sort distance data/mujoco/mujoco_box_stack4_pyramidal.json"),  # cli_check_pyramidal.txt: the contacts' labels end the per-contact rows
    ("reliability.html", "$ nonsmooth info cut.dat"),  # cli_bad_input.txt: error messages
    # solve's table with auto's labels ("auto:fischer-newton"), a few columns past the box:
    ("command-line.html", "$ nonsmooth solve --method psor --omega 1.3 data/opentissue/dlm/72"),
    ("command-line.html", "$ nonsmooth solve pyramid_3.json --method prox-gs --set window=100 --o"),
    ("command-line.html", "$ nonsmooth solve --history target/tmp/cli_book/history.csv data/wall_"),
    ("command-line.html", "$ nonsmooth solve --kind coulomb lcp.dat"),
]
WIDE_LISTING = re.compile(r'^at 1280 px: listing \d+ px wide in a \d+ px box \(scrolls sideways\): "(.*)"$')


def split_known(failures):
    """Moves the known wide listings (KNOWN_WIDE) out of `failures`; returns (failures, known),
    where the failures gain one for each KNOWN_WIDE entry that no listing matched."""
    kept, known, used = [], [], set()
    for pg, msg in failures:
        m = WIDE_LISTING.match(msg)
        hit = m and next((k for k in KNOWN_WIDE if k[0] == pg and m.group(1).startswith(k[1][:70])), None)
        if hit:
            known.append((pg, msg))
            used.add(hit)
        else:
            kept.append((pg, msg))
    for k in KNOWN_WIDE:
        if k not in used:
            kept.append((k[0], f"KNOWN_WIDE lists a listing that fits now (or is gone): {k[1]!r}; remove it"))
    return kept, known


# The self-test: a two-chapter book with one of each defect, each of which must be reported.
SELF_TEST_GOOD = """# Good

A page about the Delassus operator $W = J M^{-1} J^T$, with an equation:

$$
u = W r + q .
$$

See [the bad page](bad.md#a-section).
"""
SELF_TEST_BAD = r"""# Bad

## A section

A [broken link](missing.md) and a [missing anchor](good.md#nowhere).

![missing figure](figures/missing.svg)

<img src="https://example.com/remote.png" alt="remote">

```text
```

Raw TeX left in the text: \\frac{a}{b} and an unparsable formula $\frac{a}$.

Two tildes: $\tilde a$ and $\tilde b$.

A formula KaTeX refused at run time: <span class="katex-error" title="ParseError: KaTeX parse error">\\sqrt{</span>

<div class="katex-display" style="overflow: visible">
<span style="display: inline-block; width: 2000px">a display far too wide</span>
</div>

<div><table style="display: table"><tr><td style="min-width: 2000px">a wide table</td></tr></table></div>

<div class="katex-display" style="overflow: hidden; height: 20px; padding: 0"><span style="display: inline-block; height: 60px">a tall display cut</span></div>

<div class="katex-display"><span class="katex"><span class="katex-html" style="display: block; position: relative; padding: 0; min-width: 0"><span class="base" style="display: inline-block; width: 1500px">a numbered display</span><span class="tag" style="position: absolute; right: 0">(9)</span></span></span></div>

```text
a listing too wide: LISTING_LINE
```

| TABLE_CELL | b |
|---|---|
| 1 | 2 |

<div class="katex"><span class="katex-html" aria-hidden="true">a formula without MathML</span></div>

![a figure with tiny text](figures/tiny.svg)
""".replace("LISTING_LINE", "x" * 200).replace("TABLE_CELL", "a-table-that-scrolls-" + "y" * 200)
SELF_TEST_EXPECT = [
    ("mdbook warning", "mdbook build", "WARN"),
    ("broken link", "bad.html", "broken link"),
    ("missing anchor", "bad.html", "missing anchor: good.html#nowhere"),
    ("broken image", "bad.html", "broken image: figures/missing.svg"),
    ("missing file", "bad.html", "file request failed"),
    ("network request", "bad.html", "network request (the book must read offline): https://example.com/remote.png"),
    ("empty listing", "bad.html", "empty listing"),
    ("KaTeX error", "bad.html", "KaTeX error: ParseError"),
    ("raw TeX", "bad.html", "raw TeX in the text"),
    ("strikethrough formula", "bad.html", "strikethrough made of a formula"),
    ("clipped equation", "bad.html", "display equation 2000 px"),
    ("clipped table", "bad.html", "at 390 px: table"),
    ("equation cut vertically", "bad.html", "display equation cut at its top or bottom"),
    ("number over its formula", "bad.html", "equation number (9) drawn over its formula"),
    ("listing too wide", "bad.html", 'scrolls sideways): "a listing too wide'),
    ("table that scrolls at 1280 px", "bad.html", 'scrolls sideways): "a-table-that-scrolls'),
    ("formula without MathML", "bad.html", "no MathML in"),
    ("equation wider than an A4 page", "print.html", "on the print page at A4 width: display equation 2000 px"),
    ("table wider than an A4 page", "print.html", "on the print page at A4 width: table"),
    ("figure text too small at 390 px", "bad.html", "below 7 px: tiny.svg"),
]
# An SVG figure whose text, 10 units in a 2000-unit viewBox, is drawn at 2 to 4 px.
SELF_TEST_TINY_SVG = ('<svg width="2000" height="400" viewBox="0 0 2000 400" xmlns="http://www.w3.org/2000/svg">'
                      '<text x="10" y="200" font-size="10">tiny</text></svg>\n')
# The good page (and index.html, mdBook's copy of the first chapter) must pass, and the
# search must find the good page's word: a report on either is the check's own error.


def self_test(mdbook, chromium):
    """Builds a book with one of each defect and checks that each one is reported, and that
    the good page is not."""
    with tempfile.TemporaryDirectory(prefix="nonsmooth-selftest-") as tmp:
        root = Path(tmp)
        src = root / "book" / "src"
        src.mkdir(parents=True)
        shutil.copy(REPO / "book" / "book.toml", root / "book" / "book.toml")
        shutil.copytree(REPO / "book" / "theme", root / "book" / "theme")
        shutil.copytree(REPO / "book" / "preprocessors", root / "book" / "preprocessors")
        shutil.copytree(REPO / "book" / "src" / "katex", src / "katex")
        (src / "figures").mkdir()
        (src / "figures" / "tiny.svg").write_text(SELF_TEST_TINY_SVG)
        (src / "SUMMARY.md").write_text("# Summary\n\n- [Good](good.md)\n- [Bad](bad.md)\n")
        (src / "good.md").write_text(SELF_TEST_GOOD)
        (src / "bad.md").write_text(SELF_TEST_BAD)
        out = root / "out"
        failures = [("mdbook build", p) for p in build_book(mdbook, root / "book", out)]
        more, summary = check_book(out, chromium, root / "shots", enforce_figure_text=True)
        failures += more
    missed = []
    for what, page, needle in SELF_TEST_EXPECT:
        if not any(p == page and needle in m for p, m in failures):
            missed.append(what)
    wrong = [(p, m) for p, m in failures if p in ("good.html", "index.html", "search")]
    print("==> self-test: a book with one of each defect")
    for pg, msg in failures:
        print(f"    reported  {pg}: {msg}")
    for line in summary:
        print(f"    {line}")
    if missed or wrong:
        for what in missed:
            print(f"    MISSED    {what}")
        for pg, msg in wrong:
            print(f"    WRONG     {pg}: {msg} (the good page has no defect)")
        print("==> self-test FAILED: the check does not see every defect")
        return False
    print(f"==> self-test passed: all {len(SELF_TEST_EXPECT)} kinds of defect reported, none on the good page")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--book-dir", help="an already built book (default: build book/ into a temp dir)")
    ap.add_argument("--screenshots", default=str(REPO / "target/ci/screenshots"))
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--mdbook", default=shutil.which("mdbook") or os.path.expanduser("~/.cargo/bin/mdbook"))
    ap.add_argument("--figure-text", action="store_true",
                    default=os.environ.get("BOOK_CHECK_FIGURE_TEXT", "") not in ("", "0"),
                    help=f"fail on figure text below {FIGURE_TEXT_MIN_PX:g} px at 390 px "
                         "(default: a warning; also BOOK_CHECK_FIGURE_TEXT=1)")
    ap.add_argument("--self-test", action="store_true",
                    help="first check that a book with one of each defect fails")
    args = ap.parse_args()

    t0 = time.monotonic()
    if args.self_test and not self_test(args.mdbook, args.chromium):
        return 1
    failures = []
    with tempfile.TemporaryDirectory(prefix="nonsmooth-book-") as tmp:
        if args.book_dir:
            book = Path(args.book_dir).resolve()
        else:
            book = Path(tmp)
            failures += [("mdbook build", p) for p in build_book(args.mdbook, REPO / "book", book)]
        more, summary = check_book(book, args.chromium, Path(args.screenshots), args.figure_text)
        failures += more
    failures, known = split_known(failures)
    print(f"==> book browser check ({time.monotonic() - t0:.0f} s)")
    for line in summary:
        print(f"    {line}")
    if known:
        print(f"==> {len(known)} known wide listings (KNOWN_WIDE: the program's own output), not failing:")
        for pg, msg in known:
            print(f"    {pg}: {msg}")
    if failures:
        print(f"==> {len(failures)} problems:")
        for pg, msg in failures:
            print(f"    {pg}: {msg}")
        return 1
    print("==> the book reads in a browser: no problem found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
