# common/toolchain.mk -- where the CUDA toolkit is and which GPU to build for, worked out once: included by
# common/prac.mk (every practical) and by the top-level Makefile.

# ---- the toolkit: CUDA_HOME, else CUDA_PATH, else the directory nvcc lives in -------------------
ifneq ($(CUDA_HOME),)
  CUDA_ROOT := $(CUDA_HOME)
else ifneq ($(CUDA_PATH),)
  CUDA_ROOT := $(CUDA_PATH)
else
  CUDA_ROOT := $(patsubst %/bin/nvcc,%,$(shell command -v nvcc 2>/dev/null))
endif
ifeq ($(CUDA_ROOT),)
  CUDA_ROOT := /usr/local/cuda
endif
NVCC ?= $(CUDA_ROOT)/bin/nvcc
HOST_COMPILER ?= g++
CC := gcc

# ---- the target architecture --------------------------------------------------------------------
# nvidia-smi reports the compute capability as "9.0"; no GPU (or no nvidia-smi) means sm_90.
ifeq ($(origin ARCH),undefined)
  LOCAL_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -dc 0-9)
  ARCH := sm_$(if $(LOCAL_CC),$(LOCAL_CC),90)
endif
export ARCH
