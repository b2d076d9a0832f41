/*
 * test_prac9.c -- CPU tests of practical 9's gold routines (../prac9/match_gold.c): the course's count and the
 * exact count on hand-made texts (a match at the first and the last position, across 4-byte boundaries,
 * overlapping, texts of 0 to 3 bytes, the padding that only the course's count sees), and the generated text of
 * -gen=: prose, its planted words where match_plant says, at the start, the end and across chunk boundaries.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../prac9/prac9_gold.h"

/* both counts of the words (a string of 4-byte words back to back) in text */
static void count_both(const char *text, size_t length, const char *words, int *course, int *exact) {
  int nwords = (int)(strlen(words) / 4);
  unsigned packed[16];
  for (int w = 0; w < nwords; w++) packed[w] = match_pack((const unsigned char *)words + 4 * w);
  match_gold_course((const unsigned char *)text, length, packed, nwords, course);
  match_gold_exact((const unsigned char *)text, length, (const unsigned char *)words, nwords, exact);
}

TEST(pack_is_the_course_s) {
  /* the course's words packed c0 + c1 256 + c2 256^2 + c3 256^3 */
  CHECK(match_pack((const unsigned char *)"cuti") == 0x69747563u);
  CHECK(match_pack((const unsigned char *)"gold") == 0x646c6f67u);
  CHECK(match_pack((const unsigned char *)"text") == 0x74786574u);
  CHECK(match_pack((const unsigned char *)"word") == 0x64726f77u);
  CHECK(match_pack((const unsigned char *)"\xff\x80\x01\x00") == 0x000180ffu); /* bytes taken unsigned */
}

TEST(first_last_and_straddling) {
  int c[4], e[4];
  /* "word" at 0 (the first position), "gold" at 5 and "text" at 10 (across 8 and 12), "cuti" at 15 = length - 4
   * (the last position) */
  const char *t = "word gold text cuti";
  count_both(t, 19, "wordgoldtextcuti", c, e);
  for (int w = 0; w < 4; w++) CHECK(e[w] == 1 && c[w] == 1);
  count_both(t, 18, "wordgoldtextcuti", c, e); /* one byte shorter: "cuti" is not whole */
  CHECK(e[0] == 1 && e[1] == 1 && e[2] == 1 && e[3] == 0 && c[3] == 0);
  const char *u = "word gold text xcuti"; /* 20 bytes, "cuti" at 16: the last position */
  count_both(u, 20, "wordgoldtextcuti", c, e);
  for (int w = 0; w < 4; w++) CHECK(e[w] == 1 && c[w] == 1);
  /* every length from 4 to 11 with the word at the end: at offsets 0-3 of the last int */
  for (size_t n = 4; n < 12; n++) {
    char buf[16];
    memset(buf, '.', sizeof(buf));
    memcpy(buf + n - 4, "gold", 4);
    count_both(buf, n, "gold", c, e);
    CHECK(e[0] == 1 && c[0] == 1);
  }
}

TEST(overlapping_matches_count) {
  int c[2], e[2];
  count_both("aaaaaaa", 7, "aaaa", c, e); /* at 0, 1, 2, 3 */
  CHECK(e[0] == 4 && c[0] == 4);
  count_both("abababab", 8, "ababbaba", c, e); /* abab at 0, 2, 4; baba at 1, 3 */
  CHECK(e[0] == 3 && e[1] == 2 && c[0] == 3 && c[1] == 2);
}

TEST(short_texts_have_no_match) {
  int c[1] = {-1}, e[1] = {-1};
  const char *t = "gol";
  for (size_t n = 0; n < 4; n++) {
    count_both(t, n, "gol ", c, e); /* the course pads with spaces: "gol " is never in a text under 4 bytes */
    CHECK(c[0] == 0 && e[0] == 0);
  }
  CHECK(match_positions(0) == 0 && match_positions(3) == 0 && match_positions(4) == 1 && match_positions(9) == 6);
}

