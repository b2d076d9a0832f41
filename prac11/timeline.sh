#!/usr/bin/env bash
# timeline.sh -- practical 11, step 5 (make timeline): Nsight Systems' timelines of stream_legacy, stream_per_thread
# and pipeline at their defaults (the kernels of the 8 streams one after another or at once; the pipeline's copies
# and kernels, chunk by chunk), each summarised as tables. The reports (.nsys-rep) are left in .obj/ (make clean
# removes them) for the Nsight Systems GUI. Where nsys is not installed, a SKIP: the programs' own -timeline=FILE
# CSVs, drawn by timeline.py, show the same intervals from their events. Ends with RESULT: PASS, SKIP (no nsys, no
# GPU, or nsys cannot trace on this machine) or FAIL (../common/nsys_lib.sh).
set -u
cd "$(dirname "$0")" || exit 1
if [ $# -gt 0 ]; then
  echo "RESULT: FAIL (bad input: timeline.sh takes no arguments; it runs each program at its defaults)"
  exit 1
fi
. ../common/nsys_lib.sh
nsys_find "python3 timeline.py draws the programs' own timelines instead"
mkdir -p .obj
for prog in stream_legacy stream_per_thread pipeline; do
  nsys_profile ".obj/nsys_$prog" cuda_gpu_kern_sum,cuda_gpu_mem_time_sum "$prog"
done
echo "reports, in prac11/: .obj/nsys_stream_legacy.nsys-rep .obj/nsys_stream_per_thread.nsys-rep" \
  ".obj/nsys_pipeline.nsys-rep (open them in the Nsight Systems GUI, nsys-ui)"
echo "RESULT: PASS"
