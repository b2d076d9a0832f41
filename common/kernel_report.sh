#!/usr/bin/env bash
# kernel_report.sh [PRACDIR...] -- every kernel the build compiled, one line each, from the ptxas reports the
# build left in PRACDIR/.obj (common/prac.mk keeps them): practical, kernel (demangled), target, registers,
# shared memory, stack frame and spills. Each line once, sorted, so that two builds compare with diff:
#   common/kernel_report.sh prac8 > before.txt; ...change...; make -C prac8; common/kernel_report.sh prac8 | diff before.txt -
# The starting files (exercises/) are left out. A refactor that must leave the generated code alone leaves
# this report unchanged.
set -u
cd "$(dirname "$0")/.."
dirs=${*:-$(ls -d prac[0-9]*/ | tr -d / | sort -V)}
for dir in $dirs; do
  dir=${dir%/}
  find "$dir/.obj" -name '*.cu.log' -not -path '*/.obj/exercises/*' 2>/dev/null | sort | xargs -r cat |
    awk -v prac="$dir" '
      /Compiling entry function/ { fn = $7; gsub(/\047/, "", fn); arch = $9; gsub(/\047/, "", arch); st = ""; sl = ""; sf = "" }
      /bytes stack frame/ { sf = $1; st = $5; sl = $9 }
      /Used [0-9]+ registers/ {
        regs = $5; smem = 0
        if (match($0, /[0-9]+ bytes smem/)) { smem = substr($0, RSTART, RLENGTH); sub(/ bytes smem/, "", smem) }
        if (fn != "") print prac "\t" fn "\t" arch "\tregs=" regs "\tsmem=" smem "\tstack=" sf "\tspill_st=" st "\tspill_ld=" sl
        fn = ""
      }'
done | c++filt | sort -u
