#!/usr/bin/env python3
"""diagrams.py -- draws the workbook's pictures into docs/img/ as SVG, with the standard library alone.

  python3 docs/diagrams.py           write docs/img/*.svg (only those that changed)
  python3 docs/diagrams.py --check   PASS or FAIL for each picture: FAIL where the committed SVG is not what
                                     this script draws; closes with "N passed, N failed", exit 1 if any failed

Each picture is computed from a small example (the reduction's sums, the radix pass's places, the banks of a
padded tile), so what it shows is what the workbook's code does:
  hierarchy.svg       grid, block, warp, lane, and the global index       docs/concepts.md, docs/prac1.md
  coalescing.svg      a warp reading 32 consecutive words, and stride 32  docs/concepts.md, docs/prac1.md
  banks.svg           32 banks; a 32 x 32 tile's column, and pitch 33     docs/concepts.md, docs/answers/prac5.md
  banks_column.svg    the same, the 32 x 32 tile alone (no answer shown)  docs/prac5.md, step 6
  reduction_tree.svg  prac4/reduction.cu's tree over 16 values            docs/prac4.md, step 1
  lookback.svg        prac8's decoupled look-back (scans/s2_lookback.cuh) docs/prac8.md, step 4
  pcr.svg             prac7/trid.cu's parallel cyclic reduction, 8 rows   docs/prac7.md, step 3
  radix_pass.svg      prac8's one-bit radix pass (sort/k1_one_bit.cuh)    docs/prac8.md, step 7
  radix_digits.svg    prac8's 4-bit pass: counts, scan, scatter           docs/answers/prac8.md, step 8
  windows.svg         prac9's ints of text and their three shifted copies docs/prac9.md, step 1b
The output depends on nothing but this file: no dates, no dictionaries in arbitrary order, numbers rounded
to two decimals, so a stale picture shows as a diff and `make test` fails it.
"""
import os
import re
import sys

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"

# a light palette: a pale fill and a strong line of each colour
INK, MUTED, RULE, PAPER = "#1f2937", "#6b7280", "#9ca3af", "#ffffff"
GREY, GREY_F = "#9ca3af", "#f3f4f6"
BLUE, BLUE_F = "#2563eb", "#dbeafe"
GREEN, GREEN_F = "#15803d", "#dcfce7"
ORANGE, ORANGE_F = "#c2410c", "#ffedd5"
RED, RED_F = "#dc2626", "#fee2e2"
PURPLE, PURPLE_F = "#7c3aed", "#ede9fe"
AMBER, AMBER_F = "#b45309", "#fef3c7"
TEAL, TEAL_F = "#0f766e", "#ccfbf1"


def num(v):
    """A coordinate as short, fixed text: whole numbers bare, others to two decimals."""
    r = round(float(v), 2)
    if r == int(r):
        return str(int(r))
    return ("%.2f" % r).rstrip("0").rstrip(".")


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def attrs(pairs):
    out = []
    for k, v in pairs:
        if v is None:
            continue
        out.append('%s="%s"' % (k, num(v) if isinstance(v, (int, float)) else esc(v)))
    return " ".join(out)