TEST(course_padding_is_the_only_difference) {
  int c[3], e[3];
  /* "abcd": the course tests positions 0-3, three of them hanging into its padding: "bcd ", "cd  ", "d   " */
  count_both("abcd", 4, "bcd cd  abcd", c, e);
  CHECK(c[0] == 1 && c[1] == 1 && c[2] == 1);
  CHECK(e[0] == 0 && e[1] == 0 && e[2] == 1);
  /* length % 4 == 3: no position past the end is tested, and "efg " is not counted */
  count_both("abcdefg", 7, "efg defg", c, e);
  CHECK(c[0] == 0 && e[0] == 0 && c[1] == 1 && e[1] == 1);
  /* words with no trailing space: both counts equal on every prefix of a text */
  const char *t = "the gold word of the text, a golden sword; context!  gold";
  size_t n = strlen(t);
  for (size_t len = 0; len <= n; len++) {
    int cc[3], ee[3];
    count_both(t, len, "goldwordtext", cc, ee);
    for (int w = 0; w < 3; w++) CHECK(cc[w] == ee[w]);
  }
}

TEST(generated_text_is_prose_and_repeatable) {
  size_t n = 200003;
  unsigned char *a = malloc(n), *b = malloc(n);
  match_generate(a, n, 7);
  match_generate(b, n, 7);
  CHECK(memcmp(a, b, n) == 0);
  match_generate(b, n, 8);
  CHECK(memcmp(a, b, n) != 0);
  size_t spaces = 0, newlines = 0, other = 0;
  for (size_t i = 0; i < n; i++) {
    spaces += a[i] == ' ';
    newlines += a[i] == '\n';
    other += !(a[i] == ' ' || a[i] == '\n' || a[i] == '.' || (a[i] >= 'a' && a[i] <= 'z'));
  }
  CHECK(other == 0 && spaces > n / 8 && newlines > 0);
  int e[1];
  match_gold_exact(a, n, (const unsigned char *)"the ", 1, e); /* the commonest word, by Zipf's law */
  CHECK(e[0] > (int)(n / 40));
  match_generate(a, 0, 1); /* nothing to write */
  free(a);
  free(b);
}

TEST(planted_words_are_found) {
  const char *words = "cutigoldtextword";
  size_t sizes[] = {4, 5, 7, 8, 23, 4095, 4097, 12290, 1000003};
  for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
    size_t n = sizes[k], where[1024];
    int which[1024], exact[4];
    unsigned char *t = malloc(n);
    match_generate(t, n, 3);
    size_t np = match_plant(t, n, (const unsigned char *)words, 4, 4096, where, which, 1024);
    CHECK(np >= 1 && np <= 1024);
    CHECK(where[0] == 0 && which[0] == 0);     /* the very start */
    if (n >= 8) CHECK(where[np - 1] == n - 4); /* the very end */
    if (n >= 23) CHECK(where[1] == 5 && where[2] == 10 && where[3] == 15);
    int seen[4] = {0, 0, 0, 0};
    size_t straddled = 0; /* chunk boundaries c (multiples of 4096) with a plant across them */
    for (size_t i = 0; i < np; i++) {
      CHECK(memcmp(t + where[i], words + 4 * which[i], 4) == 0); /* each still there: none overlaps another */
      if (i) CHECK(where[i] >= where[i - 1] + 4);
      seen[which[i]]++;
      size_t c = (where[i] / 4096 + 1) * 4096; /* the next chunk boundary */
      straddled += where[i] + 4 > c;
    }
    match_gold_exact(t, n, (const unsigned char *)words, 4, exact);
    for (int w = 0; w < 4; w++) CHECK(exact[w] >= seen[w]);
    if (n >= 8) CHECK(straddled >= (n - 8) / 4096); /* every boundary c with c + 4 <= n - 4: one across it */
    free(t);
  }
}

