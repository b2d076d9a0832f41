/*
 * match_any_kernel.cuh -- practical 9, step 3: PFAC, the parallel failureless Aho-Corasick automaton (Lin et al.,
 * 2010), counting patterns of 1 to 64 bytes in one pass over the text.
 *
 * One walk per text position: from the root of the trie of the patterns, one transition per byte, until there is
 * none; every accepting state passed is one match, of its pattern, at the walk's first position. No failure links:
 * the walk from the next position is a walk of its own. The automaton is prac9_gold.h's double array, built on
 * the host: a transition is one table read, slot base + byte, and a compare of that slot's label with the byte.
 *
 * How deep walks go decides the cost. The runner counts it on the host (match_any_walk, the first 16 MiB of the
 * text) and prints it: on -gen prose with 256 patterns of 1-64 bytes drawn from it, 99% of walks pass their 1st
 * byte, 84% the 2nd, 46% the 4th, 7.7% the 8th: 4.73 table reads per position, the one that fails included;
 * with 256 random patterns (letters) 2.01 reads per position (docs/notes/prac9.md). So:
 *   - the table: placed breadth first, the states nearest the root in the lowest slots, and the first nshared
 *     slots (all of them where they fit: with 256 patterns about 8,000 slots, the keys alone 32 KB, 66 KB with a
 *     count per slot) in shared memory, where nearly every read falls; the others read through L1 and L2 (__ldg).
 *     The root's transitions are the slots root_base + c, its row of 256;
 *   - the text: each thread walks from MATCH_ANY_POSITIONS positions in a row, and holds them and the 64 bytes
 *     after them (all a walk can read) in a column of shared memory of its own: word m of lane l's column is
 *     word 32 m + l of its warp's region, so each thread's column is in a bank of its own and the 32 reads of a
 *     warp never conflict, wherever each walk is (with the text in rows, each thread's bytes after the last
 *     thread's, a warp's 32 reads would take 6 turns of the banks on prose, counted the same way);
 *   - one loop per thread, a transition or the end of one walk and the start of the next each time round: a warp
 *     runs until its last thread has walked from its last position, so it waits once per tile for the sum of
 *     64 walks of its slowest thread (a walk per thread would wait for the deepest of 32 walks each time). The
 *     loop is written without branches but the match's, so that a warp does not pay for both sides every step;
 *   - the counts: one per slot, in shared memory (an atomicAdd on a match, about 1 step in 13 on prose), then a
 *     row per block, summed by match_any_sum.
 * Each thread loads its own column and reads no other: no barrier between tiles, so one warp's loads overlap the
 * others' walks. The grid is persistent: the blocks resident at once, each warp taking every (all warps)-th tile.
 */
#ifndef MATCH_ANY_POSITIONS
#define MATCH_ANY_POSITIONS 64 // positions per thread per tile: more evens out the walks, and takes more shared memory
#endif
#define MA_COL (MATCH_ANY_POSITIONS + 64)  // bytes of a thread's column: its positions and 64 more
#define MA_TILE (32 * MATCH_ANY_POSITIONS) // text bytes of a warp's tile
static_assert(MATCH_ANY_POSITIONS % 16 == 0, "columns are loaded 16 bytes at a time");
static_assert(MATCH_ANY_MAX_LEN <= 64, "a walk reads at most 63 bytes past its position");

typedef struct {
  const unsigned char *text; // the text, then MA_COL bytes of zeros (the last columns read past its end)
  size_t length, ntiles;     // bytes, and warp tiles of MA_TILE bytes
  const unsigned *slot;      // the double array (prac9_gold.h), nslots words
  const unsigned short *acc; // each slot's accepting state
  const int *acc_slot;       // each accepting state's slot
  int nshared, nacc;         // slots in shared memory (the first ones), accepting states
  unsigned root_base;        // the root's children: slots root_base + c
  unsigned *rows;            // nacc counts per block
  unsigned long long *rec;   // -positions: (position << 32 | accepting state), cap of them
  unsigned *nrec, cap;       // matches recorded (all of them, past cap too), and room
} ma_args;

