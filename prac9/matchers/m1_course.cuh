/*
 * m1_course.cuh -- match_ladder kernel 1: the course's design, as match -kernel=2 runs it (match_kernel.cuh): one
 * thread per word, a 4 KB chunk of text and its three shifted copies in shared memory, a section of the text per
 * block, the blocks' counts summed by match_sum. Every thread reads every position of the chunk from shared
 * memory and compares it with its word: with 4 words, 124 of a block's 128 threads have no word, and the 4 that
 * have one do the whole chunk's 4096 compares each. The kernel the rest of the ladder is measured against.
 */
#define MATCH_CHUNK 1024       // as match.cu's: ints of text per chunk
#define MATCH_THREADS_MIN 128  // threads per block at least
#define MATCH_THREADS_MAX 1024 // and at most: past 1024 words, 2 to 4 per thread
#define MATCH_SLOTS 4          // words per thread at most
#include "../match_kernel.cuh"

typedef struct {
  int nthreads, nblocks;
  size_t section; // bytes of positions per block, whole chunks
  int *d_partial; // nblocks x nwords counts
} course_plan;

// match.cu's sizes: a thread per word, in whole warps, 128 to 1024; sections of whole chunks, one per block,
// as many blocks as are resident at once (fewer when the text has fewer chunks)
static course_plan course_setup(int dev, size_t npos, int nwords) {
  course_plan c;
  c.nthreads = (nwords + 31) / 32 * 32;
  if (c.nthreads < MATCH_THREADS_MIN) c.nthreads = MATCH_THREADS_MIN;
  if (c.nthreads > MATCH_THREADS_MAX) c.nthreads = MATCH_THREADS_MAX;
  size_t chunk = 4 * MATCH_CHUNK, nchunks = npos ? (npos + chunk - 1) / chunk : 1;
  size_t nb = (size_t)device_limits(dev)->sms * occupancy_blocks_per_sm(match_blocks, dev, c.nthreads, 0);
  if (nb > nchunks) nb = nchunks;
  if (nb < 1) nb = 1;
  c.section = (nchunks + nb - 1) / nb * chunk;
  c.nblocks = npos ? (int)((npos + c.section - 1) / c.section) : 1;
  c.d_partial = NULL;
  return c;
}

static void run_course(const ladder_plan *p) {
  const course_plan *c = (const course_plan *)p->step1;
  match_blocks<<<c->nblocks, c->nthreads>>>((const unsigned *)p->d_text, p->length / 4 + 1, p->npos, c->section,
                                            p->d_words, p->nwords, c->d_partial);
  getLastCudaError("match_blocks execution failed");
  match_sum<<<(p->nwords + 255) / 256, 256>>>(c->d_partial, c->nblocks, p->nwords, (int *)p->d_counts);
  getLastCudaError("match_sum execution failed");
}
