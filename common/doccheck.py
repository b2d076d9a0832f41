#!/usr/bin/env python3
"""doccheck.py -- `make doccheck`: run the commands a handout shows with their output, and check that the
output the handout shows still has the shape of what the programs print now.

    python3 common/doccheck.py docs/prac4.md ...          run every pair, one verdict each
    python3 common/doccheck.py --list docs/prac4.md ...   the pairs found (and the blocks left out), no runs
    python3 common/doccheck.py --save DIR docs/prac4.md   as the first, each pair's real output kept in DIR

The rules, as docs/tools.md ("make doccheck") states them:

Blocks. A block is a fenced block (``` lines). A command line is `cd`, `make` or `./PROGRAM` at the start
of a line (`./PROGRAM` may follow variables set for it, `NAME=VALUE ./PROGRAM`), after an optional `$ ` prompt;
a trailing `# comment` is dropped. A block whose first line
(blank lines and `# ...` lines skipped) is a command line is a command block; any other block is left alone.
A command block is left out, with its reason in --list, when
  - a line looks like C (ends with ; { or }, or starts with #include, #define, // or /*),
  - a line runs a tool doccheck does not run (nvcc, gcc, ncu, nm, ...; or any other `$ ` line),
  - a `cd` line is more than `cd DIR`.
Pairs. The lines after a block's first command are commands until a line that is not one: from there on
they are output shown inline, and the next command line starts a new pair. A command block that shows no
output inline is paired with the next fenced block when
  - no heading lies between the two, and that block is neither a command block nor C, and
  - at most MAX_PROSE (3) non-blank lines of prose lie between the two, or at most MAX_PROSE_FAR (15)
    when that block shows a verdict or a device (a line starting `RESULT:` or `GPU Device`).
A pair must run a program: some line has `./PROGRAM`, or is `make check`, `make bench` or `make run`
(a build alone prints what the last build left to do, so its output cannot be checked).

Runs. A pair runs in its practical's directory (pracN for docs/pracN.md and for a page of its own,
docs/pracN_NAME.md such as prac3_beyond.md), or from the repository root when its first command is `cd`, as
a reader does who starts at the step. Commands run one after another in bash, as given; `cd DIR` changes the
directory of the lines after it; a line that runs a program is stopped after --timeout seconds (make alone is
not). stdout and stderr are read together.

Shape. Both sides are masked line by line: the GPU's name (what a `GPU Device N: "NAME"` line quotes, on
that side) becomes <GPU> wherever it appears; every number (an optional sign, digits, a fraction, an
exponent; hex 0x...; inf and nan) becomes #, so 512x512x512 is #x#x# and 103.6% is #%; runs of spaces
become one space; blank lines are dropped. The shown lines, split at lines that are just `...`, are
segments: each segment must appear in the output as consecutive lines, the segments in order. Lines before
the first segment (build lines, a GPU Device line the handout leaves out) and after the last may be left
out; anywhere else only at a `...` line. A shown line that ends in `...` is the start of the real line.

Verdicts. PASS; STALE, with the first shown line not found in order and the real lines where it was
looked for; SKIP when the output has `RESULT: SKIP` and the handout shows none (no GPU here). Closes with
"N passed, N stale, N skipped"; exit 1 if any is stale.

What it cannot check: values (a number that changed, a table whose numbers moved, a sentence quoting a
number); output shown far from its command or for a command it does not run; Markdown tables of results.
"""
import argparse
import os
import re
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_PROSE = 3          # non-blank prose lines allowed between a command block and its output block,
MAX_PROSE_FAR = 15     # or this many before a block with a RESULT: or GPU Device line
TOOLS = {"nvcc", "gcc", "g++", "cc", "clang", "ncu", "nsys", "nm", "ldd", "cuobjdump", "nvdisasm",
         "compute-sanitizer", "python", "python3", "bash", "sh", "ls", "cat", "grep", "diff", "export",
         "env", "time", "git", "cmake", "mpirun", "nvidia-smi", "sudo", "apt", "pip"}
RUNS_MAKE = {"check", "bench", "run"}   # make targets that run programs


