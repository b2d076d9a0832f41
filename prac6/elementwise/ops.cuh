/*
 * elementwise/ops.cuh -- step 8's operators on the GPU: elt_apply<OP>(a, b) for one element of each type, and
 * elt_apply_chunk for a thread's chunk (pairs of halves through the half2 instructions). The semantics are the
 * gold's (eltwise_gold.c), operator by operator:
 *   half   + - * with __hadd/__hsub/__hmul (__hadd2/__hsub2/__hmul2 on pairs): one IEEE rounding, to nearest
 *          even, in half arithmetic. max, min with __hmax_nan/__hmin_nan (NaN propagates, +0 > -0). The
 *          comparisons with __hlt and friends (__hlt2_mask on pairs), != unordered (__hneu: true with a NaN).
 *          Division in float: __hdiv/__h2div multiply by an approximate reciprocal and correct only tiny
 *          results, which is not documented to be correctly rounded in every case; a float division (IEEE,
 *          correctly rounded without --use_fast_math) rounded once more to half is the correctly rounded half
 *          quotient (24 >= 2 x 11 + 2 bits: eltwise_gold.c), two conversions and a division a pair.
 *   float  C's operators (IEEE, correctly rounded); max and min written out for NaN and the sign of zero.
 *   int8   in int, wrapped mod 256; x / 0 = 0; logical operators: nonzero is true.
 * Logical and relational operators give uint8 0/1.
 */
#ifndef ELTWISE_OPS_CUH
#define ELTWISE_OPS_CUH

#include <cuda_fp16.h>
#include <stdint.h>
#include <type_traits>

#include "../prac6_gold.h"

template <int OP, typename T> using elt_out_t = typename std::conditional<(OP >= ELT_AND), uint8_t, T>::type;

__device__ __forceinline__ int8_t elt_wrap8(int v) { // two's complement mod 256, stated as the gold states it
  int w = v & 0xff;
  return (int8_t)(w < 128 ? w : w - 256);
}

__device__ __forceinline__ float elt_fmax(float a, float b) {
  if (a != a || b != b) return __int_as_float(0x7fffffff);
  return (a > b || (a == b && !signbit(a))) ? a : b;
}
__device__ __forceinline__ float elt_fmin(float a, float b) {
  if (a != a || b != b) return __int_as_float(0x7fffffff);
  return (a < b || (a == b && signbit(a))) ? a : b;
}

// C's comparisons (float and int8): false with a NaN, except != (true)
template <int OP, typename X> __device__ __forceinline__ uint8_t elt_compare(X a, X b) {
  if constexpr (OP == ELT_LT) return a < b;
  else if constexpr (OP == ELT_LE) return a <= b;
  else if constexpr (OP == ELT_EQ) return a == b;
  else if constexpr (OP == ELT_NE) return a != b;
  else if constexpr (OP == ELT_GT) return a > b;
  else return a >= b;
}

template <int OP> __device__ __forceinline__ elt_out_t<OP, float> elt_apply(float a, float b) {
  static_assert(OP < ELT_AND || OP > ELT_XOR, "logical operators take int8 (elementwise/table.h)");
  if constexpr (OP == ELT_ADD) return a + b;
  else if constexpr (OP == ELT_SUB) return a - b;
  else if constexpr (OP == ELT_MUL) return a * b;
  else if constexpr (OP == ELT_DIV) return a / b;
  else if constexpr (OP == ELT_MAX) return elt_fmax(a, b);
  else if constexpr (OP == ELT_MIN) return elt_fmin(a, b);
  else return elt_compare<OP>(a, b);
}

template <int OP> __device__ __forceinline__ elt_out_t<OP, int8_t> elt_apply(int8_t a, int8_t b) {
  int x = a, y = b;
  if constexpr (OP == ELT_ADD) return elt_wrap8(x + y);
  else if constexpr (OP == ELT_SUB) return elt_wrap8(x - y);
  else if constexpr (OP == ELT_MUL) return elt_wrap8(x * y);
  else if constexpr (OP == ELT_DIV) return y == 0 ? (int8_t)0 : elt_wrap8(x / y); // -128 / -1 wraps to -128
  else if constexpr (OP == ELT_MAX) return (int8_t)(x > y ? x : y);
  else if constexpr (OP == ELT_MIN) return (int8_t)(x < y ? x : y);
  else if constexpr (OP == ELT_AND) return (x != 0) & (y != 0);
  else if constexpr (OP == ELT_OR) return (x != 0) | (y != 0);
  else if constexpr (OP == ELT_XOR) return (x != 0) ^ (y != 0);
  else return elt_compare<OP>(x, y);
}

