/*
 * match_any_gold.c -- practical 9, step 3 (gcc, C11): match_any's host side. Its gold, a search of its own that
 * shares nothing with the GPU's automaton; the automaton itself, built here on the host and walked here too
 * (tests/test_prac9.c holds that walk to the gold); and the pattern lists. prac9_gold.h says what each does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "prac9_gold.h"

#define MAXLEN MATCH_ANY_MAX_LEN

/* ---- the pattern lists ---------------------------------------------------------------------------- */

int match_any_parse(const unsigned char *list, size_t n, char sep, unsigned char *pats, int *lens, int max, char *why,
                    size_t nwhy) {
  const char *item = sep == '\n' ? "line" : "pattern";
  if (sep == '\n' && n > 0 && list[n - 1] == '\n') n--; /* a file's last line ends with a newline, or not */
  if (n == 0 && sep == '\n') return snprintf(why, nwhy, "it holds no pattern"), -1;
  int np = 0;
  for (size_t at = 0;; at++) { /* at: the first byte of the item */
    const unsigned char *end = memchr(list + at, sep, n - at);
    size_t len = end ? (size_t)(end - list) - at : n - at;
    if (len == 0) return snprintf(why, nwhy, "%s %d is empty: a pattern is 1 to %d bytes", item, np + 1, MAXLEN), -1;
    if (len > MAXLEN) return snprintf(why, nwhy, "%s %d is %zu bytes, over %d", item, np + 1, len, MAXLEN), -1;
    if (np == max) return snprintf(why, nwhy, "more than %d patterns", max), -1;
    memcpy(pats + (size_t)MAXLEN * np, list + at, len);
    lens[np++] = (int)len;
    at += len;
    if (at >= n) return np;
  }
}

int match_any_lengths(const char *s, int *lo, int *hi) {
  char *end;
  long a = strtol(s, &end, 10), b = a;
  if (end != s && *end == '-') b = strtol(end + 1, &end, 10);
  if (end == s || *end != '\0' || !(s[0] >= '0' && s[0] <= '9') || a < 1 || b < a || b > MAXLEN) return -1;
  *lo = (int)a, *hi = (int)b;
  return 0;
}

void match_any_pick(unsigned char *pats, int *lens, int npats, int minlen, int maxlen, int from_text,
                    const unsigned char *text, size_t length, unsigned seed) {
  for (int k = 0; k < npats; k++) {
    int len = minlen + (int)(prac9_hash((unsigned long long)k, seed ^ 0x85ebca6bu) % (unsigned)(maxlen - minlen + 1));
    unsigned char *p = pats + (size_t)MAXLEN * k;
    lens[k] = len;
    if (from_text && length >= (size_t)len) { /* pattern 0 ends the text, pattern 1 starts it */
      size_t span = length - (size_t)len + 1;
      size_t at = k == 0 ? span - 1 : k == 1 ? 0 : prac9_hash((unsigned long long)k, seed ^ 0xc2b2ae35u) % span;
      memcpy(p, text + at, (size_t)len);
    } else {
      for (int j = 0; j < len; j++)
        p[j] = (unsigned char)('a' + prac9_hash((unsigned long long)k * MAXLEN + j, seed ^ 0x27d4eb2fu) % 26);
    }
  }
}

/* ---- the gold ------------------------------------------------------------------------------------- */

/* Patterns in buckets by their first byte (those of 1 byte) or first two bytes (the others), each bucket in
 * increasing pattern number; and each pattern's first (up to) 8 bytes as one word and its mask, so that most
 * candidates are ruled out by one compare. Built with memcpy, so the words compare on either byte order. */
typedef struct {
  unsigned *start1, *start2; /* bucket b's patterns are list[start[b] .. start[b + 1]) */
  int *list1, *list2;
  unsigned long long *head, *mask;
} gold_buckets;

