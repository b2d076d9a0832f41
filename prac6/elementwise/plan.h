/*
 * elementwise/plan.h -- step 8, before any launch: merge the dimensions, then choose each kernel's path. Plain C
 * (tests/test_prac6.c checks it without a GPU).
 *
 * Merging (what PyTorch's TensorIterator and every framework do first): two adjacent dimensions, outer j and
 * inner j + 1, are one dimension of extent E_j E_(j+1) when every operand has stride_j = stride_(j+1) E_(j+1):
 * then stepping j by one is stepping j + 1 by E_(j+1), and one index covers both. Extents of 1 are dropped.
 * Contiguous operands merge to one dimension; a [C,1,1] operand over NCHW leaves (N, C, H W); a transposed
 * view leaves 3; a slice with a step merges to 1 (its stride 2 is the same all the way). Each dimension
 * merged away is one division fewer per element, and the innermost merged extent is the run that vector
 * loads can use.
 */
#ifndef ELTWISE_PLAN_H
#define ELTWISE_PLAN_H

#include "views.h"

static inline elt_dims elt_merge(const elt_dims *d) {
  elt_dims m;
  memset(&m, 0, sizeof(m));
  int r = 0; /* built inner to outer, reversed at the end */
  for (int j = d->rank - 1; j >= 0; j--) {
    if (d->extent[j] == 1) continue;
    int merge = r > 0;
    for (int k = 0; k < 3 && merge; k++) merge = d->stride[k][j] == m.stride[k][r - 1] * m.extent[r - 1];
    if (merge) {
      m.extent[r - 1] *= d->extent[j];
      continue;
    }
    m.extent[r] = d->extent[j];
    for (int k = 0; k < 3; k++) m.stride[k][r] = d->stride[k][j];
    r++;
  }
  if (r == 0) { /* one element: a dimension of 1, read once by every operand */
    m.extent[0] = 1;
    m.stride[0][0] = 1;
    r = 1;
  }
  m.rank = r;
  for (int j = 0; j < r / 2; j++) {
    long long t = m.extent[j];
    m.extent[j] = m.extent[r - 1 - j], m.extent[r - 1 - j] = t;
    for (int k = 0; k < 3; k++) t = m.stride[k][j], m.stride[k][j] = m.stride[k][r - 1 - j], m.stride[k][r - 1 - j] = t;
  }
  memcpy(m.span, d->span, sizeof(m.span));
  return m;
}

/* ---- kernel 3: chunks of V = 16 / sizeof(input) elements, each operand as its layout allows ---------------- */
enum { ELT_LOAD_VEC, ELT_LOAD_BCAST, ELT_LOAD_GATHER };
static const char *const elt_load_names[] = {"16-byte loads", "one load broadcast", "element loads"};

typedef struct {
  int vector;  /* 1: V elements per thread; 0: element by element (kernel 2's kernel) */
  int mode[3]; /* [1] a, [2] b: VEC, BCAST or GATHER */
  char why[320];
} elt_half8_plan;

/* A 16-byte load needs a 16-byte-aligned address. Chunk c starts at element c V of the output, whose
 * coordinates have an innermost index that is a multiple of V: with one merged dimension that index is c V
 * itself; with more, the innermost merged extent is a multiple of V (the test below, else element by element),
 * so every row starts a chunk. An operand with inner stride 1 then starts a chunk at (a multiple of V) + (outer
 * strides x indexes), so it is aligned for every chunk exactly when its first element is and every outer stride
 * is a multiple of V. addr: the views' first bytes ([0] the output); esize: element sizes. */
/* A gathered operand (inner stride s, not 0 or 1) still pays in chunks while a chunk's V elements share 32-byte
 * sectors: a step-2 slice of halves puts eight elements in 30 bytes, one or two sectors (H100: 0.690 ms against
 * kernel 2's 0.908, docs/notes/prac6.md). Once one step, |s| x the element's size, is a sector or more, each of the
 * V elements is in a sector of its own: the V loads per thread share nothing, and only cut the threads in flight by V.
 * A transposed view is that case: C = 256 halves put each element 512 bytes from the next (H100: 2.149 ms gathered
 * against 2.057 element by element). From a step of ELT_GATHER_STEP_MAX bytes on, the launch goes element by
 * element. Measured at steps of 4 and 512 bytes only; the sector between them is the reasoning above. */
#define ELT_GATHER_STEP_MAX 32

