/*
 * exercises/prac6b.cu -- practical 6, step 3: add double to the template kernel.
 *
 * The finished program is ../prac6b.cu: try first. The kernel below is already a template; it runs for float
 * and int. Fill in the place marked TODO(step 3) so that it runs for double too, then
 * `make exercises/prac6b && ./exercises/prac6b`. Until then the double lines (n, d) print nan (the poison) and the
 * program ends RESULT: FAIL (exercise not done: ...).
 *
 * What the finished program says:
 *
 * `template <class T>` makes my_first_kernel a pattern; each my_first_kernel<T><<<...>>> launch makes nvcc
 * compile one more real kernel with T replaced (ptxas lists three: look for IfE, IiE, IdE in the mangled
 * names of the build log). Each copy has its own arithmetic: threadIdx.x / 2 is 3.5 in float and double and
 * 3 in int, from one line of source. A macro would paste text instead, with no types and no checks.
 *   nvcc -O3 -arch=native -DEXERCISE -I. -I../common exercises/prac6b.cu prac6_gold.c -o exercises/prac6b   (in prac6/)
 */
#define COURSE_STEPS "practical 6, workbook step 3 (course step 2)"
#define EXERCISE_TODO "fill in the TODO(step 3) in exercises/prac6b.cu" // for the verdict (gold_check.h)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

#include "prac6_gold.h"

#define NPRINT 16 // values printed for each type

// one thread per element: half its index within the block, in T's own arithmetic
template <class T>
__global__ void my_first_kernel(T *x) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  x[tid] = (T)threadIdx.x / (T)2;
}

// allocate, poison, launch and copy back, for any T: the host side can be a template too
template <class T>
void run_kernel(T *h_x, int nblocks, int nthreads) {
  size_t bytes = (size_t)nblocks * nthreads * sizeof(T);
  T *d_x;
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));
  checkCudaErrors(cudaMemset(d_x, 0xff, bytes)); // NaN for float and double, -1 for int: never written
  my_first_kernel<T><<<nblocks, nthreads>>>(d_x);
  getLastCudaError("my_first_kernel execution failed");
  checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d_x));
}

int main(int argc, char **argv) {
  int nblocks = 2, nthreads = 8;
  arg_spec opts[] = {
      {"nblocks", ARG_INT, &nblocks, 1, 1 << 20, "number of thread blocks"},
      {"nthreads", ARG_INT, &nthreads, 1, 1024, "threads per block"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  long long nsize = (long long)nblocks * nthreads;
  if (nsize > (1LL << 26)) args_fail("nblocks * nthreads is over 2^26 elements");
  size_t n = (size_t)nsize;

  findCudaDevice(argc, argv);

  float *h_xf = (float *)malloc(n * sizeof(float)), *h_gf = (float *)malloc(n * sizeof(float));
  int *h_xi = (int *)malloc(n * sizeof(int)), *h_gi = (int *)malloc(n * sizeof(int));
  double *h_xd = (double *)malloc(n * sizeof(double)), *h_gd = (double *)malloc(n * sizeof(double));
  if (!h_xf || !h_gf || !h_xi || !h_gi || !h_xd || !h_gd) return result_fail("out of host memory");

  // the same kernel three times: T = float, int, double
  run_kernel<float>(h_xf, nblocks, nthreads);
  run_kernel<int>(h_xi, nblocks, nthreads);
  // TODO(step 3): the same for T = double, into h_xd. How much must you write, with the kernel and
  // run_kernel already templates? Once it is built, .obj/exercises/prac6b/exercises/prac6b.cu.log (ptxas's
  // report) lists a third kernel, _Z15my_first_kernelIdEvPT_: a template is compiled per type it is used with.
  for (size_t i = 0; i < n; i++) h_xd[i] = NAN; // what the poisoned device array would give back: delete this

  // the course's lines, float then int, exactly as it prints them (so that a learner can diff against its log);
  // then the workbook's double, in the same form
  size_t nprint = n < NPRINT ? n : NPRINT;
  for (size_t i = 0; i < nprint; i++) printf(" n,  x  =  %zu  %f \n", i, h_xf[i]);
  if (n > NPRINT) printf(" ... (%zu more)\n", n - NPRINT);
  for (size_t i = 0; i < nprint; i++) printf(" n,  i  =  %zu  %d \n", i, h_xi[i]);
  if (n > NPRINT) printf(" ... (%zu more)\n", n - NPRINT);
  for (size_t i = 0; i < nprint; i++) printf(" n,  d  =  %zu  %f \n", i, h_xd[i]);
  if (n > NPRINT) printf(" ... (%zu more)\n", n - NPRINT);

  // check each type against its gold: halves of small integers are exact in float and double
  Gold_prac6b_float(h_gf, nblocks, nthreads);
  Gold_prac6b_int(h_gi, nblocks, nthreads);
  Gold_prac6b_double(h_gd, nblocks, nthreads);
  gold_stats sf, si, sd;
  compare_float(h_xf, h_gf, n, 0.0, 0.0, &sf);
  compare_int(h_xi, h_gi, n, &si);
  compare_double(h_xd, h_gd, n, 0.0, 0.0, &sd);
  gold_report("float", &sf);
  gold_report("int", &si);
  gold_report("double", &sd);

  free(h_xf);
  free(h_gf);
  free(h_xi);
  free(h_gi);
  free(h_xd);
  free(h_gd);

  if (sf.nbad) return gold_verdict(&sf, "float");
  if (si.nbad) return gold_verdict(&si, "int");
  return gold_verdict(&sd, "double");
}
