#!/usr/bin/env python3
"""shape.py -- the workbook keeps one shape (the house style's "A ladder of kernels" and "Exercises"): a file
past these sizes holds two lessons.
  - no source file of a practical over 400 lines; a ladder's runner (RUNNERS) and its step headers
    (pracN/<dir>/*.cuh) at most 300;
  - an exercise is the small file the learner writes (.cu, .cuh, .h, .c or a tuner's .conf): at most 80 lines,
    or 160 for a whole-program copy (tests/exercise_copies.py lists them and keeps them equal to their
    programs); 1,850 lines in all for practicals 1 to 8 (issue 27's 1,700, set when they were the workbook, and
    room for the exercises issues 42 and 47 asked for since: prac8's recurrence, prac5's tensor-core step),
    and at most 200 for each practical after them;
  - the practicals' Makefiles at most 280 lines together (12 practicals: about 23 lines each).
Prints PASS/FAIL a rule and closes with "N passed, N failed".
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exercise_copies import COPIES, ROOT  # noqa: E402

# the programs that run a ladder of step headers
RUNNERS = ["prac3/laplace3d_ladder.cu", "prac4/reduction_ladder.cu", "prac5/sgemm_ladder.cu",
           "prac5/transpose_ladder.cu", "prac5/conv1d_ladder.cu", "prac5/hgemm_ladder.cu", "prac6/concat.cu",
           "prac6/eltwise.cu",
           "prac7/trid_batch.cu", "prac8/scan_blocks.cu", "prac8/radix_sort.cu", "prac8/recurrence.cu",
           "prac9/match.cu", "prac9/match_ladder.cu", "prac9/match_any.cu"]
SOURCE_MAX, STEP_MAX, EXERCISE_MAX, COPY_MAX, EXERCISES_ALL, MAKEFILES_ALL = 400, 300, 80, 160, 1850, 280
EXERCISES_LATER = 200  # each practical from 9 on


def nlines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def rel(path):
    return os.path.relpath(path, ROOT)


def main():
    passed = failed = 0

    def rule(ok, what, bad):
        nonlocal passed, failed
        if ok:
            print(f"PASS  {what}")
            passed += 1
        else:
            print(f"FAIL  {what}: " + "; ".join(bad[:12]))
            failed += 1

    pracs = sorted(glob.glob(os.path.join(ROOT, "prac[0-9]*")))
    sources = [p for d in pracs for ext in ("cu", "cuh", "h", "c")
               for p in glob.glob(os.path.join(d, "**", "*." + ext), recursive=True) if "/exercises/" not in p]
    big = [f"{rel(p)} {nlines(p)}" for p in sources if nlines(p) > SOURCE_MAX]
    rule(not big, f"no source file over {SOURCE_MAX} lines", big)

    missing = [r for r in RUNNERS if not os.path.exists(os.path.join(ROOT, r))]
    big = [f"{r} {nlines(os.path.join(ROOT, r))}" for r in RUNNERS if r not in missing
           and nlines(os.path.join(ROOT, r)) > STEP_MAX]
    rule(not big and not missing, f"no runner over {STEP_MAX} lines", big + [m + " missing" for m in missing])

    steps = [p for d in pracs for p in glob.glob(os.path.join(d, "*", "*.cuh")) if "/exercises/" not in p]
    big = [f"{rel(p)} {nlines(p)}" for p in steps if nlines(p) > STEP_MAX]
    rule(not big, f"no step header over {STEP_MAX} lines", big)

    copies = {c for _, c in COPIES}
    exercises = [p for d in pracs for p in glob.glob(os.path.join(d, "exercises", "*"))
                 if os.path.isfile(p) and p.endswith((".cu", ".cuh", ".h", ".c", ".conf"))]
    big = []
    for p in exercises:
        limit = COPY_MAX if rel(p) in copies else EXERCISE_MAX
        if nlines(p) > limit:
            big.append(f"{rel(p)} {nlines(p)} (limit {limit})")
    rule(not big, f"no exercise over {EXERCISE_MAX} lines ({COPY_MAX} for a listed copy)", big)
    def prac_no(p):
        return int(os.path.basename(os.path.dirname(os.path.dirname(p)))[4:])
    total = sum(nlines(p) for p in exercises if prac_no(p) <= 8)
    rule(total <= EXERCISES_ALL, f"practicals 1-8: exercises {EXERCISES_ALL} lines in all at most ({total})",
         [str(total)])
    later = {}
    for p in exercises:
        if prac_no(p) > 8:
            later[prac_no(p)] = later.get(prac_no(p), 0) + nlines(p)
    over = [f"prac{n}: {t}" for n, t in sorted(later.items()) if t > EXERCISES_LATER]
    rule(not over, f"practicals 9 on: exercises {EXERCISES_LATER} lines each at most "
         f"({', '.join(f'prac{n} {t}' for n, t in sorted(later.items()))})", over)

    makefiles = [os.path.join(d, "Makefile") for d in pracs if os.path.exists(os.path.join(d, "Makefile"))]
    total = sum(nlines(p) for p in makefiles)
    rule(total <= MAKEFILES_ALL, f"the practicals' Makefiles {MAKEFILES_ALL} lines together at most ({total})",
         [str(total)])

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
