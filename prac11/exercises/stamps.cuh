/*
 * exercises/stamps.cuh -- practical 11, step 2 (the course's step 4): when does each kernel start and finish?
 *
 * The course asks for a print from thread 0 of each kernel as it starts and as it finishes. Device printf is
 * flushed only at a synchronisation, after the kernels are over, so it cannot show which ran at once. Instead,
 * thread 0 writes the time into a buffer: stamp[0] as the kernel starts, stamp[1] as it ends. The clock is
 * %globaltimer, the GPU's 64-bit nanosecond timer, one for the whole GPU (the PTX ISA's special registers); read
 * it with one line of inline PTX, asm volatile("..." : "=l"(t)), writing %% for each % of the register's name.
 *
 * Fill in the TODO(step 2)s. Until then every stamp stays 0 and
 *   make exercises && ./exercises/stream_per_thread
 * ends RESULT: FAIL (exercise not done: ...); then it prints each kernel's interval and PASSes. Try it with
 * -streams=1 and 32. It is built per-thread only: for the legacy build's intervals run the finished
 * ../stream_legacy (step 2 of the handout). The finished functions are in ../prac11_timeline.cuh.
 */

// the time now, in ns of %globaltimer
__device__ __forceinline__ unsigned long long globaltimer_ns(void) {
  unsigned long long t = 0;
  // TODO(step 2): read %globaltimer into t (mov.u64), with asm volatile so that each call reads it anew
  return t;
}

// called by every thread of the kernel on entry; stamp is NULL for the course's dummy kernel (no stamps)
__device__ __forceinline__ void stamp_start(unsigned long long *stamp) {
  // TODO(step 2): thread 0 alone records the time in stamp[0]
  (void)stamp;
}

// called by every thread of the kernel once its work is done (one block per kernel here)
__device__ __forceinline__ void stamp_end(unsigned long long *stamp) {
  // TODO(step 2): wait until every thread of the block is done, then thread 0 records the time in stamp[1].
  // (A barrier must be reached by all of the block or by none: stamp is the same for all, so test it first.)
  (void)stamp;
}
