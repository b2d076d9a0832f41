/*
 * test_common.c -- CPU tests of common/: the gold comparison, argument parsing, the median, and the rules
 * findCudaDevice and device_memory_check follow (gpu_policy.h), with the CUDA runtime's answers stubbed
 * as plain numbers.
 */
/* as a program does (common/args.h): -help prints it after the usage line; args_usage_course_steps checks */
#define COURSE_STEPS "practical 0, workbook step 1 (course step 2)"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "gpu_limits.h"
#include "gpu_policy.h"
#include "grid3d.h"
#include "helper_cuda.h" /* from gcc: only its plain C parts, which must compile here */
#include "test.h"
#include "timing.h"
#define TUNED_DIR "/tmp/workbook_tuned_test"
#include "tuned.h"

/* ---- gold_check.h ---- */

TEST(compare_identical_passes) {
  float a[5] = {1.0f, -2.5f, 0.0f, 3e-30f, 7.0f};
  gold_stats s;
  CHECK(compare_float(a, a, 5, 0.0, 0.0, &s) == 0);
  CHECK(s.nbad == 0 && s.first_bad == -1 && s.max_abs_err == 0.0 && s.rms_err == 0.0);
}

TEST(compare_tolerance_edges) {
  /* |gpu - gold| <= atol + rtol * |gold|; values chosen so that the edges are exact in binary:
   * exactly on the edge passes, one ulp past it fails */
  double gold[3] = {1.0, 100.0, -4.0};
  double on_edge[3] = {1.75, 125.5, -5.5}; /* atol 0.5 + rtol 0.25 * |gold| = 0.75, 25.5, 1.5 */
  double past_edge[3] = {nextafter(1.75, 2.0), nextafter(125.5, 200.0), nextafter(-5.5, -6.0)};
  gold_stats s;
  CHECK(compare_double(on_edge, gold, 3, 0.5, 0.25, &s) == 0);
  CHECK(compare_double(past_edge, gold, 3, 0.5, 0.25, &s) == 3);
  CHECK(s.first_bad == 0);
}

TEST(compare_exact_means_bitwise) {
  float gold[2] = {1.0f, 2.0f};
  float gpu[2] = {1.0f, nextafterf(2.0f, 3.0f)}; /* one ulp off */
  gold_stats s;
  CHECK(compare_float(gpu, gold, 2, 0.0, 0.0, &s) == 1);
  CHECK(s.first_bad == 1);
  CHECK(s.first_bad_gpu == (double)nextafterf(2.0f, 3.0f) && s.first_bad_gold == 2.0);
}

TEST(compare_nan_always_fails) {
  float gold[3] = {1.0f, 2.0f, 3.0f};
  float gpu[3] = {1.0f, NAN, 3.0f};
  gold_stats s;
  CHECK(compare_float(gpu, gold, 3, 1e30, 1e30, &s) == 1); /* no tolerance lets a NaN through */
  CHECK(s.nnonfinite == 1 && s.first_bad == 1);
  float both_nan[1] = {NAN};
  CHECK(compare_float(both_nan, both_nan, 1, 1.0, 1.0, &s) == 1); /* not even NaN against NaN */
}

TEST(compare_inf_always_fails) {
  float gold[2] = {INFINITY, 1.0f};
  float gpu[2] = {INFINITY, -INFINITY};
  gold_stats s;
  CHECK(compare_float(gpu, gold, 2, 1e30, 1e30, &s) == 2);
  CHECK(s.nnonfinite == 2);
}

TEST(compare_negative_zero_equals_zero) {
  float gold[2] = {0.0f, -0.0f};
  float gpu[2] = {-0.0f, 0.0f};
  gold_stats s;
  CHECK(compare_float(gpu, gold, 2, 0.0, 0.0, &s) == 0);
}

TEST(compare_first_bad_index_and_counts) {
  int gold[6] = {0, 1, 2, 3, 4, 5};
  int gpu[6] = {0, 1, 9, 3, 8, 5};
  gold_stats s;
  CHECK(compare_int(gpu, gold, 6, &s) == 2);
  CHECK(s.first_bad == 2 && s.first_bad_gpu == 9.0 && s.first_bad_gold == 2.0);
  CHECK(s.max_abs_err == 7.0);
  CHECK_NEAR(s.rms_err, sqrt((49.0 + 16.0) / 6.0), 1e-12);
}

