#!/usr/bin/env python3
"""timeline.py -- practical 11, step 5: draw the kernels' intervals that stream_test and multithread_test write with
-timeline=FILE, one panel per CSV file, one row per kernel, as horizontal bars.

  ./stream_legacy -timeline=legacy.csv && ./stream_per_thread -timeline=per_thread.csv
  python3 timeline.py legacy.csv per_thread.csv -o streams.png

Each row of a CSV is one kernel's interval by one clock (source): `event`, the event pair recorded around it on
its stream, or `globaltimer`, thread 0's own stamps from the GPU's nanosecond timer (prac11_timeline.cuh). Each
source's times are ms from its own earliest start: the two are different clocks, so only differences within one
source mean anything. A row of the picture holds both bars of one kernel: the event pair's (wide, pale) and the
stamps' (narrow, dark), which lies inside it.

Every file is checked first (its header, 7 fields a row, a build of legacy or per-thread, a source of event or
globaltimer, whole numbers, finite times with end >= start): a malformed file FAILs. Then, without matplotlib:
RESULT: SKIP (matplotlib is not installed), exit 2. A file with no rows (the program that writes it skipped: no
GPU) is a SKIP too. Otherwise the PNG (-o PNG; default: the first file's name with .png), and RESULT: PASS.
"""
import math
import os
import sys

USAGE = "usage: python3 timeline.py FILE.csv... [-o PNG]   (-o: the picture, default the first FILE with .png)"
STEPS = "practical 11, workbook step 5 (the course's step 4, drawn): the kernels' intervals as a timeline"
HEADER = ["program", "build", "kernel", "stream_or_thread", "source", "start_ms", "end_ms"]
BUILDS, SOURCES = ("legacy", "per-thread"), ("event", "globaltimer")


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


def read_csv(path):
    """The rows of one file as dicts, or a str saying where it is malformed."""
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
        try:
            r["kernel"], r["stream_or_thread"] = int(r["kernel"]), int(r["stream_or_thread"])
            r["start_ms"], r["end_ms"] = float(r["start_ms"]), float(r["end_ms"])
        except ValueError:
            return f"{path}:{n}: kernel and stream_or_thread are whole numbers, start_ms and end_ms numbers"
        if not (math.isfinite(r["start_ms"]) and math.isfinite(r["end_ms"])) or r["end_ms"] < r["start_ms"]:
            return f"{path}:{n}: the interval {r['start_ms']} to {r['end_ms']} ms is not one (finite, end >= start)"
        if r["kernel"] < 0:
            return f"{path}:{n}: kernel {r['kernel']} is negative"
        rows.append(r)
    return rows


def summary(path, rows):
    """One line per file: what it holds, the span of each source."""
    first = rows[0]
    kernels = sorted({r["kernel"] for r in rows})
    spans = []
    for s in SOURCES:
        mine = [r for r in rows if r["source"] == s]
        if mine:
            spans.append(f"{s} {max(r['end_ms'] for r in mine) - min(r['start_ms'] for r in mine):.3f} ms")
    return f"{path}: {first['program']} ({first['build']}), {len(kernels)} kernels, spanning " + ", ".join(spans)


def draw(tables, png, plt):
    # one x scale for every panel, so that legacy's kernels one after another and per-thread's at once compare
    nrows = sum(len({r["kernel"] for r in rows}) for _, rows in tables)
    fig, axes = plt.subplots(len(tables), 1, figsize=(10, 1.3 * len(tables) + 0.4 * nrows), squeeze=False,
                             sharex=True)
    style = {"event": dict(height=0.8, color="#9ecae1"), "globaltimer": dict(height=0.36, color="#08519c")}
    for ax, (path, rows) in zip(axes[:, 0], tables):
        kernels = sorted({r["kernel"] for r in rows})
        who = "thread" if rows[0]["program"].startswith("multithread") else "stream"
        label = {r["kernel"]: f"kernel {r['kernel']}, {who} {r['stream_or_thread']}" for r in rows}
        for s in SOURCES:
            mine = [r for r in rows if r["source"] == s]
            if mine:
                ax.barh([kernels.index(r["kernel"]) for r in mine], [r["end_ms"] - r["start_ms"] for r in mine],
                        left=[r["start_ms"] for r in mine], label=s, **style[s])
        ax.set_yticks(range(len(kernels)), [label[k] for k in kernels])
        ax.invert_yaxis()
        ax.set_title(f"{rows[0]['program']}, {rows[0]['build']} default stream ({os.path.basename(path)})")
        ax.set_xlim(left=0)
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    axes[-1, 0].set_xlabel("ms from the first kernel's start (each source by its own clock)")
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
    tables = []
    for path in files:
        rows = read_csv(path)
        if isinstance(rows, str):
            return verdict("FAIL", rows, 1)
        if not rows:
            return verdict("SKIP", f"{path} holds no rows: the program that writes it did not run to its end "
                           "(no GPU?)", 2)
        print(summary(path, rows))
        tables.append((path, rows))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return verdict("SKIP", "matplotlib is not installed", 2)
    draw(tables, png, plt)
    print(f"wrote {png}: {len(tables)} panel{'s' if len(tables) > 1 else ''}")
    return verdict("PASS", "", 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
