/*
 * match_any.cu -- practical 9, step 3 (beyond the course): counting patterns of any length, 1 to 64 bytes and up
 * to 4096 of them, in one pass over the text, with PFAC, the parallel failureless Aho-Corasick automaton
 * (match_any_kernel.cuh says how it works and why it is laid out so).
 *
 * The text: -gen=N bytes of generated prose (match's), -file=PATH, or by default match.cu beside this program.
 * The patterns: -npatterns=N (default 256) of -lengths=MIN-MAX bytes, -from=text (copied from the text at hashed
 * positions, the first at its very end, the second at its start: many matches) or -from=random (letters: few),
 * or -patterns=FILE (one per line), or -words=a,ab,abc. A pattern given twice ends in the same accepting state, and
 * each copy gets its count. Overlapping matches count ("aa" is 3 times in "aaaa"). The automaton is built on the
 * host (match_any_gold.c); every count is held to the gold's, a search of its own, and with -positions so is the
 * sorted list of every match (position, pattern), which -out=FILE writes.
 * Try -from=random, -npatterns=4096, -shared_kb=0 (the whole table read through L1/L2), -bench.
 *   nvcc -O3 -arch=native -I../common match_any.cu match_any_gold.c match_gold.c -o match_any
 */
#define COURSE_STEPS "practical 9, workbook step 3 (beyond the course: patterns of any length, PFAC)"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "match_text.h"
#include "prac9_gold.h"

#include "match_any_kernel.cuh"
#include "match_any_plan.cuh"

#define MA_POSITIONS_TEXT (1 << 24) // -positions: texts of 16 MiB at most ...
#define MA_RECORDS_MAX (1 << 24)    // ... and 16 Mi matches at most: 128 MiB of records on each side
#define MA_DEPTH_SAMPLE (1 << 24)   // bytes of text the host walks to say how deep walks go

// the share of walks, in per cent, that passed byte d (reached depth d)
static double passed(const unsigned long long *depths, int d, size_t walks) {
  unsigned long long n = 0;
  for (int k = d; k <= MATCH_ANY_MAX_LEN; k++) n += depths[k];
  return walks ? 100.0 * n / walks : 0.0;
}

