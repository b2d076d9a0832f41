/*
 * prac9_gold.h -- the CPU gold routines of practical 9 (counting 4-byte words in a text) and the texts and
 * words they are checked on. Declared once here, included by match.cu (compiled as C++), by match_gold.c,
 * which defines them (so that a changed signature fails to compile), and by tests/test_prac9.c.
 *
 * A word is 4 bytes. Two counts of it:
 *   - the course's (match_gold_course): the text read as ints of 4 bytes, each tested at byte offsets 0-3, as
 *     the course's gold_match does it, on a copy padded with 4 spaces. It tests the positions 0 to
 *     4 floor(length/4) - 1. Every 4-byte window of the text starts below that (length - 4 < 4 floor(length/4)),
 *     so none is missed; but the last 3 - length % 4 positions it tests (length >= 4) hang past the end into
 *     the padding, where a word ending in spaces ("the ") can match bytes the text does not hold;
 *   - the workbook's exact count (match_gold_exact): every byte position 0 to length - 4, and only those.
 * The GPU is held to the exact count. For words with no trailing space, the two are equal on every text.
 */
#ifndef PRAC9_GOLD_H
#define PRAC9_GOLD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MATCH_WORD_BYTES 4

/* a well-mixed 32-bit hash of (i, seed): the same text on any machine */
static inline unsigned prac9_hash(unsigned long long i, unsigned seed) {
  unsigned long long z = i * 0x9E3779B97F4A7C15ull + ((unsigned long long)seed << 32 | seed) + 0x2545F4914F6CDD1Dull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (unsigned)((z ^ (z >> 31)) >> 32);
}

/* the course's packing of a word into one int: c0 + c1 256 + c2 256^2 + c3 256^3 (the bytes taken unsigned),
 * the int a little-endian GPU reads from those 4 bytes in memory */
static inline unsigned match_pack(const unsigned char *w) {
  return (unsigned)w[0] | (unsigned)w[1] << 8 | (unsigned)w[2] << 16 | (unsigned)w[3] << 24;
}

/* positions a 4-byte window can start at in a text of `length` bytes: 0 to length - 4 */
static inline size_t match_positions(size_t length) { return length >= MATCH_WORD_BYTES ? length - 3 : 0; }

/* The course's count, as its gold_match defines it: words[] packed (match_pack), counts[w] the matches of
 * word w at the positions 0 to 4 floor(length/4) - 1 of the text padded with 4 spaces. */
void match_gold_course(const unsigned char *text, size_t length, const unsigned *words, int nwords, int *counts);

/* The exact count: counts[w] = the byte positions p, 0 <= p <= length - 4, where text[p..p+3] equals the 4 bytes
 * words[4w..4w+3]. Overlapping matches count ("aaaa" is 4 times in "aaaaaaa"). */
void match_gold_exact(const unsigned char *text, size_t length, const unsigned char *words, int nwords, int *counts);

/* -gen=N: n bytes of prose from `seed`: words drawn with a Zipf law (the k-th most common of a fixed vocabulary
 * with probability proportional to 1/k) between spaces, full stops and newlines, the same for a seed on any
 * machine */
void match_generate(unsigned char *text, size_t n, unsigned seed);

/*
 * Then match_plant puts the nwords words (4 bytes each) into it, never overlapping one another:
 *   - at position 0 (the very start) and at n - 4 (the very end; a text under 8 bytes gets the start one only);
 *   - at positions 5, 10 and 15: across the first 4-byte boundaries, at offsets 1, 2 and 3;
 *   - across every multiple of chunk_bytes (the GPU's chunk of text, and so every section boundary, as the
 *     sections are whole chunks): at c - 2, c - 3, c - 1, c - 2, ... for the 1st, 2nd, 3rd, ... multiple c.
 * Returns how many were planted; where[] and which[] (each NULL, or room for max) get their positions and the
 * index of the word planted there, in increasing order of position.
 */
size_t match_plant(unsigned char *text, size_t n, const unsigned char *words, int nwords, size_t chunk_bytes,
                   size_t *where, int *which, size_t max);

/* -nwords=N: N words for a text: the even-numbered ones copied from the text at hashed positions (they occur
 * at least once), the odd-numbered ones 4 hashed lowercase letters (mostly absent); all letters when the text
 * is under 4 bytes */
void match_pick_words(unsigned char *words, int nwords, const unsigned char *text, size_t length, unsigned seed);

#ifdef __cplusplus
}
#endif

#endif /* PRAC9_GOLD_H */
