#!/usr/bin/env python3
"""results.py -- docs/results.md and its data: one CSV a GPU, one page with every GPU side by side.

  results.py DOCTOR_LOG BENCH_LOG   (make bench) writes this run's BENCH lines into docs/results_<gpu>.csv
                                    (replacing that GPU's rows of the practicals this run measured, keeping
                                    its other practicals' rows: make bench PRACS=prac11), then the page
  results.py --from-csv             (make results) rewrites docs/results.md from the CSVs alone, keeping its
                                    verdicts and make doctor sections (those of the latest make bench run)

BENCH_LOG holds every bench run's full output (run_checks.sh with LOG=...), each after a header
"=== bench prac1/vector_add -bench (exit 0)". <gpu> is h100, h200 or a slug of the GPU's name (gpu_key).
The page has a table a practical and a kind of row, one row a measurement (prog, n and the keys that say what
was run) and columns a GPU (its ms and ratios); where matplotlib is installed, one figure a practical,
docs/results_pracN.png: each ladder's kernels in order, one bar per GPU. RESULTS=FILE: that page, with the
CSVs and figures in its folder, instead of docs/results.md (the tests use it).
"""
import csv
import datetime
import glob
import math
import os
import re
import sys
import textwrap

PAGE = os.environ.get("RESULTS") or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "results.md")
DOCS = os.path.dirname(os.path.abspath(PAGE))
CORE = ["reps", "ms", "GBps", "copy_GBps", "pct_copy", "peak_GBps", "pct_peak"]
# a bandwidth's 100 % line: the copy; the read-only stream for a read-only kernel; the copy again for an
# effective rate (temporal blocking's T sweeps counted as T sweeps' bytes), in a column of its own
PCT = ["pct_copy", "pct_read", "pct_copy_effective"]
KNOWN = {"h100": "H100", "h200": "H200"}  # the GPUs the workbook is measured on: the page says which are missing
# keys a program picks for the GPU (a sweep's best block): shown a GPU, never part of what identifies a row
# (offset: CUB's faster call, prac8; cublas_call: cuBLAS's, prac5's hgemm)
TUNED = ["block", "kchunk", "blocks_per_sm", "paths_per_thread", "warps", "offset", "cublas_call"]
# figures of the GPU, not settings: a copy of the same bytes timed in the same run, a bound from the GPU's limits
PER_GPU = ["same_copy_ms", "bound_pct_copy"]
# a time against its bound (prac11, prac12: the bound in ms, what limits it, and the time as a % of it) and the
# host's time to queue the work: each GPU's own
BOUNDS = ["bound", "bound_ms", "limit", "pct_bound", "pct_fill", "host_ms", "ceiling_est"]
# the peer a ladder is measured against: its ratio as a percentage (pct_cublas already is; x_peer = peer ms / ms)
PEERS = ["pct_cublas", "x_cub", "x_cublas", "x_cufft", "x_gtsv2"]
# what data a row ran on (prac8: float or int scans; uint32 keys, pairs or floats sorted): a figure draws one
# kind a ladder, that of its first row at the size drawn, so that a kernel's bar never mixes two kinds
INPUT = ["type", "keys", "pairs", "dist"]
# the ladders drawn: (practical, name, prog pattern, the size drawn or None for the first measured), in order
LADDERS = [("1", "vector_add", r"vector_add", None), ("1", "color_inversion", r"color_inversion", None),
           ("2", "prac2_quad", r"prac2_quad_", None),
           ("3", "laplace3d_ladder", r"laplace3d_ladder_k\d", None),
           ("3", "laplace3d, _new, _fast, _tb", r"laplace3d(_new|_fast|_tb)?$", "512x512x512"),
           ("4", "reduction_ladder", r"reduction_", None), ("4", "softmax", r"softmax", "67108864"),
           ("5", "sgemm_ladder", r"sgemm_k\d", None), ("5", "transpose_ladder", r"transpose_k\d", "8192x8192"),
           ("5", "conv1d_ladder", r"conv1d_k\d", "1048576x255"),
           ("6", "fastdiv", r"fastdiv_", "64x3x500x500"),
           ("7", "trid_batch", r"cusparse_|trid_", "256x65536"),
           ("8", "scan_blocks", r"cub_scan$|scan_", None),
           ("8", "radix_sort", r"cub_radix_sort|radix_|onesweep|thrust_sort", None)]


