# common/optional.mk -- the libraries the CUDA toolkit does not bring, found where they are, for the programs
# that need them (prac3's laplace3d_mgpu). A practical includes it and then puts a program in PROGS, or in
# MISSING with the WHY line below (common/prac.mk), so that a missing library never stops a build.
#   HAVE_NCCL = 1 with NCCL_INC (the folder of nccl.h) and NCCL_LDFLAGS, else NCCL_WHY
#   HAVE_MPI = 1 with MPI_CFLAGS and MPI_LDFLAGS (mpicc's own), else MPI_WHY
include $(dir $(lastword $(MAKEFILE_LIST)))toolchain.mk

# NCCL: NCCL_HOME, else the toolkit (include/, lib/ or lib64/), else /usr (NCCL_DIRS lists where to look).
# libnccl.so.2 alone is what NVIDIA's pip wheel (nvidia-nccl-cu13) installs: the library is linked by its path.
NCCL_DIRS ?= $(NCCL_HOME) $(CUDA_ROOT) /usr
NCCL_H := $(firstword $(foreach d,$(NCCL_DIRS),$(wildcard $(d)/include/nccl.h)))
NCCL_LIB := $(firstword $(foreach d,$(NCCL_DIRS),$(foreach f,libnccl.so libnccl.so.2,$(wildcard $(d)/lib/$(f) \
              $(d)/lib64/$(f) $(d)/lib/x86_64-linux-gnu/$(f)))))
ifneq ($(and $(NCCL_H),$(NCCL_LIB)),)
  HAVE_NCCL := 1
  NCCL_INC := $(dir $(NCCL_H))
  NCCL_LDFLAGS := -Xlinker $(NCCL_LIB) -Xlinker -rpath,$(patsubst %/,%,$(dir $(NCCL_LIB)))
else
  NCCL_WHY := NCCL not found (nccl.h and libnccl.so under NCCL_HOME, the CUDA toolkit or /usr); install it (the \
    libnccl-dev package, or pip install nvidia-nccl-cu13 and set NCCL_HOME to its nvidia/nccl folder) to build \
    the multi-GPU step
endif

# MPI: mpicc's include and link flags (Open MPI's -showme, else MPICH's -show)
comma := ,
MPICC := $(shell command -v mpicc 2>/dev/null)
ifneq ($(MPICC),)
  HAVE_MPI := 1
  MPI_SHOW := $(shell $(MPICC) -showme 2>/dev/null || $(MPICC) -show 2>/dev/null)
  MPI_CFLAGS := $(filter -I%,$(MPI_SHOW))
  MPI_LDFLAGS := $(filter -L% -l%,$(MPI_SHOW)) $(patsubst -Wl$(comma)%,-Xlinker %,$(filter -Wl$(comma)%,$(MPI_SHOW)))
else
  MPI_WHY := no mpicc found; install MPI (Open MPI: the libopenmpi-dev package) to build the MPI version
endif
