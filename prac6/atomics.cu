/*
 * atomics.cu -- practical 6, step 5: atomic operations the hardware does not have, built on atomicCAS.
 *
 * atomicCAS(addr, assumed, desired) writes desired only if *addr still holds assumed, and returns what it
 * found: with it, any read-modify-write on a 32-bit word can be made atomic by retrying until no other thread
 * got in between (a "CAS loop"). Here, each hammered by n threads on a few targets (item i goes to target
 * i % targets):
 *   atomic_max_float_ordered  float max from the integer atomicMax/atomicMin: no loop (the sign-aware trick)
 *   atomic_max_float_cas      float max as a CAS loop      (the exercise: exercises/atomic_max_float_cas.cuh)
 *   atomic_add_int_cas        int add as a CAS loop, to time against the native atomicAdd
 *   atomic_add_byte_cas, atomic_max_byte_cas
 *                             8-bit add and max: a CAS on the 32-bit word that holds the byte
 *   locked_update             a spin lock (atomicCAS to take, atomicExch to release) around a four-word update
 * Every result is exact (max, wrapping integer sums, counts and xors do not depend on the order), so each is
 * compared with the gold bit for bit. -bench times each against the native atomicAdd / atomicMax.
 *   nvcc -O3 -arch=native -I../common atomics.cu atomics_gold.c -o atomics   (in prac6/)
 * The exercise (make exercises): built with -DEXERCISE, atomic_max_float_cas is the learner's,
 * exercises/atomic_max_float_cas.cuh.
 */
#define COURSE_STEPS "practical 6, workbook step 5 (beyond the course)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 5) in exercises/atomic_max_float_cas.cuh"
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac6_gold.h"

#define BLOCK 256 // threads per block; nothing here depends on it
#define REPS 5    // timed samples per operation with -bench (a CAS loop on one target can take a second)

#include "atomics.cuh" // the atomics themselves: the lesson

// ---- the kernels: one thread per item, item i to target i % ntargets ---------------------------------------

__global__ void max_float_ordered(float *fmax, const float *f, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomic_max_float_ordered(&fmax[i % ntargets], f[i]);
}

__global__ void max_float_cas(float *fmax, const float *f, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomic_max_float_cas(&fmax[i % ntargets], f[i]);
}

__global__ void add_int_native(int *isum, const int *v, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomicAdd(&isum[i % ntargets], v[i]);
}

__global__ void add_int_cas(int *isum, const int *v, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomic_add_int_cas(&isum[i % ntargets], v[i]);
}

__global__ void max_int_native(int *imax, const int *v, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomicMax(&imax[i % ntargets], v[i]);
}

__global__ void add_byte_cas(unsigned char *bsum, const unsigned char *b, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomic_add_byte_cas(&bsum[i % ntargets], b[i]);
}

__global__ void max_byte_cas(unsigned char *bmax, const unsigned char *b, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) atomic_max_byte_cas(&bmax[i % ntargets], b[i]);
}

// The spin lock ("global atomic lock"): locks[t] is 0 when free, 1 when held. A thread takes it with
// atomicCAS(0 -> 1), updates the four words of its record, and frees it with atomicExch(-> 0).
//
// The warp-divergence deadlock: the obvious form
//     while (atomicCAS(&locks[t], 0, 1) != 0) { }   // spin until we hold it
//     ...update...; atomicExch(&locks[t], 0);
// can hang forever when two threads of one warp want the same lock. One of them wins; the other keeps
// spinning; and on GPUs before Volta, whose warps have one program counter, the warp cannot move the winner
// on to its update and release while the loser's loop is still running: the loser waits for a lock that the
// winner can never free. Volta and later schedule each thread independently and eventually let the winner
// through, but the form below, with the update and the release *inside* the branch where the CAS succeeded,
// is correct on every GPU: the winner finishes within the same pass through the loop, and the losers retry.
//
// __threadfence(): the record's words are written with ordinary stores, which another SM might otherwise see
// after it sees the lock free (or read stale, from its own L1). The fence after taking the lock keeps our
// reads from moving before it; the fence before the release makes the four writes visible to every thread
// before the lock is seen free. The record is read and written through volatile, so that the loads go to L2
// (where the last holder's writes are) and not to a possibly stale line in this SM's L1.
__global__ void locked_update(lock_record *rec, int *locks, const int *v, int n, int ntargets) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n) return;
  int t = i % ntargets;
  volatile lock_record *r = &rec[t];
  bool done = false;
  while (!done) {
    if (atomicCAS(&locks[t], 0, 1) == 0) { // we hold the lock
      __threadfence();
      unsigned long long sum = ((unsigned long long)r->sum_hi << 32 | r->sum_lo) + (unsigned long long)(long long)v[i];
      r->sum_lo = (unsigned int)sum;
      r->sum_hi = (unsigned int)(sum >> 32);
      r->count = r->count + 1;
      r->check = r->check ^ (unsigned int)v[i];
      __threadfence();
      atomicExch(&locks[t], 0); // release
      done = true;
    }
  }
}

