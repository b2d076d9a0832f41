/*
 * radix_sort.cu -- practical 8, steps 7 to 9: radix sort, from one bit a pass in one block to 8 bits a pass
 * with one kernel a pass (the approach of CUB's Onesweep), and CUB and Thrust beside it on the same keys.
 *
 * A radix sort orders keys one digit at a time, least significant first. Each pass must be stable (keys
 * with equal digits keep their order), so that the order the earlier passes made survives among them.
 * One step a file:
 *   -kernel=0  cub::DeviceRadixSort (SortKeys, or SortPairs with -pairs)            sort/k0_cub.cuh
 *   -kernel=1  radix_1bit (step 7): one block, 32 passes of one bit; keys only      sort/k1_one_bit.cuh
 *   -kernel=2  radix_4bit (step 8): 8 passes of 4 bits, three kernels a pass        sort/k2_four_bit.cuh
 *   -kernel=3  onesweep (step 9): a histogram, then one kernel a pass of 8 bits     sort/k3_onesweep.cuh
 *              (its tunables: sort/onesweep_policy.h; its histogram: sort/onesweep_histogram.cuh)
 *   -kernel=4  thrust::sort (or sort_by_key)                                        sort/k4_thrust.cuh
 * The libraries' temporary storage is allocated once. -float sorts floats (kernels 0, 3, 4), -pairs carries a
 * 32-bit value with each key.
 * Default: every kernel that applies. Each result is checked against radix_sort_gold (a stable CPU radix
 * sort, itself checked against qsort by tests/test_prac8.c); -dist= picks the adversarial input.
 *   nvcc -O3 -arch=native -I../common radix_sort.cu prac8_gold.c -o radix_sort
 */
#define COURSE_STEPS "practical 8, workbook steps 7-9 (course step (6), 2023, is steps 7-8; 9 is beyond the course)"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdexcept>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "prac8_gold.h"

#include "sort/sort_common.cuh"
#include "sort/k0_cub.cuh"
#include "sort/k1_one_bit.cuh"
#include "sort/k2_four_bit.cuh"
#include "sort/k3_onesweep.cuh"
#include "sort/k4_thrust.cuh"

#define MAX_N (1LL << 29)

// The values beside float keys sorted by CUB or Thrust, which order -0.0 and +0.0 as equal keys where the gold
// puts every -0 first: where the gold's key is a zero, the value must be the index of an input zero, each
// index once (seen[] holds n bytes); everywhere else it must be the gold's value. Returns the count of bad ones.
static size_t values_check_zeros_free(const unsigned *val, const unsigned *vgold, const unsigned *kgold,
                                      const unsigned *kin, size_t n, unsigned char *seen) {
  size_t nbad = 0;
  memset(seen, 0, n);
  for (size_t i = 0; i < n; i++) {
    unsigned v = val[i];
    if ((kgold[i] & 0x7FFFFFFFu) == 0) { // the float key is -0 or +0
      nbad += !(v < n && (kin[v] & 0x7FFFFFFFu) == 0 && !seen[v]);
      if (v < n) seen[v] = 1;
    } else {
      nbad += v != vgold[i];
    }
  }
  return nbad;
}

static const char *method_name[5] = {"cub_radix_sort", "radix_1bit", "radix_4bit", "onesweep", "thrust_sort"};
static const timed_fn method_fn[5] = {run_cub, run_1bit, run_4bit, run_onesweep, run_thrust};

// -bench, through common/ladder.h: the methods checked above, in order (the one-block sort apart: far too slow
// to be worth timing); every one passed its check (the bench runs only then). x_cub is against CUB's time.
typedef struct {
  sort_plan *p;
  int method[5]; // the ladder's step k is method[k]
  double ms_cub;
  const char *dist;
} sort_bench;

static int checked_above(void *ctx, int k) {
  (void)ctx, (void)k;
  return 1;
}
static void bench_run(void *ctx, int k) {
  sort_bench *b = (sort_bench *)ctx;
  method_fn[b->method[k]](b->p);
}
static void bench_keys(void *ctx, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  const sort_bench *b = (const sort_bench *)ctx;
  snprintf(prog, nprog, "%s", method_name[b->method[k]]);
  snprintf(extra, nextra, "keys=%s pairs=%d dist=%s Gkeys_per_s=%.3f x_cub=%.3f", b->p->is_float ? "float" : "uint32",
           b->p->pairs, b->dist, (double)b->p->n / (ms[k] * 1e-3) / 1e9, b->ms_cub / ms[k]);
}

