/*
 * laplace3d_mgpu.cu -- practical 3, step 11 (beyond the course): one Jacobi iteration across several GPUs.
 *
 * The NX x NY x NZ grid is cut in k into slabs, one per GPU (every visible GPU, or -ngpus=N of them). A slab
 * of nz planes is stored with one extra plane on each side, its halo: local plane 0 is the neighbour
 * below's top plane, local plane nz+1 the neighbour above's bottom plane. Each sweep computes planes
 * 1..nz with GPU_laplace3d_fast's kernel (stencil/s3_fast.cuh with FAST_PLANE_RANGE: the same additions in
 * the same order, so the result equals
 * Gold_laplace3d bit for bit: rms error = 0.000000), then the halos are exchanged: each GPU sends its
 * planes 1 and nz to its neighbours and receives their planes into 0 and nz+1, with NCCL's ncclSend and
 * ncclRecv, all of them in one ncclGroupStart/ncclGroupEnd (one process drives every GPU; a
 * communicator per GPU from ncclCommInitAll).
 *
 * Overlap: on each GPU the two boundary planes of the slab are computed first, on a high-priority stream
 * ("edge"), and the exchange is queued behind them on that stream; the interior planes 2..nz-1, which need
 * no halo, run at the same time on a second stream ("inner"). Events order the two streams:
 *   edge:  wait(inner done, sweep s-1) -> planes 1, nz -> record(edge done) -> send/recv halos
 *   inner: wait(edge done, sweep s)    -> planes 2..nz-1                   -> record(inner done)
 * The exchange then costs nothing as long as it is shorter than the interior.
 *
 * -peer replaces the NCCL exchange by cudaMemcpyPeerAsync, for comparison. -slabs=S (with -peer) cuts the
 * grid into more slabs than GPUs, slab g on GPU g mod ngpus, so that one GPU tests the halo logic.
 * -bench times a sweep on all GPUs against GPU_laplace3d_fast on one GPU over the whole grid (strong
 * scaling) and over one slab alone (weak scaling), and prints a BENCH line.
 *
 * The host code around the lesson is in two headers beside this file: mgpu/slabs.cuh (the memory check, each
 * slab's streams, events and arrays, peer access, the release) and mgpu/results.cuh (the gather, the check
 * against the gold, -bench).
 *
 * Built twice from this file: laplace3d_mgpu (one process), and, where mpicc is found, laplace3d_mgpu_mpi
 * (-DUSE_MPI: one MPI rank per GPU, ncclCommInitRank with the unique id that rank 0 broadcasts with
 * MPI_Bcast; this is how the program grows past one machine: mpirun -np 2 ./laplace3d_mgpu_mpi).
 *   nvcc -O3 -arch=native -I. -I../common -Xcompiler -fopenmp laplace3d_mgpu.cu laplace3d_gold.c \
 *     -o laplace3d_mgpu -lnccl
 */
#define COURSE_STEPS "practical 3, workbook step 11 (beyond the course)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef USE_MPI
/* nvcc compiles this file as C++, and mpi.h would then pull in MPI's long-deprecated C++ bindings (Open
 * MPI's warn under -Wextra); the C API is all we use */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "helper_nccl.h"
#include "grid3d.h"
#include "timing.h"

#include "prac3_gold.h"

// laplace3d_fast's tunables (stencil/s3_fast.cuh: ROWS, KCHUNK); its kernel on a range of planes,
// GPU_laplace3d_slab, with its own __launch_bounds__ (MGPU_MAX_THREADS)
#ifndef MGPU_BLOCK_X
#define MGPU_BLOCK_X 32 // a multiple of 32: each warp covers 128 consecutive points (512 bytes) of one row
#endif
#ifndef MGPU_BLOCK_Y
#define MGPU_BLOCK_Y 4 // 128 threads per block
#endif
#define FAST_PLANE_RANGE
#include "stencil/s3_fast.cuh"
#define MAX_SLABS 64 // slabs (and GPUs) at most

// the largest grid accepted: 2^35 points (128 GiB an array)
#define MAX_POINTS (1LL << 35)

