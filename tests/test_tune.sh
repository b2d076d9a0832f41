#!/usr/bin/env bash
# test_tune.sh -- practical 10's tune, end to end on the CPU: prac10/examples/fake.conf tunes fake_bench.c (a
# stand-in program whose BENCH ms is a known function of -DBX -DBY -DUNROLL, least at BX = 64, BY = 4, with
# values that do not compile, fail or print no score). Checks the best, the CSV and its "# " lines, the resume
# (a second run runs nothing), an interrupted log, a log made another way refused, the time limit, -verbose, the
# re-timing's noise line, the other strategies, replay over examples/fake_full.csv and its 25 % goal, the
# min_time warning and bad input; then the unit tests again under AddressSanitizer and UBSan. tune is built here
# with gcc alone, as prac10's Makefile builds it. Closes with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh # $t, ok, summary

gcc -O2 -std=c11 -Wall -Wextra -Werror -Icommon prac10/tune.c prac10/tune_*.c -o "$t/tune" -lm
ok "tune builds with gcc alone, no warnings" $?
mkdir -p "$t/ex"
cp prac10/examples/fake.conf prac10/examples/fake_bench.c prac10/examples/fake_full.csv "$t/ex/"
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

# 2. the CSV: "# " lines saying how it was scored, the course's columns, then Seconds and Status
csv=$t/ex/results/fake.csv
[ "$(head -n 6 "$csv")" = "# tune log, its scores made with:
# compile = gcc -O1 -DBX=%BX% -DBY=%BY% -DUNROLL=%UNROLL% -o fake_%%ID%% fake_bench.c
# test = ./fake_%%ID%%
# score = bench ms, the lowest best
# verdict = result
# repeat = 2, min" ] && [ "$(sed -n 7p "$csv")" = "TestNo,BX,BY,UNROLL,Score_1,Score_2,Score_Overall,Seconds,Status" ] &&
  [ "$(wc -l <"$csv")" = 33 ]
ok "csv: how it was scored, the header and 26 rows" $?
grep -qE '^18,64,4,1,2,2,2,[0-9]+\.[0-9]{3},ok$' "$csv" && grep -qE '^24,128,8,1,,,,[0-9.]+,dropped: run 1: exit code 3' "$csv" &&
  [ "$(grep -c ',dropped: compile failed' "$csv")" = 5 ] && ! grep -q '^[0-9]*,256,8,' "$csv"
ok "csv: scores, dropped rows with their reason, no restricted row" $?

# 3. resume: the same config and log again runs nothing new
out=$(tune "$t/ex/fake.conf")
rc=$?
[ $rc = 0 ] && grep -qx "The log '$t/ex/results/fake.csv' holds 26 configurations: they are not run again" <<<"$out" &&
  grep -q "^(0 run now, 26 taken from the log, 8 dropped" <<<"$out" && [ "$(wc -l <"$csv")" = 33 ] &&
  [ "$(after "Minimal valuation:" "$out")" = "BX = 64, BY = 4, UNROLL = 1" ]
ok "resume: a second run takes all 26 from the log and runs none" $?

# 4. an interrupted run: 10 rows and half a line; rows cut in other ways are run again, not taken as drops
cp "$csv" "$t/ex/whole.csv"
{ head -n 17 "$t/ex/whole.csv"; printf '12,32,3,1,,'; } >"$csv"
out=$(tune "$t/ex/fake.conf" -retime=0)
rc=$?
[ $rc = 0 ] && grep -q "^(16 run now, 10 taken from the log" <<<"$out" &&
  grep -qx "The log '$t/ex/results/fake.csv' holds 10 configurations: they are not run again (some of its rows could not be used)" <<<"$out" &&
  [ "$(grep -c ',ok$\|,dropped: ' "$csv")" = 26 ] && grep -qx '12,32,3,1,,' "$csv"
ok "resume: an interrupted log's rows are kept, its half line skipped, the rest run" $?
{ head -n 25 "$t/ex/whole.csv" | sed 's/^\(18,64,4,1,2,2,2,[0-9.]*,\)ok$/\1o/; s/^\(17,32,4,1,2.25,2.25,\)2.25,/\1,/'; } >"$csv"
out=$(tune "$t/ex/fake.conf" -retime=0)
[ $? = 0 ] && grep -q "^(10 run now, 16 taken from the log" <<<"$out" && grep -qx "Test 19: BX = 32, BY = 4, UNROLL = 1: 2.25 ms" <<<"$out" &&
  grep -qx "Test 20: BX = 64, BY = 4, UNROLL = 1: 2 ms" <<<"$out" && [ "$(after "Minimal valuation:" "$out")" = "BX = 64, BY = 4, UNROLL = 1" ]
ok "resume: a row with its Status cut ('o') or no overall score is run again, never a drop or a 0" $?
: >"$csv"
out=$(tune "$t/ex/fake.conf" -strategy=random -samples=3 -retime=0)
[ $? = 0 ] && grep -q "^(3 run now, 0 taken from the log" <<<"$out" && [ "$(sed -n 7p "$csv")" = "TestNo,BX,BY,UNROLL,Score_1,Score_2,Score_Overall,Seconds,Status" ]
ok "an empty log is a new log" $?

# 5. a log made another way (review: the stale cache reported BX = 256, BY = 1, the slowest, as the best rate)
sed 's/^optimal = min_bench/optimal = max\nscore = bench GBps/' "$t/ex/fake.conf" >"$t/ex/rate.conf"
out=$(tune "$t/ex/rate.conf")
[ $? = 1 ] && [ "$out" = "RESULT: FAIL (bad input: the log $t/ex/results/fake.csv was made with '# score = bench ms, the lowest best', this config has '# score = bench GBps, the highest best': name another log, or -fresh to start it again)" ]
ok "a log scored another way (ms, now GBps): refused in one line, nothing run" $?
out=$(tune "$t/ex/rate.conf" -fresh -retime=0)
[ $? = 0 ] && [ "$(after "Maximal valuation:" "$out")" = "BX = 64, BY = 4, UNROLL = 1" ] && [ "$(after "Maximal Score:" "$out")" = 4 ]
ok "-fresh: the rate's best, BX = 64, BY = 4 at 4 GBps" $?
sed 's/^BX = .*/BX = 16, 32, 64, 128, 256, 512/; s/^log = .*/log = whole.csv/' "$t/ex/fake.conf" >"$t/ex/more.conf"
out=$(tune "$t/ex/more.conf" -retime=0)
[ $? = 0 ] && grep -q "^(2 run now, 26 taken from the log" <<<"$out" && grep -qx "Test 27: BX = 512, BY = 1, UNROLL = 1: 52.125 ms" <<<"$out"
ok "a value added to the config: the log is still taken (the same scoring)" $?

# 6. a compile that names no binary by %%ID%%: re-timing would time the last one built, so it is refused
sed 's/-o fake_%%ID%%/-o fake_bin/; s|^test = .*|test = ./fake_bin|; s/^log = .*/log = bin.csv/' "$t/ex/fake.conf" >"$t/ex/bin.conf"
out=$(tune "$t/ex/bin.conf")
[ $? = 1 ] && grep -q "^RESULT: FAIL (bad input: $t/ex/bin.conf: with a compile command, compile and test must both name the binary by %%ID%%" <<<"$out" &&
  [ ! -e "$t/ex/bin.csv" ]
ok "a compile to one shared binary: refused before any run" $?

# 7. the time limit: a run past it is 'retry' on the screen and in the log (as a SKIP is), and a later run tries it again
printf '[variables]\nvariables = {S}\n[values]\nS = 0.1, 5\n[testing]\ntest = sleep %%S%% && echo BENCH prog=x ms=%%S%% && echo RESULT: PASS\ntimeout = 0.5\n[scoring]\n[output]\nlog = slow.csv\n' >"$t/ex/slow.conf"
start=$(date +%s)
out=$(tune "$t/ex/slow.conf" -retime=0)
[ $? = 0 ] && grep -qx "Test 2: S = 5: retry: timed out after 0.5 s" <<<"$out" && grep -qE '^2,5,,,[0-9.]+,retry: timed out after 0.5 s$' "$t/ex/slow.csv" &&
  [ $(($(date +%s) - start)) -lt 4 ]
ok "timeout: the run is killed at the limit, logged to be tried again (retry)" $?
out=$(tune "$t/ex/slow.conf" -retime=0)
[ $? = 0 ] && grep -q "^(1 run now, 1 taken from the log" <<<"$out" && grep -qx "Test 3: S = 5: retry: timed out after 0.5 s" <<<"$out"
ok "timeout: not taken from the log, run again" $?
printf '[variables]\nvariables = {R}\n[values]\nR = PASS, SKIP, FAIL\n[testing]\ntest = echo BENCH prog=x ms=1 && echo RESULT: %%R%%\n[scoring]\n[output]\nlog = skip.csv\n' >"$t/ex/skip.conf"
out=$(tune "$t/ex/skip.conf" -retime=0) && out=$(tune "$t/ex/skip.conf" -retime=0)
[ $? = 0 ] && grep -q "^(1 run now, 2 taken from the log, 1 dropped, 1 to retry, 0 left out" <<<"$out" && grep -qx "Test 4: R = SKIP: retry: RESULT: SKIP" <<<"$out" &&
  grep -qx "Test 3: R = FAIL: dropped: RESULT: FAIL (from the log)" <<<"$out"
ok "a SKIP (no GPU here) is tried again by the next run, and counted apart; a FAIL is not" $?

# 8. -verbose: every command and what it printed
out=$(tune "$t/ex/fake.conf" -fresh -strategy=random -samples=2 -seed=4 -retime=0 -verbose)
[ $? = 0 ] && grep -q '^\$ gcc -O1 -DBX=[0-9]* -DBY=[0-9]* -DUNROLL=[0-9]* -o fake_1 fake_bench.c  (exit code [0-9]*, ' <<<"$out" &&
  grep -q '^\$ ./fake_1  (exit code' <<<"$out" && grep -q '^fake_bench: BX = ' <<<"$out" && grep -q '^\$ rm -f fake_1  (exit code 0' <<<"$out"
ok "-verbose: each command with its exit code, and its output" $?

# 9. the other strategies, over the same log (each configuration it holds is not run again)
out=$(tune "$t/ex/fake.conf" -strategy=hill -budget=12 -seed=3 -retime=2)
[ $? = 0 ] && grep -qx "Number of tests to be run: 12" <<<"$out" && grep -q "^The system ran 12 tests" <<<"$out"
ok "hill: at most the budget, exit 0" $?
out=$(tune "$t/ex/fake.conf" -strategy=random -samples=6 -seed=2 -retime=0)
rc=$?
[ $rc = 0 ] && [ "$(grep -c '^Test [0-9]*: ' <<<"$out")" = 6 ] && [ "$(grep '^Test ' <<<"$out" | sed 's/^Test [0-9]*: //; s/: .*//' | sort -u | wc -l)" = 6 ]
ok "random: 6 distinct configurations" $?

# 10. replay: a complete log of the full product, examples/fake_full.csv; a partial one is refused
out=$(tune "$t/ex/fake.conf" -replay="$csv" -strategy=hill)
[ $? = 1 ] && grep -q "^RESULT: FAIL (bad input: the log $csv holds [0-9]* of the 72 allowed configurations, [0-9]* missing: replay needs them all" <<<"$out"
ok "replay: a log that lacks configurations is refused, saying how many" $?
out=$(tune "$t/ex/fake.conf" -replay="$t/ex/fake_full.csv" -strategy=hill -trials=50)
[ $? = 0 ] && grep -q "^tune: replay of '$t/ex/fake_full.csv': all 72 allowed configurations (48 scored, 24 dropped)" <<<"$out" &&
  grep -q "^The log's best: BX = 64, BY = 4, UNROLL = 1: 2 (test [0-9]*); the target, within 2 %: <= 2.04" <<<"$out" &&
  grep -qx "Exhaustive, the course's tree of 27 tests: within the target after 18 ([0-9.]* recorded seconds)" <<<"$out" &&
  grep -qx "Strategy: hill, budget 18 evaluations, seeds 1 to 50" <<<"$out" &&
  grep -qx "The 25 % goal, within the target in at most 18 evaluations (a quarter of the 72 allowed): met in 50 of 50 trials" <<<"$out" &&
  [ "$(tail -n 1 <<<"$out")" = "RESULT: PASS" ]
ok "replay: hill on fake_full.csv, within 2 % in at most a quarter of the 72 in each of 50 trials" $?
out=$(tune "$t/ex/fake.conf" -replay="$t/ex/fake_full.csv" -strategy=random -trials=20)
[ $? = 1 ] && grep -q "^RESULT: FAIL (the 25 % goal: [0-9]* of 20 trials needed more than 18 evaluations)" <<<"$out"
ok "replay: random samples miss the goal, and the verdict says so" $?
# fake_full.csv is what tune makes now: every allowed configuration, each with the same status and score
tune "$t/ex/fake.conf" -fresh -strategy=random -samples=72 -retime=0 >/dev/null
rows() { grep -v '^#' "$1" | tail -n +2 | awk -F, '{ split($9, s, ":"); print $2, $3, $4, $7, s[1] }' | sort; }
[ "$(rows "$csv" | wc -l)" = 72 ] && [ "$(rows "$csv")" = "$(rows prac10/examples/fake_full.csv)" ]
ok "fake_full.csv: the same 72 configurations, statuses and scores as a fresh run" $?

# 11. the course's min_time: supported, with a one-line warning
sed 's/^optimal = min_bench/optimal = min_time/; s/^log = .*/log = time.csv/' "$t/ex/fake.conf" >"$t/ex/time.conf"
out=$(tune "$t/ex/time.conf" -strategy=random -samples=3 -retime=0)
[ $? = 0 ] && [ "$(grep -c '^warning: optimal = min_time scores the wall time of the whole test command' <<<"$out")" = 1 ] &&
  grep -qx "Score: the wall time of the test command, lowest is best; 2 runs per test, their minimum; each command stopped after 300 s" <<<"$out"
ok "min_time: runs, with its one-line warning" $?

# 12. bad input: one line, exit 1, nothing run
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
many=()
for i in $(seq 70); do many+=(-retime=0); done
out=$(tune "$t/ex/fake.conf" "${many[@]}" -nonsense)
[ $? = 1 ] && [ "$out" = "RESULT: FAIL (bad input: -nonsense: unknown option (-help lists the options))" ]
ok "the 71st option is read too (a bad one is refused)" $?
out=$(tune -help)
[ $? = 0 ] && grep -q '^usage: ./tune CONFIG.conf' <<<"$out" && grep -q '^practical 10, ' <<<"$out"
ok "-help: usage and the practical's line, exit 0" $?

# 13. the unit tests again, built with AddressSanitizer and UBSan (where gcc has them)
if echo 'int main(void){return 0;}' | gcc -fsanitize=address,undefined -x c - -o "$t/probe" 2>/dev/null; then
  gcc -O1 -g -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
    -Icommon tests/test_prac10.c prac10/tune_*.c -o "$t/test_prac10_san" -lm &&
    out=$(ASAN_OPTIONS=detect_leaks=1 "$t/test_prac10_san" 2>&1)
  rc=$?
  [ $rc = 0 ] && grep -qx "[0-9]* passed, 0 failed" <<<"$out"
  ok "the unit tests under AddressSanitizer and UBSan: no error, no leak" $?
  [ $rc = 0 ] || tail -n 30 <<<"$out"
else
  echo "SKIP  the unit tests under AddressSanitizer and UBSan (gcc has no -fsanitize=address here)"
fi

summary
