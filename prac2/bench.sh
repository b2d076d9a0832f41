#!/usr/bin/env bash
# bench.sh -- practical 2's benchmark: the course problem (9.6 M paths x 100 steps) in every variant, one
# after the other on the same GPU, then the ratios the handout asks about:
#   host-API XORWOW + version 1 (coalesced)          prac2 -version=1            (the course's host call)
#   host-API XORWOW + version 2 (strided)            prac2 -version=2
#   host-API Philox, ordering PSEUDO_DYNAMIC + v1    prac2 -version=1 -philox    (the host API's fastest call)
#   device-API XORWOW (RNG_init + pathcalc)          prac2_device
#   device-API Philox, generated in-kernel           prac2_device -philox
# Each program checks its own result against its gold first (and the output of its last timed run after
# timing); the verdict is PASS when all five pass. The device API's speed-up is stated against the faster
# host call, end to end (RNG and kernel), and against the course's host call (XORWOW + version 1).
#
#   ./bench.sh                  the course's 9.6 M paths: the host API keeps 7.2 GiB of normals on the GPU
#   ./bench.sh -npath=4000000   a smaller problem for all five (3.0 GiB of normals: a 4 or 6 GB card); the
#                               ratios are then for that size (RNG_init's cost does not shrink with the paths)
# `make bench` runs it at PRAC2_NPATH paths when that is set (PRAC2_NPATH=4000000 make bench).
set -u
cd "$(dirname "$0")" || exit 1

npath=${PRAC2_NPATH:-9600000}
for arg in "$@"; do
  case $arg in
  -npath=*) npath=${arg#-npath=} ;;
  -help | --help)
    echo "usage: ./bench.sh [-npath=N]   (N paths of 100 steps in all five variants; default 9600000, the course's)"
    exit 0
    ;;
  *)
    echo "RESULT: FAIL (bad input: unknown argument '$arg'; usage: ./bench.sh [-npath=N])"
    exit 1
    ;;
  esac
done
if ! [[ $npath =~ ^[1-9][0-9]{0,8}$ ]]; then
  echo "RESULT: FAIL (bad input: -npath=$npath: a number of paths from 1 to 999999999)"
  exit 1
fi

nskip=0 nfail=0 nrun=0 toobig=0
declare -A total kernel
run() { # variant program args...
  local variant=$1 out rc bench
  shift
  out=$("$@" -bench 2>&1)
  rc=$?
  nrun=$((nrun + 1))
  [[ $out == *"device memory for"* ]] && toobig=1
  printf '%s\n' "$out"
  case $rc in
  0) ;;
  2) nskip=$((nskip + 1)) ;;
  *) nfail=$((nfail + 1)) ;;
  esac
  bench=$(printf '%s\n' "$out" | grep '^BENCH ' | tail -n 1)
  total[$variant]=$(printf '%s\n' "$bench" | sed -n 's/.* ms_total=\([0-9.]*\).*/\1/p')
  kernel[$variant]=$(printf '%s\n' "$bench" | sed -n 's/.* ms=\([0-9.]*\).*/\1/p')
}

run host_xorwow_v1 ./prac2 -npath="$npath" -version=1 -goldpaths=300000
run host_xorwow_v2 ./prac2 -npath="$npath" -version=2 -goldpaths=300000
run host_philox_dynamic_v1 ./prac2 -npath="$npath" -version=1 -philox -goldpaths=300000
run device_xorwow ./prac2_device -npath="$npath"
run device_philox ./prac2_device -npath="$npath" -philox

if [ $toobig = 1 ]; then
  echo "the host API's 2 x 100 x $npath normals do not fit this GPU's memory: try a smaller -npath" \
    "(./bench.sh -npath=4000000 needs about 3.1 GiB)"
fi
if [ $nfail -gt 0 ]; then
  echo "RESULT: FAIL ($nfail of $nrun variants failed)"
  exit 1
fi
if [ $nskip -gt 0 ]; then
  echo "RESULT: SKIP ($nskip of $nrun variants skipped)"
  exit 2
fi
for v in "${!total[@]}"; do
  if [ -z "${total[$v]}" ]; then
    echo "RESULT: FAIL ($v passed but printed no BENCH line with ms_total)"
    exit 1
  fi
done

fastest() { # variant... : the one with the smallest end-to-end time
  local best=$1 v
  for v in "$@"; do
    awk -v a="${total[$v]}" -v b="${total[$best]}" 'BEGIN { exit !(a < b) }' && best=$v
  done
  echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
best_host=$(fastest host_xorwow_v1 host_xorwow_v2 host_philox_dynamic_v1)
best_device=$(fastest device_xorwow device_philox)
speedup=$(ratio "${total[$best_host]}" "${total[$best_device]}")
speedup_course=$(ratio "${total[host_xorwow_v1]}" "${total[$best_device]}")
strided=$(ratio "${kernel[host_xorwow_v2]}" "${kernel[host_xorwow_v1]}")
echo "end to end (RNG included): host XORWOW + v1 ${total[host_xorwow_v1]} ms, host XORWOW + v2" \
  "${total[host_xorwow_v2]} ms, host Philox (dynamic ordering) + v1 ${total[host_philox_dynamic_v1]} ms," \
  "device XORWOW ${total[device_xorwow]} ms, device Philox ${total[device_philox]} ms"
echo "the faster device call ($best_device) is ${speedup}x faster than the faster host call ($best_host)" \
  "and ${speedup_course}x faster than the course's host call (XORWOW + version 1);" \
  "pathcalc strided / coalesced = ${strided}"
echo "BENCH prac=2 prog=prac2_ratios n=${npath}x100 reps=1 ms=${total[$best_device]}" \
  "best_host=$best_host best_device=$best_device ms_best_host=${total[$best_host]}" \
  "ms_host_xorwow_v1=${total[host_xorwow_v1]} ms_host_xorwow_v2=${total[host_xorwow_v2]}" \
  "ms_host_philox_dynamic_v1=${total[host_philox_dynamic_v1]} ms_device_xorwow=${total[device_xorwow]}" \
  "ms_device_philox=${total[device_philox]} speedup_device_over_best_host=${speedup}" \
  "speedup_device_over_host_xorwow_v1=${speedup_course} strided_over_coalesced=${strided}"
echo "RESULT: PASS"
