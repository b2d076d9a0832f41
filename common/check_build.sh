#!/usr/bin/env bash
# check_build.sh PRACDIR... -- read the compiler logs the build left in PRACDIR/.obj/*.log and judge
# each source file: no warnings (host or device), and no register spills (ptxas's "spill stores" /
# "spill loads"), except in kernels that a source names in a line
#     // ptxas-spills-expected: KERNEL_NAME
# because spilling is what they teach. Closes with "N passed, N failed".
set -u
passed=0 failed=0
for dir in "$@"; do
  allowed=$(find "$dir" -name '*.cu' -o -name '*.cuh' -o -name '*.h' | xargs cat 2>/dev/null |
    sed -n 's|.*// ptxas-spills-expected: *\([A-Za-z_0-9]*\).*|\1|p')
  while read -r log; do
    [ -f "$log" ] || continue
    src=${log#"$dir"/.obj/}
    src=${src%.log}
    problems=''
    warnings=$(grep -i 'warning' "$log")
    [ -n "$warnings" ] && problems="warnings"
    spills=$(awk '/Function properties for/ { fn = $NF }
                  /spill stores/ { if ($5 + 0 > 0 || $9 + 0 > 0) print fn " (" $5 " bytes spill stores, " $9 " bytes spill loads)" }' "$log")
    bad_spills=''
    while read -r fn rest; do
      [ -n "$fn" ] || continue
      ok=0
      for k in $allowed; do [[ $fn == *"$k"* ]] && ok=1; done
      [ $ok = 1 ] || bad_spills="$bad_spills $fn $rest;"
    done <<<"$spills"
    [ -n "$bad_spills" ] && problems="${problems:+$problems, }spills:$bad_spills"
    if [ -z "$problems" ]; then
      printf 'PASS  build %s/%s  (no warnings, no unexpected spills)\n' "$dir" "$src"
      passed=$((passed + 1))
    else
      printf 'FAIL  build %s/%s  (%s)\n' "$dir" "$src" "$problems"
      [ -n "$warnings" ] && printf '%s\n' "$warnings" | sed -e 's/^/      | /' | head -n 20
      failed=$((failed + 1))
    fi
  done < <(find "$dir/.obj" -name '*.log' 2>/dev/null | sort)
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
