/*
 * fastdiv.cu -- practical 6, step 6: integer division by a divisor known only at run time, without dividing.
 *
 * The GPU has no integer divide instruction: n / d and n % d with a run-time d compile to a subroutine of
 * about twenty instructions (a float reciprocal and corrections). Tensor code divides all the time, to turn a
 * flat index into coordinates: element i of an N x C x H x W tensor (NCHW order, w fastest) is
 *     w = i % W,  h = (i / W) % H,  c = (i / (W H)) % C,  n = i / (W H C).
 * When the divisor is the same for a whole launch, it pays to compute once, on the host, a "magic" multiplier
 * m and shift s (fastdiv_make, fastdiv_gold.c); then n / d = (umulhi(n, m) + n) >> s: one multiply-high, a
 * 64-bit add and a shift (fastdiv.h, which says why it is exact for every 32-bit n).
 * This program
 *   1. checks fastdiv_div / fastdiv_mod against the GPU's own / and %: every 32-bit dividend for the divisors
 *      1, 2, 3, 7, 2^k, 641, 2^31 - 1, 2^32 - 1 and the tensor's dimensions (or -samples=K of them each), and
 *      a sample of dividends for -rdivisors random divisors;
 *   2. unravels every NCHW index into (n, c, h, w) and converts NCHW -> NHWC -> NCHW, with fastdiv and with
 *      plain / and %, against the CPU;
 *   3. with -bench, times both versions of each against a device-to-device copy in the same run.
 *   nvcc -O3 -arch=native -I../common fastdiv.cu fastdiv_gold.c -o fastdiv   (in prac6/)
 */
#define COURSE_STEPS "practical 6, workbook step 6 (beyond the course)"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "fastdiv.h"
#include "prac6_gold.h"

#define BLOCK 256       // threads per block for the tensor kernels
#define CHECK_BLOCKS 2048 // blocks of BLOCK threads for the grid-stride division check
#define REPS 20         // timed samples with -bench
#define MAX_DIVISORS 128
#define FASTDIV_WATCHDOG_SAMPLES (1ll << 24) // dividends per divisor at most, on a GPU with a display watchdog

// ---- 1. the division check ----------------------------------------------------------------------------------

// dividend j of the checked set: all 2^32 when count = 2^32; otherwise the first count/4 and the last count/4
// 32-bit values, and count/2 spread over the range by a multiplicative hash (odd multiplier: j -> j * K is a
// bijection on 32-bit numbers)
__device__ uint32_t dividend(uint64_t j, uint64_t count) {
  if (count == (1ull << 32)) return (uint32_t)j;
  uint64_t quarter = count / 4;
  if (j < quarter) return (uint32_t)j;
  if (j < 2 * quarter) return (uint32_t)(0xffffffffu - (j - quarter));
  return (uint32_t)j * 2654435761u;
}

// one divisor per blockIdx.y; each thread checks its share of the dividends against / and %, and adds its
// number of mismatches (and the smallest bad dividend) to the divisor's counters with one atomic each
__global__ void check_fastdiv(const fastdiv_t *divs, uint64_t count, unsigned long long *nbad,
                              unsigned long long *first_bad) {
  fastdiv_t f = divs[blockIdx.y];
  unsigned long long bad = 0, first = ~0ull;
  for (uint64_t j = threadIdx.x + (uint64_t)blockDim.x * blockIdx.x; j < count; j += (uint64_t)blockDim.x * gridDim.x) {
    uint32_t n = dividend(j, count);
    if (fastdiv_div(n, f) != n / f.d || fastdiv_mod(n, f) != n % f.d) {
      bad++;
      if (n < first) first = n;
    }
  }
  if (bad) {
    atomicAdd(&nbad[blockIdx.y], bad);
    atomicMin(&first_bad[blockIdx.y], first);
  }
}

// ---- 2. NCHW index arithmetic ---------------------------------------------------------------------------------

// the dimensions, each with its magic numbers
typedef struct {
  uint32_t N, C, H, W;
  fastdiv_t c, h, w;
} dims_t;