def measured(k):
    """A measurement (or a figure derived from one), not part of what identifies a row."""
    return (k in CORE or k in TUNED or k == "l2_resident" or k.startswith("GBps") or re.match(r"(ms|pct|x|speedup|goal)_", k) is not None
            or re.search(r"(GBps|_per_s|_eff|_err|_over_.*|_ms)$", k) is not None or k in ("TFLOPs", "Gops", "resid")
            or k in PER_GPU or k in BOUNDS or k == "sms")


def shown(k):
    """The measurements the page shows a GPU: the time and the ratios (the CSVs keep every key)."""
    return (k in ("ms", "TFLOPs") or k in PCT or k in PER_GPU or k in BOUNDS or k.startswith(("pct_cublas", "x_", "speedup_", "goal_"))
            or k.endswith("_eff") or "_over_" in k or k in TUNED)


def gpu_key(name):
    """h100, h200, or a slug of the name ("NVIDIA GeForce RTX 4060" -> nvidia-geforce-rtx-4060)."""
    for key in ("h100", "h200"):
        if key in name.lower():
            return key
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unknown"


def label(key):
    return KNOWN.get(key, key)


def parse_bench(path):
    runs, rows = [], []
    current = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^=== bench (\S+.*?) \(exit (\d+)\)$", line)
            if m:
                current = {"name": m.group(1), "exit": int(m.group(2)), "verdict": "no verdict"}
                runs.append(current)
                continue
            if line.startswith("RESULT: ") and current is not None:
                current["verdict"] = line[len("RESULT: "):]
            if line.startswith("BENCH "):
                rows.append(dict(tok.split("=", 1) for tok in line.split()[1:] if "=" in tok))
    return runs, rows


def write_csv(path, rows, date, gpu):
    """One row a BENCH line: prac, prog, n, the core keys, every other key in the order first seen, date, gpu."""
    cols = ["prac", "prog", "n"] + [c for c in CORE if any(c in r for r in rows)]
    try:  # the file's own column order first, so that a partial run leaves its tables' columns as they were
        with open(path, newline="", encoding="utf-8") as f:
            old = next(csv.reader(f), [])
        cols = [c for c in old if c not in ("date", "gpu") and any(c in r for r in rows)] + \
            [c for c in cols if c not in old]
    except OSError:
        pass
    for r in rows:
        cols += [k for k in r if k not in cols and k not in ("date", "gpu")]
    cols += ["date", "gpu"]
    tmp = path + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=cols, restval="", lineterminator="\n")
        w.writeheader()
        for r in rows:  # a kept row keeps its own date
            w.writerow({"date": date, **r, "gpu": gpu})
    os.replace(tmp, path)


def read_csvs(docs):
    """{gpu key: rows} from every results_<gpu>.csv in docs, keys sorted."""
    data = {}
    for path in sorted(glob.glob(os.path.join(docs, "results_*.csv"))):
        key = os.path.basename(path)[len("results_"):-len(".csv")]
        with open(path, newline="", encoding="utf-8") as f:
            data[key] = [{k: v for k, v in r.items() if v not in ("", None)} for r in csv.DictReader(f)]
    return data


def prac_order(p):
    return (len(p), p)


def tables(data, prac):
    """Markdown tables of one practical: rows matched across GPUs by prog, n and the keys that are no
    measurement (the k-th such row of one GPU with the k-th of another), one group of columns a GPU."""
    gpus = list(data)
    rows = {}  # identity -> {gpu: row}, in the order first measured
    for g in gpus:
        seen = {}
        for r in data[g]:
            if r.get("prac") != prac:
                continue
            ident = tuple((k, v) for k, v in r.items() if k not in ("prac", "date", "gpu") and not measured(k))
            seen[ident] = seen.get(ident, 0) + 1
            rows.setdefault(ident + (("#", seen[ident]),), {})[g] = r
    groups = {}  # rows with the same identifying keys and the same measurements shown share a table
    for ident, per_gpu in rows.items():
        vals = frozenset(k for r in per_gpu.values() for k in r if shown(k))
        groups.setdefault((tuple(k for k, _ in ident), vals), []).append((ident, per_gpu))
    out = []
    for (keys, _), members in groups.items():
        idcols = [k for k in keys if k != "#"]
        vals = []
        for _, per_gpu in members:
            for r in per_gpu.values():
                vals += [k for k in r if shown(k) and k not in vals]
        first = [k for k in ["ms"] + PCT + ["TFLOPs", "pct_cublas"] if k in vals]
        vals = first + [k for k in vals if k not in first and k not in TUNED] + [k for k in TUNED if k in vals]
        tg = [g for g in gpus if any(g in per_gpu for _, per_gpu in members)]  # the GPUs that ran this table
        head = idcols + ["%s %s" % (label(g), v) for g in tg for v in vals]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for ident, per_gpu in members:
            cells = [v for k, v in ident if k != "#"]
            cells += [per_gpu.get(g, {}).get(v, "") for g in tg for v in vals]
            lines.append("| " + " | ".join(cells) + " |")
        out.append("\n".join(lines))
    return out


