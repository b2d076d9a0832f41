/*
 * test.h -- a minimal test framework for the CPU tests (C11, gcc, no other dependency).
 *
 *   TEST(name) { CHECK(1 + 1 == 2); CHECK_NEAR(x, 0.5, 1e-12); }
 *   int main(void) { RUN(name); return test_summary(); }
 *
 * Each CHECK that fails prints file:line and the expression; each TEST counts as one test, passed
 * when all its checks hold. test_summary() prints "N passed, N failed" and returns the exit code.
 */
#ifndef TEST_H
#define TEST_H

#include <math.h>
#include <stdio.h>

static int test_passed, test_failed, test_current_failed;

#define CHECK(cond)                                                       \
  do {                                                                    \
    if (!(cond)) {                                                        \
      printf("    %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      test_current_failed = 1;                                            \
    }                                                                     \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                                                    \
  do {                                                                                                           \
    double test_a_ = (a), test_b_ = (b);                                                                         \
    if (!(fabs(test_a_ - test_b_) <= (tol))) {                                                                   \
      printf("    %s:%d: %s = %.17g, expected %s = %.17g (tolerance %g)\n", __FILE__, __LINE__, #a, test_a_, #b, \
             test_b_, (double)(tol));                                                                            \
      test_current_failed = 1;                                                                                   \
    }                                                                                                            \
  } while (0)

#define TEST(name) static void name(void)

#define RUN(name)                  \
  do {                             \
    test_current_failed = 0;       \
    name();                        \
    if (test_current_failed) {     \
      test_failed++;               \
      printf("FAIL  %s\n", #name); \
    } else {                       \
      test_passed++;               \
      printf("PASS  %s\n", #name); \
    }                              \
  } while (0)

static inline int test_summary(void) {
  printf("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed ? 1 : 0;
}

#endif /* TEST_H */
