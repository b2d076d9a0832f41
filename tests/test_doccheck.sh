#!/usr/bin/env bash
# test_doccheck.sh -- CPU tests of common/doccheck.py (`make doccheck`): how it reads a handout into command
# and output blocks, how it masks and matches output, and a whole run on stand-in programs that print what a
# real one would. Closes with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh # $t, ok, summary

# match SHOWN REAL: doccheck's verdict on one shown block against one real output ("ok" or its message)
match() {
  python3 - "$1" "$2" <<'P'
import sys
sys.path.insert(0, "common")
import doccheck
shown = [(n, l) for n, l in enumerate(sys.argv[1].split("\n"), 1)]
print(doccheck.match(shown, sys.argv[2].split("\n")) or "ok")
P
}

# ---------------------------------------------------------------- parsing
# a synthetic handout: every kind of block the real ones have
mkdir -p "$t/docs" "$t/prac9"
cat >"$t/docs/prac9.md" <<'H'
# Practical 9

## Step 1: a command, then its output a line of prose later

```
cd prac9
make                  # or: nvcc -O3 -arch=native hello.cu -o hello
./hello -n=5
```

On the GPU these notes were written on:

```
GPU Device 0: "NVIDIA H100 80GB HBM3" with compute capability 9.0, 132 SMs, 79.2 GiB
n = 5, 1 block of 32 threads
RESULT: PASS
```

## Step 2: C code is not output

```
./hello -n=7
```

```
__global__ void hello(float *x) {
  x[threadIdx.x] = 0.0f;
}
```

## Step 3: output inline, elided, and bad input

```
./hello -n=1000 -list
list 0 = 0.5
...
list 999 = 499.5
RESULT: PASS
$ ./hello -n=-1
RESULT: FAIL (bad input: -n=-1 is not positive)
```

## Step 4: blocks that are not run

```
make hello
```

```
ptxas info    : Used 10 registers, used 0 barriers
```

```
make hello
gcc -O2 -c main.c -o main.o
```

```
$ nm main.o | grep hello
                 U hello
```
H
list=$(python3 common/doccheck.py --list "$t/docs/prac9.md")
echo "$list" | sed 's/^/      /'
grep -q "prac9.md:13  cd prac9 ; make ; ./hello -n=5  (3 output lines)" <<<"$list"
ok "parse: a command block and the output block after a line of prose; the comment dropped" $?
! grep -q "prac9.md:2[2-9]" <<<"$list"
ok "parse: a block of C after a command is not its output" $?
grep -q "prac9.md:21  shows no output" <<<"$list"
ok "parse: a command without output is listed as such" $?
grep -q "prac9.md:34  ./hello -n=1000 -list  (4 output lines)" <<<"$list" &&
  grep -q "prac9.md:39  ./hello -n=-1  (1 output lines)" <<<"$list"
ok "parse: output inline, with its ... line; a \$ command starts a new pair" $?
grep -q "prac9.md:46  left out: runs no program" <<<"$list"
ok "parse: a build alone is left out (its output depends on what is built)" $?
grep -q "prac9.md:53  left out: line 55 runs 'gcc" <<<"$list"
ok "parse: a block with a tool doccheck does not run is left out, with the line" $?
! grep -Eq "prac9.md:(5[6-9]|6)" <<<"$list"
ok "parse: a block that starts with another \$ command is not a command block" $?
grep -q "prac9.md: 3 pairs; command blocks: 2 left out, 1 showing no output" <<<"$list"
ok "parse: the handout's summary line" $?

# a variable set for the program, as `NAME=VALUE ./PROGRAM`: a command line (bash runs it as given)
printf '# P\n\n```\nCUDA_DEVICE_MAX_CONNECTIONS=1 ./hello -n=3\n```\n```\nn = 3\nRESULT: PASS\n```\n' >"$t/docs/prac8.md"
python3 common/doccheck.py --list "$t/docs/prac8.md" | grep -q "prac8.md:6  CUDA_DEVICE_MAX_CONNECTIONS=1 ./hello -n=3  (2 output lines)"
ok "parse: NAME=VALUE ./PROGRAM is a command line" $?

