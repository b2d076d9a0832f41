/*
 * trid_gold.c -- CPU gold for practical 7: the Thomas algorithm in double, the course's heat-equation
 * time-march, the residual of a batch, and CPU models of PCR and of the hybrid Thomas-PCR solver.
 * Compiled by gcc as C; with -fopenmp the systems of a batch are shared among the cores, which changes
 * nothing in the result (each system is solved by the same code).
 */
#include <math.h>
#include <stdlib.h>

#include "prac7_gold.h"

/*
 * Thomas: forward elimination makes row i read x[i] + w[i] x[i+1] = y[i] (w[i] = c[i] / pivot), back
 * substitution then gives x[n-1], x[n-2], ... No pivoting: safe for diagonally dominant rows, where every
 * pivot b[i] - a[i] w[i-1] stays at least as large as the dominance margin.
 */
void Gold_thomas(int n, const double *a, const double *b, const double *c, const double *d, double *x, double *w) {
  double *own = NULL;
  if (n <= 0) return;
  if (w == NULL) w = own = (double *)malloc((size_t)n * sizeof(double));
  double piv = b[0];
  w[0] = (n > 1 ? c[0] : 0.0) / piv;
  x[0] = d[0] / piv;
  for (int i = 1; i < n; i++) {
    piv = b[i] - a[i] * w[i - 1];
    w[i] = (i < n - 1 ? c[i] : 0.0) / piv;
    x[i] = (d[i] - a[i] * x[i - 1]) / piv;
  }
  for (int i = n - 2; i >= 0; i--) x[i] -= w[i] * x[i + 1];
  free(own);
}

void Gold_trid(int NX, int niter, double lambda, const float *u0, double *u) {
  double *a = (double *)malloc(5 * (size_t)NX * sizeof(double));
  double *b = a + NX, *c = b + NX, *d = c + NX, *w = d + NX;
  for (int i = 0; i < NX; i++) {
    a[i] = -1.0;
    b[i] = 2.0 + lambda;
    c[i] = -1.0;
    u[i] = u0[i];
  }
  for (int it = 0; it < niter; it++) {
    for (int i = 0; i < NX; i++) d[i] = lambda * u[i];
    Gold_thomas(NX, a, b, c, d, u, w);
  }
  free(a);
}

void Gold_thomas_batch(int n, int batch, const float *a, const float *b, const float *c, const float *d, double *x) {
#ifdef _OPENMP
#pragma omp parallel
#endif
  {
    double *buf = (double *)malloc(5 * (size_t)n * sizeof(double));
    double *da = buf, *db = da + n, *dc = db + n, *dd = dc + n, *w = dd + n;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (int s = 0; s < batch; s++) {
      size_t base = (size_t)s * n;
      for (int i = 0; i < n; i++) {
        da[i] = a[base + i];
        db[i] = b[base + i];
        dc[i] = c[base + i];
        dd[i] = d[base + i];
      }
      Gold_thomas(n, da, db, dc, dd, x + base, w);
    }
    free(buf);
  }
}

double Gold_residual_batch(int n, int batch, const float *a, const float *b, const float *c, const float *d,
                           const float *x) {
  double rmax = 0.0, dmax = 0.0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(max : rmax, dmax)
#endif
  for (int s = 0; s < batch; s++) {
    size_t base = (size_t)s * n;
    for (int i = 0; i < n; i++) {
      size_t k = base + i;
      double r = (double)b[k] * x[k] - d[k];
      if (i > 0) r += (double)a[k] * x[k - 1];
      if (i < n - 1) r += (double)c[k] * x[k + 1];
      if (!(fabs(r) <= rmax)) rmax = isnan(r) ? INFINITY : fabs(r); /* a NaN makes the residual infinite */
      if (fabs((double)d[k]) > dmax) dmax = fabs((double)d[k]);
    }
  }
  return dmax > 0.0 ? rmax / dmax : rmax;
}

/* One PCR step at stride s on normalised rows, from the old rows (kept in oa, oc, od). */
static void pcr_step(int n, int s, double *a, double *c, double *d, double *oa, double *oc, double *od) {
  for (int i = 0; i < n; i++) {
    oa[i] = a[i];
    oc[i] = c[i];
    od[i] = d[i];
  }
  for (int i = 0; i < n; i++) {
    double am = 0.0, cm = 0.0, dm = 0.0, ap = 0.0, cp = 0.0, dp = 0.0; /* identity rows outside */
    if (i - s >= 0) {
      am = oa[i - s];
      cm = oc[i - s];
      dm = od[i - s];
    }
    if (i + s < n) {
      ap = oa[i + s];
      cp = oc[i + s];
      dp = od[i + s];
    }
    /* row i - a[i] * row(i-s) - c[i] * row(i+s): x[i-s] and x[i+s] cancel, x[i-2s] and x[i+2s] appear */
    double r = 1.0 / (1.0 - oa[i] * cm - oc[i] * ap);
    a[i] = -r * oa[i] * am;
    c[i] = -r * oc[i] * cp;
    d[i] = r * (od[i] - oa[i] * dm - oc[i] * dp);
  }
}

