#!/usr/bin/env python3
"""results.py DOCTOR_LOG BENCH_LOG -- turn `make bench`'s logs into docs/results.md (on stdout).

BENCH_LOG holds every bench run's full output (run_checks.sh with LOG=...), each after a header
"=== bench prac1/vector_add -bench (exit 0)". Each BENCH line becomes a table row; each run's
verdict is listed. Where matplotlib is installed, docs/results_bandwidth.png is drawn too, and, when the run
has prac5's SGEMM ladder, docs/results_sgemm.png (TFLOP/s per step, % of cuBLAS), next to it.
"""
import datetime
import os
import re
import sys


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
                fields = dict(tok.split("=", 1) for tok in line.split()[1:] if "=" in tok)
                rows.append(fields)
    return runs, rows


def table(rows):
    core = ["prog", "n", "reps", "ms", "GBps", "copy_GBps", "pct_copy"]
    extra = []
    for r in rows:
        for k in r:
            if k not in core and k != "prac" and k not in extra:
                extra.append(k)
    cols = [c for c in core if any(c in r for r in rows)] + extra
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join(r.get(c, "") for c in cols) + " |")
    return "\n".join(out)


def pyplot():
    """matplotlib's pyplot without a display, or None where matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def plot(rows, png):
    plt = pyplot()
    if plt is None:
        return False

    def label(r):  # the variant or the row pitch tells apart runs of one program at one size
        extra = r.get("variant") or ("pitch %s" % r["pitch"] if "pitch" in r else "")
        return "p%s %s %s %s" % (r["prac"], r["prog"], r.get("n", ""), extra)

    pts = [(label(r), float(r["pct_copy"])) for r in rows if "pct_copy" in r]
    if not pts:
        return False
    fig, ax = plt.subplots(figsize=(9, 0.35 * len(pts) + 1.2))
    ys = range(len(pts))  # by position, so that equal labels never merge into one bar
    ax.barh(list(ys), [p[1] for p in pts][::-1], color="#4c72b0")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([p[0] for p in pts][::-1])
    ax.axvline(100, color="k", lw=0.8)
    ax.axvline(90, color="r", lw=0.8, ls="--")
    ax.set_xlabel("% of the device-to-device copy measured in the same run")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    return True


def plot_sgemm(rows, png):
    """prac5's SGEMM ladder: TFLOP/s of each step, labelled with its % of cuBLAS in the same run."""
    pts = [r for r in rows if r.get("prac") == "5" and "TFLOPs" in r and "pct_cublas" in r
           and r.get("prog", "").startswith("sgemm_k")]
    plt = pyplot()
    if not pts or plt is None:
        return False
    names = ["%s\n%s" % (r["prog"][len("sgemm_"):], r.get("n", "")) for r in pts]
    tf = [float(r["TFLOPs"]) for r in pts]
    fig, ax = plt.subplots(figsize=(9, 4))
    bars = ax.bar(range(len(pts)), tf, color="#4c72b0")
    for b, r in zip(bars, pts):
        ax.text(b.get_x() + b.get_width() / 2, b.get_height(), "%s %%" % r["pct_cublas"], ha="center",
                va="bottom", fontsize=8)
    ax.set_xticks(range(len(pts)))
    ax.set_xticklabels(names, fontsize=7)
    ax.set_ylabel("TFLOP/s (FP32)")
    ax.set_title("SGEMM ladder, % of cuBLAS measured in the same run")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    return True


def kept_section(path):
    """The part of the published page that make bench does not measure (the 'Every GPU' results of make
    check-arch, check-profiles, defaults and sanitize), between its two markers: carried over unchanged."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ""
    m = re.search(r"<!-- kept by make bench -->.*?<!-- /kept -->", text, re.S)
    return m.group(0) if m else ""


def main():
    doctor_log, bench_log = sys.argv[1], sys.argv[2]
    with open(doctor_log, encoding="utf-8", errors="replace") as f:
        doctor = f.read().rstrip()
    runs, rows = parse_bench(bench_log)
    # when the benchmarks ran: the time the bench log was last written
    measured = datetime.datetime.fromtimestamp(os.path.getmtime(bench_log), datetime.timezone.utc)
    gpu = re.search(r"^device \d+: (.*)$", doctor, re.M)
    ngpus = re.search(r"^CUDA driver .*, (\d+) GPUs?$", doctor, re.M)
    names = re.findall(r"^GPU +\d+, ([^,]+),", doctor, re.M)  # nvidia-smi's list, one line a GPU
    gpu_name = gpu.group(1) if gpu else "none"
    if gpu and ngpus and int(ngpus.group(1)) > 1:  # the single-GPU runs use device 0
        if len(set(names)) > 1:
            gpu_name = "%s (device 0 of %s GPUs: %s)" % (gpu_name, ngpus.group(1), ", ".join(names))
        else:
            gpu_name = "%s x %s (the one-GPU runs on device 0)" % (ngpus.group(1), gpu_name)
    print("# Measured results\n")
    print("Generated by `make bench` on %s UTC from the BENCH lines of every practical's bench runs; "
          "do not edit by hand. GPU: **%s**.\n" % (measured.strftime("%Y-%m-%d %H:%M"), gpu_name))
    print("Bandwidth counts the fewest bytes each operation must move (each input read once, each output "
          "written once), in GB/s (10^9 bytes/s); `pct_copy` compares it with a device-to-device copy "
          "of the same size measured in the same run. Times are medians over `reps` timed runs after warm-up.\n")
    pracs = sorted({r.get("prac", "?") for r in rows}, key=lambda p: (len(p), p))
    for p in pracs:
        print("## Practical %s\n" % p)
        groups = []  # rows that report the same fields share a table, in the order they were measured
        for r in rows:
            if r.get("prac") != p:
                continue
            keys = tuple(sorted(r))
            for g in groups:
                if g[0] == keys:
                    g[1].append(r)
                    break
            else:
                groups.append((keys, [r]))
        for _, g in groups:
            print(table(g))
            print()
    png = os.environ.get("RESULTS_PNG") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "docs", "results_bandwidth.png")
    if plot(rows, png):
        print("![bandwidth as % of copy](results_bandwidth.png)\n")
    if plot_sgemm(rows, os.path.join(os.path.dirname(png), "results_sgemm.png")):
        print("![the SGEMM ladder, TFLOP/s and % of cuBLAS](results_sgemm.png)\n")
    kept = kept_section(os.path.join(os.path.dirname(png), "results.md"))
    if kept:
        print(kept + "\n")
    print("## Verdicts of the bench runs\n")
    for r in runs:
        print("- `%s`: %s" % (r["name"], r["verdict"]))
    print("\n## `make doctor`\n\n```\n%s\n```" % doctor)


if __name__ == "__main__":
    main()
