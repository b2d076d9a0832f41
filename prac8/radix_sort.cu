/*
 * radix_sort.cu -- practical 8, steps 7 to 9: radix sort, from one bit per pass in one block to 8 bits per pass
 * with one kernel per pass (the approach of CUB's Onesweep), and CUB and Thrust beside it on the same keys.
 *
 * A radix sort orders keys one digit at a time, least significant first. Each pass must be stable (keys
 * with equal digits keep their order), so that the order the earlier passes made survives among them.
 * One step a file:
 *   -kernel=0  cub::DeviceRadixSort (SortKeys, or SortPairs with -pairs), num_items  sort/k0_cub.cuh
 *              an int and an int64_t (32- and 64-bit offsets): two calls, both checked
 *   -kernel=1  radix_1bit (step 7): one block, 32 passes of one bit; keys only      sort/k1_one_bit.cuh
 *   -kernel=2  radix_4bit (step 8): 8 passes of 4 bits, three kernels per pass        sort/k2_four_bit.cuh
 *   -kernel=3  onesweep (step 9): a histogram, then one kernel per pass of 8 bits     sort/k3_onesweep.cuh
 *              (its tunables: sort/onesweep_policy.h; its histogram: sort/onesweep_histogram.cuh)
 *   -kernel=4  thrust::sort (or sort_by_key)                                        sort/k4_thrust.cuh
 * The libraries' temporary storage is allocated once. -float sorts floats (kernels 0, 3, 4), -pairs carries a
 * 32-bit value with each key.
 * Default: every kernel that applies. Each result is checked against radix_sort_gold (sort/sort_check.h), after
 * its first call and, with -bench, again after its timed runs; -dist= picks the adversarial input. -bench times
 * every method but the one-block sort, CUB's two calls among them, and the faster of those is the peer every
 * ratio is taken against. -fault=zeros builds in a deliberate bug (onesweep orders +0 before -0, -float), which
 * only a comparison of bits can see: the run must FAIL.
 * Built with -DEXERCISE (make exercises: ./exercises/radix_sort), step 8's two placements are the learner's
 * exercises/radix4_ranks.cuh: its TODO(step 8a), checked on one tile (-kernel=2 -n=4096), then TODO(step 8b).
 *   nvcc -O3 -arch=native -I../common radix_sort.cu prac8_gold.c -o radix_sort
 */
#define COURSE_STEPS "practical 8, workbook steps 7-9 (course step (6), 2023, is steps 7-8; 9 is beyond the course)"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdexcept>

// step 8's placements first: with -DEXERCISE the learner's file, whose EXERCISE_TODO the verdict line quotes (so
// it must come before gold_check.h)
#ifdef EXERCISE
#include "exercises/radix4_ranks.cuh"
#else
#include "sort/radix4_ranks.cuh"
#endif

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
#include "sort/sort_check.h"
#include "sort/sort_plan.h"

#define MAX_N (1LL << 29)

// the methods, each described by its step's header (its name, its -0/+0 rule, any copy to subtract): -kernel=0
// is two of them, CUB with 32-bit and with 64-bit offsets (sort/k0_cub.cuh)
#define NMETHODS 6
static const sort_method *const methods[NMETHODS] = {&method_cub_off32, &method_1bit,   &method_4bit,
                                                     &method_onesweep,  &method_thrust, &method_cub_off64};
static int is_cub(int m) { return methods[m]->kernel == 0; }

// -bench, through common/ladder.h: the methods checked above (the one-block sort apart: far too slow to be
// worth timing), CUB's two calls first; the faster of them becomes step 0, the peer.
typedef struct {
  sort_plan *p;
  sort_oracle *o;
  int first_ok[NMETHODS];    // each method's verdict on its first call
  int method[NMETHODS];      // the ladder's step k is method[k]
  double copy_ms[NMETHODS];  // method m's copy of its input, to subtract (its header's copy_ms; 0: none)
  double ms_cub;
  const char *dist;
} sort_bench;

