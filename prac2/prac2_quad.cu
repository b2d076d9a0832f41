/*
 * prac2_quad.cu -- practical 2, step 5: the average of a*z^2 + b*z + c over standard normals z.
 *
 * Since E[z] = 0 and E[z^2] = 1 the answer is a + c, with standard error sqrt((2a^2 + b^2) / n). cuRAND
 * makes the n normals (host API), a, b and c sit in constant memory, and the sum is done four ways:
 *   1. sum_thread:   each thread sums its share in a register and writes it; the host adds the partial sums
 *   2. sum_atomic:   every term is added at once to one global total with atomicAdd
 *   2b. sum_atomic_thread: each thread sums its share, then makes one atomicAdd
 *   3. cub::DeviceReduce::TransformReduce: the library's reduction (what thrust::transform_reduce calls
 *      underneath), its temporary storage allocated once, outside the timed region, as CUB's own
 *      examples do; a thrust call would allocate, synchronise and copy the result back on every call
 * Gold: the CPU forms the same float terms (bit for bit) and sums them in double. Method 1 is checked thread
 * by thread, in any order of its additions; 2b against the CPU's own float partial sums of 2b's loop (bit for
 * bit, so method 1's order cannot matter to it), 2 and 3 against the whole sum: each within the rounding
 * bound of its own additions. Compare the times of 2 and 2b (handout step 5: why is 2 so slow?).
 *   nvcc -O3 -arch=native -I../common prac2_quad.cu prac2_quad_gold.c -o prac2_quad -lcurand
 * The exercise (make exercises): built with -DEXERCISE, method 1's kernel is the learner's,
 * exercises/sum_thread.cuh.
 */
#define COURSE_STEPS "practical 2, workbook step 5 (course step 6)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 5) in exercises/sum_thread.cuh"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "helper_curand.h"
#include "timing.h"

#include "prac2_gold.h"

#define BLOCK_THREADS 256

// the quadratic's coefficients: the same for every thread, so constant memory
__constant__ float a, b, c;

// (a*z + b)*z + c with two explicit fused multiply-adds: the rounding is pinned down, and the gold's C fmaf
// reproduces each term bit for bit
__device__ inline float quad(float z) { return __fmaf_rn(__fmaf_rn(a, z, b), z, c); }

#ifdef EXERCISE // make exercises: the learner's method 1
#include "exercises/sum_thread.cuh"
#else
// 1. thread tid takes z[tid], z[tid + nthreads], ...: at each step a warp reads 32 consecutive floats
__global__ void sum_thread(const float *d_z, long long n, float *d_part) {
  long long tid = threadIdx.x + (long long)blockIdx.x * blockDim.x, stride = (long long)gridDim.x * blockDim.x;
  float sum = 0.0f;
  for (long long i = tid; i < n; i += stride) sum += quad(d_z[i]);
  d_part[tid] = sum;
}
#endif

// 2. one atomic per term, all on the same address: they queue up, one at a time, in the L2 cache
__global__ void sum_atomic(const float *d_z, long long n, double *d_sum) {
  long long tid = threadIdx.x + (long long)blockIdx.x * blockDim.x, stride = (long long)gridDim.x * blockDim.x;
  for (long long i = tid; i < n; i += stride) atomicAdd(d_sum, (double)quad(d_z[i]));
}

// 2b. one atomic per thread, after summing in a register: n / nthreads times fewer
__global__ void sum_atomic_thread(const float *d_z, long long n, double *d_sum) {
  long long tid = threadIdx.x + (long long)blockIdx.x * blockDim.x, stride = (long long)gridDim.x * blockDim.x;
  float sum = 0.0f;
  for (long long i = tid; i < n; i += stride) sum += quad(d_z[i]);
  atomicAdd(d_sum, (double)sum);
}

// 3. the term as a function object for cub::DeviceReduce::TransformReduce; the sum is done in double
struct quad_term_op {
  __device__ double operator()(float z) const { return (double)quad(z); }
};
struct add_op {
  __device__ double operator()(double x, double y) const { return x + y; }
};


typedef struct {
  const float *d_z;
  long long n;
  int nblocks, method;
  float *d_part;
  double *d_sum;
  void *d_temp; // CUB's temporary storage, allocated once
  size_t temp_bytes;
} run_args;

static void run_method(void *p) {
  run_args *q = (run_args *)p;
  switch (q->method) {
  case 1:
    sum_thread<<<q->nblocks, BLOCK_THREADS>>>(q->d_z, q->n, q->d_part);
    getLastCudaError("sum_thread execution failed");
    break;
  case 2:
    checkCudaErrors(cudaMemsetAsync(q->d_sum, 0, sizeof(double)));
    sum_atomic<<<q->nblocks, BLOCK_THREADS>>>(q->d_z, q->n, q->d_sum);
    getLastCudaError("sum_atomic execution failed");
    break;
  case 3:
    checkCudaErrors(cudaMemsetAsync(q->d_sum, 0, sizeof(double)));
    sum_atomic_thread<<<q->nblocks, BLOCK_THREADS>>>(q->d_z, q->n, q->d_sum);
    getLastCudaError("sum_atomic_thread execution failed");
    break;
  default: // the result goes to d_sum; no zeroing needed: CUB writes it, starting from init = 0
    checkCudaErrors(cub::DeviceReduce::TransformReduce(q->d_temp, q->temp_bytes, q->d_z, q->d_sum, q->n, add_op(),
                                                       quad_term_op(), 0.0));
  }
}

