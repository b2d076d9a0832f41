#!/usr/bin/env bash
# test_torch_peer.sh -- CPU tests of prac6/torch_peer.py's paths that need no GPU: its SKIP lines (no PyTorch;
# PyTorch without a GPU), REQUIRE_GPU, bad input and -help, and its runs lines through common/run_checks.sh.
# A stand-in `torch` package on PYTHONPATH hides any real one, so the results are the same on any machine.
# Closes with "N passed, N failed".
set -u
unset REQUIRE_GPU # make test REQUIRE_GPU=1 exports it: each test below sets it where it means to
cd "$(dirname "$0")/.."
top=$PWD
. tests/lib.sh # $t, ok, summary

peer() { (cd "$t/pracX" && PYTHONPATH="$1" REQUIRE_GPU="${REQUIRE_GPU:-}" python3 torch_peer.py "${@:2}" 2>&1); }

mkdir -p "$t/pracX" "$t/broken/torch" "$t/nogpu/torch" "$t/loud/torch"
cp prac6/torch_peer.py "$t/pracX/"
# no PyTorch: an import that fails as a missing or broken install does
echo 'raise ImportError("stand-in: no PyTorch here")' >"$t/broken/torch/__init__.py"
# PyTorch built without CUDA, or with no GPU to see
printf '__version__ = "0.0-standin"\nclass cuda:\n    is_available = staticmethod(lambda: False)\n' \
  >"$t/nogpu/torch/__init__.py"
# a PyTorch that announces its import: bad input must be rejected before it
echo 'print("torch was imported")' >"$t/loud/torch/__init__.py"

# 1. no PyTorch: one SKIP line that says so, exit 2
out=$(peer "$t/broken")
rc=$?
[ $rc = 2 ] && [ "$out" = "RESULT: SKIP (PyTorch is not installed: import torch failed: stand-in: no PyTorch here)" ]
ok "torch_peer: no PyTorch is one SKIP line, exit 2" $?

# 2. PyTorch without a GPU: one SKIP line naming it as having no CUDA device (run_checks.sh reads that prefix)
out=$(peer "$t/nogpu" -small)
rc=$?
[ $rc = 2 ] && [[ $out == "RESULT: SKIP (no CUDA device: torch.cuda.is_available() is false (PyTorch 0.0-standin))" ]]
ok "torch_peer: PyTorch without a GPU is one SKIP line (no CUDA device), exit 2" $?

# 3. REQUIRE_GPU=1 turns the SKIP into a FAIL, as for the C programs
out=$(REQUIRE_GPU=1 peer "$t/nogpu")
rc=$?
[ $rc = 1 ] && [[ $out == "RESULT: FAIL (REQUIRE_GPU is set, and this run would have skipped: no CUDA device: "* ]]
ok "torch_peer: REQUIRE_GPU=1 makes the SKIP a FAIL, exit 1" $?

# 4. bad input: one line, exit 1, before PyTorch is imported; -help: usage and the COURSE_STEPS-style line
out=$(peer "$t/loud" -small -frobnicate=1)
rc=$?
[ $rc = 1 ] && [ "$out" = "RESULT: FAIL (bad input: -frobnicate=1: unknown option (-help lists the options))" ]
ok "torch_peer: bad input is one FAIL line, exit 1, PyTorch not imported" $?
out=$(peer "$t/loud" -help)
rc=$?
[ $rc = 0 ] && [[ $(sed -n 1p <<<"$out") == "usage: "* ]] && [[ $(sed -n 2p <<<"$out") == "practical 6, workbook step"* ]] &&
  [ "$(wc -l <<<"$out")" = 2 ]
ok "torch_peer: -help prints usage and its steps line, exit 0" $?

# 5. prac6/runs' lines for it, through run_checks.sh: a command of its own as PROGRAM, run in the practical
grep -E '^(check|bench|bad) .*python3 torch_peer\.py' prac6/runs >"$t/pracX/runs"
[ "$(grep -c . "$t/pracX/runs")" = 3 ]
ok "prac6/runs: a check, a bench and a bad line run torch_peer.py" $?
out=$(export PYTHONPATH=$t/nogpu && "$top/common/run_checks.sh" check "$t/pracX/runs" &&
  "$top/common/run_checks.sh" bench "$t/pracX/runs" && "$top/common/run_checks.sh" bad "$t/pracX/runs")
grep -q '^SKIP  pracX/python3 torch_peer.py -small  (no CUDA device: ' <<<"$out" &&
  grep -q '^SKIP  pracX/python3 torch_peer.py  (no CUDA device: ' <<<"$out" &&
  grep -q '^PASS  pracX/python3 torch_peer.py -frobnicate=1  (rejected: ' <<<"$out" && ! grep -q '^FAIL' <<<"$out"
ok "run_checks: torch_peer.py's lines SKIP without a GPU, its bad line PASSes" $?

summary
