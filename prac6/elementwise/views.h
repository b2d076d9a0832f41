/*
 * elementwise/views.h -- step 8's operands: the output's shape and each input's view of its memory, from the
 * command line. Plain C (tests/test_prac6.c includes it). A view is an element stride for each dimension of
 * the output (0: broadcast along it) from a first element `offset` elements into its allocation; the output
 * is contiguous. Indexes are checked here to fit the kernels' 32-bit offsets.
 *   contig          contiguous, of the output's shape
 *   scalar          one element, broadcast everywhere (every stride 0)
 *   shape:E,...     NumPy broadcasting: a contiguous array of that shape, aligned on the right, each extent
 *                   the output's or 1 (shape:256,1,1 is [C,1,1] over NCHW; shape:64 is [1,1,1,C] over NHWC)
 *   strides:S,...   one element stride for each dimension of the output
 *   transposed      (4 dims) the NCHW output's elements read from an NHWC tensor: strides HWC, 1, WC, C
 *   step:K          x[..., ::K] of a contiguous x whose innermost extent is K times the output's
 */
#ifndef ELTWISE_VIEWS_H
#define ELTWISE_VIEWS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../prac6_gold.h"

#define ELT_INDEX_MAX 2147483647LL /* offsets and element counts: 32-bit in the kernels (fastdiv.h) */

typedef struct {
  int rank;                                /* 1 to 4 dimensions, outer to inner */
  long long extent[ELT_MAX_DIMS];
  long long stride[3][ELT_MAX_DIMS];       /* element strides: [0] the output (contiguous), [1] a, [2] b */
  long long span[3];                       /* elements each view reaches from its first: 1 + sum (E - 1) S */
} elt_dims;

/* "a,b,c": up to max whole numbers in [lo, hi]; returns how many, or -1 */
static inline int elt_parse_list(const char *s, long long *v, int max, long long lo, long long hi) {
  int n = 0;
  while (*s) {
    char *end;
    if (n == max || !(*s >= '0' && *s <= '9')) return -1;
    long long x = strtoll(s, &end, 10);
    if (x < lo || x > hi || (*end != ',' && *end != '\0') || (*end == ',' && end[1] == '\0')) return -1;
    v[n++] = x;
    s = *end ? end + 1 : end;
  }
  return n;
}

static inline long long elt_count(const elt_dims *d) {
  long long n = 1;
  for (int j = 0; j < d->rank; j++) n *= d->extent[j];
  return n;
}

/* the output: "N,C,H,W" (1 to 4 extents); 0, or -1 with a message */
static inline int elt_parse_shape(const char *word, elt_dims *d, char *msg, size_t len) {
  memset(d, 0, sizeof(*d));
  d->rank = elt_parse_list(word, d->extent, ELT_MAX_DIMS, 1, ELT_INDEX_MAX);
  if (d->rank < 1)
    return snprintf(msg, len, "-shape=%s: 1 to 4 extents, each 1 to 2^31 - 1, as -shape=2,3,5,7", word), -1;
  double n = 1;
  for (int j = 0; j < d->rank; j++) n *= (double)d->extent[j];
  if (n > (double)ELT_INDEX_MAX) return snprintf(msg, len, "-shape=%s: %.0f elements, more than 2^31 - 1", word, n), -1;
  long long s = 1;
  for (int j = d->rank - 1; j >= 0; j--) d->stride[0][j] = s, s *= d->extent[j];
  d->span[0] = s;
  return 0;
}

