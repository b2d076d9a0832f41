/*
 * ws2_timeline.cuh -- practical 12, the timeline pictures: work_streaming2's -timeline=FILE. A run of its own,
 * untimed, after the timed ones: the work again with an event pair around each chunk's copy in, kernel and copy out,
 * each pair in the chunk's stream, read back and written as prac11's CSV (stage rows, prac11_timeline.cuh), which
 * ../prac11/timeline.py draws as three lanes: copy in, kernel, copy out. Two programs, a panel each: not chunked
 * (the whole array as one chunk in one stream: in, kernel, out one after another) and the course's chunks over
 * the streams. The loop body is the solution's (issue_chunk's three calls with the marks between them), so an
 * exercise build draws it with its own host memory, pinned or not. Every run's output is checked by the caller.
 */
#ifndef WS2_TIMELINE_CUH
#define WS2_TIMELINE_CUH

// the whole array in `chunks` chunks over the streams (1: one chunk, in stream 0 of ours), marked; the device array
// poisoned first, the host array holding the inputs (the caller sets it); the rows written as `program`'s
static void ws2_timeline_run(ws2_t *w, prac11_marks_t *m, int chunks, const char *program) {
  checkCudaErrors(cudaMemset(w->d_data, 0xff, w->bytes));
  checkCudaErrors(cudaDeviceSynchronize());
  prac11_marks_on(m, 1);
  checkCudaErrors(cudaEventRecord(w->start, 0));
  checkCudaErrors(cudaEventSynchronize(w->start));
  for (int i = 0; i < chunks; i++) {
    ws2_chunk c = ws2_chunk_of(w->n, chunks, i);
    int j = i % w->nstreams;
    cudaStream_t s = w->s[j];
    size_t bytes = sizeof(double) * c.count;
    prac11_mark(m, 3 * i, 0, s, j + 1);
    checkCudaErrors(cudaMemcpyAsync(w->d_data + c.first, w->h_data + c.first, bytes, cudaMemcpyHostToDevice, s));
    prac11_mark(m, 3 * i, 1, s, j + 1);
    prac11_mark(m, 3 * i + 1, 0, s, j + 1);
    do_work<<<c.nblocks, WS2_BLOCK, 0, s>>>(w->d_data, w->n, c.block0, w->iters);
    getLastCudaError("do_work execution failed");
    prac11_mark(m, 3 * i + 1, 1, s, j + 1);
    prac11_mark(m, 3 * i + 2, 0, s, j + 1);
    checkCudaErrors(cudaMemcpyAsync(w->h_data + c.first, w->d_data + c.first, bytes, cudaMemcpyDeviceToHost, s));
    prac11_mark(m, 3 * i + 2, 1, s, j + 1);
  }
  checkCudaErrors(cudaDeviceSynchronize());
  prac11_marks_write(m, w->start, program);
}

// -timeline's two runs, each from the inputs and checked against the gold into tl[0] (not chunked) and tl[1] (the
// course's chunks); nothing without -timeline (m NULL: tl[] all passes). host: what the host array is. The inputs
// are made again (the course's srand(0) sequence): by now h_page holds work_streaming's results, made in place
static void ws2_timeline(ws2_t *w, prac11_marks_t *m, const double *h_gold, gold_stats tl[2], const char *host) {
  memset(tl, 0, 2 * sizeof(gold_stats));
  for (int r = 0; m != NULL && r < 2; r++) {
    prac12_inputs(w->h_data, (size_t)w->n, 1.0);
    ws2_timeline_run(w, m, r ? w->chunks : 1, r ? "work_streaming2_chunked" : "work_streaming2_not_chunked");
    compare_double(w->h_data, h_gold, (size_t)w->n, 0.0, PRAC12_RTOL, &tl[r]);
    char name[160];
    snprintf(name, sizeof(name), "the timeline's run, %s, from %s", r ? "chunked" : "not chunked", host);
    gold_report(name, &tl[r]);
  }
}

#endif
