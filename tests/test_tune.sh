#!/usr/bin/env bash
# test_tune.sh -- practical 10's tune, end to end on the CPU: prac10/examples/fake.conf tunes fake_bench.c (a
# stand-in program whose BENCH ms is a known function of -DBX -DBY -DUNROLL, least at BX = 64, BY = 4, with
# values that do not compile, fail or print no score). Checks the best, the CSV, the resume (a second run runs
# nothing), an interrupted log, the re-timing's noise line, the other strategies, replay, the min_time warning
# and bad input. tune is built here with gcc alone, as prac10's Makefile builds it. Closes with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh # $t, ok, summary

gcc -O2 -std=c11 -Wall -Wextra -Werror -Icommon prac10/tune.c prac10/tune_*.c -o "$t/tune" -lm
ok "tune builds with gcc alone, no warnings" $?
mkdir -p "$t/ex"
cp prac10/examples/fake.conf prac10/examples/fake_bench.c "$t/ex/"
tune() { "$t/tune" "$@" 2>&1; }
after() { grep -A1 -x "$1" <<<"$2" | tail -n 1; } # the line after an exact line

# 1. the course's exhaustive search over the tree {{BX, BY}, {UNROLL}}: 25 + 3 - 1 = 27 tests, one restricted
out=$(tune "$t/ex/fake.conf")
rc=$?
[ $rc = 0 ] && [ "$(tail -n 1 <<<"$out")" = "RESULT: PASS" ]
ok "exhaustive: exit 0, RESULT: PASS last" $?
grep -qx "Number of tests to be run: 27" <<<"$out" && grep -qx "(with 2 repetitions each)" <<<"$out"
ok "exhaustive: the course's count, 25 + 3 - 1 = 27" $?
[ "$(after "Minimal valuation:" "$out")" = "BX = 64, BY = 4, UNROLL = 1" ] && [ "$(after "Minimal Score:" "$out")" = 2 ]
ok "exhaustive: the best, BX = 64, BY = 4, UNROLL = 1 at 2 ms" $?
grep -qx "Test 1: BX = 16, BY = 1, UNROLL = 1: dropped: run 1: no BENCH line with ms=" <<<"$out" &&
  grep -q "^Test 11: BX = 16, BY = 3, UNROLL = 1: dropped: compile failed (exit code 1): .*BY = 3 is not supported" <<<"$out" &&
  grep -qx "Test 20: BX = 256, BY = 4, UNROLL = 1: dropped: run 1: exit code 1: RESULT: FAIL (a wrong answer at BX = 256, BY = 4)" <<<"$out" &&
  grep -qx "Test 24: BX = 128, BY = 8, UNROLL = 1: dropped: run 1: exit code 3: RESULT: PASS" <<<"$out"
ok "exhaustive: no score, a failed compile, RESULT: FAIL and an exit code are each dropped with the reason" $?
grep -qx "Test 18: BX = 64, BY = 4, UNROLL = 1: 2 ms" <<<"$out" && grep -q "^  18 of 27 done, best 2 ms (test 18), " <<<"$out"
ok "exhaustive: a line per test and a progress line (done of total, best so far, time left)" $?
grep -qx "The system ran 26 tests, taking 0m[0-9.]*s." <<<"$out" &&
  grep -q "^(26 run now, 0 taken from the log, 8 dropped, 1 left out by the restrictions" <<<"$out" &&
  grep -qx "A testing log was saved to '$t/ex/results/fake.csv'" <<<"$out"
ok "exhaustive: the course's closing lines, the counts and the log's path" $?
grep -q "^The best two are within the noise (their ranges overlap" <<<"$out" &&
  grep -qx "  2. BX = 64, BY = 4, UNROLL = 2: median 2 ms, range 2 to 2, cv 0.0 %" <<<"$out" &&
  grep -q "^Best: BX = 64, BY = 4, UNROLL = 1: 2 ms, the median of 5 re-times" <<<"$out"
ok "re-timing: UNROLL 1 and 2 tie, said in one line, the rule picks the one found first" $?
! ls "$t/ex" | grep -q '^fake_[0-9]'
ok "clean ran: no binary left behind" $?

# 2. the CSV: the course's columns, then Seconds and Status; a row per configuration run
csv=$t/ex/results/fake.csv
[ "$(head -n 1 "$csv")" = "TestNo,BX,BY,UNROLL,Score_1,Score_2,Score_Overall,Seconds,Status" ] && [ "$(wc -l <"$csv")" = 27 ]
ok "csv: the header and 26 rows" $?
grep -qE '^18,64,4,1,2,2,2,[0-9]+\.[0-9]{3},ok$' "$csv" && grep -qE '^24,128,8,1,,,,[0-9.]+,dropped: run 1: exit code 3' "$csv" &&
  [ "$(grep -c ',dropped: compile failed' "$csv")" = 5 ] && ! grep -q '^[0-9]*,256,8,' "$csv"
ok "csv: scores, dropped rows with their reason, no restricted row" $?

