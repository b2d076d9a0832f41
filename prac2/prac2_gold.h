/*
 * prac2_gold.h -- the CPU gold routines of practical 2.
 * Declared once here, included by the programs (.cu, compiled as C++), by the _gold.c files that define
 * them (so that a changed signature fails to compile) and by the tests.
 */
#ifndef PRAC2_GOLD_H
#define PRAC2_GOLD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* prac2_gold.c: the path model (pathcalc_gold, payoff_compare) and the independent CPU Monte Carlo */
void pathcalc_gold(const float *z, size_t npath, int N, size_t path_stride, size_t num_stride, double T, double r,
                   double sigma, double rho, double *payoff, unsigned char *edge);
double pathcalc_edge_width(int N);
size_t payoff_compare(const float *gpu, const double *gold, const unsigned char *edge, size_t n, double disc,
                      size_t *nflip, long long *first_bad);
void mean_and_error(const float *v, size_t n, double *avg, double *err);
uint64_t mc_splitmix64(uint64_t seed, uint64_t k);
void mc_normal_pair(uint64_t seed, uint64_t k, double *z1, double *z2);
void mc_cpu_estimate(long long npath, int N, double T, double r, double sigma, double rho, uint64_t seed,
                     double *avg, double *err);
double mc_zscore(double a, double err_a, double b, double err_b);

/* prac2_quad_gold.c: the sums of a*z^2 + b*z + c */
float quad_term(float z, float a, float b, float c);
void quad_gold(const float *z, size_t n, float a, float b, float c, double *sum, double *sum_abs);
void quad_gold_partials(const float *z, size_t n, size_t nthreads, float a, float b, float c, double *part,
                        double *part_abs);
void quad_gold_float_partials(const float *z, size_t n, size_t nthreads, float a, float b, float c, float *part);
double quad_tolerance(size_t chain, size_t n, double sum_abs);

#ifdef __cplusplus
}
#endif

#endif /* PRAC2_GOLD_H */
