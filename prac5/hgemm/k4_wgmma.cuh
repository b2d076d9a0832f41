/*
 * hgemm/k4_wgmma.cuh -- kernel 4: Hopper's way. Kernel 3's warps each load their fragments from shared memory into
 * registers (ldmatrix) and multiply 16 x 8 x 16 at a time; here four warps, a warpgroup of 128 threads, issue one
 * wgmma that multiplies 64 x 256 x 16 reading A and B straight from shared memory, asynchronously, and the tiles
 * arrive by TMA (the Tensor Memory Accelerator, a copy unit in each SM), which one thread starts for a whole 2-D box
 * described by a tensor map made on the host. Every instruction below is PTX ISA 8.0 (CUDA 12.0) or older.
 *
 * The block: 3 warpgroups, 384 threads, 128 x 256 of C, 64 of K a step, H4_STAGES stages of shared memory.
 *   warpgroup 0, the producer: one thread issues the TMA copies of step t into stage t % H4_STAGES once the
 *     consumers have released it (warp specialisation: this warpgroup does no arithmetic). Every thread starts
 *     with 168 registers (65536 / 384, in steps of 8); the producer's 128 threads give back 128 each
 *     (setmaxnreg.dec to 40), which the consumers' 256 take, 64 each (setmaxnreg.inc to 232): 16384 both ways.
 *   warpgroups 1 and 2, the consumers: rows 0-63 and 64-127 of the block's tile. Per step, 4 wgmma m64n256k16
 *     (64 of K), 128 FP32 accumulators per thread, the whole 64 x 256 tile of C in the warpgroup's registers.
 * The pipeline, per stage s two mbarriers (shared-memory barriers that count arrivals and bytes, with a phase bit
 * that flips each time one completes):
 *   full[s]: the producer arms it with the bytes it expects (mbarrier.arrive.expect_tx: 48 KB), the TMA unit counts
 *     them off as they land (complete_tx); the consumers wait on its phase (try_wait.parity, phase (t / S) & 1).
 *   empty[s]: 8 arrivals, one per consumer warp once its wgmma reading the stage are done; the producer waits on
 *     it before it overwrites the stage (the use before: phase (t / S - 1) & 1).
 * The consumers keep one step's wgmma in flight: wgmma.fence, 4 wgmma, commit_group, then wait_group 1 waits
 * for the step before, whose stage is released then, while this step's multiplications still run.
 *
 * The layouts. A's box is 128 rows x 64 halves (128 bytes: one row of the 128-byte swizzle), B's four boxes of 64
 * rows (K) x 64 columns each (B is row-major K x N, so its contiguous side is N, and a swizzled box may be at most
 * 128 bytes along it: 4 boxes for 256 columns). TMA stores each box with the 128-byte swizzle: in every 1024 bytes
 * (8 rows of 128), 16-byte chunk c of row r is stored at chunk c ^ (r % 8), kernel 3's XOR for B, done by the copy
 * unit; wgmma undoes it as it reads. Both take r and c from the address bits, so the buffers start on 1024 bytes.
 * A wgmma matrix descriptor (64 bits) tells wgmma where a 64 x 16 (A) or 16 x 256 (B) operand lies
 * (hgemm_wgmma_desc, hgemm/hgemm_host.h):
 *   bits 0-13 start address / 16; 16-29 LBO / 16; 32-45 SBO / 16; 62-63 swizzle (1: 128 bytes)
 *   A, K-major (each row's K contiguous, the layout wgmma expects): 8 rows of 128 bytes a swizzle atom, the next 8
 *     rows SBO = 1024 bytes on; LBO unused (1). Each 16 of K starts 32 bytes further along the rows.
 *   B, MN-major (transposed: imm-trans-b = 1, allowed for FP16 and BF16): 64 columns (128 bytes) a row of an atom,
 *     8 rows of K an atom, the next 8 rows of K SBO = 1024 bytes on, the next 64 columns LBO = 8192 bytes on (the
 *     next box). Each 16 of K starts 16 rows = 2048 bytes further. So B needs no transposing copy: wgmma reads it
 *     as it lies, where kernel 3 needed ldmatrix.trans.
 * The edges: TMA fills the part of a box outside the matrix with zeros (A beyond M or K, B beyond K or N), and
 * zeros add nothing to C, so M, N and K need not be multiples of any tile; C goes out from the registers with
 * each row and column tested (kernel 3's store_pair). But a tensor map needs each row of A and B to start on 16
 * bytes (K and N multiples of 8): elsewhere the host copies A or B into rows that do first (hgemm/k4_host.cuh).
 * The grid: block b does not take tile b in row order; the blocks are dealt H4_GROUP rows of tiles at a time, column
 * by column inside the group, so the blocks resident at once share a few rows of A's tiles and columns of B's in L2.
 * Where the tiles are too few for the SMs and K is long, the runner adds a third dimension (split-K): slice z
 * multiplies its share of K's steps and adds its tile into C with atomicAdd, C zeroed first (the rule, with the
 * figures behind it, in k4_host.cuh).
 *
 * wgmma and setmaxnreg exist only in code built for sm_90a (compute capability 9.0 exactly, not 9.x or 10.0): the
 * Makefile builds this program's 9.0 machine code as sm_90a. In code without them (H4_CODE 0: 7.5 to 8.9, plain
 * sm_90, and the compute_90 PTX a newer GPU compiles) the kernel is empty; hgemm_wgmma_can_run (k4_host.cuh)
 * asks the device for its compute capability and the binary for what it holds for this GPU (a one-thread probe
 * kernel), and the runner SKIPs -kernel=4 with the reason.
 * Left out: 2 blocks of a cluster sharing A or B by TMA multicast. It needs a cluster launch, a mask per copy and empty
 * barriers counting both blocks' consumers: a second protocol on top of this one, for a gain not yet measured.
 */