// every target to a starting value that no item can beat (-inf, INT_MIN): cudaMemset sets bytes only
__global__ void fill_u32(unsigned int *p, unsigned int value, int count) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < count) p[i] = value;
}

// ---- host side ----------------------------------------------------------------------------------------------

enum { OP_ADD_NATIVE, OP_ADD_CAS, OP_MAX_NATIVE, OP_FMAX_ORDERED, OP_FMAX_CAS, OP_BADD_CAS, OP_BMAX_CAS, OP_LOCK, NOPS };
static const char *op_name[NOPS] = {"atomicAdd int (native)",      "int add, atomicCAS loop",
                                    "atomicMax int (native)",      "float max, sign-aware atomicMax/Min",
                                    "float max, atomicCAS loop",   "8-bit add, atomicCAS on its word",
                                    "8-bit max, atomicCAS on its word", "spin lock, 4-word record"};
static const char *op_key[NOPS] = {"add_native", "add_cas", "max_native", "fmax_ordered",
                                   "fmax_cas",   "badd_cas", "bmax_cas",  "lock"};

typedef struct {
  int op, n, nlock, ntargets;
  const float *d_f;
  const int *d_v;
  const unsigned char *d_b;
  float *d_fmax;
  int *d_isum, *d_imax, *d_locks;
  unsigned char *d_bsum, *d_bmax;
  lock_record *d_rec;
} atomics_launch;

// one operation from its starting values: reset its targets, then launch (the unit that -bench times)
static void launch_op(void *p) {
  atomics_launch *a = (atomics_launch *)p;
  int nb = (a->n + BLOCK - 1) / BLOCK, nt = a->ntargets, tb = (nt + BLOCK - 1) / BLOCK;
  size_t bytes_rounded = (size_t)(nt + 3) & ~(size_t)3; // byte targets live in whole words
  switch (a->op) {
  case OP_ADD_NATIVE:
  case OP_ADD_CAS:
    checkCudaErrors(cudaMemsetAsync(a->d_isum, 0, (size_t)nt * sizeof(int)));
    if (a->op == OP_ADD_NATIVE)
      add_int_native<<<nb, BLOCK>>>(a->d_isum, a->d_v, a->n, nt);
    else
      add_int_cas<<<nb, BLOCK>>>(a->d_isum, a->d_v, a->n, nt);
    break;
  case OP_MAX_NATIVE:
    fill_u32<<<tb, BLOCK>>>((unsigned int *)a->d_imax, 0x80000000u, nt); // INT_MIN
    getLastCudaError("fill_u32 execution failed");
    max_int_native<<<nb, BLOCK>>>(a->d_imax, a->d_v, a->n, nt);
    break;
  case OP_FMAX_ORDERED:
  case OP_FMAX_CAS:
    fill_u32<<<tb, BLOCK>>>((unsigned int *)a->d_fmax, 0xff800000u, nt); // -inf
    getLastCudaError("fill_u32 execution failed");
    if (a->op == OP_FMAX_ORDERED)
      max_float_ordered<<<nb, BLOCK>>>(a->d_fmax, a->d_f, a->n, nt);
    else
      max_float_cas<<<nb, BLOCK>>>(a->d_fmax, a->d_f, a->n, nt);
    break;
  case OP_BADD_CAS:
    checkCudaErrors(cudaMemsetAsync(a->d_bsum, 0, bytes_rounded));
    add_byte_cas<<<nb, BLOCK>>>(a->d_bsum, a->d_b, a->n, nt);
    break;
  case OP_BMAX_CAS:
    checkCudaErrors(cudaMemsetAsync(a->d_bmax, 0, bytes_rounded));
    max_byte_cas<<<nb, BLOCK>>>(a->d_bmax, a->d_b, a->n, nt);
    break;
  case OP_LOCK:
    checkCudaErrors(cudaMemsetAsync(a->d_rec, 0, (size_t)nt * sizeof(lock_record)));
    checkCudaErrors(cudaMemsetAsync(a->d_locks, 0, (size_t)nt * sizeof(int)));
    locked_update<<<(a->nlock + BLOCK - 1) / BLOCK, BLOCK>>>(a->d_rec, a->d_locks, a->d_v, a->nlock, nt);
    break;
  }
  getLastCudaError("atomics kernel execution failed");
}