def peer_pct(r):
    for k in PEERS:
        if k in r:
            return float(r[k]) * (1 if k.startswith("pct_") else 100)
    return None


def ladder_points(data, prac):
    """[(panel title, [kernel names], {gpu: [value or None]})] and the metric's axis label."""
    ladders = []
    for p, name, pat, size in LADDERS:
        if p != prac:
            continue
        rows = {g: [r for r in data[g] if r.get("prac") == p and re.match(pat, r.get("prog", ""))] for g in data}
        allrows = [r for g in data for r in rows[g]]
        if allrows:
            n = size if size and any(r.get("n") == size for r in allrows) else allrows[0].get("n")
            first = next(r for r in allrows if r.get("n") == n)
            kind = [(k, first[k]) for k in INPUT if k in first]
            rows = {g: [r for r in rows[g] if all(r.get(k) == v for k, v in kind)] for g in rows}
            title = "%s, n=%s" % (name, n) + ("\n" + " ".join("%s=%s" % kv for kv in kind) if kind else "")
            ladders.append((title, n, rows))
    if not ladders:
        return [], ""
    every = [r for _, n, rows in ladders for g in rows for r in rows[g] if r.get("n") == n]
    def pct(r):
        return next((float(r[k]) for k in PCT if k in r), None)
    use_peer = all(peer_pct(r) is not None or pct(r) is None for r in every) and any(
        peer_pct(r) is not None for r in every)
    value = peer_pct if use_peer else pct
    used = {next(k for k in PCT if k in r) for r in every if pct(r) is not None}  # which 100 % lines the bars use
    base = {"pct_copy": "the copy", "pct_read": "a read-only stream", "pct_copy_effective": "the copy"}
    kinds = sorted({base[k] for k in used})
    what = ("% of the library peer (cuBLAS, cuFFT, CUB, cuSPARSE: its time / the kernel's), same run" if use_peer
            else "%% of %s of the same bytes, same run" % " or ".join(kinds) +
            (" (read-only kernels: of a read-only stream)" if len(kinds) > 1 else "") +
            ("; temporal blocking: its effective rate" if "pct_copy_effective" in used else ""))
    out = []
    for name, n, rows in ladders:
        progs, vals = [], {}  # a bar group per kernel: its prog, or its kernel= where that is a name
        for g in data:
            best = {}  # a kernel benched at several settings of one input (laplace3d_tb at T = 2, 3, 4): its best row
            for r in rows[g]:
                kern = r.get("kernel", "")
                kern = r["prog"] if kern.isdigit() or not kern else kern
                if r.get("n") != n:
                    continue
                if kern not in best or (value(r) or 0) > (value(best[kern]) or 0):
                    best[kern] = r
                progs += [kern] if kern not in progs else []
            vals[g] = best
        vals = {g: [value(vals[g][p]) if p in vals[g] else None for p in progs] for g in data}
        if any(v is not None for g in vals for v in vals[g]):
            pre = os.path.commonprefix(progs) if len(progs) > 1 else ""
            pre = "" if pre in progs else pre[:pre.rfind("_") + 1]  # sgemm_k1_naive -> k1_naive
            out.append((name, [p[len(pre):] for p in progs], vals))
    return out, what


