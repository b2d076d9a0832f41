/*
 * kernels/oracle.h -- reduction_ladder's one oracle: a step's sum against the double-precision gold, within the
 * tolerance its depth gives (kernels/steps.h; the bound is in the runner's header comment), exact for the
 * integer step. check_step runs the step on a poisoned result first; judge_step reads what the last run left
 * (so the runner also judges the output of its timed runs). Included by reduction_ladder.cu after steps.h.
 */
#ifndef REDUCTION_ORACLE_H
#define REDUCTION_ORACLE_H

// the result the last run of step s left, against the gold and the step's tolerance (into *gpu and *tol)
static int judge_step(const ladder_step *s, const ladder_args *a, double gold_f, unsigned long long gold_u,
                      double sum_abs, int integer_valued, int sms, gold_stats *st, double *gpu, double *tol) {
  checkCudaErrors(cudaDeviceSynchronize());
  *gpu = step_result(s, a);
  double gold = s->step == 5 ? (double)gold_u : gold_f;
  *tol = s->step == 5 ? 0.0 : reduction_tolerance(sum_abs, integer_valued, step_depth(s, a, sms));
  compare_scalar(*gpu, gold, *tol, 0.0, st);
  return st->nbad == 0;
}

// run step s on a poisoned result and judge it; prints the course's line and the tolerance. With
// -forget_zero the result starts at 0 (fresh memory often does) and the step runs twice, as any program
// that reduces more than once does: the second launch adds to the first one's answer.
static int check_step(const ladder_step *s, ladder_args *a, double gold_f, unsigned long long gold_u, double sum_abs,
                      int integer_valued, int sms, int verbose, gold_stats *st) {
  checkCudaErrors(cudaMemset(a->d_out, 0xff, sizeof(float))); // NaN: a result never written cannot pass
  checkCudaErrors(cudaMemset(a->d_uout, 0xff, sizeof(unsigned long long)));
  checkCudaErrors(cudaMemset(a->d_partial, 0xff, a->npartial * sizeof(float)));
  if (!a->zero) {
    checkCudaErrors(cudaMemset(a->d_out, 0, sizeof(float)));
    checkCudaErrors(cudaMemset(a->d_uout, 0, sizeof(unsigned long long)));
    s->run(a);
  }
  s->run(a);
  double gpu, tol, gold = s->step == 5 ? (double)gold_u : gold_f, depth = step_depth(s, a, sms);
  judge_step(s, a, gold_f, gold_u, sum_abs, integer_valued, sms, st, &gpu, &tol);
  if (verbose) {
    printf("step %d%s (%s): %d block%s of %d threads\n", s->step, s->atomic && s->step == 3 ? " -atomic" : "",
           s->name, a->blocks, a->blocks == 1 ? "" : "s", s->step == 0 ? 0 : a->threads);
    if (!a->zero) printf("-forget_zero: the result was 0 before the first launch; this is the second launch\n");
    printf("reduction error = %f\n", gpu - gold);
    if (tol == 0.0)
      printf("tolerance: exact (%s)\n", s->step == 5 ? "integer addition"
                                                       : "whole numbers with sum|x| <= 2^24: every partial sum exact");
    else
      printf("tolerance: |gpu - gold| <= gamma(%.0f) * sum|x| = %.3e (relative to the sum %.2e)\n", depth, tol,
             tol / fabs(gold));
    printf("gpu = %.9g, gold = %.9g\n", gpu, gold);
  } else {
    printf("  %d %-15s %s: reduction error = %g, tolerance %.3g\n", s->step, s->name,
           st->nbad == 0 ? "PASS" : "FAIL", gpu - gold, tol);
  }
  return st->nbad == 0;
}

#endif /* REDUCTION_ORACLE_H */
