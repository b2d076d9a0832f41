/*
 * hgemm/hgemm_host.h -- the host-side arithmetic of hgemm_ladder.cu, in plain C so that tests/test_prac5.c
 * checks it without a GPU: the bound every element of C is judged by, the inputs' draw, which tiles of kernel 1
 * take the edge path, the shared-memory layouts of kernel 2 (-smem=), kernel 3's XOR swizzle, and kernel 4's
 * wgmma descriptors, mbarrier phases and the rows TMA can read.
 *
 * The bound (BLAS's names, as sgemm/: C[m][n] = sum_k A[m][k] B[k][n], K terms; s[m][n] = sum_k |A[m][k]||B[k][n]|):
 *  - the inputs are exact: each is a half (or bfloat16), widened exactly to float and to double;
 *  - each product is exact in FP32: two 11-bit significands (8 for BF16) make at most 22 bits, under FP32's 24,
 *    and the exponents of these inputs stay far inside FP32's range;
 *  - so only the additions round. In FP32 with round to nearest, in any order, K terms: gamma(K) s with
 *    u = 2^-24 (sgemm/reference.cuh's certain bound). A tensor core adds differently (Fasi, Higham, Mikaitis,
 *    Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ CS 7:e330, 2021): one MMA adds a group of b
 *    exact products to the accumulator at once, each addend aligned to the largest of them and its low bits cut
 *    off (truncation, not rounding), and the sum truncated to FP32. Each of the b + 1 addends then loses under one
 *    unit in the last place of the largest, and the result under one of its own: at most (b + 1) units of 2^-23
 *    (= 2u) relative to the group's sum of magnitudes, itself at most s. They measured b = 4 on V100 and T4 and 8
 *    on A100; b = 4 is the worst of these per product, (b + 1) / b = 5/4 units of 2^-23 a term, so the allowance
 *    is 5 ceil(K / 4) roundings of unit 2u: tau_tc = gamma(5 ceil(K / 4), 2^-23), about 2.5 K u, which also covers
 *    FP32 CUDA-core sums (gamma(K) with u) and a split of K into slices added afterwards in FP32 (fewer roundings
 *    per term than the groups it replaces). Truncation errors all have the sign of the sum, so they do not cancel
 *    as rounding errors do: no probabilistic bound (sgemm's lambda sqrt(K) u) holds here, only this certain one.
 *  - C64 (cublasDgemm on the widened inputs) is within gamma64(K) s of the exact product, and s64 of s:
 *    |C - C64| <= tau s64 with tau = gamma(5 ceil(K / 4), 2^-23) + 2 gamma64(K), u64 = 2^-53.
 * The bound grows like K s, and s like K: a kernel that drops one product (|a b| >= 1/16 for these inputs) is
 * sure to be caught while 1/16 > 2 tau s (its own sum may be off by up to tau s the other way): up to K = 456 where
 * s is near K, about 730 where s is a typical 0.39 K (answers Q11). The -fault=tile lines run K = 64.
 */
#ifndef HGEMM_HOST_H
#define HGEMM_HOST_H

#include <string.h>

#include "../prac5_gold.h"

#ifdef __CUDACC__
#define HGEMM_HD __host__ __device__ // kernel 1 asks hgemm_tile_direct on the device
#else
#define HGEMM_HD
#endif
#define HGEMM_TC_GROUP 4 // b: products a tensor core adds at once (the smallest measured: V100, T4)

// tau of the bound above, for K terms: every element of C must satisfy |C - C64| <= tau s64
static inline double hgemm_bound_factor(int K) {
  int groups = (K + HGEMM_TC_GROUP - 1) / HGEMM_TC_GROUP;
  return gamma_k((double)(HGEMM_TC_GROUP + 1) * groups, 2.0 * U_FP32) + 2.0 * gamma_k(K, U_FP64);
}

// The inputs: magnitudes in [0.25, 1), negative one time in four, from one uniform draw u in [0, 1) each
// (fill_uniform): q = 4u, negative when q < 1, magnitude 0.25 + 0.75 frac(q). The sums lean positive, so C is
// about a quarter of s and never cancels to nothing, and every product is at least 1/16: a term lost is seen.
// A sign mistake (|a| for a) is seen too, where all-positive inputs would hide it.
static inline void hgemm_draw(float *x, size_t n, unsigned seed) {
  fill_uniform(x, n, seed, 0.0f, 1.0f);
  for (size_t i = 0; i < n; i++) {
    float q = 4.0f * x[i], mag = 0.25f + 0.75f * (q - (float)(int)q);
    x[i] = q < 1.0f ? -mag : mag;
  }
}

// Kernel 1 reads a 16 x 16 tile of C's operands straight from global memory only where load_matrix_sync can:
// the whole tile inside C, and K and N multiples of 16, so that every 16-wide step along K stays inside A's rows
// and the row strides are multiples of 8 halves (its ldm rule; the tile pointers, at multiples of 16 rows and
// columns, are then 32-byte aligned for any K and N). Every other tile (the edges, or every tile when K or N is not a
// multiple of 16) is staged through shared memory with zeros outside the matrices: the edge path.
HGEMM_HD static inline int hgemm_tile_direct(int M, int N, int K, int row0, int col0) {
  return K % 16 == 0 && N % 16 == 0 && row0 + 16 <= M && col0 + 16 <= N;
}

// the tiles of C that take kernel 1's edge path, of ceil(M/16) ceil(N/16)
static inline long long hgemm_edge_tiles(int M, int N, int K) {
  long long tm = (M + 15) / 16, tn = (N + 15) / 16;
  if (K % 16 || N % 16) return tm * tn;
  return tm * tn - (long long)(M / 16) * (N / 16);
}