TEST(compare_rel_err_skips_zero_gold) {
  double gold[2] = {0.0, 2.0};
  double gpu[2] = {1e-9, 2.2};
  gold_stats s;
  compare_double(gpu, gold, 2, 1.0, 0.0, &s);
  CHECK_NEAR(s.max_rel_err, 0.1, 1e-12);
  CHECK_NEAR(s.max_abs_err, 0.2, 1e-12);
}

TEST(compare_float_against_double_gold) {
  double gold[2] = {1.0 / 3.0, 2.0 / 3.0};
  float gpu[2] = {1.0f / 3.0f, 2.0f / 3.0f};
  gold_stats s;
  CHECK(compare_float_double(gpu, gold, 2, 0.0, 1e-7, &s) == 0); /* float rounding: < 6e-8 relative */
  CHECK(compare_float_double(gpu, gold, 2, 0.0, 1e-9, &s) == 2); /* but not to double precision */
}

TEST(compare_uchar_exact) {
  unsigned char gold[4] = {0, 255, 17, 128};
  unsigned char gpu[4] = {0, 255, 17, 127};
  gold_stats s;
  CHECK(compare_uchar(gpu, gold, 4, &s) == 1 && s.first_bad == 3);
}

TEST(compare_scalar_and_empty) {
  gold_stats s;
  CHECK(compare_scalar(0.4179, 0.4180, 0.0, 1e-3, &s) == 0);
  CHECK(compare_scalar(0.4179, 0.4180, 0.0, 1e-5, &s) == 1);
  CHECK(compare_scalar(NAN, 0.4180, 1.0, 1.0, &s) == 1);
  compare_float(NULL, NULL, 0, 0.0, 0.0, &s);
  CHECK(s.n == 0 && s.nbad == 0);
}

TEST(verdict_codes) {
  /* the exit codes make check relies on; the verdict lines themselves are sent to /dev/null */
  gold_stats s;
  float a[1] = {1.0f}, b[1] = {2.0f};
  int rc[4];
  fflush(stdout);
  FILE *saved = stdout;
  stdout = fopen("/dev/null", "w");
  compare_float(a, a, 1, 0.0, 0.0, &s);
  rc[0] = gold_verdict(&s, "t");
  compare_float(a, b, 1, 0.0, 0.0, &s);
  rc[1] = gold_verdict(&s, "t");
  compare_float(NULL, NULL, 0, 0.0, 0.0, &s);
  rc[2] = gold_verdict(&s, "t");
  rc[3] = result_skip("no GPU");
  fclose(stdout);
  stdout = saved;
  CHECK(rc[0] == 0);
  CHECK(rc[1] == 1);
  CHECK(rc[2] == 1); /* comparing nothing is not a pass */
  CHECK(rc[3] == 2);
}

/* ---- args.h ---- */

static int parse(int argc, const char **argv, const arg_spec *specs, int n, char *msg) {
  return args_parse(argc, (char **)argv, specs, n, msg, ARG_MSG_LEN);
}

TEST(args_defaults_and_values) {
  int n = 7, flag = 0;
  long long big = 1;
  double x = 0.5;
  arg_spec o[] = {{"n", ARG_INT, &n, 1, 100, ""},
                  {"big", ARG_LONG, &big, 1, 1e15, ""},
                  {"x", ARG_DOUBLE, &x, -1, 1, ""},
                  {"v", ARG_FLAG, &flag, 0, 1, ""}};
  char msg[ARG_MSG_LEN];
  const char *none[] = {"prog"};
  CHECK(parse(1, none, o, 4, msg) == ARGS_OK && n == 7 && big == 1 && x == 0.5 && flag == 0);
  const char *all[] = {"prog", "-n=100", "--big=123456789012", "-x=-0.25", "-v", "-device=3"};
  CHECK(parse(6, all, o, 4, msg) == ARGS_OK);
  CHECK(n == 100 && big == 123456789012LL && x == -0.25 && flag == 1);
  CHECK(args_device(6, (char **)all) == 3);
  const char *flag0[] = {"prog", "-v=0"};
  CHECK(parse(2, flag0, o, 4, msg) == ARGS_OK && flag == 0);
}

