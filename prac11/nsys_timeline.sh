#!/usr/bin/env bash
# nsys_timeline.sh -- practical 11, step 5: Nsight Systems' timelines of stream_legacy, stream_per_thread and
# pipeline at their defaults (the kernels of the 8 streams one after another or at once; the pipeline's copies
# and kernels, chunk by chunk), each summarised as tables. The reports (.nsys-rep) are left in .obj/ (make clean
# removes them) for the Nsight Systems GUI. Where nsys is not installed, a SKIP: the programs' own -timeline=FILE
# CSVs, drawn by timeline.py, show the same intervals from their events. Ends with RESULT: PASS, SKIP (no nsys, no
# GPU, or nsys cannot trace on this machine) or FAIL.
set -u
cd "$(dirname "$0")" || exit 1
if [ $# -gt 0 ]; then
  echo "RESULT: FAIL (bad input: nsys_timeline.sh takes no arguments; it runs each program at its defaults)"
  exit 1
fi

nsys=$(command -v nsys || true)
for c in "${CUDA_HOME:-/nonexistent}/bin/nsys" /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys; do
  [ -z "$nsys" ] && [ -x "$c" ] && nsys=$c
done
if [ -z "$nsys" ]; then
  echo "RESULT: SKIP (Nsight Systems (nsys) is not installed: python3 timeline.py draws the programs' own" \
    "timelines instead)"
  exit 2
fi

mkdir -p .obj
reports=()
for prog in stream_legacy stream_per_thread pipeline; do
  if [ ! -x "./$prog" ]; then
    echo "RESULT: FAIL (./$prog is not built: run make first)"
    exit 1
  fi
  rep=.obj/nsys_$prog
  rm -f "$rep.nsys-rep" # so that a report found below is this run's
  out=$("$nsys" profile --trace=cuda --force-overwrite=true -o "$rep" "./$prog" 2>&1)
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
  "$nsys" stats --force-export=true --report cuda_gpu_kern_sum,cuda_gpu_mem_time_sum \
    --format table "$rep.nsys-rep" 2>&1 | grep -v '^Generating\|^Processing\|^$' | cut -c1-160
  reports+=("$rep.nsys-rep")
done
echo "reports, in prac11/: ${reports[*]} (open them in the Nsight Systems GUI, nsys-ui)"
echo "RESULT: PASS"
