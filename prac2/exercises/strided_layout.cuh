/*
 * exercises/strided_layout.cuh -- practical 2, step 3, to write: where version 2 keeps a path's normals.
 * (The finished function is in ../prac2.cu, which includes this file in its place when built with
 * -DEXERCISE; -version=2 is then the default.)
 *
 * Fill in the place marked TODO(step 3), then `make exercises/prac2 && ./exercises/prac2 -npath=960000`.
 * Until it is right the program ends RESULT: FAIL (exercise not done: ...): the gold reads each path's
 * normals from where version 2 puts them and recomputes its payoff, and the paths that read the wrong
 * numbers disagree. Then compare the kernel time with -version=1 (handout step 4).
 */

// pathcalc reads path tid's normals at z[ind], z[ind + inc], z[ind + 2 inc], ... (2N of them)
__device__ void strided_layout(int tid, size_t *ind, size_t *inc) {
  // TODO(step 3): strided: normal j of path tid is z[tid*2N + j] (N, the time steps, is a __constant__),
  // so that each thread walks its own contiguous block of 2N floats. Set *ind to where path tid's first
  // normal is (a size_t product: 2N * npath can pass 2^31) and *inc to the distance from one normal to
  // its next.
  (void)tid;
  *ind = 0;
  *inc = 0;
}
