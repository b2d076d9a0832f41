#!/usr/bin/env bash
# bench.sh -- practical 2's benchmark: the full course problem (9.6 M paths x 100 steps) in every variant,
# one after the other on the same GPU, then the ratios the handout asks about:
#   host-API XORWOW + version 1 (coalesced)   prac2 -version=1
#   host-API XORWOW + version 2 (strided)     prac2 -version=2
#   device-API XORWOW (RNG_init + pathcalc)   prac2_device
#   device-API Philox, generated in-kernel    prac2_device -philox
# Each program checks its own result against its gold first; the verdict is PASS when all four pass. The
# goal (Philox at least 5x faster end to end than host-API XORWOW + version 1) is reported, not judged.
set -u
cd "$(dirname "$0")" || exit 1

nskip=0 nfail=0
declare -A total kernel
run() { # variant program args...
  local variant=$1 out rc bench
  shift
  out=$("$@" -bench 2>&1)
  rc=$?
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

run host_v1 ./prac2 -npath=9600000 -version=1 -goldpaths=300000
run host_v2 ./prac2 -npath=9600000 -version=2 -goldpaths=300000
run device_xorwow ./prac2_device
run device_philox ./prac2_device -philox

if [ $nfail -gt 0 ]; then
  echo "RESULT: FAIL ($nfail of 4 variants failed)"
  exit 1
fi
if [ $nskip -gt 0 ]; then
  echo "RESULT: SKIP ($nskip of 4 variants skipped)"
  exit 2
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
speedup=$(ratio "${total[host_v1]}" "${total[device_philox]}")
strided=$(ratio "${kernel[host_v2]}" "${kernel[host_v1]}")
goal=$(awk -v s="$speedup" 'BEGIN { print (s >= 5.0) ? "met" : "missed" }')
echo "end to end (RNG included): host XORWOW + v1 ${total[host_v1]} ms, host XORWOW + v2 ${total[host_v2]} ms," \
  "device XORWOW ${total[device_xorwow]} ms, device Philox ${total[device_philox]} ms"
echo "device Philox is ${speedup}x faster than host XORWOW + version 1 (goal 5x: $goal);" \
  "pathcalc strided / coalesced = ${strided}"
echo "BENCH prac=2 prog=prac2_ratios n=9600000x100 reps=1 ms=${total[device_philox]}" \
  "ms_host_v1=${total[host_v1]} ms_host_v2=${total[host_v2]} ms_device_xorwow=${total[device_xorwow]}" \
  "speedup_philox_over_host_v1=${speedup} strided_over_coalesced=${strided} goal_5x=${goal}"
echo "RESULT: PASS"