def pyplot():
    """matplotlib's pyplot without a display, or None where matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def plot(plt, data, prac, png, title_of):
    ladders, what = ladder_points(data, prac)
    gpus = [g for g in data if any(v is not None for _, _, vals in ladders for v in vals[g])]  # a bar at least
    if not ladders or not gpus:
        return False
    widths = [max(2, len(k)) for _, k, _ in ladders]
    fig, axes = plt.subplots(1, len(ladders), figsize=(1.6 + 0.55 * len(gpus) * sum(widths), 4.6), squeeze=False,
                             gridspec_kw={"width_ratios": widths})
    w = 0.8 / len(gpus)
    for ax, (name, kernels, vals) in zip(axes[0], ladders):
        for i, g in enumerate(gpus):
            xs = [j + (i - (len(gpus) - 1) / 2) * w for j in range(len(kernels))]
            pts = [(x, v) for x, v in zip(xs, vals[g]) if v is not None]
            bars = ax.bar([x for x, _ in pts], [v for _, v in pts], w, label=label(g), color="C%d" % i)
            for b, (_, v) in zip(bars, pts):
                ax.text(b.get_x() + b.get_width() / 2, b.get_height(), "%.0f" % v if v >= 10 else "%.1f" % v,
                        ha="center", va="bottom", fontsize=7)
        ax.axhline(100, color="k", lw=0.8, ls="--")
        top = max([100] + [v for g in gpus for v in vals[g] if v is not None and math.isfinite(v)])
        ax.set_ylim(0, top * 1.22)  # room above the bars for the values and the legend
        ax.set_xticks(range(len(kernels)))
        ax.set_xticklabels(kernels, rotation=30, ha="right", fontsize=8)
        ax.set_title("\n".join(textwrap.fill(line, max(18, 9 * len(kernels) * len(gpus))) for line in
                               name.split("\n")), fontsize=9)
    axes[0][0].set_ylabel(textwrap.fill(what, 50), fontsize=8)
    axes[0][-1].legend(fontsize=8, loc="upper right", ncol=len(gpus))
    fig.suptitle(title_of(gpus), fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return True


def kept(text, start, end=None):
    """The page's text from the line `start` (to the line `end`, or the end), or ""."""
    i = text.find(start)
    if i < 0:
        return ""
    j = text.find(end, i) + len(end) if end and text.find(end, i) >= 0 else len(text)
    return text[i:j].rstrip()


def page(data, old, tail):
    """The page from every GPU's rows; the kept section of the old page; tail: the verdicts and make doctor."""
    gpus = list(data)
    spans = {g: sorted({r.get("date", "?") for r in data[g]}) for g in gpus}
    when = {g: (s[0] if len(s) == 1 else "%s to %s" % (s[0], s[-1])) if s else "?" for g, s in spans.items()}
    names = {g: data[g][0].get("gpu", g) if data[g] else g for g in gpus}
    out = ["# Measured results\n",
           "Generated by `make bench` (or `make results`, from the CSVs alone) from the BENCH lines of every "
           "practical's bench runs, one file a GPU; do not edit by hand. A run on one GPU replaces that GPU's "
           "rows of the practicals it ran, and nothing else. GPUs:\n"]
    for g in gpus:
        out.append("- **%s**: %s, measured %s UTC ([results_%s.csv](results_%s.csv), %d BENCH lines)"
                   % (label(g), names[g], when[g], g, g, len(data[g])))
    for g in KNOWN:
        if g not in data:
            out.append("- **%s**: not yet measured with `make bench`" % KNOWN[g])
    out.append("\nBandwidth counts the fewest bytes each operation must move (each input read once, each output "
               "written once), in GB/s (10^9 bytes/s); `pct_copy` compares it with a copy of the same size "
               "measured in the same run, the faster of `cudaMemcpy` device to device and a 16-byte copy kernel "
               "(`memcpy_GBps`, `kernel_copy_GBps` in the CSVs). A kernel that reads and (next to) never writes, a "
               "reduction, has `pct_read` instead: against a read-only stream of the same bytes (`read_GBps`). A "
               "kernel that does several sweeps per pass over the data (temporal blocking) has `pct_copy_effective`: "
               "its rate counted as if each sweep moved the data, which can pass 100 %. Times are medians over `reps` timed runs after warm-up. "
               "A row is one measurement (its program, size and the settings that say what ran); each GPU has "
               "its own columns: the time, the ratios (`pct_*` in %, `x_*` as a factor: the peer's time over "
               "this one's) and the block sizes its run chose; an empty cell: not measured there. The CSVs "
               "hold every key of every BENCH line (GB/s, the peak, rates, errors).\n")
    plt = pyplot()
    pracs = sorted({r.get("prac", "?") for g in gpus for r in data[g]}, key=prac_order)
    if plt is None:
        out.append("Figures were not drawn: matplotlib is not installed where this page was generated "
                   "(the tables hold every number).\n")
    for p in pracs:
        out.append("## Practical %s\n" % p)
        if os.path.exists(os.path.join(DOCS, "prac%s.md" % p)):  # where a column's figure is explained
            notes = os.path.exists(os.path.join(DOCS, "notes", "prac%s.md" % p))
            out.append("What these measure and their goals: [the handout](prac%s.md)%s.\n"
                       % (p, " and [its notes](notes/prac%s.md)" % p if notes else ""))
        png = "results_prac%s.png" % p
        pdata = {g: data[g] for g in gpus if any(r.get("prac") == p for r in data[g])}  # the GPUs that ran it
        def ptitle(figure_gpus, p=p, pdata=pdata):  # each GPU drawn, with the days of its rows of this practical
            days = {g: sorted({r.get("date", "?")[:10] for r in pdata[g] if r.get("prac") == p}) for g in figure_gpus}
            return "Practical %s: %s" % (p, ", ".join(
                "%s (%s)" % (names[g], days[g][0] if len(days[g]) == 1 else "%s to %s" % (days[g][0], days[g][-1]))
                for g in figure_gpus))
        if plt is not None and plot(plt, pdata, p, os.path.join(DOCS, png), ptitle):
            out.append("![practical %s: each program's kernels or methods against its 100 %% line, one bar per GPU](%s)\n" % (p, png))
        for t in tables(data, p):
            out.append(t + "\n")
    k = kept(old, "<!-- kept by make bench -->", "<!-- /kept -->")
    if k:
        out.append(k + "\n")
    out.append(tail.rstrip())
    return "\n".join(out) + "\n"


