# stages.sh -- sourced by run_tests.sh (make test) and check_matrix.sh (make check-arch, check-profiles): run
# commands as stages, each ending with its own "N passed, N failed[, N skipped]" line, and add them up.
#   stage NAME COMMAND...   runs COMMAND, shows its output, adds its last summary line to the totals; a stage
#                           with no summary, or one that exits non-zero with 0 failed, counts as one failure
#   stages_end TITLE        prints "=== TITLE", then the totals; returns 0 only when nothing failed
total_p=0 total_f=0 total_s=0

stage_count() { # the stage's log, its name, its exit code
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
  stage_count "$log" "$name" "$rc"
  rm -f "$log"
}

stages_end() {
  echo "=== $1"
  echo "$total_p passed, $total_f failed, $total_s skipped"
  [ "$total_f" = 0 ]
}
