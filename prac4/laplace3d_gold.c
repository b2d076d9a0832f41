/*
 * laplace3d_gold.c -- CPU gold for practical 4, step 7: one Jacobi sweep of the 3-D Laplace equation
 * (a copy of prac3/laplace3d_gold.c, so that prac4 builds on its own).
 * Compiled by gcc as C; with -fopenmp (the course's optional step) the planes k are shared among the
 * cores, which changes nothing in the result: each point is computed by the same expression.
 */
#include <stddef.h>

#include "prac4_gold.h"

/*
 * u2 = one Jacobi sweep of u1 on an NX x NY x NZ grid stored with i fastest, then j, then k.
 * Boundary points (Dirichlet conditions) are copied; each interior point becomes the average of its six
 * neighbours, added in the order i-1, i+1, j-1, j+1, k-1, k+1 and then multiplied by 1/6. The GPU
 * kernels use the same order, so the two agree bit for bit (rms error = 0).
 */
void Gold_laplace3d(int NX, int NY, int NZ, const float *u1, float *u2) {
  const float sixth = 1.0f / 6.0f;
  const size_t JOFF = (size_t)NX, KOFF = (size_t)NX * (size_t)NY;

#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (int k = 0; k < NZ; k++) {
    for (int j = 0; j < NY; j++) {
      for (int i = 0; i < NX; i++) { // i innermost: consecutive addresses, as on the GPU
        size_t ind = (size_t)i + (size_t)j * JOFF + (size_t)k * KOFF;
        if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1) {
          u2[ind] = u1[ind];
        } else {
          u2[ind] = (u1[ind - 1] + u1[ind + 1] + u1[ind - JOFF] + u1[ind + JOFF] + u1[ind - KOFF] + u1[ind + KOFF]) *
                    sixth;
        }
      }
    }
  }
}