# ---------------------------------------------------------------- reading a handout

class Block:
    """A fenced block: the line of its opening fence and its lines as (line number, text)."""
    def __init__(self, start, lines):
        self.start, self.lines = start, lines


class Pair:
    """Commands and the output the handout shows for them; line is where the shown output starts."""
    def __init__(self, path, line, commands, shown, from_root):
        self.path, self.line, self.commands, self.shown, self.from_root = path, line, commands, shown, from_root

    def label(self):
        """The lines that run programs, as the verdict names the pair."""
        return "; ".join(c for _, c in self.commands if runs_program(c)) or self.commands[0][1]


def read_blocks(text):
    """The fenced blocks of a Markdown text, and each line's text (for the prose between blocks)."""
    lines = text.split("\n")
    blocks, inside, start, body = [], False, 0, []
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            if inside:
                blocks.append(Block(start, body))
            inside, start, body = not inside, n, []
        elif inside:
            body.append((n, line))
    return blocks, lines


def command_of(line):
    """The command on a line (prompt and trailing comment dropped), or None if it is not a command line."""
    s = line.strip()
    if s.startswith("$ "):
        s = s[2:].lstrip()
    s = re.sub(r"\s+#.*$", "", s)
    if re.match(r"(cd|make)(\s|$)|([A-Za-z_]\w*=\S*\s+)*\./\S", s):  # ./PROGRAM, after any NAME=VALUE
        return s
    return None


def foreign(line):
    """True if a line runs something doccheck does not: a `$ ` prompt or a tool of TOOLS that is not ours."""
    s = line.strip()
    if command_of(s):
        return False
    words = (s[2:] if s.startswith("$ ") else s).split()
    return s.startswith("$ ") or (bool(words) and words[0] in TOOLS)


def looks_like_c(line):
    s = line.strip()
    return bool(re.search(r"[;{}]$", s)) or bool(re.match(r"#include|#define|//|/\*", s))


def runs_program(command):
    """True if a command runs a program: ./PROGRAM in it, or make with a target that runs them."""
    if re.search(r"(^|[\s&;|(])\./\S", command):
        return True
    return command.split()[0] == "make" and bool(RUNS_MAKE & set(command.split()[1:]))


def is_comment(line):
    return line.strip().startswith("# ")


def first_line(block):
    """The first line of a block that is neither blank nor a # comment, or None."""
    for n, text in block.lines:
        if text.strip() and not is_comment(text):
            return n, text
    return None


def is_command_block(block):
    first = first_line(block)
    return first is not None and command_of(first[1]) is not None


def why_left_out(block):
    """Why a command block cannot be run as shown, or None."""
    for n, text in block.lines:
        if looks_like_c(text):
            return f"line {n} looks like C"
        if foreign(text):
            return f"line {n} runs '{text.strip()}', which doccheck does not run"
        c = command_of(text)
        if c and c.split()[0] == "cd" and not re.fullmatch(r"cd [\w./-]+", c):
            return f"line {n}: only a plain 'cd DIR' is followed"
    return None


def prose_between(lines, end, start):
    """The non-blank lines between two blocks (end: line of a closing fence, start: the next opening one)."""
    return [l for l in lines[end:start - 1] if l.strip()]


def is_output_of(block, nxt, lines):
    """True if block nxt shows the output of command block `block` (the rules of the header)."""
    if is_command_block(nxt) or any(looks_like_c(t) for _, t in nxt.lines):
        return False
    end = block.lines[-1][0] + 1 if block.lines else block.start + 1     # the closing fence
    prose = prose_between(lines, end, nxt.start)
    if any(l.startswith("#") for l in prose):                            # a heading: another section
        return False
    if len(prose) <= MAX_PROSE:
        return True
    verdict = any(re.match(r"\s*(RESULT:|GPU Device)", t) for _, t in nxt.lines)
    return verdict and len(prose) <= MAX_PROSE_FAR


