/*
 * sort/radix4_ranks.cuh -- practical 8, step 8 (-kernel=2): the two placements of a 4-bit pass, the lesson of
 * step 8 (handout: "Write it first"; its starting file is exercises/radix4_ranks.cuh). radix4_warp_rank (step
 * 8a): a key's rank among the keys of its warp with the same digit, in lane order. radix4_hist_index (step
 * 8b): where block b's count of digit d goes, digit-major, so that one exclusive scan of the counts gives
 * every (digit, block) the place of its first key. The kernels that use them are sort/k2_four_bit.cuh.
 */
#ifndef PRAC8_RADIX4_RANKS_CUH
#define PRAC8_RADIX4_RANKS_CUH

#include "sort_common.cuh" // lanemask_lt, FULL_MASK

// Step 8a: __match_any_sync(mask, d) gives every lane the mask of the lanes whose d equals its own (its own
// bit included): the lanes below mine in it are the keys of my digit that come before me, my rank; their
// number is the group's size, which the lowest lane records for the whole group.
__device__ __forceinline__ unsigned radix4_warp_rank(unsigned d, int lane, unsigned *group) {
  unsigned peers = __match_any_sync(FULL_MASK, d);
  *group = __popc(peers);
  return __popc(peers & lanemask_lt(lane));
}

// Step 8b: all of digit 0's counts (block 0, 1, ...), then all of digit 1's, ...: the exclusive scan at
// (d, b) is then every key of a smaller digit plus the keys of digit d in the blocks before b.
__device__ __forceinline__ size_t radix4_hist_index(unsigned d, unsigned block, unsigned nblocks) {
  return (size_t)d * nblocks + block;
}

#endif /* PRAC8_RADIX4_RANKS_CUH */
