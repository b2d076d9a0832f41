#!/usr/bin/env bash
# default_runs.sh [PRACDIR...] -- `make defaults`: every program run as a learner first runs it, with no
# arguments (a tool that needs one, prac10's tune, with step 2's example config: first_args below), in a GPU
# of WORKBOOK_DEVICE_MEM_MIB MiB (default 4096), and the peak device memory each one used.
# A default run must PASS there: a SKIP for any reason but having no GPU is a FAIL, since the promise is
# that every default run fits in 4 GiB. The peak is sampled by the program itself (gpu_profile.h,
# WORKBOOK_PEAK_MEM): every allocation after the CUDA context was made, library workspaces included; a
# run whose peak passes the cap is a FAIL (its own size check let it through). The peak is the device's, so
# nothing else may run on the GPU meanwhile.
# TABLE=FILE also writes the results as a Markdown table (for docs/results.md). Closes with the counts.
set -u
cd "$(dirname "$0")/.."
[ $# = 0 ] && set -- $(ls -d prac[0-9]*/Makefile | xargs -n1 dirname | sort -V)
export WORKBOOK_DEVICE_MEM_MIB=${WORKBOOK_DEVICE_MEM_MIB:-4096}
cap=$WORKBOOK_DEVICE_MEM_MIB
# a program that does nothing without an argument (prac10's tune needs its config file, and without one says so and
# exits 1, as `make check`'s `bad tune` line wants) runs step 2's example instead, a config that needs no GPU, as the
# handout types it but for -fresh (without it a learner's log of that config is kept and read, not started again)
declare -A first_args=([prac10/tune]="examples/fake.conf")
peaks=$(mktemp)
passed=0 failed=0 skipped=0
rows=()
for dir in "$@"; do
  for prog in $(make --no-print-directory -s -C "$dir" print-progs); do
    if [ ! -x "$dir/$prog" ]; then
      if [ -f "$dir/.obj/missing/$prog" ]; then
        printf 'SKIP  %s/%s  (not built: %s)\n' "$dir" "$prog" "$(head -n 1 "$dir/.obj/missing/$prog")"
        skipped=$((skipped + 1))
      else
        printf 'FAIL  %s/%s  (not built: run make first)\n' "$dir" "$prog"
        failed=$((failed + 1))
      fi
      continue
    fi
    : >"$peaks"
    start=$(date +%s%N)
    args=${first_args[$dir/$prog]:-}
    output=$(cd "$dir" && WORKBOOK_PEAK_MEM="$peaks" timeout 900 "./$prog" $args 2>&1 </dev/null)
    rc=$?
    secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
    [ -n "${LOG:-}" ] && printf '=== default %s/%s (exit %d)\n%s\n' "$dir" "$prog" "$rc" "$output" >>"$LOG"
    verdict=$(printf '%s\n' "$output" | grep '^RESULT: ' | tail -n 1)
    peak=$(sed -n 's/.* MiB=\([0-9]*\)$/\1/p' "$peaks" | sort -n | tail -n 1)
    detail="peak ${peak:-?} MiB, $secs s"
    case $rc:$verdict in
    0:"RESULT: PASS"*)
      if [ -n "$peak" ] && [ "$cap" != 0 ] && [ "$peak" -gt "$cap" ]; then
        status=FAIL failed=$((failed + 1)) detail="$detail: more than the $cap MiB its size check allowed for"
      else
        status=PASS passed=$((passed + 1))
      fi
      ;;
    2:"RESULT: SKIP (no CUDA device"*) status=SKIP skipped=$((skipped + 1)) detail=${verdict#RESULT: } ;;
    *) status=FAIL failed=$((failed + 1)) detail="exit $rc, ${verdict:-no RESULT line}; $detail" ;;
    esac
    printf '%-5s %s/%s  (%s)\n' "$status" "$dir" "$prog${args:+ $args}" "$detail"
    rows+=("| $dir | \`$prog${args:+ $args}\` | $status | ${peak:-} | $secs |")
  done
done
rm -f "$peaks"
if [ -n "${TABLE:-}" ]; then
  {
    echo "| practical | program (no arguments) | verdict | peak device memory (MiB) | seconds |"
    echo "|---|---|---|---:|---:|"
    printf '%s\n' "${rows[@]}"
  } >"$TABLE"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
