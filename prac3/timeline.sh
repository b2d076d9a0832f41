#!/usr/bin/env bash
# timeline.sh [PROGRAM ARGS...] -- practical 3: Nsight Systems' timeline of laplace3d and laplace3d_new
# (the copies, the 10 kernel launches, the gap while the CPU runs gold), summarised as tables.
# The reports (.nsys-rep) are left in /tmp for the Nsight Systems GUI. Ends with RESULT: PASS, SKIP
# (no nsys, no GPU, or nsys cannot trace on this machine) or FAIL (../common/nsys_lib.sh).
set -u
cd "$(dirname "$0")" || exit 1
. ../common/nsys_lib.sh
nsys_find "install it, or put it on PATH"
for prog in laplace3d laplace3d_new; do
  nsys_profile "/tmp/prac3_${prog}_timeline" cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_api_sum "$prog" "$@"
done
echo "RESULT: PASS"