TEST(picked_words_occur) {
  size_t n = 50001;
  unsigned char *t = malloc(n), words[64 * 4];
  int e[64];
  match_generate(t, n, 5);
  match_pick_words(words, 64, t, n, 5);
  match_gold_exact(t, n, words, 64, e);
  for (int w = 0; w < 64; w += 2) CHECK(e[w] >= 1); /* the even ones come from the text */
  for (int w = 1; w < 64; w += 2)
    for (int j = 0; j < 4; j++) CHECK(words[4 * w + j] >= 'a' && words[4 * w + j] <= 'z');
  match_pick_words(words, 3, t, 2, 5); /* a text too short for a window: letters only */
  for (int j = 0; j < 12; j++) CHECK(words[j] >= 'a' && words[j] <= 'z');
  free(t);
}

/* ---- match_any (step 3): the gold, held to a plain search; the automaton's walk, held to the gold ---------- */

/* a pattern list from a string of patterns separated by '|' */
static int any_list(const char *s, unsigned char *pats, int *lens) {
  char why[128];
  return match_any_parse((const unsigned char *)s, strlen(s), '|', pats, lens, MATCH_ANY_MAX_PATTERNS, why,
                         sizeof(why));
}

/* the plainest search there is: every position, every pattern, memcmp */
static void any_naive(const unsigned char *t, size_t n, const unsigned char *pats, const int *lens, int np,
                      unsigned long long *counts) {
  for (int k = 0; k < np; k++) {
    counts[k] = 0;
    for (size_t p = 0; p + (size_t)lens[k] <= n; p++)
      counts[k] += memcmp(t + p, pats + MATCH_ANY_MAX_LEN * k, (size_t)lens[k]) == 0;
  }
}

/* the gold's counts, and the automaton's walk, both equal to the plain search's; the automaton's invariants */
static void any_agree(const unsigned char *t, size_t n, const unsigned char *pats, const int *lens, int np) {
  unsigned long long *naive = malloc(8 * (size_t)np), *gold = malloc(8 * (size_t)np), *walk = malloc(8 * (size_t)np);
  any_naive(t, n, pats, lens, np, naive);
  long long total = match_any_gold(t, n, pats, lens, np, gold, NULL, 0);
  unsigned long long sum = 0;
  for (int k = 0; k < np; k++) {
    CHECK(gold[k] == naive[k]);
    sum += naive[k];
  }
  CHECK(total == (long long)sum);
  match_any_automaton a;
  CHECK(match_any_build(&a, pats, lens, np) == 0);
  match_any_walk(&a, t, n, walk, NULL);
  for (int k = 0; k < np; k++) CHECK(walk[a.acc_of[k]] == naive[k]);
  /* a slot holds a state (its label a byte) or none; accepting states where acc[] says; bases all different */
  unsigned char *seen = calloc((size_t)a.nslots, 1);
  int states = 1; /* the root */
  CHECK(a.nslots >= 257 && a.nacc >= 1 && a.nacc <= np && MATCH_ANY_LABEL(a.slot[0]) == MATCH_ANY_NO_LABEL);
  for (int i = 1; i < a.nslots; i++) {
    unsigned e = a.slot[i], b = MATCH_ANY_BASE(e);
    if (i < 256) CHECK(MATCH_ANY_LABEL(e) == MATCH_ANY_NO_LABEL); /* base 0 leads nowhere */
    if (MATCH_ANY_LABEL(e) == MATCH_ANY_NO_LABEL) continue;
    states++;
    CHECK(MATCH_ANY_LABEL(e) < 256 && b < (unsigned)a.nslots);
    CHECK(MATCH_ANY_ACCEPTS(e) == (a.acc[i] != 0xffff));
    if (b) {
      CHECK(!seen[b]);
      seen[b] = 1;
    }
  }
  CHECK(states == a.nstates && a.nslots <= a.nstates + a.nstates / 4 + 512);
  for (int s = 0; s < a.nacc; s++) CHECK(a.acc[a.acc_slot[s]] == s);
  free(seen), match_any_free(&a), free(naive), free(gold), free(walk);
}

