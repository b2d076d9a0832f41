/*
 * exercises/reduction_ladder.cu -- the starting file of practical 4, steps 2 to 6: reduction_ladder.cu with
 * the kernels in exercises/r*.cuh (each with its lesson cut out and marked TODO(step N)) instead of
 * ../kernels/. Fill in one step at a time, then `make exercises && ./exercises/reduction_ladder -step=N`:
 * it ends RESULT: FAIL (exercise not done: ...) until that step's sum matches the gold.
 *   nvcc -O3 -arch=sm_90 -I. -I../common exercises/reduction_ladder.cu reduction_gold.c -o exercises/reduction_ladder
 */
#define LADDER_EXERCISE
#include "../kernels/ladder.h"
#include "helper_cuda.h"
#include <math.h>
#include "r2_any_threads.cuh"
#include "r3_many_blocks.cuh"
#include "r4_shfl.cuh"
#include "r5_reduce_add.cuh"
#include "r6_fast.cuh"

#include "../reduction_ladder.cu"
