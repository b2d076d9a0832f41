#!/usr/bin/env bash
# profile.sh [PROGRAM ARGS...] -- practical 3, step 5: Nsight Compute on the three kernels, REPEAT = 10
# launches each at the default 512^3 grid (extra arguments go to every program, e.g. -nx=256).
#
# For each kernel it sums, over its 10 launches, the counters the course asks about:
#   fp32 instructions     smsp__sass_thread_inst_executed_op_fp32_pred_on   (per thread: FADD, FMUL, FFMA
#                         and other fp32 instructions, such as FSEL: a select, no flop)
#   flop_count_sp         FADD + FMUL + 2 x FFMA, the old nvprof metric the course names
#   integer instructions  smsp__sass_thread_inst_executed_op_integer_pred_on (index arithmetic; per thread)
#   DRAM bytes            dram__bytes_read + dram__bytes_write, and their rate over the kernels' time
# and divides by the grid points updated, so the kernels compare point for point.
# Ends with RESULT: PASS (each program passed under the profiler), SKIP (no ncu, no GPU, or no
# permission for the performance counters: ERR_NVGPUCTRPERM) or FAIL.
set -u
cd "$(dirname "$0")" || exit 1

ncu=$(command -v ncu || true)
for c in "${CUDA_HOME:-/nonexistent}/bin/ncu" /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
  [ -z "$ncu" ] && [ -x "$c" ] && ncu=$c
done
if [ -z "$ncu" ]; then
  echo "RESULT: SKIP (ncu (Nsight Compute) not found: install it, or put it on PATH)"
  exit 2
fi

nx=512 ny=512 nz=512 repeat=10
for a in "$@"; do
  case $a in -nx=*) nx=${a#-nx=} ;; -ny=*) ny=${a#-ny=} ;; -nz=*) nz=${a#-nz=} ;; -repeat=*) repeat=${a#-repeat=} ;; esac
done

metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,smsp__sass_thread_inst_executed_op_fp32_pred_on.sum,smsp__sass_thread_inst_executed_op_integer_pred_on.sum
metrics=$metrics,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
metrics=$metrics,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__inst_executed.sum
metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed

echo "Nsight Compute: $("$ncu" --version | tail -n 1)"
echo "grid $nx x $ny x $nz, $repeat iterations; counts summed over the launches, then per point updated"
status=PASS why=''
for prog in laplace3d laplace3d_new laplace3d_fast; do
  # --clock-control none: the GPU runs at its own clocks, as in the timed runs
  out=$("$ncu" --clock-control none --csv --print-units base --metrics "$metrics" -k regex:GPU_laplace3d \
    "./$prog" "$@" 2>&1)
  if grep -q ERR_NVGPUCTRPERM <<<"$out"; then
    echo "ncu: ERR_NVGPUCTRPERM -- this user may not read the GPU's performance counters."
    echo "  The driver restricts them to administrators by default. Either run as root (sudo make profile),"
    echo "  or have an administrator allow everyone: put 'options nvidia NVreg_RestrictProfilingToAdminUsers=0'"
    echo "  in a file in /etc/modprobe.d/ and reload the driver (or reboot); in a container, start it with"
    echo "  --cap-add=SYS_ADMIN. See https://developer.nvidia.com/ERR_NVGPUCTRPERM"
    echo "RESULT: SKIP (ERR_NVGPUCTRPERM: no permission to read the GPU performance counters)"
    exit 2
  fi
  verdict=$(grep '^RESULT: ' <<<"$out" | tail -n 1)
  case $verdict in
  "RESULT: SKIP"*)
    echo "$verdict"
    exit 2
    ;;
  "RESULT: PASS") ;;
  *)
    status=FAIL why="$prog under ncu: ${verdict:-no verdict}"
    grep -v '^"' <<<"$out" | tail -n 15 | sed -e 's/^/  | /'
    continue
    ;;
  esac
  echo "== $prog ($(grep -E '^(Block|[0-9]+x GPU)' <<<"$out" | tr '\n' ' '))"
  # CSV rows: ..."Kernel Name",...,"Metric Name","Metric Unit","Metric Value"; numbers may carry commas
  awk -F'","' -v pts="$((nx * ny * nz))" -v reps="$repeat" '
    NF >= 15 && $13 ~ /__/ {
      v = $15; gsub(/[",]/, "", v); sum[$13] += v
      if ($13 == "gpu__time_duration.sum") { n++; kernel = $5; sub(/\(.*/, "", kernel) }
      if ($13 ~ /pct_of_peak/) pct += v
    }
    END {
      if (n == 0) { print "  no kernel launches were profiled"; exit 1 }
      p = pts * reps
      t = sum["gpu__time_duration.sum"] * 1e-9
      fp = sum["smsp__sass_thread_inst_executed_op_fp32_pred_on.sum"]
      flop = sum["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"] + sum["smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"] + 2 * sum["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"]
      in_ = sum["smsp__sass_thread_inst_executed_op_integer_pred_on.sum"]
      wi = sum["smsp__inst_executed.sum"]
      rd = sum["dram__bytes_read.sum"]; wr = sum["dram__bytes_write.sum"]
      printf "  %-22s %d launches, %.3f ms in all, %.4f ms each\n", kernel, n, t * 1e3, t * 1e3 / n
      printf "  %-22s %15.0f  %7.2f a point\n", "fp32 instructions", fp, fp / p
      printf "  %-22s %15.0f  %7.2f a point\n", "flop_count_sp", flop, flop / p
      printf "  %-22s %15.0f  %7.2f a point\n", "integer instructions", in_, in_ / p
      printf "  %-22s %15.0f  %7.3f a point (warp instructions)\n", "all instructions", wi, wi / p
      printf "  %-22s %15.0f  %7.2f bytes a point (read %.2f, write %.2f)\n", "DRAM bytes", rd + wr, (rd + wr) / p, rd / p, wr / p
      printf "  %-22s %9.1f GB/s  (dram__throughput %.1f%% of peak)\n", "achieved DRAM", (rd + wr) / t / 1e9, pct / n
    }' <<<"$out" || { status=FAIL why="no ncu metrics for $prog"; grep -v '^"' <<<"$out" | tail -n 15 | sed -e 's/^/  | /'; }
done
if [ "$status" = PASS ]; then
  echo "RESULT: PASS"
  exit 0
fi
echo "RESULT: FAIL ($why)"
exit 1
