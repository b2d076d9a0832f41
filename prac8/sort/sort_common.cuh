/*
 * sort/sort_common.cuh -- practical 8, steps 7 to 9: what every step of radix_sort shares: lanemask_lt, step
 * 3's warp_inclusive_scan (scans/scan_common.cuh), sort_plan, the arrays and workspaces every step's
 * launcher takes, made once by the runner (radix_sort.cu), and sort_method, what each step's header tells the
 * runner about its method.
 */
#ifndef PRAC8_SORT_COMMON_CUH
#define PRAC8_SORT_COMMON_CUH

#include "helper_cuda.h"
#include "timing.h" // timed_fn

#include "../scans/scan_common.cuh" // warp_inclusive_scan

__device__ __forceinline__ unsigned lanemask_lt(int lane) { return (1u << lane) - 1u; }

// ---- the host side ------------------------------------------------------------------------------

// everything the methods need, made once (the timed calls allocate nothing)
typedef struct {
  size_t n;
  int pairs, is_float;
  unsigned *d_in, *d_vin;     // the input (keys; values), never changed
  unsigned *d_out, *d_vout;   // the result
  unsigned *d_alt, *d_valt;   // the other buffer of the passes
  unsigned *d_work;           // onesweep: histogram, digit starts, tickets, status words (one memset)
  size_t work_words;
  unsigned *d_hist4;          // step 8: the 16 x nb counts
  int *d_error;
  int hist_grid;              // onesweep's histogram: blocks enough to fill the GPU (from the occupancy API)
  int fault_zeros;            // -fault=zeros: onesweep orders +0 before -0 (a deliberate bug the check must find)
  void *d_cub_temp;
  size_t cub_temp_bytes;
  char *d_thrust_temp;        // Thrust's temporary storage: grown once, on the untimed first call
  size_t thrust_temp_bytes;
} sort_plan;

// one method, as its step's header describes it (method_onesweep, ...); the runner lists them, checks and times
typedef struct {
  const char *name; // in the lines it prints, and prog= of its BENCH line
  int kernel;       // its -kernel=
  timed_fn run;     // one call on the sort_plan, on the default stream: what -bench times
  int equal_zeros;  // 1: it orders -0.0 and +0.0 as equal keys, as CUB and Thrust do (sort/sort_check.h)
  // a method that sorts in place copies its input to d_out first: that copy alone, timed as -bench times every
  // method (warm-up runs, then the median of reps), for the runner to subtract; NULL: its time is the sort alone
  double (*copy_ms)(sort_plan *p, int reps);
} sort_method;

#endif /* PRAC8_SORT_COMMON_CUH */