static int gold_buckets_make(gold_buckets *g, const unsigned char *pats, const int *lens, int npats) {
  g->start1 = calloc(257 + 65537, sizeof(unsigned)), g->start2 = g->start1 ? g->start1 + 257 : NULL;
  g->list1 = malloc(sizeof(int) * npats), g->list2 = malloc(sizeof(int) * npats);
  g->head = malloc(sizeof(unsigned long long) * npats), g->mask = malloc(sizeof(unsigned long long) * npats);
  if (!g->start1 || !g->list1 || !g->list2 || !g->head || !g->mask) return -1;
  for (int k = 0; k < npats; k++) { /* count, then place (k increasing: each bucket in pattern order) */
    const unsigned char *p = pats + (size_t)MAXLEN * k;
    if (lens[k] == 1)
      g->start1[p[0] + 1]++;
    else
      g->start2[(p[0] << 8 | p[1]) + 1]++;
  }
  for (int b = 0; b < 256; b++) g->start1[b + 1] += g->start1[b];
  for (int b = 0; b < 65536; b++) g->start2[b + 1] += g->start2[b];
  unsigned *fill = malloc(sizeof(unsigned) * (256 + 65536));
  if (!fill) return -1;
  memcpy(fill, g->start1, 256 * sizeof(unsigned)), memcpy(fill + 256, g->start2, 65536 * sizeof(unsigned));
  unsigned char ones[8];
  memset(ones, 0xff, 8);
  for (int k = 0; k < npats; k++) {
    const unsigned char *p = pats + (size_t)MAXLEN * k;
    if (lens[k] == 1)
      g->list1[fill[p[0]]++] = k;
    else
      g->list2[fill[256 + (p[0] << 8 | p[1])]++] = k;
    size_t h = lens[k] < 8 ? (size_t)lens[k] : 8;
    g->head[k] = g->mask[k] = 0;
    memcpy(&g->head[k], p, h), memcpy(&g->mask[k], ones, h);
  }
  free(fill);
  return 0;
}

static void gold_buckets_free(gold_buckets *g) {
  free(g->start1), free(g->list1), free(g->list2), free(g->head), free(g->mask);
}

/* Positions lo..hi-1: at each, the candidates of the two buckets, merged in pattern order, each compared with
 * the text byte by byte (8 at once, then memcmp). Counts into counts[], records (while nrec < maxrec) into rec. */
static unsigned long long gold_range(const gold_buckets *g, const unsigned char *text, size_t length, size_t lo,
                                     size_t hi, const unsigned char *pats, const int *lens, unsigned long long *counts,
                                     unsigned long long *rec, size_t maxrec, unsigned long long nrec) {
  for (size_t p = lo; p < hi; p++) {
    unsigned long long t8 = 0;
    memcpy(&t8, text + p, length - p < 8 ? length - p : 8);
    unsigned i1 = g->start1[text[p]], e1 = g->start1[text[p] + 1], i2 = 0, e2 = 0;
    if (p + 1 < length) i2 = g->start2[text[p] << 8 | text[p + 1]], e2 = g->start2[(text[p] << 8 | text[p + 1]) + 1];
    while (i1 < e1 || i2 < e2) {
      int k = (i2 >= e2 || (i1 < e1 && g->list1[i1] < g->list2[i2])) ? g->list1[i1++] : g->list2[i2++];
      size_t len = (size_t)lens[k];
      if (len > length - p || (t8 & g->mask[k]) != g->head[k]) continue;
      if (len > 8 && memcmp(text + p + 8, pats + (size_t)MAXLEN * k + 8, len - 8) != 0) continue;
      counts[k]++;
      if (rec && nrec < maxrec) rec[nrec] = (unsigned long long)p << 32 | (unsigned)k;
      nrec++;
    }
  }
  return nrec;
}

long long match_any_gold(const unsigned char *text, size_t length, const unsigned char *pats, const int *lens,
                         int npats, unsigned long long *counts, unsigned long long *rec, size_t maxrec) {
  gold_buckets g;
  int failed = gold_buckets_make(&g, pats, lens, npats);
  unsigned long long total = 0;
  memset(counts, 0, sizeof(unsigned long long) * npats);
  if (!failed && rec) { /* the list in order: one pass */
    total = gold_range(&g, text, length, 0, length, pats, lens, counts, rec, maxrec, 0);
  } else if (!failed) { /* counts alone: a share of the positions on each core, then the sums */
#ifdef _OPENMP
#pragma omp parallel reduction(+ : total)
#endif
    {
      int t = 0, nt = 1;
#ifdef _OPENMP
      t = omp_get_thread_num(), nt = omp_get_num_threads();
#endif
      unsigned long long *mine = calloc((size_t)npats, sizeof(unsigned long long));
      if (mine) {
        size_t lo = length / nt * t, hi = t == nt - 1 ? length : length / nt * (t + 1);
        total += gold_range(&g, text, length, lo, hi, pats, lens, mine, NULL, 0, 0);
#ifdef _OPENMP
#pragma omp critical
#endif
        for (int k = 0; k < npats; k++) counts[k] += mine[k];
        free(mine);
      } else {
#ifdef _OPENMP
#pragma omp atomic write
#endif
        failed = 1;
      }
    }
  }
  gold_buckets_free(&g);
  return failed ? -1 : (long long)total;
}

