#!/usr/bin/env python3
"""torch_peer.py -- the peer of prac6 steps 7 and 8 (docs/prac6_beyond.md): PyTorch's torch.cat and element-wise
operators, timed on the shapes, strides and types of concat's and eltwise's bench lines, each beside a copy_
of the same bytes in the same run.

  python3 torch_peer.py          the benched shapes (256 MB of output and more), one BENCH line a case
  python3 torch_peer.py -small   the same cases 1024x smaller (H = W = 4): make check's quick run

What a user would otherwise call. The handout's table puts these lines beside concat's and eltwise's, matched
by case= and type=; those programs never call PyTorch: nothing in the workbook but this script needs Python.
Without PyTorch, or without a GPU that PyTorch sees, one line RESULT: SKIP (why) and exit 2.
"""
import os
import statistics
import sys

USAGE = "usage: python3 torch_peer.py [-small]   (-small: each shape 1024x smaller, for make check)"
STEPS = "practical 6, workbook steps 7 and 8 (beyond the course): PyTorch as the peer of concat and eltwise"
DEV = "cuda"
REPS, WARMUP = 20, 3  # samples a median is taken of, and untimed calls first (as common/timing.h)
SAMPLE = 1 << 16  # output elements each eltwise case recomputes on the CPU


class CheckFailed(Exception):
    pass


def verdict(kind, why, code):
    # REQUIRE_GPU=1 turns a SKIP into a FAIL, as common/gold_check.h's result_skip does for the C programs
    if kind == "SKIP" and os.environ.get("REQUIRE_GPU", "") not in ("", "0"):
        kind, why, code = "FAIL", "REQUIRE_GPU is set, and this run would have skipped: " + why, 1
    print(f"RESULT: {kind} ({why})" if why else f"RESULT: {kind}", flush=True)
    return code


def time_ms(torch, fn):
    """Median ms per call of fn over REPS samples, after WARMUP calls, as common/timing.h times a kernel: a
    call under 1 ms is repeated between one pair of events, because the events around each call would add
    microseconds of their own, a large part of a short call. About 5 ms a sample (not timing.h's 2): the GPU
    waits while Python issues the first call after the start event, and that wait must be a small part."""
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def sample(batch):
        start.record()
        for _ in range(batch):
            fn()
        stop.record()
        stop.synchronize()  # the host waits for the GPU: only then is stop's time set
        return start.elapsed_time(stop) / batch

    pilot = sample(1)
    batch = 1 if pilot >= 1.0 else min(1000, int(5.0 / max(pilot, 1e-4)) + 1)
    return statistics.median([sample(batch) for _ in range(REPS)])


def rand(torch, shape, dt):
    """Random data, never all zero. Floats are k/128, -1024 <= k < 1024: exact in half, and so is any sum of
    two; lt meets ties (a == b) in about one element in 2048. int8 leaves out -128, the poison."""
    if dt == torch.int8:
        return torch.randint(-127, 128, shape, dtype=dt, device=DEV)
    return torch.randint(-1024, 1024, shape, dtype=dt, device=DEV).div_(128)


def poison(torch, out):
    # NaN for half and float, 0xff for bool (neither 0 nor 1), -128 for int8 (no input holds it)
    out.view(torch.uint8).fill_(0x80 if out.dtype == torch.int8 else 0xFF)


def same_bits(torch, x, y):
    # bitwise, so that -0 must stay -0 and the poison (a NaN, 0xff, -128) matches nothing these inputs can make
    return x.shape == y.shape and torch.equal(x.contiguous().view(torch.uint8), y.contiguous().view(torch.uint8))


