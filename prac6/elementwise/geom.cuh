/*
 * elementwise/geom.cuh -- what step 8's kernels are handed: the merged dimensions in 32-bit numbers with their
 * fastdiv magic (step 6), the paths plan.h chose, and the host's record of one call.
 */
#ifndef ELTWISE_GEOM_CUH
#define ELTWISE_GEOM_CUH

#include "../fastdiv.h"
#include "plan.h"

typedef struct {
  int rank;                                      // merged dimensions, 1 to 4, outer to inner
  uint32_t n;                                    // output elements (< 2^31)
  uint32_t extent[ELT_MAX_DIMS];
  uint32_t sa[ELT_MAX_DIMS], sb[ELT_MAX_DIMS];   // a's and b's element strides
  fastdiv_t div[ELT_MAX_DIMS];                   // fastdiv_make(extent[d]), for kernels 2 to 4
  uint32_t ia, ib;                               // a's and b's innermost strides, indexed on the host: a kernel
                                                 // indexing a parameter array at run time copies it to local memory
  int mode_a, mode_b;                            // kernel 3: ELT_LOAD_VEC, _BCAST or _GATHER (plan.h)
} elt_geom;

// kernel 4's tile: the two innermost merged dimensions P (second-innermost) and L (innermost)
typedef struct {
  uint32_t EP, EL;                 // their extents
  uint32_t aP, aL, bP, bL;         // a's and b's strides along them
  uint32_t outer;                  // the product of the other extents: blockIdx.z's range
  int tile_a, tile_b;              // through the shared-memory tile
} elt_tile_geom;

typedef struct {
  int op, type;
  const void *a, *b;               // device: the views' first elements
  void *out;
  elt_geom g;
  elt_tile_geom t;
  elt_half8_plan half8;
  elt_tiled_plan tiled;
} elt_call;

// the call for merged dimensions m (strides fit in 32 bits: views.h checked every offset against 2^31 - 1)
static inline void elt_call_setup(elt_call *c, const elt_dims *m, const unsigned long long *addr, const size_t *esize,
                                  int tile_p) {
  elt_geom *g = &c->g;
  memset(g, 0, sizeof(*g));
  g->rank = m->rank;
  g->n = 1;
  for (int d = 0; d < m->rank; d++) {
    g->extent[d] = (uint32_t)m->extent[d];
    g->sa[d] = (uint32_t)m->stride[1][d];
    g->sb[d] = (uint32_t)m->stride[2][d];
    g->div[d] = fastdiv_make(g->extent[d]);
    g->n *= g->extent[d];
  }
  int L = m->rank - 1, P = m->rank - 2;
  g->ia = g->sa[L], g->ib = g->sb[L];
  c->half8 = elt_plan_half8(m, addr, esize, (int)(16 / esize[1]));
  g->mode_a = c->half8.mode[1], g->mode_b = c->half8.mode[2];
  c->tiled = elt_plan_tiled(m, tile_p);
  elt_tile_geom *t = &c->t;
  memset(t, 0, sizeof(*t));
  if (c->tiled.tiled) {
    t->EP = g->extent[P], t->EL = g->extent[L];
    t->aP = g->sa[P], t->aL = g->sa[L], t->bP = g->sb[P], t->bL = g->sb[L];
    t->outer = g->n / (t->EP * t->EL);
    t->tile_a = c->tiled.tile[1], t->tile_b = c->tiled.tile[2];
  }
}

#endif /* ELTWISE_GEOM_CUH */
