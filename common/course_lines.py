#!/usr/bin/env python3
"""course_lines.py FILE < OUTPUT -- does a program's output start with the course's lines of FILE?

FILE (pracN/course/PROGRAM.out) holds what the course's own program prints in its default run, line for line,
as the course's log shows it: the same words, spaces, number formats and blank lines, numbers and all. It holds
the program's lines only: the course's 2023 helper_cuda.h prints no device line (its findCudaDevice is
commented out), and the 2025 one prints its own `GPU Device 0: "..."` line and a blank line, which are not the
program's. `run_checks.sh` calls this for a runs line with `course=FILE`.

What may differ from the course, and nothing else:
  - the first line of the output, when it starts `GPU Device ` (common/helper_cuda.h names the GPU there);
  - everything after the course's last line: the workbook's own lines (timings in other units, the gold's
    report, BENCH lines) and the verdict line `RESULT: ...`;
  - the numbers. A number is an optional sign, digits, an optional fraction, an optional exponent (or inf,
    nan), that does not start inside a word: 10x is a number and x, but the 3 of laplace3d and the 1 of u1
    stay (u1 is not u2). A number matches a number of the same form: as many digits after the point (or
    none, an integer), an exponent where FILE's has one, so %.1f is not %f, %f is not %.3f and %13.8f is
    not %13.6f or %e; nan and inf match no number of FILE. The lines FILE's course printed with %g (whose
    digits after the point change with the value) are listed in FILE.g beside it (pracN/course/PROGRAM.g:
    line numbers and ranges of FILE, `1-16 18`, or `all`): there any number matches any number;
  - the spaces before a number printed right-aligned in a field of fixed width (the course's %13.8f): its
    padding depends on the number. Where FILE has three or more spaces before a number, the output's
    spaces and number together must be exactly as wide as FILE's. No course line has three spaces before
    a number anywhere else, and everywhere else the spaces must be the same: `error  =` is not `error =`,
    `(ms): 11.499520` is not `(ms):     11.500` (%f is not %10.3f), and a trailing space counts.
Lines are compared whole, so a changed word, a missing, extra or moved line (blank lines and a line holding one
space included) or a line in another order fails; the GPU's name needs no masking, as no course line has it.

Exit 0 and print nothing when the output matches; else exit 1 and print the first line that differs, both
sides with numbers masked (#) and in quotes, so that spaces show; exit 2 when FILE cannot be read.
"""
import os
import re
import sys

# a number not starting inside a word (doccheck.py's NUMBER, less its digits inside words)
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|(?:inf|nan)\b)", re.IGNORECASE)
TOKEN = re.compile(r"(?P<n>" + NUMBER.pattern + r")|(?P<s> +)|(?P<t>[^ ])", re.IGNORECASE)
FIELD_PAD = 3  # spaces before a number from which on they are a fixed-width field's padding


def tokens(line):
    """A line as [(kind, text)]: kind 'n' a number, 's' a run of spaces, 't' any other text between them."""
    out = []
    for m in TOKEN.finditer(line):
        kind, text = m.lastgroup, m.group(0)
        if kind == "t" and out and out[-1][0] == "t":
            out[-1] = ("t", out[-1][1] + text)  # a word, or any text between numbers and spaces
        else:
            out.append((kind, text))
    return out


def masked(line):
    """The line as the messages show it: numbers -> #, spaces kept."""
    return "".join("#" if k == "n" else t for k, t in tokens(line))


def form(number):
    """What a printf format decides of a number: digits after the point (None: no point), an exponent."""
    m = re.fullmatch(r"[-+]?\d*(?:\.(\d*))?([eE][-+]?\d+)?", number)
    if not m:
        return "inf or nan"
    return (None if m.group(1) is None else len(m.group(1)), m.group(2) is not None)


def same(course, real, g=False):
    """True if the output's line `real` is the course's line `course` (see the header); g: printed with %g."""
    c, r = tokens(course), tokens(real)
    if [k for k, _ in c] != [k for k, _ in r]:
        return False
    for i, ((kind, ct), (_, rt)) in enumerate(zip(c, r)):
        if kind == "t" and ct != rt:
            return False
        if kind == "n" and (form(rt) == "inf or nan" or (not g and form(rt) != form(ct))):
            return False
        if kind == "s":
            if len(ct) >= FIELD_PAD and i + 1 < len(c) and c[i + 1][0] == "n":  # a field: as wide as the course's
                if len(ct) + len(c[i + 1][1]) != len(rt) + len(r[i + 1][1]):
                    return False
            elif ct != rt:
                return False
    return True


def read_lines(text):
    """The lines of a text; a final newline ends the last line, it does not start an empty one."""
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def g_lines(path, count):
    """The line numbers (from 1) of FILE that the course printed with %g, from FILE.g if there is one."""
    try:
        with open(os.path.splitext(path)[0] + ".g") as f:
            words = f.read().split()
    except FileNotFoundError:
        return set()
    lines = set()
    for w in words:
        if w == "all":
            return set(range(1, count + 1))
        a, _, b = w.partition("-")
        lines.update(range(int(a), int(b or a) + 1))
    return lines


def check(course, output, g=frozenset()):
    """None if the output starts with the course's lines (after its device line), else a message."""
    skipped = 1 if output and output[0].startswith("GPU Device ") else 0
    real = output[skipped:]
    for n, line in enumerate(course):
        where = f"course line {n + 1} (output line {n + 1 + skipped})"
        if n >= len(real):
            return f"{where}: the output ends before it\n  course: '{masked(line)}'"
        if not same(line, real[n], n + 1 in g):
            return (f"{where} differs (numbers masked):\n  course: '{masked(line)}'\n  output: '{masked(real[n])}'"
                    f"\n  output as printed: '{real[n]}'")
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: course_lines.py FILE < OUTPUT")
    try:
        with open(sys.argv[1]) as f:
            course = read_lines(f.read())
    except OSError as e:
        print(f"cannot read {sys.argv[1]}: {e.strerror}")
        sys.exit(2)
    if not course:
        print(f"{sys.argv[1]} is empty: it must hold the course's lines")
        sys.exit(2)
    why = check(course, read_lines(sys.stdin.read()), g_lines(sys.argv[1], len(course)))
    if why:
        print(why)
        sys.exit(1)


if __name__ == "__main__":
    main()
