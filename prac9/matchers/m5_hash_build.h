/*
 * m5_hash_build.h -- step 5's perfect hash, built on the host ("hash and displace", after Belazzougui, Botelho
 * and Dietzfelbinger's CHD): the distinct words in buckets by a first hash; the buckets, biggest first, each
 * given the least displacement d that sends every word of the bucket to a free slot, slot = h1(x) ^ d. A bucket
 * with two words of equal h1 can have no d: then the next multiplier for h1 is tried (a list of 64).
 */
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b) {
  const unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

static inline unsigned hash_bucket(const hash_plan *hp, unsigned x) { return (x * HASH_MUL0) >> hp->shift0; }
static inline unsigned hash_h1(const hash_plan *hp, unsigned x) { return (x * hp->mul1) >> hp->shift1; }

static int log2_of(int n) {
  int s = 0;
  while ((1 << s) < n) s++;
  return s;
}

static int hash_build(hash_plan *hp, int smem_optin, const unsigned *words, int nwords, unsigned **keys_out,
                      unsigned **disp_out, int **slot_of_out, char *why, size_t nwhy) {
  unsigned *d = (unsigned *)malloc(sizeof(unsigned) * nwords); // the distinct words
  int nd = 0;
  if (!d) return snprintf(why, nwhy, "out of host memory"), 0;
  memcpy(d, words, sizeof(unsigned) * nwords);
  qsort(d, nwords, sizeof(unsigned), by_value);
  for (int i = 0; i < nwords; i++)
    if (nd == 0 || d[nd - 1] != d[i]) d[nd++] = d[i];
  hp->buckets = 2, hp->slots = 64; // at least 2 buckets and 64 slots: both shifts stay under 32
  while (hp->buckets * HASH_WORDS_PER_BUCKET < nd) hp->buckets *= 2;
  while (hp->slots < 2 * nd) hp->slots *= 2; // 2 to 4 slots per distinct word
  hp->smem = sizeof(unsigned) * (2 * (size_t)hp->slots + hp->buckets);
  if (hp->smem > (size_t)smem_optin && hp->slots / 2 >= nd) // a full table where a half-full one does not fit
    hp->slots /= 2, hp->smem = sizeof(unsigned) * (2 * (size_t)hp->slots + hp->buckets);
  if (hp->smem > (size_t)smem_optin) {
    free(d);
    return snprintf(why, nwhy, "a table of %d slots needs %zu bytes of shared memory per block; this GPU has %d",
                    hp->slots, hp->smem, smem_optin),
           0;
  }
  hp->shift0 = 32 - log2_of(hp->buckets), hp->shift1 = 32 - log2_of(hp->slots);
  unsigned *keys = (unsigned *)malloc(sizeof(unsigned) * hp->slots);
  unsigned *disp = (unsigned *)calloc(hp->buckets, sizeof(unsigned));
  int *order = (int *)malloc(sizeof(int) * nd), *start = (int *)calloc(hp->buckets + 1, sizeof(int));
  int *by_size = (int *)malloc(sizeof(int) * hp->buckets);
  int *slot_of = (int *)malloc(sizeof(int) * ((nwords > hp->buckets ? nwords : hp->buckets) + 1)); // (a cursor too)
  char *used = (char *)malloc(hp->slots);
  int built = 0;
  if (keys && disp && order && start && by_size && slot_of && used) {
    for (int i = 0; i < nd; i++) start[hash_bucket(hp, d[i]) + 1]++; // the words bucket by bucket
    for (int b = 0; b < hp->buckets; b++) start[b + 1] += start[b], by_size[b] = b;
    memcpy(slot_of, start, sizeof(int) * hp->buckets); // (slot_of as a cursor per bucket for now)
    for (int i = 0; i < nd; i++) order[slot_of[hash_bucket(hp, d[i])]++] = i;
    for (int i = 1; i < hp->buckets; i++) // the buckets, biggest first (insertion sort: stable, few thousand)
      for (int j = i;
           j > 0 && start[by_size[j] + 1] - start[by_size[j]] > start[by_size[j - 1] + 1] - start[by_size[j - 1]];
           j--) {
        int t = by_size[j];
        by_size[j] = by_size[j - 1], by_size[j - 1] = t;
      }
    for (int m = 0; m < 64 && !built; m++) {
      hp->mul1 = m == 0 ? 0x85EBCA6Bu : (prac9_hash((unsigned long long)m, 0x27d4eb2fu) | 1u);
      memset(used, 0, hp->slots);
      built = 1;
      for (int i = 0; i < hp->buckets && built; i++) {
        const int b = by_size[i], lo = start[b], hi = start[b + 1];
        unsigned disp_b = 0;
        int found = hi == lo;
        for (unsigned t = 0; t < (unsigned)hp->slots && !found; t++) { // the least free displacement
          found = 1;
          for (int k = lo; k < hi && found; k++) {
            const unsigned s = hash_h1(hp, d[order[k]]) ^ t;
            found = !used[s];
            for (int k2 = lo; k2 < k && found; k2++) found = (hash_h1(hp, d[order[k2]]) ^ t) != s;
          }
          if (found) disp_b = t;
        }
        if (!found) built = 0; // no displacement: the next multiplier
        disp[b] = disp_b;
        for (int k = lo; k < hi && found; k++) used[hash_h1(hp, d[order[k]]) ^ disp_b] = 1;
      }
    }
  }
  if (built) { // the keys; an empty slot holds the first word, whose slot is another one (occupied by it)
    for (int s = 0; s < hp->slots; s++) keys[s] = d[0];
    for (int i = 0; i < nd; i++) keys[hash_h1(hp, d[i]) ^ disp[hash_bucket(hp, d[i])]] = d[i];
    for (int w = 0; w < nwords; w++) slot_of[w] = (int)(hash_h1(hp, words[w]) ^ disp[hash_bucket(hp, words[w])]);
  } else {
    snprintf(why, nwhy, "no perfect hash of %d words into %d slots was found", nd, hp->slots);
  }
  free(d), free(order), free(start), free(by_size), free(used);
  if (!built) free(keys), free(disp), free(slot_of);
  *keys_out = built ? keys : NULL, *disp_out = built ? disp : NULL, *slot_of_out = built ? slot_of : NULL;
  return built;
}
