#!/usr/bin/env bash
# timeline.sh [PROGRAM ARGS...] -- practical 3: Nsight Systems' timeline of laplace3d and laplace3d_new
# (the copies, the 10 kernel launches, the gap while the CPU runs gold), summarised as tables.
# The reports (.nsys-rep) are left in /tmp for the Nsight Systems GUI. Ends with RESULT: PASS, SKIP
# (no nsys, no GPU, or nsys cannot trace on this machine) or FAIL.
set -u
cd "$(dirname "$0")" || exit 1

nsys=$(command -v nsys || true)
for c in "${CUDA_HOME:-/nonexistent}/bin/nsys" /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys; do
  [ -z "$nsys" ] && [ -x "$c" ] && nsys=$c
done
if [ -z "$nsys" ]; then
  echo "RESULT: SKIP (nsys (Nsight Systems) not found: install it, or put it on PATH)"
  exit 2
fi

for prog in laplace3d laplace3d_new; do
  rep=/tmp/prac3_${prog}_timeline
  out=$("$nsys" profile --trace=cuda --force-overwrite=true -o "$rep" "./$prog" "$@" 2>&1)
  rc=$?
  verdict=$(grep '^RESULT: ' <<<"$out" | tail -n 1)
  case $verdict in "RESULT: SKIP"*)
    echo "$verdict"
    exit 2
    ;;
  esac
  if [ ! -f "$rep.nsys-rep" ]; then
    # the program may have run, but nsys made no report: a tracing restriction of this machine
    grep -v '^RESULT' <<<"$out" | tail -n 8 | sed -e 's/^/  | /'
    echo "RESULT: SKIP (nsys ran $prog (exit $rc) but wrote no report: it cannot trace on this machine)"
    exit 2
  fi
  if [ "$verdict" != "RESULT: PASS" ]; then
    echo "RESULT: FAIL ($prog under nsys: ${verdict:-no verdict})"
    exit 1
  fi
  echo "== $prog: $rep.nsys-rep"
  "$nsys" stats --force-export=true --report cuda_gpu_kern_sum,cuda_gpu_mem_time_sum,cuda_api_sum \
    --format table "$rep.nsys-rep" 2>&1 | grep -v '^Generating\|^Processing\|^$' | cut -c1-160
done
echo "RESULT: PASS"