def run_tail(doctor, runs, gpu_name, date, old=""):
    lines = ["## Verdicts of the bench runs\n",
             "The latest `make bench` run, on **%s**, %s UTC:\n" % (gpu_name, date)]
    lines += ["- `%s`: %s" % (r["name"], r["verdict"]) for r in runs]
    # a run of some practicals (make bench PRACS=...): the old page's verdicts of the others stay listed
    ran = {r["name"].split("/")[0] for r in runs}
    earlier, seen = [], set()
    for name, prac, verdict in re.findall(r"^- `((prac[^/`]+)/[^`]*)`: (.*)$",
                                          kept(old, "## Verdicts of the bench runs", "## `make doctor`"), re.M):
        if prac not in ran and name not in seen:
            seen.add(name)
            earlier.append("- `%s`: %s" % (name, verdict))
    if earlier:
        lines.append("\nEarlier `make bench` runs, of the practicals this one did not run (each row's date is in "
                     "its GPU's CSV):\n")
        lines += earlier
    lines.append("\n## `make doctor`\n\n```\n%s\n```" % doctor)
    return "\n".join(lines)


def main():
    page_path = PAGE
    try:
        with open(page_path, encoding="utf-8") as f:
            old = f.read()
    except OSError:
        old = ""
    if sys.argv[1:] == ["--from-csv"]:
        data = read_csvs(DOCS)
        if not data:
            sys.exit("results.py: no %s/results_*.csv" % DOCS)
        tail = kept(old, "## Verdicts of the bench runs")
        with open(page_path, "w", encoding="utf-8") as f:
            f.write(page(data, old, tail))
        print("wrote %s from %s" % (os.path.relpath(page_path), ", ".join("results_%s.csv" % g for g in data)))
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    doctor_log, bench_log = sys.argv[1], sys.argv[2]
    with open(doctor_log, encoding="utf-8", errors="replace") as f:
        doctor = f.read().rstrip()
    runs, rows = parse_bench(bench_log)
    # when the benchmarks ran: the time the bench log was last written
    date = datetime.datetime.fromtimestamp(os.path.getmtime(bench_log), datetime.timezone.utc)
    date = date.strftime("%Y-%m-%d %H:%M")
    gpu = re.search(r"^device \d+: (.*)$", doctor, re.M)
    ngpus = re.search(r"^CUDA driver .*, (\d+) GPUs?$", doctor, re.M)
    names = re.findall(r"^GPU +\d+, ([^,]+),", doctor, re.M)  # nvidia-smi's list, one line per GPU
    name = gpu.group(1).strip() if gpu else "none"
    gpu_name = name
    if gpu and ngpus and int(ngpus.group(1)) > 1:  # the single-GPU runs use device 0
        if len(set(names)) > 1:
            gpu_name = "%s (device 0 of %s GPUs: %s)" % (name, ngpus.group(1), ", ".join(names))
        else:
            gpu_name = "%s x %s (the one-GPU runs on device 0)" % (ngpus.group(1), name)
    # this run's practicals replace their rows on this GPU; the GPU's other practicals keep theirs
    ran = {r["prac"] for r in rows}
    others = [r for r in read_csvs(DOCS).get(gpu_key(name), []) if r.get("prac") not in ran]
    merged = sorted(others + rows, key=lambda r: prac_order(r.get("prac", "")))  # stable: each run's order kept
    write_csv(os.path.join(DOCS, "results_%s.csv" % gpu_key(name)), merged, date, name)
    sys.stdout.write(page(read_csvs(DOCS), old, run_tail(doctor, runs, gpu_name, date, old)))


if __name__ == "__main__":
    main()
