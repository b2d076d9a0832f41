/*
 * prac2_device.cu -- practical 2, step 6: the same Monte Carlo with the cuRAND device API.
 *
 * No array of normals: each thread owns a generator and draws its normals as it needs them, so the kernel
 * reads nothing from memory but its generator's state. Two generators:
 *   (default)  XORWOW: RNG_init gives thread i subsequence i of one stream (curand_init skips ahead 2^67*i
 *              numbers, which is slow), stores the 48-byte states, and pathcalc loads them into registers
 *   -philox    Philox4x32-10: counter based, so curand_init only sets a key and a counter; pathcalc_philox
 *              initialises its generator itself, and there is no state in memory at all
 * The grid is just large enough to fill the GPU (blocks per SM from the occupancy calculator, times the
 * number of SMs), and each thread takes paths tid, tid + nthreads, ... : more paths per thread means fewer
 * generators to initialise. Try -nthreads=64, 256 and 1024, and compare the RNG_init time with the kernel's.
 *
 * Gold: the GPU's normals are not the host API's, so the check is statistical: an independent CPU Monte
 * Carlo of the same model (its own generator, in double) must agree within 4 combined standard errors.
 * The spread of one payoff is taken from the CPU's large sample (-cpupaths, at least 1000 paths), not from the
 * GPU's: with a handful of GPU paths the GPU's own sample spread can be 0 (one path: always), which would make
 * any difference look infinitely significant. The payoff takes only two values (0 or exp(-rT), probability
 * about 0.44), so even one GPU path lies within 1.2 of these standard errors of the mean: every -npath passes.
 * Its gold routines are prac2's (prac2_gold.c: the path model and the CPU Monte Carlo), so by hand:
 *   nvcc -O3 -arch=native -I../common prac2_device.cu prac2_gold.c -o prac2_device -Xcompiler -fopenmp
 */
#define COURSE_STEPS "practical 2, workbook step 6 (course step 7)"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <curand_kernel.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac2_gold.h"

#define SEED 1234ULL

// the model's constants, in constant memory (see prac2.cu)
__constant__ int N;
__constant__ float T, r, sigma, rho, alpha, dt, con1, con2;

// one generator per thread: thread i starts at subsequence i of the XORWOW stream
__global__ void RNG_init(curandState *d_state) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  curand_init(SEED, id, 0, &d_state[id]);
}

// the two assets over one step, from two independent normals
__device__ inline void path_step(float z1, float z2, float &s1, float &s2) {
  float y1 = z1, y2 = rho * z1 + alpha * z2;
  s1 = s1 * (con1 + con2 * y1);
  s2 = s2 * (con1 + con2 * y2);
}

__device__ inline float payoff(float s1, float s2) {
  return (fabsf(s1 - 1.0f) < 0.1f && fabsf(s2 - 1.0f) < 0.1f) ? expf(-r * T) : 0.0f;
}

// several paths per thread (grid-stride); the state lives in registers between the load and the store
__global__ void pathcalc(curandState *d_state, float *d_v, int npath) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  curandState state = d_state[id];
  for (int path = id; path < npath; path += gridDim.x * blockDim.x) {
    float s1 = 1.0f, s2 = 1.0f;
    for (int n = 0; n < N; n++) {
      float2 z = curand_normal2(&state);
      path_step(z.x, z.y, s1, s2);
    }
    d_v[path] = payoff(s1, s2);
  }
  d_state[id] = state; // the next launch carries on with fresh numbers
}

// the same with Philox, initialised in the kernel: four normals from each 128-bit counter, two steps each
// (every launch draws the same numbers: set up a Philox generator and it is where it was)
__global__ void pathcalc_philox(float *d_v, int npath) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  curandStatePhilox4_32_10_t state;
  curand_init(SEED, id, 0, &state);
  for (int path = id; path < npath; path += gridDim.x * blockDim.x) {
    float s1 = 1.0f, s2 = 1.0f;
    int n = 0;
    for (; n + 1 < N; n += 2) {
      float4 z = curand_normal4(&state);
      path_step(z.x, z.y, s1, s2);
      path_step(z.z, z.w, s1, s2);
    }
    if (n < N) {
      float2 z = curand_normal2(&state);
      path_step(z.x, z.y, s1, s2);
    }
    d_v[path] = payoff(s1, s2);
  }
}


typedef struct {
  curandState *d_state;
  float *d_v;
  int npath, nblocks, nthreads, philox;
} run_args;

static void run_init(void *p) {
  run_args *a = (run_args *)p;
  RNG_init<<<a->nblocks, a->nthreads>>>(a->d_state);
  getLastCudaError("RNG_init execution failed");
}

static void run_pathcalc(void *p) {
  run_args *a = (run_args *)p;
  if (a->philox) {
    pathcalc_philox<<<a->nblocks, a->nthreads>>>(a->d_v, a->npath);
    getLastCudaError("pathcalc_philox execution failed");
  } else {
    pathcalc<<<a->nblocks, a->nthreads>>>(a->d_state, a->d_v, a->npath);
    getLastCudaError("pathcalc execution failed");
  }
}

