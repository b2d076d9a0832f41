/*
 * elementwise/table.h -- the operator table of step 8 (eltwise.cu): names, kinds, element sizes, and which types
 * each operator takes. Plain C: the runner and tests/test_prac6.c share it. The enums themselves are in
 * prac6_gold.h, which the gold's signatures need.
 */
#ifndef ELTWISE_TABLE_H
#define ELTWISE_TABLE_H

#include <string.h>

#include "../prac6_gold.h"

static const char *const elt_op_names[ELT_NOPS] = {"add", "sub", "mul", "div", "max", "min", "and", "or",
                                                   "xor", "lt",  "le",  "eq",  "ne",  "gt",  "ge"};
static const char *const elt_type_names[ELT_NTYPES] = {"half", "float", "int8"};

/* arithmetic keeps the inputs' type; logical and relational operators give uint8 0/1 (a bool tensor) */
static inline int elt_is_arith(int op) { return op <= ELT_MIN; }
static inline int elt_is_logical(int op) { return op >= ELT_AND && op <= ELT_XOR; }
static inline size_t elt_size(int type) { return type == ELT_HALF ? 2 : type == ELT_FLOAT ? 4 : 1; }
static inline size_t elt_out_size(int op, int type) { return elt_is_arith(op) ? elt_size(type) : 1; }

/* logical operators read int8 (nonzero is true): the 0/1 masks comparisons give are int8-sized bytes too. On
 * half and float they would need a "nonzero" that differs only in -0 and NaN, and nobody asks for it */
static inline int elt_op_takes(int op, int type) { return !elt_is_logical(op) || type == ELT_INT8; }

/* the index of word in names[0..n-1], or -1 */
static inline int elt_lookup(const char *word, const char *const *names, int n) {
  for (int k = 0; k < n; k++)
    if (strcmp(word, names[k]) == 0) return k;
  return -1;
}

#endif /* ELTWISE_TABLE_H */
