/*
 * match_gold.c -- practical 9's gold (gcc, C11): the course's count of 4-byte words in a text, the workbook's
 * exact count, and the generated texts and words of -gen= and -nwords=. prac9_gold.h says what each computes.
 */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "prac9_gold.h"

/* The course's int k of the text padded with 4 spaces: bytes 4k..4k+3, those at or past `length` spaces. The
 * course pads a copy; reading the padding in place spares a second copy of a text of up to 2 GB. */
static unsigned course_int(const unsigned char *text, size_t length, size_t k) {
  unsigned char b[4];
  for (int j = 0; j < 4; j++) b[j] = 4 * k + j < length ? text[4 * k + j] : ' ';
  return match_pack(b);
}

void match_gold_course(const unsigned char *text, size_t length, const unsigned *words, int nwords, int *counts) {
  size_t len = length / 4; // the course's len: whole ints of text
  for (int w = 0; w < nwords; w++) counts[w] = 0;
  for (size_t l = 0; l < len; l++) {
    unsigned t0 = course_int(text, length, l), t1 = course_int(text, length, l + 1); // int len is padding
    for (int off = 0; off < 4; off++) {
      // offset 0: the int itself; offsets 1-3: its top 4 - off bytes, then the next int's low off bytes
      unsigned word = off == 0 ? t0 : (t0 >> (8 * off)) + (t1 << (32 - 8 * off));
      for (int w = 0; w < nwords; w++) counts[w] += word == words[w];
    }
  }
}

void match_gold_exact(const unsigned char *text, size_t length, const unsigned char *words, int nwords, int *counts) {
  size_t npos = match_positions(length);
  for (int w = 0; w < nwords; w++) {
    const unsigned char *word = words + (size_t)MATCH_WORD_BYTES * w;
    int c = 0;
    for (size_t p = 0; p < npos; p++) c += memcmp(text + p, word, MATCH_WORD_BYTES) == 0;
    counts[w] = c;
  }
}

/* ---- the ladder's gold and the CPU peer ------------------------------------------------------------- */

/* the order of the distinct words: by their first two bytes (the bucket), then by the whole packed int */
static int by_bucket(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  unsigned bx = x & 0xffffu, by = y & 0xffffu;
  return bx != by ? (bx < by ? -1 : 1) : (x > y) - (x < y);
}

/* where thread t of nt starts: the first line that starts at or after its share of the text, so that every line
 * is one thread's (the lines of grep -c cannot be counted twice) */
static size_t line_start(const unsigned char *text, size_t length, int t, int nt) {
  if (t == 0) return 0;
  size_t at = (size_t)((double)length * t / nt);
  if (at == 0) return 0;
  const unsigned char *nl = memchr(text + at - 1, '\n', length - (at - 1));
  return nl ? (size_t)(nl - text) + 1 : length;
}

