#!/usr/bin/env bash
# test_harness.sh -- CPU tests of the scripts behind make check and make bench (common/run_checks.sh,
# common/bench_results.sh), on stand-in programs that print the verdicts a real program would.
# Closes with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
top=$PWD
. tests/lib.sh # $t, ok, summary

# stand-in programs
mkdir -p "$t/pracX"
cat >"$t/pracX/pass" <<'P'
#!/bin/sh
echo "BENCH prac=X prog=pass n=1 reps=1 ms=1.0"
echo "RESULT: PASS"
P
cat >"$t/pracX/noGPU" <<'P'
#!/bin/sh
echo "RESULT: SKIP (no CUDA device: no NVIDIA driver is installed)"
exit 2
P
cat >"$t/pracX/toobig" <<'P'
#!/bin/sh
echo "cap=$WORKBOOK_DEVICE_MEM_MIB"
echo "RESULT: SKIP (the default size does not fit: device memory for u: 1.00 GiB needed, only 0.06 GiB free)"
exit 2
P
chmod +x "$t/pracX/pass" "$t/pracX/noGPU" "$t/pracX/toobig"

# 1. an unknown tag is an error, with the file and line number
printf '# comment\ncheck pass\nchekc pass\n' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs")
grep -q "FAIL  $t/pracX/runs:3  (unknown tag 'chekc'" <<<"$out"
ok "run_checks: unknown tag rejected with file:line" $?
grep -q '^1 passed, 1 failed' <<<"$out"
ok "run_checks: an unknown tag counts as a failure" $?

# 2. a last line without a newline would be lost: it is an error
printf 'check pass\ncheck pass' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs")
grep -q "the last line has no newline" <<<"$out" && ! common/run_checks.sh check "$t/pracX/runs" >/dev/null
ok "run_checks: last line without newline rejected" $?

# 3. env= reaches the program; expect=SKIP passes on a SKIP for a reason, not on having no GPU
printf 'check expect=SKIP env=WORKBOOK_DEVICE_MEM_MIB=64 toobig\ncheck expect=SKIP noGPU\n' >"$t/pracX/runs"
out=$(VERBOSE=1 common/run_checks.sh check "$t/pracX/runs")
grep -q 'cap=64' <<<"$out" && grep -q '^PASS  pracX/WORKBOOK_DEVICE_MEM_MIB=64 toobig  (skips as it should' <<<"$out" &&
  grep -q '^SKIP  pracX/noGPU' <<<"$out" && grep -q '^1 passed, 0 failed, 1 skipped' <<<"$out"
ok "run_checks: env= and expect=SKIP" $?

# 4. REQUIRE_GPU=1 makes the harness's own SKIPs fail too
out=$(REQUIRE_GPU=1 common/run_checks.sh check "$t/pracX/runs")
grep -q '^FAIL  pracX/noGPU  (REQUIRE_GPU is set' <<<"$out"
ok "run_checks: REQUIRE_GPU=1 turns a SKIP into a FAIL" $?

# 4b. ...but not an expected SKIP for a reason: the program sees no REQUIRE_GPU there
cat >"$t/pracX/strict" <<'P'
#!/bin/sh
[ -n "$REQUIRE_GPU" ] && { echo "RESULT: FAIL (REQUIRE_GPU reached an expect=SKIP run)"; exit 1; }
echo "RESULT: SKIP (the default size does not fit)"
exit 2
P
chmod +x "$t/pracX/strict"
printf 'check expect=SKIP strict\n' >"$t/pracX/runs"
out=$(REQUIRE_GPU=1 common/run_checks.sh check "$t/pracX/runs")
grep -q '^PASS  pracX/strict  (skips as it should' <<<"$out"
ok "run_checks: REQUIRE_GPU=1 leaves an expected SKIP alone" $?

# 4b. a program the build left out (prac.mk MISSING writes .obj/missing/PROG): its lines SKIP with the reason
mkdir -p "$t/pracX/.obj/missing"
echo "NCCL not found; install it" >"$t/pracX/.obj/missing/absent"
printf 'check absent -n=3\nbad absent -n=x\n' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs"; common/run_checks.sh bad "$t/pracX/runs")
[ "$(grep -c '^SKIP  pracX/absent -n=.  (absent was not built: NCCL not found; install it)' <<<"$out")" = 2 ] &&
  ! grep -q '^FAIL' <<<"$out"
ok "run_checks: a program left out by the build SKIPs with its reason" $?

