/*
 * priority_pool.cuh -- practical 12, step 3: graphs.cu's last two parts, two more tools of the streams API, kept
 * apart from the graphs so that each file holds its lessons. Included by graphs.cu after its helpers, which both
 * parts use: add (a small kernel in a stream), check_slots and fail_once (the checks and the verdict), skip_part.
 *   priority  short kernels' latency (an event pair each) on an idle GPU, then beside a stream of the lowest
 *             priority whose long kernels fill every SM, from a stream of that priority and from one of the highest
 *             (cudaDeviceGetStreamPriorityRange, cudaStreamCreateWithPriority): no verdict on the times
 *   pool      allocations freed at once, in a loop: cudaMalloc/cudaFree against cudaMallocAsync/cudaFreeAsync from
 *             the device's default pool, and its release threshold (what the pool keeps at a synchronisation)
 */
#ifndef PRIORITY_POOL_CUH
#define PRIORITY_POOL_CUH

#define GR_LONG_THREADS 256 // the long kernels' blocks: a few fill an SM
#define GR_LONG_WAVES 2     // blocks per long kernel: twice what the GPU holds at once, so it fills every SM
#define GR_USE_THREADS 256  // the pool part's kernel: one block

// the priority part's long kernel: thread i takes v = i through iters steps of a 64-bit LCG (graphs.cuh), each a
// multiply that waits for the one before, so the block holds its SM for as long as iters says
__global__ void GPU_long(unsigned long long *out, int iters) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long v = i;
  for (int k = 0; k < iters; k++) v = v * GR_LCG_A + GR_LCG_C;
  out[i] = v;
}

