#!/usr/bin/env python3
"""kt_peer.py -- the peer of tune (docs/prac10.md, step 4's last section): Kernel Tuner, the field's standard
auto-tuner, tuning prac3's GPU_laplace3d_tb<T, BY> over the space of examples/laplace3d_tb.conf at 512^3, through its
Python API (kernel_tuner.tune_kernel) with CuPy as its backend: exhaustively (brute_force), then with two of its
strategies.

  python3 kt_peer.py            512^3: brute force, then random_sample and genetic_algorithm, 50 evaluations each
  python3 kt_peer.py -small     64^3, 10 evaluations each: a check of the script (its compiles take most of it)

Each configuration is checked exactly before it is timed: one launch (one pass of T sweeps, from the course's
start, 1 on the boundary and 0 inside, as laplace3d_tb starts) must equal T sweeps of Gold_laplace3d computed here
with NumPy, in float32 and in the gold's order of additions. Its score is the effective rate of laplace3d_tb's
BENCH line: one sweep's bytes (8 per point) times T over Kernel Tuner's time of a pass (the mean of 7 launches,
each between its own pair of CUDA events, so each launch's latency from Python is in it). One BENCH line per
search: its best, its evaluations and its wall seconds until it first held a configuration within 2 % of brute
force's best, compiles included (each search compiles its own kernels, as a first run of it would).

The kernel is prac3/stencil/s4_tb.cuh itself, compiled by NVRTC (through CuPy) without its two includes: the host
side, which NVRTC cannot compile, and helper_cuda.h, which the kernel does not use. One addition to Kernel Tuner:
each compiled kernel may use the shared memory its block needs past 48 KB, as laplace3d_tb allows it
(patch_optin_shared says why). Nothing else in the workbook calls Kernel Tuner, and nothing else in practical 10
needs Python. Without Kernel Tuner, CuPy or a GPU: one line RESULT: SKIP (why) and exit 2.
"""
import gc
import os
import random
import re
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone

USAGE = ("usage: python3 kt_peer.py [-small] [-budget=N] [-strategies=A,B] [-seed=N]   (-small: 64^3; -budget: "
         "max_fevals of each strategy but brute_force, 50 (-small: 10); -strategies: random_sample,"
         "genetic_algorithm; -seed: their random choices, 1)")
STEPS = "practical 10, step 4's last section, Against Kernel Tuner (beyond the course): Kernel Tuner as the peer of tune"
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "prac3", "stencil", "s4_tb.cuh")
HOST_INCLUDES = ('#include "helper_cuda.h"', '#include "stencil/s4_tb_host.cuh"')  # left out for NVRTC
# examples/laplace3d_tb.conf's values (its restriction, T < 7 || BY <= 48, is the first of run()'s)
TS, BYS, KCHUNKS = [2, 3, 4, 5, 6], [16, 32, 48, 64], [32, 64, 128, 256, 512]
# Kernel Tuner 1.5's strategies that take max_fevals (brute_force always runs first: it finds the best)
KNOWN = ("random_sample", "genetic_algorithm", "simulated_annealing", "greedy_ils", "greedy_mls", "mls",
         "ordered_greedy_mls", "bayes_opt", "dual_annealing", "basinhopping", "diff_evo", "pso", "firefly_algorithm",
         "minimize")
ITERATIONS = 7  # Kernel Tuner's default: its time is the mean of 7 launches, each between a pair of CUDA events
WITHIN = 0.02   # "within 2 % of the best": a rate at least 98 % of brute force's best


def verdict(kind, why, code):
    # REQUIRE_GPU=1 turns a SKIP into a FAIL, as common/gold_check.h's result_skip does for the C programs
    if kind == "SKIP" and os.environ.get("REQUIRE_GPU", "") not in ("", "0"):
        kind, why, code = "FAIL", "REQUIRE_GPU is set, and this run would have skipped: " + why, 1
    print(f"RESULT: {kind} ({why})" if why else f"RESULT: {kind}", flush=True)
    return code