# 3. resume: the same config and log again runs nothing new
out=$(tune "$t/ex/fake.conf")
rc=$?
[ $rc = 0 ] && grep -qx "The log '$t/ex/results/fake.csv' holds 26 configurations: they are not run again" <<<"$out" &&
  grep -q "^(0 run now, 26 taken from the log, 8 dropped" <<<"$out" && [ "$(wc -l <"$csv")" = 27 ] &&
  [ "$(after "Minimal valuation:" "$out")" = "BX = 64, BY = 4, UNROLL = 1" ]
ok "resume: a second run takes all 26 from the log and runs none" $?

# 4. an interrupted run: 10 rows and half a line; the rest is run, the half line never joins a new one
{ head -n 11 "$csv"; printf '12,32,3,1,,'; } >"$t/ex/cut.csv" && mv "$t/ex/cut.csv" "$csv"
out=$(tune "$t/ex/fake.conf" -retime=0)
rc=$?
[ $rc = 0 ] && grep -q "^(16 run now, 10 taken from the log" <<<"$out" &&
  grep -qx "The log '$t/ex/results/fake.csv' holds 10 configurations: they are not run again (some of its rows could not be used)" <<<"$out" &&
  [ "$(grep -c ',ok$\|,dropped: ' "$csv")" = 26 ] && grep -qx '12,32,3,1,,' "$csv"
ok "resume: an interrupted log's rows are kept, its half line skipped, the rest run" $?

# 5. the other strategies, over the same log (each configuration it holds is not run again)
out=$(tune "$t/ex/fake.conf" -strategy=hill -budget=12 -seed=3 -retime=2)
[ $? = 0 ] && grep -qx "Number of tests to be run: 12" <<<"$out" && grep -q "^The system ran 12 tests" <<<"$out"
ok "hill: at most the budget, exit 0" $?
out=$(tune "$t/ex/fake.conf" -strategy=random -samples=6 -seed=2 -retime=0)
rc=$?
[ $rc = 0 ] && [ "$(grep -c '^Test [0-9]*: ' <<<"$out")" = 6 ] && [ "$(grep '^Test ' <<<"$out" | sed 's/^Test [0-9]*: //; s/: .*//' | sort -u | wc -l)" = 6 ]
ok "random: 6 distinct configurations" $?

# 6. replay over the recorded log
out=$(tune -replay="$csv" -strategy=hill -trials=5)
[ $? = 0 ] && grep -q "^The log's best: BX = 64, BY = 4, UNROLL = 1: 2 (test 18); within 2 %: <= 2.04" <<<"$out" &&
  grep -q "^Evaluations until within 2 %: median [0-9.]* (" <<<"$out" && [ "$(tail -n 1 <<<"$out")" = "RESULT: PASS" ]
ok "replay: hill over the log, the evaluations until within 2 % of its best" $?

# 7. the course's min_time: supported, with a one-line warning
sed 's/^optimal = min_bench/optimal = min_time/; s/^log = .*/log = time.csv/' "$t/ex/fake.conf" >"$t/ex/time.conf"
out=$(tune "$t/ex/time.conf" -strategy=random -samples=3 -retime=0)
[ $? = 0 ] && [ "$(grep -c '^warning: optimal = min_time scores the wall time of the whole test command' <<<"$out")" = 1 ] &&
  grep -qx "Score: the wall time of the test command, lowest is best; 2 runs per test, their minimum" <<<"$out"
ok "min_time: runs, with its one-line warning" $?

# 8. bad input: one line, exit 1, nothing run
printf '[variables]\nvariables = {BX, {BY}\n[values]\nBX = 1\nBY = 2\n[testing]\ntest = ./x\n[scoring]\n[output]\nlog = bad.csv\n' \
  >"$t/ex/bad.conf"
out=$(tune "$t/ex/bad.conf")
rc=$?
[ $rc = 1 ] && [ "$out" = "RESULT: FAIL (bad input: $t/ex/bad.conf:2: unbalanced braces: a '{' is never closed)" ] &&
  [ ! -e "$t/ex/bad.csv" ]
ok "bad config: one line, exit 1, no log written" $?
out=$(tune "$t/ex/missing.conf")
[ $? = 1 ] && [ "$out" = "RESULT: FAIL (bad input: cannot read $t/ex/missing.conf)" ]
ok "missing config: one line, exit 1" $?
out=$(tune "$t/ex/fake.conf" -strategy=annealing)
[ $? = 1 ] && [ "$out" = "RESULT: FAIL (bad input: -strategy=annealing: exhaustive, random or hill)" ]
ok "an unknown strategy: one line, exit 1" $?
out=$(tune)
[ $? = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q '^RESULT: FAIL (bad input: no config file' <<<"$out"
ok "no config: one line, exit 1" $?
out=$(tune -help)
[ $? = 0 ] && grep -q '^usage: ./tune CONFIG.conf' <<<"$out" && grep -q '^practical 10, ' <<<"$out"
ok "-help: usage and the practical's line, exit 0" $?

summary