// device memory of `bytes`, holding h's bytes (h NULL: as it comes)
static void *to_device(const void *h, size_t bytes) {
  void *d;
  checkCudaErrors(cudaMalloc(&d, bytes ? bytes : 1));
  if (h && bytes) checkCudaErrors(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  return d;
}

// a pattern for a line of output: its first bytes, those that do not print as '.'
static const char *shown(const unsigned char *p, int len, char *buf) {
  int n = len < 12 ? len : 12;
  for (int j = 0; j < n; j++) buf[j] = p[j] >= 32 && p[j] < 127 ? (char)p[j] : '.';
  snprintf(buf + n, 8, "%s", len > n ? "..." : "");
  return buf;
}

int main(int argc, char **argv) {
  const char *file = "match.cu", *pfile = "none", *words = "none", *lengths = "1-64", *from = "text", *out = "none";
  long long gen = 0;
  int npats = 256, seed = 1, positions = 0, shared_kb = -1, bench = 0, reps = 10;
  arg_spec opts[] = {
      {"file", ARG_WORD, &file, 0, 0, "the text (not given: match.cu beside this program)"},
      {"gen", ARG_LONG, &gen, 0, (double)MATCH_MAX_LENGTH, "instead of a file: N bytes of generated prose"},
      {"npatterns", ARG_INT, &npats, 1, MATCH_ANY_MAX_PATTERNS, "N patterns, of -lengths= bytes, -from= the text"},
      {"lengths", ARG_WORD, &lengths, 0, 0, "-npatterns' lengths: MIN-MAX, 1 to 64"},
      {"from", ARG_WORD, &from, 0, 0, "-npatterns' source: text (hashed positions: many matches) or random (letters)"},
      {"patterns", ARG_WORD, &pfile, 0, 0,
       "instead: a file of patterns, one per line, 1 to 64 bytes each, 4096 at most"},
      {"words", ARG_WORD, &words, 0, 0, "instead: the patterns, comma-separated"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of -gen's text and -npatterns' patterns"},
      {"positions", ARG_FLAG, &positions, 0, 1, "also list every match (position, pattern), checked with the gold's"},
      {"out", ARG_WORD, &out, 0, 0, "with -positions: write the list to FILE, one line 'position pattern' per match"},
      {"shared_kb", ARG_INT, &shared_kb, -1, 1 << 20, "KB of the table in shared memory at most (-1: all that fits)"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time against a read-only stream of the same bytes; a BENCH line"},
      {"reps", ARG_INT, &reps, 0, 1000, "timed runs, their median printed (0: none)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int generated = args_given(argc, argv, "gen"), fromfile = args_given(argc, argv, "patterns");
  int listed = args_given(argc, argv, "words"), picked = !fromfile && !listed, from_text = 1, lo = 1, hi = 64;
  if (generated && args_given(argc, argv, "file")) args_fail("-gen and -file are two texts: give one");
  if (fromfile + listed + args_given(argc, argv, "npatterns") > 1)
    args_fail("-patterns, -words and -npatterns are three sets of patterns: give one");
  if (!picked && (args_given(argc, argv, "lengths") || args_given(argc, argv, "from")))
    args_fail("-lengths and -from pick -npatterns' patterns: not with -%s", fromfile ? "patterns" : "words");
  if (match_any_lengths(lengths, &lo, &hi) != 0)
    args_fail("-lengths=%s: give MIN-MAX (or one length), 1 <= MIN <= MAX <= %d", lengths, MATCH_ANY_MAX_LEN);
  if (strcmp(from, "text") != 0 && strcmp(from, "random") != 0) args_fail("-from=%s: text or random", from);
  from_text = strcmp(from, "text") == 0;
  if (args_given(argc, argv, "out") && !positions) args_fail("-out writes -positions' list: give -positions");
  if (bench && reps == 0) args_fail("-bench times the kernel: -reps=1 at least");
  if (positions && gen > MA_POSITIONS_TEXT) args_fail("-positions takes a text of %d bytes at most", MA_POSITIONS_TEXT);

  // the text and the patterns: a file that cannot be read, or a pattern list that is wrong, is bad input
  char path[PATH_MAX + 32], why[PATH_MAX + 128];
  size_t length = (size_t)gen;
  unsigned char *h_text = NULL, *pats = (unsigned char *)malloc(MATCH_ANY_MAX_LEN * MATCH_ANY_MAX_PATTERNS);
  int *lens = (int *)malloc(sizeof(int) * MATCH_ANY_MAX_PATTERNS);
  if (!pats || !lens) return result_fail("out of host memory");
  if (generated) {
    h_text = (unsigned char *)malloc(length ? length : 1);
    if (!h_text) return result_fail("out of host memory");
    match_generate(h_text, length, (unsigned)seed);
  } else {
    h_text = read_text_or_default(args_given(argc, argv, "file"), file, argv[0], path, sizeof(path), &length);
    if (positions && length > MA_POSITIONS_TEXT)
      args_fail("-positions takes a text of %d bytes at most: %s has %zu", MA_POSITIONS_TEXT, path, length);
  }
  if (fromfile) {
    size_t n;
    unsigned char *list = read_text(pfile, &n, why, sizeof(why));
    if (!list) args_fail("-patterns=%s: %s", pfile, why);
    npats = match_any_parse(list, n, '\n', pats, lens, MATCH_ANY_MAX_PATTERNS, why, sizeof(why));
    if (npats < 0) args_fail("-patterns=%s: %s", pfile, why);
    free(list);
  } else if (listed) {
    npats = match_any_parse((const unsigned char *)words, strlen(words), ',', pats, lens, MATCH_ANY_MAX_PATTERNS, why,
                            sizeof(why));
    if (npats < 0) args_fail("-words=%s: %s", words, why);
  } else {
    match_any_pick(pats, lens, npats, lo, hi, from_text, h_text, length, (unsigned)seed);
  }

  // the automaton (match_any_gold.c), and the gold: every count, and with -positions every match
  match_any_automaton A;
  if (match_any_build(&A, pats, lens, npats) != 0) return result_fail("out of host memory (the automaton)");
  unsigned long long *h_gold = (unsigned long long *)malloc(8 * (size_t)npats * 2), *h_gpu = h_gold + npats;
  unsigned long long *h_acc = (unsigned long long *)malloc(8 * (size_t)A.nacc), *g_rec = NULL, *h_rec = NULL;
  if (!h_gold || !h_acc) return result_fail("out of host memory");
  if (positions && !(g_rec = (unsigned long long *)malloc(8 * (size_t)MA_RECORDS_MAX)))
    return result_fail("out of host memory");
  double t0 = wall_ms();
  long long total = match_any_gold(h_text, length, pats, lens, npats, h_gold, g_rec, MA_RECORDS_MAX);
  double gold_ms = wall_ms() - t0;
  if (total < 0) return result_fail("out of host memory (the gold)");
  if (positions && total > MA_RECORDS_MAX)
    args_fail("-positions lists %d matches at most, and this text holds %lld: give a shorter one", MA_RECORDS_MAX,
              total);
  unsigned long long depths[MATCH_ANY_MAX_LEN + 1]; // how deep walks go, on the first MA_DEPTH_SAMPLE bytes
  size_t sample = length < MA_DEPTH_SAMPLE ? length : MA_DEPTH_SAMPLE;
  double steps = (double)match_any_walk(&A, h_text, sample, NULL, depths);

  int dev = findCudaDevice(argc, argv);
  // the block's threads, and how much of the table is in shared memory (match_any_shape)
  const gpu_limits *g = device_limits(dev);
  ma_plan m;
  memset(&m, 0, sizeof(m));
  size_t limit = (size_t)g->smem_block_optin;
  if (!match_any_shape(&m, A.nslots, A.nacc, limit, shared_kb))
    device_limit_exceeded("%zu bytes of shared memory per block for the text and counts; this GPU gives %zu",
                          (size_t)128 * MA_COL + 4 * (size_t)A.nacc, limit);
  const int nthreads = m.nthreads, all_shared = m.all_shared, nshared = m.a.nshared;
  const size_t smem = m.smem, text_smem = (size_t)nthreads * MA_COL;
  int per_sm = match_any_prepare(dev, nthreads, smem);
  if (per_sm < 1) device_limit_exceeded("a block of %d threads and %zu bytes of shared memory", nthreads, smem);
  size_t ntiles = ceil_div(length, (size_t)MA_TILE), nblocks = (size_t)g->sms * per_sm;
  if (nblocks > ceil_div(ntiles, (size_t)nthreads / 32)) nblocks = ceil_div(ntiles, (size_t)nthreads / 32);
  if (nblocks < 1) nblocks = 1;
  size_t cap = positions ? (size_t)total : 0, padded = ceil_div(length, (size_t)16) * 16 + MA_COL;
  size_t dev_bytes = padded + 6 * (size_t)A.nslots + 4 * (size_t)A.nacc * (nblocks + 3) + 8 * cap + 64;
  device_memory_check(dev_bytes, "the text, the automaton and the counts", generated || args_given(argc, argv, "file"));

  // what runs
  char sb[16];
  const char *table_name = all_shared ? "shared" : nshared ? "split" : "global";
  const char *source = fromfile ? "file" : listed ? "words" : from;
  if (generated)
    printf("text: %zu bytes of prose from -seed=%d\n", length, seed);
  else
    printf("text: %s%s, %zu bytes\n", path, args_given(argc, argv, "file") ? "" : " (this program's source)", length);
  int minlen = 64, maxlen = 1, ndup = npats - A.nacc;
  for (int k = 0; k < npats; k++)
    minlen = lens[k] < minlen ? lens[k] : minlen, maxlen = lens[k] > maxlen ? lens[k] : maxlen;
  if (picked)
    printf("patterns: %d of %d to %d bytes, %s, -seed=%d", npats, minlen, maxlen,
           from_text ? "from the text at hashed positions (the first ends it, the second starts it)" : "random letters",
           seed);
  else
    printf("patterns: %d of %d to %d bytes, from %s%s", npats, minlen, maxlen, fromfile ? "-patterns=" : "-words",
           fromfile ? pfile : "");
  printf("; %d duplicate%s; the first '%s'\n", ndup, ndup == 1 ? "" : "s", shown(pats, lens[0], sb));
  printf("automaton: %d states, %d slots of 4 bytes (a double array, placed breadth first): ", A.nstates, A.nslots);
  if (all_shared)
    printf("the whole table in shared memory with a count per slot, and %zu bytes of text columns: %zu of the %zu "
           "bytes per block allowed\n",
           text_smem, smem, limit);
  else
    printf("its first %d slots (the states nearest the root) in shared memory, the other %d read through L1/L2: %s\n",
           nshared, A.nslots - nshared,
           shared_kb >= 0 ? "-shared_kb= says so"
                          : "with a count per slot and the text "
                            "columns, the whole table needs more shared memory than a block may have");
  printf("walks, counted on the host over %zu bytes: %.2f table reads per position; %.0f%% pass byte 1, %.0f%% byte 2, "
         "%.0f%% byte 4, %.1f%% byte 8\n",
         sample, sample ? steps / sample : 0.0, passed(depths, 1, sample), passed(depths, 2, sample),
         passed(depths, 4, sample), passed(depths, 8, sample));
  printf("gold (bucketed by first bytes, memcmp: no automaton): %lld matches, %.1f ms\n", total, gold_ms);

  // copy the text (zeros after it) and the automaton to device memory
  m.nblocks = (int)nblocks;
  ma_args *a = &m.a;
  a->length = length, a->ntiles = ntiles, a->nacc = A.nacc, a->root_base = A.root_base, a->cap = (unsigned)cap;
  unsigned char *d_text = (unsigned char *)to_device(NULL, padded);
  checkCudaErrors(cudaMemset(d_text + length, 0, padded - length));
  checkCudaErrors(cudaMemcpy(d_text, h_text, length, cudaMemcpyHostToDevice));
  a->text = d_text, a->slot = (const unsigned *)to_device(A.slot, 4 * (size_t)A.nslots);
  a->acc = (const unsigned short *)to_device(A.acc, 2 * (size_t)A.nslots);
  a->acc_slot = (const int *)to_device(A.acc_slot, 4 * (size_t)A.nacc);
  a->rows = (unsigned *)to_device(NULL, 4 * (size_t)A.nacc * nblocks), a->nrec = (unsigned *)to_device(NULL, 4);
  a->rec = (unsigned long long *)to_device(NULL, 8 * cap);
  m.d_counts = (unsigned long long *)to_device(NULL, 8 * (size_t)A.nacc);

  // GPU execution into poisoned rows and counts (0xff bytes: a block or a sum that stores nothing cannot pass), and
  // the check: each pattern's count is its accepting state's
  int nbad = 0, first = -1;
  for (int pass = 0; pass < 2 && (pass == 0 || reps > 0); pass++) {
    checkCudaErrors(cudaMemset(a->rows, 0xff, 4 * (size_t)A.nacc * nblocks));
    checkCudaErrors(cudaMemset(m.d_counts, 0xff, 8 * (size_t)A.nacc));
    float ms = 0.0f;
    if (pass == 0) {
      match_any_run(&m);
    } else if (bench) { // pass 1: the timed runs, then what the last one left checked too
      bench_ref ref = bench_reference(dev, (double)length, reps);
      ref.read_only = 1; // the text is read once, a few counts written: the 100 % line is a read-only stream
      char size[32], extra[200];
      snprintf(size, sizeof(size), "%zu", length);
      snprintf(extra, sizeof(extra),
               "patterns=%d lengths=%d-%d from=%s table=%s states=%d blocks=%zu reads_per_pos=%.2f", npats, minlen,
               maxlen, source, table_name, A.nstates, nblocks, sample ? steps / sample : 0.0);
      ms = bench_report(&ref, "9", "match_any_k1", size, match_any_run, &m, reps, (double)length, extra);
    } else {
      ms = time_median_ms(match_any_run, &m, 3, reps);
    }
    checkCudaErrors(cudaMemcpy(h_acc, m.d_counts, 8 * (size_t)A.nacc, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int k = 0; k < npats; k++) {
      h_gpu[k] = h_acc[A.acc_of[k]];
      if (h_gpu[k] != h_gold[k] && bad++ == 0 && pass == 0) first = k;
    }
    nbad += bad;
    if (pass == 0)
      printf("GPU (%zu blocks of %d threads, %d warp tiles of %d bytes): %d of %d counts differ from the gold", nblocks,
             nthreads, (int)ntiles, MA_TILE, bad, npats);
    else
      printf("kernel: %.4f ms (median of %d runs, CUDA events), %.2f GB/s of text; the last timed run's counts %s", ms,
             reps, length / (ms * 1e-3) / 1e9, bad ? "differ from the gold" : "agree");
    if (pass == 0 && bad)
      printf(", first pattern %d '%s': GPU %llu, gold %llu", first, shown(pats + 64 * first, lens[first], sb),
             h_gpu[first], h_gold[first]);
    printf("\n");
  }

  // -positions: every match again, recorded, in the GPU's order; as pattern numbers, sorted, and held to the gold's
  size_t ndiff = 0, nlist = 0;
  if (positions) {
    checkCudaErrors(cudaMemset(a->nrec, 0, 4));
    m.record = 1;
    match_any_run(&m);
    unsigned nrec = 0;
    checkCudaErrors(cudaMemcpy(&nrec, a->nrec, 4, cudaMemcpyDeviceToHost));
    size_t got = nrec < cap ? nrec : cap;
    h_rec = (unsigned long long *)malloc(8 * (2 * cap + 1));
    if (!h_rec) return result_fail("out of host memory");
    if (got) checkCudaErrors(cudaMemcpy(h_rec, a->rec, 8 * got, cudaMemcpyDeviceToHost));
    nlist = match_any_expand(h_rec, got, A.acc_of, npats, A.nacc, h_rec + cap, cap + 1);
    for (size_t i = 0; i < (size_t)total && i < nlist && i <= cap; i++) ndiff += h_rec[cap + i] != g_rec[i];
    ndiff += nlist != (size_t)total || nrec > cap;
    printf("positions: %u matches recorded, %zu as patterns (the gold lists %lld): %s", nrec, nlist, total,
           ndiff ? "the lists differ" : "the same list, in the same order");
    if (args_given(argc, argv, "out")) {
      FILE *f = fopen(out, "w");
      for (size_t i = 0; f && i < nlist && i <= cap; i++)
        fprintf(f, "%llu %llu\n", h_rec[cap + i] >> 32, h_rec[cap + i] & 0xffffffffull);
      if (!f || fclose(f) != 0) return result_fail("cannot write -out=%s", out);
      printf("; written to %s, one line 'position pattern' per match (patterns numbered from 0)", out);
    }
    printf("\n");
  }

  // Release GPU and CPU memory
  const void *d_all[] = {a->text, a->slot, a->acc, a->acc_slot, a->rows, a->nrec, a->rec, m.d_counts};
  for (int i = 0; i < 8; i++) checkCudaErrors(cudaFree((void *)d_all[i]));
  match_any_free(&A);
  free(h_text), free(pats), free(lens), free(h_gold), free(h_acc), free(g_rec), free(h_rec);
  if (nbad) return result_check(0, "%d pattern counts differ from the gold", nbad);
  return result_check(ndiff == 0, "-positions: the GPU's list of matches differs from the gold's");
}
