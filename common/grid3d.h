/*
 * grid3d.h -- the 3-D grids of prac3 (and prac4's step 7): the course's starting values. Plain C.
 *
 *   grid3d_init(h_u1, NX, NY, NZ, seed);   1 on the boundary; inside 0 (seed 0, the course) or random in [0, 1)
 *
 * Stored with i fastest, then j, then k: point (i, j, k) is u[i + j*NX + k*NX*NY].
 */
#ifndef GRID3D_H
#define GRID3D_H

#include <stddef.h>

#include "rng.h" /* lcg_uniform */

static inline void grid3d_init(float *u, int NX, int NY, int NZ, unsigned int seed) {
  unsigned int state = seed;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        size_t ind = (size_t)i + (size_t)j * NX + (size_t)k * NX * NY;
        if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1)
          u[ind] = 1.0f; // Dirichlet boundary
        else
          u[ind] = seed ? lcg_uniform(&state) : 0.0f;
      }
}

#endif /* GRID3D_H */