template <int OP> __device__ __forceinline__ elt_out_t<OP, __half> elt_apply(__half a, __half b) {
  static_assert(OP < ELT_AND || OP > ELT_XOR, "logical operators take int8 (elementwise/table.h)");
  if constexpr (OP == ELT_ADD) return __hadd(a, b);
  else if constexpr (OP == ELT_SUB) return __hsub(a, b);
  else if constexpr (OP == ELT_MUL) return __hmul(a, b);
  else if constexpr (OP == ELT_DIV) return __float2half_rn(__half2float(a) / __half2float(b));
  else if constexpr (OP == ELT_MAX) return __hmax_nan(a, b);
  else if constexpr (OP == ELT_MIN) return __hmin_nan(a, b);
  else if constexpr (OP == ELT_LT) return __hlt(a, b);
  else if constexpr (OP == ELT_LE) return __hle(a, b);
  else if constexpr (OP == ELT_EQ) return __heq(a, b);
  else if constexpr (OP == ELT_NE) return __hneu(a, b);
  else if constexpr (OP == ELT_GT) return __hgt(a, b);
  else return __hge(a, b);
}

// two halves at once: o[0] from the low halves, o[1] from the high ones
template <int OP> __device__ __forceinline__ void elt_apply2(__half2 a, __half2 b, elt_out_t<OP, __half> *o) {
  if constexpr (OP == ELT_ADD) *reinterpret_cast<__half2 *>(o) = __hadd2(a, b);
  else if constexpr (OP == ELT_SUB) *reinterpret_cast<__half2 *>(o) = __hsub2(a, b);
  else if constexpr (OP == ELT_MUL) *reinterpret_cast<__half2 *>(o) = __hmul2(a, b);
  else if constexpr (OP == ELT_MAX) *reinterpret_cast<__half2 *>(o) = __hmax2_nan(a, b);
  else if constexpr (OP == ELT_MIN) *reinterpret_cast<__half2 *>(o) = __hmin2_nan(a, b);
  else if constexpr (OP == ELT_DIV) {
    o[0] = elt_apply<OP>(__low2half(a), __low2half(b));
    o[1] = elt_apply<OP>(__high2half(a), __high2half(b));
  } else { // a comparison: 0xffff in each half that holds
    unsigned m = OP == ELT_LT ? __hlt2_mask(a, b) : OP == ELT_LE ? __hle2_mask(a, b) : OP == ELT_EQ ? __heq2_mask(a, b)
               : OP == ELT_NE ? __hneu2_mask(a, b) : OP == ELT_GT ? __hgt2_mask(a, b) : __hge2_mask(a, b);
    o[0] = (uint8_t)(m & 1u);
    o[1] = (uint8_t)(m >> 31);
  }
}

// a thread's chunk of V elements (16 bytes of input), in registers
template <typename X, int V> struct alignas(16) elt_chunk {
  X e[V];
};
// the vector type of 16, 8 or 4 bytes: one load or store instruction
template <int BYTES> struct elt_vec;
template <> struct elt_vec<16> { typedef uint4 type; };
template <> struct elt_vec<8> { typedef uint2 type; };
template <> struct elt_vec<4> { typedef unsigned type; };

template <int OP, typename T, int V>
__device__ __forceinline__ void elt_apply_chunk(const elt_chunk<T, V> &a, const elt_chunk<T, V> &b,
                                                elt_chunk<elt_out_t<OP, T>, V> &o) {
  if constexpr (std::is_same<T, __half>::value) {
#pragma unroll
    for (int j = 0; j < V; j += 2)
      elt_apply2<OP>(*reinterpret_cast<const __half2 *>(a.e + j), *reinterpret_cast<const __half2 *>(b.e + j), o.e + j);
  } else {
#pragma unroll
    for (int j = 0; j < V; j++) o.e[j] = elt_apply<OP>(a.e[j], b.e[j]);
  }
}

#endif /* ELTWISE_OPS_CUH */
