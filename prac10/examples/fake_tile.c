/*
 * fake_tile.c -- a stand-in for a GPU kernel with a tile in shared memory, for step 2's exercises (no GPU needed).
 * Built with -DBX= -DBY= (the block) and -DTILE= (floats each thread keeps in shared memory; 1 unless given), it
 * checks its launch against the limits of the GPU profile that WORKBOOK_GPU_PROFILE names (common/gpu_limits.h:
 * the limits tune's DEVICE_ names read), as a real launch is checked, and fails as a real program does when the
 * block is past one: BX * BY threads, BX * BY * TILE * 4 bytes of shared memory. Otherwise it prints a BENCH line
 * whose time is a known function of the three,
 *   ms = 2 + ((BX * BY - 256) / 256)^2 + |log2(TILE) - 3| / 4
 * least, 2.0, with 256 threads per block and TILE = 8.
 */
#include <math.h>
#include <stdio.h>

#include "gpu_limits.h"

#if !defined(BX) || !defined(BY)
#error "build with -DBX=... -DBY=... (and -DTILE=...)"
#endif
#ifndef TILE
#define TILE 1
#endif

int main(void) {
  const gpu_limits *g;
  char msg[256];
  if (gpu_profile_from_env(&g, msg, sizeof(msg)) || !g) {
    printf("RESULT: SKIP (fake_tile stands in for a GPU kernel on a GPU profile: set WORKBOOK_GPU_PROFILE=t4)\n");
    return 2;
  }
  long threads = (long)BX * BY, smem = threads * TILE * 4;
  printf("fake_tile: BX = %d, BY = %d, TILE = %d on the GPU profile %s\n", BX, BY, TILE, g->profile);
  if (threads > 1024) { /* every GPU of compute capability 2.0 on */
    printf("RESULT: FAIL (bad input: a block of %ld threads: over the 1024 a block may have)\n", threads);
    return 1;
  }
  if (smem > g->smem_block) {
    printf("RESULT: FAIL (bad input: %ld bytes of shared memory per block (BX x BY x TILE x 4): over the %d a block "
           "may have on %s)\n",
           smem, g->smem_block, g->name);
    return 1;
  }
  double d = (threads - 256) / 256.0, ms = 2 + d * d + fabs(log2((double)TILE) - 3) / 4;
  printf("BENCH prac=10 prog=fake_tile n=1 reps=1 ms=%.4f\n", ms);
  printf("RESULT: PASS\n");
  return 0;
}