// exact comparison of one target array, as ints (the float max compares its values as floats)
static int report(const char *what, size_t nbad, size_t count) {
  printf("%-38s %zu of %zu targets differ from the gold\n", what, nbad, count);
  return nbad != 0;
}

// every target array, on the host (what the GPU left) or the gold
typedef struct {
  float *fmax;
  int *isum, *imax;
  unsigned char *bsum, *bmax;
  lock_record *rec;
} targets;

// every target array poisoned (all bits set: NaN, -1, 255), so that an operation that never ran cannot pass;
// the locks are not: they are the operation's own, set free by launch_op before every run
static void poison_targets(const atomics_launch *a) {
  size_t nt = (size_t)a->ntargets, ntr = (nt + 3) & ~(size_t)3;
  checkCudaErrors(cudaMemset(a->d_fmax, 0xff, nt * sizeof(float)));
  checkCudaErrors(cudaMemset(a->d_isum, 0xff, nt * sizeof(int)));
  checkCudaErrors(cudaMemset(a->d_imax, 0xff, nt * sizeof(int)));
  checkCudaErrors(cudaMemset(a->d_bsum, 0xff, ntr));
  checkCudaErrors(cudaMemset(a->d_bmax, 0xff, ntr));
  checkCudaErrors(cudaMemset(a->d_rec, 0xff, nt * sizeof(lock_record)));
}

