/*
 * exercises/s2_lookback.cuh -- the starting file of practical 8, step 4: scans/s2_lookback.cuh with both walks
 * back cut out. `make exercises/scan_blocks` builds the program from scan_blocks.cu with this file in place of
 * the finished one. First TODO(step 4a), lookback_lane(): one lane, one tile at a time; run
 * ./exercises/scan_blocks -kernel=2 -walk=lane -n=1000003 until it passes. Then TODO(step 4b), lookback(): the
 * same walk with the whole warp, 32 tiles per round; run without -walk. Until a walk is written every tile after
 * the first gets 0 for the sum of the tiles before it, and its run ends RESULT: FAIL (exercise not done: ...).
 * The caller is step (d) of ../scans/scan_lookback.cuh: warp 0 walks after the tile's scan (lane 0 alone with
 * -walk=lane); lane 0 publishes P = result + agg and hands the result to the block in s_tile_prefix.
 * The finished versions are in ../scans/s2_lookback.cuh.
 */
#ifndef PRAC8_S2_LOOKBACK_CUH
#define PRAC8_S2_LOOKBACK_CUH

// what the verdict line tells the learner (before gold_check.h, which lookback_status.cuh includes)
#define EXERCISE_TODO \
  "fill in the TODO(step 4a) in exercises/s2_lookback.cuh for -walk=lane, then the TODO(step 4b) for the default"

#include "../scans/lookback_status.cuh"

// A status word w (of tile idx, in this launch's epoch) and what it holds:
//   w = *(volatile unsigned long long *)&status[idx];   one 8-byte load: flag and value arrive together
//   published(w, epoch)           has the tile published anything yet in this launch?
//   (unsigned)(w >> 32) & 3u      its flag: FLAG_A (the tile's own total) or FLAG_P (all up to and including it)
//   from_bits<T>((unsigned)w)     its value
// Not published yet: __nanosleep(64) and read it again; after SPIN_LIMIT tries, atomicExch(error, 1) and stop
// waiting (a bug, reported rather than hanging the GPU).

// Step 4a: lane 0 of warp 0 alone finds the sum of every tile before `tile`, one tile at a time.
template <typename T>
__device__ T lookback_lane(unsigned long long *status, int tile, unsigned epoch, int *error) {
  // TODO(step 4a): for pred = tile - 1, tile - 2, ..., 0: wait until tile pred has published; add its value;
  // if its flag is FLAG_P you have everything before `tile`: stop. (An A is that tile's total alone: go on to
  // pred - 1. Tile 0 publishes P at once, so the walk always ends.)
  (void)status, (void)tile, (void)epoch, (void)error;
  return (T)0;
}

// Step 4b: the same walk, 32 tiles per round. Warp 0 finds the sum of every tile before `tile`. Lane l looks
// at tile - 1 - l, 32 predecessors at a time: each lane waits until its tile has published something; then
// the lanes up to the nearest P are summed (A values of the tiles in between, then the P), and if there was
// no P the warp moves 32 tiles further back. Tiles before 0 count as P with value 0.
template <typename T>
__device__ T lookback(unsigned long long *status, int tile, unsigned epoch, int lane, int *error) {
  // TODO(step 4b): return the sum of every tile before `tile`, looking back 32 tiles at a time: lane l reads
  // the status word of tile idx = pred - l for pred = tile - 1, tile - 33, ... (idx < 0: count it as FLAG_P
  // with value 0) and waits for it as in step 4a. Then m = __ballot_sync(FULL_MASK, its flag is FLAG_P) has
  // bit l set where lane l saw a P; the nearest P is the lowest such lane, __ffs(m) - 1 (__ffs counts from 1;
  // m == 0: no P). The lanes up to and including it (all 32 if none) add their values (a __shfl_xor_sync
  // reduction); stop if there was a P, else go 32 tiles further back. Every lane must reach the ballot, and
  // every lane must join each shuffle of the reduction: a lane past the nearest P joins it with 0.
  (void)status, (void)tile, (void)epoch, (void)lane, (void)error;
  return (T)0;
}

#endif /* PRAC8_S2_LOOKBACK_CUH */
