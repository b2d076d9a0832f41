#!/usr/bin/env bash
# doctor.sh -- `make doctor`: what this machine offers the workbook. Toolkit, driver, host compiler,
# the GPU (through prac1/device_info), and whether the profiler may read the hardware counters.
# Prints facts; "missing" lines say what to install. Exit code 0 unless the toolkit itself is missing.
set -u
cd "$(dirname "$0")/.."

say() { printf '%-24s %s\n' "$1" "$2"; }

nvcc_bin=$(command -v nvcc || true)
[ -z "$nvcc_bin" ] && [ -n "${CUDA_HOME:-}" ] && nvcc_bin=$CUDA_HOME/bin/nvcc
[ -z "$nvcc_bin" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc_bin=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc_bin" ] || [ ! -x "$nvcc_bin" ]; then
  say "CUDA toolkit" "missing: no nvcc on PATH, in CUDA_HOME or in /usr/local/cuda"
  exit 1
fi
say "CUDA toolkit" "$(dirname "$(dirname "$nvcc_bin")")"
say "nvcc" "$("$nvcc_bin" --version | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/\1 (\2)/p')"
say "host compiler" "$(${HOST_COMPILER:-g++} --version | head -n 1)"
say "gold compiler" "$(gcc --version | head -n 1)"
for tool in ncu nsys compute-sanitizer cuobjdump; do
  path=$(command -v $tool || true)
  [ -z "$path" ] && [ -x "$(dirname "$nvcc_bin")/$tool" ] && path=$(dirname "$nvcc_bin")/$tool
  say "$tool" "${path:-missing}"
done

# the optional libraries: without one, the programs that need it are left out, with a line saying why
if make --no-print-directory -s -C prac3 print-progs 2>/dev/null | tr ' ' '\n' | grep -qx laplace3d_mgpu; then
  say "NCCL" "found (prac3 builds laplace3d_mgpu)"
else
  say "NCCL" "missing: prac3 leaves out laplace3d_mgpu (step 11); install libnccl-dev, or set NCCL_HOME"
fi
mpicc_bin=$(command -v mpicc || true)
say "MPI (mpicc)" "${mpicc_bin:-missing: prac3 leaves out laplace3d_mgpu_mpi; install Open MPI (libopenmpi-dev)}"
if echo 'int main(void){return 0;}' | gcc -fopenmp -x c - -o /dev/null 2>/dev/null; then
  say "OpenMP (gcc)" "found: the gold routines run on every core"
else
  say "OpenMP (gcc)" "missing: the gold routines run on one core (slower checks, same results)"
fi
[ -n "${WORKBOOK_GPU_PROFILE:-}" ] && say "GPU profile" "WORKBOOK_GPU_PROFILE=$WORKBOOK_GPU_PROFILE: programs act as on that GPU"
[ -n "${WORKBOOK_DEVICE_MEM_MIB:-}" ] && say "memory cap" "WORKBOOK_DEVICE_MEM_MIB=$WORKBOOK_DEVICE_MEM_MIB MiB"

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >/dev/null 2>&1; then
  say "driver" "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)"
  nvidia-smi --query-gpu=index,name,compute_cap,memory.total --format=csv,noheader | while read -r line; do
    say "GPU" "$line"
  done
else
  say "driver" "no GPU found (nvidia-smi missing or failing): programs will SKIP, builds target sm_90"
fi
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -dc 0-9)
say "ARCH (default)" "sm_${arch:-90}"

echo
make --no-print-directory -s -C prac1 device_info >/dev/null 2>&1 || { echo "could not build prac1/device_info"; exit 1; }
(cd prac1 && ./device_info) | sed -e '/^RESULT: PASS$/d'

echo
params=/proc/driver/nvidia/params
admin_only=$(sed -n 's/^RmProfilingAdminOnly: *//p' "$params" 2>/dev/null)
ncu_bin=$(command -v ncu || true)
[ -z "$ncu_bin" ] && [ -x "$(dirname "$nvcc_bin")/ncu" ] && ncu_bin=$(dirname "$nvcc_bin")/ncu
if [ -n "$ncu_bin" ] && nvidia-smi >/dev/null 2>&1; then
  make --no-print-directory -s -C prac1 prac1b >/dev/null 2>&1
  out=$(cd prac1 && timeout 120 "$ncu_bin" --clock-control none --metrics sm__cycles_elapsed.max ./prac1b 2>&1)
  if grep -q ERR_NVGPUCTRPERM <<<"$out"; then
    say "profiler counters" "NOT permitted (ERR_NVGPUCTRPERM): see docs/troubleshooting.md"
  elif grep -q 'sm__cycles_elapsed.max' <<<"$out"; then
    say "profiler counters" "permitted (ncu read sm__cycles_elapsed on prac1b)"
  else
    say "profiler counters" "unknown: ncu printed no metric ($(grep -m1 -i 'error' <<<"$out"))"
  fi
elif [ "$admin_only" = 1 ] && [ "$(id -u)" != 0 ]; then
  say "profiler counters" "admin only (RmProfilingAdminOnly=1) and you are not root: see docs/troubleshooting.md"
else
  say "profiler counters" "not tested (${ncu_bin:+no GPU}${ncu_bin:-ncu missing})"
fi
exit 0
