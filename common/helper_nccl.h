/*
 * helper_nccl.h -- NCCL's status names for checkCudaErrors (helper_cuda.h). Include it in a program that
 * calls NCCL, and only there: the library's header and libnccl are needed only where it is used.
 *
 *   checkCudaErrors(ncclGroupEnd());   // ncclResult_t: a failure names its code
 *
 * NCCL_DEBUG=WARN (or INFO) in the environment makes NCCL itself say more about why a call failed.
 */
#ifndef HELPER_NCCL_H
#define HELPER_NCCL_H

#include <nccl.h>

#include "helper_cuda.h"

static inline const char *cudaStatusName(ncclResult_t s) {
  switch (s) {
  case ncclSuccess:
    return "ncclSuccess";
  case ncclUnhandledCudaError:
    return "ncclUnhandledCudaError";
  case ncclSystemError:
    return "ncclSystemError";
  case ncclInternalError:
    return "ncclInternalError";
  case ncclInvalidArgument:
    return "ncclInvalidArgument";
  case ncclInvalidUsage:
    return "ncclInvalidUsage";
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0) /* older NCCL (in /usr/include or NCCL_HOME) lacks these */
  case ncclRemoteError:
    return "ncclRemoteError";
  case ncclInProgress:
    return "ncclInProgress";
#endif
  default:
    break;
  }
  return "unknown ncclResult_t";
}

#endif /* HELPER_NCCL_H */
