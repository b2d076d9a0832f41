/*
 * fake_bench.c -- a stand-in for a GPU program, for tune's tests (tests/test_tune.sh) and for a first try of
 * tune without a GPU: built with -DBX= -DBY= -DUNROLL= as a real program is built with -DBLOCK_X=, it prints
 * the BENCH line and verdict a workbook program prints, with a time that is a known function of its values:
 *   ms = 2 + (BX - 64)^2 / 4096 + (BY - 4)^2 / 8 + (UNROLL == 4 ? 0.5 : 0)
 * the least, 2.0, at BX = 64, BY = 4 with UNROLL 1 or 2 (a tie: within the noise). To test what tune drops:
 * BY = 3 does not compile; BX = 16 with BY = 1 prints no BENCH line; BX = 256 with BY = 4 ends RESULT: FAIL;
 * BX = 128 with BY = 8 exits with code 3 after a RESULT: PASS.
 */
#include <stdio.h>

#if !defined(BX) || !defined(BY) || !defined(UNROLL)
#error "build with -DBX=... -DBY=... -DUNROLL=..."
#endif
#if BY == 3
#error "BY = 3 is not supported (a compile error that tune must drop)"
#endif

int main(void) {
  double ms = 2.0 + (BX - 64) * (BX - 64) / 4096.0 + (BY - 4) * (BY - 4) / 8.0 + (UNROLL == 4 ? 0.5 : 0.0);
  printf("fake_bench: BX = %d, BY = %d, UNROLL = %d\n", BX, BY, UNROLL);
  if (BX == 256 && BY == 4) {
    printf("RESULT: FAIL (a wrong answer at BX = 256, BY = 4)\n");
    return 1;
  }
  if (!(BX == 16 && BY == 1)) printf("BENCH prac=10 prog=fake_bench n=1 reps=1 ms=%.4f GBps=%.3f\n", ms, 8.0 / ms);
  printf("RESULT: PASS\n");
  return BX == 128 && BY == 8 ? 3 : 0;
}
