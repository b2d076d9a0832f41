/*
 * match_ladder.cu -- practical 9, steps 2 and 4: counting 4-byte words at memory speed, one kernel a file, each
 * checked against the exact count and timed against a kernel that only reads the text:
 *   -kernel=0  read_text: read the text once and reduce it, the bound for any matcher     matchers/m0_read.cuh
 *   -kernel=1  course:   the course's design (match -kernel=2), one thread per word         matchers/m1_course.cuh
 *   -kernel=2  position: one thread per position, words in constant memory, warp votes   matchers/m2_position.cuh
 *   -kernel=3  funnel:   16 bytes per thread, 16 windows by __funnelshift_r               matchers/m3_funnel.cuh
 *   -kernel=4  regs:     words and counts in registers, one atomic per word per block     matchers/m4_regs.cuh
 *   -kernel=5  hash:     many words: a hash table of them in shared memory                matchers/m5_hash.cuh
 * Default: every kernel, each held to the exact count (match_count_cpu, on every core). -bench: the table against
 * kernel 0 and a read-only stream, the CPU on every core, and GNU grep -F -c with the same words on the same text
 * where grep exists (its count is of lines, checked against the lines that hold a match). -sweep: kernels 3 to 5
 * for 1 to 4096 words, to see where comparing every word stops being a matter of memory.
 * The text and the words as match's: -file=, -gen=N, -seed=, -words=, -nwords=; the default is match.cu.
 * Built with -DEXERCISE (make exercises), kernel 3's windows are exercises/m3_windows.cuh, to be written.
 *   nvcc -O3 -arch=native -I../common match_ladder.cu match_gold.c -Xcompiler -fopenmp -o match_ladder
 */
#define COURSE_STEPS "practical 9, workbook steps 2 and 4 (beyond the course: its design, then at memory speed)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 2) in exercises/m3_windows.cuh"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "match_text.h"
#include "prac9_gold.h"

#include "matchers/match_plan.cuh" // first: what every kernel shares

#include "matchers/m0_read.cuh"
#include "matchers/m1_course.cuh"
#include "matchers/m2_position.cuh"
#include "matchers/m3_funnel.cuh" // (with -DEXERCISE, its windows are exercises/m3_windows.cuh)
#include "matchers/m4_regs.cuh"
#include "matchers/m5_hash.cuh"

#define NSTEPS 6
static const char *step_name[NSTEPS] = {"read_text", "course", "position", "funnel", "regs", "hash"};
static void (*const step_fn[NSTEPS])(const ladder_plan *) = {run_read,   run_course, run_position,
                                                             run_funnel, run_regs,   run_hash};

typedef struct {
  ladder_plan *p;
  const int *gold;   // the exact counts
  unsigned text_xor; // kernel 0's answer: the xor of every int of the padded text
  int *h_counts;     // room for nwords counts
  const unsigned char *h_wbytes;
} ladder_ctx;

// what is timed: kernels 2-5 add to the counts, so they start from zero; kernel 1's match_sum writes every count
static void run_step(void *ctx, int k) {
  ladder_plan *p = ((ladder_ctx *)ctx)->p;
  if (k >= 2) checkCudaErrors(cudaMemsetAsync(p->d_counts, 0, sizeof(unsigned) * p->nwords));
  step_fn[k](p);
}

