#!/usr/bin/env bash
# run_checks.sh TAG RUNSFILE... -- run the lines of each practical's `runs` file that start with TAG,
# judge each by its verdict line and exit code, and close with "N passed, N failed, N skipped".
#
# A line of a runs file:
#   TAG [expect=PASS|FAIL|SKIP] [why=REGEX] [out=FILE] [course=FILE] [timeout=SECONDS] [tool=T] [env=NAME=VALUE]...
#       PROGRAM [ARGS...]
#   TAG      check | bench | sanitize | profile | bad; blank lines and # comments are ignored, and any
#            other first word is an error in the runs file (reported with its file and line number)
#   expect   the verdict the run must end with (default PASS). A run that ends with RESULT: SKIP and
#            exit code 2 counts as skipped whatever was expected (no GPU, a tool that is absent), except
#            that expect=SKIP passes on a SKIP for any reason other than having no GPU. An exercise line
#            (exercises/x) with expect=FAIL also passes on a PASS once the learner has edited x's files in
#            exercises/ (exercise_edited, below): their finished exercise.
#   why      the reason an expect=FAIL run must fail for: an extended regular expression (bash's [[ =~ ]]),
#            matched against the reason of its verdict line, the text inside RESULT: FAIL (...). A FAIL whose
#            reason does not match (a CUDA error, an out-of-memory, an exception where a wrong sum was meant)
#            is a FAIL that names both. A line is split at spaces, so the regex holds none: write `.` (any
#            character) or [[:space:]] for one, as in why=^bad.input:.device.memory.for. It matches
#            anywhere in the reason unless anchored (^, $). Every expect=FAIL line must have one, and only
#            they may: a line without it, with an empty one or with one that is not a valid regex is an error
#            in the runs file (file and line number), found whatever TAG is run.
#   out      a file of pinned output that the run must reproduce; lines naming the GPU are ignored.
#   course   a file of the course's own lines (pracN/course/PROGRAM.out: what the course's program prints in
#            its default run). The run's output must be those lines, one for one, with the same words, spaces
#            and blank lines; the numbers may differ (and a right-aligned field's padding with them). The
#            only other lines allowed are the first, when it starts `GPU Device ` (the GPU's name), and every
#            line after the course's last one (the workbook's own lines and the verdict). course_lines.py
#            states the rules in full.
#   tool     the compute-sanitizer tool for sanitize lines: memcheck, racecheck, synccheck or initcheck.
#            A line without tool= runs twice, under memcheck and under initcheck (reads of device memory
#            that nothing wrote), so that every program with a memcheck line is initchecked too.
#   env      a variable set for this run only (env=WORKBOOK_DEVICE_MEM_MIB=64: a GPU with 64 MiB free)
#   PROGRAM  a program of the practical (run as ./PROGRAM, or ./exercises/x) or a command of its own.
#            A program the build left out because a library it needs is missing (prac.mk's MISSING, which
#            writes the reason to .obj/missing/PROGRAM) makes every one of its lines a SKIP with that reason.
# Lines tagged `bad` give a program bad input: it must print exactly one line, "RESULT: FAIL (bad
# input: ...)", and exit 1, with or without a GPU. Lines tagged `sanitize` run under compute-sanitizer.
#
# TAG `help` reads no lines: it runs `PROGRAM -help` for every program the practical's Makefile builds (make
# print-progs print-exercise-progs: PROGS, the programs left out (MISSING) and exercises/x), GPU or not. Each
# must exit 0 and print "usage: ..." and then its COURSE_STEPS line (common/args.h), which starts
# "practical N, " and names its "workbook step" (docs/course-map.md) or says "beyond the course". A program
# left out by the build SKIPs with the reason; one not built at all FAILs (make test builds first).
#
# Environment: LOG=FILE appends every run's full output to FILE; VERBOSE=1 shows it as it runs;
# REQUIRE_GPU=1 (passed on to every program, which then FAILs instead of skipping) also turns this
# script's own SKIPs, such as a missing compute-sanitizer, into FAILs.
set -u
tag=${1:?usage: run_checks.sh TAG RUNSFILE...}
shift

