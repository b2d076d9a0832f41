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
 * at least once; the first position from the hashed one on whose 4 bytes hold no newline, where one is near, so
 * that each word is one line of a pattern file for grep), the odd-numbered ones 4 hashed lowercase letters
 * (mostly absent); all letters when the text is under 4 bytes */
void match_pick_words(unsigned char *words, int nwords, const unsigned char *text, size_t length, unsigned seed);

/* The ladder's gold and the CPU peer (match_ladder -bench): the exact count of match_gold_exact, for many words on
 * long texts. Each byte position's 4 bytes are looked up among the distinct words, sorted and put in buckets by
 * their first two bytes (65,536 buckets: a position costs one bucket read and, rarely, a compare or two), on
 * every core with OpenMP. A way of its own: no hash, no shifted ints, nothing the GPU's kernels do. counts[w] as
 * match_gold_exact's; *lines (NULL: not wanted): the lines (runs of bytes ended by '\n', or the text's end)
 * that hold at least one match wholly inside them, which is what `grep -F -c` counts. Returns 0, or -1 when out of
 * host memory. */
int match_count_cpu(const unsigned char *text, size_t length, const unsigned char *words, int nwords, int *counts,
                    long long *lines);

/* ---- match_any (step 3): patterns of any length, 1 to 64 bytes, in match_any_gold.c ------------------------
 * A pattern list is npats patterns, pattern k the lens[k] bytes at pats[64 k ...] (64 bytes of room each).
 * Overlapping matches count, and a pattern given twice is two patterns, each with every match. */
#define MATCH_ANY_MAX_LEN 64
#define MATCH_ANY_MAX_PATTERNS 4096

/* -patterns=FILE (sep '\n': one pattern a line; a newline at the end of the last line is no empty line) or a
 * -words= list (sep ','): each item 1 to 64 bytes, at most max of them. Returns how many, or -1 with the reason
 * in why: an empty item, one over 64 bytes, more than max, or none at all. */
int match_any_parse(const unsigned char *list, size_t n, char sep, unsigned char *pats, int *lens, int max, char *why,
                    size_t nwhy);

/* -lengths=MIN-MAX, or one length: 0 with 1 <= *lo <= *hi <= 64 set, else -1 */
int match_any_lengths(const char *s, int *lo, int *hi);

/* -npatterns=N: lengths hashed from minlen to maxlen. from_text: each the bytes of the text at a hashed position,
 * pattern 0 at the very end of the text and pattern 1 at its very start (so that a run always has a match at
 * each end); one longer than the text, and every one when !from_text, lowercase letters (mostly absent). */
void match_any_pick(unsigned char *pats, int *lens, int npats, int minlen, int maxlen, int from_text,
                    const unsigned char *text, size_t length, unsigned seed);

/* The gold: counts[k] = the positions p, 0 <= p <= length - lens[k], where the text holds pattern k. A search
 * of its own: at each position, the patterns whose first two bytes (or first byte, for 1-byte ones) are the
 * text's there, each compared with the text byte by byte; no trie, no automaton, nothing the GPU's kernel
 * shares. On every core with OpenMP, unless rec is given; rec (NULL: not wanted) gets the first maxrec matches
 * as (position << 32 | k), in order of position, then pattern. Returns the number of matches in all, or -1 when
 * out of host memory. */
long long match_any_gold(const unsigned char *text, size_t length, const unsigned char *pats, const int *lens,
                         int npats, unsigned long long *counts, unsigned long long *rec, size_t maxrec);

/* The automaton the GPU walks: the trie of the patterns as a double array, a word a slot. From the state in a
 * slot whose base is b, byte c leads to slot b + c, if that slot's label is c; else there is no transition.
 *   bits 0-8   label: the byte on the edge into this state, or MATCH_ANY_NO_LABEL (a free slot, the root's)
 *   bit  9     accepting: a pattern ends here (acc[] says which accepting state it is)
 *   bits 10-31 base: where this state's children are (0 for a state with none)
 * Every state with children has a base of its own, so a label of 8 bits is check enough: a slot b + c labelled
 * c is the child of the one state whose base is b. Slots 0-255 hold no child (0 is the root), so base 0 leads
 * nowhere. States are placed breadth first: the states nearest the root have the lowest slots. */
#define MATCH_ANY_NO_LABEL 0x1ffu
#define MATCH_ANY_LABEL(e) ((e) & 0x1ffu)
#define MATCH_ANY_ACCEPTS(e) (((e) >> 9) & 1u)
#define MATCH_ANY_BASE(e) ((e) >> 10)

typedef struct {
  unsigned *slot;      /* nslots slot words */
  unsigned short *acc; /* nslots: the accepting state in a slot, 0 .. nacc - 1 (0xffff where none) */
  int nslots, nstates; /* slots (every slot base + c of every base in range), and states, the root included */
  int nacc, depth;     /* accepting states (the distinct patterns), and the longest pattern */
  unsigned root_base;  /* the root's base: its children are slots root_base + c */
  int *acc_of;         /* [npats]: the accepting state pattern k ends in (duplicates: the same one) */
  int *acc_slot;       /* [nacc]: the slot of accepting state s */
} match_any_automaton;

/* Builds it (0), or returns -1 when out of host memory; match_any_free releases it. */
int match_any_build(match_any_automaton *a, const unsigned char *pats, const int *lens, int npats);
void match_any_free(match_any_automaton *a);

/* PFAC on the host, as the GPU walks: from the root at every position, one transition a byte, until none is left
 * or the text ends. counts[s] (NULL, or room for nacc): the walks that passed accepting state s; depths[d] (NULL,
 * or room for 65): the walks that reached depth d. Returns the steps in all: the depth each walk reached, plus
 * the one that found no transition. For the tests, and for the runner's count of how deep walks go. */
unsigned long long match_any_walk(const match_any_automaton *a, const unsigned char *text, size_t length,
                                  unsigned long long *counts, unsigned long long *depths);

/* The GPU's list of matches, records (position << 32 | accepting state) in any order, as match_any_gold's: each
 * record once for every pattern that ends in its state, sorted by position, then pattern. Writes at most maxout
 * records to out; returns how many there are. */
size_t match_any_expand(const unsigned long long *rec, size_t nrec, const int *acc_of, int npats, int nacc,
                        unsigned long long *out, size_t maxout);

#ifdef __cplusplus
}
#endif

#endif /* PRAC9_GOLD_H */
