/*
 * eltwise_gold.c -- the CPU gold of practical 6, step 8 (eltwise.cu): binary element-wise operators with
 * broadcasting, on half, float and int8, and the test inputs they run on.
 *
 * half is emulated: each value is held as its 16 bits, widened to float (exact: every half is a float), the
 * operation done in float, and the result rounded once to half, to nearest, ties to even. For + - * / that
 * is the correctly rounded half result, the one the GPU's half instructions give: float's 24 bits are at
 * least 2 x 11 + 2, and then rounding the correctly rounded float result again to half (double rounding)
 * always gives what one rounding of the exact result would (Figueroa 1995; tests/test_prac6.c checks it
 * against a double-precision reference). So the comparison in eltwise.cu is exact for every operator and type,
 * with one rule: any NaN equals any NaN (which NaN bits an operation returns is not specified).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "prac6_gold.h"
#include "rng.h"

uint16_t half_from_float(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu)); /* NaN: quiet, top payload */
  if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* 65520 and up (the tie above 65504): Inf */
  if (ax >= 0x38800000u) { /* 2^-14 and up: a normal half; 112 = 127 - 15 off the exponent */
    uint32_t r = ax - 0x38000000u;
    r += 0x0fffu + ((r >> 13) & 1u); /* round the 13 dropped bits: up past half, ties to the even neighbour */
    return (uint16_t)(sign | (r >> 13)); /* a carry out of the mantissa steps the exponent up, as it should */
  }
  if (ax < 0x33000000u) return (uint16_t)sign; /* at most 2^-25, half the smallest subnormal: ties to 0 */
  /* a subnormal half: the value in units of 2^-24, rounded to an integer (0x400 is the smallest normal) */
  uint32_t mant = (ax & 0x7fffffu) | 0x800000u, shift = 126u - (ax >> 23); /* 14 to 24 */
  uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
  if (rem > halfway || (rem == halfway && (q & 1u))) q++;
  return (uint16_t)(sign | q);
}