// the output of kernel k's last run against the gold: the counts exactly, or kernel 0's xor; one line if not
static int outcome(void *ctx, int k) {
  ladder_ctx *c = (ladder_ctx *)ctx;
  const ladder_plan *p = c->p;
  if (k == 0) {
    unsigned *h_sink = (unsigned *)malloc(sizeof(unsigned) * p->blocks[0]), x = 0;
    if (!h_sink) return 0;
    checkCudaErrors(cudaMemcpy(h_sink, p->d_sink, sizeof(unsigned) * p->blocks[0], cudaMemcpyDeviceToHost));
    for (int b = 0; b < p->blocks[0]; b++) x ^= h_sink[b];
    free(h_sink);
    checkCudaErrors(cudaMemset(p->d_sink, 0xff, sizeof(unsigned) * p->blocks[0]));
    if (x != c->text_xor) printf("  read_text: the xor of the text is %08x, not %08x\n", x, c->text_xor);
    return x == c->text_xor;
  }
  checkCudaErrors(cudaMemcpy(c->h_counts, p->d_counts, sizeof(int) * p->nwords, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemset(p->d_counts, 0xff, sizeof(unsigned) * p->nwords)); // poisoned for the next kernel
  gold_stats st;
  size_t nbad = compare_int(c->h_counts, c->gold, (size_t)p->nwords, &st);
  if (nbad)
    printf("  %s: %zu of %d counts differ from the exact gold, first '%.4s': GPU %d, gold %d\n", step_name[k], nbad,
           p->nwords, (const char *)c->h_wbytes + 4 * st.first_bad, c->h_counts[st.first_bad], c->gold[st.first_bad]);
  return nbad == 0;
}

static int check_step(void *ctx, int k) { // on poisoned counts (outcome leaves them so), one run
  run_step(ctx, k);
  return outcome(ctx, k);
}
static void time_step(void *ctx, int k) { run_step(ctx, k); }
static void bench_keys(void *ctx, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  snprintf(prog, nprog, "match_%s", step_name[k]);
  snprintf(extra, nextra, "kernel=%d words=%d x_read_text=%.3f", k, ((ladder_ctx *)ctx)->p->nwords, ms[0] / ms[k]);
}

typedef struct {
  ladder_ctx *c;
  int k;
} step_call;
static void time_call(void *arg) { run_step(((step_call *)arg)->c, ((step_call *)arg)->k); }

// -sweep: kernels 3 to 5 for the first 1, 2, 4, ... 4096 of -nwords's words (their counts are the gold's first ones)
static int run_sweep(ladder_ctx *c, int dev, const unsigned *h_words, int reps) {
  ladder_plan *p = c->p;
  hash_plan *hp = (hash_plan *)p->step5;
  const int sms = device_limits(dev)->sms;
  char why[256];
  int ok = 1;
  printf("words   funnel GB/s   regs GB/s   hash GB/s   (GB/s of text, each count checked before and after)\n");
  for (int nw = 1; nw <= LADDER_WORDS_MAX; nw *= 2) {
    p->nwords = nw;
    p->blocks[3] = sms * occupancy_blocks_per_sm(match_funnel, dev, LADDER_THREADS, 4 * nw);
    hash_free(hp);
    int have = hash_setup(hp, dev, h_words, nw, why, sizeof(why));
    if (have) p->blocks[5] = sms * occupancy_blocks_per_sm(match_hash, dev, LADDER_THREADS, hp->smem);
    printf("%5d", nw);
    for (int k = 3; k <= 5; k++) {
      if (k == 5 && !have) {
        printf("  %10s", "SKIP");
        continue;
      }
      int good = check_step(c, k);
      step_call sc = {c, k};
      double ms = time_median_ms(time_call, &sc, 1, reps);
      good = outcome(c, k) && good;
      printf("  %10.1f%s", p->length / (ms * 1e-3) / 1e9, good ? "" : " FAILED");
      ok = ok && good;
    }
    printf("\n");
  }
  return ok;
}

int main(int argc, char **argv) {
  const char *file = "match.cu", *words_arg = "cuti,gold,text,word";
  long long gen = 0;
  int nwords = 4, seed = 1, kernel = -1, bench = 0, reps = 20, sweep = 0;
  arg_spec opts[] = {
      {"file", ARG_WORD, &file, 0, 0, "the text (not given: match.cu beside this program)"},
      {"words", ARG_WORD, &words_arg, 0, 0, "the words, each exactly 4 bytes, comma-separated (1 to 4096)"},
      {"nwords", ARG_INT, &nwords, 1, LADDER_WORDS_MAX, "instead of -words: N words, half of them from the text"},
      {"gen", ARG_LONG, &gen, 0, (double)MATCH_MAX_LENGTH, "instead of a file: N bytes of generated prose"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of -gen's text and -nwords's words"},
      {"kernel", ARG_INT, &kernel, -1, NSTEPS - 1, "the kernel: 0 read only, 1 the course's, 2-5 the ladder; -1 all"},
      {"bench", ARG_FLAG, &bench, 0, 1, "the table of every kernel, the CPU and grep; BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed runs of each kernel, their median used (every mode)"},
      {"sweep", ARG_FLAG, &sweep, 0, 1, "kernels 3-5 for 1, 2, 4, ... 4096 words (-nwords's words)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int generated = args_given(argc, argv, "gen"), picked = args_given(argc, argv, "nwords") || sweep;
  if (generated && args_given(argc, argv, "file")) args_fail("-gen and -file are two texts: give one");
  if (picked && args_given(argc, argv, "words")) args_fail("-words and -nwords (or -sweep) are two sets of words");
  if ((bench || sweep) && kernel >= 0) args_fail("-bench and -sweep run every kernel: leave out -kernel");
  if (bench && sweep) args_fail("-bench and -sweep are two runs: give one");

  unsigned char *h_wbytes = (unsigned char *)malloc(4 * LADDER_WORDS_MAX);
  if (!h_wbytes) return result_fail("out of host memory");
  if (!picked) nwords = parse_words(words_arg, h_wbytes, LADDER_WORDS_MAX);
  if (sweep) nwords = LADDER_WORDS_MAX;
  char path[PATH_MAX + 32], why[PATH_MAX + 128];
  size_t length = (size_t)gen;
  unsigned char *h_text = NULL;
  if (!generated)
    h_text = read_text_or_default(args_given(argc, argv, "file"), file, argv[0], path, sizeof(path), &length);
  int dev = findCudaDevice(argc, argv);
  size_t nvec = (length + 15) / 16 + 1; // the text, and a vector of zeros after it
  device_memory_check(16 * nvec + (size_t)12 * 4096 * 1024 + (bench ? 2 * length : 0),
                      bench ? "the text, the counts and the read stream's buffers" : "the text and the counts",
                      generated || args_given(argc, argv, "file"));
  if (generated) {
    h_text = (unsigned char *)malloc(length ? length : 1);
    if (!h_text) return result_fail("out of host memory");
    match_generate(h_text, length, (unsigned)seed);
  }
  if (picked) match_pick_words(h_wbytes, nwords, h_text, length, (unsigned)seed);
  size_t planted = generated ? match_plant(h_text, length, h_wbytes, nwords, 4 * MATCH_CHUNK, NULL, NULL, 0) : 0;
  unsigned *h_words = (unsigned *)malloc(sizeof(unsigned) * nwords);
  int *h_gold = (int *)malloc(2 * sizeof(int) * nwords);
  if (!h_words || !h_gold) return result_fail("out of host memory");
  for (int w = 0; w < nwords; w++) h_words[w] = match_pack(h_wbytes + 4 * w);

  // the gold, which is also the CPU peer: match_count_cpu on every core
  long long cpu_lines = 0;
  double t0 = wall_ms();
  if (match_count_cpu(h_text, length, h_wbytes, nwords, h_gold, &cpu_lines) != 0)
    return result_fail("out of host memory");
  double cpu_ms = wall_ms() - t0;
  int ncores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (generated)
    printf("text: %zu bytes of prose from -seed=%d, %zu words planted", length, seed, planted);
  else
    printf("text: %s, %zu bytes", path, length);
  printf("; %d word%s:", nwords, nwords > 1 ? "s" : "");
  for (int w = 0; w < nwords && w < 6; w++) printf(" '%.4s'", (const char *)h_wbytes + 4 * w);
  long long total = 0; // matches of every word, in all
  for (int w = 0; w < nwords; w++) total += h_gold[w];
  printf("%s\ngold: match_count_cpu on %d cores, %.1f ms (%.2f GB/s): %lld matches, at %.2f%% of the positions\n",
         nwords > 6 ? " ..." : "", ncores, cpu_ms, length / (cpu_ms * 1e-3) / 1e9, total,
         100.0 * total / (double)(match_positions(length) ? match_positions(length) : 1));

  // the text on the GPU, padded with zeros to whole vectors and one more; the words, in constant memory too
  ladder_plan p = {};
  p.length = length, p.npos = match_positions(length), p.nfull = p.npos / 16, p.nwords = nwords;
  checkCudaErrors(cudaMalloc((void **)&p.d_text, 16 * nvec));
  checkCudaErrors(cudaMemset((void *)p.d_text, 0, 16 * nvec));
  checkCudaErrors(cudaMemcpy((void *)p.d_text, h_text, length, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMalloc((void **)&p.d_words, sizeof(unsigned) * nwords));
  checkCudaErrors(cudaMemcpy((void *)p.d_words, h_words, sizeof(unsigned) * nwords, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpyToSymbol(c_words, h_words, sizeof(unsigned) * nwords));
  checkCudaErrors(cudaMalloc((void **)&p.d_counts, sizeof(unsigned) * nwords));
  checkCudaErrors(cudaMemset(p.d_counts, 0xff, sizeof(unsigned) * nwords));
  // each kernel's grid: as many blocks as are resident at once (kernel 1's: match's sections)
  const int sms = device_limits(dev)->sms;
  p.blocks[0] = sms * occupancy_blocks_per_sm(match_read, dev, LADDER_THREADS, 0);
  p.blocks[2] = sms * occupancy_blocks_per_sm(match_position, dev, LADDER_THREADS, 4 * nwords);
  p.blocks[3] = sms * occupancy_blocks_per_sm(match_funnel, dev, LADDER_THREADS, 4 * nwords);
  p.blocks[4] = sms * occupancy_blocks_per_sm(&match_regs<M4_WORDS>, dev, LADDER_THREADS, 0);
  checkCudaErrors(cudaMalloc((void **)&p.d_sink, sizeof(unsigned) * p.blocks[0]));
  checkCudaErrors(cudaMemset(p.d_sink, 0xff, sizeof(unsigned) * p.blocks[0]));
  course_plan cp = course_setup(dev, p.npos, nwords);
  checkCudaErrors(cudaMalloc((void **)&cp.d_partial, sizeof(int) * nwords * (size_t)cp.nblocks));
  checkCudaErrors(cudaMemset(cp.d_partial, 0xff, sizeof(int) * nwords * (size_t)cp.nblocks));
  p.step1 = &cp;
  hash_plan hp = {};
  int have_hash = hash_setup(&hp, dev, h_words, nwords, why, sizeof(why));
  if (have_hash) p.blocks[5] = sms * occupancy_blocks_per_sm(match_hash, dev, LADDER_THREADS, hp.smem);
  p.step5 = &hp;

  ladder_ctx c = {&p, h_gold, 0, h_gold + nwords, h_wbytes};
  for (size_t i = 0; i < length / 4 + 1; i++) { // kernel 0's answer: the xor of every int, the last part zeros
    unsigned x = 0;
    for (int b = 0; b < 4 && 4 * i + b < length; b++) x |= (unsigned)h_text[4 * i + b] << (8 * b);
    c.text_xor ^= x;
  }
  int first = kernel < 0 ? 0 : kernel, last = kernel < 0 ? NSTEPS - 1 : kernel, ok = 1;
  if (sweep) first = 3, last = 5;
  if (!have_hash && last == 5) {
    printf("hash: SKIP (%s)\n", why);
    if (kernel == 5) return result_skip("%s", why);
    last = 4;
  }
  if (bench) {
    bench_ref ref = bench_reference(dev, (double)length, reps);
    ref.read_only = 1; // every kernel reads the text and writes next to nothing
    char size[32];
    snprintf(size, sizeof(size), "%zu", length);
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = last + 1, L.names = step_name, L.name_width = 10, L.ctx = &c, L.check = check_step;
    L.run = time_step, L.recheck = outcome, L.warmup = 3, L.reps = reps,
    L.header = "  k kernel         ms      "
               "GB/s   % read  x read_text",
    L.peer = "read_text", L.bytes = (double)length, L.ref = &ref, L.ratio_width = 10;
    L.prac = "9", L.size = size, L.bench_keys = bench_keys;
    double ms[NSTEPS];
    int passed[NSTEPS];
    ok = ladder_bench(&L, ms, passed);
    int best = 1; // the fastest kernel that counts (kernel 0 only reads)
    for (int k = 2; k <= last; k++) best = ms[k] < ms[best] ? k : best;
    printf("CPU (match_count_cpu, %d cores): %.1f ms, %.2f GB/s; kernel %d, the fastest, is %.0fx faster\n", ncores,
           cpu_ms, length / (cpu_ms * 1e-3) / 1e9, best, cpu_ms / ms[best]);
    snprintf(why, sizeof(why), "cores=%d words=%d", ncores, nwords);
    print_bench_line("9", "match_cpu", size, 1, cpu_ms, (double)length, NULL, why, 0);
    long long grep_lines = -1;
    double grep_ms = run_grep(h_text, length, h_wbytes, nwords, &grep_lines, why, sizeof(why));
    if (grep_ms < 0) {
      printf("grep -F -c: SKIP (%s)\n", why);
    } else {
      printf("grep -F -c: %.1f ms, %.2f GB/s, %lld lines (the gold's lines with a match: %lld, %s)\n", grep_ms,
             length / (grep_ms * 1e-3) / 1e9, grep_lines, cpu_lines, grep_lines == cpu_lines ? "agree" : "DIFFER");
      snprintf(why, sizeof(why), "words=%d lines=%lld", nwords, grep_lines);
      print_bench_line("9", "match_grep", size, 1, grep_ms, (double)length, NULL, why, 0);
      ok = ok && grep_lines == cpu_lines;
    }
  } else if (sweep) {
    ok = run_sweep(&c, dev, h_words, reps);
  } else { // each kernel checked, then timed (the median of reps runs) and what its last run left checked again
    for (int k = first; k <= last; k++) {
      int good = check_step(&c, k);
      step_call sc = {&c, k};
      double ms = time_median_ms(time_call, &sc, 2, reps);
      good = outcome(&c, k) && good;
      printf("%d %-9s %9.4f ms %8.1f GB/s of text   %s\n", k, step_name[k], ms, length / (ms * 1e-3) / 1e9,
             good ? (k ? "the exact count" : "the text's xor") : "FAILED");
      ok = ok && good;
    }
  }
  checkCudaErrors(cudaFree((void *)p.d_text));
  checkCudaErrors(cudaFree((void *)p.d_words));
  checkCudaErrors(cudaFree(p.d_counts));
  checkCudaErrors(cudaFree(p.d_sink));
  checkCudaErrors(cudaFree(cp.d_partial));
  hash_free(&hp);
  free(h_text), free(h_wbytes), free(h_words), free(h_gold);
  return result_check(ok, "a kernel's counts differ from the exact gold (see above)");
}