#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled (and cuda.h's CUtensorMap), with no -lcuda

#define H4_BM 128                      // rows of C a block: 2 consumer warpgroups x 64
#define H4_BN 256                      // columns of C a block: one m64n256k16 wide
#define H4_BK 64                       // K a step: 64 halves = 128 bytes, one swizzled row
#define H4_STAGES 4                    // stages in flight: 4 x 48 KB
#define H4_GROUP 8                     // rows of tiles a group of blocks walks together (L2 reuse)
#define H4_THREADS 384                 // warpgroup 0 the producer, 1 and 2 the consumers
#define H4_A_BYTES (H4_BM * H4_BK * 2) // A's box: 16 KB
#define H4_B_BOX (H4_BK * 64 * 2)      // one of B's 4 boxes, 64 rows x 64 columns: 8 KB
#define H4_B_BYTES (H4_BK * H4_BN * 2) // B's stage: 32 KB
// the dynamic shared memory: the stages, and 1024 bytes to align them on
#define H4_SMEM (H4_STAGES * (H4_A_BYTES + H4_B_BYTES) + 1024)
#define H4_CONSUMER_WARPS 8 // the arrivals that release a stage
static_assert(H4_BM == 2 * 64 && H4_THREADS == 3 * 128 && H4_BN == 4 * 64,
              "two consumer warpgroups of m64 rows, one of n256 columns, B's stage as 4 boxes of 64 columns");
static_assert(H4_BK * 2 == 128 && H4_BK % 16 == 0, "a row of a box is the 128 bytes of the swizzle; k16 a wgmma");
static_assert(H4_A_BYTES % 1024 == 0 && H4_B_BOX % 1024 == 0, "every box starts on a 1024-byte swizzle atom");
static_assert(H4_SMEM <= 227 * 1024, "the stages fit in the 227 KB a block of compute capability 9.0 may opt in to");

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define H4_CODE 0 // wgmma, setmaxnreg: sm_90a code only
#else
#define H4_CODE 1
#endif

