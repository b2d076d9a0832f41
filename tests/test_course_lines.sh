#!/usr/bin/env bash
# test_course_lines.sh -- CPU tests of a runs line's course=FILE (common/run_checks.sh, common/course_lines.py):
# stand-in programs print the course's lines, or the course's lines with one thing wrong, and each wrong kind
# must FAIL; then every course program's default run carries its course= file, and each file is used.
# Closes with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh # $t, ok, summary

mkdir -p "$t/pracX/course"
# the course's lines, as a course log shows them: a blank first line, a fixed-width field (%13.8f), two
# spaces inside a line, trailing spaces, a line holding one space, and a blank last line
printf '%s\n' '' 'Grid dimensions: 512 x 512 x 512' '' 'Copy u1 to device: 60.9 (ms) ' \
  '10x Gold_laplace3d: 13330.1 (ms) ' ' ' 'rms scan error  = 0.000000' \
  'Average value and standard deviation of error  =    0.41786269    0.00015237' '' >"$t/pracX/course/prog.out"

# a stand-in program: the workbook's device line, the course's lines with other numbers, then its own lines;
# SED edits the course's part to make one thing wrong
cat >"$t/pracX/prog" <<'P'
#!/bin/bash
echo 'GPU Device 0: "NVIDIA H100 80GB HBM3" with compute capability 9.0, 132 SMs, 79.2 GiB'
{
  printf '\nGrid dimensions: %d x %d x %d\n' 67 35 19
  printf '\nCopy u1 to device: %.1f (ms) \n' 7.3
  printf '%dx Gold_laplace3d: %.1f (ms) \n \n' 3 2.5
  printf 'rms scan error  = %f\n' 0
  printf 'Average value and standard deviation of error  = %13.8f %13.8f\n\n' 12.5 -0.0001
} | sed -e "${SED:-}"
echo "u: 44555 values, max abs err = 0.000e+00"
echo "RESULT: PASS"
P
chmod +x "$t/pracX/prog"
printf 'check course=course/prog.out prog\n' >"$t/pracX/runs"

run() { SED=$1 common/run_checks.sh check "$t/pracX/runs"; }

out=$(run '')
grep -q "^PASS  pracX/prog  (the course's lines of course/prog.out first)" <<<"$out"
ok "course=: the course's lines with other numbers (and other field padding) pass, device line and extras allowed" $?

# each kind of difference fails, and the message names the course's line
fails() { # name sed-script line-that-the-message-names
  out=$(run "$2")
  grep -q "^FAIL  pracX/prog  (output does not start with the course's lines of course/prog.out)" <<<"$out" &&
    grep -q "course line $3" <<<"$out" && grep -q '^0 passed, 1 failed' <<<"$out"
  ok "course=: $1 fails" $?
}
fails "a changed word" 's/Copy u1 to device/Copy u1 to GPU/' 4
fails "a missing blank line" '1d' 1
fails "an extra line inside the course's" '3a\Block: 32 x 4' 4
fails "one space for two" 's/error  =/error =/' 7
fails "two spaces for one" 's/Grid dimensions:/Grid  dimensions:/' 2
fails "a lost trailing space" 's/(ms) $/(ms)/' 4
fails "a lost line of one space" 's/^ $//' 6
fails "%10.3f for %f (the padding is not a field's here)" 's/: 7.3 (ms)/:      7.300 (ms)/' 4
fails "a wider field (%14.8f for %13.8f)" 's/=   12.5/=    12.5/' 8
fails "a suffix inside a course line" 's/(ms) $/(ms), 9.1 GB\/s/' 4
fails "a reordered line" '/^Copy/{h;d};/Gold/{G}' 4
fails "a number where the course has a word" 's/x 35 x/x 35 35/' 2
fails "a word where the course has a number" 's/= 0.000000/= zero/' 7
fails "%.3f for %f (a number of another form, no padding)" 's/= 0.000000$/= 0.000/' 7
fails "%13.6f for %13.8f (the same width, other decimals)" 's/12.50000000/  12.500000/' 8
fails "%e for %f" 's/= 0.000000$/= 0.000000e+00/' 7
fails "nan for a number" 's/= 0.000000$/= nan/' 7
# a line the course printed with %g: its digits after the point follow the value, so FILE.g frees them
fails "another number of decimals, the line not listed as %g" 's/: 7.3 (ms)/: 7.31 (ms)/' 4
echo 4 >"$t/pracX/course/prog.g"
out=$(run 's/: 7.3 (ms)/: 7.31 (ms)/')
grep -q "^PASS  pracX/prog  (the course's lines" <<<"$out"
ok "course=: a line listed in FILE.g as the course's %g takes any number of decimals" $?
out=$(run 's/: 7.3 (ms)/: nan (ms)/')
grep -q "^FAIL  pracX/prog" <<<"$out"
ok "course=: ...but not nan" $?
rm -f "$t/pracX/course/prog.g"
fails "a missing blank last line" '$d' 9

