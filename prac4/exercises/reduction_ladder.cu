/*
 * exercises/reduction_ladder.cu -- the starting file of practical 4, steps 2 to 6: reduction_ladder.cu with
 * the kernels of exercises/kernels/ (each with its lesson cut out and marked TODO(step N)) instead of
 * ../kernels/. Fill in one step at a time, then `make exercises && ./exercises/reduction_ladder -step=N`:
 * it ends RESULT: FAIL (exercise not done: ...) until that step's sum matches the gold.
 *   nvcc -O3 -arch=sm_90 -I. -I../common exercises/reduction_ladder.cu reduction_gold.c -o exercises/reduction_ladder
 */
#define LADDER_EXERCISE
#include "../kernels/ladder.h"
#include "helper_cuda.h"
#include <math.h>
#include "kernels/r2_any_threads.cuh"
#include "kernels/r3_many_blocks.cuh"
#include "kernels/r4_shfl.cuh"
#include "kernels/r5_reduce_add.cuh"
#include "kernels/r6_fast.cuh"

#include "../reduction_ladder.cu"
