/*
 * scan_chunks.cu -- practical 8, step 2b: many independent scans, each longer than a block, one block a scan.
 *
 * The input is nscans rows of n floats; row b is scanned (exclusive prefix sums) by block b alone, in chunks
 * of CHUNK = 128 elements with a carry between them (scan_chunks.cuh; the course's 2022 handout, 4th bullet).
 * No block waits for another, so any number of rows, and any n, works without the many-block machinery of
 * steps 3 and 4.
 *
 * The inputs are whole numbers 0..15, and a row's sums stay below 2^24 (n <= 2^20: 15 x 2^20 < 2^24), so
 * every partial sum is an exact float, in any order: the GPU must agree with the gold bit for bit
 * (`rms scan error = 0.000000`).
 *   nvcc -O3 -arch=native -I. -I../common scan_chunks.cu prac8_gold.c -o scan_chunks
 * The exercise (make exercises): exercises/scan_chunks, built with -DEXERCISE, takes the kernel from
 * exercises/scan_chunks.cuh, with the carry left out.
 */
#define COURSE_STEPS "practical 8, workbook step 2b (the course's 2022 handout, 4th bullet: long scans in one block)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 2b)s in exercises/scan_chunks.cuh"
#endif
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac8_gold.h"

#ifndef EXERCISE
#include "scan_chunks.cuh"
#else
#include "exercises/scan_chunks.cuh"
#endif

int main(int argc, char **argv) {
  int n = 10000, nscans = 2000, seed = 1;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, 1 << 20, "elements a scan (a row): sums below 2^24 keep the check exact"},
      {"nscans", ARG_INT, &nscans, 1, 1 << 20, "independent scans, one block each"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the input"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  size_t total = (size_t)n * nscans, bytes = total * sizeof(float);
  if (total > ((size_t)1 << 28)) args_fail("-n=%d -nscans=%d: %zu elements, more than 2^28", n, nscans, total);
  int user_sized = args_given(argc, argv, "n") || args_given(argc, argv, "nscans");

  findCudaDevice(argc, argv);
  device_memory_check(2 * bytes, "the input and the output", user_sized);

  // the rows, whole numbers 0..15, and their exclusive scans in double, row by row
  float *h_data = (float *)malloc(bytes), *h_out = (float *)malloc(bytes);
  double *h_gold = (double *)malloc(total * sizeof(double));
  if (!h_data || !h_out || !h_gold) return result_fail("out of host memory");
  for (size_t i = 0; i < total; i++) h_data[i] = (float)(prac8_hash(i, seed) % 16);
  for (int b = 0; b < nscans; b++) scan_gold(h_gold + (size_t)b * n, h_data + (size_t)b * n, n);

  // device arrays, the output poisoned (0xff bytes: NaN): an element no thread writes cannot pass
  float *d_idata, *d_odata;
  checkCudaErrors(cudaMalloc((void **)&d_idata, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_odata, bytes));
  checkCudaErrors(cudaMemcpy(d_idata, h_data, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_odata, 0xff, bytes));

  // one block of CHUNK threads per row
  event_timer t = event_timer_start();
  scan_chunks<<<nscans, CHUNK>>>(d_odata, d_idata, n);
  getLastCudaError("scan_chunks execution failed");
  float ms = event_timer_stop(&t);
  checkCudaErrors(cudaMemcpy(h_out, d_odata, bytes, cudaMemcpyDeviceToHost));

  printf("scan_chunks: %d scans of %d elements, %d chunks of %d each, one block a scan\n", nscans, n,
         (n + CHUNK - 1) / CHUNK, CHUNK);
  printf("%.3f ms (one launch, its start-up included), %.1f GB/s\n", ms, 2.0 * bytes / (ms * 1e-3) / 1e9);
  gold_stats st;
  compare_float_double(h_out, h_gold, total, 0.0, 0.0, &st);
  printf("rms scan error = %f\n", st.rms_err);
  gold_report("scan", &st);

  free(h_data);
  free(h_out);
  free(h_gold);
  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  return gold_verdict(&st, "scan");
}