TEST(any_gold_counts_overlaps_prefixes_ends) {
  unsigned char pats[64 * 16];
  int lens[16];
  unsigned long long c[16];
  int np = any_list("aa|aaaa|a", pats, lens);
  CHECK(np == 3);
  match_any_gold((const unsigned char *)"aaaa", 4, pats, lens, np, c, NULL, 0);
  CHECK(c[0] == 3 && c[1] == 1 && c[2] == 4);    /* "aa" in "aaaa": at 0, 1 and 2 */
  np = any_list("a|ab|abc|bca|cab", pats, lens); /* prefixes of one another, and overlapping */
  match_any_gold((const unsigned char *)"abcabcab", 8, pats, lens, np, c, NULL, 0);
  CHECK(c[0] == 3 && c[1] == 3 && c[2] == 2 && c[3] == 2 && c[4] == 2);
  np = any_list("xyz|z|y z|xyzz", pats, lens); /* at the very end; longer than what is left */
  match_any_gold((const unsigned char *)"xy xyz", 6, pats, lens, np, c, NULL, 0);
  CHECK(c[0] == 1 && c[1] == 1 && c[2] == 0 && c[3] == 0);
  np = any_list("the|of|the", pats, lens); /* a duplicate: each its own pattern, each every match */
  match_any_gold((const unsigned char *)"the of the", 10, pats, lens, np, c, NULL, 0);
  CHECK(c[0] == 2 && c[1] == 1 && c[2] == 2);
  for (size_t n = 0; n < 3; n++) { /* texts shorter than the pattern, the empty one too */
    np = any_list("abc|a", pats, lens);
    match_any_gold((const unsigned char *)"abc", n, pats, lens, np, c, NULL, 0);
    CHECK(c[0] == 0 && c[1] == (n > 0));
  }
  const unsigned char bin[] = {0, 0, 0, 0xff, 0x80, 0, 0}; /* any byte: zeros, bytes over 127 */
  memcpy(pats, "\0\0", 2), memcpy(pats + 64, "\xff\x80", 2), memcpy(pats + 128, "\0", 1);
  lens[0] = 2, lens[1] = 2, lens[2] = 1;
  match_any_gold(bin, sizeof(bin), pats, lens, 3, c, NULL, 0);
  CHECK(c[0] == 3 && c[1] == 1 && c[2] == 5);
  char s64[65]; /* a pattern of 64 bytes, the longest, at the end of a 70-byte text */
  for (int j = 0; j < 64; j++) s64[j] = (char)('a' + j % 7);
  s64[64] = '\0';
  char text[71] = "xyzuvw";
  memcpy(text + 6, s64, 64);
  np = any_list(s64, pats, lens);
  CHECK(np == 1 && lens[0] == 64);
  match_any_gold((const unsigned char *)text, 70, pats, lens, 1, c, NULL, 0);
  CHECK(c[0] == 1);
}

TEST(any_gold_lists_matches_in_order) {
  unsigned char pats[64 * 4];
  int lens[4];
  unsigned long long c[4], rec[16];
  /* pattern 0 (2 bytes) and pattern 1 (1 byte) at the same position: pattern 0 first, then pattern 1 */
  int np = any_list("ab|a|b", pats, lens);
  long long n = match_any_gold((const unsigned char *)"abab", 4, pats, lens, np, c, rec, 16);
  CHECK(n == 6);
  const unsigned long long want[6] = {0ull << 32 | 0, 0ull << 32 | 1, 1ull << 32 | 2,
                                      2ull << 32 | 0, 2ull << 32 | 1, 3ull << 32 | 2};
  for (int i = 0; i < 6; i++) CHECK(rec[i] == want[i]);
  n = match_any_gold((const unsigned char *)"abab", 4, pats, lens, np, c, rec, 2); /* room for 2: the count all */
  CHECK(n == 6 && rec[1] == want[1]);
}

