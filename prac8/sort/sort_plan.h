/*
 * sort/sort_plan.h -- practical 8, steps 7 to 9: radix_sort's device arrays and workspaces (sort_plan,
 * sort/sort_common.cuh), made once before any method runs and freed at the end, and what they add up to, so
 * that the runner can refuse a size that does not fit before it allocates anything. Included after the steps
 * (k0 to k4), whose sizes it uses.
 */
#ifndef PRAC8_SORT_PLAN_H
#define PRAC8_SORT_PLAN_H

#include "sort_common.cuh"

// Every allocation of the run, before any is made: in, out and the passes' other buffer (each with its values
// under -pairs); CUB's temporary storage as CUB itself gives its size (p->cub_temp_bytes, cub_temp_size: the
// const-input call holds a copy of the keys between passes, and a look-back array per pass); Thrust's (sorting
// in place: its other buffer and CUB's workspace for that call, thrust_temp_size); onesweep's status words (4
// passes x 256 digits per tile, of keys alone, the smaller tile), step 8's counts (16 per 4096 keys), and 16 MB
// for onesweep's histogram, tickets and flags.
static size_t sort_plan_bytes(const sort_plan *p) {
  size_t n = p->n, arrays = (size_t)(p->pairs ? 6 : 3) * n * 4;
  return arrays + p->cub_temp_bytes + thrust_temp_size(p) + (size_t)os_tiles(n, false) * 256 * 16 + n / 64 +
         (16 << 20);
}

// the input keys from h_in, and with -pairs each key's index as its value (h_tmp: n words of room)
static void sort_plan_alloc(sort_plan *p, int dev, const unsigned *h_in, unsigned *h_tmp) {
  size_t n = p->n, bytes = n * 4;
  onesweep_setup(p, dev);
  checkCudaErrors(cudaMalloc((void **)&p->d_in, bytes));
  checkCudaErrors(cudaMalloc((void **)&p->d_out, bytes));
  checkCudaErrors(cudaMalloc((void **)&p->d_alt, bytes));
  checkCudaErrors(cudaMemcpy(p->d_in, h_in, bytes, cudaMemcpyHostToDevice));
  if (p->pairs) {
    checkCudaErrors(cudaMalloc((void **)&p->d_vin, bytes));
    checkCudaErrors(cudaMalloc((void **)&p->d_vout, bytes));
    checkCudaErrors(cudaMalloc((void **)&p->d_valt, bytes));
    for (size_t i = 0; i < n; i++) h_tmp[i] = (unsigned)i;
    checkCudaErrors(cudaMemcpy(p->d_vin, h_tmp, bytes, cudaMemcpyHostToDevice));
  }
  p->work_words = 1024 + 1024 + 4 + (size_t)4 * os_tiles(n, false) * 256;
  checkCudaErrors(cudaMalloc((void **)&p->d_work, p->work_words * 4));
  checkCudaErrors(cudaMalloc((void **)&p->d_hist4, (size_t)16 * ((n + B4_TILE - 1) / B4_TILE) * 4));
  checkCudaErrors(cudaMalloc((void **)&p->d_error, sizeof(int)));
  checkCudaErrors(cudaMemset(p->d_error, 0, sizeof(int)));
  checkCudaErrors(cudaMalloc(&p->d_cub_temp, p->cub_temp_bytes));
  // (Thrust's temporary storage is allocated by its first call: once_allocator, sort/k4_thrust.cuh)
}

static void sort_plan_free(sort_plan *p) {
  void *d_all[] = {p->d_in,   p->d_out,   p->d_alt,   p->d_vin,      p->d_vout,       p->d_valt,
                   p->d_work, p->d_hist4, p->d_error, p->d_cub_temp, p->d_thrust_temp}; // (NULL: not allocated)
  for (size_t i = 0; i < sizeof(d_all) / sizeof(d_all[0]); i++)
    if (d_all[i]) checkCudaErrors(cudaFree(d_all[i]));
}

#endif /* PRAC8_SORT_PLAN_H */
