#!/usr/bin/env bash
# bench_results.sh RUNSFILE... -- `make bench`: run the bench lines, then write their BENCH lines as
# docs/results_<gpu>.csv (this GPU's file alone is replaced) and docs/results.md from every GPU's CSV and
# `make doctor`'s report (common/results.py). The page is replaced only when the run produced at least
# one BENCH line and no run failed; otherwise it says why and keeps the published page (a machine
# without a GPU, where every run SKIPs, must never overwrite the measured tables with a list of skips).
# Environment: RESULTS=FILE writes somewhere else than docs/results.md, the CSVs and figures in its folder
# (the tests use it); DOCTOR=COMMAND runs that instead of common/doctor.sh (the tests' stand-in GPUs).
set -u
cd "$(dirname "$0")/.."
results=${RESULTS:-docs/results.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

${DOCTOR:-common/doctor.sh} >"$work/doctor.log" 2>&1 || true
LOG=$work/bench.log common/run_checks.sh bench "$@" | tee "$work/summary"
status=${PIPESTATUS[0]}
cp "$work/bench.log" bench.log 2>/dev/null || : >bench.log
cp "$work/summary" bench.summary

nbench=$(grep -c '^BENCH ' "$work/bench.log" 2>/dev/null)
nbench=${nbench:-0}
if [ "$status" != 0 ]; then
  echo "$results not written: a bench run failed (see bench.log); the published page is kept"
  exit "$status"
fi
if [ "$nbench" = 0 ]; then
  echo "$results not written: no run printed a BENCH line (no GPU?); the published page is kept"
  exit 0
fi
if RESULTS=$results python3 common/results.py "$work/doctor.log" "$work/bench.log" >"$work/results.md"; then
  mv "$work/results.md" "$results"
  echo "wrote $results ($nbench BENCH lines)"
else
  echo "$results not written: common/results.py failed; the published page is kept"
  exit 1
fi
