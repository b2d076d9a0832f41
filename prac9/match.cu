/*
 * match.cu -- practical 9, step 1: counting 4-byte words in a text, the course's program and its GPU design.
 *
 * As the course's match.cu: the text is this program's own source file (match.cu, found beside the binary
 * wherever it is run from), the words are "cuti", "gold", "text" and "word", each packed into one unsigned
 * int, and the course's gold prints its line ` CPU matches = ...` first. Then the workbook's lines: the GPU's
 * counts, held to the exact count at every byte position 0 to length - 4 (prac9_gold.h says how that differs
 * from the course's count: only for a word ending in spaces), the time, and the verdict.
 * The GPU part is the course's design (match_kernel.cuh): one thread per word, a chunk of text and its three
 * shifted copies in shared memory.
 *   -kernel=1  one block over the whole text (the course: "first for a single thread block")
 *   -kernel=2  many blocks, each a section of the text; the blocks' counts summed by a second kernel
 * Try -file=ANY, -words=than,into,word (4 bytes each), -gen=N (N bytes of generated prose, -seed=), -nwords=N.
 * Built with -DEXERCISE (make exercises), the kernels are exercises/match_kernel.cuh, to be written.
 *   nvcc -O3 -arch=native -I../common match.cu match_gold.c -o match
 */
#define COURSE_STEPS "practical 9, workbook step 1 (the course's design, its steps (a)-(g): one block, then many)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 1)s in exercises/match_kernel.cuh"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "match_text.h"
#include "prac9_gold.h"

#define MATCH_CHUNK 1024       // ints of text per chunk: 4 KB, and 12 KB for its three shifted copies
#define MATCH_THREADS_MIN 128  // threads per block at least: with few words, more threads share the loading
#define MATCH_THREADS_MAX 1024 // and at most (the kernels' __launch_bounds__): past 1024 words, 2 to 4 per thread
#define MATCH_SLOTS 4          // words per thread at most
#define MATCH_WORDS_MAX 4096
static_assert(MATCH_SLOTS * MATCH_THREADS_MAX >= MATCH_WORDS_MAX, "one block must hold every word");

#ifndef EXERCISE
#include "match_kernel.cuh"
#else
#include "exercises/match_kernel.cuh"
#endif

// everything a run needs, so that time_median_ms (timing.h) can repeat it
typedef struct {
  int kernel, nblocks, nthreads, nwords;
  const unsigned *d_text, *d_words;
  size_t nints, npos, section;
  int *d_partial, *d_counts;
} match_launch;

static void run_match(void *p) {
  const match_launch *m = (const match_launch *)p;
  if (m->kernel == 1) {
    match_one_block<<<1, m->nthreads>>>(m->d_text, m->nints, m->npos, m->d_words, m->nwords, m->d_counts);
    getLastCudaError("match_one_block execution failed");
  } else {
    match_blocks<<<m->nblocks, m->nthreads>>>(m->d_text, m->nints, m->npos, m->section, m->d_words, m->nwords,
                                              m->d_partial);
    getLastCudaError("match_blocks execution failed");
    match_sum<<<ceil_div(m->nwords, 256), 256>>>(m->d_partial, m->nblocks, m->nwords, m->d_counts);
    getLastCudaError("match_sum execution failed");
  }
}

// the outputs poisoned (0xff bytes: -1, which no count is), so that a count nobody stores cannot pass
static void poison(const match_launch *m) {
  checkCudaErrors(cudaMemset(m->d_counts, 0xff, sizeof(int) * m->nwords));
  if (m->d_partial) checkCudaErrors(cudaMemset(m->d_partial, 0xff, sizeof(int) * m->nwords * (size_t)m->nblocks));
}

// the course's line format, for any number of words: " CPU matches = 3 3 12 16 "
static void print_counts(const char *who, const int *counts, int nwords) {
  printf(" %s matches =", who);
  for (int w = 0; w < nwords; w++) printf(" %d", counts[w]);
  printf(" \n");
}