int main(int argc, char **argv) {
  long long n = 10000001;
  double ha = 1.0, hb = 2.0, hc = 3.0;
  int bench = 0, reps = 10;
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, 1LL << 40, "number of normals"},
      {"a", ARG_DOUBLE, &ha, -1e6, 1e6, "coefficient of z^2"},
      {"b", ARG_DOUBLE, &hb, -1e6, 1e6, "coefficient of z"},
      {"c", ARG_DOUBLE, &hc, -1e6, 1e6, "constant term"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time each method (median of -reps), print BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  size_t nz = (size_t)(n + (n & 1)); // curandGenerateNormal makes normals in pairs: one spare when n is odd
  size_t zbytes = nz * sizeof(float);
  if (zbytes > ((size_t)1 << 40)) args_fail("-n=%lld needs %.0f GiB, more than any GPU has", n, (double)zbytes / (1 << 30));

  int dev = findCudaDevice(argc, argv);
  int nsm;
  nsm = device_limits(dev)->sms;
  // 8 blocks of 256 threads for each SM (no more threads than terms): one wave where an SM holds 2048 threads
  // (8.0, 9.0), two on 7.5 (1024), 1 1/3 on 8.6 (1536): handout step 5
  long long want = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  int nblocks = want < 8LL * nsm ? (int)want : 8 * nsm;
  size_t nthreads_total = (size_t)nblocks * BLOCK_THREADS;
  device_memory_check(zbytes + nthreads_total * sizeof(float) + ((size_t)64 << 20), "the normals",
                      args_given(argc, argv, "n"));

  float fa = (float)ha, fb = (float)hb, fc = (float)hc;
  checkCudaErrors(cudaMemcpyToSymbol(a, &fa, sizeof(fa)));
  checkCudaErrors(cudaMemcpyToSymbol(b, &fb, sizeof(fb)));
  checkCudaErrors(cudaMemcpyToSymbol(c, &fc, sizeof(fc)));

  // the normals, kept on the host too for the gold
  float *d_z, *d_part;
  double *d_sum;
  checkCudaErrors(cudaMalloc((void **)&d_z, zbytes));
  checkCudaErrors(cudaMalloc((void **)&d_part, nthreads_total * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_sum, sizeof(double)));
  checkCudaErrors(cudaMemset(d_part, 0xff, nthreads_total * sizeof(float))); // poison: NaN
  curandGenerator_t gen;
  checkCudaErrors(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  checkCudaErrors(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  checkCudaErrors(curandGenerateNormal(gen, d_z, nz, 0.0f, 1.0f));
  float *h_z = (float *)malloc(zbytes);
  float *h_part = (float *)malloc(nthreads_total * sizeof(float));
  double *h_gold_part = (double *)malloc(nthreads_total * sizeof(double));
  double *h_gold_abs = (double *)malloc(nthreads_total * sizeof(double));
  float *h_gold_fpart = (float *)malloc(nthreads_total * sizeof(float));
  if (!h_z || !h_part || !h_gold_part || !h_gold_abs || !h_gold_fpart) return result_fail("out of host memory");
  checkCudaErrors(cudaMemcpy(h_z, d_z, zbytes, cudaMemcpyDeviceToHost));

  // Gold treatment
  double gold, sum_abs, t0 = wall_ms();
  quad_gold(h_z, (size_t)n, fa, fb, fc, &gold, &sum_abs);
  quad_gold_partials(h_z, (size_t)n, nthreads_total, fa, fb, fc, h_gold_part, h_gold_abs);
  quad_gold_float_partials(h_z, (size_t)n, nthreads_total, fa, fb, fc, h_gold_fpart);
  double ms_gold = wall_ms() - t0;
  double gold_2b = 0.0, gold_2b_abs = 0.0; // method 2b's reference: its own float partial sums, added in double
  for (size_t t = 0; t < nthreads_total; t++) {
    gold_2b += h_gold_fpart[t];
    gold_2b_abs += fabs(h_gold_fpart[t]);
  }
  size_t chain = ((size_t)n + nthreads_total - 1) / nthreads_total; // longest float running sum
  printf("n = %lld normals, a = %g, b = %g, c = %g; %d blocks of %d threads, %zu terms per thread\n", n, fa, fb, fc,
         nblocks, BLOCK_THREADS, chain);
  printf("gold (CPU, double): average %.8f in %.1f ms\n", gold / n, ms_gold);

  // each method: run once (timed), compare with the gold
  const char *names[4] = {"1 (per-thread sums, host adds)", "2 (one atomicAdd per term)",
                          "2b (one atomicAdd per thread)", "3 (CUB TransformReduce)"};
  const char *progs[4] = {"prac2_quad_thread", "prac2_quad_atomic", "prac2_quad_atomic_thread", "prac2_quad_cub"};
  double avg[4];
  int nbad = 0;
  run_args q = {d_z, n, nblocks, 1, d_part, d_sum, NULL, 0};
  // method 3: ask CUB how much temporary storage it needs, and allocate it once
  checkCudaErrors(cub::DeviceReduce::TransformReduce(NULL, q.temp_bytes, d_z, d_sum, n, add_op(), quad_term_op(), 0.0));
  checkCudaErrors(cudaMalloc(&q.d_temp, q.temp_bytes));
  // a sum reads n floats and writes one number: its 100 % line is a read-only stream of the same bytes (timing.h)
  bench_ref stream;
  if (bench) stream = bench_reference(dev, (double)n * sizeof(float), reps), stream.read_only = 1;
  float msb = 0.0f;
  for (int m = 0; m < 4; m++) {
    q.method = m + 1;
    checkCudaErrors(cudaMemset(d_part, 0xff, nthreads_total * sizeof(float))); // NaN: an unwritten result fails
    checkCudaErrors(cudaMemset(d_sum, 0xff, sizeof(double)));
    event_timer t = event_timer_start();
    run_method(&q);
    float ms = event_timer_stop(&t);
    if (bench) { // timed on poisoned results, so that the check below judges what the last timed run left
      checkCudaErrors(cudaMemset(d_part, 0xff, nthreads_total * sizeof(float)));
      checkCudaErrors(cudaMemset(d_sum, 0xff, sizeof(double)));
      msb = time_median_ms(run_method, &q, 2, reps);
    }

    // error check: each method against what it must equal, within the rounding of its own additions
    double sum = 0.0, ref = gold, tol = quad_tolerance(0, (size_t)n, sum_abs);
    gold_stats st;
    if (m == 0) { // thread by thread: each float partial sum of `chain` terms against the double one
      checkCudaErrors(cudaMemcpy(h_part, d_part, nthreads_total * sizeof(float), cudaMemcpyDeviceToHost));
      gold_begin(&st, nthreads_total, 0.0, 0.0);
      double sumsq = 0.0;
      tol = 0.0;
      for (size_t t = 0; t < nthreads_total; t++) {
        st.atol = quad_tolerance(chain, chain, h_gold_abs[t]);
        if (st.atol > tol) tol = st.atol;
        gold_accumulate(&st, t, h_part[t], h_gold_part[t], &sumsq);
        sum += h_part[t];
      }
      gold_end(&st, sumsq);
    } else {
      checkCudaErrors(cudaMemcpy(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost));
      if (m == 2) {
        // 2b's atomics add its nthreads float partial sums in double, in whatever order they arrive. The CPU
        // has the same floats bit for bit (quad_gold_float_partials: the same terms in the same order) and
        // adds them in double in thread order. A double running sum of nthreads values, in any order, is
        // within nthreads * 2^-53 * (the sum of their absolute values) of their exact sum (the second-order
        // part is covered while nthreads^2 * 2^-53 < 1), so the two sums are within twice that of each other.
        // Method 1's kernel plays no part: any order of its own additions leaves 2b's check as it is. A term
        // missing or added twice moves 2b by that whole term (about 2 or more at the default a, b, c).
        ref = gold_2b;
        tol = 2.0 * quad_tolerance(0, nthreads_total, gold_2b_abs);
      }
      compare_scalar(sum, ref, tol, 0.0, &st);
    }
    avg[m] = sum / n;
    printf("method %-32s average %.8f  %9.3f ms  error %.2e (tolerance %.2e%s)%s\n", names[m], avg[m], ms,
           m == 0 ? st.max_abs_err : fabs(sum - ref), tol, m == 0 ? ", per thread at most" : "",
           st.nbad ? "  WRONG" : "");
    if (st.nbad) gold_report(names[m], &st);
    nbad += st.nbad != 0;

    if (bench && st.nbad == 0) {
      char size[32];
      snprintf(size, sizeof(size), "%lld", n);
      print_bench("2", progs[m], size, reps, msb, (double)n * sizeof(float), &stream, NULL);
    }
  }

  // the statistics: a + c within 4 standard errors
  double se = sqrt((2.0 * (double)fa * fa + (double)fb * fb) / n);
  double z = (gold / n - ((double)fa + fc)) / se;
  printf("a + c = %.8f; the average is %.2f standard errors (%.2e) away (pass if |z| <= 4)\n", (double)fa + fc, z,
         se);

  // tidy up
  checkCudaErrors(curandDestroyGenerator(gen));
  checkCudaErrors(cudaFree(d_z));
  checkCudaErrors(cudaFree(d_part));
  checkCudaErrors(cudaFree(d_sum));
  checkCudaErrors(cudaFree(q.d_temp));
  free(h_z);
  free(h_part);
  free(h_gold_part);
  free(h_gold_abs);
  free(h_gold_fpart);

  if (nbad) return result_check(0, "%d of 4 methods disagree with the gold sum", nbad);
  if (!(fabs(z) <= 4.0)) return result_fail("the average is %.2f standard errors from a + c", z);
  return result_pass();
}
