# common/prac.mk -- the shared Makefile rules, included by every practical's Makefile.
#
# A practical's Makefile sets
#   PRAC         its number, for the targets' messages   (PRAC = 3)
#   PROGS        the programs it builds                  (PROGS = laplace3d laplace3d_new)
#   prog_SRCS    optional: a program's sources, when not just prog.cu + prog_gold.c
#   prog_LIBS    optional: libraries for one program    (prac2_LIBS = -lcurand)
#   GOLD_CFLAGS  optional: extra gcc flags for its gold routines
#   GOLD_OPENMP  optional: 1 to run its gold routines on every core with OpenMP, where gcc supports it
# and then says `include ../common/prac.mk`. Its runs are listed in the file `runs` beside it.
#
# Variables a user can set on the command line:
#   ARCH=sm_90         one target (default: the local GPU's compute capability, else sm_90)
#   SMS="80 86 90"     several targets in one binary, with PTX for the highest (overrides ARCH)
#   DEBUG=1            device debug code (-G) and synchronising error checks
#   NVCC, NVCCFLAGS, EXTRA_NVCCFLAGS, HOST_COMPILER, CUDA_HOME / CUDA_PATH

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:

COMMON_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
MAKEFILE_DEPS := $(abspath $(MAKEFILE_LIST))
OBJDIR := .obj

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

ifneq ($(strip $(SMS)),)
  SM_LIST := $(strip $(SMS))
  SM_TOP := $(shell echo $(SM_LIST) | tr ' ' '\n' | sort -n | tail -n 1)
  GENCODE := $(foreach sm,$(SM_LIST),-gencode arch=compute_$(sm),code=sm_$(sm)) \
             -gencode arch=compute_$(SM_TOP),code=compute_$(SM_TOP)
else
  SM_LIST := $(patsubst sm_%,%,$(ARCH))
  GENCODE := -arch=$(ARCH)
endif
# CUDA 13 compiles for compute capability 7.5 (Turing) and newer only.
SM_OLD := $(strip $(foreach sm,$(SM_LIST),$(shell [ "$$(echo $(sm) | tr -dc 0-9)" -lt 75 ] 2>/dev/null && echo $(sm))))
ifneq ($(SM_OLD),)
  $(error sm_$(firstword $(SM_OLD)) is not supported: CUDA 13 dropped architectures older than sm_75 (Turing))
endif
ifeq ($(filter sm_%,$(ARCH)),)
  $(error ARCH=$(ARCH) is not of the form sm_NN, for example ARCH=sm_90)
endif

# ---- OpenMP for the gold routines ------------------------------------------------------------------
# Compiled with -fopenmp when gcc supports it, and every program linked with the OpenMP runtime;
# without it the same C runs on one core (the #pragma omp lines are then ignored).
ifeq ($(GOLD_OPENMP),1)
  HAVE_OPENMP := $(shell echo 'int main(void){return 0;}' | gcc -fopenmp -x c - -o /dev/null 2>/dev/null && echo 1)
  ifeq ($(HAVE_OPENMP),1)
    GOLD_CFLAGS += -fopenmp
    LDLIBS += -Xcompiler -fopenmp
  endif
endif

# ---- flags ----------------------------------------------------------------------------------------
# The course's defaults: optimise, keep line numbers for the profilers, and print ptxas's register,
# shared-memory and spill report for every kernel on every build.
NVCCFLAGS ?= -O3 -lineinfo --ptxas-options=-v -std=c++17
ifeq ($(DEBUG),1)
  NVCCFLAGS := $(filter-out -lineinfo,$(NVCCFLAGS)) -G -DCUDA_DEBUG_SYNC
endif
ALL_NVCCFLAGS := $(GENCODE) $(NVCCFLAGS) $(EXTRA_NVCCFLAGS) -ccbin $(HOST_COMPILER) -I$(COMMON_DIR) \
                 -Xcompiler -Wall,-Wextra
