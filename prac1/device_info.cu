/*
 * device_info.cu -- practical 1, step 0: what GPU is this? (a deviceQuery of our own)
 *
 * Prints the numbers the rest of the workbook reasons with: compute capability, SMs, L2, shared
 * memory per SM and per block, registers, and the peak memory bandwidth computed from the memory
 * clock and bus width. Every later practical compares its GB/s with the device-to-device copy it
 * measures itself; this peak is the datasheet-style upper bound that the copy never quite reaches.
 * The verdict checks that the device answers and is one CUDA 13 supports.
 */
#define COURSE_STEPS "practical 1, workbook step 0 (beyond the course)"
#include <stdio.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

static int attribute(enum cudaDeviceAttr attr, int dev) {
  int value = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&value, attr, dev));
  return value;
}

int main(int argc, char **argv) {
  args_parse_or_exit(argc, argv, NULL, 0);
  int dev = findCudaDevice(argc, argv);

  int driver = 0, runtime = 0, count = 0;
  checkCudaErrors(cudaDriverGetVersion(&driver));
  checkCudaErrors(cudaRuntimeGetVersion(&runtime));
  checkCudaErrors(cudaGetDeviceCount(&count));

  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  int sms = prop.multiProcessorCount;
  int clock_kHz = attribute(cudaDevAttrClockRate, dev);
  int mem_clock_kHz = attribute(cudaDevAttrMemoryClockRate, dev);
  int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, dev);

  printf("CUDA driver %d.%d, runtime %d.%d, %d GPU%s\n", driver / 1000, (driver % 1000) / 10, runtime / 1000,
         (runtime % 1000) / 10, count, count == 1 ? "" : "s");
  printf("device %d: %s\n", dev, prop.name);
  printf("  compute capability           %d.%d\n", prop.major, prop.minor);
  printf("  multiprocessors (SMs)        %d\n", sms);
  printf("  SM clock                     %.0f MHz\n", clock_kHz / 1e3);
  printf("  global memory                %.1f GiB\n", (double)prop.totalGlobalMem / (1 << 30));
  printf("  memory clock, bus width      %.0f MHz, %d bits\n", mem_clock_kHz / 1e3, bus_bits);
  printf("  peak memory bandwidth        %.0f GB/s (2 x clock x bus width)\n", peak_bandwidth_GBps(dev));
  printf("  L2 cache                     %.1f MiB\n", attribute(cudaDevAttrL2CacheSize, dev) / 1048576.0);
  printf("  shared memory per SM         %d KiB\n", attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) / 1024);
  printf("  shared memory per block      %d KiB (%d KiB with cudaFuncSetAttribute opt-in)\n",
         (int)(prop.sharedMemPerBlock / 1024), attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) / 1024);
  printf("  32-bit registers per SM      %d\n", attribute(cudaDevAttrMaxRegistersPerMultiprocessor, dev));
  printf("  32-bit registers per block   %d\n", prop.regsPerBlock);
  printf("  warp size                    %d\n", prop.warpSize);
  printf("  max threads per block        %d\n", prop.maxThreadsPerBlock);
  printf("  max threads per SM           %d\n", attribute(cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  printf("  max block dimensions         %d x %d x %d\n", prop.maxThreadsDim[0], prop.maxThreadsDim[1],
         prop.maxThreadsDim[2]);
  printf("  max grid dimensions          %d x %d x %d\n", prop.maxGridSize[0], prop.maxGridSize[1],
         prop.maxGridSize[2]);
  printf("  managed memory               %s\n", !prop.managedMemory             ? "no"
                                                : prop.concurrentManagedAccess ? "yes, and the CPU may use it while a kernel runs"
                                                                               : "yes, but the CPU must wait for kernels to end");
  printf("  a launch's time limit        %s\n", attribute(cudaDevAttrKernelExecTimeout, dev) ? "about 2 s (a display watchdog)" : "none");
  printf("  ECC                          %s\n", prop.ECCEnabled ? "on" : "off");

  // the facts later practicals rely on
  if (prop.major * 10 + prop.minor < 75) return result_fail("compute capability below 7.5");
  if (prop.warpSize != 32) return result_fail("warp size %d, not 32", prop.warpSize);
  if (prop.maxThreadsPerBlock < 1024) return result_fail("max threads per block %d", prop.maxThreadsPerBlock);
  if (sms < 1 || mem_clock_kHz <= 0 || bus_bits <= 0) return result_fail("device attributes missing");
  return result_pass();
}
