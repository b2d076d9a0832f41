/*
 * stencil/stencil.h -- practical 3, steps 8 and 10: what the runner laplace3d_ladder.cu asks of a step
 * header (stencil/s3_fast.cuh, stencil/s4_tb.cuh) besides its kernel: its options, its launch, its -sweep
 * table and its -bench line. The runner holds the course's part (the grid, the copies, REPEAT iterations,
 * the gold and the verdict), so that laplace3d_fast and laplace3d_tb are one program built for one step.
 */
#ifndef STENCIL_STENCIL_H
#define STENCIL_STENCIL_H

#include "args.h"
#include "timing.h"

// the block a step runs with: its options (-bx= or -T=, -by=, -kchunk=), or what -sweep chose
typedef struct {
  int bx, by, kchunk, T;
} stencil_block;

// everything one launch needs, for the timing helpers
typedef struct {
  int NX, NY, NZ, pitch; // pitch: floats per row (NX, or NX rounded up to 32 where the step pads its rows)
  int kchunk, T, by;     // this launch's k chunk, sweeps per pass and block height (a -sweep changes them)
  int maxthreads;        // the largest block the kernel launches at its register count
  dim3 grid, block;
  size_t shared, optin; // this launch's shared memory; the most a block may have on this GPU
  const float *d_u1;
  float *d_u2;
} stencil_launch;

// one step, as the runner calls it, in this order
typedef struct {
  int padded; // rows padded to a multiple of 32 floats (128 bytes): the Row pitch line and 2-D copies
  const char *bench_help, *sweep_help;            // what -help says of -bench and -sweep
  void (*options)(arg_spec *o, stencil_block *b); // its three options (and their defaults), after -repeat=
  void (*check_args)(const stencil_block *b);     // bad input (args_fail), before any GPU work
  void (*prepare)(stencil_launch *a, const stencil_block *b, int dev); // attributes, the kernel's first line
  void (*sweep)(stencil_launch *a, stencil_block *b, double moved, const bench_ref *ref, int reps); // -sweep
  void (*configure)(stencil_launch *a, const stencil_block *b); // grid and block; the Block: line
  void (*iterate)(stencil_launch *a, const stencil_block *b, int REPEAT, float **d_u1, float **d_u2);
  void (*bench)(stencil_launch *a, const stencil_block *b, const char *size, double moved, const bench_ref *ref,
                int reps); // -bench (and -sweep): the timing of one launch, its BENCH line
  const char *table;       // its name in practical 10's tuned tables (tuned/<gpu>.txt, common/tuned.h); NULL: none
} stencil_step;

#endif /* STENCIL_STENCIL_H */
