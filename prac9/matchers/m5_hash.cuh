/*
 * m5_hash.cuh -- match_ladder kernel 5: many words. Kernels 2-4 compare every window with every word: the work per
 * byte grows with the words, and past a few the compares, not the memory, set the time. Here the distinct words
 * go in a table in shared memory, and each window looks itself up: where it would be if it were a word, one
 * read, one compare. The table is a perfect hash, built on the host: no two words share a slot, so a lookup
 * never walks on, and costs the same for 8 words or 4096 (no branch, no loop: every lane of a warp does the
 * same instructions). Its form is "hash and displace": a first hash puts each word in a bucket (4 words on
 * average), and each bucket has a displacement d, chosen on the host, biggest buckets first, such that
 * slot = second hash ^ d is a free slot for every word of the bucket:
 *   bucket = (x * HASH_MUL0) >> shift0;  slot = ((x * hp.mul1) >> shift1) ^ s_disp[bucket]
 * (mul1: the first multiplier, of a list of 64, with which the host's build succeeds).
 * A slot with no word holds a word whose own slot is another, so no window that reaches it can equal it. A match
 * adds 1 to its slot's count in shared memory (an atomic: several lanes may find the same common word); the
 * block adds its counts to the global per-slot counts once, and match_gather copies each word's count out (equal
 * words share a slot). Shared memory: the keys and counts (2 x 4 bytes per slot, 2 to 4 slots per distinct word,
 * 1 to 2 where that does not fit) and a displacement per bucket.
 */
#define HASH_MUL0 0x9E3779B1u // Knuth's multiplicative hash: the top bits of x * HASH_MUL0 are the bucket
#define HASH_WORDS_PER_BUCKET 4

typedef struct {
  int slots, buckets; // powers of 2
  int shift0, shift1; // 32 - log2(buckets), 32 - log2(slots)
  unsigned mul1;      // the second hash's multiplier (odd): the first of a list that builds a table
  size_t smem;        // bytes of shared memory per block
  unsigned *d_keys, *d_disp, *d_slot_count;
  int *d_slot_of; // the slot of each word
} hash_plan;

__global__ void __launch_bounds__(LADDER_THREADS)
    match_hash(const uint4 *__restrict__ text, ladder_plan p, hash_plan hp, unsigned *__restrict__ slot_count) {
  extern __shared__ unsigned s_table[]; // keys, counts (hp.slots each), displacements (hp.buckets)
  unsigned *s_key = s_table, *s_cnt = s_table + hp.slots, *s_disp = s_table + 2 * hp.slots;
  for (int i = threadIdx.x; i < hp.slots; i += blockDim.x) s_key[i] = hp.d_keys[i], s_cnt[i] = 0;
  for (int i = threadIdx.x; i < hp.buckets; i += blockDim.x) s_disp[i] = hp.d_disp[i];
  __syncthreads();
  const unsigned *t32 = (const unsigned *)text;
  const unsigned n = (unsigned)p.nfull, stride = gridDim.x * blockDim.x; // (32-bit: see m4_regs.cuh)
  for (unsigned v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    unsigned win[16];
    windows16(text[v], t32[4 * v + 4], win);
#pragma unroll
    for (int k = 0; k < 16; k++) {
      const unsigned x = win[k], slot = ((x * hp.mul1) >> hp.shift1) ^ s_disp[(x * HASH_MUL0) >> hp.shift0];
      if (s_key[slot] == x) atomicAdd(&s_cnt[slot], 1u);
    }
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
    for (size_t q = 16 * p.nfull; q < p.npos; q++) {
      const unsigned x = window_at(t32, q), slot = ((x * hp.mul1) >> hp.shift1) ^ s_disp[(x * HASH_MUL0) >> hp.shift0];
      if (s_key[slot] == x) atomicAdd(&s_cnt[slot], 1u);
    }
  flush_counts(s_cnt, hp.slots, slot_count);
}

__global__ void match_gather(const unsigned *__restrict__ slot_count, const int *__restrict__ slot_of, int nwords,
                             unsigned *__restrict__ counts) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < nwords) counts[w] = slot_count[slot_of[w]];
}

#include "m5_hash_build.h" // hash_build: the table on the host

static void hash_free(hash_plan *hp) {
  if (hp->d_keys) checkCudaErrors(cudaFree(hp->d_keys));
  if (hp->d_disp) checkCudaErrors(cudaFree(hp->d_disp));
  if (hp->d_slot_count) checkCudaErrors(cudaFree(hp->d_slot_count));
  if (hp->d_slot_of) checkCudaErrors(cudaFree(hp->d_slot_of));
  hp->d_keys = hp->d_disp = hp->d_slot_count = NULL, hp->d_slot_of = NULL;
}

// The table for words[0..nwords) on the GPU: 0, with the reason in why, when it does not fit this GPU's shared
// memory per block or cannot be built
static int hash_setup(hash_plan *hp, int dev, const unsigned *words, int nwords, char *why, size_t nwhy) {
  unsigned *keys = NULL, *disp = NULL;
  int *slot_of = NULL;
  if (!hash_build(hp, device_limits(dev)->smem_block_optin, words, nwords, &keys, &disp, &slot_of, why, nwhy)) return 0;
  checkCudaErrors(cudaMalloc((void **)&hp->d_keys, sizeof(unsigned) * hp->slots));
  checkCudaErrors(cudaMalloc((void **)&hp->d_disp, sizeof(unsigned) * hp->buckets));
  checkCudaErrors(cudaMalloc((void **)&hp->d_slot_count, sizeof(unsigned) * hp->slots));
  checkCudaErrors(cudaMalloc((void **)&hp->d_slot_of, sizeof(int) * nwords));
  checkCudaErrors(cudaMemcpy(hp->d_keys, keys, sizeof(unsigned) * hp->slots, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(hp->d_disp, disp, sizeof(unsigned) * hp->buckets, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(hp->d_slot_of, slot_of, sizeof(int) * nwords, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaFuncSetAttribute(match_hash, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)hp->smem));
  free(keys), free(disp), free(slot_of);
  return 1;
}

static void run_hash(const ladder_plan *p) {
  const hash_plan *hp = (const hash_plan *)p->step5;
  checkCudaErrors(cudaMemsetAsync(hp->d_slot_count, 0, sizeof(unsigned) * hp->slots));
  match_hash<<<p->blocks[5], LADDER_THREADS, hp->smem>>>(p->d_text, *p, *hp, hp->d_slot_count);
  getLastCudaError("match_hash execution failed");
  match_gather<<<(p->nwords + 255) / 256, 256>>>(hp->d_slot_count, hp->d_slot_of, p->nwords, p->d_counts);
  getLastCudaError("match_gather execution failed");
}
