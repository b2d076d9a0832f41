/*
 * exercises/strided_layout.cuh -- practical 2, step 3, to write: where version 2 keeps a path's normals.
 * (The finished function is in ../prac2.cu, which includes this file in its place when built with
 * -DEXERCISE; -version=2 is then the default.)
 *
 * Fill in the place marked TODO(step 3), then `make exercises/prac2 && ./exercises/prac2 -npath=960000`.
 * Until it is right the program ends RESULT: FAIL (exercise not done: ...): the gold reads each path's
 * normals from where version 2 puts them and recomputes its payoff, and the paths that read the wrong
 * numbers disagree. Before you time it, predict how much slower than -version=1 it will be (handout step 3),
 * then compare the kernel times (step 4).
 */

// pathcalc reads path tid's normals at z[ind], z[ind + inc], z[ind + 2 inc], ... (2N of them)
__device__ void strided_layout(int tid, size_t *ind, size_t *inc) {
  // TODO(step 3): version 2 keeps each path's 2N normals side by side, one path after another (the
  // handout's step 3 table), so each thread walks a block of its own. Where does path tid's block start,
  // and how far is one of its normals from the next? (N, the time steps, is a __constant__; 2N * NPATH
  // can pass 2^31, so form positions in size_t.)
  (void)tid;
  *ind = 0;
  *inc = 0;
}