int match_count_cpu(const unsigned char *text, size_t length, const unsigned char *words, int nwords, int *counts,
                    long long *lines) {
  size_t npos = match_positions(length);
  if (lines) *lines = 0;
  if (nwords < 1) return 0;
  unsigned *uniq = malloc(sizeof(unsigned) * nwords), *start = malloc(sizeof(unsigned) * 65537);
  long long *total = calloc((size_t)nwords, sizeof(long long));
  int failed = !uniq || !start || !total, nuniq = 0;
  if (!failed) { // the distinct words in bucket order, and where each bucket's run of them starts
    for (int w = 0; w < nwords; w++) uniq[w] = match_pack(words + (size_t)MATCH_WORD_BYTES * w);
    qsort(uniq, (size_t)nwords, sizeof(unsigned), by_bucket);
    for (int w = 0; w < nwords; w++)
      if (nuniq == 0 || uniq[nuniq - 1] != uniq[w]) uniq[nuniq++] = uniq[w];
    memset(start, 0, sizeof(unsigned) * 65537);
    for (int j = 0; j < nuniq; j++) start[(uniq[j] & 0xffffu) + 1]++;
    for (int b = 0; b < 65536; b++) start[b + 1] += start[b];
  }
  long long nlines = 0;
#pragma omp parallel if (!failed) reduction(+ : nlines)
  {
    int t = 0, nt = 1;
#ifdef _OPENMP
    t = omp_get_thread_num(), nt = omp_get_num_threads();
#endif
    long long *mine = failed ? NULL : calloc((size_t)nuniq, sizeof(long long));
    if (mine) {
      size_t lo = line_start(text, length, t, nt), hi = line_start(text, length, t + 1, nt);
      int matched = 0; // the line so far holds a match (one that does not run past its '\n')
      for (size_t p = lo; p < hi; p++) {
        if (p < npos) {
          unsigned x = match_pack(text + p);
          for (unsigned j = start[x & 0xffffu]; j < start[(x & 0xffffu) + 1]; j++)
            if (uniq[j] == x) {
              mine[j]++;
              matched |= memchr(text + p, '\n', MATCH_WORD_BYTES) == NULL;
              break;
            }
        }
        if (text[p] == '\n') nlines += matched, matched = 0;
      }
      if (hi == length) nlines += matched; // a last line with no '\n'
#pragma omp critical
      for (int j = 0; j < nuniq; j++) total[j] += mine[j];
      free(mine);
    } else {
#pragma omp atomic write
      failed = 1;
    }
  }
  for (int w = 0; w < nwords && !failed; w++) { // each word's count: its distinct word's
    unsigned x = match_pack(words + (size_t)MATCH_WORD_BYTES * w);
    const unsigned *at = bsearch(&x, uniq, (size_t)nuniq, sizeof(unsigned), by_bucket);
    counts[w] = (int)total[at - uniq];
  }
  if (lines && !failed) *lines = nlines;
  free(uniq), free(start), free(total);
  return failed ? -1 : 0;
}

/* ---- -gen=N ------------------------------------------------------------------------------------------ */

/* the vocabulary, most common first: English's commonest words, the course's four inside longer ones
 * ("execution", "golden", "context", "sword"), and a few words of this practical */
static const char *const vocab[] = {
    "the",    "of",        "and",     "to",     "a",       "in",       "is",   "that",  "for",     "it",
    "as",     "with",      "was",     "on",     "be",      "by",       "this", "are",   "from",    "at",
    "or",     "an",        "which",   "one",    "text",    "word",     "each", "words", "thread",  "block",
    "gold",   "match",     "memory",  "shared", "count",   "context",  "four", "bytes", "chunk",   "kernel",
    "search", "offset",    "pattern", "stream", "golden",  "sword",    "copy", "long",  "keyword", "texture",
    "string", "execution", "cuticle", "wordy",  "textual", "goldfish", "than", "into",  "every",   "window"};
#define NVOCAB ((int)(sizeof(vocab) / sizeof(vocab[0])))
#define GEN_SEGMENT 65536 // bytes made from one random stream: segments are independent of one another

static unsigned long long next64(unsigned long long *s) { // splitmix64
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* one segment of prose, text[0..len): Zipf-drawn words, each followed by a space, or a full stop and a space
 * (1 in 12), or a full stop and a newline (1 in 60); the last word may be cut at the segment's end */
static void gen_segment(unsigned char *text, size_t len, unsigned long long state, const unsigned *cum) {
  size_t at = 0;
  while (at < len) {
    unsigned r = (unsigned)(next64(&state) >> 32);
    int lo = 0, hi = NVOCAB - 1; // the first rank k with r < cum[k]
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (r < cum[mid])
        hi = mid;
      else
        lo = mid + 1;
    }
    unsigned sep = (unsigned)(next64(&state) % 60);
    const char *tail = sep == 0 ? ".\n" : sep < 6 ? ". " : " ";
    for (const char *c = vocab[lo]; *c && at < len; c++) text[at++] = (unsigned char)*c;
    for (const char *c = tail; *c && at < len; c++) text[at++] = (unsigned char)*c;
  }
}

