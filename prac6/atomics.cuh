/*
 * atomics.cuh -- practical 6, step 5: the atomics atomics.cu's kernels call, each built on a native atomic
 * (atomicMax/atomicMin for the float max without a loop, atomicCAS for every other): the lesson of the step.
 * Included by atomics.cu; built with -DEXERCISE, atomic_max_float_cas is the learner's
 * (exercises/atomic_max_float_cas.cuh).
 */
#ifndef ATOMICS_CUH
#define ATOMICS_CUH

#include <stdint.h> // uintptr_t: the word that holds a byte

// ---- the atomics -----------------------------------------------------------------------------------------

// Non-negative floats are ordered like their bit patterns read as signed ints; negative floats are ordered
// backwards, like their bit patterns read as unsigned ints (a larger magnitude is a larger unsigned and a
// smaller float). So: a non-negative value goes in with the signed atomicMax; a negative one with the unsigned
// atomicMin, which can only replace a negative target (any non-negative float, read as unsigned, is below
// 2^31 and every negative one above it). One native atomic, no loop. Not for NaN; -0.0f counts below +0.0f.
__device__ float atomic_max_float_ordered(float *addr, float val) {
  if (!signbit(val)) return __int_as_float(atomicMax((int *)addr, __float_as_int(val)));
  return __uint_as_float(atomicMin((unsigned int *)addr, __float_as_uint(val)));
}

#ifdef EXERCISE // make exercises: the learner's CAS loop
#include "exercises/atomic_max_float_cas.cuh"
#else
// The CAS loop: read, compute, and try to swap in the new value; if another thread changed the word in
// between, atomicCAS returns its value and we try again with that. A value that is not larger stops at once,
// without writing: under contention most threads leave without a single atomic.
__device__ float atomic_max_float_cas(float *addr, float val) {
  int *word = (int *)addr;
  int old = *word; // a first guess: if it is stale, the CAS fails and hands back the real value
  while (val > __int_as_float(old)) {
    int assumed = old;
    old = atomicCAS(word, assumed, __float_as_int(val));
    if (old == assumed) break; // our value went in
  }
  return __int_as_float(old);
}
#endif

// int add as a CAS loop: what atomicAdd would cost if the hardware did not have it (as double atomicAdd was
// built before sm_60). Every thread must succeed once, so under contention each retries many times.
__device__ int atomic_add_int_cas(int *addr, int val) {
  int old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, (int)((unsigned int)assumed + (unsigned int)val)); // wraps mod 2^32, as atomicAdd
  } while (old != assumed);
  return old;
}

// Bytes: atomicCAS works on 32-bit words (and 16-bit on sm_70+, 64-bit). Find the word that holds the byte,
// and its place in the word (little-endian: byte k is bits 8k..8k+7); change only that byte and CAS the whole
// word. The three other bytes of the word may be changed by other threads at the same time: then the CAS fails
// and we retry, and their updates are kept because we always start from the word as it really is.
__device__ unsigned char atomic_add_byte_cas(unsigned char *addr, unsigned char val) {
  unsigned int *word = (unsigned int *)((uintptr_t)addr & ~(uintptr_t)3);
  unsigned int shift = 8u * (unsigned int)((uintptr_t)addr & 3);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    unsigned int byte = ((assumed >> shift) + val) & 0xffu; // the sum mod 256, as an 8-bit add would give
    old = atomicCAS(word, assumed, (assumed & ~(0xffu << shift)) | (byte << shift));
  } while (old != assumed);
  return (unsigned char)(old >> shift);
}

__device__ unsigned char atomic_max_byte_cas(unsigned char *addr, unsigned char val) {
  unsigned int *word = (unsigned int *)((uintptr_t)addr & ~(uintptr_t)3);
  unsigned int shift = 8u * (unsigned int)((uintptr_t)addr & 3);
  unsigned int old = *word;
  while (val > ((old >> shift) & 0xffu)) { // as the float max: stop once the byte is at least val
    unsigned int assumed = old;
    old = atomicCAS(word, assumed, (assumed & ~(0xffu << shift)) | ((unsigned int)val << shift));
    if (old == assumed) break;
  }
  return (unsigned char)(old >> shift);
}

#endif /* ATOMICS_CUH */