// one slab: global planes k0 .. k0+nz-1, stored as local planes 1..nz of nz+2
typedef struct {
  int id, dev;                // slab number (0 at the bottom) and its GPU
  int k0, nz;                 // first global plane and the number of planes it owns
  float *d_u1, *d_u2;         // nz+2 planes each: u1 is read this sweep, u2 written
  cudaStream_t edge, inner;   // boundary planes and exchange; interior planes
  cudaEvent_t ev_edge, ev_inner;
  ncclComm_t comm;            // NULL when there is nothing to exchange (one slab) or with -peer
} slab;

// what every launch needs
typedef struct {
  int NX, NY, NZ, pitch, nslabs, peer;
  dim3 block;
  size_t plane;        // floats a (padded) plane
  int nlocal;          // slabs this process drives
  slab s[MAX_SLABS];
} mgpu;

// launch the kernel over local planes [kfirst, kstop) of slab sl on stream st
static void launch_planes(const mgpu *m, const slab *sl, int kfirst, int kstop, cudaStream_t st) {
  if (kstop <= kfirst) return;
  // the kernel's first and last planes must be copied or never computed: the bottom slab's local plane 1 is
  // global plane 0, so its arrays start one plane up (its halo 0 is left out); the top slab's plane nz is
  // global plane NZ-1, so its array ends there (its halo nz+1 is left out)
  int b = sl->k0 == 0, t = sl->k0 + sl->nz == m->NZ;
  int NZL = sl->nz + 2 - b - t, kchunk = KCHUNK;
  size_t off = (size_t)b * m->plane;
  dim3 grid((m->pitch / 4 + m->block.x - 1) / m->block.x, (m->NY + ROWS * m->block.y - 1) / (ROWS * m->block.y),
            (kstop - kfirst + kchunk - 1) / kchunk);
  GPU_laplace3d_slab<<<grid, m->block, 0, st>>>(m->NX, m->NY, NZL, m->pitch, kfirst - b, kstop - b, kchunk,
                                                sl->d_u1 + off, sl->d_u2 + off);
  getLastCudaError("GPU_laplace3d_slab execution failed");
}

// step 11: the exchange -- planes 1 and nz of every slab of u2 to its neighbours' halos
static void exchange(mgpu *m) {
  size_t n = m->plane;
  if (m->nslabs == 1) return; // nothing to exchange: no NCCL call at all (and none under compute-sanitizer)
  if (!m->peer) {
    // NCCL: a send and a receive with each neighbour; all of them in one group, so that NCCL starts them
    // together (one thread drives every GPU: outside a group the first send would wait for its receive)
    checkCudaErrors(ncclGroupStart());
    for (int l = 0; l < m->nlocal; l++) {
      slab *sl = &m->s[l];
      if (sl->comm == NULL) continue;
      if (sl->id > 0) {
        checkCudaErrors(ncclSend(sl->d_u2 + n, n, ncclFloat, sl->id - 1, sl->comm, sl->edge));
        checkCudaErrors(ncclRecv(sl->d_u2, n, ncclFloat, sl->id - 1, sl->comm, sl->edge));
      }
      if (sl->id < m->nslabs - 1) {
        checkCudaErrors(ncclSend(sl->d_u2 + (size_t)sl->nz * n, n, ncclFloat, sl->id + 1, sl->comm, sl->edge));
        checkCudaErrors(ncclRecv(sl->d_u2 + (size_t)(sl->nz + 1) * n, n, ncclFloat, sl->id + 1, sl->comm, sl->edge));
      }
    }
    checkCudaErrors(ncclGroupEnd());
    return;
  }
  // -peer: each slab pulls its two halos on its own edge stream, once the neighbour's edge planes are done
  // (a wait on the neighbour's event). The neighbour next overwrites that plane two sweeps later, after
  // its own halos of the next sweep, which wait for this stream's edge planes of the next sweep, which
  // come after these copies on this stream: so the copy always reads the plane of this sweep.
  for (int l = 0; l < m->nslabs; l++) {
    slab *sl = &m->s[l];
    checkCudaErrors(cudaSetDevice(sl->dev));
    if (l > 0) {
      slab *lo = &m->s[l - 1];
      checkCudaErrors(cudaStreamWaitEvent(sl->edge, lo->ev_edge, 0));
      checkCudaErrors(cudaMemcpyPeerAsync(sl->d_u2, sl->dev, lo->d_u2 + (size_t)lo->nz * n, lo->dev,
                                          n * sizeof(float), sl->edge));
    }
    if (l < m->nslabs - 1) {
      slab *hi = &m->s[l + 1];
      checkCudaErrors(cudaStreamWaitEvent(sl->edge, hi->ev_edge, 0));
      checkCudaErrors(cudaMemcpyPeerAsync(sl->d_u2 + (size_t)(sl->nz + 1) * n, sl->dev, hi->d_u2 + n, hi->dev,
                                          n * sizeof(float), sl->edge));
    }
  }
}