TEST(args_rejects_garbage) {
  int n = 7;
  double x = 0.0;
  arg_spec o[] = {{"n", ARG_INT, &n, 1, 100, ""}, {"x", ARG_DOUBLE, &x, -1, 1, ""}};
  char msg[ARG_MSG_LEN];
  const char *cases[][2] = {
      {"prog", "-n=abc"}, {"prog", "-n=12x"}, {"prog", "-n="},     {"prog", "-n"},        {"prog", "-n=1.5"},
      {"prog", "-x=nan"}, {"prog", "-x=inf"}, {"prog", "-x=0.5q"}, {"prog", "-m=3"},      {"prog", "n=3"},
      {"prog", "-"},      {"prog", "-nn=3"},  {"prog", "-device"}, {"prog", "-device=x"}, {"prog", "-n= 5"},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    int rc = parse(2, cases[c], o, 2, msg);
    if (rc != ARGS_BAD) printf("    accepted %s\n", cases[c][1]);
    CHECK(rc == ARGS_BAD);
    CHECK(strchr(msg, '\n') == NULL && strlen(msg) > 0); /* one line, and it says something */
  }
  CHECK(n == 7); /* nothing bad was stored */
}

TEST(args_rejects_negative_and_out_of_range) {
  int n = 7;
  arg_spec o[] = {{"n", ARG_INT, &n, 1, 1024, ""}};
  char msg[ARG_MSG_LEN];
  const char *neg[] = {"prog", "-n=-5"}, *zero[] = {"prog", "-n=0"}, *over[] = {"prog", "-n=1025"};
  CHECK(parse(2, neg, o, 1, msg) == ARGS_BAD && strstr(msg, "out of range") != NULL);
  CHECK(parse(2, zero, o, 1, msg) == ARGS_BAD);
  CHECK(parse(2, over, o, 1, msg) == ARGS_BAD);
  const char *edge[] = {"prog", "-n=1024"};
  CHECK(parse(2, edge, o, 1, msg) == ARGS_OK && n == 1024);
}

TEST(args_rejects_overflow) {
  int n = 7;
  long long big = 0;
  arg_spec o[] = {{"n", ARG_INT, &n, 1, 2147483647, ""}, {"big", ARG_LONG, &big, 0, 9e18, ""}};
  char msg[ARG_MSG_LEN];
  const char *c1[] = {"prog", "-n=2147483648"}, *c2[] = {"prog", "-n=99999999999999999999"},
             *c3[] = {"prog", "-big=99999999999999999999"}, *c4[] = {"prog", "-n=-2147483649"};
  CHECK(parse(2, c1, o, 2, msg) == ARGS_BAD);
  CHECK(parse(2, c2, o, 2, msg) == ARGS_BAD && strstr(msg, "too large") != NULL);
  CHECK(parse(2, c3, o, 2, msg) == ARGS_BAD);
  CHECK(parse(2, c4, o, 2, msg) == ARGS_BAD);
  CHECK(n == 7 && big == 0);
}

TEST(args_help) {
  int n = 7;
  arg_spec o[] = {{"n", ARG_INT, &n, 1, 100, ""}};
  char msg[ARG_MSG_LEN];
  const char *h1[] = {"prog", "-help"}, *h2[] = {"prog", "-h"}, *h3[] = {"prog", "--help"};
  CHECK(parse(2, h1, o, 1, msg) == ARGS_HELP);
  CHECK(parse(2, h2, o, 1, msg) == ARGS_HELP);
  CHECK(parse(2, h3, o, 1, msg) == ARGS_HELP);
}

TEST(args_usage_course_steps) {
  /* -help's first lines: usage, then the COURSE_STEPS this file defines, then the options */
  int n = 7;
  double x = 0.5;
  const char *plan = NULL;
  arg_spec o[] = {{"n", ARG_INT, &n, 1, 100, "a size"},
                  {"x", ARG_DOUBLE, &x, 0, 1, "a fraction"},
                  {"plan", ARG_WORD, &plan, 0, 0, "a plan"}};
  char lines[6][160] = {"", "", "", "", "", ""};
  FILE *out = tmpfile();
  CHECK(out != NULL);
  if (out == NULL) return;
  fflush(stdout);
  FILE *saved = stdout;
  stdout = out;
  args_usage("./prog", o, ARG_COUNT(o));
  fflush(stdout);
  stdout = saved;
  rewind(out);
  for (int i = 0; i < 6; i++)
    if (fgets(lines[i], sizeof(lines[i]), out) == NULL) break;
  fclose(out);
  CHECK(strcmp(lines[0], "usage: ./prog [options]\n") == 0);
  CHECK(strcmp(lines[1], COURSE_STEPS "\n") == 0);
  /* the placeholder names the kind of value, never a letter that could be an option's name (-N=N) */
  CHECK(strcmp(lines[2], "  -n=INT\ta size (default 7, 1 to 100)\n") == 0);
  CHECK(strcmp(lines[3], "  -x=NUM\ta fraction (default 0.5, 0 to 1)\n") == 0);
  CHECK(strcmp(lines[4], "  -plan=WORD\ta plan (no default)\n") == 0); /* not "(default (null))" */
  CHECK(strcmp(lines[5], "  -device=INT\tGPU to use (default 0)\n") == 0);
}