TEST(any_gold_and_walk_equal_a_plain_search) {
  unsigned char *pats = malloc(64 * MATCH_ANY_MAX_PATTERNS);
  int *lens = malloc(sizeof(int) * MATCH_ANY_MAX_PATTERNS);
  size_t n = 3001;
  unsigned char *t = malloc(n);
  for (int trial = 0; trial < 6; trial++) { /* 3 letters (many matches, deep walks), then any byte */
    unsigned mod = trial < 3 ? 3 : 256;
    for (size_t i = 0; i < n; i++) t[i] = (unsigned char)((mod == 3 ? 'a' : 0) + prac9_hash(i, 40u + trial) % mod);
    int np = 1 + (int)(prac9_hash(trial, 9) % 300);
    for (int k = 0; k < np; k++) { /* half copied from the text, half hashed bytes; lengths 1 to 12, or 64 */
      unsigned h = prac9_hash((unsigned long long)k, 7u + trial);
      lens[k] = k % 17 == 16 ? 64 : 1 + (int)(h % 12);
      size_t at = h % (n - 64);
      for (int j = 0; j < lens[k]; j++)
        pats[64 * k + j] = k % 2 ? t[at + j] : (unsigned char)((mod == 3 ? 'a' : 0) + prac9_hash(k * 64 + j, 3) % mod);
    }
    any_agree(t, n, pats, lens, np);
    any_agree(t, trial, pats, lens, np); /* texts of 0 to 5 bytes */
  }
  free(t), free(pats), free(lens);
}

TEST(any_walk_on_prose_and_many_patterns) {
  unsigned char *pats = malloc(64 * MATCH_ANY_MAX_PATTERNS);
  int *lens = malloc(sizeof(int) * MATCH_ANY_MAX_PATTERNS);
  size_t n = 40003;
  unsigned char *t = malloc(n);
  match_generate(t, n, 2);
  const int np[4] = {1, 256, 256, 4096}, from[4] = {1, 1, 0, 1}, lo[4] = {1, 1, 1, 1}, hi[4] = {64, 64, 64, 64};
  for (int r = 0; r < 4; r++) {
    match_any_pick(pats, lens, np[r], lo[r], hi[r], from[r], t, n, 5);
    any_agree(t, n, pats, lens, np[r]);
  }
  match_any_pick(pats, lens, 4096, 64, 64, 0, t, n, 5); /* the largest automaton: 4096 x 64 letters */
  match_any_automaton a;
  CHECK(match_any_build(&a, pats, lens, 4096) == 0);
  CHECK(a.nstates > 4096 * 60 && a.depth == 64 && a.nacc == 4096);
  unsigned long long depths[65];
  unsigned long long steps = match_any_walk(&a, t, n, NULL, depths), walks = 0, sum = 0;
  for (int d = 0; d <= 64; d++) walks += depths[d], sum += (unsigned long long)(d + 1) * depths[d];
  CHECK(walks == n && steps == sum);
  match_any_free(&a);
  free(t), free(pats), free(lens);
}

