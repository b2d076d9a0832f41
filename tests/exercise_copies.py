#!/usr/bin/env python3
"""exercise_copies.py -- the starting files that are whole copies of a course program stay equal to it.

A course program whose lesson spans host and kernel code keeps its starting file as a copy
(exercises/prac1d.cu of prac1d.cu, ...). The copy may differ from its program only in its header comment
(the first /* ... */ block) and in its TODO blocks: every run of lines that differs must have a line marked
TODO( within three lines of it, in the copy. Anything else is drift: a fix made to one and not the other.
Prints PASS/FAIL a pair and closes with "N passed, N failed".
"""
import difflib
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# (the program, its starting copy): the only whole-program copies the workbook keeps
COPIES = [
    ("prac1/prac1d.cu", "prac1/exercises/prac1d.cu"),
    ("prac4/softmax_online_solve.cu", "prac4/exercises/softmax_online_solve.cu"),
    ("prac6/prac6b.cu", "prac6/exercises/prac6b.cu"),
    ("prac7/trid.cu", "prac7/exercises/trid.cu"),
    ("prac7/trid_shfl.cu", "prac7/exercises/trid_shfl.cu"),
    ("prac8/scan.cu", "prac8/exercises/scan.cu"),
]
NEAR = 3


def body(path):
    """The file's lines after its header comment, each stripped of surrounding white space."""
    with open(os.path.join(ROOT, path)) as f:
        lines = f.read().split("\n")
    start = 0
    if lines and lines[0].lstrip().startswith("/*"):
        for i, line in enumerate(lines):
            if "*/" in line:
                start = i + 1
                break
    return [line.strip() for line in lines[start:]], start


def drift(program, copy):
    """The runs of differing lines with no TODO( near them, as (copy's first line number, text)."""
    a, _ = body(program)
    b, off = body(copy)
    found = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        near = b[max(0, j1 - NEAR):min(len(b), j2 + NEAR)]
        if not any("TODO(" in line for line in near):
            text = (b[j1:j2] or ["(deleted) " + line for line in a[i1:i2]])[:3]
            found.append((j1 + off + 1, " | ".join(text)))
    return found


def main():
    passed = failed = 0
    pairs = COPIES if len(sys.argv) < 2 else [p for p in COPIES if p[1] in sys.argv[1:]]
    for program, copy in pairs:
        if not os.path.exists(os.path.join(ROOT, copy)):
            print(f"FAIL  {copy}: missing (listed as the starting copy of {program})")
            failed += 1
            continue
        bad = drift(program, copy)
        if bad:
            print(f"FAIL  {copy} differs from {program} away from its TODO blocks:")
            for line, text in bad[:10]:
                print(f"      | {copy}:{line}: {text[:150]}")
            failed += 1
        else:
            print(f"PASS  {copy} equals {program} outside its header and TODO blocks")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