// one Jacobi sweep on every slab: edges, then (exchange || interior); then u1 and u2 swap
static void sweep(mgpu *m) {
  for (int l = 0; l < m->nlocal; l++) {
    slab *sl = &m->s[l];
    checkCudaErrors(cudaSetDevice(sl->dev));
    // edge planes read planes 2 and nz-1 of u1 (the last interior) and write u2 planes the last interior read
    checkCudaErrors(cudaStreamWaitEvent(sl->edge, sl->ev_inner, 0));
    launch_planes(m, sl, 1, 2, sl->edge);
    if (sl->nz > 1) launch_planes(m, sl, sl->nz, sl->nz + 1, sl->edge);
    checkCudaErrors(cudaEventRecord(sl->ev_edge, sl->edge));
    // the interior reads planes 1 and nz of u1 and writes planes 2 and nz-1 of u2, which the last sweep's
    // edge planes read: it waits for this sweep's edges (so they go first) and through them the last
    checkCudaErrors(cudaStreamWaitEvent(sl->inner, sl->ev_edge, 0));
    launch_planes(m, sl, 2, sl->nz, sl->inner);
    checkCudaErrors(cudaEventRecord(sl->ev_inner, sl->inner));
  }
  exchange(m); // queued on the edge streams, behind the edge planes: it overlaps the interior
  for (int l = 0; l < m->nlocal; l++) {
    float *t = m->s[l].d_u1;
    m->s[l].d_u1 = m->s[l].d_u2;
    m->s[l].d_u2 = t;
  }
}

static void sync_all(mgpu *m) {
  for (int l = 0; l < m->nlocal; l++) {
    checkCudaErrors(cudaSetDevice(m->s[l].dev));
    checkCudaErrors(cudaDeviceSynchronize());
  }
}

// every MPI rank would say the same: only rank 0 prints (one process: always)
static int rank0 = 1;
#define say(...) (rank0 ? printf(__VA_ARGS__) : 0)

// the host code around the lesson: the slabs' set-up and release; the gather, the check and -bench
#include "mgpu/slabs.cuh"
#include "mgpu/results.cuh"

