#!/usr/bin/env bash
# check_matrix.sh arch "75 80 86 89" | profiles "t4 rtx3060 ..." -- `make check` again and again, as the
# GPUs a learner may have would run it, on the one GPU here. Each stage ends with its own counts; the last
# line adds them up ("N passed, N failed, N skipped"), and the exit code is 0 only when nothing failed.
#
#   arch      for each compute capability: a clean build of PTX alone for it (make PTX_ONLY=1 SMS=75), then
#             every check line. The driver compiles the PTX for the GPU here, so an H100 runs the very code
#             a T4 build holds: a kernel or a host decision that needs a newer GPU than the build targets
#             fails here. The JIT cache is made big enough to hold every program's kernels, so that each is
#             compiled once.
#   profiles  for each GPU profile (common/gpu_limits.h): every check line with WORKBOOK_GPU_PROFILE set,
#             so that every program configures itself for that GPU's limits and, where the driver allows,
#             runs on that many SMs (a green context).
# Further words name the practicals (default: every pracN with a Makefile); LOG=FILE keeps every run's output.
set -u
cd "$(dirname "$0")/.."
mode=${1:?usage: check_matrix.sh arch|profiles LIST}
list=${2:?usage: check_matrix.sh arch|profiles LIST}
shift 2
pracs=${*:-$(ls -d prac[0-9]*/Makefile 2>/dev/null | xargs -n1 dirname | sort -V | tr '\n' ' ')}
runs=$(for p in $pracs; do printf '%s/runs ' "$p"; done)
. common/stages.sh

case $mode in
arch)
  export CUDA_CACHE_MAXSIZE=4294967296
  for sm in $list; do
    case $sm in 75 | 80 | 86 | 87 | 89 | 90 | 100 | 103 | 120 | 121) ;; *)
      echo "check_matrix.sh: SMS=$sm is not a compute capability CUDA 13 builds for (75, 80, 86, 89, 90, ...)"
      exit 1 ;;
    esac
    echo "=== a clean build of PTX for compute capability $sm alone (make PTX_ONLY=1 SMS=$sm)"
    for p in $pracs; do make --no-print-directory -s -C "$p" clean >/dev/null; done
    for p in $pracs; do
      if ! out=$(make --no-print-directory -C "$p" -j "$(nproc)" PTX_ONLY=1 SMS="$sm" all 2>&1); then
        printf '%s\n' "$out" | tail -n 30
        echo "FAIL  build $p for compute_$sm"
        total_f=$((total_f + 1))
      fi
    done
    stage "make check, PTX for $sm compiled by the driver" common/run_checks.sh check $runs
  done
  echo "(the practicals are now built as PTX for compute capability ${sm}: make clean && make rebuilds them for this GPU)"
  ;;
profiles)
  for p in $list; do
    stage "make check under WORKBOOK_GPU_PROFILE=$p" env WORKBOOK_GPU_PROFILE="$p" common/run_checks.sh check $runs
  done
  ;;
*)
  echo "check_matrix.sh: the first word is arch or profiles, not '$mode'"
  exit 1
  ;;
esac
stages_end "all stages"