# 4c. WORKBOOK_RUNS_LINE reaches the lines that must PASS (their sizes are the workbook's), not bad input or
# expect=FAIL lines, where a size too big for the GPU must stay a FAIL
cat >"$t/pracX/runsline" <<'P'
#!/bin/sh
if [ "$1" = bad ]; then echo "RESULT: FAIL (bad input: runsline=${WORKBOOK_RUNS_LINE:-unset})"; exit 1; fi
if [ "$1" = fail ]; then echo "runsline=${WORKBOOK_RUNS_LINE:-unset}"; echo "RESULT: FAIL (as asked)"; exit 1; fi
echo "runsline=${WORKBOOK_RUNS_LINE:-unset}"; echo "RESULT: PASS"
P
chmod +x "$t/pracX/runsline"
printf 'check runsline\ncheck expect=FAIL why=^as.asked$ runsline fail\nbad runsline bad\n' >"$t/pracX/runs"
out=$(VERBOSE=1 common/run_checks.sh check "$t/pracX/runs"; common/run_checks.sh bad "$t/pracX/runs")
[ "$(grep -c 'runsline=1' <<<"$out")" = 1 ] && grep -q 'runsline=unset' <<<"$out" &&
  grep -q 'rejected: runsline=unset' <<<"$out"
ok "run_checks: WORKBOOK_RUNS_LINE only on lines that must PASS" $?
# ...and not even when the caller's environment has it
out=$(export WORKBOOK_RUNS_LINE=1; VERBOSE=1 common/run_checks.sh check "$t/pracX/runs"; common/run_checks.sh bad "$t/pracX/runs")
[ "$(grep -c 'runsline=1' <<<"$out")" = 1 ] && grep -q 'runsline=unset' <<<"$out" &&
  grep -q 'rejected: runsline=unset' <<<"$out"
ok "run_checks: a WORKBOOK_RUNS_LINE in the caller's environment does not reach FAIL and bad lines" $?

# 4c'. an expect=FAIL line passes only on a FAIL for its reason, why=REGEX matched against RESULT: FAIL (...)
cat >"$t/pracX/neg" <<'P'
#!/bin/sh
case $1 in
sum) echo "sum: 1 values, max abs err = 1.0e+00"; echo "RESULT: FAIL (a step's sum is outside its tolerance (see above))" ;;
oom) echo "CUDA error at neg.cu:12 code=2(cudaErrorMemoryAllocation) \"cudaMalloc(&d_x, bytes)\"" >&2
  echo "RESULT: FAIL (cudaErrorMemoryAllocation at neg.cu:12)" ;;
big) echo "RESULT: FAIL (bad input: device memory for u: 1.00 GiB needed, only 0.06 GiB free)" ;;
crash) kill -SEGV $$ ;;
esac
exit 1
P
chmod +x "$t/pracX/neg"
printf '%s\n' 'check expect=FAIL why=^a.step.s.sum.is.outside neg sum' 'check expect=FAIL why=^a.step.s.sum.is.outside neg oom' \
  'check expect=FAIL why=^a.step.s.sum.is.outside neg crash' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs")
grep -q "^PASS  pracX/neg sum  (fails as it should: a step's sum is outside its tolerance (see above))" <<<"$out" &&
  grep -q "^FAIL  pracX/neg oom  (failed, but for another reason: 'cudaErrorMemoryAllocation at neg.cu:12' does not match why=^a.step.s.sum.is.outside)" <<<"$out" &&
  grep -q '^FAIL  pracX/neg crash  (no RESULT line' <<<"$out" && grep -q '^1 passed, 2 failed' <<<"$out"
ok "run_checks: expect=FAIL passes on its reason; a CUDA error or a crash instead fails, naming why= and the reason" $?
# a space in the reason: [[:space:]] or . (a runs line is split at spaces); anchors and alternatives hold
printf '%s\n' 'check expect=FAIL why=^bad[[:space:]]input:[[:space:]]device[[:space:]]memory neg big' \
  'check expect=FAIL why=^bad.input:.device.memory.for.*needed neg big' 'check expect=FAIL why=(GiB.free)$ neg big' \
  'check expect=FAIL why=^(out.of.memory|bad.input:.-n) neg big' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs")
[ "$(grep -c '^PASS  pracX/neg big  (fails as it should: bad input: device memory for u' <<<"$out")" = 3 ] &&
  grep -q "^FAIL  pracX/neg big  (failed, but for another reason: 'bad input: device memory for u: 1.00 GiB needed, only 0.06 GiB free' does not match why=^(out.of.memory|bad.input:.-n))" <<<"$out" &&
  grep -q '^3 passed, 1 failed' <<<"$out"