int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 10, bx = MGPU_BLOCK_X, by = MGPU_BLOCK_Y;
  int ngpus = 0, nslabs = 0, peer = 0, seed = 0, bench = 0, reps = 20;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k (cut into slabs)"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations"},
      {"ngpus", ARG_INT, &ngpus, 1, MAX_SLABS, "GPUs to use (default: every visible one; fewer exist: SKIP)"},
      {"slabs", ARG_INT, &nslabs, 1, MAX_SLABS, "slabs (default: one a GPU; more needs -peer)"},
      {"peer", ARG_FLAG, &peer, 0, 1, "exchange halos with cudaMemcpyPeerAsync instead of NCCL"},
      {"bx", ARG_INT, &bx, 32, 1024, "threads per block along a row, a multiple of 32"},
      {"by", ARG_INT, &by, 1, 32, "rows of threads per block"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time a sweep on all GPUs and on one, print a BENCH line"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed samples for -bench (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int ngpus_given = args_given(argc, argv, "ngpus");
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  if (bx % 32 != 0 || bx * by > MGPU_MAX_THREADS)
    args_fail("a %dx%d block: -bx must be a multiple of 32 and the block at most %d threads", bx, by,
              MGPU_MAX_THREADS);
  if (ngpus_given && NZ < ngpus) args_fail("-nz=%d is too small for %d slabs: each needs a plane", NZ, ngpus);
  if (nslabs && NZ < nslabs) args_fail("-nz=%d is too small for %d slabs: each needs a plane", NZ, nslabs);
  if (nslabs && ngpus_given && nslabs < ngpus) args_fail("-slabs=%d is fewer than -ngpus=%d", nslabs, ngpus);
  if (nslabs && ngpus_given && nslabs > ngpus && !peer)
    args_fail("-slabs=%d on %d GPUs: more slabs than GPUs needs -peer", nslabs, ngpus);
#ifdef USE_MPI
  if (peer || nslabs) args_fail("-peer and -slabs need one process driving every GPU (laplace3d_mgpu)");
#endif
  int pitch = (NX + 31) / 32 * 32; // every row starts on a 128-byte boundary

  // NVLink multicast (NVLS) is for collectives; send/recv needs none of it, and it must stay off here
  if (setenv("NCCL_NVLS_ENABLE", "0", 0) != 0) return result_fail("setenv(NCCL_NVLS_ENABLE) failed");

  int nranks = 1;
#ifdef USE_MPI
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  rank0 = rank == 0;
  // one rank's output is enough: the others' stdout (their RESULT lines too) goes nowhere; stderr stays
  if (!rank0 && freopen("/dev/null", "w", stdout) == NULL) return result_fail("cannot silence rank %d", rank);
  if (ngpus_given && ngpus != nranks) args_fail("-ngpus=%d, but mpirun started %d ranks (one a GPU)", ngpus, nranks);
  if (NZ < nranks) args_fail("-nz=%d is too small for %d slabs: each needs a plane", NZ, nranks);
#endif
  int dev0 = findCudaDevice(argc, argv);
  if (device_limits(dev0)->profile) // its cudaSetDevice calls return each GPU to its primary context
    printf("(GPU profile: its limits apply, but this program runs on all the SMs of each GPU)\n");
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
#ifdef USE_MPI
  ngpus = nranks;
  // one rank per GPU: ranks on one machine take GPUs dev0, dev0+1, ... in the order of their local rank
  MPI_Comm node;
  int local = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  if (dev0 + local >= count) {
    int rc = result_skip("rank %d needs GPU %d, but this machine has %d", rank, dev0 + local, count);
    MPI_Abort(MPI_COMM_WORLD, rc);
  }
  nslabs = nranks;
#else
  if (!ngpus_given) ngpus = count - dev0;
  if (dev0 + ngpus > count)
    return result_skip("-ngpus=%d needs GPUs %d to %d, but %d %s visible", ngpus, dev0, dev0 + ngpus - 1, count,
                       count == 1 ? "is" : "are");
  if (nslabs == 0) nslabs = ngpus;
  if (nslabs > ngpus && !peer) args_fail("-slabs=%d on %d GPUs: more slabs than GPUs needs -peer", nslabs, ngpus);
  if (NZ < nslabs) args_fail("-nz=%d is too small for %d slabs: each needs a plane", NZ, nslabs);
#endif

  // the slabs: nz = NZ / nslabs planes each, the first NZ % nslabs of them one more
  static mgpu m;
  m.NX = NX;
  m.NY = NY;
  m.NZ = NZ;
  m.pitch = pitch;
  m.nslabs = nslabs;
  m.peer = peer;
  m.block = dim3(bx, by);
  m.plane = (size_t)pitch * NY;
  m.nlocal = 0;
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "ny") || args_given(argc, argv, "nz");
  for (int g = 0, k0 = 0; g < nslabs; g++) {
    int nz = NZ / nslabs + (g < NZ % nslabs);
#ifdef USE_MPI
    if (g != rank) {
      k0 += nz;
      continue;
    }
    int dev = dev0 + local;
#else
    int dev = dev0 + g % ngpus;
#endif
    slab *sl = &m.s[m.nlocal++];
    memset(sl, 0, sizeof(*sl));
    sl->id = g;
    sl->dev = dev;
    sl->k0 = k0;
    sl->nz = nz;
    k0 += nz;
  }
  say("Grid dimensions: %d x %d x %d, row pitch %d floats\n", NX, NY, NZ, pitch);
  say("%d slab%s on %d GPU%s (%s exchange, %s):", nslabs, nslabs == 1 ? "" : "s", ngpus, ngpus == 1 ? "" : "s",
      nslabs == 1 ? "no" : (peer ? "cudaMemcpyPeerAsync" : "NCCL send/recv"),
      nranks > 1 ? "one MPI rank a GPU" : "one process");
  for (int g = 0, k0 = 0; g < nslabs; g++) {
    int nz = NZ / nslabs + (g < NZ % nslabs);
    say(" k %d..%d on %s %d%s", k0, k0 + nz - 1, nranks > 1 ? "rank" : "GPU", nranks > 1 ? g : dev0 + g % ngpus,
        g + 1 < nslabs ? "," : "\n");
    k0 += nz;
  }

  // memory on each GPU: u1 and u2 of every slab it holds, checked before anything is allocated
  slabs_memory_check(&m, ngpus, dev0, user_sized);

  // allocate the host arrays: the whole grid (u1: start, then gold; u2: the GPUs' result; u3: gold's scratch)
  size_t npoints = (size_t)NX * NY * NZ, bytes = npoints * sizeof(float);
  float *h_u1 = (float *)malloc(bytes), *h_u2 = (float *)malloc(bytes), *h_u3 = (float *)malloc(bytes);
  if (!h_u1 || !h_u2 || !h_u3) return result_fail("out of host memory for three %zu-byte arrays", bytes);
  memset(h_u2, 0xff, bytes); // planes of other ranks stay NaN: each rank compares only its own
  grid3d_init(h_u1, NX, NY, NZ, (unsigned int)seed);

  // per slab: streams, events, arrays; u1 gets its planes of the grid and the halos, u2 is poisoned
  slabs_alloc(&m, h_u1);
  if (peer) peer_access_enable(ngpus, dev0); // direct copies where the GPUs can reach each other

  // the NCCL communicators: one per GPU, rank g the slab g (none when there is nothing to exchange)
  if (!peer && nslabs > 1) {
#ifdef USE_MPI
    ncclUniqueId id;
    if (rank0) checkCudaErrors(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
    checkCudaErrors(cudaSetDevice(m.s[0].dev));
    checkCudaErrors(ncclCommInitRank(&m.s[0].comm, nranks, id, rank));
#else
    ncclComm_t comms[MAX_SLABS];
    int devs[MAX_SLABS];
    for (int g = 0; g < nslabs; g++) devs[g] = m.s[g].dev;
    checkCudaErrors(ncclCommInitAll(comms, nslabs, devs));
    for (int g = 0; g < nslabs; g++) m.s[g].comm = comms[g];
#endif
    int v = 0;
    checkCudaErrors(ncclGetVersion(&v));
    say("NCCL %d.%d.%d, NCCL_NVLS_ENABLE=%s\n", v / 10000, v / 100 % 100, v % 100, getenv("NCCL_NVLS_ENABLE"));
  }

  // execute REPEAT sweeps on every GPU (host clock: the GPUs are timed together, from the first launch to
  // the last GPU's end)
  sync_all(&m);
  double t0 = wall_ms();
  for (int i = 1; i <= REPEAT; ++i) sweep(&m);
  sync_all(&m);
  say("%dx sweep on %d GPU%s: %.1f (ms)\n", REPEAT, ngpus, ngpus == 1 ? "" : "s", wall_ms() - t0);

  // copy planes 1..nz of each slab's u1 (the last result) back into its place in the grid
  slabs_gather(&m, h_u2);

  // Gold treatment (every rank computes the whole grid, and checks its own planes)
  t0 = wall_ms();
  for (int i = 1; i <= REPEAT; ++i) {
    Gold_laplace3d(NX, NY, NZ, h_u1, h_u3);
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  say("%dx Gold_laplace3d: %.1f (ms)\n", REPEAT, wall_ms() - t0);

  // error check: the same operations in the same order, so exactly equal
  gold_stats st = gold_compare(&m, h_u2, h_u1);
  say("rms error = %f\n", st.rms_err);
  if (rank0) gold_report("u", &st);

  // -bench: a sweep on all GPUs (median of reps samples of 10 sweeps), against GPU 0 alone
  if (bench && st.nbad == 0) bench_sweeps(&m, ngpus, nranks, bx, by, reps);

  // release everything (after an odd REPEAT the gold's swaps leave u1 and u3 exchanged: both are freed)
  slabs_free(&m);
  free(h_u1);
  free(h_u2);
  free(h_u3);

  int rc = gold_verdict(&st, "u");
#ifdef USE_MPI
  MPI_Finalize();
#endif
  return rc;
}
