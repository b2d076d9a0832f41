#!/usr/bin/env python3
"""timeline.py -- practical 11, step 5: draw the intervals that stream_test, multithread_test and pipeline write
with -timeline=FILE, one panel per program of each CSV file, as horizontal bars.

  ./stream_legacy -timeline=legacy.csv && ./stream_per_thread -timeline=per_thread.csv
  python3 timeline.py legacy.csv per_thread.csv -o streams.png
  ./pipeline -timeline=pipe.csv && python3 timeline.py pipe.csv -o pipe.png

Each row of a CSV is one interval by one clock (source): `event`, the event pair recorded around it on its stream,
or `globaltimer`, thread 0's own stamps from the GPU's nanosecond timer (prac11_timeline.cuh). Each source's times
are ms from its own earliest start: the two are different clocks, so only differences within one source mean
anything. In stream_test's and multithread_test's files a row is a kernel (the kernel column is its number), and a
row of the picture holds both bars of one kernel: the event pair's (wide, pale) and the stamps' (narrow, dark).
In time the stamps lie inside the event pair, but each source is drawn from its own earliest start, the first
kernel's, and the first kernel's event pair is longer than its stamps (its launch also loads the kernel onto the
GPU): so the other kernels' dark bars start left of their pale ones, by about that difference. In pipeline's, a
row is one stage of one chunk, by events: the kernel column names the stage and the chunk ("in 3", "kernel 3",
"out 3"), and stream_or_thread is the stream (0 the legacy default stream, 1 to 3 version 2's copy-in, compute
and copy-out streams). Its two programs (version 0, serial from pinned memory, and version 2, pipelined) are a
panel each, of three lanes: copy-ins, kernels, copy-outs, each chunk a bar, shaded by turns and numbered where it
is wide enough. Stages one above another ran at once.

Every file is checked first (its header, 7 fields a row, a build of legacy or per-thread, a source of event or
globaltimer, a kernel column that is a whole number or a stage and a chunk number (kernels and stages not mixed
in one program), a whole stream_or_thread, finite times with end >= start): a malformed file FAILs. Then, without
matplotlib: RESULT: SKIP (matplotlib is not installed), exit 2. A file with no rows (the program that writes it
skipped: no GPU) is a SKIP too. Otherwise the PNG (-o PNG; default: the first file's name with .png), and RESULT:
PASS.
"""
import math
import os
import sys

USAGE = "usage: python3 timeline.py FILE.csv... [-o PNG]   (-o: the picture, default the first FILE with .png)"
STEPS = "practical 11, workbook step 5 (the course's step 4, drawn): the kernels' intervals as a timeline"
HEADER = ["program", "build", "kernel", "stream_or_thread", "source", "start_ms", "end_ms"]
BUILDS, SOURCES = ("legacy", "per-thread"), ("event", "globaltimer")
STAGES = {"in": "copy in", "kernel": "kernel", "out": "copy out"}  # pipeline's: the kernel column's first word
STAGE_COLOURS = {"in": ("#6baed6", "#2171b5"), "kernel": ("#74c476", "#238b45"), "out": ("#fd8d3c", "#d94801")}


def verdict(kind, why, code):
    print(f"RESULT: {kind} ({why})" if why else f"RESULT: {kind}", flush=True)
    return code


def parse_args(argv):
    """(files, png), or a str saying what is wrong; None for -help."""
    files, png, args = [], None, list(argv[1:])
    while args:
        a = args.pop(0)
        if a in ("-help", "--help", "-h"):
            return None
        if a == "-o":
            if not args:
                return "-o needs a file name: -o PNG"
            png = args.pop(0)
        elif a.startswith("-o="):
            png = a[3:]
            if not png:
                return "-o= needs a file name"
        elif a.startswith("-"):
            return f"{a}: unknown option (-help lists the options)"
        else:
            files.append(a)
    if not files:
        return "no CSV file given: " + USAGE
    for f in files:
        if not os.path.isfile(f):
            return f"{f}: no such file"
    png = png or os.path.splitext(files[0])[0] + ".png"
    if not os.path.isdir(os.path.dirname(png) or "."):
        return f"-o {png}: no such directory"
    return files, png


def parse_kernel(field):
    """The kernel column as (stage, number): "5" is kernel 5, (None, 5); "in 5" chunk 5's copy-in, ("in", 5).
    None if it is neither."""
    words = field.split(" ")
    stage = None
    if len(words) == 2 and words[0] in STAGES:
        stage, field = words
    try:
        return stage, int(field)
    except ValueError:
        return None