int main(int argc, char **argv) {
  const char *file = "match.cu", *words_arg = "cuti,gold,text,word";
  long long gen = 0;
  int nwords = 4, seed = 1, kernel = 2, bench = 0, reps = 10;
  arg_spec opts[] = {
      {"file", ARG_WORD, &file, 0, 0, "the text (not given: match.cu beside this program, its own source)"},
      {"words", ARG_WORD, &words_arg, 0, 0, "the words, each exactly 4 bytes, comma-separated (1 to 4096)"},
      {"nwords", ARG_INT, &nwords, 1, MATCH_WORDS_MAX, "instead of -words: N words, half of them from the text"},
      {"gen", ARG_LONG, &gen, 0, (double)MATCH_MAX_LENGTH, "instead of a file: N bytes of generated prose"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of -gen's text and -nwords's words"},
      {"kernel", ARG_INT, &kernel, 1, 2, "1: one block; 2: a section of the text per block, then a sum"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time against a read-only stream of the same bytes; a BENCH line"},
      {"reps", ARG_INT, &reps, 0, 1000, "timed runs, their median printed (0: none)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int generated = args_given(argc, argv, "gen"), picked = args_given(argc, argv, "nwords");
  if (generated && args_given(argc, argv, "file")) args_fail("-gen and -file are two texts: give one");
  if (picked && args_given(argc, argv, "words")) args_fail("-words and -nwords are two sets of words: give one");
  if (bench && reps == 0) args_fail("-bench times the kernel: -reps=1 at least");

  // the words, and the text: a file is read now, so that one that cannot be read is bad input, before the GPU
  unsigned char *h_wbytes = (unsigned char *)malloc(MATCH_WORD_BYTES * MATCH_WORDS_MAX);
  if (!h_wbytes) return result_fail("out of host memory");
  if (!picked) nwords = parse_words(words_arg, h_wbytes, MATCH_WORDS_MAX);
  char path[PATH_MAX + 32];
  size_t length = (size_t)gen;
  unsigned char *h_text = NULL;
  if (!generated)
    h_text = read_text_or_default(args_given(argc, argv, "file"), file, argv[0], path, sizeof(path), &length);

  int dev = findCudaDevice(argc, argv);
  size_t npos = match_positions(length), nints = length / 4 + 1; // the last int part text, part zeros
  int nthreads = ceil_div(nwords, 32) * 32;                      // step (b): a thread per word, whole warps
  if (nthreads < MATCH_THREADS_MIN) nthreads = MATCH_THREADS_MIN;
  if (nthreads > MATCH_THREADS_MAX) nthreads = MATCH_THREADS_MAX;
  // kernel 2: as many blocks as fit on the GPU at once, each a section of whole chunks (none empty)
  size_t chunk_bytes = 4 * MATCH_CHUNK, nchunks = npos ? ceil_div(npos, chunk_bytes) : 1;
  size_t nblocks = (size_t)device_limits(dev)->sms * occupancy_blocks_per_sm(match_blocks, dev, nthreads, 0);
  if (nblocks > nchunks) nblocks = nchunks;
  if (nblocks < 1) nblocks = 1;
  size_t section = ceil_div(nchunks, nblocks) * chunk_bytes;
  nblocks = npos ? ceil_div(npos, section) : 1;
  size_t dev_bytes = nints * 4 + 2 * sizeof(int) * nwords + (kernel == 2 ? sizeof(int) * nwords * nblocks : 0);
  device_memory_check(dev_bytes, "the text and the counts", generated || args_given(argc, argv, "file"));

  // a generated text: prose, then (once the words are known) the words planted in it
  if (generated) {
    h_text = (unsigned char *)malloc(length ? length : 1);
    if (!h_text) return result_fail("out of host memory");
    match_generate(h_text, length, (unsigned)seed);
  }
  if (picked) match_pick_words(h_wbytes, nwords, h_text, length, (unsigned)seed);
  size_t planted = generated ? match_plant(h_text, length, h_wbytes, nwords, chunk_bytes, NULL, NULL, 0) : 0;
  unsigned *h_words = (unsigned *)malloc(sizeof(unsigned) * nwords);
  int *h_course = (int *)malloc(3 * sizeof(int) * nwords), *h_gold = h_course + nwords, *h_gpu = h_gold + nwords;
  if (!h_words || !h_course) return result_fail("out of host memory");
  for (int w = 0; w < nwords; w++) h_words[w] = match_pack(h_wbytes + MATCH_WORD_BYTES * w);

  // CPU execution: the course's count and its line first, then the exact count the GPU is held to
  match_gold_course(h_text, length, h_words, nwords, h_course);
  print_counts("CPU", h_course, nwords);
  double t0 = wall_ms();
  match_gold_exact(h_text, length, h_wbytes, nwords, h_gold);
  double gold_ms = wall_ms() - t0;
  if (generated)
    printf("text: %zu bytes of prose from -seed=%d, %zu words planted (start, end, across 4-byte and chunk bounds)",
           length, seed, planted);
  else
    printf("text: %s%s, %zu bytes", path, args_given(argc, argv, "file") ? "" : " (this program's source)", length);
  printf("; %d word%s:", nwords, nwords > 1 ? "s" : "");
  for (int w = 0; w < nwords && w < 8; w++) printf(" '%.4s'", (const char *)h_wbytes + MATCH_WORD_BYTES * w);
  printf("%s\n", nwords > 8 ? " ..." : "");
  int ndiff = 0;
  for (int w = 0; w < nwords; w++) ndiff += h_course[w] != h_gold[w];
  printf("gold (the GPU is held to it): the exact count at every byte position 0 to length - 4 (%zu positions, "
         "%.1f ms); the course's count above %s\n",
         npos, gold_ms, ndiff ? "differs: a word ending in spaces matched its 4 spaces of padding" : "agrees");

  // copy the text and the words to device memory (step (a)); the text's last int is padded with zeros
  match_launch m = {kernel, (int)nblocks, nthreads, nwords, NULL, NULL, nints, npos, section, NULL, NULL};
  unsigned *d_text, *d_words;
  checkCudaErrors(cudaMalloc((void **)&d_text, nints * 4));
  checkCudaErrors(cudaMalloc((void **)&d_words, sizeof(unsigned) * nwords));
  checkCudaErrors(cudaMalloc((void **)&m.d_counts, sizeof(int) * nwords));
  if (kernel == 2) checkCudaErrors(cudaMalloc((void **)&m.d_partial, sizeof(int) * nwords * nblocks));
  m.d_text = d_text, m.d_words = d_words;
  checkCudaErrors(cudaMemset(d_text + length / 4, 0, 4));
  event_timer tc = event_timer_start();
  checkCudaErrors(cudaMemcpy(d_text, h_text, length, cudaMemcpyHostToDevice));
  float copy_ms = event_timer_stop(&tc);
  checkCudaErrors(cudaMemcpy(d_words, h_words, sizeof(unsigned) * nwords, cudaMemcpyHostToDevice));

  // GPU execution, into poisoned counts, and the check
  poison(&m);
  run_match(&m);
  checkCudaErrors(cudaMemcpy(h_gpu, m.d_counts, sizeof(int) * nwords, cudaMemcpyDeviceToHost));
  print_counts("GPU", h_gpu, nwords);
  gold_stats st; // exact: compare_int (gold_check.h) with no tolerance; st.first_bad the first that differs
  int nbad = (int)compare_int(h_gpu, h_gold, (size_t)nwords, &st), first = (int)st.first_bad;
  if (kernel == 1)
    printf("kernel 1 (one block of %d threads, chunks of %d bytes): ", nthreads, 4 * MATCH_CHUNK);
  else
    printf("kernel 2 (%zu blocks of %d threads, sections of %zu bytes, then match_sum): ", nblocks, nthreads, section);
  printf("%d of %d counts differ from the exact gold", nbad, nwords);
  if (nbad) printf(", first '%.4s': GPU %d, gold %d", (const char *)h_wbytes + 4 * first, h_gpu[first], h_gold[first]);
  printf("\n");

  // timing: the median of reps runs (CUDA events), poisoned before, and what the last one left checked again
  int nbad_timed = 0;
  if (reps > 0) {
    poison(&m);
    char prog[32], size[32], extra[96];
    float ms;
    if (bench) {
      bench_ref ref = bench_reference(dev, (double)length, reps);
      ref.read_only = 1; // the text is read once, nwords ints written: the 100 % line is a read-only stream
      snprintf(prog, sizeof(prog), "match_k%d", kernel);
      snprintf(size, sizeof(size), "%zu", length);
      snprintf(extra, sizeof(extra), "kernel=%d words=%d blocks=%d threads=%d", kernel, nwords, m.nblocks, nthreads);
      ms = bench_report(&ref, "9", prog, size, run_match, &m, reps, (double)length, extra);
    } else {
      ms = time_median_ms(run_match, &m, 3, reps);
    }
    checkCudaErrors(cudaMemcpy(h_gpu, m.d_counts, sizeof(int) * nwords, cudaMemcpyDeviceToHost));
    nbad_timed = (int)compare_int(h_gpu, h_gold, (size_t)nwords, &st);
    printf("kernel %d: %.4f ms (median of %d runs, CUDA events), %.2f GB/s of text; the copy of the text to the "
           "device %.3f ms; the last timed run's counts %s\n",
           kernel, ms, reps, length / (ms * 1e-3) / 1e9, copy_ms, nbad_timed ? "differ from the gold" : "agree");
  }

  // Release GPU and CPU memory
  checkCudaErrors(cudaFree(d_text));
  checkCudaErrors(cudaFree(d_words));
  checkCudaErrors(cudaFree(m.d_counts));
  if (m.d_partial) checkCudaErrors(cudaFree(m.d_partial));
  free(h_text), free(h_wbytes), free(h_words), free(h_course);
  if (nbad) return result_check(0, "%d of %d word counts differ from the exact gold", nbad, nwords);
  return result_check(nbad_timed == 0, "the last timed run: %d of %d word counts differ", nbad_timed, nwords);
}