# the device line is allowed as the first line only
printf '#!/bin/sh\necho\necho "GPU Device 0: \\"X\\""\necho "Grid dimensions: 1 x 2 x 3"\necho "RESULT: PASS"\n' >"$t/pracX/late"
printf '\nGrid dimensions: 1 x 2 x 3\n' >"$t/pracX/course/late.out"
chmod +x "$t/pracX/late"
printf 'check course=course/late.out late\n' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs")
grep -q '^FAIL  pracX/late' <<<"$out" && grep -q 'course line 2' <<<"$out"
ok "course=: a GPU Device line after the first line is not skipped" $?

# output that stops before the course's last line; a course file that is missing
printf '#!/bin/sh\necho "Grid dimensions: 1 x 2 x 3"\necho "RESULT: PASS"\n' >"$t/pracX/short"
printf 'Grid dimensions: 1 x 2 x 3\nrms error = 0.0 \n' >"$t/pracX/course/short.out"
chmod +x "$t/pracX/short"
printf 'check course=course/short.out short\ncheck course=course/none.out short\n' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs")
[ "$(grep -c '^FAIL  pracX/short' <<<"$out")" = 2 ] && grep -q 'course line 2' <<<"$out" &&
  grep -q 'cannot read .*none.out' <<<"$out"
ok "course=: output that ends too early fails, a missing course file fails" $?

# without a GPU a course= line SKIPs like any other: the comparison needs the run's output
printf 'check course=course/prog.out noGPU\n' >"$t/pracX/runs"
printf '#!/bin/sh\necho "RESULT: SKIP (no CUDA device: none here)"\nexit 2\n' >"$t/pracX/noGPU"
chmod +x "$t/pracX/noGPU"
common/run_checks.sh check "$t/pracX/runs" | grep -q '^SKIP  pracX/noGPU'
ok "course=: a run that SKIPs is a SKIP" $?

# every course program's default run compares with its course file, and every course file is used
course_programs="prac1/prac1a prac1/prac1b prac1/prac1c prac2/prac2 prac2/prac2_device prac3/laplace3d
  prac3/laplace3d_new prac4/reduction prac6/prac6 prac6/prac6a prac6/prac6b prac6/prac6c prac7/trid prac8/scan
  prac9/match prac11/stream_legacy prac11/stream_per_thread prac11/multithread_legacy prac11/multithread_per_thread
  prac12/kernel_overlap prac12/work_streaming"
bad=""
for p in $course_programs; do
  prac=${p%/*} prog=${p#*/}
  grep -Eq "^check( [a-z]+=[^ ]+)* course=course/$prog\.out( [a-z]+=[^ ]+)* $prog\$" "$prac/runs" &&
    [ -s "$prac/course/$prog.out" ] || bad="$bad $p"
done
shopt -s nullglob
for f in prac*/course/*.out; do
  grep -q "course=course/$(basename "$f") " "$(dirname "$(dirname "$f")")/runs" || bad="$bad $f(unused)"
done
[ -z "$bad" ] || echo "      missing or unused:$bad"
[ -z "$bad" ]
ok "runs: the 21 course programs' default runs have their course= file (prac5's two are NVIDIA samples)" $?

# a line with both out= and course= pins the whole output: that output must hold the course's lines too
bad=""
for runs in prac*/runs; do
  while read -r line; do
    out=$(sed -n 's/.* out=\([^ ]*\).*/\1/p' <<<"$line") course=$(sed -n 's/.* course=\([^ ]*\).*/\1/p' <<<"$line")
    [ -n "$out" ] && [ -n "$course" ] || continue
    python3 common/course_lines.py "${runs%/runs}/$course" <"${runs%/runs}/$out" >/dev/null || bad="$bad ${runs%/runs}/$out"
  done < <(grep '^check .*course=' "$runs")
done
[ -z "$bad" ] || echo "      not the course's lines:$bad"
[ -z "$bad" ]
ok "runs: each pinned out= file of a course= line starts with the course's lines" $?

# the padding rule (three or more spaces before a number: a fixed-width field) applies in the course's files only
# where the course prints %13.8f, so that nowhere else can it hide a difference in spaces
fields=$(python3 - <<'P'
import glob, sys
sys.path.insert(0, "common")
from course_lines import FIELD_PAD, tokens
for f in sorted(glob.glob("prac*/course/*.out")):
    for n, line in enumerate(open(f).read().split("\n"), 1):
        t = tokens(line)
        if any(k == "s" and len(x) >= FIELD_PAD and t[i + 1:i + 2] and t[i + 1][0] == "n" for i, (k, x) in enumerate(t)):
            print(f"{f}:{n}")
P
)
[ "$(sort -u <<<"$fields")" = "prac2/course/prac2.out:4
prac2/course/prac2_device.out:7" ]
ok "course files: only the course's %13.8f fields have three or more spaces before a number" $?

summary