float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0x1fu) {
    x = sign | 0x7f800000u | (m << 13); /* Inf, NaN */
  } else if (e) {
    x = sign | ((e + 112u) << 23) | (m << 13);
  } else if (m == 0) {
    x = sign; /* +-0 */
  } else { /* subnormal: m 2^-24, normalised */
    uint32_t s = 0;
    while (!(m & 0x400u)) {
      m <<= 1;
      s++;
    }
    x = sign | ((113u - s) << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static size_t elt_size(int type) { return type == ELT_HALF ? 2 : type == ELT_FLOAT ? 4 : 1; }

static int8_t wrap8(int v) { /* two's complement mod 256, stated so rather than left to the compiler */
  int w = v & 0xff;
  return (int8_t)(w < 128 ? w : w - 256);
}

/* max and min propagate NaN and order -0 below +0: IEEE 754-2019's maximum and minimum (clause 9.6). Not
 * torch.maximum's rule: PyTorch promises nothing about a zero's sign (on the CPU, maximum(-0., +0.) can be -0) */
static float max_f(float a, float b) {
  if (isnan(a) || isnan(b)) return NAN;
  return (a > b || (a == b && !signbit(a))) ? a : b;
}
static float min_f(float a, float b) {
  if (isnan(a) || isnan(b)) return NAN;
  return (a < b || (a == b && signbit(a))) ? a : b;
}

static float arith_f(int op, float a, float b) {
  switch (op) {
  case ELT_ADD: return a + b;
  case ELT_SUB: return a - b;
  case ELT_MUL: return a * b;
  case ELT_DIV: return a / b;
  case ELT_MAX: return max_f(a, b);
  default: return min_f(a, b);
  }
}

/* relational: C's comparisons, false with a NaN except ne, true with one */
static int compare(int op, double a, double b) {
  switch (op) {
  case ELT_LT: return a < b;
  case ELT_LE: return a <= b;
  case ELT_EQ: return a == b;
  case ELT_NE: return a != b;
  case ELT_GT: return a > b;
  default: return a >= b;
  }
}

static int8_t arith_i8(int op, int a, int b) {
  switch (op) {
  case ELT_ADD: return wrap8(a + b);
  case ELT_SUB: return wrap8(a - b);
  case ELT_MUL: return wrap8(a * b);
  case ELT_DIV: return b == 0 ? 0 : wrap8(a / b); /* truncated; x / 0 = 0 (NumPy's); -128 / -1 wraps to -128 */
  case ELT_MAX: return (int8_t)(a > b ? a : b);
  default: return (int8_t)(a < b ? a : b);
  }
}

void eltwise_gold_op(int op, int type, const void *a, const void *b, void *out) {
  double x, y; /* every half, float and int8 is exactly a double: the comparisons are exact */
  if (type == ELT_HALF) {
    uint16_t ha, hb;
    memcpy(&ha, a, 2);
    memcpy(&hb, b, 2);
    x = half_to_float(ha), y = half_to_float(hb);
    if (op <= ELT_MIN) {
      uint16_t r = half_from_float(arith_f(op, (float)x, (float)y));
      memcpy(out, &r, 2);
      return;
    }
  } else if (type == ELT_FLOAT) {
    float fa, fb;
    memcpy(&fa, a, 4);
    memcpy(&fb, b, 4);
    x = fa, y = fb;
    if (op <= ELT_MIN) {
      float r = arith_f(op, fa, fb);
      memcpy(out, &r, 4);
      return;
    }
  } else {
    x = *(const int8_t *)a, y = *(const int8_t *)b;
    if (op <= ELT_MIN) {
      *(int8_t *)out = arith_i8(op, (int)x, (int)y);
      return;
    }
  }
  int r;
  if (op == ELT_AND) r = (x != 0) && (y != 0); /* logical: nonzero is true */
  else if (op == ELT_OR) r = (x != 0) || (y != 0);
  else if (op == ELT_XOR) r = (x != 0) != (y != 0);
  else r = compare(op, x, y);
  *(uint8_t *)out = (uint8_t)r;
}

void Gold_eltwise(int op, int type, const long long *extent, const void *a, const long long *astride, const void *b,
                  const long long *bstride, void *out) {
  size_t es = elt_size(type), os = op >= ELT_AND ? 1 : es;
  long long E1 = extent[1], E2 = extent[2], E3 = extent[3];
#pragma omp parallel for collapse(2) schedule(static)
  for (long long i0 = 0; i0 < extent[0]; i0++)
    for (long long i1 = 0; i1 < E1; i1++)
      for (long long i2 = 0; i2 < E2; i2++) {
        long long oa = i0 * astride[0] + i1 * astride[1] + i2 * astride[2];
        long long ob = i0 * bstride[0] + i1 * bstride[1] + i2 * bstride[2];
        long long o = ((i0 * E1 + i1) * E2 + i2) * E3;
        for (long long i3 = 0; i3 < E3; i3++)
          eltwise_gold_op(op, type, (const char *)a + (size_t)(oa + i3 * astride[3]) * es,
                          (const char *)b + (size_t)(ob + i3 * bstride[3]) * es, (char *)out + (size_t)(o + i3) * os);
      }
}

/* ---- the inputs ---------------------------------------------------------------------------------------- */

/* the special pairs, a[k] with b[k]: NaN on either side, Inf - Inf, Inf + Inf, -0 and +0 both ways (add, max,
 * min, eq), half's largest (65504 + 65504 overflows to Inf in half, not in float), 60000 x 2, 1 / 0, 0 / 0,
 * -0 / 5, half's ties (2048 + 1 -> 2048, 2048 + 3 -> 2052), the smallest subnormal halved (a tie to 0), a
 * subnormal result, equal values, float overflow (1e30 / 1e-30) */
static const float special_a[] = {NAN, 1, INFINITY, INFINITY, -INFINITY, -0.0f, 0.0f, -0.0f, 65504, -65504, 65504,
                                  60000, 1, 0, -0.0f, 2048, 2048, 5.9604644775390625e-8f, 6.103515625e-5f, 3, 2.5f,
                                  -1, 1e30f, 0.1f};
static const float special_b[] = {1, NAN, -INFINITY, INFINITY, 2, 0.0f, -0.0f, -0.0f, 65504, -65504, -1,
                                  2, 0, 0, 5, 1, 3, 0.5f, 0.5f, 3, 2.5f, 3, 1e-30f, 0.2f};
/* int8: 127 + 1 and -128 - 1 wrap, -128 / -1 and -128 x -1 wrap to -128, 127 x 127 = 16129 = 1 mod 256,
 * 100 + 100 = -56, x / 0 = 0, -7 / 2 = -3 and 7 / -2 = -3 (truncated), 64 x 2 = -128, zeros for the logical ops */
static const int8_t special_a8[] = {127, -128, -128, 127, 100, -128, 0, 5, -7, 7, -1, 64, 0, 1};
static const int8_t special_b8[] = {1, 1, -1, 127, 100, -1, 0, 0, 2, -2, 0, 2, 5, 0};
static const int8_t special_mask_a[] = {0, 0, 1, 1}, special_mask_b[] = {0, 1, 0, 1};
/* the pool that random positions draw their specials from */
static const float special_pool[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 65504, -65504, 5.9604644775390625e-8f,
                                     -6.103515625e-5f, 32768};
#define COUNT(x) (sizeof(x) / sizeof((x)[0]))

static float random_value(unsigned int *s) {
  unsigned int r = lcg_next(s) >> 8;
  if (r % 16 == 0) return special_pool[(r >> 4) % COUNT(special_pool)];
  if (r % 16 < 7) return (float)((int)((r >> 4) % 17) - 8) * 0.5f; /* a coarse grid: equal pairs are common */
  return lcg_uniform_in(s, -8.0f, 8.0f);                          /* 24 random bits */
}

static int8_t random_i8(unsigned int *s, int mask) {
  unsigned int r = lcg_next(s) >> 8;
  if (mask) return (int8_t)(r & 1);
  if (r % 4 == 0) return 0; /* zeros: the logical operators and division need them */
  if (r % 4 == 1) return special_a8[(r >> 2) % COUNT(special_a8)];
  return (int8_t)wrap8((int)(r >> 8));
}

void eltwise_inputs(void *x, size_t count, int type, int mask, int which, unsigned int seed) {
  unsigned int s = lcg_seed(seed * 2u + (unsigned)which);
  for (size_t i = 0; i < count; i++) {
    if (type == ELT_INT8) {
      int8_t v;
      if (mask && i < COUNT(special_mask_a)) v = which ? special_mask_b[i] : special_mask_a[i];
      else if (!mask && i < COUNT(special_a8)) v = which ? special_b8[i] : special_a8[i];
      else v = random_i8(&s, mask);
      ((int8_t *)x)[i] = v;
      continue;
    }
    float f = i < COUNT(special_a) ? (which ? special_b[i] : special_a[i]) : random_value(&s);
    if (type == ELT_HALF) ((uint16_t *)x)[i] = half_from_float(f);
    else ((float *)x)[i] = f;
  }
}