def first_line(e):
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def parse(argv):
    """The options, or a str saying what is wrong with them; None for -help."""
    opts = {"small": False, "budget": None, "strategies": ["random_sample", "genetic_algorithm"], "seed": 1}
    for arg in argv[1:]:
        name, _, value = arg.partition("=")
        if arg in ("-help", "--help"):
            return None
        if arg == "-small":
            opts["small"] = True
        elif name in ("-budget", "-seed") and value:
            if not value.isdigit() or (name == "-budget" and not 1 <= int(value) <= 100):
                return f"{arg}: {'1 to 100 tests' if name == '-budget' else 'a whole number, 0 or more'}"
            opts[name[1:]] = int(value)
        elif name == "-strategies" and value:
            names = value.split(",")
            for s in names:
                if s not in KNOWN:
                    return f"{arg}: {s or 'an empty name'} is not one of Kernel Tuner's strategies: {', '.join(KNOWN)}"
            if len(set(names)) != len(names):
                return f"{arg}: a strategy named twice"
            opts["strategies"] = names
        else:
            return f"{arg}: unknown option (-help lists the options)"
    if opts["budget"] is None:
        opts["budget"] = 10 if opts["small"] else 50
    return opts


def kernel_source():
    """s4_tb.cuh as NVRTC compiles it (the host includes emptied, lines kept), and its TB_BLOCK_X and TB_ROWS."""
    with open(SOURCE) as f:
        text = f.read()
    for inc in HOST_INCLUDES:
        if text.count(inc + "\n") != 1:
            raise ValueError(f"{SOURCE} no longer has the line {inc} once; update HOST_INCLUDES")
        text = text.replace(inc + "\n", "// " + inc[1:] + " (left out: NVRTC compiles the kernel alone)\n")
    macros = {}
    for name in ("TB_BLOCK_X", "TB_ROWS"):
        m = re.search(r"^#define " + name + r" (\d+)", text, re.M)
        if not m:
            raise ValueError(f"{SOURCE} no longer defines {name} as a number")
        macros[name] = int(m.group(1))
    return text, macros["TB_BLOCK_X"], macros["TB_ROWS"]


def gold_sweeps(np, u, most):
    """Sweeps 1..most of Gold_laplace3d (prac3/laplace3d_gold.c) from u: float32, boundary copied, each interior
    point (i-1 + i+1 + j-1 + j+1 + k-1 + k+1) * (1/6) added left to right as the C does. u is [k][j][i]."""
    sixth = np.float32(1.0) / np.float32(6.0)
    a, b, out = u.copy(), u.copy(), {}  # the boundary never changes, so both buffers hold it throughout
    for t in range(1, most + 1):
        c = b[1:-1, 1:-1, 1:-1]
        np.add(a[1:-1, 1:-1, :-2], a[1:-1, 1:-1, 2:], out=c)  # i-1 + i+1
        c += a[1:-1, :-2, 1:-1]  # j-1
        c += a[1:-1, 2:, 1:-1]   # j+1
        c += a[:-2, 1:-1, 1:-1]  # k-1
        c += a[2:, 1:-1, 1:-1]   # k+1
        c *= sixth
        a, b = b, a
        out[t] = a.copy()
    return out


def patch_optin_shared(CupyFunctions):
    """Kernel Tuner's CuPy backend launches with the smem_args size but never raises the kernel's limit on dynamic
    shared memory, 48 KB unless set: T = 6 at 64 columns needs 54 KB and would fail to launch (an error Kernel
    Tuner does not skip, so the whole search would stop). laplace3d_tb sets each kernel's attribute to what its
    block needs (cudaFuncSetAttribute in tb_prepare); this does the same to each compiled kernel, through CuPy's
    settable RawKernel.max_dynamic_shared_size_bytes, when Kernel Tuner hands it the size right after compiling."""
    plain = CupyFunctions.copy_shared_memory_args

    def copy_shared_memory_args(self, smem_args):
        plain(self, smem_args)
        if self.func is not None and self.smem_size > 0:
            self.func.max_dynamic_shared_size_bytes = int(self.smem_size)

    CupyFunctions.copy_shared_memory_args = copy_shared_memory_args


def config_of(r, rows):
    return (r["T"], rows * r["block_size_y"], r["KCHUNK"])


