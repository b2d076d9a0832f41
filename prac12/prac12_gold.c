/*
 * prac12_gold.c -- practical 12's gold (prac12_gold.h): the course's inputs, and do_work's steps on the CPU; and the
 * host's available memory, read before the big runs allocate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "prac12_gold.h"

void prac12_inputs(double *x, size_t n, double sign) {
  // the course's: srand(0), then rand() in order (one sequence, so one thread)
  srand(0);
  for (size_t i = 0; i < n; i++) x[i] = sign * ((double)rand() / (double)RAND_MAX);
}

void prac12_gold(double *x, size_t n, int iters) {
  // each value on its own, as a thread does it on the GPU: the same steps in the same order, in double
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (long long i = 0; i < (long long)n; i++) {
    double v = x[i];
    for (int j = 0; j < iters; j++) {
      v = cos(v);
      v = sqrt(fabs(v));
    }
    x[i] = v;
  }
}

int prac12_gold_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

long long prac12_meminfo_available(const char *text) {
  // a line "MemAvailable:   12345678 kB", at the text's start or after a newline
  const char *p = text;
  while (p != NULL) {
    long long kb;
    if (strncmp(p, "MemAvailable:", 13) == 0 && sscanf(p + 13, "%lld kB", &kb) == 1 && kb >= 0) return kb * 1024;
    p = strchr(p, '\n');
    if (p != NULL) p++;
  }
  return -1;
}

int prac12_host_memory_ok(size_t bytes, const char *what, const char *path, char *msg, size_t len) {
  char text[16384];
  FILE *f = fopen(path, "r");
  if (f == NULL) return 1; // no /proc: the allocations will say
  size_t got = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  text[got] = '\0';
  long long avail = prac12_meminfo_available(text);
  if (avail < 0 || (unsigned long long)avail >= bytes) return 1;
  snprintf(msg, len, "host memory for %s: %.2f GiB needed, %.2f GiB available (MemAvailable in %s)", what,
           (double)bytes / (1 << 30), (double)avail / (1 << 30), path);
  return 0;
}