def find_pairs(path):
    """(pairs, left_out, no_output) of a handout: left_out is [(line, reason)] for the command blocks that
    are not run, no_output the lines of those that show no output."""
    with open(path) as f:
        blocks, lines = read_blocks(f.read())
    pairs, left_out, no_output = [], [], []
    for i, block in enumerate(blocks):
        if not is_command_block(block):
            continue
        reason = why_left_out(block)
        if reason:
            left_out.append((block.start, reason))
            continue
        # split the block into segments: commands, then the output shown inline after them
        segments, commands, shown = [], [], []
        for n, text in block.lines:
            c = command_of(text)
            if c and shown:
                segments.append((commands, shown))
                commands, shown = [], []
            if c:
                commands.append((n, c))
            elif commands and (shown or (text.strip() and not is_comment(text))):
                shown.append((n, text))             # blank and # lines between commands are not output
        out_line = None
        if not segments and not shown:
            # no output inline: the next block may show it
            if i + 1 < len(blocks) and is_output_of(block, blocks[i + 1], lines):
                shown, out_line = blocks[i + 1].lines, blocks[i + 1].start
            else:
                no_output.append(block.start)
        segments.append((commands, shown))
        for commands, shown in segments:
            if not any(t.strip() for _, t in shown):
                continue
            if not any(runs_program(c) for _, c in commands):
                left_out.append((commands[0][0], "runs no program (a build's output depends on what is built)"))
                continue
            line = out_line or commands[0][0]        # the output's fence, or the command that shows it inline
            from_root = commands[0][1].split()[0] == "cd"
            pairs.append(Pair(path, line, commands, shown, from_root))
    return pairs, left_out, no_output


# ---------------------------------------------------------------- masking and matching

NUMBER = re.compile(r"(?<![\w.)\]])[-+]?"                     # a sign, unless it follows a word: i-1 stays
                    r"(?:0x[0-9a-fA-F]+|(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?|(?:inf|nan)\b)"
                    r"|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", re.IGNORECASE)
GPU_NAME = re.compile(r'GPU Device \d+: "([^"]*)"')


def gpu_names(lines):
    return {m.group(1) for l in lines for m in [GPU_NAME.search(l)] if m and m.group(1)}


def mask(line, names):
    """A line's shape: GPU names -> <GPU>, numbers -> #, runs of spaces -> one space."""
    for name in sorted(names, key=len, reverse=True):
        line = line.replace(name, "<GPU>")
    line = NUMBER.sub("#", line)
    return " ".join(line.split())


def shapes(lines):
    """[(raw line, masked line)] of the non-blank lines, with this side's GPU names masked."""
    names = gpu_names(lines)
    return [(l.rstrip(), mask(l, names)) for l in lines if l.strip()]


def same(shown, real):
    """True if a masked real line has the masked shown line's shape; a shown line that ends in `...` is the
    start of the real one."""
    if shown.endswith("...") and len(shown) > 3:
        return real.startswith(shown[:-3].rstrip())
    return real == shown


def match(shown, real):
    """None if the shown lines appear in the real output in order (see the header), else a message.
    shown: [(line number, text)]; real: [text]."""
    names = gpu_names([t for _, t in shown])
    segments, seg = [], []
    for n, text in shown:
        if not text.strip():
            continue
        if text.strip() == "...":
            segments.append(seg)
            seg = []
        else:
            seg.append((n, text.rstrip(), mask(text, names)))
    segments.append(seg)
    out = shapes(real)
    pos = 0                                    # the first real line not yet used
    for seg in segments:
        if not seg:
            continue
        # the earliest place from pos where the whole segment matches; else where most of its start does
        best, best_at = -1, pos
        for at in range(pos, len(out) + 1):
            k = 0
            while k < len(seg) and at + k < len(out) and same(seg[k][2], out[at + k][1]):
                k += 1
            if k == len(seg):
                best, best_at = k, at
                break
            if k > best:
                best, best_at = k, at
        if best == len(seg):
            pos = best_at + len(seg)
            continue
        n, raw, _ = seg[best]
        near = best_at + best
        nxt = " | ".join(r for r, _ in out[near:near + 3]) or "(end of output)"
        return f"line {n} '{raw.strip()}' not found (next lines of real output: {nxt})"
    return None


