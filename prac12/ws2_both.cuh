/*
 * ws2_both.cuh -- practical 12, work_streaming2's both-ways measurement: half the array copied in while the other
 * half is copied out, in two streams started together, each copy's end timed from that start; the rate while both
 * ran (ws2_both_rates in work_streaming2.cuh) is what the bound's link uses.
 */
#ifndef WS2_BOTH_CUH
#define WS2_BOTH_CUH

typedef struct { // a copy in and a copy out at once, in two streams, forked from stream 0 and joined to it once
  timing_copy_args in, out;
  cudaStream_t s[2];
  cudaEvent_t fork, join[2]; // timed: each copy's end from the common start
} both_args;

// One run: t[k], the ms from the fork to copy k's end (0 in, 1 out). Events, not the legacy default stream, tie the
// two streams to stream 0; both copies are queued before stream 0 waits for either (a blocking stream's work waits
// for what the legacy stream was given before it)
static void both_once(both_args *b, double t[2]) {
  checkCudaErrors(cudaEventRecord(b->fork, 0));
  for (int k = 0; k < 2; k++) {
    timing_copy_args *c = k ? &b->out : &b->in;
    checkCudaErrors(cudaStreamWaitEvent(b->s[k], b->fork, 0));
    checkCudaErrors(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDefault, b->s[k]));
    checkCudaErrors(cudaEventRecord(b->join[k], b->s[k]));
  }
  for (int k = 0; k < 2; k++) checkCudaErrors(cudaStreamWaitEvent(0, b->join[k], 0));
  for (int k = 0; k < 2; k++) {
    float ms = 0.0f;
    checkCudaErrors(cudaEventSynchronize(b->join[k]));
    checkCudaErrors(cudaEventElapsedTime(&ms, b->fork, b->join[k]));
    t[k] = ms;
  }
}

// both ways at once, reps runs after one warm-up: the run whose rate while both ran (ws2_both_rates) is the median
// gives r[2] and first_ms (when the first copy ended); the whole runs' median time is returned
static double both_median(both_args *b, int reps, const double alone[2], double r[2], double *first_ms) {
  double t[2], whole[TIMING_MAX_REPS], sum[TIMING_MAX_REPS], rr[TIMING_MAX_REPS][2], first[TIMING_MAX_REPS];
  double bytes[2] = {(double)b->in.bytes, (double)b->out.bytes};
  if (reps > TIMING_MAX_REPS) reps = TIMING_MAX_REPS;
  both_once(b, t); // warm-up
  for (int i = 0; i < reps; i++) {
    both_once(b, t);
    whole[i] = t[0] > t[1] ? t[0] : t[1];
    first[i] = t[0] < t[1] ? t[0] : t[1];
    ws2_both_rates(bytes, t, alone, rr[i]);
    sum[i] = rr[i][0] + rr[i][1];
  }
  int m = ws2_median_index(sum, reps);
  r[0] = rr[m][0], r[1] = rr[m][1], *first_ms = first[m];
  return whole[ws2_median_index(whole, reps)];
}

#endif /* WS2_BOTH_CUH */
