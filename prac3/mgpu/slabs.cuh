/*
 * mgpu/slabs.cuh -- practical 3, step 11: laplace3d_mgpu's slabs, set up and released. The host code around
 * the lesson (the exchange and the sweep stay in laplace3d_mgpu.cu, which includes this after its slab and
 * mgpu types): the memory check on each GPU, each slab's streams, events and arrays with its planes of the
 * grid copied in, peer access for -peer, and at the end the release of all of it.
 */
#ifndef MGPU_SLABS_CUH
#define MGPU_SLABS_CUH

#include "helper_cuda.h"
#include "helper_nccl.h"

// memory on each GPU: u1 and u2 of every slab it holds, checked before anything is allocated
static void slabs_memory_check(const mgpu *m, int ngpus, int dev0, int user_sized) {
  for (int d = 0; d < ngpus; d++) {
    size_t need = 0;
    for (int l = 0; l < m->nlocal; l++)
      if (m->s[l].dev == dev0 + d) need += 2 * (size_t)(m->s[l].nz + 2) * m->plane * sizeof(float);
    if (need == 0) continue;
    checkCudaErrors(cudaSetDevice(dev0 + d));
    device_memory_check(need, "u1 and u2 of the slabs", user_sized);
  }
}

// per slab: streams (edge at the highest priority, so that its planes and the exchange go first),
// events, arrays; u1 gets planes k0-1 .. k0+nz (the halos of the first sweep too), u2 is poisoned
static void slabs_alloc(mgpu *m, const float *h_u1) {
  int NX = m->NX, NY = m->NY, NZ = m->NZ, pitch = m->pitch;
  int lowest, highest;
  for (int l = 0; l < m->nlocal; l++) {
    slab *sl = &m->s[l];
    size_t n = m->plane, sbytes = (size_t)(sl->nz + 2) * n * sizeof(float);
    checkCudaErrors(cudaSetDevice(sl->dev));
    checkCudaErrors(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    checkCudaErrors(cudaStreamCreateWithPriority(&sl->edge, cudaStreamNonBlocking, highest));
    checkCudaErrors(cudaStreamCreateWithPriority(&sl->inner, cudaStreamNonBlocking, lowest));
    checkCudaErrors(cudaEventCreateWithFlags(&sl->ev_edge, cudaEventDisableTiming));
    checkCudaErrors(cudaEventCreateWithFlags(&sl->ev_inner, cudaEventDisableTiming));
    checkCudaErrors(cudaMalloc((void **)&sl->d_u1, sbytes));
    checkCudaErrors(cudaMalloc((void **)&sl->d_u2, sbytes));
    checkCudaErrors(cudaMemset(sl->d_u1, 0, sbytes));
    // poison u2 with 0xff bytes (NaN): a point the kernels or the exchange forget cannot pass
    checkCudaErrors(cudaMemset(sl->d_u2, 0xff, sbytes));
    // a halo past the grid's end is never written nor used; zero it in both, so nothing reads NaN there
    if (sl->k0 == 0) checkCudaErrors(cudaMemset(sl->d_u2, 0, n * sizeof(float)));
    if (sl->k0 + sl->nz == NZ)
      checkCudaErrors(cudaMemset(sl->d_u2 + (size_t)(sl->nz + 1) * n, 0, n * sizeof(float)));
    int kg = sl->k0 == 0 ? 0 : sl->k0 - 1;                        // first global plane held
    int kl = sl->k0 == 0 ? 1 : 0;                                  // where it goes
    int kn = (sl->k0 + sl->nz == NZ ? sl->k0 + sl->nz - 1 : sl->k0 + sl->nz) - kg + 1; // planes held
    checkCudaErrors(cudaMemcpy2D(sl->d_u1 + (size_t)kl * n, pitch * sizeof(float), h_u1 + (size_t)kg * NX * NY,
                                 NX * sizeof(float), NX * sizeof(float), (size_t)NY * kn, cudaMemcpyHostToDevice));
    // the first sweep's edges wait for "the last interior": record it once, on an empty stream
    checkCudaErrors(cudaEventRecord(sl->ev_inner, sl->inner));
  }
}

// -peer: direct copies over NVLink or PCIe where the GPUs can reach each other (else staged by the driver)
static void peer_access_enable(int ngpus, int dev0) {
  for (int a = 0; a < ngpus; a++)
    for (int b = 0; b < ngpus; b++) {
      int ok = 0;
      if (a == b) continue;
      checkCudaErrors(cudaDeviceCanAccessPeer(&ok, dev0 + a, dev0 + b));
      if (!ok) continue;
      checkCudaErrors(cudaSetDevice(dev0 + a));
      checkCudaErrors(cudaDeviceEnablePeerAccess(dev0 + b, 0));
    }
}

// release the slabs: communicators, arrays, streams and events
static void slabs_free(mgpu *m) {
  for (int l = 0; l < m->nlocal; l++) {
    slab *sl = &m->s[l];
    checkCudaErrors(cudaSetDevice(sl->dev));
    if (sl->comm) checkCudaErrors(ncclCommDestroy(sl->comm));
    checkCudaErrors(cudaFree(sl->d_u1));
    checkCudaErrors(cudaFree(sl->d_u2));
    checkCudaErrors(cudaStreamDestroy(sl->edge));
    checkCudaErrors(cudaStreamDestroy(sl->inner));
    checkCudaErrors(cudaEventDestroy(sl->ev_edge));
    checkCudaErrors(cudaEventDestroy(sl->ev_inner));
  }
}

#endif