// pos[i] = where NCHW element i sits in NHWC order: unravel i into (n, c, h, w), ravel it the other way
__global__ void unravel_fastdiv(uint32_t *pos, uint32_t total, dims_t d) {
  uint32_t i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= total) return;
  uint32_t t = fastdiv_div(i, d.w), w = i - t * d.W; // the remainder from the quotient: one multiply-subtract
  uint32_t u = fastdiv_div(t, d.h), h = t - u * d.H;
  uint32_t n = fastdiv_div(u, d.c), c = u - n * d.C;
  pos[i] = ((n * d.H + h) * d.W + w) * d.C + c;
}

__global__ void unravel_plain(uint32_t *pos, uint32_t total, dims_t d) {
  uint32_t i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= total) return;
  uint32_t w = i % d.W, h = (i / d.W) % d.H, c = (i / d.W / d.H) % d.C, n = i / d.W / d.H / d.C;
  pos[i] = ((n * d.H + h) * d.W + w) * d.C + c;
}

// NCHW -> NHWC, one thread per output element o (NHWC order, so the writes are coalesced): c fastest
__global__ void nchw_to_nhwc_fastdiv(const float *__restrict__ in, float *__restrict__ out, uint32_t total, dims_t d) {
  uint32_t o = threadIdx.x + blockDim.x * blockIdx.x;
  if (o >= total) return;
  uint32_t t = fastdiv_div(o, d.c), c = o - t * d.C;
  uint32_t u = fastdiv_div(t, d.w), w = t - u * d.W;
  uint32_t n = fastdiv_div(u, d.h), h = u - n * d.H;
  out[o] = in[((n * d.C + c) * d.H + h) * d.W + w];
}

__global__ void nchw_to_nhwc_plain(const float *__restrict__ in, float *__restrict__ out, uint32_t total, dims_t d) {
  uint32_t o = threadIdx.x + blockDim.x * blockIdx.x;
  if (o >= total) return;
  uint32_t c = o % d.C, w = (o / d.C) % d.W, h = (o / d.C / d.W) % d.H, n = o / d.C / d.W / d.H;
  out[o] = in[((n * d.C + c) * d.H + h) * d.W + w];
}

// NHWC -> NCHW, one thread per output element (NCHW order): w fastest
__global__ void nhwc_to_nchw_fastdiv(const float *__restrict__ in, float *__restrict__ out, uint32_t total, dims_t d) {
  uint32_t o = threadIdx.x + blockDim.x * blockIdx.x;
  if (o >= total) return;
  uint32_t t = fastdiv_div(o, d.w), w = o - t * d.W;
  uint32_t u = fastdiv_div(t, d.h), h = t - u * d.H;
  uint32_t n = fastdiv_div(u, d.c), c = u - n * d.C;
  out[o] = in[((n * d.H + h) * d.W + w) * d.C + c];
}

// ---- host side ------------------------------------------------------------------------------------------------

typedef struct {
  int kernel; // 0 unravel fastdiv, 1 unravel plain, 2 nchw->nhwc fastdiv, 3 nchw->nhwc plain
  uint32_t *d_pos;
  const float *d_in;
  float *d_out;
  uint32_t total;
  dims_t d;
} tensor_launch;

static void launch_tensor(void *p) {
  tensor_launch *a = (tensor_launch *)p;
  unsigned int nb = (a->total + BLOCK - 1) / BLOCK;
  switch (a->kernel) {
  case 0: unravel_fastdiv<<<nb, BLOCK>>>(a->d_pos, a->total, a->d); break;
  case 1: unravel_plain<<<nb, BLOCK>>>(a->d_pos, a->total, a->d); break;
  case 2: nchw_to_nhwc_fastdiv<<<nb, BLOCK>>>(a->d_in, a->d_out, a->total, a->d); break;
  case 3: nchw_to_nhwc_plain<<<nb, BLOCK>>>(a->d_in, a->d_out, a->total, a->d); break;
  }
  getLastCudaError("fastdiv tensor kernel execution failed");
}