// the ladder's check: the verdict of the method's first call above, not run again (its lines are printed)
static int first_verdict(void *ctx, int k) {
  const sort_bench *b = (const sort_bench *)ctx;
  return b->first_ok[b->method[k]];
}
static void poison_out(const sort_plan *p) {
  checkCudaErrors(cudaMemset(p->d_out, 0xff, p->n * 4));
  if (p->pairs) checkCudaErrors(cudaMemset(p->d_vout, 0xff, p->n * 4));
}
// what the last timed run left, against the gold; then poisoned, so that a step whose timed runs wrote nothing
// cannot pass on the output of the step before
static int recheck_timed(void *ctx, int k) {
  sort_bench *b = (sort_bench *)ctx;
  char name[64];
  const sort_method *s = methods[b->method[k]];
  snprintf(name, sizeof(name), "%s (after the timed runs)", s->name);
  int ok = sort_check_output(b->o, b->p, name, s->equal_zeros);
  poison_out(b->p);
  return ok;
}
static void bench_run(void *ctx, int k) {
  sort_bench *b = (sort_bench *)ctx;
  methods[b->method[k]]->run(b->p);
}
// prog=cub_radix_sort is the peer (step 0) whichever offset won: offset= says which
static void bench_keys(void *ctx, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  const sort_bench *b = (const sort_bench *)ctx;
  int m = b->method[k], len;
  snprintf(prog, nprog, "%s", (k == 0) ? "cub_radix_sort" : methods[m]->name);
  len = snprintf(extra, nextra, "keys=%s pairs=%d dist=%s Gkeys_per_s=%.3f x_cub=%.3f",
                 b->p->is_float ? "float" : "uint32", b->p->pairs, b->dist, (double)b->p->n / (ms[k] * 1e-3) / 1e9,
                 b->ms_cub / ms[k]);
  if (is_cub(m)) len += snprintf(extra + len, nextra - len, " offset=%d", m == 0 ? 32 : 64);
  if (b->copy_ms[m] > 0.0) snprintf(extra + len, nextra - len, " ms_copy_subtracted=%.4f", b->copy_ms[m]);
}