def read_csv(path):
    """The rows of one file as dicts (stage: None for a kernel's row), or a str saying where it is malformed."""
    rows = []
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines:
        return rows
    if lines[0].split(",") != HEADER:
        return f"{path}:1: the header is not {','.join(HEADER)}"
    for n, line in enumerate(lines[1:], start=2):
        v = line.split(",")
        if len(v) != len(HEADER):
            return f"{path}:{n}: {len(v)} fields, not {len(HEADER)}"
        r = dict(zip(HEADER, v))
        if r["build"] not in BUILDS or r["source"] not in SOURCES:
            return (f"{path}:{n}: build {r['build']!r} (legacy or per-thread), "
                    f"source {r['source']!r} (event or globaltimer)")
        kernel = parse_kernel(r["kernel"])
        try:
            r["stream_or_thread"] = int(r["stream_or_thread"])
            r["start_ms"], r["end_ms"] = float(r["start_ms"]), float(r["end_ms"])
        except ValueError:
            kernel = None
        if kernel is None:
            return (f"{path}:{n}: kernel is a whole number, or a stage and a chunk (in 3, kernel 3 or out 3); "
                    "stream_or_thread a whole number, start_ms and end_ms numbers")
        r["stage"], r["kernel"] = kernel
        if not (math.isfinite(r["start_ms"]) and math.isfinite(r["end_ms"])) or r["end_ms"] < r["start_ms"]:
            return f"{path}:{n}: the interval {r['start_ms']} to {r['end_ms']} ms is not one (finite, end >= start)"
        if r["kernel"] < 0:
            return f"{path}:{n}: {'chunk' if r['stage'] else 'kernel'} {r['kernel']} is negative"
        rows.append(r)
    return rows


def panels_of(path, rows):
    """A file's panels, (path, rows), one per program in the order they come; or a str if a program mixes kernels'
    rows with stages'."""
    programs = list(dict.fromkeys(r["program"] for r in rows))
    panels = [(path, [r for r in rows if r["program"] == p]) for p in programs]
    for p, (_, mine) in zip(programs, panels):
        if len({r["stage"] is None for r in mine}) > 1:
            return f"{path}: {p} has both kernels' rows and stages' (in, kernel, out): one or the other"
    return panels


def busy_ms(rows):
    """The time covered by at least one of the rows' intervals (their union's length)."""
    total, end = 0.0, -math.inf
    for r in sorted(rows, key=lambda r: r["start_ms"]):
        total += max(0.0, r["end_ms"] - max(r["start_ms"], end))
        end = max(end, r["end_ms"])
    return total


def summary(path, rows):
    """One line per panel: what it holds, the span of each source; for stages, how much of the span each lane was
    busy (lanes busy more than 100 % in all: stages overlapped)."""
    first = rows[0]
    kernels = sorted({r["kernel"] for r in rows})
    spans = []
    for s in SOURCES:
        mine = [r for r in rows if r["source"] == s]
        if mine:
            spans.append(f"{s} {max(r['end_ms'] for r in mine) - min(r['start_ms'] for r in mine):.3f} ms")
    if first["stage"] is None:
        return f"{path}: {first['program']} ({first['build']}), {len(kernels)} kernels, spanning " + ", ".join(spans)
    span = max(r["end_ms"] for r in rows) - min(r["start_ms"] for r in rows)
    busy = [f"{STAGES[s]} {100 * busy_ms([r for r in rows if r['stage'] == s]) / span:.0f} %" for s in STAGES
            if span > 0]
    return (f"{path}: {first['program']} ({first['build']}), {len(kernels)} chunk{'s' if len(kernels) != 1 else ''} in stages, spanning "
            + ", ".join(spans) + (f"; busy: {', '.join(busy)} of it" if busy else ""))


