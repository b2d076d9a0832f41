/*
 * cp_async.h -- copies from global to shared memory that do not pass through a register (cp.async).
 *
 * On sm_80 and later a thread issues the copy and goes on at once; the bytes land in shared memory later,
 * and the thread waits for them when it needs them. So a block can have a whole tile of loads in flight
 * with no registers held for them, which is what lets prac7's batched solver overlap its next system's
 * loads with this one's arithmetic, prac8's look-back kernels keep many tiles in flight on each SM, and
 * prac5's SGEMM step 7 keep three tiles of A and B in flight while it multiplies a fourth.
 * Before sm_80 each copy is an ordinary load and store, and the waits are empty.
 *
 *   copy16_to_shared(&s_v[i], &g_v[i]);   // 16 bytes, both addresses 16-byte aligned
 *   copy4_to_shared(&s_x[j], &g_x[j]);    // 4 bytes
 *   copy16_to_shared_or_zero(&s_v[i], in ? &g_v[i] : g_v, in);  // the same, or zeros where in is false
 *   cp_async_commit();                    // close this thread's group of copies ...
 *   cp_async_wait<0>();                   // ... and wait until at most 0 of its groups are in flight
 *   __syncthreads();                      // then the other threads' copies are visible too
 *   prefetch_to_l2(&g_v[far_ahead], bytes);  // sm_90: start bringing bytes into L2 for later (a hint)
 *
 * A wait covers only the calling thread's own copies: a barrier after it is what makes a tile copied by the
 * whole block readable by every thread. PTX ISA, "Data Movement and Conversion Instructions: cp.async":
 * https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async
 */
#ifndef CP_ASYNC_H
#define CP_ASYNC_H

#ifdef __CUDACC__

// 16 bytes; .cg keeps them out of L1 (each is read once, from shared memory)
__device__ __forceinline__ void copy16_to_shared(void *dst, const void *src) {
#if __CUDA_ARCH__ >= 800
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
#else
  *(int4 *)dst = *(const int4 *)src;
#endif
}

// 4 bytes (.cg takes only 16-byte copies, so this one goes through L1: .ca)
__device__ __forceinline__ void copy4_to_shared(void *dst, const void *src) {
#if __CUDA_ARCH__ >= 800
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(src) : "memory");
#else
  *(unsigned *)dst = *(const unsigned *)src;
#endif
}

// The same two with a bounds test, for tiles that hang over a matrix's edge: when in is false nothing is read
// (src must still be a valid address; pass the array's start) and the bytes at dst are set to zero, through
// cp.async's src-size operand (0 of 16 or 4 bytes copied, the rest zero-filled).
__device__ __forceinline__ void copy16_to_shared_or_zero(void *dst, const void *src, bool in) {
#if __CUDA_ARCH__ >= 800
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(in ? 16 : 0) : "memory");
#else
  *(int4 *)dst = in ? *(const int4 *)src : make_int4(0, 0, 0, 0);
#endif
}
__device__ __forceinline__ void copy4_to_shared_or_zero(void *dst, const void *src, bool in) {
#if __CUDA_ARCH__ >= 800
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(in ? 4 : 0) : "memory");
#else
  *(unsigned *)dst = in ? *(const unsigned *)src : 0u;
#endif
}

// close this thread's group of copies issued since the last commit
__device__ __forceinline__ void cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// wait until at most N of this thread's committed groups are still in flight
template <int N> __device__ __forceinline__ void cp_async_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// the usual pair when a tile is loaded in one go: commit, and wait for all of this thread's copies
__device__ __forceinline__ void cp_async_wait_all() {
  cp_async_commit();
  cp_async_wait<0>();
}

// Ask for `bytes` of global memory (16-byte aligned, a multiple of 16) to be brought into L2, and go on at once:
// nothing lands in shared memory or registers and nothing is waited for. A hint only: the data may be gone again
// by the time it is read, which costs time, never correctness. prac8's look-back kernels use it to have a tile
// on its way from DRAM long before the block that will scan it starts (one instruction, cp.async.bulk.prefetch,
// sm_90 and later; PTX ISA, "Data Movement and Conversion Instructions: cp.async.bulk.prefetch"). Before
// sm_90 it does nothing.
__device__ __forceinline__ void prefetch_to_l2(const void *src, unsigned bytes) {
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(src), "r"(bytes) : "memory");
#else
  (void)src, (void)bytes;
#endif
}

#endif /* __CUDACC__ */
#endif /* CP_ASYNC_H */