ok "run_checks: why= with [[:space:]] or . for a space, anchors and alternatives" $?
# an expect=FAIL line without why= is an error in the runs file, whatever TAG is run (a sanitize line too);
# so are an empty or invalid why= and a why= on a line that does not expect FAIL
printf '%s\n' 'check expect=FAIL neg sum' 'sanitize expect=FAIL neg sum' 'check expect=FAIL why= neg sum' \
  'check expect=FAIL why=(sum neg sum' 'check why=sum pass' 'check expect=FAIL why=sum neg sum' >"$t/pracX/runs"
out=$(common/run_checks.sh check "$t/pracX/runs")
bad_out=$(common/run_checks.sh bad "$t/pracX/runs")
grep -q "^FAIL  $t/pracX/runs:1  (an expect=FAIL line needs why=REGEX" <<<"$out" &&
  grep -q "^FAIL  $t/pracX/runs:2  (an expect=FAIL line needs why=REGEX" <<<"$out" &&
  grep -q "^FAIL  $t/pracX/runs:3  (why=: why= takes a valid extended regex" <<<"$out" &&
  grep -q "^FAIL  $t/pracX/runs:4  (why=(sum: why= takes a valid extended regex" <<<"$out" &&
  grep -q "^FAIL  $t/pracX/runs:5  (why=sum: why= takes a valid extended regex, on expect=FAIL lines only" <<<"$out" &&
  grep -q '^PASS  pracX/neg sum' <<<"$out" && grep -q '^1 passed, 5 failed' <<<"$out" &&
  grep -q '^0 passed, 5 failed' <<<"$bad_out" && ! common/run_checks.sh bad "$t/pracX/runs" >/dev/null
ok "run_checks: expect=FAIL without why=, an empty or invalid why=, why= without expect=FAIL: runs-file errors" $?

# 4d. a sanitize line without tool= runs under memcheck and initcheck; with tool=, under that tool alone
mkdir -p "$t/bin"
printf '#!/bin/sh\necho "sanitizer $2"; shift 6; exec "$@"\n' >"$t/bin/compute-sanitizer"
chmod +x "$t/bin/compute-sanitizer"
printf 'sanitize pass\nsanitize tool=racecheck pass\n' >"$t/pracX/runs"
out=$(PATH=$t/bin:$PATH common/run_checks.sh sanitize "$t/pracX/runs")
grep -q 'pass  \[compute-sanitizer --tool memcheck\]' <<<"$out" &&
  grep -q 'pass  \[compute-sanitizer --tool initcheck\]' <<<"$out" &&
  grep -q 'pass  \[compute-sanitizer --tool racecheck\]' <<<"$out" && grep -q '^3 passed, 0 failed' <<<"$out"
ok "run_checks: sanitize lines run memcheck and initcheck, or the tool named" $?

# 4e. `help` runs -help of every program the Makefile lists (print-progs, print-exercise-progs): exit 0, usage,
# then the COURSE_STEPS line of this practical; a program the build left out SKIPs, one not built FAILs
mkdir -p "$t/prac9/exercises" "$t/prac9/.obj/missing"
printf 'print-progs:\n\t@echo good wrongprac nosteps absent unbuilt\nprint-exercise-progs:\n\t@echo exercises/good\n' \
  >"$t/prac9/Makefile"
: >"$t/prac9/runs"
stand_in() { # path, its second line of -help
  printf '#!/bin/sh\necho "usage: $0 [options]"\n%s\necho "  -n=N\tsize"\n' "${2:+echo \"$2\"}" >"$t/prac9/$1"
  chmod +x "$t/prac9/$1"
}
stand_in good "practical 9, workbook step 2 (course step 3)"
stand_in exercises/good "practical 9, workbook step 2 (course step 3)"
stand_in wrongprac "practical 8, workbook step 2 (course step 3)"
stand_in nosteps ""
echo "no MPI" >"$t/prac9/.obj/missing/absent"
out=$(common/run_checks.sh help "$t/prac9/runs")
rc=$?
[ $rc != 0 ] && grep -q '^PASS  prac9/good -help  (practical 9, workbook step 2 (course step 3))' <<<"$out" &&
  grep -q '^PASS  prac9/exercises/good -help' <<<"$out" && grep -q '^FAIL  prac9/wrongprac -help' <<<"$out" &&
  grep -q '^FAIL  prac9/nosteps -help' <<<"$out" &&
  grep -q '^SKIP  prac9/absent -help  (absent was not built: no MPI)' <<<"$out" &&
  grep -q '^FAIL  prac9/unbuilt -help  (unbuilt is not built' <<<"$out" &&
  grep -q '^2 passed, 3 failed, 1 skipped' <<<"$out"