def measure(torch, prog, n, case, tname, out, run, check, moved, l2):
    """Check the first call's output, time the calls, check what the last timed call left (each call writes
    the same output), time a copy_ moving the same bytes, and print the BENCH line. n is N x C x H x W in
    that order whatever the layout (case= names the layout), as concat's -N -C -H -W give the shape."""
    poison(torch, out)
    run()
    why = check()
    if why:
        raise CheckFailed(f"{prog} {case} {tname}: {why}, after the first call")
    poison(torch, out)  # again: what is checked next must be what the timed calls wrote
    ms = time_ms(torch, run)
    why = check()  # the output the last timed call left, not a new call's
    if why:
        raise CheckFailed(f"{prog} {case} {tname}: {why}, after the timed calls")
    # the 100 % line: a copy_ (cudaMemcpy device to device) reading and writing moved/2 bytes each
    half = moved // 2
    src = torch.full((half,), 0x5A, dtype=torch.uint8, device=DEV)
    dst = torch.full((half,), 0xA5, dtype=torch.uint8, device=DEV)
    copy_ms = time_ms(torch, lambda: dst.copy_(src))
    if not torch.equal(dst, src):
        raise CheckFailed(f"the copy_ of {half} bytes beside {case} {tname} did not copy")
    del src, dst
    # GB/s over the fewest bytes the operation must move (each input read once, the output written once)
    gbps, copy_gbps = moved / ms / 1e6, 2 * half / copy_ms / 1e6
    line = (f"BENCH prac=6 prog={prog} n={n} reps={REPS} ms={ms:.4f} GBps={gbps:.1f} "
            f"copy_GBps={copy_gbps:.1f} pct_copy={100 * gbps / copy_gbps:.1f} same_copy_ms={copy_ms:.4f}")
    if moved < 4 * l2:
        line += " l2_resident=1"  # partly served from L2: a check of the script, not a measurement of DRAM
    print(f"{line} case={case} type={tname} torch={torch.__version__}", flush=True)