/* plant word `which` at p when it overlaps no earlier plant and ends by `limit`; records it */
static int plant(unsigned char *text, size_t p, size_t limit, size_t *next_free, const unsigned char *words, int which,
                 size_t *where, int *whichs, size_t max, size_t *count) {
  if (p < *next_free || p + MATCH_WORD_BYTES > limit) return 0;
  memcpy(text + p, words + (size_t)MATCH_WORD_BYTES * which, MATCH_WORD_BYTES);
  if (*count < max) {
    if (where) where[*count] = p;
    if (whichs) whichs[*count] = which;
  }
  (*count)++;
  *next_free = p + MATCH_WORD_BYTES;
  return 1;
}

void match_generate(unsigned char *text, size_t n, unsigned seed) {
  // the Zipf law: rank k (from 0) with weight 1/(k+1); cum[k] is 2^32 times the probability of ranks 0..k
  unsigned cum[NVOCAB];
  double total = 0.0, run = 0.0;
  for (int k = 0; k < NVOCAB; k++) total += 1.0 / (k + 1);
  for (int k = 0; k < NVOCAB; k++) {
    run += 1.0 / (k + 1);
    double c = run / total * 4294967296.0;
    cum[k] = k == NVOCAB - 1 || c >= 4294967295.0 ? 0xFFFFFFFFu : (unsigned)c;
  }
  for (size_t s = 0; s * GEN_SEGMENT < n; s++) {
    size_t at = s * GEN_SEGMENT, len = n - at < GEN_SEGMENT ? n - at : GEN_SEGMENT;
    gen_segment(text + at, len, ((unsigned long long)seed << 32) ^ prac9_hash(s, seed), cum);
  }
}

size_t match_plant(unsigned char *text, size_t n, const unsigned char *words, int nwords, size_t chunk_bytes,
                   size_t *where, int *which, size_t max) {
  size_t count = 0, next_free = 0;
  if (n < MATCH_WORD_BYTES || nwords < 1) return 0;
  size_t inner = n >= 2 * MATCH_WORD_BYTES ? n - MATCH_WORD_BYTES : 0; // the others end before the end's plant
  plant(text, 0, n, &next_free, words, 0, where, which, max, &count);  // the very start
  for (int k = 1; k <= 3; k++) // across the 4-byte boundaries 8, 12 and 16 at offsets 1, 2, 3
    plant(text, 5 * (size_t)k, inner, &next_free, words, k % nwords, where, which, max, &count);
  if (chunk_bytes >= 2 * MATCH_WORD_BYTES)
    for (size_t j = 1; j * chunk_bytes < n; j++) // across chunk (and section) boundaries, by 1 to 3 bytes
      plant(text, j * chunk_bytes - 1 - j % 3, inner, &next_free, words, (int)(j % (size_t)nwords), where, which, max,
            &count);
  if (n >= 2 * MATCH_WORD_BYTES) // the very end
    plant(text, n - MATCH_WORD_BYTES, n, &next_free, words, nwords - 1, where, which, max, &count);
  return count;
}

void match_pick_words(unsigned char *words, int nwords, const unsigned char *text, size_t length, unsigned seed) {
  size_t npos = match_positions(length);
  for (int w = 0; w < nwords; w++) {
    unsigned char *word = words + (size_t)MATCH_WORD_BYTES * w;
    if (w % 2 == 0 && npos > 0) { // the first of up to 64 positions from a hashed one whose 4 bytes hold no '\n'
      size_t p = prac9_hash((unsigned long long)w, seed ^ 0x5bd1e995u) % npos; // (a pattern file line for grep)
      for (int tries = 1; tries < 64 && memchr(text + p, '\n', MATCH_WORD_BYTES); tries++) p = (p + 1) % npos;
      memcpy(word, text + p, MATCH_WORD_BYTES);
    } else {
      unsigned h = prac9_hash((unsigned long long)w, seed ^ 0x1b873593u);
      for (int j = 0; j < MATCH_WORD_BYTES; j++) word[j] = (unsigned char)('a' + (h >> (8 * j)) % 26);
    }
  }
}