ok "run_checks: help checks every program's -help for its COURSE_STEPS line" $?

# 4f. prac3 builds without NCCL: laplace3d_mgpu is left out with one line saying why, the rest builds
cp -r "$top/common" "$top/prac3" "$t/" && rm -rf "$t/prac3/.obj"
(cd "$t/prac3" && find . -maxdepth 1 -type f ! -name '*.*' ! -name Makefile ! -name runs -delete)
out=$(make --no-print-directory -C "$t/prac3" NCCL_DIRS=/nonexistent ARCH=sm_75 laplace3d 2>&1)
rc=$?
[ $rc = 0 ] && [ -x "$t/prac3/laplace3d" ] && grep -q '^laplace3d_mgpu: not built: NCCL not found' <<<"$out" &&
  [ -f "$t/prac3/.obj/missing/laplace3d_mgpu" ] &&
  ! make --no-print-directory -n -C "$t/prac3" NCCL_DIRS=/nonexistent all 2>/dev/null | grep -q 'laplace3d_mgpu' &&
  common/run_checks.sh check "$t/prac3/runs" 2>&1 | grep -q '^SKIP  prac3/laplace3d_mgpu.*NCCL not found' &&
  make --no-print-directory -C "$t/prac3" NCCL_DIRS=/nonexistent clean >/dev/null 2>&1
ok "prac3 builds without NCCL: laplace3d_mgpu left out with the reason, its runs SKIP" $?

# 5. make bench without a GPU (every run a SKIP) keeps the published page
printf 'bench noGPU\n' >"$t/pracX/runs"
echo "published" >"$t/results.md"
out=$(RESULTS=$t/results.md common/bench_results.sh "$t/pracX/runs" 2>&1)
rc=$?
[ $rc = 0 ] && [ "$(cat "$t/results.md")" = published ] && grep -q 'not written: no run printed a BENCH line' <<<"$out"
ok "bench: all SKIP keeps results.md" $?

# 6. a failed bench run keeps it too, and fails
printf '#!/bin/sh\necho "BENCH prac=X prog=f n=1 reps=1 ms=1.0"\necho "RESULT: FAIL (wrong)"\nexit 1\n' >"$t/pracX/fails"
chmod +x "$t/pracX/fails"
printf 'bench pass\nbench fails\n' >"$t/pracX/runs"
out=$(RESULTS=$t/results.md common/bench_results.sh "$t/pracX/runs" 2>&1)
rc=$?
[ $rc != 0 ] && [ "$(cat "$t/results.md")" = published ] && grep -q 'not written: a bench run failed' <<<"$out"
ok "bench: a failure keeps results.md and fails" $?

# 7. BENCH lines and no failure: the page is written, and its kept section (the Every GPU results, which
# make bench does not measure) carried over
printf 'bench pass\nbench noGPU\n' >"$t/pracX/runs"
printf 'old\n<!-- kept by make bench -->\n## Every GPU\nzero FAIL\n<!-- /kept -->\nold\n' >"$t/results.md"
out=$(RESULTS=$t/results.md common/bench_results.sh "$t/pracX/runs" 2>&1)
rc=$?
[ $rc = 0 ] && grep -q 'prog' "$t/results.md" && grep -q '^wrote ' <<<"$out" && grep -q '^zero FAIL$' "$t/results.md" &&
  ! grep -q '^old$' "$t/results.md"
ok "bench: BENCH lines and no failure write results.md, keeping its kept section" $?

# 8. one CSV a GPU, one page with a column group a GPU: two stand-in GPUs (DOCTOR prints their names)
mkdir -p "$t/res" "$t/nompl/matplotlib"
echo 'raise ImportError("no matplotlib in this test")' >"$t/nompl/matplotlib/__init__.py"
for g in "H100:NVIDIA H100 80GB HBM3" "H200:NVIDIA H200" "RTX4:NVIDIA GeForce RTX 4060"; do
  printf '#!/bin/sh\necho "device 0: %s"\n' "${g#*:}" >"$t/doctor_${g%%:*}"
