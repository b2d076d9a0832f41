#!/usr/bin/env bash
# run_tests.sh PRACDIR... -- `make test`, the command CI runs. Five stages, each closing with its own
# counts, then one line that adds them up:
#   1. the CPU tests in tests/ (gold routines, comparison, argument parsing); docs/img against docs/diagrams.py
#   2. a build of every practical for every compute capability a learner may have (TEST_SMS, default
#      "75 80 86 89 90": machine code for each, PTX for 9.0), and its compiler logs: no warnings, no
#      unexpected register spills for any of them -- so a kernel that does not compile or spills on a T4
#      fails here, on a machine without a GPU
#   3. bad input to every program: one clear line and exit 1 (no GPU needed)
#   4. every program's -help: exit 0, its usage line, then the practical, workbook step(s) and course step(s)
#      it serves (COURSE_STEPS, common/args.h), so a learner with the course handout finds it (no GPU needed)
#   5. make check: every program against its gold (each SKIPs where there is no GPU)
set -u
cd "$(dirname "$0")/.."
. common/stages.sh

TEST_SMS=${TEST_SMS:-75 80 86 89 90}
build_all() {
  local rc=0 out
  echo "building for SMS=\"$TEST_SMS\""
  for p in "$@"; do
    if ! out=$(make --no-print-directory -C "$p" -j "$(nproc)" SMS="$TEST_SMS" all 2>&1); then
      printf '%s\n' "$out" | tail -n 40
      echo "FAIL  build $p"
      rc=1
    fi
  done
  common/check_build.sh "$@" || rc=1
  return $rc
}

stage "CPU tests" make --no-print-directory -C tests
stage "CPU tests: docs/img/*.svg as docs/diagrams.py draws them" python3 docs/diagrams.py --check
stage "build: warnings and spills" build_all "$@"
stage "bad input" common/run_checks.sh bad $(printf '%s/runs ' "$@")
stage "help texts: workbook and course steps" common/run_checks.sh help $(printf '%s/runs ' "$@")
stage "make check" common/run_checks.sh check $(printf '%s/runs ' "$@")

stages_end "make test: all stages"