// ALL_SHARED: the whole table in shared memory (nshared = nslots). RECORD: -positions' run, every match recorded
// too, through a global atomic per match (the record's place): a slow path, for small texts. Any block size that
// is a whole number of warps (the runner picks it from the shared memory a block may have).
template <bool ALL_SHARED, bool RECORD>
__global__ void __launch_bounds__(1024, 1) match_any_pfac(const ma_args a) {
  extern __shared__ unsigned s_mem[];
  unsigned *s_slot = s_mem, *s_count = s_mem + a.nshared; // the top of the table, and a count for each slot
  unsigned *s_deep = s_count + a.nshared;                 // counts of the accepting states past the top
  unsigned *s_text = s_deep + (ALL_SHARED ? 0 : a.nacc);  // each warp's 32 columns of text
  for (int i = threadIdx.x; i < a.nshared; i += blockDim.x) s_slot[i] = a.slot[i], s_count[i] = 0;
  if (!ALL_SHARED)
    for (int i = threadIdx.x; i < a.nacc; i += blockDim.x) s_deep[i] = 0;
  __syncthreads();

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  unsigned *column = s_text + warp * (32 * MA_COL / 4) + lane; // word m of my column: column[32 m]
  const unsigned char *col = (const unsigned char *)column;    // byte j: col[32 j - 31 (j % 4)]
  const unsigned root = a.root_base;
  for (size_t tile = (size_t)blockIdx.x * warps + warp; tile < a.ntiles; tile += (size_t)gridDim.x * warps) {
    const size_t r = tile * MA_TILE + (size_t)lane * MATCH_ANY_POSITIONS; // my first position
    if (r >= a.length) continue;
    for (int m = 0; m < MA_COL / 16; m++) { // 16 bytes at a time, 4 words down my column, in my bank; no barrier
      const uint4 v = __ldg((const uint4 *)(a.text + r) + m); // before or after: no thread reads another's column
      column[32 * (4 * m)] = v.x, column[32 * (4 * m + 1)] = v.y;
      column[32 * (4 * m + 2)] = v.z, column[32 * (4 * m + 3)] = v.w;
    }
    const int left = a.length - r < MA_COL ? (int)(a.length - r) : MA_COL; // bytes a walk may read: to the end
    const int npos = left < MATCH_ANY_POSITIONS ? left : MATCH_ANY_POSITIONS;
    int q = 0, j = 0; // the walk from position r + q is at byte r + j
    unsigned base = root;
    while (q < npos) {
      const unsigned c = col[32 * j - 31 * (j & 3)];
      const unsigned t = base + c;
      const unsigned e = (ALL_SHARED || t < (unsigned)a.nshared) ? s_slot[t] : __ldg(a.slot + t);
      const bool hit = j < left && ((e ^ c) & 0x1ffu) == 0; // a transition: label c (a walk stops at the end)
      if (hit && MATCH_ANY_ACCEPTS(e)) {                    // one match, at position r + q
        if (ALL_SHARED || t < (unsigned)a.nshared)
          atomicAdd(&s_count[t], 1u);
        else
          atomicAdd(&s_deep[__ldg(a.acc + t)], 1u);
        if (RECORD) {
          const unsigned k = atomicAdd(a.nrec, 1u);
          if (k < a.cap) a.rec[k] = (unsigned long long)(r + q) << 32 | __ldg(a.acc + t);
        }
      }
      q += !hit; // no transition: the walk from r + q is over, and the one from r + q + 1 starts
      j = hit ? j + 1 : q;
      base = hit ? MATCH_ANY_BASE(e) : root;
    }
  }

  // the block's row of counts, every one stored (rows start poisoned: a block that stores nothing fails the check)
  __syncthreads();
  for (int s = threadIdx.x; s < a.nacc; s += blockDim.x) {
    const int t = a.acc_slot[s];
    unsigned c = (ALL_SHARED || t < a.nshared) ? s_count[t] : 0u;
    if (!ALL_SHARED) c += s_deep[s];
    a.rows[(size_t)blockIdx.x * a.nacc + s] = c;
  }
}

// one thread per accepting state: its column of the blocks' rows, summed in 64 bits (a 1-byte pattern can match
// 2^31 times in a 2 GB text); every count stored
__global__ void match_any_sum(const unsigned *__restrict__ rows, int nblocks, int nacc,
                              unsigned long long *__restrict__ counts) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nacc) return;
  unsigned long long c = 0;
  for (int b = 0; b < nblocks; b++) c += rows[(size_t)b * nacc + s];
  counts[s] = c;
}
