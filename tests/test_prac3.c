/*
 * test_prac3.c -- CPU tests of practical 3's gold routine, Gold_laplace3d (../prac3/laplace3d_gold.c).
 *
 * The GPU programs are judged against Gold_laplace3d bit for bit, so it must be right on its own:
 * discrete harmonic fields stay put, the boundary never moves, and small sweeps match hand arithmetic.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../prac3/prac3_gold.h"

#ifdef _OPENMP
#include <omp.h>
#endif


#define IDX(i, j, k) ((size_t)(i) + (size_t)(j) * NX + (size_t)(k) * NX * NY)

static int on_boundary(int i, int j, int k, int NX, int NY, int NZ) {
  return i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1;
}

static float *grid_alloc(int NX, int NY, int NZ) { return (float *)malloc((size_t)NX * NY * NZ * sizeof(float)); }

static unsigned int lcg_state = 12345u;
static float lcg_uniform(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return (float)(lcg_state >> 8) * (1.0f / 16777216.0f);
}

/* A field whose six neighbours sum to exactly six times its value must come back unchanged: the sum of
 * small integers is exact in float, and 6u * (1/6 rounded to float) rounds back to u. */
static int fixed_point(int NX, int NY, int NZ, float (*f)(int, int, int)) {
  float *u1 = grid_alloc(NX, NY, NZ), *u2 = grid_alloc(NX, NY, NZ);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[IDX(i, j, k)] = f(i, j, k);
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  int same = memcmp(u1, u2, (size_t)NX * NY * NZ * sizeof(float)) == 0;
  free(u1);
  free(u2);
  return same;
}

static float linear(int i, int j, int k) { return (float)(3 * i - 2 * j + 5 * k + 7); }
static float saddle(int i, int j, int k) { return (float)(i * i - j * j + 2 * i * k); } /* harmonic too */
static float not_harmonic(int i, int j, int k) { return (float)(i * i + j * j + k * k); }

TEST(linear_field_is_a_fixed_point) {
  CHECK(fixed_point(9, 7, 5, linear));
  CHECK(fixed_point(3, 3, 3, linear));
  CHECK(fixed_point(33, 17, 12, linear));
}

TEST(quadratic_harmonic_field_is_a_fixed_point) { CHECK(fixed_point(11, 8, 6, saddle)); }

TEST(non_harmonic_field_moves) {
  /* i^2 + j^2 + k^2: its neighbours average to u + 1, so every interior point grows by exactly 1 */
  int NX = 6, NY = 5, NZ = 4;
  float *u1 = grid_alloc(NX, NY, NZ), *u2 = grid_alloc(NX, NY, NZ);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[IDX(i, j, k)] = not_harmonic(i, j, k);
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  CHECK(!fixed_point(NX, NY, NZ, not_harmonic));
  for (int k = 1; k < NZ - 1; k++)
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++) CHECK_NEAR(u2[IDX(i, j, k)], u1[IDX(i, j, k)] + 1.0, 1e-5);
  free(u1);
  free(u2);
}

TEST(boundary_never_changes) {
  /* random values everywhere, 5 sweeps: every boundary value is still bit-for-bit what it was */
  int NX = 13, NY = 10, NZ = 7, bad = 0;
  size_t n = (size_t)NX * NY * NZ;
  float *u0 = grid_alloc(NX, NY, NZ), *u1 = grid_alloc(NX, NY, NZ), *u2 = grid_alloc(NX, NY, NZ);
  for (size_t p = 0; p < n; p++) u0[p] = u1[p] = lcg_uniform();
  for (int it = 0; it < 5; it++) {
    Gold_laplace3d(NX, NY, NZ, u1, u2);
    float *t = u1;
    u1 = u2;
    u2 = t;
  }
  int interior_moved = 0;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        size_t p = IDX(i, j, k);
        if (on_boundary(i, j, k, NX, NY, NZ))
          bad += memcmp(&u0[p], &u1[p], sizeof(float)) != 0;
        else
          interior_moved += u0[p] != u1[p];
      }
  CHECK(bad == 0);
  CHECK(interior_moved > 0);
  free(u0);
  free(u1);
  free(u2);
}