def summarize(results, t0, rows, goal):
    """What one search did: each configuration's first evaluation, in order (a strategy that comes back to one
    gets Kernel Tuner's cached result, no new test); its best; the tests and seconds until the first at or above
    goal (None: never)."""
    seen, firsts, spent = set(), [], 0.0
    for r in results:
        # seconds since the call: Kernel Tuner stamps each result when it has it (UTC); where a result has no
        # stamp, the sum of the times it records for each test stands in
        spent += sum(r.get(k, 0) or 0 for k in ("compile_time", "verification_time", "benchmark_time",
                                                 "framework_time", "strategy_time")) / 1000
        if config_of(r, rows) in seen:
            continue
        seen.add(config_of(r, rows))
        stamp = r.get("timestamp")
        at = (datetime.fromisoformat(stamp) - t0).total_seconds() if stamp else spent
        score = r.get("GBps_effective")
        ok = "__error__" not in r and isinstance(score, float)
        firsts.append((config_of(r, rows), score if ok else None, r.get("time"), at))
    scored = [f for f in firsts if f[1] is not None]
    best = max(scored, key=lambda f: f[1]) if scored else None
    reach = None
    if goal is not None:
        reach = next(((n + 1, f[3]) for n, f in enumerate(firsts) if f[1] is not None and f[1] >= goal), None)
    return firsts, best, reach