# ---------------------------------------------------------------- running

def practical_dir(path, root):
    """pracN under root for a handout pracN.md or a page of its own pracN_NAME.md; root for any other."""
    m = re.match(r"(prac\d+)(_\w+)?\.md$", os.path.basename(path))
    d = os.path.join(root, m.group(1)) if m else root
    return d if os.path.isdir(d) else root


def run_pair(pair, timeout, root):
    """Run a pair's commands; returns (output lines, error or None)."""
    cwd = root if pair.from_root else practical_dir(pair.path, root)
    out = []
    for n, command in pair.commands:
        if command.split()[0] == "cd":
            cwd = os.path.normpath(os.path.join(cwd, command.split()[1]))
            if not os.path.isdir(cwd):
                return out, f"line {n}: no directory {os.path.relpath(cwd, root)}"
            continue
        # a session of its own, so that a timeout stops the program and not just bash
        p = subprocess.Popen(["bash", "-c", command], cwd=cwd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True)
        try:
            text, _ = p.communicate(timeout=timeout if runs_program(command) else None)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            return out, f"line {n} '{command}' ran past {timeout} s"
        out += text.decode(errors="replace").split("\n")
    return out, None


def check(pair, timeout, root, save=None):
    """(verdict, message) of one pair; save: a folder to write the real output to (FILE_LINE.out)."""
    real, error = run_pair(pair, timeout, root)
    if save:
        name = "%s_%d.out" % (os.path.splitext(os.path.basename(pair.path))[0], pair.line)
        with open(os.path.join(save, name), "w") as f:
            f.write("\n".join(real))
    if error:
        return "STALE", error
    skips = [l.strip() for l in real if l.strip().startswith("RESULT: SKIP")]
    if skips and not any(t.strip().startswith("RESULT: SKIP") for _, t in pair.shown):
        reason = skips[0][len("RESULT: SKIP"):].strip()
        return "SKIP", reason[1:-1] if reason.startswith("(") and reason.endswith(")") else reason or "no GPU"
    problem = match(pair.shown, real)
    return ("STALE", problem) if problem else ("PASS", "")


def main():
    ap = argparse.ArgumentParser(description="check that the outputs a handout shows match its programs'")
    ap.add_argument("handouts", nargs="+", help="docs/pracN.md ...")
    ap.add_argument("--list", action="store_true", help="list the pairs and the blocks left out; run nothing")
    ap.add_argument("--timeout", type=int, default=300, help="seconds a program line may run (300)")
    ap.add_argument("--root", default=ROOT, help="the directory that holds pracN/ (the repository)")
    ap.add_argument("--save", metavar="DIR", help="write each pair's real output to DIR/pracN_LINE.out, to "
                    "refresh a block from it")
    args = ap.parse_args()
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    counts = {"PASS": 0, "STALE": 0, "SKIP": 0}
    for path in args.handouts:
        pairs, left_out, no_output = find_pairs(path)
        if args.list:
            for p in pairs:
                cmds = " ; ".join(c for _, c in p.commands)
                n = sum(1 for _, t in p.shown if t.strip())
                print(f"{path}:{p.line}  {cmds}  ({n} output lines)")
            for line, reason in left_out:
                print(f"{path}:{line}  left out: {reason}")
            for line in no_output:
                print(f"{path}:{line}  shows no output")
            print(f"{path}: {len(pairs)} pairs; command blocks: {len(left_out)} left out, "
                  f"{len(no_output)} showing no output")
            continue
        for p in pairs:
            verdict, message = check(p, args.timeout, args.root, args.save)
            counts[verdict] += 1
            text = f"{verdict:<5} {path}:{p.line} {p.label()}"
            if verdict == "STALE":
                text += f": {message}"
            elif verdict == "SKIP":
                text += f" ({message})"
            print(text, flush=True)
    if not args.list:
        print(f"{counts['PASS']} passed, {counts['STALE']} stale, {counts['SKIP']} skipped")
    return 1 if counts["STALE"] else 0


if __name__ == "__main__":
    sys.exit(main())
