/*
 * vector_add.cu -- the harness for LeetGPU's "Vector Addition" (practical 1, step 8).
 *
 * LeetGPU asks for  extern "C" void solve(const float *A, const float *B, float *C, int N)  working on
 * device pointers. This harness fills A and B with random floats, calls solve(), checks C against the
 * CPU, and with -bench times it against a device-to-device copy of the same bytes.
 * It is linked with one answer to make each program:
 *   vector_add       = vector_add.cu + vector_add_solve.cu        (one float per thread)
 *   vector_add_vec4  = vector_add.cu + vector_add_vec4_solve.cu   (16-byte loads and stores)
 * -offset=1 shifts all three pointers by one float, so they are no longer 16-byte aligned.
 */
#define COURSE_STEPS "practical 1, workbook step 8 (beyond the course: LeetGPU's Vector Addition)"
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "rng.h"
#include "timing.h"

#include "prac1_gold.h"

extern "C" void solve(const float *A, const float *B, float *C, int N);
extern "C" const char solve_name[];

typedef struct {
  const float *A, *B;
  float *C;
  int N;
} solve_args;

static void run_solve(void *p) {
  solve_args *a = (solve_args *)p;
  solve(a->A, a->B, a->C, a->N);
}

int main(int argc, char **argv) {
  int N = 25000000, offset = 0, seed = 1, bench = 0, reps = 20;
  arg_spec opts[] = {
      {"n", ARG_INT, &N, 1, 1 << 29, "vector length"},
      {"offset", ARG_INT, &offset, 0, 3, "shift the pointers by this many floats (misalignment)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the random inputs"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time solve() and a device-to-device copy, print BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is reported)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  int dev = findCudaDevice(argc, argv);
  size_t bytes = (size_t)N * sizeof(float);
  size_t alloc = bytes + offset * sizeof(float);
  device_memory_check(3 * alloc, "A, B and C", args_given(argc, argv, "n"));

  // random A and B on the host
  float *h_A = (float *)malloc(bytes), *h_B = (float *)malloc(bytes);
  float *h_C = (float *)malloc(bytes), *h_gold = (float *)malloc(bytes);
  if (!h_A || !h_B || !h_C || !h_gold) return result_fail("out of host memory");
  unsigned int state = (unsigned int)seed;
  for (int i = 0; i < N; i++) {
    h_A[i] = lcg_uniform_in(&state, -1.0f, 1.0f);
    h_B[i] = lcg_uniform_in(&state, -1.0f, 1.0f);
  }

  // device arrays, each shifted by `offset` floats; C poisoned with 0xff bytes (NaN)
  float *d_A0, *d_B0, *d_C0;
  checkCudaErrors(cudaMalloc((void **)&d_A0, alloc));
  checkCudaErrors(cudaMalloc((void **)&d_B0, alloc));
  checkCudaErrors(cudaMalloc((void **)&d_C0, alloc));
  float *d_A = d_A0 + offset, *d_B = d_B0 + offset, *d_C = d_C0 + offset;
  checkCudaErrors(cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_C0, 0xff, alloc));

  // the answer under test
  solve(d_A, d_B, d_C, N);
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost));
  printf("%s: N = %d, offset = %d\n", solve_name, N, offset);

  // one float addition per element on both sides: the results must be identical
  Gold_vector_add(h_A, h_B, h_gold, (size_t)N);
  gold_stats st;
  compare_float(h_C, h_gold, (size_t)N, 0.0, 0.0, &st);
  gold_report("C", &st);

  if (bench && st.nbad == 0) {
    // minimum traffic: read A and B, write C
    double moved = 3.0 * (double)bytes;
    solve_args a = {d_A, d_B, d_C, N};
    bench_ref ref = bench_reference(dev, moved, reps); // a copy that moves the same number of bytes
    char size[32], extra[32];
    snprintf(size, sizeof(size), "%d", N);
    snprintf(extra, sizeof(extra), "offset=%d", offset);
    checkCudaErrors(cudaMemset(d_C0, 0xff, alloc)); // poisoned again: what the timed runs wrote is checked
    bench_report(&ref, "1", solve_name, size, run_solve, &a, reps, moved, extra);
    checkCudaErrors(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost));
    compare_float(h_C, h_gold, (size_t)N, 0.0, 0.0, &st);
    gold_report("C after the timed runs", &st);
  }

  checkCudaErrors(cudaFree(d_A0));
  checkCudaErrors(cudaFree(d_B0));
  checkCudaErrors(cudaFree(d_C0));
  free(h_A);
  free(h_B);
  free(h_C);
  free(h_gold);

  return gold_verdict(&st, "C");
}