done
chmod +x "$t"/doctor_*
cat >"$t/pracX/ladder" <<'P'
#!/bin/sh
m=${FAKE_MS:-1.0}
echo "BENCH prac=4 prog=reduction_cub n=64 reps=1 ms=$m pct_copy=100.0 step=0 x_cub=1.000"
[ -n "$SHORT" ] || echo "BENCH prac=4 prog=reduction_shfl n=64 reps=1 ms=2.0 pct_copy=50.0 step=4 x_cub=0.500"
echo "BENCH prac=4 prog=reduction_fast n=64 reps=1 ms=1.1 pct_copy=91.0 step=6 x_cub=0.909 block=${BLOCK:-256}"
echo "RESULT: PASS"
P
chmod +x "$t/pracX/ladder"
printf 'bench ladder\n' >"$t/pracX/runs"
printf 'old\n<!-- kept by make bench -->\n## Every GPU\nzero FAIL\n<!-- /kept -->\nold\n' >"$t/res/results.md"
bench() { RESULTS=$t/res/results.md PYTHONPATH=$t/nompl common/bench_results.sh "$t/pracX/runs" >/dev/null 2>&1; }
DOCTOR=$t/doctor_H100 bench
[ -f "$t/res/results_h100.csv" ] && grep -q '^- \*\*H200\*\*: not yet measured with `make bench`' "$t/res/results.md" &&
  head -1 "$t/res/results_h100.csv" | grep -q '^prac,prog,n,reps,ms,pct_copy,step,x_cub,block,date,gpu$' &&
  grep -q ',NVIDIA H100 80GB HBM3$' "$t/res/results_h100.csv" && [ "$(wc -l <"$t/res/results_h100.csv")" = 4 ]
ok "bench: a run writes results_<gpu>.csv (prac, prog, n, the keys, date, GPU); the page names the GPU not measured" $?
SHORT=1 BLOCK=512 DOCTOR=$t/doctor_H200 bench
cp "$t/res/results_h100.csv" "$t/h100.csv"
[ -f "$t/res/results_h200.csv" ] && grep -q '^| prog | n | step | H100 ms | H100 pct_copy | H100 x_cub | H200 ms | H200 pct_copy | H200 x_cub |$' "$t/res/results.md" &&
  grep -q '^| reduction_shfl | 64 | 4 | 2.0 | 50.0 | 0.500 |  |  |  |$' "$t/res/results.md" &&
  grep -q '^| reduction_fast | 64 | 6 | 1.1 | 91.0 | 0.909 | 256 | 1.1 | 91.0 | 0.909 | 512 |$' "$t/res/results.md" &&
  ! grep -q 'not yet measured' "$t/res/results.md"
ok "bench: two GPUs' CSVs make one page, a column group a GPU, an empty cell where a row was not measured" $?
FAKE_MS=3.0 DOCTOR=$t/doctor_H200 bench
FAKE_MS=5.0 DOCTOR=$t/doctor_RTX4 bench
cmp -s "$t/h100.csv" "$t/res/results_h100.csv" && grep -q '^4,reduction_cub,64,1,3.0,' "$t/res/results_h200.csv" &&
  grep -q '^4,reduction_cub,64,1,5.0,' "$t/res/results_nvidia-geforce-rtx-4060.csv" &&
  grep -q '^| reduction_cub | 64 | 0 | 1.0 | 100.0 | 1.000 | 3.0 | 100.0 | 1.000 | 5.0 | 100.0 | 1.000 |$' "$t/res/results.md"
ok "bench: a rerun replaces its own GPU's CSV alone; another GPU gets a slug of its name" $?
grep -q '^zero FAIL$' "$t/res/results.md" && ! grep -q '^old$' "$t/res/results.md" &&
  [ "$(grep -c 'kept by make bench' "$t/res/results.md")" = 1 ]