// kernel 2's shared-memory layouts (-smem=): PLAIN rows as in memory, PAD each row 8 halves (16 bytes) longer.
// The default is the best of them, PAD. An XOR swizzle is refused: load_matrix_sync reads a fragment at one
// pointer and one row stride for the whole warp, and a swizzled tile's rows are not at one stride
// (hgemm/k2_smem.cuh); it needs one row address per lane, ldmatrix: kernel 3 (hgemm/k3_mma.cuh).
enum { HGEMM_SMEM_PLAIN = 0, HGEMM_SMEM_PAD = 1, HGEMM_SMEM_DEFAULT = HGEMM_SMEM_PAD };
static inline int hgemm_smem_parse(const char *word, int *layout) {
  if (!word) return *layout = HGEMM_SMEM_DEFAULT, 1;
  if (!strcmp(word, "plain")) return *layout = HGEMM_SMEM_PLAIN, 1;
  if (!strcmp(word, "pad")) return *layout = HGEMM_SMEM_PAD, 1;
  return 0;
}
// a tile's row stride in halves: `cols` halves of data, and 8 more under PAD
static inline int hgemm_smem_ld(int layout, int cols) { return cols + (layout == HGEMM_SMEM_PAD ? 8 : 0); }
// the 4-byte bank where row r of a tile with row stride ld halves starts (32 banks of 4 bytes)
static inline int hgemm_smem_bank(int ld, int r) { return (r * ld * 2 / 4) % 32; }
// the ways of the worst bank conflict when 8 consecutive rows of a tile (one 8 x 8 matrix of a fragment, one
// phase of the load) each read 16 bytes at the same column: 1 is conflict-free
static inline int hgemm_smem_ways(int ld) {
  int count[8] = {0}, worst = 0;
  for (int r = 0; r < 8; r++) {
    int group = hgemm_smem_bank(ld, r) / 4; // 16 bytes = 4 banks: groups 0 .. 7
    if (++count[group] > worst) worst = count[group];
  }
  return worst;
}

// Kernel 3's XOR swizzle (hgemm/k3_mma.cuh explains it): a shared tile whose rows hold cpr chunks of 16 bytes
// (8 halves; cpr a power of 2) keeps chunk c of row r at chunk hgemm_swizzle(r, c, cpr) of the same row. Rows of
// 8 chunks or more (B's tile: 16) each start at bank 0, so the chunk is XORed with r mod 8; rows of fewer (A's
// tile: 4, two rows a 128-byte line) share a line, so the chunk is XORed with the line's number, r cpr / 8, mod
// cpr. Either way only the chunk's low bits change: a permutation of each row's chunks.
HGEMM_HD static inline int hgemm_swizzle(int r, int c, int cpr) {
  return cpr >= 8 ? c ^ (r % 8) : c ^ ((r * cpr / 8) % cpr);
}
// the 16-byte bank group (4 banks of 4 bytes; 0 .. 7) that holds chunk c of row r, swizzled or not
static inline int hgemm_chunk_group(int r, int c, int cpr, int swizzled) {
  return (r * cpr + (swizzled ? hgemm_swizzle(r, c, cpr) : c)) % 8;
}
// the ways of the worst bank conflict of one ldmatrix phase: rows r0 .. r0 + 7 of the tile, each 16 bytes at
// chunk c (one 8 x 8 matrix). 1 is conflict-free: the 8 rows in 8 groups, all 32 banks once
static inline int hgemm_ldmatrix_ways(int r0, int c, int cpr, int swizzled) {
  int count[8] = {0}, worst = 0;
  for (int r = r0; r < r0 + 8; r++) {
    int group = hgemm_chunk_group(r, c, cpr, swizzled);
    if (++count[group] > worst) worst = count[group];
  }
  return worst;
}

// Kernel 4 (hgemm/k4_wgmma.cuh). A tensor map needs every row of A and B to start on 16 bytes: K and N multiples
// of 8 halves; elsewhere the operand is copied first into rows of hgemm_pad8 halves (hgemm/k4_host.cuh)
static inline int hgemm_tma_rows_ok(int N, int K) { return K % 8 == 0 && N % 8 == 0; }
static inline int hgemm_pad8(int x) { return (x + 7) / 8 * 8; }
// kernel 0's cublasLtMatmul workspace (hgemm/k0_cublaslt.cuh): 32 MiB, what cuBLAS itself reserves on Hopper for its
// default workspace; hgemm_bytes counts it (hgemm/oracle.h)
#define H0_LT_WORKSPACE (32u << 20)
// the parity of the phase of a stage's mbarrier that use t of the stages completes (stage t % stages, its
// (t / stages)-th use): the consumers wait for full's at step t, the producer for empty's of step t - stages
HGEMM_HD static inline unsigned hgemm_wgmma_parity(int t, int stages) { return (unsigned)(t / stages) & 1u; }
// a wgmma matrix descriptor for the 128-byte swizzle: the operand's shared-memory address, its leading and stride
// byte offsets (LBO, SBO), each in units of 16 bytes in 14 bits (bits 0-13, 16-29, 32-45), base offset 0 (bits
// 49-51: the tiles start on 1024 bytes), swizzle mode 1 = 128 bytes (bits 62-63)
HGEMM_HD static inline unsigned long long hgemm_wgmma_desc(unsigned addr, unsigned lbo, unsigned sbo) {
  return (unsigned long long)((addr & 0x3FFFFu) >> 4) | (unsigned long long)((lbo & 0x3FFFFu) >> 4) << 16 |
         (unsigned long long)((sbo & 0x3FFFFu) >> 4) << 32 | 1ull << 62;
}

#endif /* HGEMM_HOST_H */