static int main_sort(int argc, char **argv) {
  long long n = 1 << 24;
  int kernel = -1, is_float = 0, pairs = 0, dist = -1, bench = 0, reps = 20, seed = 1;
  const char *fault = "none";
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, (double)MAX_N, "number of keys"},
      {"kernel", ARG_INT, &kernel, -1, 4, "0 CUB, 1 one bit a pass, 2 four bits, 3 onesweep, 4 Thrust; -1 all"},
      {"float", ARG_FLAG, &is_float, 0, 1, "float keys (kernels 0, 3, 4)"},
      {"pairs", ARG_FLAG, &pairs, 0, 1, "key-value pairs, the value the key's input index (kernels 0, 3, 4)"},
      {"dist", ARG_INT, &dist, -1, SORT_NDISTS - 1,
       "input: 0 random, 1 sorted, 2 reversed, 3 all equal, 4 two values, 5 top byte, 6 floats (-1: 0, or 6 with -float)"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time each method, and CUB; BENCH lines with keys/s and the ratio to CUB"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the input"},
      {"fault", ARG_WORD, &fault, 0, 0, "a deliberate bug to catch: zeros (onesweep -float: +0 before -0)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (dist < 0) dist = is_float ? SORT_FLOATS : SORT_RANDOM;
  if (is_float && dist != SORT_FLOATS)
    args_fail("-float sorts the -dist=6 floats (other bit patterns include NaNs, which have no order)");
  if ((kernel == 1 || kernel == 2) && (is_float || pairs))
    args_fail("-kernel=%d sorts unsigned keys only: -float and -pairs are for kernels 0, 3 and 4", kernel);
  if (kernel == 1 && n > MAX_N_1BIT) args_fail("-kernel=1 (one block) takes at most %lld keys", MAX_N_1BIT);
  int fault_zeros = strcmp(fault, "zeros") == 0;
  if (!fault_zeros && strcmp(fault, "none") != 0) args_fail("-fault=%s: the deliberate bug here is zeros", fault);
  if (fault_zeros && !(kernel == 3 && is_float && !pairs))
    args_fail("-fault=zeros is onesweep's, on float keys alone: -kernel=3 -float, without -pairs");
  if (fault_zeros && n < 100000) // the -dist=6 floats hold about 4 zeros per 1000 keys: enough of them to see
    args_fail("-fault=zeros needs -n=100000 or more, so that the keys hold zeros of both signs");
  int dev = findCudaDevice(argc, argv);

  size_t N = (size_t)n, bytes = N * 4;
  sort_plan p; // every array and workspace, counted here and made once below (sort/sort_plan.h)
  memset(&p, 0, sizeof(p));
  p.n = N, p.pairs = pairs, p.is_float = is_float, p.fault_zeros = fault_zeros;
  p.cub_temp_bytes = cub_temp_size(&p); // CUB's two calls, asked for their sizes only: the larger, allocated once
  device_memory_check(sort_plan_bytes(&p),
                      pairs ? "keys and values in, out and between passes, and CUB's and Thrust's workspaces"
                            : "keys in, out and between passes, and CUB's and Thrust's workspaces",
                      args_given(argc, argv, "n"));
  printf("Sorting %zu %s%s, input: %s\n", N, is_float ? "float keys" : "32-bit keys", pairs ? " with values" : "",
         sort_dist_names[dist]);

  // the input (values: each key's index, so that a stable sort is visible), and the gold
  unsigned *h_in = (unsigned *)malloc(bytes), *h_gold = (unsigned *)malloc(bytes), *h_out = (unsigned *)malloc(bytes);
  unsigned *h_tmp = (unsigned *)malloc(bytes), *h_vgold = NULL, *h_vtmp = NULL;
  if (pairs) h_vgold = (unsigned *)malloc(bytes), h_vtmp = (unsigned *)malloc(bytes);
  if (!h_in || !h_gold || !h_out || !h_tmp || (pairs && (!h_vgold || !h_vtmp)))
    return result_fail("out of host memory");
  sort_input(h_in, N, dist, seed);
  double t0 = wall_ms();
  for (size_t i = 0; i < N; i++) h_gold[i] = is_float ? float_bits_to_key(h_in[i]) : h_in[i];
  if (pairs)
    for (size_t i = 0; i < N; i++) h_vgold[i] = (unsigned)i;
  radix_sort_gold(h_gold, h_vgold, N, h_tmp, h_vtmp);
  if (is_float)
    for (size_t i = 0; i < N; i++) h_gold[i] = key_to_float_bits(h_gold[i]);
  printf("radix_sort_gold: %.1f ms\n", wall_ms() - t0);
  sort_oracle o = {N, pairs, is_float, h_in, h_gold, h_vgold, h_out, (unsigned char *)h_tmp, 0, 0};

  sort_plan_alloc(&p, dev, h_in, h_tmp);

  // each method on poisoned output, against the gold (-bench: CUB's two calls too, the peer)
  sort_bench b;
  memset(&b, 0, sizeof(b));
  b.p = &p, b.o = &o, b.dist = sort_dist_names[dist];
  int ran[NMETHODS] = {0};
  for (int m = 0; m < NMETHODS; m++) {
    const sort_method *s = methods[m];
    int k = s->kernel;
    if (kernel >= 0 && k != kernel && !(bench && k == 0)) continue;
    if ((k == 1 || k == 2) && (is_float || pairs)) continue; // keys only
    if (k == 1 && N > MAX_N_1BIT) {
      printf("%s: skipped (one block: at most %lld keys)\n", s->name, MAX_N_1BIT);
      continue;
    }
    poison_out(&p);
    event_timer t = event_timer_start();
    s->run(&p);
    float ms = event_timer_stop(&t);
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("%s: a look-back waited %d times for a tile that never published", s->name, SPIN_LIMIT);
    ran[m] = 1;
    printf("%s: %.3f ms (first call)\n", s->name, ms);
    b.first_ok[m] = sort_check_output(&o, &p, s->name, s->equal_zeros);
  }

  // step 9: keys per second against CUB's faster call, on the same input; every timed output checked again
  if (bench && o.nbad == 0) {
    char size[32];
    snprintf(size, sizeof(size), "%zu", N);
    const char *names[NMETHODS];
    int order[NMETHODS] = {0, 5, 2, 3, 4}, nsteps = 0; // (the one-block sort is far too slow to be worth timing)
    for (int i = 0; i < 5; i++)
      if (ran[order[i]]) b.method[nsteps] = order[i], names[nsteps++] = methods[order[i]]->name;
    for (int m = 0; m < NMETHODS; m++) // a sort in place: its copy of the input, timed alone (sort/k4_thrust.cuh)
      if (ran[m] && methods[m]->copy_ms) b.copy_ms[m] = methods[m]->copy_ms(&p, reps);
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = nsteps, L.names = names, L.ctx = &b, L.check = first_verdict, L.recheck = recheck_timed;
    L.run = bench_run, L.warmup = 3, L.reps = reps, L.prac = "8", L.size = size, L.bench_keys = bench_keys;
    double ms[NMETHODS], ms_net[NMETHODS];
    int passed[NMETHODS];
    poison_out(&p);
    ladder_check_and_time(&L, ms, passed);
    if (is_cub(b.method[1]) && ms[1] < ms[0]) { // steps 0 and 1 are CUB's two calls: the faster is the peer
      int m = b.method[0];
      double t = ms[0];
      b.method[0] = b.method[1], b.method[1] = m, ms[0] = ms[1], ms[1] = t;
      names[0] = methods[b.method[0]]->name, names[1] = methods[m]->name;
    }
    for (int k = 0; k < nsteps; k++) ms_net[k] = ms[k] - b.copy_ms[b.method[k]]; // the sort alone
    b.ms_cub = ms_net[0];
    printf("CUB's peer: num_items %s (the faster call; the other is in the next row)\n",
           b.method[0] == 0 ? "an int, 32-bit offsets" : "an int64_t, 64-bit offsets");
    for (int k = 0; k < nsteps; k++) { // the table (this program's own rows) and the BENCH lines: the sort alone
      int m = b.method[k];
      printf("%-20s %.4f ms, %.2f Gkeys/s, %.2fx CUB%s\n", methods[m]->name, ms_net[k],
             (double)N / (ms_net[k] * 1e-3) / 1e9, b.ms_cub / ms_net[k],
             b.copy_ms[m] > 0.0 ? " (the copy of the input it sorts in place subtracted)" : "");
    }
    ladder_bench_lines(&L, ms_net);
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("onesweep: a look-back waited %d times for a tile that never published", SPIN_LIMIT);
  }

  sort_plan_free(&p);
  free(h_in), free(h_gold), free(h_out), free(h_tmp), free(h_vgold), free(h_vtmp);
  if (o.nbad && o.nbad_zero_sign == o.nbad) // what only a comparison of bits sees (-fault=zeros must end here)
    return result_fail("%zu keys out of place, all of them zeros of the wrong sign (-0 and +0: equal as floats)",
                       o.nbad);
  if (o.nbad_zero_sign)
    return result_fail("%zu keys or values out of place, %zu of them zeros of the wrong sign (see above)", o.nbad,
                       o.nbad_zero_sign);
  // (result_check: built with -DEXERCISE, the line says "exercise not done" and names the TODOs)
  if (o.nbad) return result_check(0, "%zu keys or values out of place (see above)", o.nbad);
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