// the targets of operation a->op copied back into h, and compared with g exactly: the number that differ
static size_t targets_wrong(const atomics_launch *a, targets *h, const targets *g) {
  size_t nt = (size_t)a->ntargets, ntr = (nt + 3) & ~(size_t)3, nbad = 0;
  gold_stats st;
  switch (a->op) {
  case OP_ADD_NATIVE:
  case OP_ADD_CAS:
    checkCudaErrors(cudaMemcpy(h->isum, a->d_isum, nt * sizeof(int), cudaMemcpyDeviceToHost));
    return compare_int(h->isum, g->isum, nt, &st);
  case OP_MAX_NATIVE:
    checkCudaErrors(cudaMemcpy(h->imax, a->d_imax, nt * sizeof(int), cudaMemcpyDeviceToHost));
    return compare_int(h->imax, g->imax, nt, &st);
  case OP_FMAX_ORDERED:
  case OP_FMAX_CAS:
    checkCudaErrors(cudaMemcpy(h->fmax, a->d_fmax, nt * sizeof(float), cudaMemcpyDeviceToHost));
    return compare_float(h->fmax, g->fmax, nt, 0.0, 0.0, &st);
  case OP_BADD_CAS:
    checkCudaErrors(cudaMemcpy(h->bsum, a->d_bsum, ntr, cudaMemcpyDeviceToHost));
    return compare_uchar(h->bsum, g->bsum, nt, &st);
  case OP_BMAX_CAS:
    checkCudaErrors(cudaMemcpy(h->bmax, a->d_bmax, ntr, cudaMemcpyDeviceToHost));
    return compare_uchar(h->bmax, g->bmax, nt, &st);
  case OP_LOCK: // a target is wrong when any of its four words is
    checkCudaErrors(cudaMemcpy(h->rec, a->d_rec, nt * sizeof(lock_record), cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < nt; t++)
      nbad += compare_int((const int *)&h->rec[t], (const int *)&g->rec[t], 4, &st) != 0;
    return nbad;
  }
  return nt; // no such operation: nothing was checked
}

#define ATOMICS_WATCHDOG_ITEMS 16384 // items on one word or one lock at most, on a GPU with a display watchdog
int main(int argc, char **argv) {
  int n = 1 << 18, ntargets = 8, nlock = 1 << 16, seed = 1, bench = 0;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, 1 << 26, "items, one thread each"},
      {"targets", ARG_INT, &ntargets, 1, 1 << 24, "addresses the items are spread over (few: contention)"},
      {"nlock", ARG_INT, &nlock, 1, 1 << 26, "items that go through the spin lock (at most n)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the items"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time every operation against the native atomics"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (ntargets > n) args_fail("-targets=%d is more than the %d items: a target with no item has no max", ntargets, n);
  if (!args_given(argc, argv, "nlock") && nlock > n) nlock = n;
  if (nlock > n) args_fail("-nlock=%d is more than -n=%d", nlock, n);

  // A display watchdog (Windows, WSL 2: cudaDevAttrKernelExecTimeout) stops a launch past about 2 s; the default's
  // 8-bit add took 3 s in one launch on an H100 (131072 items per word). There the default is 16384 items, and a
  // size with more per 32-bit word or lock SKIPs (16384 on one word: 28.03 ms for the 8-bit add, 305.8 ms for the
  // spin lock on the H100). docs/troubleshooting.md#windows-watchdog
  int dev = findCudaDevice(argc, argv), watchdog = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&watchdog, cudaDevAttrKernelExecTimeout, dev));
  if (watchdog && !args_given(argc, argv, "n") && n > ATOMICS_WATCHDOG_ITEMS) {
    n = ATOMICS_WATCHDOG_ITEMS;
    if (!args_given(argc, argv, "nlock") && nlock > n) nlock = n;
    printf("this GPU has a display watchdog: the default is -n=%d here, not 262144\n", n);
  }
  const int per_word = (n + (ntargets + 3) / 4 - 1) / ((ntargets + 3) / 4), per_lock = (nlock + ntargets - 1) / ntargets;
  if (watchdog && (per_word > ATOMICS_WATCHDOG_ITEMS || per_lock > ATOMICS_WATCHDOG_ITEMS))
    return result_skip("this GPU has a display watchdog (a launch past about 2 s is stopped), and %d items on one "
                       "32-bit word or %d on one lock may outlast it: at most %d here (more -targets, or fewer -n)",
                       per_word, per_lock, ATOMICS_WATCHDOG_ITEMS);
  size_t nt = (size_t)ntargets, ntr = (nt + 3) & ~(size_t)3;
  device_memory_check((size_t)n * 9 + nt * 32 + 64, "items and targets", args_given(argc, argv, "n"));

  // the items, and the gold
  float *h_f = (float *)malloc((size_t)n * sizeof(float));
  int *h_v = (int *)malloc((size_t)n * sizeof(int));
  unsigned char *h_b = (unsigned char *)malloc((size_t)n);
  float *h_fmax = (float *)malloc(nt * sizeof(float)), *g_fmax = (float *)malloc(nt * sizeof(float));
  int *h_isum = (int *)malloc(nt * sizeof(int)), *g_isum = (int *)malloc(nt * sizeof(int));
  int *h_imax = (int *)malloc(nt * sizeof(int)), *g_imax = (int *)malloc(nt * sizeof(int));
  unsigned char *h_bsum = (unsigned char *)malloc(ntr), *g_bsum = (unsigned char *)malloc(nt);
  unsigned char *h_bmax = (unsigned char *)malloc(ntr), *g_bmax = (unsigned char *)malloc(nt);
  lock_record *h_rec = (lock_record *)malloc(nt * sizeof(lock_record));
  lock_record *g_rec = (lock_record *)malloc(nt * sizeof(lock_record));
  if (!h_f || !h_v || !h_b || !h_fmax || !g_fmax || !h_isum || !g_isum || !h_imax || !g_imax || !h_bsum || !g_bsum ||
      !h_bmax || !g_bmax || !h_rec || !g_rec)
    return result_fail("out of host memory");
  atomics_inputs(h_f, h_v, h_b, n, (unsigned int)seed);
  Gold_atomics(h_f, h_v, h_b, n, ntargets, g_fmax, g_isum, g_imax, g_bsum, g_bmax);
  Gold_locked(h_v, nlock, ntargets, g_rec);
  printf("%d items on %d targets (%d items per target), %d of them through the spin lock\n", n, ntargets,
         (n + ntargets - 1) / ntargets, nlock);

  // device copies; every target array poisoned, so that a kernel that never ran cannot pass
  atomics_launch a;
  a.n = n;
  a.nlock = nlock;
  a.ntargets = ntargets;
  float *d_f;
  int *d_v;
  unsigned char *d_b;
  checkCudaErrors(cudaMalloc((void **)&d_f, (size_t)n * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_v, (size_t)n * sizeof(int)));
  checkCudaErrors(cudaMalloc((void **)&d_b, (size_t)n));
  checkCudaErrors(cudaMemcpy(d_f, h_f, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_v, h_v, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_b, h_b, (size_t)n, cudaMemcpyHostToDevice));
  a.d_f = d_f;
  a.d_v = d_v;
  a.d_b = d_b;
  checkCudaErrors(cudaMalloc((void **)&a.d_fmax, nt * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&a.d_isum, nt * sizeof(int)));
  checkCudaErrors(cudaMalloc((void **)&a.d_imax, nt * sizeof(int)));
  checkCudaErrors(cudaMalloc((void **)&a.d_bsum, ntr));
  checkCudaErrors(cudaMalloc((void **)&a.d_bmax, ntr));
  checkCudaErrors(cudaMalloc((void **)&a.d_rec, nt * sizeof(lock_record)));
  checkCudaErrors(cudaMalloc((void **)&a.d_locks, nt * sizeof(int)));

  // run each operation once and check it exactly
  targets h = {h_fmax, h_isum, h_imax, h_bsum, h_bmax, h_rec}, g = {g_fmax, g_isum, g_imax, g_bsum, g_bmax, g_rec};
  int bad = 0;
  for (int op = 0; op < NOPS; op++) {
    poison_targets(&a);
    a.op = op;
    launch_op(&a);
    checkCudaErrors(cudaDeviceSynchronize());
    bad += report(op_name[op], targets_wrong(&a, &h, &g), nt);
  }
  printf("target 0: float max = %g, int sum = %d, int max = %d, byte sum = %d, byte max = %d, locked sum = %lld "
         "over %u items\n",
         h_fmax[0], h_isum[0], h_imax[0], h_bsum[0], h_bmax[0],
         (long long)((unsigned long long)h_rec[0].sum_hi << 32 | h_rec[0].sum_lo), h_rec[0].count);

  // -bench: each operation from its reset, median of REPS; the lock runs nlock items, the rest n
  if (bench && bad == 0) {
    char size[64], extra[160];
    float ms[NOPS];
    snprintf(size, sizeof(size), "%dx%d", n, ntargets);
    printf("\n%-38s %10s %12s %10s\n", "operation", "ms", "Gatomics/s", "x native");
    for (int op = 0; op < NOPS; op++) {
      a.op = op;
      poison_targets(&a);
      ms[op] = time_median_ms(launch_op, &a, 1, REPS);
      // every run starts from its reset (launch_op: 0, INT_MIN or -inf, then the kernel), so what the targets hold
      // now is the last timed run's alone, and must equal the gold: checked as the first run was, a line only when
      // it differs (the poison above fails the check if no timed run reached the targets at all)
      size_t nbad = targets_wrong(&a, &h, &g);
      if (nbad) {
        printf("%-38s the last timed run: %zu of %zu targets differ from the gold\n", op_name[op], nbad, nt);
        bad++;
      }
      int items = op == OP_LOCK ? nlock : n;
      // the native operation it stands in for: atomicAdd for the adds and the lock, atomicMax for the maxima
      int base = (op == OP_ADD_NATIVE || op == OP_ADD_CAS || op == OP_BADD_CAS || op == OP_LOCK) ? OP_ADD_NATIVE
                                                                                                : OP_MAX_NATIVE;
      double gops = items / (ms[op] * 1e-3) / 1e9;
      double per_item_native = ms[base] / n, per_item = ms[op] / items;
      printf("%-38s %10.4f %12.3f %10.2f\n", op_name[op], ms[op], gops, per_item / per_item_native);
      snprintf(extra, sizeof(extra), "op=%s items=%d targets=%d Gops=%.3f x_native=%.2f", op_key[op], items,
               ntargets, gops, per_item / per_item_native);
      print_bench("6", "atomics", size, REPS, ms[op], -1, NULL, extra);
    }
  }

  checkCudaErrors(cudaFree(d_f));
  checkCudaErrors(cudaFree(d_v));
  checkCudaErrors(cudaFree(d_b));
  checkCudaErrors(cudaFree(a.d_fmax));
  checkCudaErrors(cudaFree(a.d_isum));
  checkCudaErrors(cudaFree(a.d_imax));
  checkCudaErrors(cudaFree(a.d_bsum));
  checkCudaErrors(cudaFree(a.d_bmax));
  checkCudaErrors(cudaFree(a.d_rec));
  checkCudaErrors(cudaFree(a.d_locks));
  free(h_f);
  free(h_v);
  free(h_b);
  free(h_fmax);
  free(g_fmax);
  free(h_isum);
  free(g_isum);
  free(h_imax);
  free(g_imax);
  free(h_bsum);
  free(g_bsum);
  free(h_bmax);
  free(g_bmax);
  free(h_rec);
  free(g_rec);

  return result_check(!bad, "%d of %d operations disagree with the gold", bad, NOPS);
}
