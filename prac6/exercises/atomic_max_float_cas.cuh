/*
 * exercises/atomic_max_float_cas.cuh -- practical 6, step 5, to write: the float atomicMax as an atomicCAS
 * loop. (The finished function is in ../atomics.cuh, which includes this file in its place when built with
 * -DEXERCISE.)
 *
 * Fill in atomic_max_float_cas (TODO(step 5)); then `make exercises/atomics && ./exercises/atomics`. Until it is
 * right the "float max, atomicCAS loop" targets keep their starting -inf, and the program ends RESULT: FAIL
 * (exercise not done: ...). Once it passes, -bench times it against the native atomics.
 */

// The CAS loop: read, compute, and try to swap in the new value; if another thread changed the word in
// between, atomicCAS returns its value and we try again with that. A value that is not larger stops at once,
// without writing: under contention most threads leave without a single atomic.
__device__ float atomic_max_float_cas(float *addr, float val) {
  // TODO(step 5): afterwards *addr holds the larger of itself and val, whatever other threads do meanwhile,
  // written only by atomicCAS on the word's bits (__float_as_int / __int_as_float); return the value you last
  // found there. The trap: atomicCAS returns what it found at addr. Keep that as your new `old`: a loop that
  // never refreshes `old` retries a stale value forever: press Ctrl-C (on a display GPU the watchdog resets it).
  (void)val; // delete this line when val is used
  return *addr;
}
