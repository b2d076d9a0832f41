/*
 * scans/s2_lookback.cuh -- practical 8, step 4 (-kernel=2): the decoupled look-back, the lesson of step 4
 * (handout: "Write it"; its starting file is exercises/s2_lookback.cuh). A block takes its tile from an
 * atomic ticket, publishes its total at once (flag A), looks back over its predecessors' published values
 * until it meets an inclusive prefix (flag P), and publishes its own inclusive prefix. Two walks back, written
 * in this order: lookback_lane (step 4a, -walk=lane), one lane and one tile at a time, the stepping stone;
 * lookback (step 4b, the default), the warp 32 tiles at a time. The kernel that calls them, with the tile in
 * shared memory, is scans/scan_lookback.cuh.
 */
#ifndef PRAC8_S2_LOOKBACK_CUH
#define PRAC8_S2_LOOKBACK_CUH

#include "lookback_status.cuh"

// Step 4a: lane 0 of warp 0 alone finds the sum of every tile before `tile`, one tile at a time: it waits
// until tile pred has published something; an A is that tile's total alone, so it adds it and goes on to
// pred - 1; a P is everything up to and including pred, so it adds it and stops. Tile 0 publishes P at once,
// so the walk always ends. Correct, but each tile passed costs a round trip to L2, one after the other.
template <typename T>
__device__ T lookback_lane(unsigned long long *status, int tile, unsigned epoch, int *error) {
  T excl = 0;
  for (int pred = tile - 1; pred >= 0; pred--) {
    unsigned long long w;
    for (int spins = 0;; spins++) {
      w = *(volatile unsigned long long *)&status[pred];
      if (published(w, epoch)) break;
      if (spins == SPIN_LIMIT) { // never in a correct program: report it instead of hanging
        atomicExch(error, 1);
        return excl;
      }
      __nanosleep(64); // not yet: wait a little before asking again
    }
    excl += from_bits<T>((unsigned)w);
    if (((unsigned)(w >> 32) & 3u) == FLAG_P) return excl;
  }
  return excl;
}

// Step 4b: the same walk, 32 tiles per round. Warp 0 finds the sum of every tile before `tile`. Lane l looks
// at tile - 1 - l, 32 predecessors at a time: each lane waits until its tile has published something; then
// the lanes up to the nearest P are summed (A values of the tiles in between, then the P), and if there was
// no P the warp moves 32 tiles further back. Tiles before 0 count as P with value 0.
template <typename T>
__device__ T lookback(unsigned long long *status, int tile, unsigned epoch, int lane, int *error) {
  T excl = 0;
  for (int pred = tile - 1;; pred -= 32) {
    int idx = pred - lane;
    unsigned flag = FLAG_P, bits = 0;
    if (idx >= 0) {
      for (int spins = 0;; spins++) {
        unsigned long long w = *(volatile unsigned long long *)&status[idx];
        if (published(w, epoch)) {
          flag = (unsigned)(w >> 32) & 3u;
          bits = (unsigned)w;
          break;
        }
        if (spins == SPIN_LIMIT) { // never in a correct program: report it instead of hanging
          atomicExch(error, 1);
          break;
        }
        __nanosleep(64); // not yet: wait a little before asking again, leaving the memory system to the loads
      }
    }
    unsigned pmask = __ballot_sync(FULL_MASK, flag == FLAG_P);
    int stop = pmask ? __ffs(pmask) - 1 : 31; // the nearest P, or all 32 lanes if none
    T v = (lane <= stop) ? from_bits<T>(bits) : (T)0;
#pragma unroll
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(FULL_MASK, v, d);
    excl += v;
    if (pmask) return excl;
  }
}

#endif /* PRAC8_S2_LOOKBACK_CUH */
