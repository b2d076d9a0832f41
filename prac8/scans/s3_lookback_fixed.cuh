/*
 * scans/s3_lookback_fixed.cuh -- practical 8, step 4, deterministic (-kernel=3): a look-back that adds the
 * same values in the same order on every run (groups of 32 tiles, supergroups of 1024), so that random floats
 * give the same bits every time. The kernel that calls it is scans/scan_lookback.cuh (FIXED = true).
 */
#include "lookback_status.cuh"

// ---- step 4, deterministic: the same prefix, whichever tiles have finished ----------------------------
//
// With random floats, lookback() can return different sums for the same tile on two runs: where it meets
// its first P depends on timing, and float addition is not associative, so the last bit changes. Here every
// sum a tile uses has one fixed shape. Tiles come in groups of 32 and supergroups of 32 groups (1024 tiles):
//   A(t)  the tile's total, published at once (as before);
//   S(g)  the total of group g: the fixed sum (fixed_sum, below) of its 32 A's, published by its last tile;
//   P(h)  everything up to the end of supergroup h: P(h-1) + the fixed sum of its 32 S's, published by its
//         last tile (the only chain, one link every 1024 tiles).
// Tile t = 1024 h + 32 gi + l then takes  (P(h-1) + fixed sum of S(32 h .. 32 h + gi - 1))
//                                          + fixed sum of A(32 g .. 32 g + l - 1):
// the same operations on the same values every run, so the same bits. It waits for more than the decoupled
// look-back does: every tile in its group before it (the A's) and, through S, every tile in its supergroup. An
// S goes out only when the group's last tile reaches its look-back, after its own scan, so the next group's
// tiles, which reach theirs soon after, wait for it: most of what kernel 3 loses to kernel 2 (measured in
// docs/notes/prac8.md, "Where the H200's points went").

// the sum over the warp of one value per lane, always in the same order (a tree over the lanes), lane 0's result
// in every lane
template <typename T> __device__ __forceinline__ T fixed_sum(T v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(FULL_MASK, v, d);
  return __shfl_sync(FULL_MASK, v, 0);
}

// warp 0 of tile `tile` (whose total is agg, its A already published): publishes S and P where it must;
// returns the sum of all the tiles before it. Every word it needs (lane j: A(32 g + j) and S(32 h + j); lane 0:
// P(h - 1)) is asked for in the same pass, and again only where the answer was "not yet": one round trip to
// L2 when all have been published, not one for the A's, one for the S's and one for the P in turn.
template <typename T>
__device__ T lookback_fixed(unsigned long long *st_a, unsigned long long *st_s, unsigned long long *st_p, int tile,
                            T agg, unsigned epoch, int lane, int *error) {
  int l = tile & 31, g = tile >> 5, gi = g & 31, h = tile >> 10;
  bool need_a = lane < l, need_s = lane < gi, need_p = lane == 0 && h > 0;
  unsigned long long wa = 0, ws = 0, wp = 0;
  bool ok_a = !need_a, ok_s = !need_s, ok_p = !need_p;
  bool s_done = (l != 31); // only a group's last tile publishes S
  T s_mine = 0;
  for (int spins = 0;; spins++) {
    if (!ok_a) ok_a = published(wa = *(const volatile unsigned long long *)&st_a[32 * g + lane], epoch);
    if (!ok_s) ok_s = published(ws = *(const volatile unsigned long long *)&st_s[32 * h + lane], epoch);
    if (!ok_p) ok_p = published(wp = *(const volatile unsigned long long *)&st_p[h - 1], epoch);
    // the group's last tile publishes S(g) as soon as the group's A's are in, without waiting for the S's
    if (!s_done && __all_sync(FULL_MASK, ok_a)) {
      T a = (lane < l) ? from_bits<T>((unsigned)wa) : (lane == l) ? agg : (T)0;
      s_mine = fixed_sum(a);
      if (lane == 0) publish(st_s, g, epoch, FLAG_A, to_bits(s_mine));
      s_done = true;
    }
    if (__all_sync(FULL_MASK, ok_a && ok_s && ok_p)) break;
    if (spins == SPIN_LIMIT) { // never in a correct program: report it instead of hanging
      atomicExch(error, 1);
      break;
    }
    __nanosleep(64);
  }
  T a_before = fixed_sum((lane < l) ? from_bits<T>((unsigned)wa) : (T)0); // A(32 g .. 32 g + l - 1)
  T sg = (lane < gi) ? from_bits<T>((unsigned)ws) : (T)0;                 // S(32 h .. 32 h + gi - 1)
  T s_before = fixed_sum(sg);
  T p = (h > 0) ? __shfl_sync(FULL_MASK, from_bits<T>((unsigned)wp), 0) : (T)0; // P(h - 1)
  if (l == 31 && gi == 31) { // the supergroup's last tile: P(h)
    T q = fixed_sum((lane == 31) ? s_mine : sg);
    if (lane == 0) publish(st_p, h, epoch, FLAG_P, to_bits(p + q));
  }
  return (p + s_before) + a_before;
}
