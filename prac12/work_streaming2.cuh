/*
 * work_streaming2.cuh -- practical 12, step 2: the arithmetic of work_streaming2.cu, plain C (header only), so that
 * tests/test_prac12.c checks it with gcc and no GPU: how the array is cut into chunks of whole blocks, the flags'
 * limits, and the gate, the exercise's check that the chunk loop queues its copies and returns. The bounds that
 * the chunked time is held against are prac11's (pipe_bound in ../prac11/pipeline.cuh).
 */
#ifndef WORK_STREAMING2_CUH
#define WORK_STREAMING2_CUH

#include <stdio.h>
#include <time.h>

#define WS2_BLOCK 256       /* the course's threads per block; a chunk is whole blocks of them */
#define WS2_N_MAX (1 << 29) /* doubles at most, 4 GiB: the course's int indexes stay below 2^31 */
#define WS2_CHUNKS_MAX 8192 /* chunks at most: 128 KiB each at the default size, where set-up costs rule */
#define WS2_STREAMS_MAX 128 /* streams at most (the GPU has 8 hardware queues by default, up to 32) */
#define WS2_GATE_CHUNKS                                                                                   \
  16                       /* chunks the gate's loop queues at most: far below the thousand or so pending \
                              calls after which a launch waits for room, not for the GPU's work */
#define WS2_GATE_MS 5000.0 /* how long the hold waits for the loop to return before it gives up */

/* Chunk i: doubles first .. first+count-1, which the kernel's blocks block0 .. block0+nblocks-1 cover (the
 * course's launch: do_work<<<nblocks, 256>>>(..., idx = block0), each thread at 256 (idx + blockIdx.x) +
 * threadIdx.x, the last block cut short by the kernel's i < N). */
typedef struct {
  long long first, count;
  int block0, nblocks;
} ws2_chunk;

static inline int ws2_blocks(int n) { return (n - 1) / WS2_BLOCK + 1; }

/* The blocks of an array of n doubles split into chunks as evenly as they go: the first (blocks % chunks) chunks
 * have a block more. So every chunk has a block at least (chunks <= blocks: ws2_chunks_fit), the chunks differ by a
 * block at most, and the last, which also holds the array's part-empty block, is the smallest: its times, chunks
 * times over, bound the time of them all. With the course's n = 2^27 and 8 chunks: 2^16 blocks each, block0 =
 * i 2^16, as its idx = i nblocks. */
static inline ws2_chunk ws2_chunk_of(int n, int chunks, int i) {
  int nb = ws2_blocks(n), q = nb / chunks, r = nb % chunks;
  ws2_chunk c;
  c.block0 = i * q + (i < r ? i : r);
  c.nblocks = q + (i < r ? 1 : 0);
  c.first = (long long)c.block0 * WS2_BLOCK;
  long long end = (long long)(c.block0 + c.nblocks) * WS2_BLOCK;
  c.count = (end < n ? end : n) - c.first;
  return c;
}

/* 1 when n doubles can make chunks chunks of a block at least; else 0, with why the flags are bad in msg */
static inline int ws2_chunks_fit(int n, int chunks, char *msg, size_t len) {
  if (chunks <= ws2_blocks(n)) return 1;
  snprintf(msg, len,
           "-chunks=%d: more chunks than the %d block%s of %d doubles that -n=%d makes (a chunk is whole "
           "blocks): give -chunks=1 to %d",
           chunks, ws2_blocks(n), ws2_blocks(n) == 1 ? "" : "s", WS2_BLOCK, n, ws2_blocks(n));
  return 0;
}

/*
 * The gate: is the chunk loop asynchronous? Checked by what the loop waits for, not by its time. A host function,
 * the hold, goes first in the streams (cudaLaunchHostFunc) and keeps them from running anything until the host
 * opens the gate, which it does as soon as the loop has returned. A loop that only queues work returns while the
 * GPU is held: WS2_GATE_OPENED. A copy that waits for the GPU (cudaMemcpy, or cudaMemcpyAsync to or from pageable
 * memory) waits for the hold, which gives up after limit_ms: WS2_GATE_TIMED_OUT. Whichever settles the gate first
 * decides (a compare-and-swap), so the two cannot both happen.
 */
enum { WS2_GATE_SHUT, WS2_GATE_OPENED, WS2_GATE_TIMED_OUT };
typedef struct {
  int state;       /* WS2_GATE_SHUT until settled */
  double limit_ms; /* the hold gives up after this */
} ws2_gate;

/* Settles the gate as `to` unless it is settled already; returns the state it is left in */
static inline int ws2_gate_settle(ws2_gate *g, int to) {
  int shut = WS2_GATE_SHUT;
  __atomic_compare_exchange_n(&g->state, &shut, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  return __atomic_load_n(&g->state, __ATOMIC_ACQUIRE);
}

static inline double ws2_monotonic_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* The hold, a cudaHostFn_t (the driver runs it in the stream; it makes no CUDA call): returns once the gate is
 * settled, looking every 0.1 ms, and settles it as timed out after limit_ms */
static inline void ws2_gate_hold(void *arg) {
  ws2_gate *g = (ws2_gate *)arg;
  double t0 = ws2_monotonic_ms();
  struct timespec nap = {0, 100000};
  while (__atomic_load_n(&g->state, __ATOMIC_ACQUIRE) == WS2_GATE_SHUT) {
    if (ws2_monotonic_ms() - t0 > g->limit_ms)
      ws2_gate_settle(g, WS2_GATE_TIMED_OUT);
    else
      nanosleep(&nap, NULL);
  }
}

#endif /* WORK_STREAMING2_CUH */
