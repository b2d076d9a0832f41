/*
 * rng.h -- the one generator of the workbook's test inputs. Plain C (the gold files and the CPU tests use it).
 *
 * A linear congruential generator with Numerical Recipes' constants: the same numbers on every machine and
 * compiler, so a run with the same -seed sees the same data, and good enough for test data (not for Monte
 * Carlo: prac2 uses cuRAND). Each float carries the state's top 24 bits, so it is exact and never 1.0.
 *
 *   unsigned int s = lcg_seed(seed);        // spreads small seeds (0, 1, 2, ...) apart
 *   float u = lcg_uniform(&s);              // in [0, 1)
 *   float v = lcg_uniform_in(&s, -1, 1);    // in [lo, hi)
 */
#ifndef RNG_H
#define RNG_H

#include <stddef.h>

static inline unsigned int lcg_next(unsigned int *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

static inline unsigned int lcg_seed(unsigned int seed) { return seed * 2654435761u + 12345u; }

static inline float lcg_uniform(unsigned int *state) {
  return (float)(lcg_next(state) >> 8) * (1.0f / 16777216.0f);
}

static inline float lcg_uniform_in(unsigned int *state, float lo, float hi) {
  return lo + (hi - lo) * lcg_uniform(state);
}

#endif /* RNG_H */