TEST(args_words) {
  const char *walk = "warp";
  arg_spec o[] = {{"walk", ARG_WORD, &walk, 0, 0, ""}};
  char msg[ARG_MSG_LEN];
  const char *none[] = {"prog"}, *lane[] = {"prog", "-walk=lane"}, *empty[] = {"prog", "-walk="},
             *bare[] = {"prog", "-walk"};
  CHECK(parse(1, none, o, 1, msg) == ARGS_OK && strcmp(walk, "warp") == 0);
  CHECK(parse(2, lane, o, 1, msg) == ARGS_OK && strcmp(walk, "lane") == 0); /* the program checks the word */
  walk = "warp";
  CHECK(parse(2, empty, o, 1, msg) == ARGS_BAD && strstr(msg, "needs a value") != NULL);
  CHECK(parse(2, bare, o, 1, msg) == ARGS_BAD && strchr(msg, '\n') == NULL);
  CHECK(strcmp(walk, "warp") == 0); /* nothing bad was stored */
}

/* ---- timing.h (host part) ---- */

TEST(median) {
  float odd[5] = {5, 1, 4, 2, 3}, even[4] = {4, 1, 3, 2}, one[1] = {7};
  CHECK(median_float(odd, 5) == 3.0f);
  CHECK(median_float(even, 4) == 2.5f);
  CHECK(median_float(one, 1) == 7.0f);
  float outlier[5] = {1.0f, 1.1f, 0.9f, 100.0f, 1.0f}; /* one slow run does not move the median */
  CHECK(median_float(outlier, 5) == 1.0f);
}

/* ---- gpu_policy.h: when is a missing GPU a SKIP, and when a FAIL ---- */

TEST(probe_no_driver_skips) {
  char msg[320];
  /* CI: cudaDriverGetVersion gives 0 (no driver) and cudaGetDeviceCount fails "insufficient driver" */
  CHECK(gpu_probe_verdict(0, 13000, 0, 0, "CUDA driver version is insufficient for CUDA runtime version", msg,
                          sizeof(msg)) == GPU_SKIP);
  CHECK(strncmp(msg, "no CUDA device", 14) == 0);
}

TEST(probe_old_driver_fails) {
  char msg[320];
  /* a driver for CUDA 12.4 under a CUDA 13.0 build: a broken setup, never a skip */
  CHECK(gpu_probe_verdict(12040, 13000, 0, 0, "CUDA driver version is insufficient for CUDA runtime version", msg,
                          sizeof(msg)) == GPU_FAIL);
  CHECK(strstr(msg, "12.4") != NULL && strstr(msg, "13.0") != NULL && strstr(msg, "driver") != NULL);
}

TEST(probe_other_errors_fail_and_no_gpu_skips) {
  char msg[320];
  CHECK(gpu_probe_verdict(13000, 13000, 0, 0, "initialization error", msg, sizeof(msg)) == GPU_FAIL);
  CHECK(strstr(msg, "initialization error") != NULL);
  CHECK(gpu_probe_verdict(13000, 13000, 1, 0, NULL, msg, sizeof(msg)) == GPU_SKIP); /* driver, but no GPU */
  CHECK(gpu_probe_verdict(13010, 13000, 1, 2, NULL, msg, sizeof(msg)) == GPU_OK);   /* newer driver: fine */
  CHECK(msg[0] == '\0');
}

TEST(require_gpu_turns_skip_into_fail) {
  unsetenv("REQUIRE_GPU");
  CHECK(result_skip("no CUDA device: test") == 2);
  setenv("REQUIRE_GPU", "0", 1);
  CHECK(result_skip("no CUDA device: test") == 2);
  setenv("REQUIRE_GPU", "1", 1);
  CHECK(result_skip("no CUDA device: test") == 1);
  unsetenv("REQUIRE_GPU");
}