ok "bench: the kept section survives every rewrite" $?
! ls "$t/res"/*.png >/dev/null 2>&1 && grep -q '^Figures were not drawn: matplotlib is not installed' "$t/res/results.md"
ok "bench: without matplotlib no figure, and the page says so" $?
cp "$t/res/results.md" "$t/page.md"
out=$(RESULTS=$t/res/results.md PYTHONPATH=$t/nompl python3 common/results.py --from-csv 2>&1)
cmp -s "$t/page.md" "$t/res/results.md" && grep -q '^wrote .* from results_h100.csv, results_h200.csv' <<<"$out"
ok "results.py --from-csv rewrites the same page from the CSVs, keeping the verdicts and make doctor" $?
mkdir -p "$t/pracY"
printf '#!/bin/sh\necho "BENCH prac=5 prog=other n=8 reps=1 ms=4.0 pct_copy=25.0"\necho "RESULT: PASS"\n' >"$t/pracY/other"
chmod +x "$t/pracY/other"
printf 'bench other\n' >"$t/pracY/runs"
before=$(grep -c '^4,' "$t/res/results_h100.csv")
RESULTS=$t/res/results.md PYTHONPATH=$t/nompl DOCTOR=$t/doctor_H100 common/bench_results.sh "$t/pracY/runs" >/dev/null 2>&1
[ "$(grep -c '^4,' "$t/res/results_h100.csv")" = "$before" ] && grep -q '^5,other,8,1,4.0,' "$t/res/results_h100.csv" &&
  grep -q '^- `pracY/other`: PASS$' "$t/res/results.md" && grep -q '^Earlier `make bench` runs' "$t/res/results.md" &&
  grep -q '^- `pracX/ladder`: PASS$' "$t/res/results.md"
ok "bench: a run of one practical replaces its rows alone; the others' rows and verdicts stay" $?

# 9. an exercise line (expect=FAIL): a PASS fails while exercises/ is the repository's starting file, and
# passes once the learner has edited it; outside a git clone it stays a FAIL
mkdir -p "$t/pracE/exercises"
printf '#!/bin/sh\necho "RESULT: PASS"\n' >"$t/pracE/exercises/x"
chmod +x "$t/pracE/exercises/x"
printf 'check expect=FAIL why=^exercise.not.done exercises/x\n' >"$t/pracE/runs"
out=$(common/run_checks.sh check "$t/pracE/runs")
grep -q '^FAIL  pracE/exercises/x  (expected FAIL, got PASS' <<<"$out"
ok "run_checks: outside a git clone, an exercise that PASSes is a FAIL" $?
(cd "$t/pracE" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm start) >/dev/null 2>&1
out=$(common/run_checks.sh check "$t/pracE/runs")
grep -q '^FAIL  pracE/exercises/x  (expected FAIL, got PASS' <<<"$out"
ok "run_checks: an untouched starting file that PASSes is a FAIL (the exercise would teach nothing)" $?
echo '# edited' >>"$t/pracE/exercises/x"
out=$(common/run_checks.sh check "$t/pracE/runs")
grep -q '^PASS  pracE/exercises/x  (your exercise passes' <<<"$out" && grep -q '^1 passed, 0 failed' <<<"$out"
ok "run_checks: once exercises/ is edited, its PASS is the learner's finished exercise" $?
# each exercise by its own files (its build's dependency files): y's edit does not count for x, and a
# learner's commit counts as an edit against the branch the clone tracks
(cd "$t/pracE" && git checkout -q exercises/x && cp exercises/x exercises/y && : >exercises/x_step.cuh &&
  : >exercises/y_step.cuh && mkdir -p .obj/exercises/x .obj/exercises/y &&
  printf '.obj/exercises/x/x.cu.o: x.cu exercises/x_step.cuh \\\n exercises/../common.h\nexercises/x_step.cuh:\n' \
    >.obj/exercises/x/x.cu.d &&
  printf '.obj/exercises/y/y.cu.o: y.cu exercises/y_step.cuh\n' >.obj/exercises/y/y.cu.d &&
  printf '.obj/\n' >.gitignore && git add -A && git -c user.name=t -c user.email=t@t commit -qm two &&
  git branch -q upstream && git branch -q --set-upstream-to=upstream &&
  printf 'check expect=FAIL why=^exercise.not.done exercises/%s\n' x y >runs && echo '// done' >>exercises/y_step.cuh)
out=$(common/run_checks.sh check "$t/pracE/runs")
grep -q '^FAIL  pracE/exercises/x  (expected FAIL, got PASS' <<<"$out" && grep -q '^PASS  pracE/exercises/y  (your exercise passes' <<<"$out"
ok "run_checks: an exercise counts as edited by its own files alone" $?
(cd "$t/pracE" && git add -A && git -c user.name=t -c user.email=t@t commit -qm 'my y')
out=$(common/run_checks.sh check "$t/pracE/runs")
grep -q '^FAIL  pracE/exercises/x  (expected FAIL' <<<"$out" && grep -q '^PASS  pracE/exercises/y  (your exercise passes' <<<"$out"
ok "run_checks: a committed finished exercise still counts as edited (against the tracked branch)" $?

rm -f "$top/bench.log" "$top/bench.summary"
summary
