/*
 * color_inversion.cu -- the harness for LeetGPU's "Color Inversion" (practical 1, step 8).
 *
 * LeetGPU asks for  extern "C" void solve(unsigned char *image, int width, int height): invert R, G
 * and B of every RGBA pixel in place on the device, keeping A. This harness makes a random image,
 * calls solve(), checks every byte against the CPU, and with -bench times solve() against a
 * device-to-device copy of the same number of bytes. Linked with one answer to make each program:
 *   color_inversion       = color_inversion.cu + color_inversion_solve.cu        (byte by byte)
 *   color_inversion_vec4  = color_inversion.cu + color_inversion_vec4_solve.cu   (16 bytes at a time)
 * -offset=N places the image N bytes past an aligned address.
 */
#define COURSE_STEPS "practical 1, workbook step 8 (beyond the course: LeetGPU's Color Inversion)"
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac1_gold.h"

extern "C" void solve(unsigned char *image, int width, int height);
extern "C" const char solve_name[];

typedef struct {
  unsigned char *image;
  int width, height;
  long long runs; // how many times the timed loop inverted the image in place
} solve_args;

static void run_solve(void *p) {
  solve_args *a = (solve_args *)p;
  solve(a->image, a->width, a->height);
  a->runs++;
}

int main(int argc, char **argv) {
  int width = 1001, height = 999, offset = 0, seed = 1, bench = 0, reps = 20;
  arg_spec opts[] = {
      {"width", ARG_INT, &width, 1, 16384, "image width in pixels"},
      {"height", ARG_INT, &height, 1, 16384, "image height in pixels"},
      {"offset", ARG_INT, &offset, 0, 15, "place the image this many bytes past an aligned address"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the random image"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time solve() and a device-to-device copy, print BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is reported)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  int dev = findCudaDevice(argc, argv);
  size_t bytes = (size_t)width * (size_t)height * 4;
  device_memory_check(bytes + 16, "the image", args_given(argc, argv, "width") || args_given(argc, argv, "height"));

  // a random image: every byte value, alpha included, appears
  unsigned char *h_image = (unsigned char *)malloc(bytes);
  unsigned char *h_result = (unsigned char *)malloc(bytes);
  if (!h_image || !h_result) return result_fail("out of host memory");
  unsigned int state = (unsigned int)seed;
  for (size_t i = 0; i < bytes; i++) {
    state = state * 1664525u + 1013904223u;
    h_image[i] = (unsigned char)(state >> 24);
  }

  // copy the image to the device, `offset` bytes into the allocation
  unsigned char *d_alloc;
  checkCudaErrors(cudaMalloc((void **)&d_alloc, bytes + 16));
  unsigned char *d_image = d_alloc + offset;
  checkCudaErrors(cudaMemcpy(d_image, h_image, bytes, cudaMemcpyHostToDevice));

  // the answer under test, in place
  solve(d_image, width, height);
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaMemcpy(h_result, d_image, bytes, cudaMemcpyDeviceToHost));
  printf("%s: %d x %d pixels, offset = %d bytes\n", solve_name, width, height, offset);

  // integer arithmetic: every byte must match exactly
  Gold_color_inversion(h_image, width, height);
  gold_stats st;
  compare_uchar(h_result, h_image, bytes, &st);
  gold_report("image bytes", &st);

  if (bench && st.nbad == 0) {
    // minimum traffic: read the image once and write it once (the A bytes share their 32-byte memory
    // sectors with R, G and B, so they travel too)
    double moved = 2.0 * (double)bytes;
    solve_args a = {d_image, width, height, 0};
    bench_ref ref = bench_reference(dev, moved, reps);
    char size[32], extra[32];
    snprintf(size, sizeof(size), "%dx%d", width, height);
    snprintf(extra, sizeof(extra), "offset=%d", offset);
    bench_report(&ref, "1", solve_name, size, run_solve, &a, reps, moved, extra);
    // the timed runs inverted the image in place a.runs more times: after an even number it is still the gold,
    // after an odd number the original again (inverting twice is the identity); every byte must say so
    checkCudaErrors(cudaMemcpy(h_result, d_image, bytes, cudaMemcpyDeviceToHost));
    if (a.runs % 2) Gold_color_inversion(h_image, width, height);
    compare_uchar(h_result, h_image, bytes, &st);
    gold_report("image bytes after the timed runs", &st);
  }

  checkCudaErrors(cudaFree(d_alloc));
  free(h_image);
  free(h_result);

  return gold_verdict(&st, "image bytes");
}