static int main_sort(int argc, char **argv) {
  long long n = 1 << 24;
  int kernel = -1, is_float = 0, pairs = 0, dist = -1, bench = 0, reps = 20, seed = 1;
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, (double)MAX_N, "number of keys"},
      {"kernel", ARG_INT, &kernel, -1, 4, "0 CUB, 1 one bit a pass, 2 four bits, 3 onesweep, 4 Thrust; -1 all"},
      {"float", ARG_FLAG, &is_float, 0, 1, "float keys (kernels 0, 3, 4)"},
      {"pairs", ARG_FLAG, &pairs, 0, 1, "key-value pairs, the value the key's input index (kernels 0, 3, 4)"},
      {"dist", ARG_INT, &dist, -1, SORT_NDISTS - 1,
       "input: 0 random, 1 sorted, 2 reversed, 3 all equal, 4 two values, 5 top byte, 6 floats (-1: 0, or 6 with -float)"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time each method; BENCH lines with keys/s and the ratio to CUB"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the input"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (dist < 0) dist = is_float ? SORT_FLOATS : SORT_RANDOM;
  if (is_float && dist != SORT_FLOATS)
    args_fail("-float sorts the -dist=6 floats (other bit patterns include NaNs, which have no order)");
  if ((kernel == 1 || kernel == 2) && (is_float || pairs))
    args_fail("-kernel=%d sorts unsigned keys only: -float and -pairs are for kernels 0, 3 and 4", kernel);
  if (kernel == 1 && n > MAX_N_1BIT) args_fail("-kernel=1 (one block) takes at most %lld keys", MAX_N_1BIT);
  int dev = findCudaDevice(argc, argv);
  (void)dev;

  size_t N = (size_t)n, bytes = N * 4;
  unsigned nb = os_tiles(N, false); // (keys alone: the smaller tile, the more status words)
  int arrays = pairs ? 6 : 3;
  device_memory_check((size_t)arrays * bytes + 2 * bytes + (size_t)nb * 256 * 16 + (64 << 20),
                      "keys in, out and between passes (values too with -pairs), CUB's and Thrust's workspace",
                      args_given(argc, argv, "n"));
  printf("Sorting %zu %s%s, input: %s\n", N, is_float ? "float keys" : "32-bit keys", pairs ? " with values" : "",
         sort_dist_names[dist]);

  // the input (values: each key's index, so that a stable sort is visible), and the gold
  unsigned *h_in = (unsigned *)malloc(bytes), *h_gold = (unsigned *)malloc(bytes), *h_out = (unsigned *)malloc(bytes);
  unsigned *h_tmp = (unsigned *)malloc(bytes), *h_vgold = NULL, *h_vtmp = NULL;
  if (pairs) h_vgold = (unsigned *)malloc(bytes), h_vtmp = (unsigned *)malloc(bytes);
  if (!h_in || !h_gold || !h_out || !h_tmp || (pairs && (!h_vgold || !h_vtmp))) return result_fail("out of host memory");
  sort_input(h_in, N, dist, seed);
  double t0 = wall_ms();
  for (size_t i = 0; i < N; i++) h_gold[i] = is_float ? float_bits_to_key(h_in[i]) : h_in[i];
  if (pairs)
    for (size_t i = 0; i < N; i++) h_vgold[i] = (unsigned)i;
  radix_sort_gold(h_gold, h_vgold, N, h_tmp, h_vtmp);
  if (is_float)
    for (size_t i = 0; i < N; i++) h_gold[i] = key_to_float_bits(h_gold[i]);
  printf("radix_sort_gold: %.1f ms\n", wall_ms() - t0);

  sort_plan p;
  memset(&p, 0, sizeof(p));
  p.n = N, p.pairs = pairs, p.is_float = is_float;
  p.nsm = device_limits(dev)->sms;
  checkCudaErrors(cudaMalloc((void **)&p.d_in, bytes));
  checkCudaErrors(cudaMalloc((void **)&p.d_out, bytes));
  checkCudaErrors(cudaMalloc((void **)&p.d_alt, bytes));
  checkCudaErrors(cudaMemcpy(p.d_in, h_in, bytes, cudaMemcpyHostToDevice));
  if (pairs) {
    checkCudaErrors(cudaMalloc((void **)&p.d_vin, bytes));
    checkCudaErrors(cudaMalloc((void **)&p.d_vout, bytes));
    checkCudaErrors(cudaMalloc((void **)&p.d_valt, bytes));
    for (size_t i = 0; i < N; i++) h_tmp[i] = (unsigned)i;
    checkCudaErrors(cudaMemcpy(p.d_vin, h_tmp, bytes, cudaMemcpyHostToDevice));
  }
  p.work_words = 1024 + 1024 + 4 + (size_t)4 * nb * 256;
  checkCudaErrors(cudaMalloc((void **)&p.d_work, p.work_words * 4));
  checkCudaErrors(cudaMalloc((void **)&p.d_hist4, (size_t)16 * ((N + B4_TILE - 1) / B4_TILE) * 4));
  checkCudaErrors(cudaMalloc((void **)&p.d_error, sizeof(int)));
  checkCudaErrors(cudaMemset(p.d_error, 0, sizeof(int)));
  run_cub(&p); // the first call only asks for the size of CUB's temporary storage
  checkCudaErrors(cudaMalloc(&p.d_cub_temp, p.cub_temp_bytes));

  size_t nbad_all = 0;
  int ran[5] = {0};
  for (int k = 0; k <= 4; k++) {
    if (kernel >= 0 && k != kernel) continue;
    if ((k == 1 || k == 2) && (is_float || pairs)) continue; // keys only
    if (k == 1 && N > MAX_N_1BIT) {
      printf("%s: skipped (one block: at most %lld keys)\n", method_name[k], MAX_N_1BIT);
      continue;
    }
    checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes)); // poison
    if (pairs) checkCudaErrors(cudaMemset(p.d_vout, 0xff, bytes));
    event_timer t = event_timer_start();
    method_fn[k](&p);
    float ms = event_timer_stop(&t);
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("%s: a look-back waited %d times for a tile that never published", method_name[k],
                                SPIN_LIMIT);
    ran[k] = 1;
    checkCudaErrors(cudaMemcpy(h_out, p.d_out, bytes, cudaMemcpyDeviceToHost));
    gold_stats st;
    // float keys compare as floats: the libraries order -0 and +0 as equal, this workbook's bijection puts -0
    // first; anything else must be bit for bit
    if (is_float)
      compare_float((const float *)h_out, (const float *)h_gold, N, 0.0, 0.0, &st);
    else
      compare_int((const int *)h_out, (const int *)h_gold, N, &st);
    printf("%s: %.3f ms (first call), %s\n", method_name[k], ms, st.nbad ? "keys differ" : "keys sorted");
    gold_report(method_name[k], &st);
    nbad_all += st.nbad;
    if (pairs && !(is_float && (k == 0 || k == 4))) { // stable: every value where the gold put it
      checkCudaErrors(cudaMemcpy(h_out, p.d_vout, bytes, cudaMemcpyDeviceToHost));
      compare_int((const int *)h_out, (const int *)h_vgold, N, &st);
      gold_report("values", &st);
      nbad_all += st.nbad;
    } else if (pairs) { // the libraries on float keys: the gold's values, except in how they order the zeros
      checkCudaErrors(cudaMemcpy(h_out, p.d_vout, bytes, cudaMemcpyDeviceToHost));
      size_t nbad_v = values_check_zeros_free(h_out, h_vgold, h_gold, h_in, N, (unsigned char *)h_tmp);
      printf("values: %zu of %zu out of place (where the key is -0 or +0: any input zero, each once)\n", nbad_v, N);
      nbad_all += nbad_v;
    }
  }

  // step 9: keys a second against CUB, on the same input
  if (bench && nbad_all == 0) {
    char size[32];
    snprintf(size, sizeof(size), "%zu", N);
    sort_bench b = {&p, {0}, 0.0, sort_dist_names[dist]};
    const char *names[5];
    int nsteps = 0;
    for (int k = 0; k <= 4; k++) // the one-block sort is far too slow to be worth timing
      if (ran[k] && k != 1) b.method[nsteps] = k, names[nsteps++] = method_name[k];
    if (!ran[0]) b.ms_cub = time_median_ms(run_cub, &p, 3, reps); // CUB for the ratio alone
    float ms_copy = time_median_ms(run_copy_in, &p, 3, reps);
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = nsteps, L.names = names, L.ctx = &b, L.check = checked_above, L.run = bench_run;
    L.warmup = 3, L.reps = reps, L.prac = "8", L.size = size, L.bench_keys = bench_keys;
    double ms[5];
    int passed[5];
    ladder_check_and_time(&L, ms, passed);
    if (ran[0]) b.ms_cub = ms[0];
    for (int k = 0; k < nsteps; k++) { // the table: this program's own rows
      int m = b.method[k];
      if (m == 4) ms[k] -= ms_copy;
      double gkeys = (double)N / (ms[k] * 1e-3) / 1e9;
      printf("%-15s %.4f ms, %.2f Gkeys/s, %.2fx CUB%s\n", method_name[m], ms[k], gkeys, b.ms_cub / ms[k],
             m == 4 ? " (the copy of the input it sorts in place subtracted)" : "");
    }
    ladder_bench_lines(&L, ms);
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("onesweep: a look-back waited %d times for a tile that never published", SPIN_LIMIT);
  }

  checkCudaErrors(cudaFree(p.d_in));
  checkCudaErrors(cudaFree(p.d_out));
  checkCudaErrors(cudaFree(p.d_alt));
  if (pairs) {
    checkCudaErrors(cudaFree(p.d_vin));
    checkCudaErrors(cudaFree(p.d_vout));
    checkCudaErrors(cudaFree(p.d_valt));
  }
  checkCudaErrors(cudaFree(p.d_work));
  checkCudaErrors(cudaFree(p.d_hist4));
  checkCudaErrors(cudaFree(p.d_error));
  checkCudaErrors(cudaFree(p.d_cub_temp));
  if (p.d_thrust_temp) checkCudaErrors(cudaFree(p.d_thrust_temp));
  free(h_in), free(h_gold), free(h_out), free(h_tmp), free(h_vgold), free(h_vtmp);
  if (nbad_all) return result_fail("%zu keys or values out of place (see above)", nbad_all);
  return result_pass();
}

// a Thrust call reports its errors by throwing: that must end in a verdict, not an abort
int main(int argc, char **argv) {
  try {
    return main_sort(argc, argv);
  } catch (std::exception &e) {
    return result_fail("exception: %s", e.what());
  }
}
