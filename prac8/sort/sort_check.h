/*
 * sort/sort_check.h -- practical 8, steps 7 to 9: how radix_sort checks what a method left in d_out (and
 * d_vout), after its first call and again after its timed runs (-bench): every key against radix_sort_gold's
 * (a stable CPU radix sort, itself checked against qsort by tests/test_prac8.c), and with -pairs every value
 * (its key's input index) against the gold's, which only a stable sort reproduces.
 *
 * Float keys and the two zeros: the gold's bijection, and so onesweep, puts every -0.0 before every +0.0, while
 * CUB and Thrust order -0 and +0 as equal keys. The libraries' float keys therefore compare as floats (-0 ==
 * +0), and their values, where the key is a zero, by values_check_zeros_free below; every other method's keys
 * compare bit for bit (a +0 where the gold has -0 is a key out of place) and its values exactly.
 */
#ifndef PRAC8_SORT_CHECK_H
#define PRAC8_SORT_CHECK_H

#include <stdio.h>
#include <string.h>

#include "gold_check.h"
#include "sort_common.cuh"

// what every check needs: the input and the gold, host room for n keys copied back, and the counts so far
typedef struct {
  size_t n;
  int pairs, is_float;
  const unsigned *h_in, *h_gold, *h_vgold; // input keys; the gold's keys (float bits with -float) and values
  unsigned *h_out;                         // n keys or values, copied back
  unsigned char *h_seen;                   // n bytes, for values_check_zeros_free
  size_t nbad, nbad_zero_sign; // every check's keys and values out of place; of those, zeros of the wrong sign
} sort_oracle;

// The values beside float keys sorted by CUB or Thrust: where the gold's key is a zero, the value must be the
// index of an input zero, each index once (seen[] holds n bytes); everywhere else it must be the gold's value.
// Returns the count of bad ones.
static size_t values_check_zeros_free(const unsigned *val, const unsigned *vgold, const unsigned *kgold,
                                      const unsigned *kin, size_t n, unsigned char *seen) {
  size_t nbad = 0;
  memset(seen, 0, n);
  for (size_t i = 0; i < n; i++) {
    unsigned v = val[i];
    if ((kgold[i] & 0x7FFFFFFFu) == 0) { // the float key is -0 or +0
      nbad += !(v < n && (kin[v] & 0x7FFFFFFFu) == 0 && !seen[v]);
      if (v < n) seen[v] = 1;
    } else {
      nbad += v != vgold[i];
    }
  }
  return nbad;
}

// Method `name`'s output against the gold; equal_zeros: the method orders -0 and +0 as equal keys (CUB,
// Thrust). Prints its lines, adds to o->nbad (and o->nbad_zero_sign); returns 1 when everything is in place.
static int sort_check_output(sort_oracle *o, const sort_plan *p, const char *name, int equal_zeros) {
  size_t n = o->n, nbad, zero_sign = 0;
  gold_stats st;
  checkCudaErrors(cudaMemcpy(o->h_out, p->d_out, n * 4, cudaMemcpyDeviceToHost));
  if (o->is_float && equal_zeros)
    nbad = compare_float((const float *)o->h_out, (const float *)o->h_gold, n, 0.0, 0.0, &st);
  else // bit for bit (compare_int on the bits of the floats with -float)
    nbad = compare_int((const int *)o->h_out, (const int *)o->h_gold, n, &st);
  gold_report(name, &st);
  if (o->is_float && !equal_zeros && nbad) { // how many of them only a comparison of bits can see
    for (size_t i = 0; i < n; i++)
      zero_sign += o->h_out[i] != o->h_gold[i] && ((o->h_out[i] | o->h_gold[i]) & 0x7FFFFFFFu) == 0;
    printf("%s: %zu of the %zu keys out of place are a zero of the wrong sign (-0 and +0, equal as floats)\n", name,
           zero_sign, nbad);
  }
  if (o->pairs) {
    char vname[96];
    snprintf(vname, sizeof(vname), "%s values", name);
    checkCudaErrors(cudaMemcpy(o->h_out, p->d_vout, n * 4, cudaMemcpyDeviceToHost));
    if (o->is_float && equal_zeros) {
      size_t nbad_v = values_check_zeros_free(o->h_out, o->h_vgold, o->h_gold, o->h_in, n, o->h_seen);
      printf("%s: %zu of %zu out of place (where the key is -0 or +0: any input zero, each once)\n", vname, nbad_v, n);
      nbad += nbad_v;
    } else { // a stable sort: every value where the gold put it
      nbad += compare_int((const int *)o->h_out, (const int *)o->h_vgold, n, &st);
      gold_report(vname, &st);
    }
  }
  o->nbad += nbad, o->nbad_zero_sign += zero_sign;
  return nbad == 0;
}

#endif /* PRAC8_SORT_CHECK_H */