TEST(any_picked_patterns) {
  unsigned char pats[64 * 64], again[64 * 64];
  int lens[64], lens2[64];
  unsigned long long c[64];
  size_t n = 20001;
  unsigned char *t = malloc(n);
  match_generate(t, n, 3);
  match_any_pick(pats, lens, 64, 3, 9, 1, t, n, 11);
  match_any_pick(again, lens2, 64, 3, 9, 1, t, n, 11);
  CHECK(memcmp(lens, lens2, sizeof(lens)) == 0);
  for (int k = 0; k < 64; k++)
    CHECK(lens[k] >= 3 && lens[k] <= 9 && memcmp(pats + 64 * k, again + 64 * k, (size_t)lens[k]) == 0);
  CHECK(memcmp(pats, t + n - lens[0], (size_t)lens[0]) == 0 && memcmp(pats + 64, t, (size_t)lens[1]) == 0);
  match_any_gold(t, n, pats, lens, 64, c, NULL, 0);
  for (int k = 0; k < 64; k++) CHECK(c[k] >= 1); /* each from the text: there at least once */
  match_any_pick(pats, lens, 64, 1, 64, 0, t, n, 11);
  for (int k = 0; k < 64; k++)
    for (int j = 0; j < lens[k]; j++) CHECK(pats[64 * k + j] >= 'a' && pats[64 * k + j] <= 'z');
  match_any_pick(pats, lens, 8, 5, 5, 1, t, 4, 11); /* a text shorter than the patterns: letters */
  for (int j = 0; j < 5; j++) CHECK(pats[j] >= 'a' && pats[j] <= 'z');
  free(t);
}

TEST(any_pattern_lists_parse) {
  unsigned char pats[64 * 8];
  int lens[8];
  char why[128];
  const unsigned char *f = (const unsigned char *)"ab\nc\n";
  CHECK(match_any_parse(f, 5, '\n', pats, lens, 8, why, sizeof(why)) == 2 && lens[0] == 2 && lens[1] == 1);
  CHECK(match_any_parse(f, 4, '\n', pats, lens, 8, why, sizeof(why)) == 2); /* no newline at the end */
  CHECK(match_any_parse((const unsigned char *)"a\n\nb", 4, '\n', pats, lens, 8, why, sizeof(why)) == -1);
  CHECK(strstr(why, "line 2 is empty") != NULL);
  CHECK(match_any_parse((const unsigned char *)"\n", 1, '\n', pats, lens, 8, why, sizeof(why)) == -1);
  CHECK(match_any_parse((const unsigned char *)"", 0, '\n', pats, lens, 8, why, sizeof(why)) == -1);
  CHECK(match_any_parse((const unsigned char *)"a,,b", 4, ',', pats, lens, 8, why, sizeof(why)) == -1);
  CHECK(match_any_parse((const unsigned char *)"a,", 2, ',', pats, lens, 8, why, sizeof(why)) == -1);
  CHECK(match_any_parse((const unsigned char *)"a,b,c", 5, ',', pats, lens, 2, why, sizeof(why)) == -1);
  char s65[66];
  memset(s65, 'x', 65), s65[65] = '\0';
  CHECK(match_any_parse((const unsigned char *)s65, 64, ',', pats, lens, 8, why, sizeof(why)) == 1);
  CHECK(match_any_parse((const unsigned char *)s65, 65, ',', pats, lens, 8, why, sizeof(why)) == -1);
  CHECK(strstr(why, "65 bytes") != NULL);
}

TEST(any_expand_lists_each_duplicate) {
  /* patterns 0 and 2 the same (accepting state 0), pattern 1 state 1; records in any order */
  const int acc_of[3] = {0, 1, 0};
  const unsigned long long rec[4] = {7ull << 32 | 1, 2ull << 32 | 0, 7ull << 32 | 0, 9ull << 32 | 5};
  unsigned long long out[8];
  size_t n = match_any_expand(rec, 4, acc_of, 3, 2, out, 8);
  CHECK(n == 6);
  const unsigned long long want[6] = {2ull << 32 | 0, 2ull << 32 | 2, 7ull << 32 | 0,
                                      7ull << 32 | 1, 7ull << 32 | 2, 9ull << 32 | 0xffffffffu};
  for (int i = 0; i < 6; i++) CHECK(out[i] == want[i]); /* state 5 is no state: kept, so that lists differ */
}

/* match_count_cpu (the ladder's gold and CPU peer) against match_gold_exact: generated prose and a text of every
 * byte value with zeros, words from the text and not, duplicates, texts of 0 to 40 bytes; and its lines, the
 * count grep -F -c gives, against a plain count of the lines that hold a match */
