/*
 * prac5_gold.c -- the CPU gold routines of practical 5, in double (declared in prac5_gold.h).
 */
#include <math.h>
#include <stdlib.h>

#include "prac5_gold.h"
#include "rng.h"

double gamma_k(double k, double u) { return k * u / (1.0 - k * u); }

void gemm_gold(int rows, int inner, int cols, double alpha, const float *A, const float *B, double beta,
               const float *C0, const int *which, int nwhich, double *C, double *absC) {
  if (which == NULL) nwhich = rows;
#pragma omp parallel
  {
    // one row of C at a time per thread, in i-k-j order: the inner loop runs along rows of B and C
    double *sum = (double *)malloc(2 * (size_t)cols * sizeof(double));
    double *asum = sum + cols;
#pragma omp for schedule(dynamic, 1)
    for (int r = 0; r < nwhich; r++) {
      int i = which ? which[r] : r;
      for (int j = 0; j < cols; j++) sum[j] = asum[j] = 0.0;
      for (int k = 0; k < inner; k++) {
        double a = A[(size_t)i * inner + k];
        const float *b = B + (size_t)k * cols;
        for (int j = 0; j < cols; j++) {
          sum[j] += a * b[j];
          asum[j] += fabs(a * b[j]);
        }
      }
      double *c = C + (size_t)r * cols;
      for (int j = 0; j < cols; j++) {
        double c0 = beta != 0.0 ? C0[(size_t)i * cols + j] : 0.0;
        c[j] = alpha * sum[j] + beta * c0;
        if (absC) absC[(size_t)r * cols + j] = fabs(alpha) * asum[j] + fabs(beta) * fabs(c0);
      }
    }
    free(sum);
  }
}

int gemm_sample_rows(int rows, int inner, int cols, double max_work, int *which) {
  double work = (double)rows * inner * cols;
  int n = rows;
  if (work > max_work) {
    n = (int)(max_work / ((double)inner * cols));
    if (n < 2) n = 2;
    if (n > rows) n = rows;
  }
  for (int r = 0; r < n; r++) which[r] = n == 1 ? 0 : (int)((long long)r * (rows - 1) / (n - 1));
  return n;
}

void conv_full_gold(const float *x, int nx, const float *h, int nh, double *y) {
  int ny = nx + nh - 1;
  for (int i = 0; i < ny; i++) y[i] = 0.0;
  for (int j = 0; j < nx; j++)
    for (int k = 0; k < nh; k++) y[j + k] += (double)x[j] * (double)h[k];
}

void conv_valid_gold(const float *x, int nx, const float *k, int nk, double *y, double *ay) {
  int ny = nx - nk + 1;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ny; i++) {
    double s = 0.0, a = 0.0;
    for (int j = 0; j < nk; j++) {
      double t = (double)x[i + j] * (double)k[j];
      s += t;
      a += fabs(t);
    }
    y[i] = s;
    if (ay) ay[i] = a;
  }
}

void transpose_gold(const float *in, int rows, int cols, float *out) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) out[(size_t)j * rows + i] = in[(size_t)i * cols + j];
}

long long fft_good_size(long long want) {
  for (long long n = want > 1 ? want : 1;; n++) {
    long long m = n;
    const int primes[4] = {2, 3, 5, 7};
    for (int p = 0; p < 4; p++)
      while (m % primes[p] == 0) m /= primes[p];
    if (m == 1) return n;
  }
}

/*
 * The error of a convolution through FFTs of length p. A radix-2 FFT computed in float has a normwise
 * relative error of at most about log2(p) * eta, eta = mu + gamma_4 (sqrt 2 + mu) ~ u + 4u x 1.414 ~ 6.7u
 * with accurate twiddle factors (mu ~ u; Higham, 2nd ed., Theorem 24.2); mixed radices 3, 5, 7 behave alike.
 * Through the three transforms (x, h forward; the product back, with its 1/p), with ||X||_2 = sqrt(p) ||x||_2
 * and |H_k| <= ||h||_1, the error of y is bounded by about 3 log2(p) eta (||x||_2 ||h||_1 + ||x||_1 ||h||_2)
 * plus the product's own rounding, u ||x||_2 ||h||_1. That worst case is c = 3 x 6.7 ~ 20; the code uses
 * c = 16, under it: an empirical margin, not the worst case (errors of random sign add like a random walk,
 * and the measured error is about 300 times under this tolerance at the course's size, docs/prac5.md step 3).
 * log2(p) is at least 1 so that tiny p still has a bound.
 */
double fft_conv_bound(const float *x, int nx, const float *h, int nh, long long p) {
  double x1 = 0, x2 = 0, h1 = 0, h2 = 0;
  for (int i = 0; i < nx; i++) {
    x1 += fabs(x[i]);
    x2 += (double)x[i] * x[i];
  }
  for (int i = 0; i < nh; i++) {
    h1 += fabs(h[i]);
    h2 += (double)h[i] * h[i];
  }
  double lg = log2((double)p);
  if (lg < 1.0) lg = 1.0;
  return 16.0 * U_FP32 * lg * (sqrt(x2) * h1 + x1 * sqrt(h2)) + U_FP32 * sqrt(x2) * h1;
}

double norm2_double(const double *y, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; i++) s += y[i] * y[i];
  return sqrt(s);
}

double diff_norm2(const float *a, const double *b, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; i++) {
    double d = (double)a[i] - b[i];
    s += d * d;
  }
  return sqrt(s);
}

void fill_uniform(float *a, size_t n, unsigned int seed, float lo, float hi) {
  unsigned int state = lcg_seed(seed);
  for (size_t i = 0; i < n; i++) a[i] = lcg_uniform_in(&state, lo, hi);
}