int main(int argc, char **argv) {
  int npath = 9600000, h_N = 100, nthreads = 128, philox = 0, bench = 0, reps = 10;
  long long cpupaths = 1000000;
  arg_spec opts[] = {
      {"npath", ARG_INT, &npath, 1, 1 << 30, "number of paths (NPATH)"},
      {"n", ARG_INT, &h_N, 1, 100000, "time steps per path (N)"},
      {"nthreads", ARG_INT, &nthreads, 32, 1024, "threads per block, a multiple of 32"},
      {"philox", ARG_FLAG, &philox, 0, 1, "Philox4x32-10 initialised in pathcalc, instead of stored XORWOW states"},
      {"cpupaths", ARG_LONG, &cpupaths, 1000, 1LL << 32, "paths of the independent CPU Monte Carlo"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time the kernels (median of -reps), print a BENCH line"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (nthreads % 32) args_fail("-nthreads=%d: a multiple of 32 (whole warps)", nthreads);

  int dev = findCudaDevice(argc, argv);
  size_t vbytes = (size_t)npath * sizeof(float);

  // the course's parameters, in constant memory
  float h_T = 1.0f, h_r = 0.05f, h_sigma = 0.1f, h_rho = 0.5f;
  float h_alpha = (float)sqrt(1.0 - (double)h_rho * h_rho);
  float h_dt = h_T / h_N;
  float h_con1 = (float)(1.0 + (double)h_r * h_dt);
  float h_con2 = (float)(sqrt((double)h_dt) * h_sigma);
  checkCudaErrors(cudaMemcpyToSymbol(N, &h_N, sizeof(h_N)));
  checkCudaErrors(cudaMemcpyToSymbol(T, &h_T, sizeof(h_T)));
  checkCudaErrors(cudaMemcpyToSymbol(r, &h_r, sizeof(h_r)));
  checkCudaErrors(cudaMemcpyToSymbol(sigma, &h_sigma, sizeof(h_sigma)));
  checkCudaErrors(cudaMemcpyToSymbol(rho, &h_rho, sizeof(h_rho)));
  checkCudaErrors(cudaMemcpyToSymbol(alpha, &h_alpha, sizeof(h_alpha)));
  checkCudaErrors(cudaMemcpyToSymbol(dt, &h_dt, sizeof(h_dt)));
  checkCudaErrors(cudaMemcpyToSymbol(con1, &h_con1, sizeof(h_con1)));
  checkCudaErrors(cudaMemcpyToSymbol(con2, &h_con2, sizeof(h_con2)));

  // step 6: a grid that just fills the GPU. No more threads than paths: a thread with no path would only
  // waste a generator
  int nsm, per_sm;
  nsm = device_limits(dev)->sms;
  if (philox)
    per_sm = occupancy_blocks_per_sm(pathcalc_philox, dev, nthreads, 0);
  else
    per_sm = occupancy_blocks_per_sm(pathcalc, dev, nthreads, 0);
  int nblocks = per_sm * nsm;
  if ((long long)nblocks * nthreads > npath) nblocks = (npath + nthreads - 1) / nthreads;
  long long nthreads_total = (long long)nblocks * nthreads;

  // the course's lines (its 2025 prac2_device), exactly as it prints them, so that a learner can diff against
  // its log; with -philox the state is Philox's and there is no RNG_init. The workbook's own lines come last
  if (philox)
    printf("size of curandStatePhilox4_32_10_t is %zu bytes\n", sizeof(curandStatePhilox4_32_10_t));
  else
    printf("size of curandState is %zu bytes\n", sizeof(curandState));
  printf("maxActiveBlocks/SM = %d \n", per_sm);
  printf("number of SMs      = %d \n", nsm);

  // allocate memory on host and device; poison the payoffs with 0xff bytes (NaN)
  size_t state_bytes = philox ? 0 : (size_t)nthreads_total * sizeof(curandState);
  device_memory_check(vbytes + state_bytes, "the payoffs and the generator states",
                      args_given(argc, argv, "npath") || args_given(argc, argv, "nthreads"));
  float *h_v = (float *)malloc(vbytes);
  if (!h_v) return result_fail("out of host memory");
  float *d_v;
  curandState *d_state = NULL;
  checkCudaErrors(cudaMalloc((void **)&d_v, vbytes));
  checkCudaErrors(cudaMemset(d_v, 0xff, vbytes));
  if (!philox) checkCudaErrors(cudaMalloc((void **)&d_state, state_bytes));

  float ms_init = 0.0f;
  run_args a = {d_state, d_v, npath, nblocks, nthreads, philox};

  // initialise the generators (XORWOW only) and time it
  if (!philox) {
    event_timer t = event_timer_start();
    run_init(&a);
    ms_init = event_timer_stop(&t);
    printf("RNG_init kernel execution time (ms): %f \n", ms_init);
  }

  // execute kernel and time it
  event_timer t = event_timer_start();
  run_pathcalc(&a);
  float ms_kernel = event_timer_stop(&t);
  printf("%s kernel execution time (ms): %f \n", philox ? "pathcalc_philox" : "pathcalc", ms_kernel);

  // copy back results, compute the average and its standard error
  checkCudaErrors(cudaMemcpy(h_v, d_v, vbytes, cudaMemcpyDeviceToHost));
  double avg, err;
  mean_and_error(h_v, (size_t)npath, &avg, &err);
  printf("\nAverage value and standard deviation of error  = %13.8f %13.8f\n\n", avg, err);
  double nrng = 2.0 * h_N * (double)npath;
  printf("RNGs/sec = %g \n", nrng / (1e-3 * ms_kernel));

  // the workbook's lines: the problem, the grid, the states' memory, and the rate with RNG_init counted too
  printf("NPATH = %d, N = %d, %s generator", npath, h_N, philox ? "Philox4x32-10 (in-kernel)" : "XORWOW");
  if (philox)
    printf(": its state lives in registers, none is stored\n");
  else
    printf(": %.2f MB of states, RNGs/sec with RNG_init = %e\n", state_bytes / 1e6,
           nrng / (1e-3 * (ms_kernel + ms_init)));
  printf("%d blocks of %d threads: %d blocks per SM x %d SMs, %.1f paths per thread\n", nblocks, nthreads, per_sm,
         nsm, (double)npath / nthreads_total);

  // Gold treatment: an independent Monte Carlo on the CPU. A NaN left from the poison fails the z-score.
  double cpu_avg, cpu_err, t0 = wall_ms();
  mc_cpu_estimate(cpupaths, h_N, h_T, h_r, h_sigma, h_rho, 2024, &cpu_avg, &cpu_err);
  double sd_one = cpu_err * sqrt((double)cpupaths); // the spread of one payoff, from the CPU's large sample
  double gpu_err = sd_one / sqrt((double)npath);      // the GPU average's standard error
  double z = mc_zscore(avg, gpu_err, cpu_avg, cpu_err);
  printf("CPU Monte Carlo (SplitMix64 + Box-Muller, double): %lld paths in %.0f ms: %.8f +- %.8f\n", cpupaths,
         wall_ms() - t0, cpu_avg, cpu_err);
  printf("GPU - CPU = %.2e, z-score = %.2f (combined standard error %.2e; pass if |z| <= 4)\n", avg - cpu_avg, z,
         sqrt(gpu_err * gpu_err + cpu_err * cpu_err));

  int ok = isfinite(z) && fabs(z) <= 4.0;
  if (bench && ok) {
    float ms_i = philox ? 0.0f : time_median_ms(run_init, &a, 2, reps);
    checkCudaErrors(cudaMemset(d_v, 0xff, vbytes)); // poisoned: what the timed launches wrote is judged below
    float ms_k = time_median_ms(run_pathcalc, &a, 2, reps);
    // the payoffs of the last timed launch, against the same CPU estimate: a timed result is a checked result
    // too (XORWOW's launches carry on from the states the one before left, so these are other numbers)
    checkCudaErrors(cudaMemcpy(h_v, d_v, vbytes, cudaMemcpyDeviceToHost));
    mean_and_error(h_v, (size_t)npath, &avg, &err);
    z = mc_zscore(avg, gpu_err, cpu_avg, cpu_err);
    ok = isfinite(z) && fabs(z) <= 4.0;
    printf("the last timed launch: average %.8f, z-score = %.2f: %s\n", avg, z, ok ? "ok" : "WRONG");
    char size[48], extra[200];
    snprintf(size, sizeof(size), "%dx%d", npath, h_N);
    snprintf(extra, sizeof(extra),
             "variant=%s ms_init=%.4f ms_total=%.4f rng_Gsamples_per_s=%.2f blocks_per_sm=%d paths_per_thread=%.1f",
             philox ? "device_philox" : "device_xorwow", ms_i, ms_i + ms_k, nrng / (1e-3 * (ms_i + ms_k)) / 1e9,
             per_sm, (double)npath / nthreads_total);
    printf("median of %d: RNG_init %.3f ms, kernel %.3f ms, total %.3f ms\n", reps, ms_i, ms_k, ms_i + ms_k);
    print_bench("2", philox ? "prac2_device_philox" : "prac2_device", size, reps, ms_k, -1.0, NULL, extra);
  }

  // tidy up
  checkCudaErrors(cudaFree(d_v));
  if (d_state) checkCudaErrors(cudaFree(d_state));
  free(h_v);

  if (!ok) return result_fail("GPU average %.8f is %.2f standard errors from the CPU's %.8f", avg, z, cpu_avg);
  return result_pass();
}