// part priority: -short short kernels one at a time, each waited for, on an idle GPU, then while -long long kernels
// run in a stream of the lowest priority: from a stream of that priority, then from one of the highest
static void part_priority(int dev, long long *d_x, long long *h_x, int nlong, int spin, int nshort) {
  int least, greatest;
  checkCudaErrors(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  if (least == greatest) return skip_part("priority", "this device has a single stream priority");
  int blocks = GR_LONG_WAVES * device_limits(dev)->sms * occupancy_blocks_per_sm(GPU_long, dev, GR_LONG_THREADS, 0);
  size_t T = (size_t)blocks * GR_LONG_THREADS;
  unsigned long long *d_long, *h_long = (unsigned long long *)malloc(T * sizeof(*h_long));
  cudaEvent_t *ev = (cudaEvent_t *)malloc((2 * nshort + 2) * sizeof(cudaEvent_t)); // begin, end each; start, done
  if (!h_long || !ev) exit(result_fail("out of host memory"));
  checkCudaErrors(cudaMalloc((void **)&d_long, T * sizeof(*d_long)));
  for (int i = 0; i < 2 * nshort + 2; i++) checkCudaErrors(cudaEventCreate(&ev[i]));
  cudaEvent_t start = ev[2 * nshort], done = ev[2 * nshort + 1];
  cudaStream_t s_long, s_short[2]; // [0]: the long kernels' priority, the lowest; [1]: the highest
  checkCudaErrors(cudaStreamCreateWithPriority(&s_long, cudaStreamNonBlocking, least));
  checkCudaErrors(cudaStreamCreateWithPriority(&s_short[0], cudaStreamNonBlocking, least));
  checkCudaErrors(cudaStreamCreateWithPriority(&s_short[1], cudaStreamNonBlocking, greatest));
  gr_affine steps = gr_lcg_steps(spin);
  const char *row[3] = {"idle", "same", "high"};
  printf("priority: %d short kernels (one block of one thread), each waited for; stream priorities %d (lowest) to %d "
         "(highest); the long kernels: %d of %d blocks x %d threads, %d steps per thread, at the lowest\n",
         nshort, least, greatest, nlong, blocks, GR_LONG_THREADS, spin);
  printf("%-44s %9s %10s %10s %16s %14s\n", "short kernels", "priority", "median us", "max us", "during the long",
         "long kernels ms");
  for (int r = 0; r < 3; r++) {
    cudaStream_t ss = s_short[r == 2];
    checkCudaErrors(cudaMemset(d_x, GR_POISON_BYTE, nshort * sizeof(long long)));
    checkCudaErrors(cudaMemset(d_long, GR_POISON_BYTE, T * sizeof(*d_long)));
    checkCudaErrors(cudaDeviceSynchronize());
    if (r > 0) {
      checkCudaErrors(cudaEventRecord(start, s_long));
      for (int j = 0; j < nlong; j++) {
        GPU_long<<<blocks, GR_LONG_THREADS, 0, s_long>>>(d_long, spin);
        getLastCudaError("GPU_long execution failed");
      }
      checkCudaErrors(cudaEventRecord(done, s_long));
    }
    int during = 0; // short kernels that ended while the long ones still ran: only these measured a wait
    float us[TIMING_MAX_REPS], long_ms = 0.0f;
    for (int i = 0; i < nshort; i++) {
      checkCudaErrors(cudaEventRecord(ev[2 * i], ss));
      add(d_x, i, 0, 0, ss);
      checkCudaErrors(cudaEventRecord(ev[2 * i + 1], ss));
      checkCudaErrors(cudaEventSynchronize(ev[2 * i + 1]));
      cudaError_t q = r > 0 ? cudaEventQuery(done) : cudaSuccess;
      if (q == cudaErrorNotReady)
        during++, (void)cudaGetLastError(); // not an error: the long kernels are still running
      else
        checkCudaErrors(q);
    }
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < nshort; i++) {
      checkCudaErrors(cudaEventElapsedTime(&us[i], ev[2 * i], ev[2 * i + 1]));
      us[i] *= 1e3f;
    }
    if (r > 0) checkCudaErrors(cudaEventElapsedTime(&long_ms, start, done));
    check_slots(d_x, h_x, nshort, 0, 0, "short kernels");
    if (r > 0) { // the long kernels' output against its gold, a_n i + c_n
      checkCudaErrors(cudaMemcpy(h_long, d_long, T * sizeof(*h_long), cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (size_t i = 0; i < T; i++) bad += h_long[i] != steps.a * i + steps.c;
      if (bad) fail_once("the long kernels: %zu of %zu values wrong", bad, T);
    }
    float mx = 0.0f;
    for (int i = 0; i < nshort; i++) mx = us[i] > mx ? us[i] : mx;
    float med = median_float(us, nshort);
    const char *what[3] = {"alone, on an idle GPU", "beside the long kernels, the same priority",
                           "beside the long kernels, the highest priority"};
    printf("%-44s %9d %10.2f %10.2f %10d/%-5d %14.3f\n", what[r], r == 2 ? greatest : least, med, mx, during, nshort,
           long_ms);
    char prog[64], size[16], extra[160];
    snprintf(prog, sizeof(prog), "graphs_priority_%s", row[r]);
    snprintf(size, sizeof(size), "%d", nshort);
    snprintf(extra, sizeof(extra), "long=%d spin=%d ms_max=%.4f ms_long=%.3f pct_during=%.0f", r ? nlong : 0, spin,
             mx * 1e-3, long_ms, 100.0 * during / nshort);
    print_bench("12", prog, size, 1, med * 1e-3, -1.0, NULL, extra);
  }
  printf("(a latency measured while no long kernel ran is no wait for one: see the column of those that ended "
         "during them; -long= and -spin= lengthen them)\n");
  checkCudaErrors(cudaStreamDestroy(s_long));
  for (int i = 0; i < 2; i++) checkCudaErrors(cudaStreamDestroy(s_short[i]));
  for (int i = 0; i < 2 * nshort + 2; i++) checkCudaErrors(cudaEventDestroy(ev[i]));
  checkCudaErrors(cudaFree(d_long));
  free(h_long), free(ev);
}

// the pool part's kernel, one block on allocation i: words at both ends written, then the first and last read back
__global__ void GPU_use(long long *p, size_t words, int i, long long *out) {
  size_t t = threadIdx.x;
  if (t < words) p[t] = i + (long long)t, p[words - 1 - t] = i + (long long)(words - 1 - t);
  __syncthreads();
  if (t == 0) out[i] = p[0] + p[words - 1];
}

// One loop of part pool, way w: 0 cudaMalloc/cudaFree; 1 cudaMallocAsync/cudaFreeAsync in s; 2 and 3 the same with
// s synchronised after each pair, as a loop with host work between its allocations does. With d_out, GPU_use on each
// allocation. Host ms for the loop, to its end on the GPU
static double pool_loop(int w, int allocs, size_t bytes, cudaStream_t s, long long *d_out) {
  double t0 = wall_ms();
  for (int i = 0; i < allocs; i++) {
    long long *p;
    checkCudaErrors(w ? cudaMallocAsync((void **)&p, bytes, s) : cudaMalloc((void **)&p, bytes));
    if (d_out) {
      GPU_use<<<1, GR_USE_THREADS, 0, s>>>(p, bytes / sizeof(long long), i, d_out);
      getLastCudaError("GPU_use execution failed");
      // cudaFree is not ordered in s as cudaFreeAsync is: p must not be freed while the kernel queued in s may
      // still use it, so the loop waits for s first
      if (w == 0) checkCudaErrors(cudaStreamSynchronize(s));
    }
    checkCudaErrors(w ? cudaFreeAsync(p, s) : cudaFree(p));
    if (w >= 2) checkCudaErrors(cudaStreamSynchronize(s));
  }
  checkCudaErrors(cudaStreamSynchronize(s));
  return wall_ms() - t0;
}

static void part_pool(int dev, int allocs, size_t bytes, int reps, cudaStream_t s) {
  int ok = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&ok, cudaDevAttrMemoryPoolsSupported, dev));
  if (!ok) return skip_part("pool", "this device has no memory pools (cudaDevAttrMemoryPoolsSupported = 0)");
  cudaMemPool_t pool;
  unsigned long long keep0, keep_all = ~0ULL; // the pool's release threshold, as found and raised
  checkCudaErrors(cudaDeviceGetDefaultMemPool(&pool, dev));
  checkCudaErrors(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep0));
  long long *d_out, *h_out = (long long *)malloc(allocs * sizeof(long long));
  if (!h_out) exit(result_fail("out of host memory"));
  checkCudaErrors(cudaMalloc((void **)&d_out, allocs * sizeof(long long)));
  const char *way[4] = {"cudaMalloc/cudaFree", "cudaMallocAsync/cudaFreeAsync",
                        "cudaMallocAsync/cudaFreeAsync, synchronised", "the same, release threshold raised"};
  const char *key[4] = {"malloc", "async", "async_sync", "async_keep"};
  printf("pool: %d allocations of %zu bytes, each freed at once, host us per pair (median of %d loops); the default "
         "pool's release threshold %llu bytes (what it keeps at a synchronisation)\n",
         allocs, bytes, reps, keep0);
  for (int w = 0; w < 4; w++) {
    if (w == 3) checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
    float t[TIMING_MAX_REPS];
    pool_loop(w, allocs, bytes, s, NULL); // warm-up
    for (int r = 0; r < reps; r++) t[r] = (float)pool_loop(w, allocs, bytes, s, NULL);
    float ms = median_float(t, reps);
    // the checked loop, its output poisoned first in s (a non-blocking stream: stream 0's memset would not be ordered)
    checkCudaErrors(cudaMemsetAsync(d_out, GR_POISON_BYTE, allocs * sizeof(long long), s));
    pool_loop(w, allocs, bytes, s, d_out);
    checkCudaErrors(cudaMemcpy(h_out, d_out, allocs * sizeof(long long), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int i = 0; i < allocs; i++) bad += h_out[i] != gr_use_gold(i, bytes / sizeof(long long));
    g_checked++;
    if (bad) fail_once("pool, %s: %zu of %d allocations' values wrong", way[w], bad, allocs);
    if (w == 3) checkCudaErrors(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep0));
    printf("  %-44s %10.3f us per pair\n", way[w], 1e3 * ms / allocs);
    char prog[64], size[48];
    snprintf(prog, sizeof(prog), "graphs_pool_%s", key[w]);
    snprintf(size, sizeof(size), "%dx%zu", allocs, bytes);
    print_bench("12", prog, size, reps, ms / allocs, -1.0, NULL, NULL);
  }
  checkCudaErrors(cudaFree(d_out));
  free(h_out);
}

#endif /* PRIORITY_POOL_CUH */
