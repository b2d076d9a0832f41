/*
 * gemm_shapes.h -- the shapes both GEMM ladders' -shapes run: M x N x K, C is M x N, the inner length K. Squares;
 * M, N or K small (256) with the others large; long inner lengths with few outputs (split-K's case); odd sizes that
 * no tile divides; sgemm_ladder's default (1000 x 999 x 1001). sgemm_ladder's step 8 exercise is checked at these
 * shapes too (sgemm/k8_plan.cuh), and practical 10 tunes kernel 8's model by them.
 */
#ifndef GEMM_SHAPES_H
#define GEMM_SHAPES_H

static const int shape_table[][3] = {
    {256, 256, 256},    {512, 512, 512},    {1000, 999, 1001},  {1024, 1024, 1024}, {1536, 1536, 1536},
    {2048, 2048, 2048}, {2500, 2500, 2500}, {4096, 4096, 4096}, {8192, 8192, 8192}, {3000, 7000, 5000},
    {4097, 4093, 4095}, {777, 1555, 3333},  {1999, 2999, 999},  {6000, 3000, 1000}, {256, 8192, 8192},
    {8192, 256, 8192},  {8192, 8192, 256},  {4096, 4096, 256},  {8192, 1024, 1024}, {1024, 8192, 1024},
    {8192, 256, 512},   {256, 256, 8192},   {512, 512, 8192},   {1024, 1024, 8192}, {2048, 2048, 8192},
    {300, 300, 7000},   {1000, 1000, 4000}, {256, 8192, 1024},
};
#define NSHAPES ((int)(sizeof(shape_table) / sizeof(shape_table[0])))

#endif /* GEMM_SHAPES_H */