static inline elt_half8_plan elt_plan_half8(const elt_dims *m, const unsigned long long *addr, const size_t *esize,
                                            int V) {
  elt_half8_plan p;
  memset(&p, 0, sizeof(p));
  int L = m->rank - 1;
  size_t obytes = (size_t)V * esize[0];
  if (addr[0] % obytes)
    return snprintf(p.why, sizeof(p.why), "element by element: the output starts %llu bytes past a %zu-byte "
                    "boundary", addr[0] % obytes, obytes), p;
  if (L > 0 && m->extent[L] % V)
    return snprintf(p.why, sizeof(p.why), "element by element: the innermost merged extent %lld is no multiple "
                    "of %d, so chunks of %d would cross rows", m->extent[L], V, V), p;
  p.vector = 1;
  int n = snprintf(p.why, sizeof(p.why), "%d elements per thread: out %zu-byte stores", V, obytes);
  for (int k = 1; k <= 2; k++) {
    const char *why = "";
    char buf[96] = "";
    if (m->stride[k][L] == 0) {
      p.mode[k] = ELT_LOAD_BCAST;
    } else if (m->stride[k][L] != 1) {
      long long step = llabs(m->stride[k][L]) * (long long)esize[k];
      if (step >= ELT_GATHER_STEP_MAX) { /* no two of a chunk's elements share a sector: element by element */
        memset(p.mode, 0, sizeof(p.mode));
        p.vector = 0;
        snprintf(p.why, sizeof(p.why), "element by element: %s's inner stride %lld puts its elements %lld bytes "
                 "apart, each in a %d-byte sector of its own, so %d loads per thread would share nothing and only cut "
                 "the threads by %d", k == 1 ? "a" : "b", m->stride[k][L], step, ELT_GATHER_STEP_MAX, V, V);
        return p;
      }
      p.mode[k] = ELT_LOAD_GATHER;
      snprintf(buf, sizeof(buf), " (inner stride %lld)", m->stride[k][L]);
      why = buf;
    } else if (addr[k] % 16) {
      p.mode[k] = ELT_LOAD_GATHER;
      snprintf(buf, sizeof(buf), " (it starts %llu bytes past a 16-byte boundary)", addr[k] % 16);
      why = buf;
    } else {
      p.mode[k] = ELT_LOAD_VEC;
      for (int j = 0; j < L; j++)
        if (m->stride[k][j] % V) {
          p.mode[k] = ELT_LOAD_GATHER;
          snprintf(buf, sizeof(buf), " (stride %lld of merged dim %d is no multiple of %d)", m->stride[k][j], j, V);
          why = buf;
        }
    }
    n += snprintf(p.why + n, sizeof(p.why) - (size_t)n, ", %s %s%s", k == 1 ? "a" : "b", elt_load_names[p.mode[k]],
                  why);
  }
  return p;
}

/* -expect_path: kernel 3's path as a word a runs line can name: "element" (the launch goes element by element),
 * else one letter an operand, a then b: v 16-byte loads, b one load broadcast, e element loads ("vb": a 16-byte
 * loads, b broadcast). elt_path_code: plan p's word; elt_path_code_valid: w is "any", "element" or such a word. */
static inline const char *elt_path_code(const elt_half8_plan *p) {
  static char code[3];
  if (!p->vector) return "element";
  static const char letter[] = {'v', 'b', 'e'};
  code[0] = letter[p->mode[1]], code[1] = letter[p->mode[2]], code[2] = '\0';
  return code;
}
static inline int elt_path_code_valid(const char *w) {
  return !strcmp(w, "any") || !strcmp(w, "element") ||
         (strlen(w) == 2 && strchr("vbe", w[0]) && strchr("vbe", w[1]) && w[0] && w[1]);
}

/* ---- kernel 4: an operand contiguous along the second-innermost merged dim and strided along the innermost
 * (a transposed view) goes through a shared-memory tile; everything else is kernel 3's ---------------------- */
typedef struct {
  int tiled;
  int tile[3]; /* [1] a, [2] b: through the tile */
  char why[320];
} elt_tiled_plan;

static inline elt_tiled_plan elt_plan_tiled(const elt_dims *m, int tile_p) {
  elt_tiled_plan p;
  memset(&p, 0, sizeof(p));
  int P = m->rank - 2, L = m->rank - 1, n = 0;
  for (int k = 1; k <= 2 && P >= 0; k++)
    if (m->stride[k][P] == 1 && m->stride[k][L] > 1) {
      p.tile[k] = 1;
      n += snprintf(p.why + n, sizeof(p.why) - (size_t)n, "%s%s through a shared-memory tile (stride 1 along merged "
                    "dim %d, %lld along the innermost)", n ? "; " : "tiled: ", k == 1 ? "a" : "b", P, m->stride[k][L]);
    }
  p.tiled = p.tile[1] || p.tile[2];
  if (p.tiled && (m->extent[P] + tile_p - 1) / tile_p > 65535) {
    p.tiled = 0;
    snprintf(p.why, sizeof(p.why), "kernel 3's path: the tiles of merged dim %d (extent %lld) would need more "
             "than 65535 blocks in y", P, m->extent[P]);
  } else if (!p.tiled) {
    snprintf(p.why, sizeof(p.why), "kernel 3's path: no operand is contiguous along the second-innermost merged "
             "dim and strided along the innermost");
  }
  return p;
}

#endif /* ELTWISE_PLAN_H */