/* operand k (1: a, 2: b) from its word and its offset; 0, or -1 with a message */
static inline int elt_parse_view(const char *word, long long offset, elt_dims *d, int k, char *msg, size_t len) {
  const char *who = k == 1 ? "-a" : "-b";
  int r = d->rank;
  long long *s = d->stride[k], e[ELT_MAX_DIMS], step = 0;
  if (strcmp(word, "contig") == 0) {
    memcpy(s, d->stride[0], sizeof(d->stride[0]));
  } else if (strcmp(word, "scalar") == 0) {
    memset(s, 0, sizeof(d->stride[k]));
  } else if (strncmp(word, "shape:", 6) == 0) {
    int m = elt_parse_list(word + 6, e, ELT_MAX_DIMS, 1, ELT_INDEX_MAX);
    if (m < 1 || m > r) return snprintf(msg, len, "%s=%s: 1 to %d extents (the output's rank)", who, word, r), -1;
    long long run = 1;
    for (int j = r - 1; j >= 0; j--) { /* aligned on the right; the missing leading extents are 1 */
      long long ej = j >= r - m ? e[j - (r - m)] : 1;
      if (ej != 1 && ej != d->extent[j])
        return snprintf(msg, len, "%s=%s: extent %lld cannot broadcast to the output's %lld", who, word, ej,
                        d->extent[j]), -1;
      s[j] = ej == 1 ? 0 : run;
      run *= ej;
    }
  } else if (strncmp(word, "strides:", 8) == 0) {
    if (elt_parse_list(word + 8, s, ELT_MAX_DIMS, 0, ELT_INDEX_MAX) != r)
      return snprintf(msg, len, "%s=%s: %d strides, each 0 to 2^31 - 1", who, word, r), -1;
  } else if (strcmp(word, "transposed") == 0) {
    if (r != 4) return snprintf(msg, len, "%s=transposed: the output must have 4 dimensions (N,C,H,W)", who), -1;
    long long C = d->extent[1], H = d->extent[2], W = d->extent[3];
    s[0] = H * W * C, s[1] = 1, s[2] = W * C, s[3] = C;
  } else if (strncmp(word, "step:", 5) == 0) {
    if (elt_parse_list(word + 5, &step, 1, 1, 1 << 20) != 1)
      return snprintf(msg, len, "%s=%s: the step K is 1 to 2^20", who, word), -1;
    long long run = d->extent[r - 1] * step; /* x's innermost extent */
    s[r - 1] = step;
    for (int j = r - 2; j >= 0; j--) s[j] = run, run *= d->extent[j];
  } else {
    return snprintf(msg, len, "%s=%s: a view is contig, scalar, shape:E,..., strides:S,..., transposed or step:K",
                    who, word), -1;
  }
  double span = 1;
  for (int j = 0; j < r; j++) span += (double)(d->extent[j] - 1) * (double)s[j];
  if (span + (double)offset > (double)ELT_INDEX_MAX)
    return snprintf(msg, len, "%s=%s reaches element %.0f of its allocation: the kernels' 32-bit offsets allow "
                    "2^31 - 1", who, word, span + (double)offset - 1), -1;
  d->span[k] = (long long)span;
  return 0;
}

/* operand k's extents and strides as 4 dimensions, ones (stride 0) in front: the gold's form */
static inline void elt_pad4(const elt_dims *d, int k, long long *ext, long long *stride) {
  int sh = ELT_MAX_DIMS - d->rank;
  for (int j = 0; j < ELT_MAX_DIMS; j++) {
    ext[j] = j < sh ? 1 : d->extent[j - sh];
    stride[j] = j < sh ? 0 : d->stride[k][j - sh];
  }
}

/* the bytes the operator must move: the output once, and each input element read (a broadcast operand's
 * distinct elements only) once */
static inline double elt_traffic(const elt_dims *d, size_t es, size_t os) {
  double t = (double)elt_count(d) * (double)os;
  for (int k = 1; k <= 2; k++) {
    double e = 1;
    for (int j = 0; j < d->rank; j++) e *= d->stride[k][j] ? (double)d->extent[j] : 1.0;
    t += e * (double)es;
  }
  return t;
}

/* "64x256x128x128": the BENCH lines' n= */
static inline void elt_size_string(const elt_dims *d, char *s, size_t len) {
  int n = 0;
  for (int j = 0; j < d->rank && n >= 0 && (size_t)n < len; j++)
    n += snprintf(s + n, len - (size_t)n, "%s%lld", j ? "x" : "", d->extent[j]);
}

/* one line: the dimensions merged, and each input's strides */
static inline void elt_print_merge(const elt_dims *d, const elt_dims *m) {
  printf("merged %d dims into %d: [", d->rank, m->rank);
  for (int j = 0; j < m->rank; j++) printf("%s%lld", j ? ", " : "", m->extent[j]);
  for (int k = 1; k <= 2; k++) {
    printf("]%s strides [", k == 1 ? ", a" : ", b");
    for (int j = 0; j < m->rank; j++) printf("%s%lld", j ? ", " : "", m->stride[k][j]);
  }
  printf("]\n");
}

/* the benched cases (docs/prac6_beyond.md, step 8): NCHW 64 x 256 x 128 x 128, N = 32 for float (512 MB a tensor) */
typedef struct {
  const char *name;
  int op;
  const char *a, *b;
} elt_case;
static const elt_case elt_cases[] = {
    {"add_contig", ELT_ADD, "contig", "contig"},      {"lt_contig", ELT_LT, "contig", "contig"},
    {"mul_bcast_c", ELT_MUL, "contig", "shape:256,1,1"}, {"add_transposed", ELT_ADD, "contig", "transposed"},
    {"add_slice2", ELT_ADD, "contig", "step:2"},
};
#define ELT_NCASES ((int)(sizeof(elt_cases) / sizeof(elt_cases[0])))
static inline const char *elt_case_shape(int type) { return type == ELT_FLOAT ? "32,256,128,128" : "64,256,128,128"; }

#endif /* ELTWISE_VIEWS_H */
