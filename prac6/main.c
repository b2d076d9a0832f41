/*
 * main.c -- practical 6, steps 1-2: a main program in plain C (C11, compiled by gcc) that calls CUDA code.
 *
 * Nothing here is CUDA: the GPU work is the routine prac6(), compiled by nvcc in prac6.cu and declared
 * for C in prac6.h. The course writes main in C++ (g++); plain C works just as well, because prac6.h
 * declares the routines extern "C". From gcc, args.h, gold_check.h and helper_cuda.h give only their
 * plain C parts (options, the gold comparison, the verdict line).
 * The same main.c makes two programs (see the Makefile):
 *   ./prac6    gcc linked main.o with prac6.cu's object and the CUDA runtime
 *   ./prac6a   gcc linked main.o with the static library libprac6.a (nvcc -lib)
 * Try: nm .obj/main.c.o (prac6 is "U", undefined: the linker must find it), nm libprac6.a | grep ' T '
 * (prac6 with its plain C name, the kernel's stub with a mangled one), and ldd ./prac6 | grep cudart
 * (gcc linked the shared libcudart.so; nvcc would have linked the static one).
 */
#define COURSE_STEPS "practical 6, workbook steps 1-2 (course step 1): prac6 links an object file, prac6a a library"
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

#include "prac6.h"
#include "prac6_gold.h"

int main(int argc, char **argv) {
  // set number of blocks, and threads per block
  int nblocks = 2, nthreads = 8;
  arg_spec opts[] = {
      {"nblocks", ARG_INT, &nblocks, 1, 1 << 20, "number of thread blocks"},
      {"nthreads", ARG_INT, &nthreads, 1, 1024, "threads per block"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  long long nsize = (long long)nblocks * nthreads;
  if (nsize > (1LL << 28)) args_fail("nblocks * nthreads is over 2^28 elements");

  prac6_device(argc, argv);

  // call CUDA routine
  if (prac6(nblocks, nthreads) != 0) return result_fail("out of host memory");
  float *h_x = prac6_x();

  // check against the gold values: small integers in floats, so exactly equal
  float *h_gold = (float *)malloc((size_t)nsize * sizeof(float));
  if (h_gold == NULL) return result_fail("out of host memory");
  Gold_prac6(h_gold, nblocks, nthreads);
  gold_stats st;
  compare_float(h_x, h_gold, (size_t)nsize, 0.0, 0.0, &st);
  gold_report("x", &st);

  free(h_x);
  free(h_gold);
  return gold_verdict(&st, "x");
}