def draw_kernels(ax, path, rows):
    """stream_test's and multithread_test's panel: a row per kernel, its event pair's bar around its stamps'."""
    style = {"event": dict(height=0.8, color="#9ecae1"), "globaltimer": dict(height=0.36, color="#08519c")}
    kernels = sorted({r["kernel"] for r in rows})
    who = "thread" if rows[0]["program"].startswith("multithread") else "stream"
    label = {r["kernel"]: f"kernel {r['kernel']}, {who} {r['stream_or_thread']}" for r in rows}
    for s in SOURCES:
        mine = [r for r in rows if r["source"] == s]
        if mine:
            ax.barh([kernels.index(r["kernel"]) for r in mine], [r["end_ms"] - r["start_ms"] for r in mine],
                    left=[r["start_ms"] for r in mine], label=s, **style[s])
    ax.set_yticks(range(len(kernels)), [label[k] for k in kernels])
    ax.set_title(f"{rows[0]['program']}, {rows[0]['build']} default stream ({os.path.basename(path)})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")


def draw_stages(ax, path, rows, xmax):
    """pipeline's panel: three lanes (copy-ins, kernels, copy-outs), a bar per chunk, shaded by turns (even chunks
    pale, odd dark) and numbered where the bar is at least 2.5 % of the x axis (xmax ms) wide."""
    labels = []
    for lane, s in enumerate(STAGES):
        mine = [r for r in rows if r["stage"] == s]
        streams = sorted({r["stream_or_thread"] for r in mine})
        many = len(streams) > 3 and streams == list(range(streams[0], streams[-1] + 1))  # prac12's 8 or 128
        labels.append(STAGES[s] + (", default stream" if streams == [0] else
                                   f", streams {streams[0]}-{streams[-1]}" if many else
                                   (", stream " if len(streams) == 1 else ", streams ") + ", ".join(map(str, streams))))
        if not mine:
            continue
        ax.barh([lane] * len(mine), [r["end_ms"] - r["start_ms"] for r in mine], left=[r["start_ms"] for r in mine],
                height=0.7, color=[STAGE_COLOURS[s][r["kernel"] % 2] for r in mine], edgecolor="white", linewidth=0.3)
        for r in mine:
            width = r["end_ms"] - r["start_ms"]
            if xmax > 0 and width >= 0.025 * xmax:
                ax.text(r["start_ms"] + width / 2, lane, str(r["kernel"]), ha="center", va="center", fontsize=6,
                        color="white" if r["kernel"] % 2 else "black")
    ax.set_yticks(range(len(STAGES)), labels)
    ax.set_title(f"{rows[0]['program']} ({rows[0]['build']} build): each chunk's copy in, kernel and copy out "
                 f"({os.path.basename(path)})", fontsize=10)


def draw(panels, png, plt):
    # one x scale for every panel, so that legacy's kernels one after another and per-thread's at once compare, and
    # the serial pipeline's stages and the pipelined one's
    nrows = sum(len(STAGES) if rows[0]["stage"] else len({r["kernel"] for r in rows}) for _, rows in panels)
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 1.3 * len(panels) + 0.4 * nrows), squeeze=False,
                             sharex=True)
    xmax = max(r["end_ms"] for _, rows in panels for r in rows)
    for ax, (path, rows) in zip(axes[:, 0], panels):
        if rows[0]["stage"]:
            draw_stages(ax, path, rows, xmax)
        else:
            draw_kernels(ax, path, rows)
        ax.invert_yaxis()
    # set once, after every panel is drawn: a limit set on one panel stops the shared axis scaling to the next
    axes[0, 0].set_xlim(0, 1.05 * xmax if xmax > 0 else 1.0)
    staged = any(rows[0]["stage"] for _, rows in panels)
    axes[-1, 0].set_xlabel("ms from each panel's first start (by its events)" if staged else
                           "ms from the first kernel's start (each source by its own clock)")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)


def main(argv):
    parsed = parse_args(argv)
    if parsed is None:
        print(USAGE)
        print(STEPS)
        return 0
    if isinstance(parsed, str):
        return verdict("FAIL", "bad input: " + parsed, 1)
    files, png = parsed
    panels = []
    for path in files:
        rows = read_csv(path)
        if isinstance(rows, str):
            return verdict("FAIL", rows, 1)
        if not rows:
            return verdict("SKIP", f"{path} holds no rows: the program that writes it did not run to its end "
                           "(no GPU?)", 2)
        mine = panels_of(path, rows)
        if isinstance(mine, str):
            return verdict("FAIL", mine, 1)
        for _, prows in mine:
            print(summary(path, prows))
        panels += mine
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return verdict("SKIP", "matplotlib is not installed", 2)
    draw(panels, png, plt)
    print(f"wrote {png}: {len(panels)} panel{'s' if len(panels) > 1 else ''}")
    return verdict("PASS", "", 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
