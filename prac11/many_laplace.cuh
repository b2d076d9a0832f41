/*
 * many_laplace.cuh -- practical 11, step 3: the arithmetic of many_laplace.cu, plain C (header only), so that
 * tests/test_prac11.c checks it with gcc and no GPU: the grids' sides, the blocks each grid launches, and the
 * prediction of how many grids the GPU can run at once.
 */
#ifndef MANY_LAPLACE_CUH
#define MANY_LAPLACE_CUH

#include <stddef.h>

#define MANY_GRIDS_MAX 64 /* the issue's 64 grids, each with a stream of its own */
#define MANY_SIDE_MAX 128 /* a side of 128: 2^21 points, 8 MiB a grid's array */

/* Grid g's side, of G grids: smin to smax in equal steps, rounded down (at the defaults 50 + (50 g) / 63: 50, 50,
 * 51, 52, 53, 53, ..., 99, 100, odd sides among them). One grid has the side smin. */
static inline int many_side(int g, int G, int smin, int smax) {
  return G > 1 ? smin + (int)((long long)(smax - smin) * g / (G - 1)) : smin;
}

/* The blocks of one sweep of a grid of side n: a 2-D grid of bx x by blocks over (i, j), rounded up (each thread
 * marches its column in k, so k adds no blocks) */
static inline long long many_blocks(int n, int bx, int by) {
  return (long long)((n + bx - 1) / bx) * ((n + by - 1) / by);
}

/* Points in all G grids together (n^3 each): the length of the packed arrays */
static inline size_t many_points(int G, int smin, int smax) {
  size_t p = 0;
  for (int g = 0; g < G; g++) {
    size_t n = (size_t)many_side(g, G, smin, smax);
    p += n * n * n;
  }
  return p;
}

typedef struct {
  long long min_blocks, max_blocks; /* blocks of the smallest grid and of the largest */
  double mean_blocks;               /* blocks per grid, on average over the G grids */
  long long slots;                  /* blocks the whole GPU holds at once: SMs x blocks per SM */
  double fill_pct;                  /* one grid of mean_blocks, in per cent of the slots */
  int fit;                          /* grids of mean_blocks that fit in the slots at once (0: not even one) */
  double bound;                     /* the predicted upper bound on the speed-up: min(G, slots / mean_blocks) */
} many_prediction;

/*
 * One after another, each sweep has the GPU to itself but fills only mean_blocks of its slots; side by side, up
 * to slots / mean_blocks sweeps of different grids run at once, and never more than G. So the streams can be at
 * most min(G, slots / mean_blocks) times faster, and at least as fast (1) as one stream, which the bound never
 * goes under. It is an upper bound only: the host's launches take microseconds each, and the GPU has only
 * CUDA_DEVICE_MAX_CONNECTIONS hardware queues for the streams to share.
 */
static inline many_prediction many_predict(int G, int smin, int smax, int bx, int by, int sms, int blocks_per_sm) {
  many_prediction p;
  long long sum = 0;
  for (int g = 0; g < G; g++) sum += many_blocks(many_side(g, G, smin, smax), bx, by);
  p.min_blocks = many_blocks(smin, bx, by);
  p.max_blocks = many_blocks(many_side(G - 1, G, smin, smax), bx, by);
  p.mean_blocks = (double)sum / G;
  p.slots = (long long)sms * blocks_per_sm;
  p.fill_pct = 100.0 * p.mean_blocks / (double)p.slots;
  p.fit = (int)((double)p.slots / p.mean_blocks);
  p.bound = (double)p.slots / p.mean_blocks;
  if (p.bound > G) p.bound = G;
  if (p.bound < 1.0) p.bound = 1.0;
  return p;
}

#endif /* MANY_LAPLACE_CUH */