/* ---- the automaton -------------------------------------------------------------------------------- */

/* The trie while it is built: each state's first child and next sibling (siblings in increasing byte order) */
typedef struct {
  int first, next, acc;
  unsigned char label;
} trie_node;

/* the arrays that grow with the slots: slot words, accepting numbers, used slots, used bases, and next-free links
 * (used slot i points at a slot > i at or below the next free one: find_free follows and shortens them) */
typedef struct {
  unsigned *slot;
  unsigned short *acc;
  unsigned char *used, *base_used;
  int *next;
  int cap;
} slots_build;

static int grow(slots_build *s, long long need) {
  if (need <= s->cap) return 0;
  if (need > (1 << 22)) return -1; /* a base is 22 bits of its slot word */
  int cap = s->cap ? s->cap : 1024;
  while (cap < need) cap *= 2;
  unsigned *slot = realloc(s->slot, sizeof(unsigned) * cap);
  if (slot) s->slot = slot;
  unsigned short *acc = realloc(s->acc, sizeof(unsigned short) * cap);
  if (acc) s->acc = acc;
  unsigned char *used = realloc(s->used, cap), *bu = used ? realloc(s->base_used, cap) : NULL;
  if (used) s->used = used;
  if (bu) s->base_used = bu;
  int *next = realloc(s->next, sizeof(int) * cap);
  if (next) s->next = next;
  if (!slot || !acc || !used || !bu || !next) return -1;
  for (int i = s->cap; i < cap; i++)
    s->slot[i] = MATCH_ANY_NO_LABEL, s->acc[i] = 0xffff, s->used[i] = 0, s->base_used[i] = 0, s->next[i] = i + 1;
  s->cap = cap;
  return 0;
}

static int find_free(slots_build *s, int i) {
  int r = i;
  while (r < s->cap && s->used[r]) r = s->next[r];
  while (i < s->cap && s->used[i] && s->next[i] < r) { /* shorten the path */
    int n = s->next[i];
    s->next[i] = r, i = n;
  }
  return r;
}

int match_any_build(match_any_automaton *a, const unsigned char *pats, const int *lens, int npats) {
  memset(a, 0, sizeof(*a));
  size_t maxnodes = 1;
  for (int k = 0; k < npats; k++) maxnodes += (size_t)lens[k];
  trie_node *t = malloc(sizeof(trie_node) * maxnodes);
  int *queue = malloc(sizeof(int) * maxnodes), *slot_of = malloc(sizeof(int) * maxnodes);
  a->acc_of = malloc(sizeof(int) * npats), a->acc_slot = malloc(sizeof(int) * npats);
  slots_build s = {NULL, NULL, NULL, NULL, NULL, 0};
  int failed = !t || !queue || !slot_of || !a->acc_of || !a->acc_slot || grow(&s, 512);
  int nnodes = 1;
  if (!failed) t[0].first = t[0].next = t[0].acc = -1, t[0].label = 0;
  for (int k = 0; k < npats && !failed; k++) { /* the trie: each pattern from the root, new states as needed */
    int st = 0;
    for (int j = 0; j < lens[k]; j++) {
      unsigned char b = pats[(size_t)MAXLEN * k + j];
      int *link = &t[st].first; /* the sibling list, in byte order: find b, or where it goes */
      while (*link >= 0 && t[*link].label < b) link = &t[*link].next;
      if (*link < 0 || t[*link].label != b) {
        t[nnodes].first = -1, t[nnodes].next = *link, t[nnodes].acc = -1, t[nnodes].label = b;
        *link = nnodes++;
      }
      st = *link;
      if (j + 1 > a->depth) a->depth = j + 1;
    }
    if (t[st].acc < 0) t[st].acc = a->nacc++; /* a duplicate pattern ends in the same state */
    a->acc_of[k] = t[st].acc;
  }
  /* the double array, breadth first: slots 0..255 kept out of use (the root is slot 0), so that a leaf's base 0
   * leads only to slots whose label is no byte; each state with children gets a base of its own, at which every
   * child's slot is free */
  for (int i = 0; i < 256 && !failed; i++) s.used[i] = 1, s.next[i] = 256;
  /* Where the search for a free slot starts: a state with many children looks on from where the last one's went;
   * one with a child, from 1024 slots before the last slot placed. Older holes stay empty (a few per cent): else
   * every search would pass every hole no base fits, and the build would take time quadratic in the states */
  int head = 0, tail = 0, maxbase = 0, multi_from = 256, last = 256;
  if (!failed) queue[tail++] = 0, slot_of[0] = 0;
  while (head < tail && !failed) {
    int st = queue[head++], c0 = t[st].first, base = 0, multi = c0 >= 0 && t[c0].next >= 0;
    if (c0 >= 0) {
      int from = multi ? multi_from : last - 1024 > 256 ? last - 1024 : 256;
      for (int f = find_free(&s, from);; f = find_free(&s, f + 1)) { /* f: a free slot for the first child */
        base = f - t[c0].label;
        if ((failed = grow(&s, (long long)base + 257))) break;
        int fits = !s.base_used[base];
        for (int c = t[c0].next; c >= 0 && fits; c = t[c].next) fits = !s.used[base + t[c].label];
        if (fits) break;
      }
      if (failed) break;
      if (multi) multi_from = base + t[c0].label;
      last = base + t[c0].label;
      s.base_used[base] = 1;
      if (base > maxbase) maxbase = base;
      for (int c = c0; c >= 0; c = t[c].next) {
        int at = base + t[c].label;
        s.used[at] = 1, s.next[at] = at + 1, slot_of[c] = at, queue[tail++] = c;
        s.slot[at] = t[c].label | (t[c].acc >= 0 ? 1u << 9 : 0u);
        if (t[c].acc >= 0) s.acc[at] = (unsigned short)t[c].acc, a->acc_slot[t[c].acc] = at;
      }
    }
    s.slot[slot_of[st]] |= (unsigned)base << 10;
  }
  if (!failed) {
    a->slot = s.slot, a->acc = s.acc, a->nslots = maxbase + 256, a->nstates = nnodes;
    a->root_base = MATCH_ANY_BASE(s.slot[0]);
  } else {
    free(s.slot), free(s.acc);
  }
  free(s.used), free(s.base_used), free(s.next), free(t), free(queue), free(slot_of);
  return failed ? -1 : 0;
}