# ---------------------------------------------------------------- masking and matching
shown='GPU Device 0: "NVIDIA H200" with compute capability 9.0, 132 SMs, 139.8 GiB
Grid dimensions: 512 x 512 x 512
10x GPU_laplace3d: 6.9 (ms)
rms error = 0.000000
RESULT: PASS'
real='GPU Device 0: "Tesla T4" with compute capability 7.5, 40 SMs, 14.6 GiB
Grid dimensions: 256 x 256 x 1024
10x   GPU_laplace3d: 123.45 (ms)
rms error = -1.5e-07
RESULT: PASS'
[ "$(match "$shown" "$real")" = ok ]
ok "match: other numbers, another GPU's name and other spacing still PASS" $?
out=$(match "$shown" "${real/rms error/max error}")
[ "${out#line 4 \'rms error = 0.000000\' not found}" != "$out" ] && grep -q "max error = -1.5e-07" <<<"$out"
ok "match: a changed word is STALE, with the handout's line and the real lines near it" $?
[ "$(match 'BENCH prac=1 ms=0.1011 pct=103.6% ptr=0x7f00a0' 'BENCH prac=2 ms=12 pct=99% ptr=0xdeadbeef')" = ok ]
ok "match: percentages, hex and whole numbers are masked" $?
[ "$(match 'n = 0
...
RESULT: PASS' 'building
n = 1
n = 2
n = 3
RESULT: PASS')" = ok ]
ok "match: lines left out at a ... line and leading build lines PASS" $?
[ "$(match 'float: 16 values, max abs err = 0.000e+00, ...
RESULT: PASS' 'float: 8 values, max abs err = 1.0e-07, max rel err = 2.0e-07
RESULT: PASS')" = ok ] && [ "$(match 'float: 16 values, min ...' 'float: 8 values, max err = 1')" != ok ]
ok "match: a line that ends in ... is the start of the real line" $?
out=$(match 'a 0
RESULT: PASS' 'a 1
b 2
RESULT: PASS')
[ "${out#line 2 \'RESULT: PASS\' not found}" != "$out" ]
ok "match: lines left out without a ... line are STALE" $?
out=$(match 'first 1
second 2' 'second 2
first 1')
[ "${out#line 2 \'second 2\' not found}" != "$out" ]
ok "match: reordered lines are STALE" $?
[ "$(match 'step 2 (any_threads)' 'step 6 (fast)')" != ok ]
ok "match: words next to numbers are kept" $?
out=$(match 'a 1
b 2' '')
grep -q "(end of output)" <<<"$out"
ok "match: an empty output is STALE, said so" $?

# ---------------------------------------------------------------- a run on stand-in programs
cat >"$t/prac9/Makefile" <<'M'
all:
	@echo "nvcc -o hello hello.cu"
hello:
	@echo "nvcc -o hello hello.cu"
M
cat >"$t/prac9/hello" <<'P'
#!/bin/sh
# stands in for a GPU program: the lines of the handout, with other numbers; -n=-1 is bad input
case "$1" in
  -n=-1) echo "RESULT: FAIL (bad input: -n=-1 is not positive)"; exit 1 ;;
  -n=1000) echo "list 0 = 0.5"; echo "list 1 = 1.5"; echo "list 999 = 499.5"; echo "RESULT: PASS" ;;
  *) echo 'GPU Device 0: "Tesla T4" with compute capability 7.5, 40 SMs, 14.6 GiB'
     echo "n = 7, 4 block of 64 threads"; echo "RESULT: PASS" ;;
esac
P
chmod +x "$t/prac9/hello"
out=$(python3 common/doccheck.py --root "$t" "$t/docs/prac9.md"); rc=$?
echo "$out" | sed 's/^/      /'
grep -q "^PASS  $t/docs/prac9.md:13 ./hello -n=5$" <<<"$out" &&
  grep -q "^PASS  $t/docs/prac9.md:34 ./hello -n=1000 -list$" <<<"$out" &&
  grep -q "^PASS  $t/docs/prac9.md:39 ./hello -n=-1$" <<<"$out" &&
  grep -q "^3 passed, 0 stale, 0 skipped$" <<<"$out" && [ $rc = 0 ]
ok "run: cd, make and the program run as shown; every pair PASSes, exit 0" $?

# a page of its own, docs/prac9_beyond.md (as docs/prac3_beyond.md): its commands run in prac9, not the root
printf '# Beyond\n\n```\n./hello -n=7\n```\n\n```\nn = 7, 4 block of 64 threads\nRESULT: PASS\n```\n' \
  >"$t/docs/prac9_beyond.md"
out=$(python3 common/doccheck.py --root "$t" "$t/docs/prac9_beyond.md"); rc=$?
grep -q "^PASS  $t/docs/prac9_beyond.md:7 ./hello -n=7$" <<<"$out" && [ $rc = 0 ]
ok "run: a page docs/pracN_NAME.md runs its commands in pracN" $?

sed -i 's/block of 64 threads/block of 64 warps/' "$t/prac9/hello"
out=$(python3 common/doccheck.py --root "$t" "$t/docs/prac9.md"); rc=$?
grep -q "^STALE $t/docs/prac9.md:13 ./hello -n=5: line 15 'n = 5, 1 block of 32 threads' not found" <<<"$out" &&
  grep -q "^2 passed, 1 stale, 0 skipped$" <<<"$out" && [ $rc = 1 ]
ok "run: a program whose output changed makes its block STALE with file:line, exit 1" $?

cat >"$t/prac9/hello" <<'P'
#!/bin/sh
case "$1" in
  -n=-1) echo "RESULT: FAIL (bad input: -n=-1 is not positive)"; exit 1 ;;
  *) echo "RESULT: SKIP (no CUDA device: no NVIDIA driver is installed)"; exit 2 ;;
esac
P
out=$(python3 common/doccheck.py --root "$t" "$t/docs/prac9.md"); rc=$?
grep -q "^SKIP  $t/docs/prac9.md:13 ./hello -n=5 (no CUDA device: no NVIDIA driver is installed)$" <<<"$out" &&
  grep -q "^1 passed, 0 stale, 2 skipped$" <<<"$out" && [ $rc = 0 ]
ok "run: without a GPU a pair SKIPs, and bad input still PASSes" $?

printf '#!/bin/sh\nsleep 30\n' >"$t/prac9/hello"
out=$(python3 common/doccheck.py --root "$t" --timeout 1 "$t/docs/prac9.md"); rc=$?
grep -q "^STALE $t/docs/prac9.md:13 ./hello -n=5: line 8 './hello -n=5' ran past 1 s" <<<"$out" && [ $rc = 1 ]
ok "run: a program that runs past --timeout is stopped and its block is STALE" $?

summary
