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

int main(void) {
  RUN(pack_is_the_course_s);
  RUN(first_last_and_straddling);
  RUN(overlapping_matches_count);
  RUN(short_texts_have_no_match);
  RUN(course_padding_is_the_only_difference);
  RUN(generated_text_is_prose_and_repeatable);
  RUN(planted_words_are_found);
  RUN(picked_words_occur);
  return test_summary();
}
