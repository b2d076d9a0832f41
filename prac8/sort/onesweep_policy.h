/*
 * sort/onesweep_policy.h -- practical 8, step 9: the tunables of the Onesweep sort (sort/k3_onesweep.cuh), in
 * one place, as CUB keeps its AgentRadixSortOnesweepPolicy: threads and keys per thread (keys alone and with
 * values), how a warp finds equal digits, and the blocks per SM that ptxas must leave registers for, from the
 * SM's limits. Each may be set with -D on the nvcc line (make EXTRA_NVCCFLAGS=-DOS_ITEMS=18).
 */
#ifndef PRAC8_ONESWEEP_POLICY_H
#define PRAC8_ONESWEEP_POLICY_H

#ifndef OS_THREADS
#define OS_THREADS 384 // threads 0-255 each own one 8-bit digit for the look-back; the rest only rank and move keys
#endif
#ifndef OS_ITEMS
#define OS_ITEMS 16       // keys per thread: 6144 per tile
#endif
#ifndef OS_ITEMS_PAIRS
#define OS_ITEMS_PAIRS 23 // with values: 8832 per tile
#endif
#ifndef OS_MATCH
#define OS_MATCH 1     // 1: a warp finds equal digits with 8 ballots; 0: with __match_any_sync
#endif
// Blocks per SM that ptxas must leave registers for (__launch_bounds__): as many as the SM's threads and shared
// memory allow, at most 4 for keys (40 registers per thread) and 2 with values (80). The shapes were chosen by
// timing the alternatives on an H100 (docs/notes/prac8.md, "Onesweep: the way there", has the figures): with
// values a pair moves twice the bytes, and the bigger tile (CUB's own shape on sm_90) halves the look-backs and
// doubles the length of each digit's run that a block writes. The limits per SM by compute capability (CUDA
// C++ Programming Guide, "Compute Capabilities"): threads 1024 on 7.5, 1536 on 8.6, 8.7, 8.9 and 12.x, else
// 2048; shared memory 64 KB on 7.5, 100 KB on 8.6, 8.9 and 12.x, 164 KB on 8.0 and 8.7, else 228 KB. Asking
// for more blocks than fit would only cost registers for nothing.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 750)
#define OS_SM_THREADS 1024
#define OS_SM_SMEM_KB 64
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ / 100 == 12)
#define OS_SM_THREADS 1536
#define OS_SM_SMEM_KB 100
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 870)
#define OS_SM_THREADS 1536
#define OS_SM_SMEM_KB 164
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800)
#define OS_SM_THREADS 2048
#define OS_SM_SMEM_KB 164
#else
#define OS_SM_THREADS 2048
#define OS_SM_SMEM_KB 228
#endif
// onesweep_pass's shared memory at ITEMS keys per thread (s_hist, s_tile, s_tile_to_out, s_warp, s_tile_id),
// and the 1 KB the system keeps for each block
#define OS_SMEM_BYTES(ITEMS) (4 * ((OS_THREADS / 32) * 256 + OS_THREADS * (ITEMS) + 256 + 8 + 1))
#define OS_FIT_THREADS (OS_SM_THREADS / OS_THREADS)
#define OS_FIT_SMEM(ITEMS) (OS_SM_SMEM_KB * 1024 / (OS_SMEM_BYTES(ITEMS) + 1024))
#define OS_FIT(ITEMS) (OS_FIT_THREADS < OS_FIT_SMEM(ITEMS) ? OS_FIT_THREADS : OS_FIT_SMEM(ITEMS))
#ifndef OS_MINB
#define OS_MINB (OS_FIT(OS_ITEMS) < 4 ? OS_FIT(OS_ITEMS) : 4)
#endif
// With values, 2 blocks per SM cap the registers at 80, which only sm_90's code fits without spilling (CUDA 13.0
// spills 4-16 bytes per thread on sm_80, 8.6, 8.9, 10.0 and 12.0): elsewhere ptxas is left free (1 block).
#ifndef OS_MINB_PAIRS
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900)
#define OS_MINB_PAIRS (OS_FIT(OS_ITEMS_PAIRS) < 2 ? OS_FIT(OS_ITEMS_PAIRS) : 2)
#else
#define OS_MINB_PAIRS 1
#endif
#endif
#define OS_WARPS (OS_THREADS / 32)
#define OS_HIST_THREADS 512
static_assert(OS_THREADS >= 256 && OS_THREADS % 32 == 0, "a thread for each of the 256 digits, whole warps");
static_assert(OS_FIT(OS_ITEMS) >= 1 && OS_FIT(OS_ITEMS_PAIRS) >= 1, "a block of onesweep_pass must fit an SM");

// keys per thread and per tile, keys alone and with values
__host__ __device__ constexpr int os_items(bool pairs) { return pairs ? OS_ITEMS_PAIRS : OS_ITEMS; }
__host__ __device__ constexpr int os_tile(bool pairs) { return OS_THREADS * os_items(pairs); }

#endif /* PRAC8_ONESWEEP_POLICY_H */