TEST(memory_cap_from_environment) {
  unsetenv("WORKBOOK_DEVICE_MEM_MIB");
  CHECK(gpu_memory_cap_bytes() == 0);
  setenv("WORKBOOK_DEVICE_MEM_MIB", "6144", 1);
  CHECK(gpu_memory_cap_bytes() == (size_t)6144 << 20);
  setenv("WORKBOOK_DEVICE_MEM_MIB", "6G", 1); /* not a number: no cap, rather than a wrong one */
  CHECK(gpu_memory_cap_bytes() == 0);
  setenv("WORKBOOK_DEVICE_MEM_MIB", "-5", 1);
  CHECK(gpu_memory_cap_bytes() == 0);
  unsetenv("WORKBOOK_DEVICE_MEM_MIB");
  size_t gib = (size_t)1 << 30;
  CHECK(gpu_usable_bytes(80 * gib, 0) == 80 * gib);      /* no cap */
  CHECK(gpu_usable_bytes(80 * gib, 6 * gib) == 6 * gib); /* a big GPU acting as a 6 GB one */
  CHECK(gpu_usable_bytes(4 * gib, 6 * gib) == 4 * gib);  /* the cap never adds memory */
}

TEST(memory_verdicts) {
  char msg[320];
  size_t gib = (size_t)1 << 30;
  CHECK(gpu_memory_verdict(2 * gib, 6 * gib, 0, "u1 and u2", msg, sizeof(msg)) == GPU_OK);
  CHECK(gpu_memory_verdict(2 * gib, 6 * gib, 1, "u1 and u2", msg, sizeof(msg)) == GPU_OK);
  CHECK(gpu_memory_verdict(6 * gib, 6 * gib, 1, "u1 and u2", msg, sizeof(msg)) == GPU_OK); /* exactly fits */
  /* the program's default size on a small GPU: a SKIP saying what to do */
  CHECK(gpu_memory_verdict(8 * gib, 6 * gib, 0, "u1 and u2", msg, sizeof(msg)) == GPU_SKIP);
  CHECK(strstr(msg, "default size") != NULL && strstr(msg, "u1 and u2") != NULL);
  /* a size the user typed: bad input */
  CHECK(gpu_memory_verdict(8 * gib, 6 * gib, 1, "u1 and u2", msg, sizeof(msg)) == GPU_FAIL);
  CHECK(strncmp(msg, "bad input: ", 11) == 0);
}

TEST(memory_verdicts_for_runs_lines) {
  /* a size from a runs file (WORKBOOK_RUNS_LINE) that this GPU cannot hold: a SKIP naming the GPU, not bad input */
  char msg[320];
  size_t gib = (size_t)1 << 30;
  setenv("WORKBOOK_RUNS_LINE", "1", 1);
  CHECK(gpu_sized_by_runs());
  CHECK(gpu_memory_verdict(8 * gib, 6 * gib, 1, "u1 and u2", msg, sizeof(msg)) == GPU_SKIP);
  CHECK(strstr(msg, "too small for this run") != NULL);
  CHECK(gpu_memory_verdict(2 * gib, 6 * gib, 1, "u1 and u2", msg, sizeof(msg)) == GPU_OK);
  setenv("WORKBOOK_RUNS_LINE", "0", 1);
  CHECK(!gpu_sized_by_runs());
  CHECK(gpu_memory_verdict(8 * gib, 6 * gib, 1, "u1 and u2", msg, sizeof(msg)) == GPU_FAIL);
  unsetenv("WORKBOOK_RUNS_LINE");
}

TEST(gpu_profiles_known_and_unknown) {
  const gpu_limits *p;
  char msg[320];
  unsetenv("WORKBOOK_GPU_PROFILE");
  CHECK(gpu_profile_from_env(&p, msg, sizeof(msg)) == 0 && p == NULL);
  setenv("WORKBOOK_GPU_PROFILE", "t4", 1);
  CHECK(gpu_profile_from_env(&p, msg, sizeof(msg)) == 0 && p != NULL && p->cc == 75 && p->sms == 40);
  setenv("WORKBOOK_GPU_PROFILE", "T4x", 1); /* a typo must not quietly test the real GPU */
  CHECK(gpu_profile_from_env(&p, msg, sizeof(msg)) == -1 && p == NULL);
  CHECK(strncmp(msg, "bad input: ", 11) == 0 && strstr(msg, "rtx3060") != NULL && strstr(msg, "l4") != NULL);
  unsetenv("WORKBOOK_GPU_PROFILE");
  /* every profile: the table's numbers within what NVIDIA's tables allow for its compute capability */
  for (int i = 0; i < GPU_PROFILE_COUNT; i++) {
    const gpu_limits *g = &gpu_profiles[i];
    CHECK(gpu_profile_find(g->profile) == g);
    CHECK(g->cc >= 75 && g->cc <= 90 && g->sms > 0 && g->regs_sm == 65536 && g->smem_block == 49152);
    CHECK(g->smem_block_optin <= g->smem_sm && g->smem_block <= g->smem_block_optin);
    CHECK(g->smem_reserved == (g->cc >= 80 ? 1024 : 0));
    CHECK(g->threads_sm == (g->cc == 75 ? 1024 : g->cc == 80 ? 2048 : 1536));
    CHECK(g->mem_bytes >= ((size_t)8 << 30) - ((size_t)64 << 20)); /* the smallest, an 8 GB RTX 4060 */
  }
  CHECK(gpu_profile_find("h100") == NULL);
}