#if H4_CODE && defined(__CUDA_ARCH__)
static __device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
// the producer's arrival, and the bytes the TMA copies of this phase will bring
static __device__ __forceinline__ void mbar_expect_tx(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
static __device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// until the phase of parity `parity` has completed
static __device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
}
// one box of a 2-D tensor map, its first element at (c0, c1) (c0 the contiguous side), into shared memory at dst;
// its bytes are counted off bar
static __device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap *map, int c0, int c1, unsigned bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
               "[%4];\n" ::"r"(dst),
               "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(bar)
               : "memory");
}
template <int REGS>
static __device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGS));
}
template <int REGS>
static __device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGS));
}
static __device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
static __device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
static __device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// the accumulators pinned in place: no instruction that uses them is moved across this point (CUTLASS's
// warpgroup_fence_operand), so none is read while a wgmma may still write it
static __device__ __forceinline__ void acc_fence(float (&d)[128]) {
#pragma unroll
  for (int i = 0; i < 128; i++) asm volatile("" : "+f"(d[i])::"memory");
}

// d += A B on 64 x 256 x 16: A (K-major) and B (MN-major: imm-trans-b 1) from shared memory by their descriptors;
// scale-d 1 (add to d), imm-scale-a and -b 1 (not negated)
#define H4_D8(i)                                                                                              \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), \
      "+f"(d[i + 7])
#define H4_D32(i) H4_D8(i), H4_D8(i + 8), H4_D8(i + 16), H4_D8(i + 24)
#define H4_WGMMA(TYPE)                                                                                             \
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %130, 0;\n"                                                     \
               " wgmma.mma_async.sync.aligned.m64n256k16.f32." TYPE "." TYPE                                       \
               " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, " \
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "   \
               "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "   \
               "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "   \
               "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, "   \
               "%97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, "     \
               "%113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "       \
               "%128, %129, p, 1, 1, 0, 1;\n}\n"                                                                   \
               : H4_D32(0), H4_D32(32), H4_D32(64), H4_D32(96)                                                     \
               : "l"(da), "l"(db), "r"(1))
template <typename T>
static __device__ __forceinline__ void wgmma_64x256x16(float (&d)[128], unsigned long long da, unsigned long long db) {
  if constexpr (std::is_same<T, __half>::value)
    H4_WGMMA("f16");
  else
    H4_WGMMA("bf16");
}
#endif

// two neighbouring elements of C added to (split-K's shares), each inside C: atomics, as other blocks add too
static __device__ __forceinline__ void add_pair(float *C, int M, int N, int r, int c, float x, float y) {
  if (r >= M) return;
  if (c < N) atomicAdd(&C[(size_t)r * N + c], x);
  if (c + 1 < N) atomicAdd(&C[(size_t)r * N + c + 1], y);
}

