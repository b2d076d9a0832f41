/*
 * kernels/steps.h -- the steps of reduction_ladder.cu, in the order of its table: each step's name (the
 * table's row, and prog=reduction_<name> in its BENCH line), its launcher, the depth of its additions (from
 * which the tolerance comes) and how to read its result back. Included by the runner after every step
 * header (kernels/rN_*.cuh).
 */
#ifndef REDUCTION_STEPS_H
#define REDUCTION_STEPS_H

// the steps, in the order of the table
typedef struct {
  const char *name; // for the table and the BENCH lines (prog=reduction_<name>)
  int step, atomic;
  void (*run)(ladder_args *);
} ladder_step;

static const ladder_step steps[] = {
    {"cub", 0, 0, run_cub},
    {"any_threads", 2, 0, run_any_threads},
    {"host_partials", 3, 0, run_host_partials},
    {"atomic", 3, 1, run_atomic},
    {"shfl", 4, 1, run_shfl},
    {"reduce_add_int", 5, 1, run_reduce_add},
    {"fast", 6, 0, run_fast},
};
#define NSTEPS ((int)(sizeof(steps) / sizeof(steps[0])))

static double step_depth(const ladder_step *s, const ladder_args *a, int sms) {
  switch (s->step) {
  case 0: return depth_cub(a, sms);
  case 2: return depth_any_threads(a);
  case 3: return s->atomic ? depth_atomic(a) : depth_host_partials(a);
  case 4: return depth_shfl(a);
  case 5: return depth_reduce_add(a);
  default: return depth_fast(a);
  }
}

// the result of the last run of step s, as a double (exact for step 5's 64-bit integer)
static double step_result(const ladder_step *s, const ladder_args *a) {
  if (s->step == 3 && !s->atomic) return (double)(float)a->host_sum; // the host's sum, rounded to float
  if (s->step == 5) {
    unsigned long long u;
    checkCudaErrors(cudaMemcpy(&u, a->d_uout, sizeof(u), cudaMemcpyDeviceToHost));
    return (double)u;
  }
  float f;
  checkCudaErrors(cudaMemcpy(&f, a->d_out, sizeof(f), cudaMemcpyDeviceToHost));
  return (double)f;
}

#endif /* REDUCTION_STEPS_H */