TEST(gpu_profile_lowers_never_raises) {
  gpu_limits h100 = {
      "NVIDIA H100 80GB HBM3", NULL, 90, 132, 49152, 232448, 233472, 1024, 65536, 65536, 2048, 32, 50 << 20,
      (size_t)80 << 30};
  gpu_limits g = gpu_limits_apply(&h100, gpu_profile_find("t4"));
  CHECK(g.cc == 75 && g.sms == 40 && g.smem_sm == 65536 && g.smem_block_optin == 65536 && g.threads_sm == 1024);
  CHECK(g.l2_bytes == 4 << 20 && g.mem_bytes == (size_t)15360 << 20 && strcmp(g.profile, "t4") == 0);
  CHECK(g.smem_reserved == 0); /* a T4 keeps no shared memory a block for the system */
  gpu_limits small = h100;
  small.sms = 20, small.l2_bytes = 1 << 20; /* a profile never promises more than the real GPU has */
  g = gpu_limits_apply(&small, gpu_profile_find("a100"));
  CHECK(g.sms == 20 && g.l2_bytes == 1 << 20 && g.smem_sm == 167936);
  g = gpu_limits_apply(&h100, NULL);
  CHECK(g.profile == NULL && g.sms == 132);
}

TEST(gpu_blocks_per_sm_by_each_limit) {
  const gpu_limits *t4 = gpu_profile_find("t4"), *a100 = gpu_profile_find("a100");
  CHECK(gpu_blocks_per_sm(t4, 256, 32, 0) == 4);       /* threads: 1024 / 256 */
  CHECK(gpu_blocks_per_sm(a100, 256, 32, 0) == 8);     /* threads: 2048 / 256 */
  CHECK(gpu_blocks_per_sm(t4, 256, 128, 0) == 2);      /* registers: 65536 / (128 x 256) */
  CHECK(gpu_blocks_per_sm(t4, 128, 32, 40000) == 1);   /* shared memory: 64 KiB holds one 40 KB block */
  CHECK(gpu_blocks_per_sm(a100, 128, 32, 40000) == 4); /* 164 KiB, 1 KiB reserved a block: 4 x 41 KB */
  CHECK(gpu_blocks_per_sm(t4, 32, 16, 0) == 16);       /* the 16-block limit */
  CHECK(gpu_blocks_per_sm(t4, 1024, 65, 0) == 0);      /* 65 registers x 1024 threads: does not fit at all */
  CHECK(gpu_blocks_per_sm(t4, 0, 32, 0) == 0);
}

TEST(args_given_sees_typed_options) {
  char a0[] = "prog", a1[] = "-nx=64", a2[] = "--ny", a3[] = "-nxx=3";
  char *argv[] = {a0, a1, a2, a3};
  CHECK(args_given(4, argv, "nx"));
  CHECK(args_given(4, argv, "ny"));
  CHECK(!args_given(4, argv, "nz"));
  CHECK(!args_given(1, argv, "nx"));
  char *argv2[] = {a0, a3};
  CHECK(!args_given(2, argv2, "nx")); /* -nxx is another option */
}

TEST(grid3d_init_boundary_and_interior) {
  enum { NX = 5, NY = 4, NZ = 3 };
  float u[NX * NY * NZ];
  grid3d_init(u, NX, NY, NZ, 0);
  CHECK(u[0] == 1.0f && u[NX * NY * NZ - 1] == 1.0f);
  CHECK(u[1 + NX * 1 + NX * NY * 1] == 0.0f); /* inside, the course's 0 */
  grid3d_init(u, NX, NY, NZ, 7);
  int inside_random = 1, boundary_one = 1;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        float v = u[i + NX * j + NX * NY * k];
        int edge = i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1;
        if (edge && v != 1.0f) boundary_one = 0;
        if (!edge && !(v >= 0.0f && v < 1.0f && v != 0.0f)) inside_random = 0;
      }
  CHECK(boundary_one);
  CHECK(inside_random);
}

