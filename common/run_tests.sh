#!/usr/bin/env bash
# run_tests.sh PRACDIR... -- `make test`, the command CI runs. Four stages, each closing with its own
# counts, then one line that adds them up:
#   1. the CPU tests in tests/ (gold routines, comparison, argument parsing)
#   2. a build of every practical for every compute capability a learner may have (TEST_SMS, default
#      "75 80 86 89 90": machine code for each, PTX for 9.0), and its compiler logs: no warnings, no
#      unexpected register spills for any of them -- so a kernel that does not compile or spills on a T4
#      fails here, on a machine without a GPU
#   3. bad input to every program: one clear line and exit 1 (no GPU needed)
#   4. make check: every program against its gold (each SKIPs where there is no GPU)
set -u
cd "$(dirname "$0")/.."
total_p=0 total_f=0 total_s=0

count() { # add up the last "N passed, N failed[, N skipped]" line of the stage's output
  local line p f s
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
  if [ -z "$line" ]; then
    echo "FAIL  stage '$2' printed no summary"
    total_f=$((total_f + 1))
    return
  fi
  p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
  f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
  s=$(sed -nE 's/.*, ([0-9]+) skipped.*/\1/p' <<<"$line")
  total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + ${s:-0}))
  [ "$3" != 0 ] && [ "$f" = 0 ] && total_f=$((total_f + 1)) && echo "FAIL  stage '$2' exited $3"
}

stage() { # name command...
  local name=$1 log rc
  shift
  log=$(mktemp)
  echo "=== $name"
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  count "$log" "$name" "$rc"
  rm -f "$log"
}

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
stage "build: warnings and spills" build_all "$@"
stage "bad input" common/run_checks.sh bad $(printf '%s/runs ' "$@")
stage "make check" common/run_checks.sh check $(printf '%s/runs ' "$@")

echo "=== make test: all stages"
echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" = 0 ]