template <typename T>
__global__ void __launch_bounds__(H4_THREADS, 1)
    hgemm_wgmma(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, float *__restrict__ C,
                int M, int N, int K) {
#if H4_CODE && defined(__CUDA_ARCH__)
  extern __shared__ unsigned char h4_smem[];
  __shared__ __align__(8) unsigned long long full[H4_STAGES], empty[H4_STAGES];
  // the stages from the first 1024-byte boundary (TMA's swizzle and wgmma's agree only on aligned atoms)
  unsigned sA = ((unsigned)__cvta_generic_to_shared(h4_smem) + 1023u) & ~1023u, sB = sA + H4_STAGES * H4_A_BYTES;
  unsigned full0 = (unsigned)__cvta_generic_to_shared(&full[0]), empty0 = (unsigned)__cvta_generic_to_shared(&empty[0]);
  // the block's tile: blocks taken H4_GROUP rows of tiles at a time, each group column by column, so that the blocks
  // resident together read a few rows of A's tiles and a few columns of B's, which L2 keeps for each other
  int id = blockIdx.y * gridDim.x + blockIdx.x, per = H4_GROUP * gridDim.x, first = id / per * H4_GROUP;
  int rows = min((int)gridDim.y - first, H4_GROUP), tm = first + id % per % rows, tn = id % per / rows;
  // its share of K (split-K, gridDim.z > 1: every share a whole number of steps, none empty; the runner's plan)
  int kshare = ceil_div(ceil_div(K, H4_BK), (int)gridDim.z), kt0 = blockIdx.z * kshare;
  int wg = threadIdx.x / 128, row0 = tm * H4_BM, col0 = tn * H4_BN, ntiles = min(kshare, ceil_div(K, H4_BK) - kt0);
  if (threadIdx.x == 0) {
    for (int s = 0; s < H4_STAGES; s++) {
      mbar_init(full0 + 8 * s, 1); // the producer's arrival (plus the bytes it announces)
      mbar_init(empty0 + 8 * s, H4_CONSUMER_WARPS);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); // visible to the TMA unit too
  }
  __syncthreads();

  if (wg == 0) { // the producer
    setmaxnreg_dec<40>();
    int nb = min(H4_BN / 64, (N - col0 + 63) / 64); // B's boxes inside B: one past N feeds no column of C stored
    if (threadIdx.x == 0)
      for (int t = 0; t < ntiles; t++) {
        int s = t % H4_STAGES;
        unsigned bar = full0 + 8 * s;
        if (t >= H4_STAGES) mbar_wait(empty0 + 8 * s, hgemm_wgmma_parity(t - H4_STAGES, H4_STAGES));
        mbar_expect_tx(bar, H4_A_BYTES + nb * H4_B_BOX); // whole boxes, their zero-filled parts included
        tma_load_2d(sA + s * H4_A_BYTES, &tmA, (kt0 + t) * H4_BK, row0, bar);
        for (int j = 0; j < nb; j++)
          tma_load_2d(sB + s * H4_B_BYTES + j * H4_B_BOX, &tmB, col0 + 64 * j, (kt0 + t) * H4_BK, bar);
      }
    return;
  }
  // a consumer: warpgroup c = 0 or 1, rows 64 c .. 64 c + 63 of the block's tile
  setmaxnreg_inc<232>();
  int c = wg - 1, warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; i++) d[i] = 0.0f;
  for (int t = 0; t < ntiles; t++) {
    int s = t % H4_STAGES;
    mbar_wait(full0 + 8 * s, hgemm_wgmma_parity(t, H4_STAGES)); // step t's tiles have landed
    __syncwarp(); // the lanes leave the wait together: the wgmma instructions are .aligned (the whole warp)
    acc_fence(d);
    wgmma_fence(); // the accumulators, written by ordinary instructions (the zeros), before wgmma uses them
#pragma unroll
    for (int kk = 0; kk < H4_BK / 16; kk++) {
      unsigned long long da = hgemm_wgmma_desc(sA + s * H4_A_BYTES + c * 64 * 128 + kk * 32, 16, 1024);
      unsigned long long db = hgemm_wgmma_desc(sB + s * H4_B_BYTES + kk * 16 * 128, H4_B_BOX, 1024);
      wgmma_64x256x16<T>(d, da, db);
    }
    wgmma_commit();
    acc_fence(d);
    wgmma_wait<1>(); // step t - 1's wgmma are done: its stage goes back to the producer
    if (t > 0 && lane == 0) mbar_arrive(empty0 + 8 * ((t - 1) % H4_STAGES));
  }
  wgmma_wait<0>();
  acc_fence(d);

  // d[i] of lane l of warp w: row 16 w + l / 4 (+ 8 when i % 4 >= 2), column 8 (i / 4) + 2 (l % 4) (+ 1 when i odd)
  int r = row0 + c * 64 + warp * 16 + lane / 4, q = lane % 4;
#pragma unroll
  for (int j = 0; j < H4_BN / 8; j++) {
    if (gridDim.z == 1) {
      store_pair(C, M, N, r, col0 + 8 * j + 2 * q, d[4 * j], d[4 * j + 1]);
      store_pair(C, M, N, r + 8, col0 + 8 * j + 2 * q, d[4 * j + 2], d[4 * j + 3]);
    } else { // split-K: the shares add into a C the runner zeroed (in whatever order they come: FP32 sums still)
      add_pair(C, M, N, r, col0 + 8 * j + 2 * q, d[4 * j], d[4 * j + 1]);
      add_pair(C, M, N, r + 8, col0 + 8 * j + 2 * q, d[4 * j + 2], d[4 * j + 3]);
    }
  }
#endif
}