/* tuned.h: the GPU's table name, the nearest size class on a log scale, the settings applied where the user
 * gave none and checked as typed flags, and a malformed line refused */
TEST(tuned_tables) {
  char key[128];
  tuned_gpu_key("NVIDIA H100 80GB HBM3", key, sizeof(key));
  CHECK(!strcmp(key, "h100"));
  tuned_gpu_key("NVIDIA GeForce RTX 3060 Laptop GPU", key, sizeof(key));
  CHECK(!strcmp(key, "nvidia-geforce-rtx-3060-laptop-gpu"));
  tuned_gpu_key("Tesla T4", key, sizeof(key));
  CHECK(!strcmp(key, "tesla-t4"));
  CHECK(system("mkdir -p " TUNED_DIR) == 0);
  FILE *f = fopen(TUNED_DIR "/tesla-t4.txt", "w");
  CHECK(f != NULL);
  fprintf(f, "# a comment\nlaplace3d_tb 384: -T=2 -by=32 -kchunk=64\nlaplace3d_tb 1024: -T=4 -by=64 -kchunk=256\n"
             "laplace3d_tb_other 512: -T=9\nsoftmax_rows 1024: -method=warp -pinned\n");
  fclose(f);
  tuned_pick pick;
  char msg[ARG_MSG_LEN];
  CHECK(tuned_read(TUNED_DIR "/tesla-t4.txt", "laplace3d_tb", 512, &pick, msg, sizeof(msg)) == 0 && pick.found);
  CHECK(pick.size == 384 && !strcmp(pick.settings, "-T=2 -by=32 -kchunk=64")); /* 512/384 < 1024/512 */
  CHECK(tuned_read(TUNED_DIR "/tesla-t4.txt", "laplace3d_tb", 700, &pick, msg, sizeof(msg)) == 0 && pick.size == 1024);
  CHECK(tuned_read(TUNED_DIR "/tesla-t4.txt", "laplace3d", 512, &pick, msg, sizeof(msg)) == 0 && !pick.found);
  CHECK(tuned_read(TUNED_DIR "/none.txt", "laplace3d_tb", 512, &pick, msg, sizeof(msg)) == 0 && !pick.found);
  int T = 3, by = 48, kchunk = 128, pinned = 0;
  const char *method = "auto";
  arg_spec specs[] = {{"T", ARG_INT, &T, 1, 8, ""},
                      {"by", ARG_INT, &by, 16, 64, ""},
                      {"kchunk", ARG_INT, &kchunk, 1, 4096, ""},
                      {"method", ARG_WORD, &method, 0, 0, ""},
                      {"pinned", ARG_FLAG, &pinned, 0, 1, ""}};
  char a0[] = "prog", a1[] = "-by=16";
  char *argv[] = {a0, a1};
  CHECK(tuned_apply_settings("-T=2 -by=32 -kchunk=64", 2, argv, specs, 5, msg, sizeof(msg)) == 1);
  CHECK(T == 3 && by == 48 && kchunk == 128 && !strcmp(msg, "-by")); /* -by typed: none of the line is used */
  CHECK(tuned_apply_settings("-T=2 -kchunk=64", 2, argv, specs, 5, msg, sizeof(msg)) == 0);
  CHECK(T == 2 && by == 48 && kchunk == 64); /* a line that sets no typed flag: all of it */
  CHECK(tuned_apply_settings("-method=warp -pinned", 1, argv, specs, 5, msg, sizeof(msg)) == 0);
  CHECK(!strcmp(method, "warp") && pinned == 1);
  CHECK(tuned_apply_settings("-T=9", 1, argv, specs, 5, msg, sizeof(msg)) == -1 && strstr(msg, "out of range"));
  CHECK(tuned_apply_settings("-nope=1", 1, argv, specs, 5, msg, sizeof(msg)) == -1 && strstr(msg, "not an option"));
  CHECK(tuned_apply_settings("T=1", 1, argv, specs, 5, msg, sizeof(msg)) == -1);
  f = fopen(TUNED_DIR "/tesla-t4.txt", "a");
  fprintf(f, "laplace3d_tb big: -T=1\n");
  fclose(f);
  CHECK(tuned_read(TUNED_DIR "/tesla-t4.txt", "laplace3d_tb", 512, &pick, msg, sizeof(msg)) == -1 &&
        strstr(msg, ":6:"));
  CHECK(system("rm -rf " TUNED_DIR) == 0);
}

