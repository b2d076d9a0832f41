/*
 * exercises/radix4_ranks.cuh -- the starting file of practical 8, step 8: sort/radix4_ranks.cuh with both
 * placements of a 4-bit pass cut out. `make exercises/radix_sort` builds the program from radix_sort.cu with
 * this file in place of the finished one; sort/k2_four_bit.cuh's kernels call these two functions. First
 * TODO(step 8a), radix4_warp_rank: run ./exercises/radix_sort -kernel=2 -n=4096 (one tile) until it passes.
 * Then TODO(step 8b), radix4_hist_index: run ./exercises/radix_sort -kernel=2 -n=1000003. Until both are
 * written its run ends RESULT: FAIL (exercise not done: ...). The finished versions: ../sort/radix4_ranks.cuh.
 */
#ifndef PRAC8_RADIX4_RANKS_CUH
#define PRAC8_RADIX4_RANKS_CUH

// what the verdict line tells the learner (before gold_check.h, which sort_common.cuh includes)
#define EXERCISE_TODO                                                                                          \
  "fill in the TODO(step 8a) in exercises/radix4_ranks.cuh (check it with -kernel=2 -n=4096), then the "       \
  "TODO(step 8b)"

#include "../sort/sort_common.cuh" // lanemask_lt, FULL_MASK

// Step 8a: every lane of the warp calls this with its key's digit d (0..15, or 16 for a lane past the end of
// the keys: a group of its own). Return the number of lanes below mine whose d equals mine (my rank: the keys
// of my digit that come before mine in the warp), and set *group to the number of lanes whose d equals mine,
// mine included (the lowest lane of each group records it for the whole group).
__device__ __forceinline__ unsigned radix4_warp_rank(unsigned d, int lane, unsigned *group) {
  // TODO(step 8a): step 7 ranked a key by counting, in a ballot's mask, the lanes below it. Here the lanes
  // that count are those with my digit, one of 16 values: __match_any_sync(FULL_MASK, d) gives each lane the
  // mask of the lanes whose d equals its own. Every lane must make the call. What is left is step 7's count.
  // As it stands every key is alone in its group: keys of the same digit in a warp land on the same place.
  (void)d, (void)lane;
  *group = 1;
  return 0;
}

// Step 8b: block `block` of `nblocks` has counted the keys of digit d (0..15) in its tile; this is the index
// in hist[] (16 * nblocks counts) where that count goes, and where the scatter finds, after the exclusive
// scan of all of hist[], the place of the block's first key of digit d.
__device__ __forceinline__ size_t radix4_hist_index(unsigned d, unsigned block, unsigned nblocks) {
  // TODO(step 8b): order the counts so that everything that must come before (d, block) in the sorted output
  // comes before it in hist[]. As it stands each block's 16 counts lie side by side.
  (void)nblocks;
  return (size_t)block * 16 + d;
}

#endif /* PRAC8_RADIX4_RANKS_CUH */
