/*
 * exercises/affine_then.cuh -- the starting file of practical 8, step 6: "then", the operation the recurrence's
 * scan is made of, cut out of ../scans/affine.cuh. `make exercises/recurrence` builds the program from
 * recurrence.cu with this file in place of the finished function. The pair (s, u) is the map x -> s x + u.
 * "a then b" is the map that does a first, then b: work out x -> s_b (s_a x + u_a) + u_b and read off its s and
 * u. Until it is right, v[n] is wrong from n = 1 on and the run ends RESULT: FAIL (exercise not done: ...);
 * run ./exercises/recurrence -n=1000003 until it passes. Then ask why the scan must call then(t, a), with the
 * earlier lane's pair first (scans/affine.cuh, warp_inclusive_scan), and what then(a, t) would compute.
 */
__device__ __forceinline__ affine then(affine a, affine b) { // a first, then b
  // TODO(step 6): the pair of "a, then b": read its slope and offset off x -> b.s (a.s x + a.u) + b.u
  // (fmaf(x, y, z) computes x y + z with one rounding)
  (void)a;
  return b; // as if a did nothing: wrong wherever a is not the identity (1, 0)
}
