/*
 * prac3_gold.h -- the CPU gold routine of practical 3.
 * Declared once here, included by the programs (.cu, compiled as C++), by the _gold.c files that define
 * them (so that a changed signature fails to compile) and by the tests.
 */
#ifndef PRAC3_GOLD_H
#define PRAC3_GOLD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* laplace3d_gold.c: one Jacobi sweep, u2 from u1, on an NX x NY x NZ grid (i fastest) */
void Gold_laplace3d(int NX, int NY, int NZ, const float *u1, float *u2);

#ifdef __cplusplus
}
#endif

#endif /* PRAC3_GOLD_H */
