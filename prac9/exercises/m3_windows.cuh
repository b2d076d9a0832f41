/*
 * exercises/m3_windows.cuh -- practical 9, step 2 (kernel 3), to write: the 16 windows of 4 bytes of a
 * 16-byte vector, made in registers. (matchers/m3_funnel.cuh calls it; the finished version is windows16 in
 * matchers/match_plan.cuh.) Vector v of the text is the ints a.x, a.y, a.z, a.w (bytes 16v..16v+15, byte
 * 4i + k in bits 8k..8k+7 of int i); e is the int after them. win[k] must be the 4 bytes at byte 16v + k.
 * Until the TODO is written every window is 0: `make exercises/match_ladder && ./exercises/match_ladder
 * -kernel=3` FAILs (exercise not done). Then try -gen=4097, -nwords=64 -file=match_ladder (zero bytes).
 */
__device__ __forceinline__ void funnel_windows(uint4 a, unsigned e, unsigned win[16]) {
  // TODO(step 2): a window is the 4 bytes that start at one byte of the text, read as one int (step 1b's byte
  // order). A window that starts inside an int takes bytes from that int and the int after it. The ints in
  // order are a.x, a.y, a.z, a.w, e. __funnelshift_r(lo, hi, s) joins two ints into one 64-bit value, hi the
  // upper half, shifts it right by s mod 32 bits and returns the low 32 bits, in one instruction.
  (void)a, (void)e;
  for (int k = 0; k < 16; k++) win[k] = 0u;
}