// the output kernel a->kernel left, against the CPU's (the positions: a permutation that puts element i where
// the gold put h_in[i]; the conversion: a copy, bit for bit); returns the elements wrong
static size_t tensor_wrong(const tensor_launch *a, const float *h_in, const float *h_gold, uint32_t *h_pos,
                           float *h_out) {
  size_t nbad = 0;
  if (a->kernel < 2) {
    checkCudaErrors(cudaMemcpy(h_pos, a->d_pos, (size_t)a->total * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    for (uint32_t i = 0; i < a->total; i++) nbad += !(h_pos[i] < a->total && h_gold[h_pos[i]] == h_in[i]);
  } else {
    checkCudaErrors(cudaMemcpy(h_out, a->d_out, (size_t)a->total * sizeof(float), cudaMemcpyDeviceToHost));
    for (uint32_t i = 0; i < a->total; i++) nbad += memcmp(&h_out[i], &h_gold[i], sizeof(float)) != 0;
  }
  return nbad;
}

int main(int argc, char **argv) {
  int N = 32, C = 96, H = 125, W = 125, rdivisors = 32, seed = 1, bench = 0;
  long long samples = 0;
  arg_spec opts[] = {
      {"N", ARG_INT, &N, 1, 1 << 30, "tensor: batch"},
      {"C", ARG_INT, &C, 1, 1 << 30, "tensor: channels"},
      {"H", ARG_INT, &H, 1, 1 << 30, "tensor: height"},
      {"W", ARG_INT, &W, 1, 1 << 30, "tensor: width"},
      {"samples", ARG_LONG, &samples, 0, 4294967296.0, "dividends checked a divisor (0: all 2^32)"},
      {"rdivisors", ARG_INT, &rdivisors, 0, 64, "random divisors checked on 2^24 dividends each"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the tensor and the random divisors"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time fastdiv against / and %, and a copy"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  double total_d = (double)N * C * H * W;
  if (total_d > 4294967295.0 / 2) args_fail("N*C*H*W = %.0f: the 32-bit index arithmetic allows at most 2^31 - 1", total_d);
  uint32_t total = (uint32_t)total_d;
  int user_sized = args_given(argc, argv, "N") || args_given(argc, argv, "C") || args_given(argc, argv, "H") ||
                   args_given(argc, argv, "W");

  // A display watchdog (Windows, WSL 2: cudaDevAttrKernelExecTimeout) stops a launch past about 2 s. The check of
  // all 2^32 dividends of the fixed divisors is one launch, estimated at over a second on a 30-SM GPU
  // (docs/prac6.md, step 6). There the default is 2^24 dividends per divisor (256 times less work), and a larger
  // -samples (or 0, all of them) SKIPs. docs/troubleshooting.md#windows-watchdog
  int dev = findCudaDevice(argc, argv), watchdog = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&watchdog, cudaDevAttrKernelExecTimeout, dev));
  if (watchdog && !args_given(argc, argv, "samples")) {
    samples = FASTDIV_WATCHDOG_SAMPLES;
    printf("this GPU has a display watchdog: the default is -samples=%lld here, not all 2^32\n", samples);
  }
  if (watchdog && (samples == 0 || samples > FASTDIV_WATCHDOG_SAMPLES))
    return result_skip("this GPU has a display watchdog (a launch past about 2 s is stopped), and %s dividends for "
                       "each fixed divisor, in one launch, may outlast it: at most -samples=%lld here",
                       samples == 0 ? "all 2^32" : "more than 2^24", FASTDIV_WATCHDOG_SAMPLES);
  uint64_t count = samples ? (uint64_t)samples : (1ull << 32);
  size_t bytes = (size_t)total * sizeof(float);
  device_memory_check(4 * bytes, "four N*C*H*W arrays", user_sized);

  // ---- 1. the divisors, their magic numbers, and the check against / and % on the GPU
  uint32_t dv[MAX_DIVISORS];
  int nd = 0, nfixed;
  uint32_t fixed[] = {1, 2, 3, 7, 641, 2147483647u, 4294967295u, (uint32_t)C, (uint32_t)H, (uint32_t)W};
  for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++) dv[nd++] = fixed[k];
  for (int k = 2; k < 32; k++) dv[nd++] = 1u << k;
  nfixed = nd;
  uint32_t state = (uint32_t)seed * 747796405u + 2891336453u;
  for (int k = 0; k < rdivisors; k++) {
    state = state * 1664525u + 1013904223u;
    uint32_t r = state >> (state & 31); // every size of divisor, not just large ones
    dv[nd++] = r ? r : 5;
  }
  fastdiv_t h_divs[MAX_DIVISORS];
  for (int k = 0; k < nd; k++) h_divs[k] = fastdiv_make(dv[k]);

  fastdiv_t *d_divs;
  unsigned long long *d_nbad, *d_first, h_nbad[MAX_DIVISORS], h_first[MAX_DIVISORS];
  checkCudaErrors(cudaMalloc((void **)&d_divs, sizeof(h_divs)));
  checkCudaErrors(cudaMalloc((void **)&d_nbad, sizeof(h_nbad)));
  checkCudaErrors(cudaMalloc((void **)&d_first, sizeof(h_first)));
  checkCudaErrors(cudaMemcpy(d_divs, h_divs, sizeof(h_divs), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_nbad, 0, sizeof(h_nbad)));
  checkCudaErrors(cudaMemset(d_first, 0xff, sizeof(h_first)));
  event_timer t = event_timer_start();
  check_fastdiv<<<dim3(CHECK_BLOCKS, nfixed), BLOCK>>>(d_divs, count, d_nbad, d_first);
  getLastCudaError("check_fastdiv execution failed");
  if (nd > nfixed) {
    uint64_t rcount = count < (1ull << 24) ? count : (1ull << 24);
    check_fastdiv<<<dim3(CHECK_BLOCKS, nd - nfixed), BLOCK>>>(d_divs + nfixed, rcount, d_nbad + nfixed,
                                                               d_first + nfixed);
    getLastCudaError("check_fastdiv execution failed");
  }
  float ms_check = event_timer_stop(&t);
  checkCudaErrors(cudaMemcpy(h_nbad, d_nbad, sizeof(h_nbad), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(h_first, d_first, sizeof(h_first), cudaMemcpyDeviceToHost));
  int div_bad = 0;
  for (int k = 0; k < nd; k++)
    if (h_nbad[k]) {
      if (div_bad++ < 5)
        printf("divisor %u (m = %u, s = %u): %llu wrong, the first at n = %llu\n", dv[k], h_divs[k].m, h_divs[k].s,
               h_nbad[k], h_first[k]);
    }
  printf("division check: %d divisors on %s dividends each, %d random ones on %llu: %d wrong (%.1f ms)\n", nfixed,
         count == (1ull << 32) ? "all 2^32" : "a sample of", nd - nfixed,
         (unsigned long long)(count < (1ull << 24) ? count : (1ull << 24)), div_bad, ms_check);
  printf("magic numbers: d = 3: m = %u, s = %u;  d = 7: m = %u, s = %u;  d = %u: m = %u, s = %u\n", h_divs[2].m,
         h_divs[2].s, h_divs[3].m, h_divs[3].s, (uint32_t)W, fastdiv_make((uint32_t)W).m, fastdiv_make((uint32_t)W).s);

  // ---- 2. the tensor: random values, converted both ways and unravelled, each against the CPU
  dims_t d = {(uint32_t)N, (uint32_t)C, (uint32_t)H, (uint32_t)W, fastdiv_make((uint32_t)C), fastdiv_make((uint32_t)H),
              fastdiv_make((uint32_t)W)};
  printf("tensor N x C x H x W = %d x %d x %d x %d (%u elements)\n", N, C, H, W, total);
  float *h_in = (float *)malloc(bytes), *h_out = (float *)malloc(bytes), *h_gold = (float *)malloc(bytes);
  uint32_t *h_pos = (uint32_t *)malloc((size_t)total * sizeof(uint32_t));
  if (!h_in || !h_out || !h_gold || !h_pos) return result_fail("out of host memory");
  for (uint32_t i = 0; i < total; i++) {
    state = state * 1664525u + 1013904223u;
    h_in[i] = (float)(state >> 8) * (1.0f / 16777216.0f) - 0.5f;
  }
  Gold_nchw_to_nhwc(h_in, h_gold, N, C, H, W);

  float *d_in, *d_out, *d_back;
  uint32_t *d_pos;
  checkCudaErrors(cudaMalloc((void **)&d_in, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_out, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_back, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_pos, (size_t)total * sizeof(uint32_t)));
  checkCudaErrors(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
  tensor_launch a = {0, d_pos, d_in, d_out, total, d};

  int bad = 0;
  const char *names[4] = {"unravel_fastdiv", "unravel_plain", "nchw_to_nhwc_fastdiv", "nchw_to_nhwc_plain"};
  for (int k = 0; k < 4; k++) {
    a.kernel = k;
    checkCudaErrors(cudaMemset(d_pos, 0xff, (size_t)total * sizeof(uint32_t)));
    checkCudaErrors(cudaMemset(d_out, 0xff, bytes));
    launch_tensor(&a);
    size_t nbad = tensor_wrong(&a, h_in, h_gold, h_pos, h_out);
    printf("%-22s %zu of %u elements wrong\n", names[k], nbad, total);
    bad += nbad != 0;
  }
  // and back: NHWC -> NCHW must give the input again, bit for bit
  checkCudaErrors(cudaMemset(d_back, 0xff, bytes));
  nhwc_to_nchw_fastdiv<<<(total + BLOCK - 1) / BLOCK, BLOCK>>>(d_out, d_back, total, d);
  getLastCudaError("nhwc_to_nchw_fastdiv execution failed");
  checkCudaErrors(cudaMemcpy(h_out, d_back, bytes, cudaMemcpyDeviceToHost));
  gold_stats st_back;
  compare_float(h_out, h_in, total, 0.0, 0.0, &st_back);
  printf("%-22s %zu of %u elements wrong (round trip)\n", "nhwc_to_nchw_fastdiv", st_back.nbad, total);
  bad += st_back.nbad != 0;

  // ---- 3. -bench: fastdiv against / and %, each against a copy of the same traffic
  if (bench && bad == 0 && div_bad == 0) {
    char size[64], extra[96];
    snprintf(size, sizeof(size), "%dx%dx%dx%d", N, C, H, W);
    bench_ref ref = bench_reference(dev, 2.0 * bytes, REPS); // the conversion reads and writes every element
    float ms[4];
    for (int k = 0; k < 4; k++) {
      a.kernel = k;
      double traffic = k < 2 ? (double)total * sizeof(uint32_t) : 2.0 * bytes; // unravel only writes
      checkCudaErrors(cudaMemset(d_pos, 0xff, (size_t)total * sizeof(uint32_t))); // poisoned: the timed runs'
      checkCudaErrors(cudaMemset(d_out, 0xff, bytes));                             // output is checked below
      ms[k] = time_median_ms(launch_tensor, &a, 3, REPS);
      size_t nbad = tensor_wrong(&a, h_in, h_gold, h_pos, h_out);
      if (nbad) printf("%-22s %zu of %u elements wrong after the timed runs\n", names[k], nbad, total);
      bad += nbad != 0;
      double GBps = traffic / (ms[k] * 1e-3) / 1e9;
      printf("%-22s %8.4f ms %8.1f GB/s = %5.1f%% of the copy (%.1f GB/s)\n", names[k], ms[k], GBps,
             100.0 * GBps / ref.copy_GBps, ref.copy_GBps);
      if (k % 2 == 0) {
        snprintf(extra, sizeof(extra), "kernel=%s", names[k]);
      } else { // the plain version, against the fastdiv one just before it
        snprintf(extra, sizeof(extra), "kernel=%s x_fastdiv=%.2f", names[k], ms[k] / ms[k - 1]);
        printf("  plain / and %% take %.2fx as long as fastdiv\n", ms[k] / ms[k - 1]);
      }
      print_bench("6", k < 2 ? "fastdiv_unravel" : "fastdiv_nchw_to_nhwc", size, REPS, ms[k], traffic, &ref, extra);
    }
  }

  checkCudaErrors(cudaFree(d_divs));
  checkCudaErrors(cudaFree(d_nbad));
  checkCudaErrors(cudaFree(d_first));
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  checkCudaErrors(cudaFree(d_back));
  checkCudaErrors(cudaFree(d_pos));
  free(h_in);
  free(h_out);
  free(h_gold);
  free(h_pos);

  if (div_bad) return result_fail("fastdiv: %d divisors give a wrong quotient or remainder", div_bad);
  if (bad) return result_fail("%d tensor kernels disagree with the gold", bad);
  return result_pass();
}
