/*
 * exercises/transpose_ladder.cu -- the starting file of practical 5, step 6 (the padded tile): the finished
 * transpose_ladder.cu with step 3's kernel taken from exercises/t3_padded.cuh, where the lesson is cut out
 * and marked TODO(step 6). Fill it in, then `make exercises && ./exercises/transpose_ladder -kernel=3`:
 * RESULT: FAIL (exercise not done: ...) until the output matches the gold exactly.
 *   nvcc -O3 -arch=sm_90 -I. -I../common exercises/transpose_ladder.cu prac5_gold.c -lcublas -o exercises/transpose_ladder
 */
#define TRANSPOSE_EXERCISE
#define TRANSPOSE_DEFAULT_KERNEL 3 // without -kernel, the step to write
#include "../transpose_ladder.cu"
