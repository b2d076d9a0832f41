/*
 * helper_cusparse.h -- cuSPARSE's status names for checkCudaErrors (helper_cuda.h). Include it in a program that
 * calls cuSPARSE, and only there: the library's headers cost compile time, and a program that does not use
 * the library should not depend on them.
 *
 *   checkCudaErrors(call());   // cusparseStatus_t: a failure names its code
 */
#ifndef HELPER_CUSPARSE_H
#define HELPER_CUSPARSE_H

#include <cusparse.h>

#include "helper_cuda.h"

static inline const char *cudaStatusName(cusparseStatus_t s) {
  switch (s) {
  case CUSPARSE_STATUS_SUCCESS:
    return "CUSPARSE_STATUS_SUCCESS";
  case CUSPARSE_STATUS_NOT_INITIALIZED:
    return "CUSPARSE_STATUS_NOT_INITIALIZED";
  case CUSPARSE_STATUS_ALLOC_FAILED:
    return "CUSPARSE_STATUS_ALLOC_FAILED";
  case CUSPARSE_STATUS_INVALID_VALUE:
    return "CUSPARSE_STATUS_INVALID_VALUE";
  case CUSPARSE_STATUS_ARCH_MISMATCH:
    return "CUSPARSE_STATUS_ARCH_MISMATCH";
  case CUSPARSE_STATUS_MAPPING_ERROR:
    return "CUSPARSE_STATUS_MAPPING_ERROR";
  case CUSPARSE_STATUS_EXECUTION_FAILED:
    return "CUSPARSE_STATUS_EXECUTION_FAILED";
  case CUSPARSE_STATUS_INTERNAL_ERROR:
    return "CUSPARSE_STATUS_INTERNAL_ERROR";
  case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
    return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
  case CUSPARSE_STATUS_ZERO_PIVOT:
    return "CUSPARSE_STATUS_ZERO_PIVOT";
  case CUSPARSE_STATUS_NOT_SUPPORTED:
    return "CUSPARSE_STATUS_NOT_SUPPORTED";
  case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES:
    return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  }
  return "unknown cusparseStatus_t";
}

#endif /* HELPER_CUSPARSE_H */
