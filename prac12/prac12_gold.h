/*
 * prac12_gold.h -- the CPU gold routines of practical 12 (streams and overlap). Declared once here, included by
 * kernel_overlap.cu and work_streaming.cu (compiled as C++), by prac12_gold.c, which defines them (so that a
 * changed signature fails to compile), and by tests/test_prac12.c.
 *
 * Both of the course's programs run do_work: iters steps of x = cos(x); x = sqrt(fabs(x)) on each double, in
 * place (kernel_overlap 200 steps, work_streaming 20). Call one step g(x) = sqrt(|cos x|). g maps every x into
 * [0, 1], and [-1, 1] into [sqrt(cos 1), 1] = [0.735, 1]; its fixed point x* (x*^2 = cos x*) is 0.8241323.
 */
#ifndef PRAC12_GOLD_H
#define PRAC12_GOLD_H

#include <float.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PRAC12_FIXED_POINT 0.82413231230252242 /* x* = g(x*): x*^2 = cos x*, by Newton's method in long double */

/*
 * The tolerance: the GPU's result within PRAC12_RTOL of the gold's, relative to the gold's, for any count of
 * steps. Why 64 ulps of 1 (64 DBL_EPSILON, 1.4e-14):
 *  - one step's rounding. CUDA's double cos is within 2 ulp of the true cos (the CUDA Programming Guide's
 *    table, full range); glibc's within 1 ulp (its table of known maximum errors). sqrt is correctly rounded on
 *    both (half an ulp; the course's --use_fast_math changes float arithmetic only, not double). The square
 *    root halves its argument's relative error, so one step adds at most 2/2 + 1/2 = 1.5 ulp on the GPU and
 *    1/2 + 1/2 = 1 ulp on the CPU: the two results of a step from the same x differ by 2.5 DBL_EPSILON at most
 *    (an ulp of a value v is at most DBL_EPSILON |v|).
 *  - the steps after it. A relative difference d in x becomes kappa d in g(x), where kappa = |x g'(x) / g(x)|
 *    = x tan(x) / 2 for |x| <= 1: 0.45 at x*, and at most tan(1) / 2 = 0.7787 anywhere in [-1, 1], where both
 *    sides' values lie from the first step on (the programs' inputs are in [-1, 1] too). So g is a contraction
 *    in these terms: the differences settle, they do not grow with the steps. With d_0 = 0 (the same inputs)
 *    and d_k+1 <= 0.779 d_k + 2.5 DBL_EPSILON, every d_k <= 2.5 / (1 - 0.779) = 11.3 DBL_EPSILON (2.5e-15);
 *    near x*, where the values are after a few steps, 2.5 / (1 - 0.45) = 4.5 DBL_EPSILON.
 * 64 DBL_EPSILON is 5.7 times the worst case and 14 times the steady one, and far below a real error. A step
 * too few or too many moves a value by about 1.45 x 0.45^k times its input's distance from x* (x_k - x* shrinks
 * by a factor -0.45 a step): plain at work_streaming's 20 steps (1e-7), invisible at kernel_overlap's 200
 * (0.45^200 = 5e-71: every value is x* within a few ulps). There the check is that the kernel reached every
 * value (one it never reached keeps its input, see prac12_inputs); -iters=1 to 5 checks the steps themselves.
 * tests/test_prac12.c runs a worse GPU than CUDA's: its cos 2.5 ulp off and its sqrt 1.5 ulp off at every step,
 * each error's sign chosen to push it away from the gold (its bound: 17 DBL_EPSILON).
 * NaN and Inf always fail (gold_check.h).
 */
#define PRAC12_RTOL (64 * DBL_EPSILON)

/*
 * The inputs: the course's work_streaming's, srand(0) and then x[i] = sign * rand() / RAND_MAX, in [0, 1] for
 * sign = 1. kernel_overlap (whose course version reads memory nothing wrote) takes sign = -1: inputs in [-1, 0],
 * which no step leaves negative, so a value the kernel never reached can never pass for its result.
 */
void prac12_inputs(double *x, size_t n, double sign);

/* The gold: iters steps of x = cos(x); x = sqrt(fabs(x)) on each of x[0..n-1], in place, in double (on every
 * core where gcc has OpenMP: GOLD_OPENMP in the Makefile) */
void prac12_gold(double *x, size_t n, int iters);

/* The CPU threads prac12_gold runs on (1 without OpenMP), for the programs' gold line */
int prac12_gold_threads(void);

/*
 * The host's memory, before work_streaming and work_streaming2 allocate theirs (at -n=2^29, 8 GiB and 12 GiB, 4 of it
 * pinned): MemAvailable, the kernel's estimate of what can be allocated without swapping, from /proc/meminfo.
 * prac12_meminfo_available: its value in bytes, from the file's text; -1 when the text has no such line (a kernel
 * older than 3.14, or not Linux). prac12_host_memory_ok: 1 when `bytes` fit in what the file at `path` says is
 * available, or when it cannot tell (no file, no line); else 0, with both amounts and `what` in msg.
 */
long long prac12_meminfo_available(const char *text);
int prac12_host_memory_ok(size_t bytes, const char *what, const char *path, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PRAC12_GOLD_H */