passed=0 failed=0 skipped=0
here=$(cd "$(dirname "$0")" && pwd)
sanitizer=$(command -v compute-sanitizer || true)
[ -z "$sanitizer" ] && [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/compute-sanitizer" ] && sanitizer=$CUDA_HOME/bin/compute-sanitizer
[ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && sanitizer=/usr/local/cuda/bin/compute-sanitizer

require_gpu=0
case ${REQUIRE_GPU:-} in '' | 0) ;; *) require_gpu=1 ;; esac

report() { # status name detail
  if [ "$1" = SKIP ] && [ $require_gpu = 1 ]; then
    set -- FAIL "$2" "REQUIRE_GPU is set, and this would have skipped: $3"
  fi
  printf '%-5s %s%s\n' "$1" "$2" "${3:+  ($3)}"
  case $1 in
  PASS) passed=$((passed + 1)) ;;
  FAIL) failed=$((failed + 1)) ;;
  SKIP) skipped=$((skipped + 1)) ;;
  esac
}

show_tail() { sed -e 's/^/      | /' | tail -n "${1:-15}"; }

# Has the learner edited this exercise's starting files? An exercise line expects the starting file to FAIL
# (expect=FAIL): as the repository gives it, a PASS would mean the exercise teaches nothing, and that stays a
# FAIL (a clean clone, CI). Once the exercise's own files in exercises/ (those its build included, from the
# compiler's dependency files in .obj/exercises/NAME/; all of exercises/ when there are none) differ from the
# repository's (the branch it tracks, else HEAD: a learner's commits count as edits), a PASS is the learner's
# finished exercise. Outside a git clone nothing counts as edited.
exercise_edited() { # dir prog (exercises/NAME) [ARG...]: its starting files, and an exercises/ file an argument
  local base files  # names (a tuner's config: prac10)
  git -C "$1" rev-parse --verify -q HEAD >/dev/null 2>&1 || return 1
  base=$(git -C "$1" rev-parse --verify -q '@{upstream}' 2>/dev/null) || base=HEAD
  files=$({
    cat "$1/.obj/exercises/${2#exercises/}"/*.d "$1/.obj/exercises/${2#exercises/}"/*/*.d 2>/dev/null |
      tr ' \\' '\n\n' | sed -n 's/:$//; /^exercises\/[^/]*$/p'
    for a in "${@:3}"; do [[ $a == exercises/* && -f $1/$a ]] && echo "$a"; done
  } | sort -u)
  # shellcheck disable=SC2086 # one path a word
  git -C "$1" diff --quiet "$base" -- ${files:-exercises/} 2>/dev/null
  [ $? = 1 ]
}

code_of() { case $1 in PASS) echo 0 ;; FAIL) echo 1 ;; SKIP) echo 2 ;; *) echo '?' ;; esac; }

help_texts() { # dir prac: every program's -help (TAG help, above)
  local dir=$1 prac=$2 progs prog name output rc steps
  if ! progs=$(make --no-print-directory -s -C "$dir" print-progs print-exercise-progs 2>&1); then
    report FAIL "$prac" "make print-progs print-exercise-progs failed: $(printf '%s' "$progs" | tail -n 1)"
    return
  fi
  for prog in $progs; do
    name="$prac/$prog -help"
    if [ ! -x "$dir/$prog" ]; then
      if [ -f "$dir/.obj/missing/$prog" ]; then
        report SKIP "$name" "$prog was not built: $(head -n 1 "$dir/.obj/missing/$prog")"
      else
        report FAIL "$name" "$prog is not built: run make first"
      fi
      continue
    fi
    output=$(cd "$dir" && timeout 60 "./$prog" -help 2>&1 </dev/null)
    rc=$?
    [ -n "${LOG:-}" ] && printf '=== help %s (exit %d)\n%s\n' "$name" "$rc" "$output" >>"$LOG"
    steps=$(printf '%s\n' "$output" | sed -n 2p)
    if [ "$rc" = 0 ] && [[ $(printf '%s\n' "$output" | head -n 1) == "usage: "* ]] &&
      [[ $steps == "practical ${prac#prac}, "* ]] &&
      [[ $steps == *"workbook step"* || $steps == *"beyond the course"* ]]; then
      report PASS "$name" "$steps"
    else
      report FAIL "$name" "exit $rc; -help must exit 0 and print 'usage: ...', then its COURSE_STEPS line \
'practical ${prac#prac}, workbook step ...' (common/args.h)"
      printf '%s\n' "$output" | show_tail 4
    fi
  done
}

for runs in "$@"; do
  [ -f "$runs" ] || continue
  dir=$(dirname "$runs")
  prac=$(basename "$(cd "$dir" && pwd)")
  if [ "$tag" = help ]; then
    help_texts "$dir" "$prac"
    continue
  fi
  if [ -s "$runs" ] && [ -n "$(tail -c 1 "$runs")" ]; then
    report FAIL "$runs:$(wc -l <"$runs" | tr -d ' ')" "the last line has no newline at its end, so it would be lost"
  fi
  lineno=0
  while read -r first rest; do
    lineno=$((lineno + 1))
    case $first in
    '' | '#'*) continue ;;
    check | bench | sanitize | profile | bad) ;;
    *)
      report FAIL "$runs:$lineno" "unknown tag '$first': a runs line starts with check, bench, sanitize, profile or bad"
      continue
      ;;
    esac
    expect=PASS why_re='' has_why=0 out='' course='' limit=900 tool='' envs=()
    read -r -a words <<<"$rest"
    while [ ${#words[@]} -gt 0 ]; do
      case ${words[0]} in
      expect=*) expect=${words[0]#expect=} ;;
      why=*) why_re=${words[0]#why=} has_why=1 ;;
      out=*) out=${words[0]#out=} ;;
      course=*) course=${words[0]#course=} ;;
      timeout=*) limit=${words[0]#timeout=} ;;
      tool=*) tool=${words[0]#tool=} ;;
      env=*) envs+=("${words[0]#env=}") ;;
      *) break ;;
      esac
      words=("${words[@]:1}")
    done
    # why= is checked on every line, whatever TAG is run (as the tag is): a negative test without its reason
    # would pass on any FAIL (a crash, an out-of-memory), and make test must find it even on a sanitize line
    if [ "$expect" = FAIL ] && [ $has_why = 0 ]; then
      report FAIL "$runs:$lineno" "an expect=FAIL line needs why=REGEX, the reason it must fail for: common/run_checks.sh says how"
      continue
    fi
    if [ $has_why = 1 ]; then
      [[ '' =~ $why_re ]]
      re_rc=$? # 2: not a valid regex
      if [ "$expect" != FAIL ] || [ -z "$why_re" ] || [ $re_rc = 2 ]; then
        report FAIL "$runs:$lineno" "why=$why_re: why= takes a valid extended regex, on expect=FAIL lines only"
        continue
      fi
    fi
    [ "$first" = "$tag" ] || continue
    if [ ${#words[@]} = 0 ]; then
      report FAIL "$runs:$lineno" "a '$first' line names no program"
      continue
    fi
    name="$prac/${envs[*]:+${envs[*]} }${words[*]}"
    prog=${words[0]}
    if [ ! -e "$dir/$prog" ] && [ -f "$dir/.obj/missing/$prog" ]; then
      report SKIP "$name" "$prog was not built: $(head -n 1 "$dir/.obj/missing/$prog")"
      continue
    fi
    [ -x "$dir/$prog" ] && [ "${prog#./}" = "$prog" ] && words[0]=./$prog
    tools=(none)
    if [ "$tag" = sanitize ]; then
      if [ -z "$sanitizer" ]; then
        report SKIP "$name" "compute-sanitizer not found"
        continue
      fi
      if [ -n "$tool" ]; then tools=("$tool"); else tools=(memcheck initcheck); fi
    fi
    # an expect=SKIP line tests a SKIP for a reason (a default size too big for the GPU): REQUIRE_GPU must not
    # turn that one into a FAIL; a SKIP for having no GPU is still caught below
    [ "$expect" = SKIP ] && envs+=("REQUIRE_GPU=")
    # a line that must PASS has its sizes chosen by the workbook: where this GPU is too small for them, the
    # program SKIPs with the reason instead of calling them bad input (gpu_policy.h, gpu_sized_by_runs); on every
    # other line it is unset, whatever the caller's environment, so that a size too big stays bad input (a FAIL)
    if [ "$expect" = PASS ] && [ "$tag" != bad ]; then
      envs+=("WORKBOOK_RUNS_LINE=1")
    else
      envs+=("WORKBOOK_RUNS_LINE=")
    fi
    base_name=$name base_words=("${words[@]}")
    for tool in "${tools[@]}"; do
      name=$base_name words=("${base_words[@]}")
      if [ "$tool" != none ]; then
        words=("$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 20 "${words[@]}")
        name="$name  [compute-sanitizer --tool $tool]"
      fi
      output=$(cd "$dir" && env "${envs[@]}" timeout "$limit" "${words[@]}" 2>&1 </dev/null)
      rc=$?
      [ -n "${LOG:-}" ] && printf '=== %s %s (exit %d)\n%s\n' "$tag" "$name" "$rc" "$output" >>"$LOG"
      [ "${VERBOSE:-0}" = 1 ] && printf '%s\n' "$output" | sed -e 's/^/      | /'
      [ "$tag" = bench ] && printf '%s\n' "$output" | grep '^BENCH ' | sed -e 's/^/      /'

      verdict_line=$(printf '%s\n' "$output" | grep '^RESULT: ' | tail -n 1)
      verdict=$(printf '%s\n' "$verdict_line" | sed -n 's/^RESULT: \(PASS\|FAIL\|SKIP\).*/\1/p')
      why=$(printf '%s\n' "$verdict_line" | sed -n 's/^RESULT: [A-Z]* *(\(.*\))$/\1/p')

      if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        report FAIL "$name" "no verdict within ${limit} s"
        continue
      fi
      if [ -z "$verdict" ]; then
        report FAIL "$name" "no RESULT line, exit code $rc"
        printf '%s\n' "$output" | show_tail
        continue
      fi
      if [ "$(code_of "$verdict")" != "$rc" ]; then
        report FAIL "$name" "verdict $verdict but exit code $rc"
        printf '%s\n' "$output" | show_tail
        continue
      fi
      if [ "$tag" = bad ]; then
        nlines=$(printf '%s\n' "$output" | wc -l)
        if [ "$rc" = 1 ] && [ "$nlines" = 1 ] && [[ $verdict_line == "RESULT: FAIL (bad input: "* ]]; then
          report PASS "$name" "rejected: ${why#bad input: }"
        else
          report FAIL "$name" "bad input must give one line 'RESULT: FAIL (bad input: ...)' and exit 1; got exit $rc, $nlines lines"
          printf '%s\n' "$output" | show_tail
        fi
        continue
      fi
      if [ "$verdict" = SKIP ]; then
        if [ "$expect" = SKIP ] && [[ $why != "no CUDA device"* ]]; then
          report PASS "$name" "skips as it should: $why"
        else
          report SKIP "$name" "$why"
        fi
        continue
      fi
      if [ "$verdict" = PASS ] && [ "$expect" = FAIL ] && [[ $prog == exercises/* ]] && exercise_edited "$dir" "$prog" "${base_words[@]:1}"; then
        report PASS "$name" "your exercise passes (exercises/ differs from the starting files)"
        continue
      fi
      if [ "$verdict" != "$expect" ]; then
        report FAIL "$name" "expected $expect, got $verdict${why:+: $why}"
        printf '%s\n' "$output" | show_tail
        continue
      fi
      if [ "$expect" = FAIL ] && ! [[ $why =~ $why_re ]]; then
        report FAIL "$name" "failed, but for another reason: '$why' does not match why=$why_re"
        printf '%s\n' "$output" | show_tail
        continue
      fi
      if [ -n "$out" ] && [ ! -f "$dir/$out" ]; then
        report FAIL "$name" "the pinned output $out is missing"
        continue
      fi
      if [ -n "$out" ]; then
        if ! diffs=$(diff <(printf '%s\n' "$output" | grep -v '^GPU Device ') <(grep -v '^GPU Device ' "$dir/$out")); then
          report FAIL "$name" "output differs from $out"
          printf '%s\n' "$diffs" | show_tail 30
          continue
        fi
      fi
      if [ -n "$course" ]; then
        if ! command -v python3 >/dev/null; then
          report SKIP "$name" "the program passed, but python3, which compares its output with the course's lines, is not installed"
          continue
        fi
        if ! diffs=$(printf '%s\n' "$output" | python3 "$here/course_lines.py" "$dir/$course" 2>&1); then
          report FAIL "$name" "output does not start with the course's lines of $course"
          printf '%s\n' "$diffs" | show_tail 6
          continue
        fi
      fi
      if [ "$expect" = PASS ]; then
        detail="${out:+output matches $out}"
        [ -n "$course" ] && detail="${detail:+$detail; }the course's lines of $course first"
        report PASS "$name" "$detail"
      else
        report PASS "$name" "fails as it should: $why"
      fi
    done
  done <"$runs"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
