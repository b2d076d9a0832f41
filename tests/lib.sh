# tests/lib.sh -- what the shell tests share: a scratch folder $t (removed on exit), ok NAME STATUS (one
# PASS/FAIL line, counted) and summary (the closing "N passed, N failed", and the exit code). Sourced.
passed=0 failed=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

ok() { # name condition-result
  if [ "$2" = 0 ]; then
    echo "PASS  $1"
    passed=$((passed + 1))
  else
    echo "FAIL  $1"
    failed=$((failed + 1))
  fi
}

summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