CFLAGS := -O2 -std=c11 -Wall -Wextra -I$(COMMON_DIR) $(GOLD_CFLAGS)
LDLIBS ?=

# Rebuild everything when the flags change (make ARCH=sm_80 after a default build, say).
FLAGS_TEXT := $(NVCC) $(ALL_NVCCFLAGS) | $(CC) $(CFLAGS) | $(LDLIBS)
FLAGS_STAMP := $(OBJDIR)/flags
$(shell mkdir -p $(OBJDIR); echo '$(FLAGS_TEXT)' | cmp -s - $(FLAGS_STAMP) || echo '$(FLAGS_TEXT)' > $(FLAGS_STAMP))

# ---- building --------------------------------------------------------------------------------------
.DEFAULT_GOAL := all
all: $(PROGS)
# `make pracN` builds the whole practical; a program may itself be called pracN (prac2), so its own link
# rule stays the only recipe and the rest are added as prerequisites
prac$(PRAC): $(filter-out prac$(PRAC),$(PROGS))
.PHONY: all prac$(PRAC) check run bench sanitize profile bad clean help

# Each program: its objects, linked by nvcc. Objects are named after their source (.obj/x.cu.o).
define PROG_RULES
$(1)_SRCS ?= $(1).cu $(wildcard $(1)_gold.c)
$(1): $$(patsubst %,$(OBJDIR)/%.o,$$($(1)_SRCS)) $(MAKEFILE_DEPS)
	$$(NVCC) $$(GENCODE) -ccbin $$(HOST_COMPILER) $$(filter %.o,$$^) -o $$@ $$($(1)_LIBS) $$(LDLIBS)
endef
$(foreach p,$(PROGS),$(eval $(call PROG_RULES,$(p))))

# The compiler's messages (ptxas's report included) go to the terminal and to .obj/x.cu.log, which
# `make test` reads for warnings and register spills.
$(OBJDIR)/%.cu.o: %.cu $(MAKEFILE_DEPS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(NVCC) $(ALL_NVCCFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@ 2>&1 | tee $(@:.o=.log)

$(OBJDIR)/%.c.o: %.c $(MAKEFILE_DEPS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@ 2>&1 | tee $(@:.o=.log)

-include $(wildcard $(OBJDIR)/*.d)

# ---- running ---------------------------------------------------------------------------------------
RUN_CHECKS := $(COMMON_DIR)/run_checks.sh

check: $(PROGS)
	@$(RUN_CHECKS) check runs

bench: $(PROGS)
	@$(RUN_CHECKS) bench runs

sanitize: $(PROGS)
	@$(RUN_CHECKS) sanitize runs

profile: $(PROGS)
	@$(RUN_CHECKS) profile runs

bad: $(PROGS)
	@$(RUN_CHECKS) bad runs

run: $(PROGS)
	@for p in $(PROGS); do echo "== ./$$p"; ./$$p; echo "(exit code $$?)"; done

clean:
	rm -rf $(OBJDIR) $(PROGS)

help:
	@echo "make / make prac$(PRAC)  build: $(PROGS)"
	@echo "make check           run each program against its gold (the 'check' lines of ./runs)"
	@echo "make run             run each program once with its defaults, showing everything it prints"
	@echo "make bench           the timed runs ('bench' lines), BENCH lines and verdicts"
	@echo "make sanitize        the 'sanitize' runs under compute-sanitizer"
	@echo "make profile         the 'profile' runs (Nsight Compute / Systems)"
	@echo "make clean           remove binaries and objects"
	@echo "ARCH=$(ARCH)  SMS=$(SMS)  DEBUG=$(DEBUG)  CUDA_ROOT=$(CUDA_ROOT)"

# for tests/Makefile, which compiles this practical's gold routines with the same flags
print-gold-cflags:
	@echo $(GOLD_CFLAGS)
.PHONY: print-gold-cflags