int Model_pcr(int n, double *a, double *c, double *d) {
  double *old = (double *)malloc(3 * (size_t)(n > 0 ? n : 1) * sizeof(double));
  int steps = 0;
  for (int s = 1; s < n; s *= 2, steps++) pcr_step(n, s, a, c, d, old, old + n, old + 2 * n);
  free(old);
  return steps;
}

void hybrid_chunk(int n, int lanes, int t, int *start, int *len) {
  int q = n / lanes, rem = n % lanes;
  *start = t * q + (t < rem ? t : rem);
  *len = q + (t < rem ? 1 : 0);
}

void Model_hybrid(int n, int lanes, const double *a, const double *b, const double *c, const double *d, double *x) {
  int m = 2 * lanes; /* the reduced system: two rows per lane */
  double *ra = (double *)calloc(3 * (size_t)(m > n ? m : n) + 3 * (size_t)n, sizeof(double));
  double *rc = ra + (m > n ? m : n), *rd = rc + (m > n ? m : n);
  double *ca = rd + (m > n ? m : n), *cc = ca + n, *cd = cc + n; /* the chunks' modified rows */
  if (n < m) { /* short system: every row normalised and solved by PCR directly */
    for (int i = 0; i < n; i++) {
      ra[i] = i > 0 ? a[i] / b[i] : 0.0;
      rc[i] = i < n - 1 ? c[i] / b[i] : 0.0;
      rd[i] = d[i] / b[i];
    }
    Model_pcr(n, ra, rc, rd);
    for (int i = 0; i < n; i++) x[i] = rd[i];
    free(ra);
    return;
  }
  for (int t = 0; t < lanes; t++) { /* each lane: modified Thomas on its chunk (len >= 2) */
    int s0, L;
    hybrid_chunk(n, lanes, t, &s0, &L);
    double *A = ca + s0, *C = cc + s0, *D = cd + s0;
    for (int k = 0; k < L; k++) {
      int i = s0 + k;
      A[k] = i > 0 ? a[i] : 0.0;
      C[k] = i < n - 1 ? c[i] : 0.0;
      D[k] = d[i];
    }
    /* forward: rows 0 and 1 normalised; row k >= 2 made to read A[k] x0 + x[k] + C[k] x[k+1] = D[k] */
    for (int k = 0; k < L; k++) {
      if (k < 2) {
        double r = 1.0 / b[s0 + k];
        A[k] *= r;
        C[k] *= r;
        D[k] *= r;
      } else {
        double r = 1.0 / (b[s0 + k] - A[k] * C[k - 1]);
        D[k] = r * (D[k] - A[k] * D[k - 1]);
        A[k] = -r * A[k] * A[k - 1];
        C[k] = r * C[k];
      }
    }
    /* backward: row k (1 <= k <= L-3) made to read A[k] x0 + x[k] + C[k] x[L-1] = D[k] */
    for (int k = L - 3; k >= 1; k--) {
      D[k] -= C[k] * D[k + 1];
      A[k] -= C[k] * A[k + 1];
      C[k] = -C[k] * C[k + 1];
    }
    /* the two reduced rows: first (x0 with x[-1] of the lane before and x[L-1]), last (x[L-1] with x0 and
     * the next lane's x0) */
    if (L >= 3) {
      double r = 1.0 / (1.0 - C[0] * A[1]);
      ra[2 * t] = r * A[0];
      rd[2 * t] = r * (D[0] - C[0] * D[1]);
      rc[2 * t] = -r * C[0] * C[1];
    } else {
      ra[2 * t] = A[0];
      rc[2 * t] = C[0];
      rd[2 * t] = D[0];
    }
    ra[2 * t + 1] = A[L - 1];
    rc[2 * t + 1] = C[L - 1];
    rd[2 * t + 1] = D[L - 1];
  }
  Model_pcr(m, ra, rc, rd);
  for (int t = 0; t < lanes; t++) { /* back-substitution inside each chunk */
    int s0, L;
    hybrid_chunk(n, lanes, t, &s0, &L);
    double x0 = rd[2 * t], xl = rd[2 * t + 1];
    x[s0] = x0;
    x[s0 + L - 1] = xl;
    for (int k = 1; k < L - 1; k++) x[s0 + k] = cd[s0 + k] - ca[s0 + k] * x0 - cc[s0 + k] * xl;
  }
  free(ra);
}
