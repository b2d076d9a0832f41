/*
 * exercises/sgemm_ladder.cu -- the starting file of practical 5, step 5 (the shared-memory tile): the
 * finished sgemm_ladder.cu with step 2's kernel taken from exercises/k2_shared.cuh, where the lesson is cut
 * out and marked TODO(step 2). Fill it in, then `make exercises && ./exercises/sgemm_ladder -kernel=2`:
 * RESULT: FAIL (exercise not done: ...) until C matches the gold and cuBLAS.
 *   nvcc -O3 -arch=sm_90 -I. -I../common exercises/sgemm_ladder.cu prac5_gold.c -lcublas -o exercises/sgemm_ladder
 */
#define SGEMM_EXERCISE
#define SGEMM_DEFAULT_KERNEL 2 // without -kernel, the step to write
#include "../sgemm_ladder.cu"
