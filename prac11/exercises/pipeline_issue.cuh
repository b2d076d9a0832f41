/*
 * exercises/pipeline_issue.cuh -- practical 11, step 4, to write: version 2's loop body in pipeline.cu (the
 * solution is issue_chunk in ../pipeline.cu). The loop calls issue_chunk(p, n) for n = 0, 1, ..., chunks-1, and
 * issue_chunk queues chunk n's three stages, each a CUDA call made through a helper that notes it:
 *   copy_in(p, n, s)          cudaMemcpyAsync of chunk n from pinned host memory to d_buf[n % nbuf], in stream s
 *   compute(p, n, s)          the kernel on that buffer, in stream s
 *   copy_out(p, n, s)         cudaMemcpyAsync of that buffer back to the host, in stream s
 *   record_event(p, e, s)     cudaEventRecord(e, s): e stands for all the work queued in s so far
 *   wait_event(p, s, e)       cudaStreamWaitEvent(s, e): what s runs from now on waits for that work
 * with three streams, p->s_in, p->s_comp and p->s_out, and three events per buffer b, p->in_done[b],
 * p->comp_done[b] and p->out_done[b].
 * The starting version queues everything in one stream. Its results are right (a stream runs its work in order),
 * but nothing overlaps: the copy-in of chunk n+1 waits for the kernel of chunk n. pipeline.cu checks your schedule
 * by the rules of streams and events (pipeline.cuh, pipe_schedule), not by its time, and
 *   make exercises && ./exercises/pipeline
 * (make rebuilds it after each edit) ends RESULT: FAIL (exercise not done: the copy-in of chunk 1 waits for the
 * kernel of chunk 0, ...) until at each step the copy-in of chunk n+1, the kernel of chunk n and the copy-out of
 * chunk n-1 are free to run at once. A schedule that lets a stage run before its input is ready fails as a race,
 * naming the pair.
 */
static void issue_chunk(pipe_t *p, int n) {
  // TODO(step 4): each stage in its own stream: copy-in in p->s_in, kernel in p->s_comp, copy-out in p->s_out.
  // TODO(step 4): then the events, so that each stage waits for what it needs and nothing else: the kernel for
  // chunk n's copy-in, the copy-out for chunk n's kernel, and the copy-in for buffer b to be free, that is for the
  // copy-out of chunk n - nbuf (an event that was never recorded is no wait). Chunk n's buffer is b = n % p->nbuf,
  // used before by chunk n - nbuf: which of buffer b's events does each stage record, and which does it wait for?
  copy_in(p, n, p->s_comp);
  compute(p, n, p->s_comp);
  copy_out(p, n, p->s_comp);
}