TEST(hand_computed_4x4x4_course_setup) {
  /* the course's start: 1 on the boundary, 0 inside. In a 4^3 grid each of the 8 interior points has
   * 3 boundary neighbours and 3 interior ones: after one sweep 3/6 = 0.5, after two (3 + 1.5)/6 = 0.75 */
  int NX = 4, NY = 4, NZ = 4;
  float u1[64], u2[64], u3[64];
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[IDX(i, j, k)] = on_boundary(i, j, k, NX, NY, NZ) ? 1.0f : 0.0f;
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  Gold_laplace3d(NX, NY, NZ, u2, u3);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        int b = on_boundary(i, j, k, NX, NY, NZ);
        CHECK(u2[IDX(i, j, k)] == (b ? 1.0f : 0.5f));
        CHECK(u3[IDX(i, j, k)] == (b ? 1.0f : 0.75f));
      }
}

TEST(hand_computed_4x4x4_single_spike) {
  /* all 0 except u(1,1,1) = 6: afterwards its three interior neighbours are 6/6 = 1, it is 0 (its own
   * neighbours were all 0), and everything else, the boundary included, stays 0 */
  int NX = 4, NY = 4, NZ = 4;
  float u1[64] = {0}, u2[64];
  u1[IDX(1, 1, 1)] = 6.0f;
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        int one = (i == 2 && j == 1 && k == 1) || (i == 1 && j == 2 && k == 1) || (i == 1 && j == 1 && k == 2);
        CHECK(u2[IDX(i, j, k)] == (one ? 1.0f : 0.0f));
      }
}

TEST(order_of_additions_is_the_documented_one) {
  /* values whose float sum depends on the order: (i-1, i+1, j-1, j+1, k-1, k+1) from left to right */
  int NX = 3, NY = 3, NZ = 3;
  float u1[27] = {0}, u2[27];
  float w = 1e8f, e = 1.0f, s = -1e8f, n = 1.0f, b = 3.0f, a = 0.5f;
  u1[IDX(0, 1, 1)] = w;
  u1[IDX(2, 1, 1)] = e;
  u1[IDX(1, 0, 1)] = s;
  u1[IDX(1, 2, 1)] = n;
  u1[IDX(1, 1, 0)] = b;
  u1[IDX(1, 1, 2)] = a;
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  /* left to right: 1e8 + 1 rounds to 1e8 (the 1 is lost), - 1e8 = 0, then 1 + 3 + 0.5 = 4.5; adding
   * j-1 first (1e8 - 1e8 = 0) would keep the 1 and give 5.5 */
  CHECK(u2[IDX(1, 1, 1)] == 4.5f * (1.0f / 6.0f));
  CHECK(u2[IDX(1, 1, 1)] != 5.5f * (1.0f / 6.0f));
}

TEST(threads_do_not_change_the_result) {
#ifdef _OPENMP
  int NX = 40, NY = 30, NZ = 50;
  size_t n = (size_t)NX * NY * NZ;
  float *u1 = grid_alloc(NX, NY, NZ), *a = grid_alloc(NX, NY, NZ), *b = grid_alloc(NX, NY, NZ);
  for (size_t p = 0; p < n; p++) u1[p] = lcg_uniform();
  int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  Gold_laplace3d(NX, NY, NZ, u1, a);
  omp_set_num_threads(saved > 1 ? saved : 4);
  Gold_laplace3d(NX, NY, NZ, u1, b);
  omp_set_num_threads(saved);
  CHECK(memcmp(a, b, n * sizeof(float)) == 0);
  free(u1);
  free(a);
  free(b);
#endif
}

int main(void) {
  RUN(linear_field_is_a_fixed_point);
  RUN(quadratic_harmonic_field_is_a_fixed_point);
  RUN(non_harmonic_field_moves);
  RUN(boundary_never_changes);
  RUN(hand_computed_4x4x4_course_setup);
  RUN(hand_computed_4x4x4_single_spike);
  RUN(order_of_additions_is_the_documented_one);
  RUN(threads_do_not_change_the_result);
  return test_summary();
}
