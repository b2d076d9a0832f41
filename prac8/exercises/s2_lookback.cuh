/*
 * exercises/s2_lookback.cuh -- the starting file of practical 8, step 4: scans/s2_lookback.cuh with the
 * decoupled look-back cut out (lookback(), TODO(step 4)). `make exercises` builds ./exercises/scan_blocks from
 * scan_blocks.cu with this file in place of the finished one. Until it is written every tile after the first
 * gets 0 for the sum of the tiles before it, scan_lookback's output is wrong past the first tile, and the
 * program ends RESULT: FAIL (exercise not done: ...). The finished version is ../scans/s2_lookback.cuh.
 */
#ifndef PRAC8_S2_LOOKBACK_CUH
#define PRAC8_S2_LOOKBACK_CUH

// what the verdict line tells the learner (before gold_check.h, which lookback_status.cuh includes)
#define EXERCISE_TODO "fill in the TODO(step 4) in exercises/s2_lookback.cuh"

#include "../scans/lookback_status.cuh"

// Warp 0 finds the sum of every tile before `tile`. Lane l looks at tile - 1 - l, 32 predecessors at a
// time: each lane waits until its tile has published something; then the lanes up to the nearest P are
// summed (A values of the tiles in between, then the P), and if there was no P the warp moves 32 tiles
// further back. Tiles before 0 count as P with value 0.
template <typename T>
__device__ T lookback(unsigned long long *status, int tile, unsigned epoch, int lane, int *error) {
  // TODO(step 4): return the sum of every tile before `tile`, looking back 32 tiles at a time: lane l reads
  // the status word of tile (pred - l) for pred = tile - 1, tile - 33, ... (tiles before 0 count as P with
  // value 0). Read a word w with *(volatile unsigned long long *)&status[idx]; published(w, epoch) says
  // whether it was published in this launch; the flag is (unsigned)(w >> 32) & 3u (FLAG_A or FLAG_P) and the
  // value from_bits<T>((unsigned)w). Spin until it is published (after SPIN_LIMIT tries,
  // atomicExch(error, 1) and stop waiting). Then __ballot_sync finds the nearest P (the lowest lane with
  // FLAG_P); the lanes up to and including it add their values (a __shfl_xor_sync reduction); stop if there
  // was a P, else go 32 tiles further back.
  (void)status, (void)tile, (void)epoch, (void)lane, (void)error;
  return (T)0;
}

#endif /* PRAC8_S2_LOOKBACK_CUH */