static long long lines_with_a_match(const unsigned char *t, size_t n, const unsigned char *w, int nw) {
  long long lines = 0;
  int matched = 0;
  for (size_t p = 0; p < n; p++) {
    for (int k = 0; k < nw && p + 4 <= n; k++)
      if (memcmp(t + p, w + 4 * k, 4) == 0 && !memchr(t + p, '\n', 4)) matched = 1;
    if (t[p] == '\n') lines += matched, matched = 0;
  }
  return lines + matched;
}

TEST(count_cpu_is_the_exact_count) {
  enum { N = 200003, NW = 300 };
  unsigned char *t = malloc(N), w[4 * NW];
  int a[NW], b[NW];
  CHECK(t != NULL);
  if (!t) return;
  for (int text = 0; text < 2; text++) {
    if (text == 0)
      match_generate(t, N, 7);
    else
      for (size_t i = 0; i < N; i++) t[i] = (unsigned char)(prac9_hash(i, 3) % 5 == 0 ? 0 : prac9_hash(i, 4));
    match_pick_words(w, NW, t, N, 11);
    memcpy(w + 4 * (NW - 1), w, 4); /* a duplicate: both get the count */
    long long lines = -1;
    CHECK(match_count_cpu(t, N, w, NW, a, &lines) == 0);
    match_gold_exact(t, N, w, NW, b);
    int same = 1, some = 0;
    for (int k = 0; k < NW; k++) same &= a[k] == b[k], some += a[k] > 0;
    CHECK(same && some > NW / 3 && a[NW - 1] == a[0]);
    CHECK(lines == lines_with_a_match(t, N, w, NW));
  }
  for (size_t n = 0; n <= 40; n++) { /* short texts, a word at the end, lines of one byte */
    const char *s = "word\nword gold\n\ntext.word word\nwor";
    size_t len = n < strlen(s) ? n : strlen(s);
    long long lines = -1;
    CHECK(match_count_cpu((const unsigned char *)s, len, (const unsigned char *)"wordgold", 2, a, &lines) == 0);
    match_gold_exact((const unsigned char *)s, len, (const unsigned char *)"wordgold", 2, b);
    CHECK(a[0] == b[0] && a[1] == b[1]);
    CHECK(lines == lines_with_a_match((const unsigned char *)s, len, (const unsigned char *)"wordgold", 2));
  }
  free(t);
}

/* -nwords's words from the text hold no newline where one can be avoided (each word a line of grep's file) */
TEST(picked_words_hold_no_newline) {
  enum { N = 100000, NW = 512 };
  unsigned char *t = malloc(N), w[4 * NW];
  CHECK(t != NULL);
  if (!t) return;
  match_generate(t, N, 1);
  match_pick_words(w, NW, t, N, 1);
  int nl = 0;
  for (int k = 0; k < NW; k++) nl += memchr(w + 4 * k, '\n', 4) != NULL;
  CHECK(nl == 0);
  free(t);
}

int main(void) {
  RUN(pack_is_the_course_s);
  RUN(count_cpu_is_the_exact_count);
  RUN(picked_words_hold_no_newline);
  RUN(first_last_and_straddling);
  RUN(overlapping_matches_count);
  RUN(short_texts_have_no_match);
  RUN(course_padding_is_the_only_difference);
  RUN(generated_text_is_prose_and_repeatable);
  RUN(planted_words_are_found);
  RUN(picked_words_occur);
  RUN(any_gold_counts_overlaps_prefixes_ends);
  RUN(any_gold_lists_matches_in_order);
  RUN(any_gold_and_walk_equal_a_plain_search);
  RUN(any_walk_on_prose_and_many_patterns);
  RUN(any_picked_patterns);
  RUN(any_pattern_lists_parse);
  RUN(any_expand_lists_each_duplicate);
  return test_summary();
}