def bench_cat(torch, small, l2, types):
    """Step 7: channel concat, C = 256 split evenly into K inputs, NCHW (dim 1) and NHWC (dim 3)."""
    C, H = 256, 4 if small else 128
    for tname, N in (("float", 16), ("half", 32), ("int8", 64)):
        dt = types[tname]
        for layout, dim in (("nchw", 1), ("nhwc", 3)):
            for K in (2, 8, 64):
                part = [N, C // K, H, H] if layout == "nchw" else [N, H, H, C // K]
                xs = [rand(torch, part, dt) for _ in range(K)]
                shape = part[:dim] + [C] + part[dim + 1:]
                out = torch.empty(shape, dtype=dt, device=DEV)

                def check():
                    # the reference another way: each input copied into its slab of the output (narrow + copy_)
                    ref = torch.empty_like(out)
                    off = 0
                    for x in xs:
                        ref.narrow(dim, off, x.shape[dim]).copy_(x)
                        off += x.shape[dim]
                    return None if same_bits(torch, out, ref) else "differs from the inputs copied into place"

                # out= so that the calls write the poisoned buffer the check reads (without it, the caching
                # allocator hands each call a block from its pool: no cudaMalloc either way)
                measure(torch, "torch_cat", f"{N}x{C}x{H}x{H}", f"cat_{layout}_k{K}", tname, out,
                        lambda: torch.cat(xs, dim=dim, out=out), check, 2 * out.nbytes, l2)
                del xs, out


ELTWISE = (("add_contig", "half", 64), ("add_contig", "float", 32), ("lt_contig", "half", 64),
           ("mul_bcast_c", "half", 64), ("add_transposed", "half", 64), ("add_slice2", "half", 64))


def bench_eltwise(torch, small, l2, types):
    """Step 8: a (op) b over NCHW N x 256 x 128 x 128, a contiguous, b as each case says."""
    C, H, W = 256, (4 if small else 128), (4 if small else 128)
    for case, tname, N in ELTWISE:
        dt = types[tname]
        a = rand(torch, (N, C, H, W), dt)
        # b, and where its element (n, c, h, w) lies in the tensor it is a view of (for the check's CPU sample)
        if case == "mul_bcast_c":  # a (C,1,1) tensor, broadcast: strides 0, 1, 0, 0 over NCHW
            base = b = rand(torch, (C, 1, 1), dt)
            b_at = lambda n, c, h, w: base[c, 0, 0]
        elif case == "add_transposed":  # an NHWC tensor read as NCHW: stride C in W, 1 in C
            base = rand(torch, (N, H, W, C), dt)
            b, b_at = base.permute(0, 3, 1, 2), lambda n, c, h, w: base[n, h, w, c]
        elif case == "add_slice2":  # every other element of a W = 256 tensor: stride 2 in W
            base = rand(torch, (N, C, H, 2 * W), dt)
            b, b_at = base[..., ::2], lambda n, c, h, w: base[n, c, h, 2 * w]
        else:
            base = b = rand(torch, (N, C, H, W), dt)
            b_at = lambda n, c, h, w: base[n, c, h, w]
        op = torch.lt if case.startswith("lt") else torch.mul if case.startswith("mul") else torch.add
        out = torch.empty((N, C, H, W), dtype=torch.bool if op is torch.lt else dt, device=DEV)

        def check():
            # the whole output against the same operator on contiguous copies (another kernel for the views)
            ref = op(a.contiguous(), b.expand(a.shape).contiguous())
            if not same_bits(torch, out, ref):
                return "differs from the operator on contiguous copies"
            # a sample on the CPU, b's elements found by index arithmetic on the tensor it is a view of; half
            # arithmetic in float, rounded once, as PyTorch computes it (a product of two halves is exact in float)
            i = torch.randint(0, out.numel(), (SAMPLE,), device=DEV)
            n, c, h, w = i // (C * H * W), i // (H * W) % C, i // W % H, i % W
            af, bf = a.reshape(-1)[i].cpu().float(), b_at(n, c, h, w).cpu().float()
            want = af < bf if op is torch.lt else (af * bf if op is torch.mul else af + bf).to(dt)
            return None if same_bits(torch, out.reshape(-1)[i].cpu(), want) else "differs from the CPU's sample"

        # bytes that must move: a and the output whole, each of b's elements once (the broadcast one: C of them;
        # the slice: the elements it holds, though the sectors read hold the ones between them too)
        moved = a.nbytes + b.numel() * b.element_size() + out.nbytes
        measure(torch, "torch_eltwise", f"{N}x{C}x{H}x{W}", case, tname, out, lambda: op(a, b, out=out), check,
                moved, l2)
        del a, b, base, out


def main(argv):
    small = False
    for arg in argv[1:]:  # the arguments first: bad input fails before PyTorch is even loaded
        if arg in ("-help", "--help"):
            print(f"{USAGE}\n{STEPS}")
            return 0
        if arg != "-small":
            return verdict("FAIL", f"bad input: {arg}: unknown option (-help lists the options)", 1)
        small = True
    try:
        import torch
    except Exception as e:  # ImportError, or an install that cannot load its own libraries (OSError)
        return verdict("SKIP", f"PyTorch is not installed: import torch failed: {str(e).splitlines()[0]}", 2)
    if not torch.cuda.is_available():
        return verdict("SKIP", f"no CUDA device: torch.cuda.is_available() is false (PyTorch {torch.__version__})", 2)
    try:
        torch.manual_seed(1)
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        print(f'GPU Device {torch.cuda.current_device()}: "{props.name}" with compute capability '
              f"{props.major}.{props.minor}, PyTorch {torch.__version__} (CUDA {torch.version.cuda})")
        l2 = getattr(props, "L2_cache_size", 0)
        types = {"float": torch.float32, "half": torch.float16, "int8": torch.int8}
        bench_cat(torch, small, l2, types)
        bench_eltwise(torch, small, l2, types)
    except CheckFailed as e:
        return verdict("FAIL", str(e), 1)
    except torch.cuda.OutOfMemoryError as e:  # a GPU smaller than these cases: no verdict on PyTorch's speed
        return verdict("SKIP", f"this GPU's memory is too small for the benched cases: {str(e).splitlines()[0]}", 2)
    except Exception as e:  # a CUDA error, out of memory: the run says what and fails
        return verdict("FAIL", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", 1)
    return verdict("PASS", "", 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
