/*
 * test_prac1.c -- CPU tests of prac1's gold routines (linked with every prac1 gold file).
 */
#include <stddef.h>
#include <string.h>

#include "test.h"
#include "../prac1/prac1_gold.h"


TEST(prac1_gold_is_thread_index) {
  float x[2 * 8];
  Gold_prac1(x, 2, 8);
  for (int n = 0; n < 16; n++) CHECK(x[n] == (float)(n % 8));
  float y[3 * 5];
  Gold_prac1(y, 3, 5);
  CHECK(y[0] == 0.0f && y[4] == 4.0f && y[5] == 0.0f && y[14] == 4.0f);
}

TEST(vector_add_hand_values) {
  float x[4] = {1.0f, -2.0f, 0.5f, 1e30f};
  float y[4] = {2.0f, 2.0f, 0.25f, 1e30f};
  float z[4] = {-1, -1, -1, -1};
  Gold_vector_add(x, y, z, 4);
  CHECK(z[0] == 3.0f && z[1] == 0.0f && z[2] == 0.75f && z[3] == 2e30f);
}

TEST(vector_add_rounds_like_one_float_add) {
  /* 1 + 2^-24 is not a float: the sum must round to 1, as the GPU's FADD does */
  float x[1] = {1.0f}, y[1] = {5.9604645e-08f}, z[1];
  Gold_vector_add(x, y, z, 1);
  CHECK(z[0] == 1.0f);
}

TEST(vector_add_length_zero_and_one) {
  float x[1] = {1.5f}, y[1] = {2.5f}, z[1] = {-1.0f};
  Gold_vector_add(x, y, z, 0);
  CHECK(z[0] == -1.0f); /* nothing written */
  Gold_vector_add(x, y, z, 1);
  CHECK(z[0] == 4.0f);
}

TEST(color_inversion_keeps_alpha) {
  unsigned char img[3 * 4] = {0, 255, 10, 200, 1, 2, 3, 4, 128, 127, 64, 0};
  unsigned char want[3 * 4] = {255, 0, 245, 200, 254, 253, 252, 4, 127, 128, 191, 0};
  Gold_color_inversion(img, 3, 1);
  CHECK(memcmp(img, want, sizeof(want)) == 0);
}

TEST(color_inversion_twice_is_identity) {
  unsigned char img[2 * 3 * 4], orig[2 * 3 * 4];
  for (int i = 0; i < 24; i++) img[i] = orig[i] = (unsigned char)(i * 37 + 11);
  Gold_color_inversion(img, 3, 2);
  CHECK(memcmp(img, orig, sizeof(img)) != 0);
  Gold_color_inversion(img, 3, 2);
  CHECK(memcmp(img, orig, sizeof(img)) == 0);
}

int main(void) {
  RUN(prac1_gold_is_thread_index);
  RUN(vector_add_hand_values);
  RUN(vector_add_rounds_like_one_float_add);
  RUN(vector_add_length_zero_and_one);
  RUN(color_inversion_keeps_alpha);
  RUN(color_inversion_twice_is_identity);
  return test_summary();
}
