#!/usr/bin/env bash
# nsys_lib.sh -- sourced by a practical's timeline.sh (make timeline): Nsight Systems found, a program profiled
# and its report summarised as tables, with the workbook's verdicts (PASS, SKIP: no nsys, no GPU or no tracing
# here, FAIL). Each function exits the calling script on a SKIP (2) or a FAIL (1).

# nsys_find [WHAT_INSTEAD]: sets $nsys, from PATH, CUDA_HOME or the usual install folders; else the SKIP line, with
# what the practical offers instead, and exit 2
nsys_find() {
  nsys=$(command -v nsys || true)
  for c in "${CUDA_HOME:-/nonexistent}/bin/nsys" /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys; do
    [ -z "$nsys" ] && [ -x "$c" ] && nsys=$c
  done
  if [ -z "$nsys" ]; then
    echo "RESULT: SKIP (Nsight Systems (nsys) is not installed${1:+: $1})"
    exit 2
  fi
}

# nsys_profile REPORT TABLES PROG [ARGS...]: ./PROG ARGS under nsys into REPORT.nsys-rep, then nsys stats' TABLES
# (comma-separated report names); the program's own verdict decides: a SKIP ends the script with it, a FAIL too
nsys_profile() {
  local rep=$1 tables=$2 prog=$3 out rc verdict
  shift 3
  if [ ! -x "./$prog" ]; then
    echo "RESULT: FAIL (./$prog is not built: run make first)"
    exit 1
  fi
  rm -f "$rep.nsys-rep" # so that a report found below is this run's
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
  "$nsys" stats --force-export=true --report "$tables" --format table "$rep.nsys-rep" 2>&1 |
    grep -v '^Generating\|^Processing\|^$' | cut -c1-160
}