def run(opts, np, kernel_tuner, Tunable, cp):
    text, BX, ROWS = kernel_source()
    N = 64 if opts["small"] else 512
    size = f"{N}x{N}x{N}"
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    try:
        optin = cp.cuda.runtime.deviceGetAttribute(cp.cuda.runtime.cudaDevAttrMaxSharedMemoryPerBlockOptin, 0)
    except Exception:  # a CuPy without the attribute's name: the limit every CUDA GPU gives without opting in
        optin = 48 * 1024
    print(f'GPU Device 0: "{name}" with compute capability {props["major"]}.{props["minor"]}, Kernel Tuner '
          f"{kernel_tuner.__version__}, CuPy {cp.__version__}", flush=True)

    # the restrictions: the config's, then those laplace3d_tb applies (tb_check_args, tb_prepare): an output tile
    # (BY > 2T), a kernel built for T and BY (tb_kernels in s4_tb_host.cuh), tb_shared_bytes within the opt-in
    # limit. BY = TB_ROWS * block_size_y: Kernel Tuner takes the block's threads from block_size_x and _y
    by = f"{ROWS} * block_size_y"
    restrictions = [f"T < 7 or {by} <= 48",
                    f"{by} > 2 * T",
                    f"T <= 6 or (T == 7 and {by} <= 48) or (T == 8 and {by} == 32)",
                    f"2 * T * (block_size_y + 2) * 2 * {BX} * 4 <= {optin}"]

    def allowed(T, y):  # the same, for the count brute force must reach
        b = ROWS * y
        return ((T < 7 or b <= 48) and b > 2 * T and (T <= 6 or (T == 7 and b <= 48) or (T == 8 and b == 32))
                and 2 * T * (y + 2) * 2 * BX * 4 <= optin)

    tune_params = {"T": TS, "block_size_y": [b // ROWS for b in BYS], "KCHUNK": KCHUNKS, "block_size_x": [BX]}
    space = sum(allowed(T, b // ROWS) for T in TS for b in BYS) * len(KCHUNKS)
    print(f"Search space: T = {TS}, BY = {BYS}, KCHUNK = {KCHUNKS}: {space} of "
          f"{len(TS) * len(BYS) * len(KCHUNKS)} configurations allowed at {size} (shared memory opt-in limit "
          f"{optin} bytes)", flush=True)

    # the course's start (grid3d_init, seed 0): 1 on the boundary, 0 inside; u2 poisoned with NaN, which Kernel
    # Tuner copies in again before each check, so that a point the kernel forgets to write cannot pass
    u1 = np.zeros((N, N, N), dtype=np.float32)
    u1[0, :, :] = u1[-1, :, :] = u1[:, 0, :] = u1[:, -1, :] = u1[:, :, 0] = u1[:, :, -1] = 1.0
    u2 = np.full((N, N, N), np.nan, dtype=np.float32)
    t = time.perf_counter()
    gold = gold_sweeps(np, u1, max(TS))
    print(f"Gold: {max(TS)} sweeps of Gold_laplace3d in NumPy, {time.perf_counter() - t:.1f} s", flush=True)

    mismatch = []

    def exact(answer, result_host, atol=None):  # bit for bit, as laplace3d_tb's check (rms error = 0.000000)
        got, want = result_host[5], answer[5]
        same = got.shape == want.shape and np.array_equal(got.view(np.uint32), want.view(np.uint32))
        if not same:
            bad = np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))
            k, j, i = np.unravel_index(bad[0], want.shape)
            mismatch.append(f"{bad.size} of {want.size} points differ from the gold, the first "
                            f"u({i},{j},{k}) = {got[k, j, i]} where the gold has {want[k, j, i]}")
        return same

    moved = 8.0 * N * N * N  # one sweep's bytes: each point read once and written once (laplace3d_tb's moved)
    common = dict(
        kernel_name=f"GPU_laplace3d_tb<T, {by}>",  # a name expression: CuPy hands it to NVRTC to instantiate
        problem_size=(N, N, N),
        # laplace3d_tb's set_pass(): one block per output tile of (32 - 2T) x (BY - 2T) columns and KCHUNK planes
        arguments=[np.int32(N), np.int32(N), np.int32(N), Tunable("KCHUNK", {k: np.int32(k) for k in KCHUNKS}),
                   u1, u2],
        tune_params=tune_params,
        grid_div_x=lambda p: BX - 2 * p["T"],
        grid_div_y=lambda p: ROWS * p["block_size_y"] - 2 * p["T"],
        grid_div_z=lambda p: p["KCHUNK"],
        restrictions=restrictions,
        answer=Tunable("T", {T: [None] * 5 + [gold[T]] for T in TS}),  # u2 after one pass: T sweeps of the gold
        verify=exact,
        lang="cupy",
        smem_args={"size": lambda p: 2 * p["T"] * (p["block_size_y"] + 2) * 2 * BX * 4},  # tb_shared_bytes
        compiler_options=["-std=c++17"],  # as prac.mk's nvcc; CuPy adds -arch for this GPU
        defines={},  # no #define of each parameter (a "#define T 3" would break the template's own T)
        iterations=ITERATIONS,
        metrics={"GBps_effective": lambda p: moved * p["T"] / (p["time"] * 1e-3) / 1e9},
        objective="GBps_effective",
        objective_higher_is_better=True,
        quiet=True,
        cache=None,  # each search runs every test it chooses, so that its seconds are its own
    )
    # every search compiles its own kernels, as a first run of it would: CuPy keeps each binary on disk and in the
    # process, keyed by the source, and would hand later searches (and later runs) the earlier ones' kernels
    os.environ["CUPY_CACHE_IN_MEMORY"] = "1"

    best_rate, lines = None, []
    for strategy in ["brute_force"] + opts["strategies"]:
        random.seed(opts["seed"])
        np.random.seed(opts["seed"])
        extra = {} if strategy == "brute_force" else {"strategy_options": {"max_fevals": opts["budget"]}}
        most = space if strategy == "brute_force" else opts["budget"]
        print(f"{strategy}: tuning ({most} evaluations at most) ...", flush=True)
        t0, start = datetime.now(timezone.utc), time.perf_counter()
        try:
            source = text + f"// kt_peer.py: the kernels of {strategy}'s search\n"  # a source of its own
            results, _ = kernel_tuner.tune_kernel(strategy=strategy, **dict(common, kernel_source=source), **extra)
        except RuntimeError as e:
            if mismatch:
                raise RuntimeError(f"{strategy}: {first_line(e)}: {mismatch[0]}")
            raise
        wall = time.perf_counter() - start
        gc.collect()  # the backend and its arrays hold each other: free this search's GPU arrays before the next
        goal = None if best_rate is None else (1 - WITHIN) * best_rate
        firsts, best, reach = summarize(results, t0, ROWS, goal)
        if strategy == "brute_force":
            failed = [f[0] for f in firsts if f[1] is None]
            if len(firsts) != space or failed or best is None:
                return "FAIL", (f"brute force ran {len(firsts)} of the {space} configurations allowed"
                                + (f"; {len(failed)} failed, the first T={failed[0][0]}, BY={failed[0][1]}, "
                                   f"KCHUNK={failed[0][2]}" if failed else "")), 1
            best_rate = best[1]
            firsts, best, reach = summarize(results, t0, ROWS, (1 - WITHIN) * best_rate)
        if best is None:
            return "FAIL", f"{strategy}: none of its {len(firsts)} configurations ran", 1
        (T, BY, K), rate, ms, _ = best
        of_best = "" if strategy == "brute_force" else f" ({100 * rate / best_rate:.1f} % of brute force's)"
        print(f"{strategy}: {len(firsts)} configurations in {wall:.1f} s; best T={T}, BY={BY}, KCHUNK={K}: "
              f"{ms:.4f} ms per pass, {rate:.1f} GBps_effective{of_best}; "
              + (f"within 2 % of brute force's best after {reach[0]} configuration{'s' if reach[0] > 1 else ''}, "
                 f"{reach[1]:.1f} s" if reach else "never within 2 % of brute force's best"), flush=True)
        lines.append(f"BENCH prac=10 prog=kt_laplace3d_tb n={size} strategy={strategy} evals={len(firsts)} "
                     f"seconds={wall:.1f} evals_to_2pct={reach[0] if reach else 'none'} "
                     f"seconds_to_2pct={f'{reach[1]:.1f}' if reach else 'none'} best=T={T},BY={BY},KCHUNK={K} "
                     f"GBps_effective={rate:.1f} ms_pass={ms:.4f} kernel_tuner={kernel_tuner.__version__}")
    for line in lines:
        print(line, flush=True)
    return "PASS", "", 0


def main(argv):
    opts = parse(argv)  # the arguments first: bad input fails before NumPy or Kernel Tuner is even loaded
    if opts is None:
        print(f"{USAGE}\n{STEPS}")
        return 0
    if isinstance(opts, str):
        return verdict("FAIL", f"bad input: {opts}", 1)
    try:
        import numpy as np
        import kernel_tuner
        from kernel_tuner.accuracy import Tunable
        from kernel_tuner.backends.cupy import CupyFunctions
    except Exception as e:  # ImportError, or an install that cannot load its own libraries (OSError)
        return verdict("SKIP", f"kernel_tuner is not installed: import kernel_tuner failed: {first_line(e)}", 2)
    try:
        import cupy as cp
    except Exception as e:
        return verdict("SKIP", f"CuPy is not installed: import cupy failed: {first_line(e)}", 2)
    try:
        ndev = cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # no driver, or no device it can open
        return verdict("SKIP", f"no CUDA device: cupy.cuda.runtime.getDeviceCount() failed: {first_line(e)}", 2)
    if ndev < 1:
        return verdict("SKIP", "no CUDA device: CuPy sees none", 2)
    patch_optin_shared(CupyFunctions)
    work = tempfile.mkdtemp(prefix="kt_peer_")
    os.chdir(work)  # where Kernel Tuner writes a failed configuration's source (its message names it): not the repo
    failed = True
    try:
        kind, why, code = run(opts, np, kernel_tuner, Tunable, cp)
        failed = False
    except ImportError as e:  # a strategy whose own packages are missing (bayes_opt needs scikit-learn)
        return verdict("SKIP", f"a package Kernel Tuner needs is not installed: {first_line(e)}", 2)
    except cp.cuda.memory.OutOfMemoryError as e:
        return verdict("SKIP", f"this GPU's memory is too small for the grid: {first_line(e)}", 2)
    except Exception as e:  # a failed check, a compile error, a CUDA error: the run says what and fails
        return verdict("FAIL", f"{type(e).__name__}: {first_line(e)}", 1)
    finally:  # the work folder goes, whatever happened, unless a failed run left in it the copy of the source that
        os.chdir(HERE)  # Kernel Tuner's message names ("see source files: ...")
        if not (failed and os.listdir(work)):
            shutil.rmtree(work, ignore_errors=True)
    return verdict(kind, why, code)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