/* tuned_settings' line: the class printed whole (%.0f, not %g's 1.67772e+07), a typed flag of the line naming
 * it, and an exercise build (TUNED_READS_TABLE 0, -DEXERCISE) reading no table even where one exists */
static int tuned_line(int read_table, char *argv[], int argc, const arg_spec *specs, int nspecs, char *line,
                      size_t len) {
  FILE *out = tmpfile();
  if (out == NULL) return -2;
  int rc = tuned_settings_to(out, read_table, "Tesla T4", "reduction_ladder", 16000000.0, argc, argv, specs, nspecs);
  rewind(out);
  if (fgets(line, (int)len, out) == NULL) line[0] = '\0';
  fclose(out);
  return rc;
}

TEST(tuned_settings_line) {
  CHECK(TUNED_READS_TABLE == 1); /* this file is built without -DEXERCISE */
  CHECK(system("mkdir -p " TUNED_DIR) == 0);
  FILE *f = fopen(TUNED_DIR "/tesla-t4.txt", "w");
  CHECK(f != NULL);
  if (f == NULL) return;
  fprintf(f, "reduction_ladder 1048576: -threads=256 -unroll=4\nreduction_ladder 16777216: -threads=512 -unroll=8\n");
  fclose(f);
  int threads = 1024, unroll = 2;
  arg_spec specs[] = {{"threads", ARG_INT, &threads, 1, 1024, ""}, {"unroll", ARG_INT, &unroll, 1, 8, ""}};
  char a0[] = "prog", a1[] = "-unroll=1", line[256];
  char *argv[] = {a0, a1};
  CHECK(tuned_line(1, argv, 1, specs, 2, line, sizeof(line)) == 1 && threads == 512 && unroll == 8);
  CHECK(!strcmp(line, "settings: tuned for Tesla T4 at size 16777216 (tuned/tesla-t4.txt)\n"));
  threads = 1024, unroll = 2;
  CHECK(tuned_line(1, argv, 2, specs, 2, line, sizeof(line)) == 0 && threads == 1024 && unroll == 2);
  CHECK(!strcmp(line, "settings: as typed (tuned/tesla-t4.txt's line for size 16777216 not used: "
                      "it sets -unroll too)\n"));
  CHECK(tuned_line(0, argv, 1, specs, 2, line, sizeof(line)) == 0 && threads == 1024 && unroll == 2);
  CHECK(!strcmp(line, "settings: untuned defaults (an exercise build reads no table)\n"));
  CHECK(system("rm -rf " TUNED_DIR) == 0);
  CHECK(tuned_line(1, argv, 1, specs, 2, line, sizeof(line)) == 0 && threads == 1024 && unroll == 2);
  CHECK(!strcmp(line, "settings: untuned defaults for this GPU (make tune writes them)\n"));
  CHECK(tuned_line(1, argv, 2, specs, 2, line, sizeof(line)) == 0 && threads == 1024 && unroll == 2);
  CHECK(!strcmp(line, "settings: untuned defaults for this GPU, flags as typed (make tune writes a table)\n"));
}

int main(void) {
  RUN(compare_identical_passes);
  RUN(tuned_tables);
  RUN(tuned_settings_line);
  RUN(compare_tolerance_edges);
  RUN(compare_exact_means_bitwise);
  RUN(compare_nan_always_fails);
  RUN(compare_inf_always_fails);
  RUN(compare_negative_zero_equals_zero);
  RUN(compare_first_bad_index_and_counts);
  RUN(compare_rel_err_skips_zero_gold);
  RUN(compare_float_against_double_gold);
  RUN(compare_uchar_exact);
  RUN(compare_scalar_and_empty);
  RUN(verdict_codes);
  RUN(args_defaults_and_values);
  RUN(args_rejects_garbage);
  RUN(args_rejects_negative_and_out_of_range);
  RUN(args_rejects_overflow);
  RUN(args_help);
  RUN(args_usage_course_steps);
  RUN(args_words);
  RUN(median);
  RUN(probe_no_driver_skips);
  RUN(probe_old_driver_fails);
  RUN(probe_other_errors_fail_and_no_gpu_skips);
  RUN(require_gpu_turns_skip_into_fail);
  RUN(memory_cap_from_environment);
  RUN(memory_verdicts);
  RUN(memory_verdicts_for_runs_lines);
  RUN(gpu_profiles_known_and_unknown);
  RUN(gpu_profile_lowers_never_raises);
  RUN(gpu_blocks_per_sm_by_each_limit);
  RUN(args_given_sees_typed_options);
  RUN(grid3d_init_boundary_and_interior);
  return test_summary();
}