class Svg:
    """A picture as a list of SVG elements, written in the order they were drawn."""

    def __init__(self, width, height, title):
        self.width, self.height, self.title = width, height, title
        self.body = []
        self.markers = []  # colours of the arrowheads used, in order of first use

    def rect(self, x, y, w, h, fill=PAPER, stroke=INK, sw=1, rx=0, dash=None):
        self.body.append("<rect %s/>" % attrs([("x", x), ("y", y), ("width", w), ("height", h), ("rx", rx or None),
                                               ("fill", fill), ("stroke", stroke), ("stroke-width", sw),
                                               ("stroke-dasharray", dash)]))

    def circle(self, cx, cy, r, fill=PAPER, stroke=INK, sw=1):
        self.body.append("<circle %s/>" % attrs([("cx", cx), ("cy", cy), ("r", r), ("fill", fill), ("stroke", stroke),
                                                 ("stroke-width", sw)]))

    def polygon(self, pts, fill, stroke="none", sw=1):
        p = " ".join("%s,%s" % (num(x), num(y)) for x, y in pts)
        self.body.append("<polygon %s/>" % attrs([("points", p), ("fill", fill), ("stroke", stroke),
                                                  ("stroke-width", sw)]))

    def _marker(self, colour):
        if colour not in self.markers:
            self.markers.append(colour)
        return "url(#head%d)" % self.markers.index(colour)

    def line(self, x1, y1, x2, y2, stroke=INK, sw=1, dash=None, arrow=False):
        self.body.append("<line %s/>" % attrs([("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2), ("stroke", stroke),
                                               ("stroke-width", sw), ("stroke-dasharray", dash),
                                               ("marker-end", self._marker(stroke) if arrow else None)]))

    def path(self, d, stroke=INK, sw=1, fill="none", dash=None, arrow=False):
        self.body.append("<path %s/>" % attrs([("d", d), ("fill", fill), ("stroke", stroke), ("stroke-width", sw),
                                               ("stroke-dasharray", dash),
                                               ("marker-end", self._marker(stroke) if arrow else None)]))

    def text(self, x, y, s, size=13, anchor=None, weight=None, fill=INK, mono=False, italic=False):
        """One line of text; s is a string, or a list of (string, colour, bold) runs."""
        a = attrs([("x", x), ("y", y), ("font-size", size), ("text-anchor", anchor), ("font-weight", weight),
                   ("font-style", "italic" if italic else None), ("font-family", MONO if mono else None),
                   ("fill", fill)])
        if isinstance(s, str):
            s = re.sub(" {2,}", lambda m: " " + "\u00a0" * (len(m.group()) - 1), s)  # a run of spaces stays
            self.body.append("<text %s>%s</text>" % (a, esc(s)))
            return
        # each run a tspan; the spaces at a run's ends become a dx on the next run, since renderers differ in
        # whether they keep them
        runs, gap = [], 0
        for run in s:
            t, colour, bold = (tuple(run) + (None, None))[:3]
            stripped = t.strip(" ")
            gap += len(t) - len(t.lstrip(" "))
            ra = attrs([("dx", gap * size * (0.6 if mono else 0.32) if gap else None), ("fill", colour),
                        ("font-weight", "bold" if bold else None)])
            runs.append("<tspan %s>%s</tspan>" % (ra, esc(stripped)))
            gap = len(t) - len(t.rstrip(" ")) if stripped else gap
        self.body.append("<text %s>%s</text>" % (a, "".join(runs)))

    def render(self):
        out = ['<?xml version="1.0" encoding="UTF-8"?>',
               '<svg xmlns="http://www.w3.org/2000/svg" %s>' % attrs([
                   ("width", self.width), ("height", self.height),
                   ("viewBox", "0 0 %d %d" % (self.width, self.height)), ("font-family", FONT)]),
               "<title>%s</title>" % esc(self.title)]
        if self.markers:
            out.append("<defs>")
            for i, c in enumerate(self.markers):
                out.append('<marker id="head%d" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
                           'markerHeight="8" markerUnits="userSpaceOnUse" orient="auto">'
                           '<path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>' % (i, c))
            out.append("</defs>")
        out.append('<rect width="%d" height="%d" fill="%s"/>' % (self.width, self.height, PAPER))
        out.extend(self.body)
        out.append("</svg>")
        return "\n".join(out) + "\n"


# ---- small pieces shared by the pictures -------------------------------------------------------------------

def heading(s, x, title, sub=None):
    s.text(x, 30, title, size=17, weight="bold")
    if sub:
        s.text(x, 52, sub, size=13, fill=MUTED)


def cell(s, x, y, w, h, label=None, fill=PAPER, stroke=RULE, sw=1, size=12, colour=INK, bold=False, mono=False):
    s.rect(x, y, w, h, fill=fill, stroke=stroke, sw=sw)
    if label is not None:
        s.text(x + w / 2, y + h / 2 + size * 0.36, str(label), size=size, anchor="middle", fill=colour,
               weight="bold" if bold else None, mono=mono)


def swatch(s, x, y, fill, stroke, text, size=13, colour=INK):
    """A small square of a colour, then what it means (y: the text's baseline)."""
    s.rect(x, y - 11, 14, 14, fill=fill, stroke=stroke, sw=1.5)
    s.text(x + 22, y, text, size=size, fill=colour)


def para(s, x, y, text, size=12, width=830, lh=None, **kw):
    """Text wrapped to about width pixels (characters of about 0.53 em); returns the y below its last line."""
    per_line = int(width / (size * 0.53))
    words, lines, cur = text.split(" "), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > per_line:
            lines.append(cur)
            cur = w
        else:
            cur = (cur + " " + w) if cur else w
    lines.append(cur)
    lh = lh or round(size * 1.4)
    for j, line in enumerate(lines):
        s.text(x, y + j * lh, line, size=size, **kw)
    return y + (len(lines) - 1) * lh + lh


def bracket(s, x1, x2, y, label, colour=MUTED, size=12, down=True):
    """A bracket under (down) or over a span, with its label centred on the other side."""
    t = 6 if down else -6
    s.path("M%s,%s L%s,%s L%s,%s L%s,%s" % (num(x1), num(y), num(x1), num(y + t), num(x2), num(y + t), num(x2),
                                            num(y)), stroke=colour, sw=1.2)
    s.text((x1 + x2) / 2, y + t + (16 if down else -6), label, size=size, anchor="middle", fill=colour)


def badge(s, x, y, flag, value, w=76, h=30):
    """A look-back status word: its flag (X, A, P) and its value."""
    fill, stroke = {"X": (GREY_F, GREY), "A": (AMBER_F, AMBER), "P": (GREEN_F, GREEN)}[flag]
    s.rect(x, y, w, h, fill=fill, stroke=stroke, sw=1.5, rx=5)
    s.text(x + 10, y + h / 2 + 6, flag, size=17, weight="bold", fill=stroke)
    s.text(x + w - 10, y + h / 2 + 5, "—" if value is None else str(value), size=14, anchor="end", mono=True)


# ---- 1. the thread hierarchy -------------------------------------------------------------------------------

def hierarchy():
    nblocks, bdim, b_sel, t_sel = 4, 128, 2, 37
    w_sel, lane_sel, gi = t_sel // 32, t_sel % 32, b_sel * bdim + t_sel
    W, L, R = 860, 40, 820
    s = Svg(W, 600, "Grid, blocks, warps and threads, and a thread's global index")
    heading(s, L, "Grid, block, warp, thread: where each thread is",
            "a launch <<<%d, %d>>>: %d blocks of %d threads; each block is %d warps of 32 threads"
            % (nblocks, bdim, nblocks, bdim, bdim // 32))

    # the grid
    y1, gap = 96, 16
    bw = (R - L - gap * (nblocks - 1)) / nblocks
    s.text(L, y1 - 12, "grid: gridDim.x = %d blocks; each block runs on one SM, the blocks in any order" % nblocks,
           size=13, weight="bold")
    for b in range(nblocks):
        x = L + b * (bw + gap)
        sel = b == b_sel
        s.rect(x, y1, bw, 70, fill=BLUE_F if sel else GREY_F, stroke=BLUE if sel else GREY, sw=2 if sel else 1, rx=6)
        s.text(x + bw / 2, y1 + 24, "blockIdx.x = %d" % b, size=13, anchor="middle", mono=True,
               weight="bold" if sel else None)
        mw = (bw - 20 - 3 * 6) / 4
        for w in range(bdim // 32):
            cell(s, x + 10 + w * (mw + 6), y1 + 38, mw, 22, "w%d" % w, fill=PAPER,
                 stroke=BLUE if sel and w == w_sel else RULE, sw=2 if sel and w == w_sel else 1)

    # the block, zoomed
    y2 = y1 + 112
    bx = L + b_sel * (bw + gap)
    s.polygon([(bx, y1 + 70), (bx + bw, y1 + 70), (R, y2), (L, y2)], fill="#eff6ff")
    s.rect(L, y2, R - L, 96, fill="#f8fbff", stroke=BLUE, sw=1.5, rx=6)
    s.text(L + 12, y2 + 22, "block %d: blockDim.x = %d threads, threadIdx.x = 0 … %d; they share the block's shared "
           "memory" % (b_sel, bdim, bdim - 1), size=13, weight="bold")
    ww = (R - L - 20 - 3 * 12) / 4
    for w in range(bdim // 32):
        x = L + 10 + w * (ww + 12)
        sel = w == w_sel
        s.rect(x, y2 + 34, ww, 50, fill=PURPLE_F if sel else PAPER, stroke=PURPLE if sel else RULE,
               sw=2 if sel else 1, rx=4)
        s.text(x + ww / 2, y2 + 54, "warp %d" % w, size=13, anchor="middle", weight="bold" if sel else None)
        s.text(x + ww / 2, y2 + 73, "threadIdx.x %d … %d" % (32 * w, 32 * w + 31), size=12, anchor="middle",
               mono=True)

    # the warp, zoomed
    y3 = y2 + 96 + 44
    wx = L + 10 + w_sel * (ww + 12)
    s.polygon([(wx, y2 + 84), (wx + ww, y2 + 84), (R, y3), (L, y3)], fill="#f5f3ff")
    s.rect(L, y3, R - L, 112, fill="#fbfaff", stroke=PURPLE, sw=1.5, rx=6)
    s.text(L + 12, y3 + 22, "warp %d: 32 threads (lanes) that execute each instruction together" % w_sel, size=13,
           weight="bold")
    cw = (R - L - 20) / 32
    for k in range(32):
        x = L + 10 + k * cw
        sel = k == lane_sel
        cell(s, x, y3 + 34, cw, 28, 32 * w_sel + k, fill=BLUE if sel else PAPER, stroke=PURPLE if sel else RULE,
             colour=PAPER if sel else INK, bold=sel)
        s.text(x + cw / 2, y3 + 80, str(k), size=12, anchor="middle", fill=BLUE if sel else MUTED,
               weight="bold" if sel else None)
    s.text(R - 12, y3 + 102, "in the boxes: threadIdx.x;  below them: lane = threadIdx.x % 32", size=12, fill=MUTED,
           anchor="end")

    # the global array and the index
    y4 = y3 + 112 + 56
    n = nblocks * bdim
    segw = (R - L) / nblocks
    for b in range(nblocks):
        x = L + b * segw
        s.rect(x, y4, segw, 26, fill=BLUE_F if b == b_sel else GREY_F, stroke=RULE)
        s.text(x + segw / 2, y4 + 44, "x[%d … %d]: block %d" % (b * bdim, b * bdim + bdim - 1, b), size=12,
               anchor="middle", mono=True, fill=INK if b == b_sel else MUTED)
    s.text(L - 6, y4 + 18, "x", size=13, anchor="end", mono=True)
    xm = L + (gi + 0.5) / n * (R - L)
    s.rect(xm - 1.5, y4, 3, 26, fill=RED, stroke="none")
    lx = L + 10 + (lane_sel + 0.5) * cw
    s.line(lx, y3 + 86, xm, y4 - 4, stroke=RED, sw=2, arrow=True)
    s.text(xm + 8, y4 - 8, "x[%d]" % gi, size=13, fill=RED, weight="bold", mono=True)
    s.text(L, y4 + 80, [("i = blockIdx.x × blockDim.x + threadIdx.x = ", INK),
                        ("%d × %d + %d = %d" % (b_sel, bdim, t_sel, gi), RED, True)], size=15, mono=True)
    s.text(L, y4 + 104, "thread %d of block %d is warp %d (threadIdx.x / 32), lane %d (threadIdx.x %% 32)."
           % (t_sel, b_sel, w_sel, lane_sel), size=12, fill=MUTED)
    s.text(L, y4 + 121, "The grid is rounded up to whole blocks, so the threads with i ≥ n must do nothing: "
           "if (i < n) ...", size=12, fill=MUTED)
    s.height = y4 + 140
    return s.render()


# ---- 2. coalescing -----------------------------------------------------------------------------------------

def coalescing():
    W, L, cw = 860, 46, 24
    R = L + 32 * cw
    s = Svg(W, 600, "A warp's loads: coalesced against strided")
    heading(s, L, "A warp's 32 loads of 4 bytes: coalesced against strided",
            "the hardware fetches whole 32-byte sectors; a cache line is 128 bytes, 4 sectors")
    swatch(s, R - 300, 80, GREEN_F, GREEN, "bytes a lane uses", size=12)
    swatch(s, R - 160, 80, GREY_F, GREY, "fetched, not used", size=12)

    def lanes(y, colour):
        for k in range(32):
            cell(s, L + k * cw, y, cw, 24, k, fill=PAPER, stroke=colour)
        s.text(L - 6, y + 16, "lane", size=12, anchor="end", fill=MUTED)

    # (a) consecutive words
    ya = 112
    s.text(L, ya, [("(a) coalesced: lane k reads word k   ", INK, True), ("v = x[tid];", BLUE)], size=14, mono=False)
    lanes(ya + 12, GREEN)
    for k in range(32):
        x = L + k * cw + cw / 2
        s.line(x, ya + 37, x, ya + 74, stroke=GREEN, sw=1.2, arrow=True)
    for k in range(32):
        cell(s, L + k * cw, ya + 76, cw, 24, None, fill=GREEN_F, stroke=GREEN)
    s.text(L - 6, ya + 93, "word", size=12, anchor="end", fill=MUTED)
    for sec in range(4):
        bracket(s, L + sec * 8 * cw + 2, L + (sec + 1) * 8 * cw - 2, ya + 104,
                "sector %d: bytes %d–%d" % (sec, 32 * sec, 32 * sec + 31))
    bracket(s, L + 2, R - 2, ya + 136, "one 128-byte line")
    s.text(L, ya + 184, "4 sectors fetched = 128 bytes, all 128 used: 100 %", size=14, weight="bold", fill=GREEN)
    s.text(L, ya + 204, "(4 sectors over two lines if x[0] starts on a multiple of 32 bytes but not of 128; "
           "5 sectors if not on a multiple of 32)", size=12, fill=MUTED)

    # (b) stride 32 words
    yb = ya + 252
    s.text(L, yb, [("(b) stride 32 words: lane k reads word 32k   ", INK, True), ("v = x[32 * tid];", BLUE)],
           size=14)
    lanes(yb + 12, RED)
    for k in range(32):
        x = L + k * cw + cw / 2
        s.line(x, yb + 37, x, yb + 74, stroke=RED, sw=1.2, arrow=True)
    for k in range(32):
        x = L + k * cw + 2
        s.rect(x, yb + 76, cw - 4, 24, fill=GREY_F, stroke=GREY)
        s.rect(x, yb + 76, (cw - 4) * 4 / 32, 24, fill=GREEN, stroke="none")
    s.text(L - 6, yb + 93, "sector", size=12, anchor="end", fill=MUTED)
    for k, t in ((0, "0"), (1, "128"), (3, "…"), (31, "3968")):
        s.text(L + k * cw + cw / 2, yb + 116, t, size=12, anchor="middle", fill=MUTED)
    s.text(L - 6, yb + 116, "byte", size=12, anchor="end", fill=MUTED)
    s.text(L, yb + 140, "lane k's word is at byte 128k: a sector of its own, in a line of its own; the sector's other "
           "28 bytes come too, unused,", size=12, fill=MUTED)
    s.text(L, yb + 156, "and the 96 bytes after it are not fetched at all", size=12, fill=MUTED)
    s.text(L, yb + 186, "32 sectors fetched = 1024 bytes, for 128 used: 12.5 %", size=14, weight="bold", fill=RED)
    s.text(L, yb + 206, "any stride of 8 words (32 bytes) or more costs the same 32 sectors; a stride of 2 words, "
           "8 sectors (50 %)", size=12, fill=MUTED)
    s.height = yb + 226
    return s.render()


# ---- 3. shared-memory banks --------------------------------------------------------------------------------

def banks(padded=True):
    """Both tiles (docs/concepts.md, prac5's answer 6), or with padded=False only the 32 x 32 tile's conflict:
    the picture prac5's handout shows before its step 6 exercise, which asks for the padded tile."""
    W, L, X0, cw, ch = 890, 20, 104, 24, 22
    title = ("Shared-memory banks: a 32 x 32 tile's column conflicts, a 32 x 33 tile's does not" if padded else
             "Shared-memory banks: a 32 x 32 tile's column lies in one bank")
    s = Svg(W, 700, title)
    heading(s, L, "Shared memory: 32 banks of 4-byte words",
            "bank = (byte offset / 4) mod 32. A warp's access takes one pass when its 32 lanes use 32 different banks")
    s.text(L, 72, "(or read one word); n lanes reading different words of one bank take n passes: an n-way bank "
           "conflict", size=13, fill=MUTED)

    def bank_row(y):
        s.text(X0 - 8, y, "bank", size=12, anchor="end", fill=MUTED)
        for k in range(32):
            s.text(X0 + k * cw + cw / 2, y, str(k), size=12, anchor="middle", fill=MUTED)

    # (a) tile[32][32]
    ya = 108
    s.text(L, ya, [("(a) __shared__ float tile[32][32]", INK, True),
                   ("   element (r, c) is word 32r + c: bank c", MUTED)],
           size=14)
    bank_row(ya + 24)
    rows = [0, 1, 2, 3, 4, None, 31]
    for j, r in enumerate(rows):
        y = ya + 32 + j * ch
        if r is None:
            s.text(X0 - 8, y + 16, "⋮", size=14, anchor="end", fill=MUTED)
            s.text(X0 + cw / 2, y + 16, "⋮", size=14, anchor="middle", fill=RED)
            continue
        s.text(X0 - 8, y + 16, "row %d" % r, size=12, anchor="end", fill=MUTED)
        for c in range(32):
            fill = BLUE_F if r == 0 else PAPER
            col = c == 0
            cell(s, X0 + c * cw, y, cw, ch, c, fill=RED_F if col and r else fill, stroke=RED if col else RULE,
                 sw=2 if col else 1, colour=RED if col else INK, bold=col)
    y = ya + 32 + len(rows) * ch + 24
    s.text(X0 + 4, y - 4, "in each box: the element's column c", size=12, fill=MUTED, anchor=None)
    swatch(s, L, y + 18, BLUE_F, RULE,
           "store tile[ty][tx] (ty = 0): the 32 lanes write row 0, banks 0 … 31: one pass")
    swatch(s, L, y + 40, RED_F, RED, "load tile[tx][ty] (ty = 0): lane r reads (r, 0); all 32 are in bank 0: a 32-way "
           "conflict, 32 passes")
    if not padded:
        s.text(L, y + 72, "prac5's transpose ladder: kernel 2 (t2_shared.cuh) reads its tile down a column like this; "
               "removing the conflict is step 6's exercise", size=12, fill=MUTED)
        s.height = y + 90
        return s.render()

    # (b) tile[32][33]: the memory as it is, 32 words a line, padding included
    yb = y + 90
    s.text(L, yb, [("(b) __shared__ float tile[32][33]", INK, True),
                   ("   element (r, c) is word 33r + c: bank (r + c) mod 32", MUTED)], size=14)
    bank_row(yb + 24)
    nlines = 7
    for line in range(nlines):
        y = yb + 32 + line * ch
        s.text(X0 - 8, y + 16, "words %d–%d" % (32 * line, 32 * line + 31), size=12, anchor="end", fill=MUTED)
        for k in range(32):
            word = 32 * line + k
            r, c = divmod(word, 33)
            x = X0 + k * cw
            if c == 32:
                s.rect(x, y, cw, ch, fill="#d1d5db", stroke=RULE)
                continue
            col = c == 0
            fill = RED_F if col else (AMBER_F if r % 2 else TEAL_F)
            cell(s, x, y, cw, ch, c, fill=fill, stroke=RED if col else RULE, sw=2 if col else 1,
                 colour=RED if col else INK, bold=col)
    y = yb + 32 + nlines * ch
    s.text(X0 - 8, y + 16, "⋮", size=14, anchor="end", fill=MUTED)
    s.text(X0 + nlines * cw + cw / 2, y + 16, "⋱", size=14, anchor="middle", fill=RED)
    s.text(X0 + 10 * cw, y + 16, "element (r, 0) is word 33r: bank r, for r = 0 … 31", size=12, fill=RED)
    y += 24
    s.text(X0 + 4, y + 10, "in each box: c; the tile's rows alternate in colour; grey: each row's padding word, "
           "never read", size=12, fill=MUTED)
    swatch(s, L, y + 36, RED_F, RED, "load tile[tx][ty] (ty = 0): lane r reads (r, 0) in bank r: 32 banks, one pass")
    swatch(s, L, y + 58, TEAL_F, RULE, "store tile[ty][tx]: row r, (r, c) in bank (r + c) mod 32 for c = 0 … 31: "
           "still 32 banks, one pass")
    s.text(L, y + 90, "prac5's transpose ladder: kernel 2 (t2_shared.cuh) keeps tile[32][32], kernel 3 (t3_padded.cuh) "
           "tile[32][33]; one float per row of padding", size=12, fill=MUTED)
    s.height = y + 108
    return s.render()


def banks_column():
    return banks(padded=False)


# ---- 4. the tree reduction ---------------------------------------------------------------------------------

def reduction_tree():
    vals = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3]
    n = len(vals)
    W, L, X0 = 860, 24, 200
    cw = (W - X0 - 24) / n
    chh, gap = 30, 66
    s = Svg(W, 700, "A tree reduction of 16 values in shared memory")
    heading(s, L, "A tree reduction in shared memory: 16 values, one per thread",
            "prac4/reduction.cu with blockDim.x = 16 (it runs 512): at each level, thread tid < d adds temp[tid + d] "
            "into temp[tid]")
    for i in range(n):
        s.text(X0 + i * cw + cw / 2, 84, str(i), size=12, anchor="middle", fill=MUTED)
    s.text(X0 - 10, 84, "tid", size=12, anchor="end", fill=MUTED)

    y = 92
    temp = list(vals)
    active = n

    def row(y, values, active, fresh):
        for i in range(n):
            if i < active:
                cell(s, X0 + i * cw + 3, y, cw - 6, chh, values[i], fill=GREEN_F if fresh else BLUE_F,
                     stroke=GREEN if fresh else BLUE, size=13, bold=fresh)
            else:
                cell(s, X0 + i * cw + 3, y, cw - 6, chh, values[i], fill=GREY_F, stroke="#e5e7eb", size=12,
                     colour="#c0c4cc")

    s.text(X0 - 10, y + 14, "load", size=13, anchor="end", weight="bold")
    s.text(X0 - 10, y + 29, "temp[tid] = g_idata[tid]", size=12, anchor="end", fill=MUTED, mono=True)
    row(y, temp, n, False)
    d = n // 2
    while d > 0:
        ysync = y + chh + 12
        s.line(X0 - 4, ysync, W - 20, ysync, stroke=ORANGE, sw=1.5, dash="6,4")
        s.text(X0 - 10, ysync + 4, "__syncthreads()", size=12, anchor="end", fill=ORANGE, mono=True)
        ynext = y + chh + gap
        for t in range(d):
            xa = X0 + t * cw + cw / 2
            xb = X0 + (t + d) * cw + cw / 2
            s.line(xb, y + chh + 2, xa + (4 if d > 0 else 0), ynext - 2, stroke=PURPLE, sw=1.1, arrow=True)
            s.line(xa, y + chh + 2, xa, ynext - 2, stroke=GREEN, sw=1.6, arrow=True)
        temp = [temp[i] + temp[i + d] if i < d else temp[i] for i in range(n)]
        y = ynext
        s.text(X0 - 10, y + 14, "d = %d" % d, size=13, anchor="end", weight="bold")
        s.text(X0 - 10, y + 29, "threads 0–%d" % (d - 1) if d > 1 else "thread 0", size=12, anchor="end",
               fill=MUTED)
        row(y, temp, d, True)
        d //= 2
    total = sum(vals)
    assert temp[0] == total
    yo = y + chh + 34
    s.line(X0 + cw / 2, y + chh + 2, X0 + cw / 2, yo - 14, stroke=INK, sw=1.4, arrow=True)
    s.text(X0 + cw / 2 + 12, yo - 18, "thread 0: g_odata[0] = temp[0] = %d   (no barrier: it wrote temp[0] itself)"
           % total, size=13, mono=False)
    yl = yo + 14
    swatch(s, L, yl, GREEN_F, GREEN, "written at this level", size=12)
    swatch(s, L + 190, yl, GREY_F, "#e5e7eb", "no longer read", size=12)
    s.line(L + 350, yl - 4, L + 380, yl - 4, stroke=GREEN, sw=1.6, arrow=True)
    s.text(L + 388, yl, "temp[tid]", size=12, mono=True)
    s.line(L + 470, yl - 4, L + 500, yl - 4, stroke=PURPLE, sw=1.1, arrow=True)
    s.text(L + 508, yl, "temp[tid + d]", size=12, mono=True)
    s.text(L, yl + 26, "log2 16 = 4 levels, 15 additions; every thread reaches every barrier (it is outside the if), "
           "and each one makes the level before", size=12, fill=MUTED)
    s.text(L, yl + 42, "visible before anyone reads it: without it a thread may read its partner's value before the "
           "partner has added into it", size=12, fill=MUTED)
    s.height = yl + 58
    return s.render()


# ---- 5. decoupled look-back --------------------------------------------------------------------------------

def lookback():
    tiles = [[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8], [9, 7, 9, 3]]  # prac8.md, step 4's worked example
    totals = [sum(t) for t in tiles]
    me = 3
    W, L = 880, 30
    s = Svg(W, 760, "Decoupled look-back in a one-pass scan")
    heading(s, L, "Decoupled look-back: how a tile learns the sum of the tiles before it",
            "prac8, step 4 (scan_lookback): the handout's tiles of 4 elements, in one order the blocks might run in")

    # (a) the status word
    ya = 84
    s.text(L, ya, "(a) each tile's status: one 64-bit word, written whole with one 8-byte store", size=14,
           weight="bold")
    s.rect(L, ya + 12, 400, 32, fill=PURPLE_F, stroke=PURPLE, sw=1.5)
    s.rect(L + 400, ya + 12, 400, 32, fill=BLUE_F, stroke=BLUE, sw=1.5)
    s.text(L + 200, ya + 33, "bits 63–32: epoch << 2 | flag", size=13, anchor="middle", mono=True)
    s.text(L + 600, ya + 33, "bits 31–0: value (a float's or int's bits)", size=13, anchor="middle", mono=True)
    yf = ya + 62
    badge(s, L, yf, "X", None)
    s.text(L + 86, yf + 20, "nothing yet (flag 0, or an earlier launch's epoch)", size=12)
    badge(s, L + 420, yf, "A", 22)
    s.text(L + 506, yf + 20, "flag 1: the tile's aggregate, its own total", size=12)
    badge(s, L, yf + 38, "P", 31)
    s.text(L + 86, yf + 58, "flag 2: the tile's inclusive prefix, the sum of everything up to and including it",
           size=12)
    s.text(L, yf + 92, "a reader sees the flag with its value, or neither; the epoch makes last launch's words read as "
           "X, so the array is never cleared", size=12, fill=MUTED)

    # (b) the walk
    yb = yf + 134
    s.text(L, yb, "(b) tile %d looks back: it adds aggregates (A) until it meets an inclusive prefix (P)" % me,
           size=14, weight="bold")
    colw = 205
    xs = [L + 10 + t * colw for t in range(4)]
    for t in range(4):
        s.rect(xs[t], yb + 14, colw - 25, 46, fill=BLUE_F if t == me else GREY_F, stroke=BLUE if t == me else RULE,
               rx=5)
        s.text(xs[t] + 10, yb + 33, "tile %d" % t, size=13, weight="bold")
        s.text(xs[t] + 10, yb + 52, " ".join(str(v) for v in tiles[t]), size=13, mono=True)
        s.text(xs[t] + colw - 35, yb + 52, "total %d" % totals[t], size=12, anchor="end", fill=MUTED)

    bx = [x + 45 for x in xs]  # where the badges sit
    # moment 1: tile 2 has not published
    y1 = yb + 94
    s.text(L, y1, "1. tile %d has published A = %d at once (before its own scan); tile %d has published nothing: "
           "wait 64 ns (__nanosleep), ask again" % (me, totals[me], me - 1), size=12)
    st1 = [("P", totals[0]), ("A", totals[1]), ("X", None), ("A", totals[me])]
    for t in range(4):
        badge(s, bx[t], y1 + 12, *st1[t])
    s.path("M%s,%s C%s,%s %s,%s %s,%s" % (num(bx[me] + 20), num(y1 + 43), num(bx[me] + 10), num(y1 + 78),
                                          num(bx[me - 1] + 60), num(y1 + 78), num(bx[me - 1] + 50), num(y1 + 45)),
           stroke=GREY, sw=1.6, arrow=True, dash="5,3")
    s.text((bx[me] + bx[me - 1]) / 2 + 38, y1 + 86, "X: wait", size=12, anchor="middle", fill=MUTED)

    # moment 2: the walk
    y2 = y1 + 116
    s.text(L, y2, "2. then: tile %d's A = %d: add, go on; tile %d's A = %d: add, go on; tile 0's P = %d: add, stop"
           % (me - 1, totals[2], me - 2, totals[1], totals[0]), size=12)
    st2 = [("P", totals[0]), ("A", totals[1]), ("A", totals[2]), ("A", totals[me])]
    for t in range(4):
        badge(s, bx[t], y2 + 12, *st2[t])
    run = 0
    for t in range(me - 1, -1, -1):
        flag, v = st2[t]
        run += v
        src = bx[t + 1] + 20
        dst = bx[t] + 56
        s.path("M%s,%s C%s,%s %s,%s %s,%s" % (num(src), num(y2 + 43), num(src - 10), num(y2 + 80), num(dst + 10),
                                              num(y2 + 80), num(dst), num(y2 + 45)),
               stroke=GREEN if flag == "P" else AMBER, sw=1.8, arrow=True)
        label = ("+ %d = %d" % (v, run)) if t < me - 1 else ("sum = %d" % run)
        if flag == "P":
            label += ": P, stop"
        s.text((src + dst) / 2, y2 + 96, label, size=13, anchor="middle", weight="bold",
               fill=GREEN if flag == "P" else AMBER)
    excl = run
    assert excl == sum(totals[:me])

    # moment 3: publish P, write the outputs
    y3 = y2 + 132
    incl = excl + totals[me]
    s.text(L, y3, "3. the tiles before tile %d sum to %d: it publishes P = %d + %d = %d, and adds %d to its own "
           "exclusive scan" % (me, excl, excl, totals[me], incl, excl), size=12)
    st3 = [("P", totals[0]), ("A", totals[1]), ("A", totals[2]), ("P", incl)]
    for t in range(4):
        badge(s, bx[t], y3 + 12, *st3[t])
    out, acc = [], excl
    for v in tiles[me]:
        out.append(acc)
        acc += v
    s.text(bx[me] - 40, y3 + 66, "out: " + " ".join(str(v) for v in out), size=13, mono=True, fill=BLUE,
           weight="bold")
    s.text(L, y3 + 66, "tile 1 may still be walking; no tile ever waits for it to finish", size=12, fill=MUTED)

    yn = y3 + 100
    s.text(L, yn, "In scan_lookback the first warp looks back 32 tiles at a time: lane l reads tile b − 1 − l; "
           "__ballot_sync marks the lanes that saw P,", size=12, fill=MUTED)
    s.text(L, yn + 17, "__ffs finds the nearest, a shuffle reduction sums the lanes up to it. Tiles are numbered by "
           "an atomic ticket, in the order blocks start,", size=12, fill=MUTED)
    s.text(L, yn + 34, "so a tile waits only for tiles whose blocks are already running. Tile 0 publishes P at once.",
           size=12, fill=MUTED)
    s.height = yn + 52
    return s.render()


# ---- 6. parallel cyclic reduction --------------------------------------------------------------------------

def pcr():
    n = 8
    W, L, X0, dx = 880, 24, 196, 62
    s = Svg(W, 700, "Parallel cyclic reduction of a tridiagonal system of 8 rows")
    heading(s, L, "Parallel cyclic reduction: 8 rows, strides 1, 2, 4",
            "prac7/trid.cu: thread i owns row i; at stride s it combines its row with rows i − s and i + s")
    MX, mc = 730, 12  # the matrix pictures: left edge, cell size
    s.text(MX + n * mc / 2, 54, "the x's in each row", size=12, anchor="middle", fill=MUTED)
    top, dy = 112, 126
    strides = [1, 2, 4]
    ys = [top + k * dy for k in range(len(strides) + 1)]
    xs = [X0 + i * dx for i in range(n)]
    focus = 5

    # the rows row `focus` depends on at each level, drawn last and in colour
    cone = [set() for _ in ys]
    cone[-1] = {focus}
    for k in range(len(strides) - 1, -1, -1):
        sk = strides[k]
        for i in cone[k + 1]:
            cone[k] |= {j for j in (i - sk, i, i + sk) if 0 <= j < n}

    for k, sk in enumerate(strides):
        for hot in (False, True):
            for i in range(n):
                if (i in cone[k + 1]) != hot:
                    continue
                for j in (i - sk, i, i + sk):
                    if 0 <= j < n:
                        colour = BLUE if hot else "#d1d5db"
                        s.line(xs[j], ys[k] + 17, xs[i], ys[k + 1] - 19, stroke=colour,
                               sw=1.8 if hot else 1.1, arrow=True)
        ym = (ys[k] + ys[k + 1]) / 2
        s.text(L, ym - 6, "step: s = %d" % sk, size=13, weight="bold", fill=ORANGE)
        s.text(L, ym + 10, "read rows i ± %d, sync," % sk, size=12, fill=MUTED)
        s.text(L, ym + 25, "write row i, sync", size=12, fill=MUTED)

    labels = [("the system", "x[i−1], x[i], x[i+1]"), ("after s = 1", "x[i−2], x[i], x[i+2]"),
              ("after s = 2", "x[i−4], x[i], x[i+4]"), ("after s = 4", "x[i] alone: x[i] = d[i]")]
    for k, y in enumerate(ys):
        s.text(L, y - 2, labels[k][0], size=13, weight="bold")
        s.text(L, y + 14, labels[k][1], size=12, fill=MUTED)
        for i in range(n):
            hot = i in cone[k]
            s.circle(xs[i], y, 16, fill=BLUE_F if hot else GREY_F, stroke=BLUE if hot else GREY, sw=1.8 if hot else 1)
            s.text(xs[i], y + 5, str(i), size=13, anchor="middle", weight="bold" if hot else None)
        # the matrix: row i holds x[j] for j = i and j = i ± 2^k
        reach = 2 ** k
        my = y - n * mc / 2
        for i in range(n):
            for j in range(n):
                if i == j:
                    fill = INK
                elif abs(i - j) == reach:
                    fill = ORANGE
                else:
                    fill = PAPER
                s.rect(MX + j * mc, my + i * mc, mc, mc, fill=fill, stroke="#e5e7eb", sw=0.8)
        s.rect(MX, my, n * mc, n * mc, fill="none", stroke=RULE)
    s.text(xs[focus], ys[-1] + 34, "row %d: built from every row" % focus, size=12, anchor="middle", fill=BLUE)

    yf = ys[-1] + 66
    s.text(L, yf, "each step (rows divided by their diagonal, b = 1):", size=13, weight="bold")
    s.text(L, yf + 22, "r = 1 / (1 − a[i] c[i−s] − c[i] a[i+s])", size=13, mono=True)
    s.text(L, yf + 42, "a'[i] = −r a[i] a[i−s]    c'[i] = −r c[i] c[i+s]    "
           "d'[i] = r (d[i] − a[i] d[i−s] − c[i] "
           "d[i+s])", size=13, mono=True)
    ye = para(s, L, yf + 66, "A row outside 0 … %d counts as a = c = d = 0 (x = 0 there). ⌈log2 %d⌉ = 3 steps; "
              "trid's NX = 128 takes 7. The first __syncthreads(): every old row is read before any is overwritten; "
              "the second: every new row is written before the next step reads it. In blue, the rows that row "
              "%d's answer is built from; on the right, the matrix at each stage (orange: the coupling left)."
              % (n - 1, n, focus), size=12, fill=MUTED)
    s.height = ye + 6
    return s.render()


# ---- 7. one radix-sort pass --------------------------------------------------------------------------------

DIGIT_COLOURS = [(BLUE, BLUE_F), (GREEN, GREEN_F), (ORANGE, ORANGE_F), (PURPLE, PURPLE_F), (TEAL, TEAL_F),
                 (RED, RED_F)]


def radix_pass():
    W, L = 880, 24
    s = Svg(W, 1000, "One radix-sort pass on one bit: a stable split")
    heading(s, L, "One radix-sort pass: every key to its place, stably",
            "prac8, step 7 (sort/k1_one_bit.cuh); the least significant bit first")

    # (a) one bit
    keys = [5, 2, 7, 0, 3, 6, 4, 1]
    bit = 0
    ya = 88
    s.text(L, ya, "one bit (radix_1bit): zeros first, then ones, each in the order they came", size=14,
           weight="bold")
    X0, cw = 144, 88
    zeros = [k for k in keys if not (k >> bit) & 1]
    nz = len(zeros)
    places, zb = [], 0
    for i, k in enumerate(keys):
        b = (k >> bit) & 1
        places.append(zb if b == 0 else nz + (i - zb))
        zb += b == 0
    out = [None] * len(keys)
    for i, p in enumerate(places):
        out[p] = keys[i]
    assert out == sorted(keys, key=lambda k: (k >> bit) & 1)

    def binary(k, colour):
        return [("%s" % format(k >> 1, "02b"), INK), (str(k & 1), colour, True)]

    yk = ya + 34
    s.text(X0 - 12, yk - 8, "i", size=12, anchor="end", fill=MUTED)
    zb = 0
    rows = [("key", yk + 20), ("bit 0", yk + 50), ("zeros before it", yk + 70), ("place", yk + 90)]
    for label, y in rows:
        s.text(X0 - 12, y, label, size=12, anchor="end", fill=MUTED if label != "key" else INK)
    for i, k in enumerate(keys):
        x = X0 + i * cw
        b = (k >> bit) & 1
        colour, fill = (ORANGE, ORANGE_F) if b else (BLUE, BLUE_F)
        s.text(x + cw / 2, yk - 8, str(i), size=12, anchor="middle", fill=MUTED)
        s.rect(x + 6, yk, cw - 12, 28, fill=fill, stroke=colour)
        s.text(x + cw / 2, yk + 19, binary(k, colour), size=14, anchor="middle", mono=True)
        s.text(x + cw / 2, yk + 50, str(b), size=13, anchor="middle", fill=colour, weight="bold")
        s.text(x + cw / 2, yk + 70, str(zb), size=13, anchor="middle")
        s.text(x + cw / 2, yk + 90, str(places[i]), size=13, anchor="middle", weight="bold")
        zb += b == 0
    yo = yk + 170
    for i, k in enumerate(keys):
        b = (k >> bit) & 1
        colour = ORANGE if b else BLUE
        s.line(X0 + i * cw + cw / 2, yk + 98, X0 + places[i] * cw + cw / 2, yo - 3, stroke=colour, sw=1.5, arrow=True)
    s.text(X0 - 12, yo + 19, "after", size=12, anchor="end")
    for p, k in enumerate(out):
        b = (k >> bit) & 1
        colour, fill = (ORANGE, ORANGE_F) if b else (BLUE, BLUE_F)
        s.rect(X0 + p * cw + 6, yo, cw - 12, 28, fill=fill, stroke=colour)
        s.text(X0 + p * cw + cw / 2, yo + 19, binary(k, colour), size=14, anchor="middle", mono=True)
    bracket(s, X0 + 6, X0 + nz * cw - 6, yo + 34, "zeros: places 0 … %d" % (nz - 1), colour=BLUE)
    bracket(s, X0 + nz * cw + 6, X0 + len(keys) * cw - 6, yo + 34, "ones: places %d … %d" % (nz, len(keys) - 1),
            colour=ORANGE)
    s.text(L, yo + 80, [("a 0 goes to ", INK), ("zeros before it", BLUE, True), (";  a 1 to ", INK),
                        ("total zeros + ones before it = %d + (i − zeros before it)" % nz, ORANGE, True)], size=13)
    ye = para(s, L, yo + 98, "In the kernel, 1024 keys at a time: __ballot_sync gives each warp the mask of its "
              "zeros, __popc of the mask's lanes below a key its rank in the warp, and one warp scans the 32 warp "
              "counts.", size=12, fill=MUTED)
    s.height = ye + 8
    return s.render()


def radix_digits():
    """prac8's 4-bit pass: counts, their scan, the scatter. It shows step 8b's answer (the counts' order), so
    it is drawn apart from radix_pass.svg and shown in docs/answers/prac8.md, after the exercise."""
    W, L = 880, 24
    s = Svg(W, 1000, "A 4-bit radix-sort pass over tiles: counts, their scan, scatter")
    heading(s, L, "A 4-bit radix-sort pass over tiles, stably",
            "prac8, step 8 (sort/k2_four_bit.cuh, sort/radix4_ranks.cuh); the least significant digit first")
    ntile, per = 3, 4
    keys4 = [0x27, 0x3A, 0x17, 0x52, 0x4A, 0x07, 0x62, 0x1F, 0x2A, 0x72, 0x0F, 0x37]
    shift = 0
    dig = [(k >> shift) & 15 for k in keys4]
    used = sorted(set(dig))
    colours = {d: DIGIT_COLOURS[j % len(DIGIT_COLOURS)] for j, d in enumerate(used)}
    hist = [[0] * ntile for _ in range(16)]  # hist[d][b]: radix4_count's hist[d * nblocks + b]
    for i, d in enumerate(dig):
        hist[d][i // per] += 1
    offs = [[0] * ntile for _ in range(16)]  # scan_counts: exclusive, digit-major
    run = 0
    for d in range(16):
        for b in range(ntile):
            offs[d][b] = run
            run += hist[d][b]
    place, nxt = [], [[offs[d][b] for b in range(ntile)] for d in range(16)]
    for i, d in enumerate(dig):  # radix4_scatter: each tile in input order
        b = i // per
        place.append(nxt[d][b])
        nxt[d][b] += 1
    out4 = [None] * len(keys4)
    for i, p in enumerate(place):
        out4[p] = keys4[i]
    assert out4 == sorted(keys4, key=lambda k: (k >> shift) & 15)

    def hexkey(k):
        d = (k >> shift) & 15
        return [("0x%X" % (k >> 4), INK), ("%X" % d, colours[d][0], True)]

    yb = 88
    s.text(L, yb, "4 bits a pass (radix_4bit): 3 tiles of 4 keys here (4096 in the code); this pass sorts on the "
           "last hex digit", size=14, weight="bold")
    KX, kw, tg = 144, 50, 26

    def key_row(y, label):
        s.text(KX - 12, y + 19, label, size=12, anchor="end")
        xs = []
        for i, k in enumerate(keys4):
            x = KX + i * kw + (i // per) * tg
            xs.append(x)
            d = dig[i]
            s.rect(x + 3, y, kw - 6, 28, fill=colours[d][1], stroke=colours[d][0])
            s.text(x + kw / 2, y + 19, hexkey(k), size=13, anchor="middle", mono=True)
        return xs

    yk = yb + 36
    for b in range(ntile):
        s.text(KX + b * (per * kw + tg) + per * kw / 2, yk - 8, "tile %d (block %d)" % (b, b), size=12,
               anchor="middle", fill=MUTED)
    xs = key_row(yk, "keys")

    # the two tables as the code lays them out: hist[digit * nblocks + block], a row a digit, read row by row
    tw, th = 52, 19

    def table(x, y, title, values):
        s.text(x - 58, y, title, size=13, weight="bold")
        for b in range(ntile):
            s.text(x + b * tw + tw / 2, y + 20, "block %d" % b, size=12, anchor="middle", fill=MUTED)
        for d in range(16):
            yy = y + 28 + d * th
            s.text(x - 10, yy + 14, "digit %X" % d, size=12, anchor="end", fill=MUTED)
            for b in range(ntile):
                has = hist[d][b] > 0
                cell(s, x + b * tw, yy, tw, th, values[d][b], fill=colours[d][1] if has else PAPER,
                     stroke=colours[d][0] if has else "#e5e7eb", colour=INK if has else "#b0b4bb", bold=has)
        return y + 28 + 16 * th

    T1, T2, yt = 110, 602, yk + 68
    table(T1 + 58, yt, "1. radix4_count: counts", hist)
    yend = table(T2 + 58, yt, "2. scan_counts: where each starts", offs)
    # scan_counts' order: along a row (one digit, block after block), then the next digit
    tx0, tx1 = T2 + 58, T2 + 58 + ntile * tw
    s.line(tx0 + 4, yt + 27, tx1 - 4, yt + 27, stroke=RED, sw=1.5, arrow=True)
    s.line(tx1 + 8, yt + 30, tx1 + 8, yend - 4, stroke=RED, sw=1.5, arrow=True)
    s.text(tx1 - 4, yend + 16, "scan order: along a row, then down", size=12, anchor="end", fill=RED)
    mx = T1 + 58 + ntile * tw + 24
    notes = [("radix4_count: each block counts the", INK), ("16 digits of its tile into", INK),
             ("hist[digit * nblocks + block]", INK, True), ("", INK),
             ("scan_counts: one exclusive scan of", INK), ("hist in that order, row by row", INK),
             ("(red): a digit's blocks, then the", INK), ("next digit. So block b's keys of", INK),
             ("digit d start after the keys of", INK), ("every smaller digit and after the", INK),
             ("d's of blocks 0 … b−1", INK), ("", INK),
             ("digit 7: 0 + 3 keys of digit 2", GREEN), ("come first, so block 0's 7s", GREEN),
             ("start at 3, block 1's at 3 + 2 = 5", GREEN)]
    for j, run in enumerate(notes):
        if run[0]:
            s.text(mx, yt + 44 + j * 17, [run], size=12, mono=len(run) > 2)
    s.line(mx, yt + 44 + 15 * 17, T2 - 4, yt + 44 + 15 * 17, stroke=RED, sw=1.3, arrow=True)
    s.text(mx, yt + 40 + 16 * 17 + 6, "exclusive scan", size=12, fill=RED)

    ys = yend + 54
    para(s, L, ys, "3. radix4_scatter: each block walks its tile in order; a key goes to where its (digit, block) "
         "starts, plus the keys of its digit before it in the tile", size=13, weight="bold")
    yk2 = ys + 36
    xs = key_row(yk2, "keys")
    yo2 = yk2 + 110
    OX = KX + tg
    s.text(KX - 12, yo2 + 19, "after", size=12, anchor="end")
    for i in range(len(keys4)):
        d = dig[i]
        s.line(xs[i] + kw / 2, yk2 + 30, OX + place[i] * kw + kw / 2, yo2 - 3, stroke=colours[d][0], sw=1.5,
               arrow=True)
    for p, k in enumerate(out4):
        d = (k >> shift) & 15
        s.rect(OX + p * kw + 3, yo2, kw - 6, 28, fill=colours[d][1], stroke=colours[d][0])
        s.text(OX + p * kw + kw / 2, yo2 + 19, hexkey(k), size=13, anchor="middle", mono=True)
        s.text(OX + p * kw + kw / 2, yo2 + 44, str(p), size=12, anchor="middle", fill=MUTED)
    s.text(OX - 12, yo2 + 44, "place", size=12, anchor="end", fill=MUTED)
    ye = para(s, L, yo2 + 74, "Keys of one digit keep their order (stable): within a tile by their rank in input "
              "order (__match_any_sync finds the lanes of a warp with the same digit), across tiles because block "
              "b's start follows blocks 0 … b−1's. 8 passes of 4 bits sort 32-bit keys, three kernels a pass; "
              "step 9's Onesweep does a pass in one kernel.", size=12, fill=MUTED)
    s.height = ye + 8
    return s.render()


# ---- 8. the four windows of an int (prac9) -----------------------------------------------------------------

def windows():
    text, found = b"a gold word", [b"gold", b"word"]  # docs/prac9.md, step 1b's worked example
    length = len(text)
    nints = length // 4 + 1  # as prac9/match.cu copies it: the last int part text, part zeros
    data = text + bytes(4 * nints - length)
    t = [int.from_bytes(data[4 * i:4 * i + 4], "little") for i in range(nints)]
    npos = length - 3  # positions 0 .. length - 4

    def window(i, k):  # prac9/match_kernel.cuh, step (d)
        return t[i] if k == 0 else ((t[i] >> (8 * k)) | (t[i + 1] << (32 - 8 * k))) & 0xFFFFFFFF

    packed = {int.from_bytes(w, "little"): w.decode() for w in found}
    hits = {}
    for p in range(npos):
        i, k = divmod(p, 4)
        w = window(i, k)
        assert w == int.from_bytes(data[p:p + 4], "little")  # the formula is the bytes at p
        if w in packed:
            hits[(i, k)] = packed[w]
    assert sorted(hits.values()) == sorted(w.decode() for w in found)

    def shown(b):
        return "␣" if b == 32 else chr(b) if b else "0"

    W, L, X0, cw = 880, 24, 250, 46
    s = Svg(W, 700, "The text as ints, and the three shifted copies that hold every 4-byte window")
    heading(s, L, "The four windows of an int: every 4-byte position of the text",
            "prac9's worked example: the %d bytes \u201c%s\u201d read as %d unsigned ints (a GPU is little-endian)"
            % (length, text.decode(), nints))

    # the bytes, their positions, and the ints they make
    yb = 100
    s.text(X0 - 12, yb - 10, "byte position", size=12, anchor="end", fill=MUTED)
    s.text(X0 - 12, yb + 21, "text", size=13, anchor="end", weight="bold")
    for b in range(4 * nints):
        x = X0 + b * cw
        s.text(x + cw / 2, yb - 10, str(b), size=12, anchor="middle", fill=MUTED)
        pad = b >= length
        cell(s, x, yb, cw, 30, shown(data[b]), fill=GREY_F if pad else (BLUE_F if (b // 4) % 2 == 0 else TEAL_F),
             stroke=RULE, size=15, colour=MUTED if pad else INK, mono=True)
    for i in range(nints):
        x = X0 + 4 * i * cw
        s.rect(x, yb, 4 * cw, 30, fill="none", stroke=INK, sw=1.5)
        bracket(s, x + 3, x + 4 * cw - 3, yb + 36, "t[%d] = 0x%08x" % (i, t[i]), colour=INK, size=12)
    s.text(X0 + 4 * (nints - 1) * cw + 2 * cw, yb + 76, "the last int: its zero pads the text", size=12,
           anchor="middle", fill=MUTED)
    s.text(X0 - 12, yb + 58, "ints, in hex", size=12, anchor="end", fill=MUTED)
    s.text(L, yb + 110, [("byte 4i + k is bits 8k … 8k+7 of t[i]: ", INK), ("t[0] = 0x6f 67 20 61", INK, True),
                         (" is \u201co g ␣ a\u201d read from the top byte down", INK)], size=13)

    # one row a window offset k: s_text[i] (k = 0), then s_shift[k - 1][i]
    yr = yb + 150
    s.text(L, yr - 8, "one row per offset k: the window at byte 4i + k is "
           "(t[i] >> 8k) | (t[i + 1] << (32 − 8k))", size=14, weight="bold")
    rows = ["s_text[i]", "s_shift[0][i]", "s_shift[1][i]", "s_shift[2][i]"]
    rh = 64
    for k in range(4):
        y = yr + 14 + k * rh
        s.text(L, y + 20, "k = %d" % k, size=13, weight="bold")
        s.text(L + 48, y + 20, rows[k], size=13, mono=True, fill=BLUE if k == 0 else PURPLE)
        for i in range(nints):
            p = 4 * i + k
            if p >= npos:
                continue
            x = X0 + p * cw
            hit = hits.get((i, k))
            for j in range(4):
                b = p + j
                from_next = j >= 4 - k  # the low k bytes of t[i + 1]
                fill = GREEN_F if hit else (ORANGE_F if from_next else PAPER)
                cell(s, x + j * cw, y + 2, cw, 26, shown(data[b]), fill=fill, stroke=RULE, size=14, mono=True)
            s.rect(x + 1, y + 2, 4 * cw - 2, 26, fill="none", stroke=GREEN if hit else INK, sw=2.5 if hit else 1.2,
                   rx=3)
            label = "i = %d: 0x%08x" % (i, window(i, k))
            s.text(x + 2 * cw, y + 44, label + ("  = \u201c%s\u201d" % hit if hit else ""), size=12,
                   anchor="middle", fill=GREEN if hit else MUTED, weight="bold" if hit else None, mono=True)
    ye = yr + 14 + 4 * rh + 8
    swatch(s, L, ye, PAPER, INK, "from t[i]: its top 4 − k bytes, shifted down by 8k bits", size=12)
    swatch(s, L + 400, ye, ORANGE_F, RULE, "from t[i + 1]: its low k bytes, shifted up", size=12)
    swatch(s, L, ye + 24, GREEN_F, GREEN, "a word found: one compare of two ints (gold = 0x%08x, word = 0x%08x)"
           % tuple(int.from_bytes(w, "little") for w in found), size=12)
    ye = para(s, L, ye + 54, "Positions 0 to length − 4 = %d: %d windows, 4 per int. A window at 4i + k with k > 0 needs "
              "t[i + 1]: for the last int of a chunk that is the next chunk's first, the one halo int loaded with "
              "it (s_text[MATCH_CHUNK]). Windows that would start past position %d are not counted: they would "
              "hang past the end of the text." % (npos - 1, npos, npos - 1), size=12, fill=MUTED)
    s.height = ye + 4
    return s.render()


DIAGRAMS = [("hierarchy.svg", hierarchy), ("coalescing.svg", coalescing), ("banks.svg", banks),
            ("banks_column.svg", banks_column), ("reduction_tree.svg", reduction_tree), ("lookback.svg", lookback),
            ("pcr.svg", pcr), ("radix_pass.svg", radix_pass), ("radix_digits.svg", radix_digits),
            ("windows.svg", windows)]


def main(argv):
    args = argv[1:]
    if args not in ([], ["--check"]):
        sys.stderr.write("diagrams.py: unknown arguments %s\n\n%s" % (" ".join(args), __doc__))
        return 2
    check = args == ["--check"]
    docs = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(docs)
    img = os.path.join(docs, "img")
    passed = failed = 0
    for name, draw in DIAGRAMS:
        text = draw()
        path = os.path.join(img, name)
        rel = os.path.relpath(path, root)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8", newline="") as f:
                old = f.read()
        if check:
            if old == text:
                print("PASS  %s" % rel)
                passed += 1
            else:
                why = "is missing" if old is None else "differs from what docs/diagrams.py draws"
                print("FAIL  %s %s: run `make diagrams` (python3 docs/diagrams.py) and commit it" % (rel, why))
                failed += 1
        elif old != text:
            os.makedirs(img, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("wrote %s" % rel)
        else:
            print("unchanged %s" % rel)
    if check:
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