void match_any_free(match_any_automaton *a) {
  free(a->slot), free(a->acc), free(a->acc_of), free(a->acc_slot);
  memset(a, 0, sizeof(*a));
}

unsigned long long match_any_walk(const match_any_automaton *a, const unsigned char *text, size_t length,
                                  unsigned long long *counts, unsigned long long *depths) {
  unsigned long long steps = 0;
  if (counts) memset(counts, 0, sizeof(unsigned long long) * a->nacc);
  if (depths) memset(depths, 0, sizeof(unsigned long long) * (MAXLEN + 1));
  for (size_t p = 0; p < length; p++) { /* PFAC: from the root at every position, until no transition */
    unsigned base = a->root_base;
    size_t j = p;
    for (; j < length; j++) {
      unsigned at = base + text[j], e = a->slot[at];
      if (MATCH_ANY_LABEL(e) != text[j]) break;
      if (MATCH_ANY_ACCEPTS(e) && counts) counts[a->acc[at]]++;
      base = MATCH_ANY_BASE(e);
    }
    steps += j - p + 1;
    if (depths) depths[j - p]++;
  }
  return steps;
}

static int record_cmp(const void *x, const void *y) {
  unsigned long long a = *(const unsigned long long *)x, b = *(const unsigned long long *)y;
  return (a > b) - (a < b);
}

size_t match_any_expand(const unsigned long long *rec, size_t nrec, const int *acc_of, int npats, int nacc,
                        unsigned long long *out, size_t maxout) {
  int *start = calloc((size_t)nacc + 1, sizeof(int)), *list = malloc(sizeof(int) * npats);
  size_t n = 0;
  if (start && list) {
    for (int k = 0; k < npats; k++) start[acc_of[k] + 1]++;
    for (int s = 0; s < nacc; s++) start[s + 1] += start[s];
    for (int k = 0; k < npats; k++) list[start[acc_of[k]]++] = k; /* start[s] now ends s's patterns */
    for (size_t r = 0; r < nrec; r++) {
      unsigned s = (unsigned)(rec[r] & 0xffffffffu);
      if (s >= (unsigned)nacc) { /* no accepting state: kept, as pattern 0xffffffff, so that the lists differ */
        if (n < maxout) out[n] = rec[r] | 0xffffffffull;
        n++;
        continue;
      }
      for (int i = s ? start[s - 1] : 0; i < start[s]; i++, n++)
        if (n < maxout) out[n] = (rec[r] & ~0xffffffffull) | (unsigned)list[i];
    }
    qsort(out, n < maxout ? n : maxout, sizeof(unsigned long long), record_cmp);
  }
  free(start), free(list);
  return n;
}
