# common/prac.mk -- the shared Makefile rules, included by every practical's Makefile.
#
# A practical's Makefile sets
#   PRAC         its number, for the targets' messages   (PRAC = 3)
#   PROGS        the programs it builds                  (PROGS = laplace3d laplace3d_new)
#   GOLD         optional: the practical's one gold file, for every program that names no sources of its own
#                (GOLD = prac5_gold.c); without it a program's gold is prog_gold.c, where that file exists
#   EXERCISES    optional: programs whose starting file a learner completes (EXERCISES = sgemm_ladder prac1d).
#                `make exercises` (and `make`) builds exercises/x from x's own sources, flags and libraries,
#                compiled with -DEXERCISE, each source replaced by exercises/<source> where that file exists:
#                the program includes its starting step header under #ifdef EXERCISE (sgemm_ladder), or the
#                whole program is a starting copy (exercises/prac1d.cu)
#   prog_SRCS    optional: a program's sources, when not just prog.cu and its gold; .cu files go to nvcc,
#                .c files to gcc, and a static library built here (libx.a, see LIBRARIES) is linked as it is
#   prog_NVCCFLAGS  optional: nvcc flags for this program alone, such as a -D set of a ladder's step
#                (reduction_step3_NVCCFLAGS = -DSTEP=3); its objects then go to .obj/prog/, its own
#   prog_LIBS    optional: libraries for one program    (prac2_LIBS = -lcurand)
#   prog_LINKER  optional: gcc to link with gcc (a C main with CUDA objects or a CUDA static library; the
#                CUDA runtime is then named explicitly), else nvcc links
#   LIBRARIES    optional: static libraries to build with `nvcc -lib` (LIBRARIES = libprac6.a), each from
#                libx_SRCS (libprac6_SRCS = prac6.cu)
#   GOLD_CFLAGS  optional: extra gcc flags for its gold routines
#   GOLD_OPENMP  optional: 1 to run its gold routines on every core with OpenMP, where gcc supports it
#   SWEEP_PROGS  optional: the programs `make sweep` runs with -sweep (a table of their block sizes or tunables)
#   MISSING      optional: programs left out of PROGS because a library they need is not installed, each with
#                prog_WHY (one line: what is missing and how to get it). The line is printed once a build,
#                and written to .obj/missing/prog, where make check finds it and counts the program's runs as
#                SKIP with that reason.
# and then says `include ../common/prac.mk`. Its runs are listed in the file `runs` beside it.
#
# Variables a user can set on the command line:
#   ARCH=sm_90         one target (default: the local GPU's compute capability, else sm_90)
#   SMS="80 86 90"     several targets in one binary, with PTX for the highest (overrides ARCH)
#   PTX_ONLY=1         with SMS: PTX alone for each, compiled by the driver when a program starts
#   DEBUG=1            device debug code (-G) and synchronising error checks
#   REQUIRE_GPU=1      every SKIP becomes a FAIL (make check proves that a GPU ran)
#   NVCC, NVCCFLAGS, EXTRA_NVCCFLAGS, HOST_COMPILER, CUDA_HOME / CUDA_PATH

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DELETE_ON_ERROR:
.SUFFIXES:

COMMON_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
MAKEFILE_DEPS := $(abspath $(MAKEFILE_LIST))
OBJDIR := .obj

include $(COMMON_DIR)/toolchain.mk

ifneq ($(strip $(SMS)),)
  SM_LIST := $(strip $(SMS))
  SM_TOP := $(shell echo $(SM_LIST) | tr ' ' '\n' | sort -n | tail -n 1)
  GENCODE := $(foreach sm,$(SM_LIST),-gencode arch=compute_$(sm),code=sm_$(sm)) \
             -gencode arch=compute_$(SM_TOP),code=compute_$(SM_TOP)
  # PTX_ONLY=1: PTX alone, no machine code, for each of SMS. The driver compiles it for the GPU it runs on, so
  # an H100 runs exactly the code a T4 build holds (`make check-arch SMS=75`).
  ifeq ($(PTX_ONLY),1)
    GENCODE := $(foreach sm,$(SM_LIST),-gencode arch=compute_$(sm),code=compute_$(sm))
  endif
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
ifeq ($(strip $(GOLD_OPENMP)),1)
  HAVE_OPENMP := $(shell echo 'int main(void){return 0;}' | gcc -fopenmp -x c - -o /dev/null 2>/dev/null && echo 1)
  ifeq ($(HAVE_OPENMP),1)
    GOLD_CFLAGS += -fopenmp
    LDLIBS += -Xcompiler -fopenmp
  endif
endif

# define_if,NAME: -DNAME=value when NAME is set (make BLOCK_X=32), nothing otherwise
define_if = $(if $($(1)),-D$(1)=$($(1)))

# ---- flags ----------------------------------------------------------------------------------------
# The course's Makefiles use -lineinfo --ptxas-options=-v --use_fast_math. Kept: -lineinfo (line numbers for
# the profilers) and ptxas's register, shared-memory and spill report, always on (PTXAS_REPORT: `make test`
# reads it for spills, so a NVCCFLAGS of your own cannot turn it off). Added: -O3 and -std=c++17. Left out:
# --use_fast_math (approximate expf, division and square root, denormals flushed): the programs' tolerances
# are argued for the accurate versions (docs/tools.md); make EXTRA_NVCCFLAGS=--use_fast_math puts it back.
NVCCFLAGS ?= -O3 -lineinfo -std=c++17
PTXAS_REPORT := --ptxas-options=-v
ifeq ($(DEBUG),1)
  NVCCFLAGS := $(filter-out -lineinfo,$(NVCCFLAGS)) -G -DCUDA_DEBUG_SYNC
endif
ALL_NVCCFLAGS := $(GENCODE) $(NVCCFLAGS) $(PTXAS_REPORT) $(EXTRA_NVCCFLAGS) -ccbin $(HOST_COMPILER) \
                 -I. -I$(COMMON_DIR) -Xcompiler -Wall,-Wextra
CFLAGS := -O2 -std=c11 -Wall -Wextra -I. -I$(COMMON_DIR) $(GOLD_CFLAGS)
LDLIBS ?=
export REQUIRE_GPU

# the CUDA runtime, for programs that gcc links (prog_LINKER = gcc): nvcc adds it itself. nvcc links the
# static runtime (libcudart_static.a) by default; gcc here links the shared one, libcudart.so, found at run
# time through the rpath, so that the program runs without LD_LIBRARY_PATH
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_ROOT)/targets/x86_64-linux/lib $(CUDA_ROOT)/lib64 $(CUDA_ROOT)/lib))
CUDA_LDFLAGS := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcudart -lstdc++ -lm

# ---- the exercises: exercises/x for each x in EXERCISES -------------------------------------------
# (an entry already written as exercises/x, with its own exercises/x_SRCS, is taken as it is)
default_srcs = $(1).cu $(if $(GOLD),$(GOLD),$(sort $(wildcard $(1)_gold.c $(notdir $(1))_gold.c)))
define EXERCISE_RULES
$(1)_SRCS ?= $$(call default_srcs,$(1))
exercises/$(1)_SRCS = $$(foreach s,$$($(1)_SRCS),$$(if $$(wildcard exercises/$$(s)),exercises/$$(s),$$(s)))
exercises/$(1)_NVCCFLAGS = -DEXERCISE $$($(1)_NVCCFLAGS)
exercises/$(1)_LIBS = $$($(1)_LIBS)
exercises/$(1)_LINKER = $$($(1)_LINKER)
endef
$(foreach x,$(filter-out exercises/%,$(EXERCISES)),$(eval $(call EXERCISE_RULES,$(x))))
EXERCISE_PROGS := $(filter exercises/%,$(EXERCISES)) $(addprefix exercises/,$(filter-out exercises/%,$(EXERCISES)))

# Rebuild everything when the flags change (make ARCH=sm_80 after a default build, say). The stamp is
# written by a recipe, so `make -n` leaves it alone, and only when its text changes, so that an unchanged
# build stays up to date. Quotes in the flags are escaped for the shell.
FLAGS_TEXT := $(NVCC) $(ALL_NVCCFLAGS) | $(CC) $(CFLAGS) | $(LDLIBS) | \
              $(foreach p,$(PROGS) $(EXERCISE_PROGS),$(p): $($(p)_NVCCFLAGS) $($(p)_LINKER);)
FLAGS_STAMP := $(OBJDIR)/flags
shell_quote = '$(subst ','\'',$(1))'
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' $(call shell_quote,$(FLAGS_TEXT)) | cmp -s - $@ || printf '%s\n' $(call shell_quote,$(FLAGS_TEXT)) > $@
.PHONY: FORCE
FORCE:

# ---- programs left out (MISSING) -------------------------------------------------------------------
QUIET_GOALS := clean print-gold-cflags print-progs print-exercise-progs help
ifneq ($(strip $(MISSING)),)
  ifeq ($(filter $(QUIET_GOALS),$(MAKECMDGOALS)),)
    $(foreach p,$(MISSING),$(shell echo "$(p): not built: $($(p)_WHY)" >&2))
  endif
  $(shell mkdir -p $(OBJDIR)/missing)
  $(foreach p,$(MISSING),$(shell printf '%s\n' '$(subst ','',$($(p)_WHY))' > $(OBJDIR)/missing/$(p)))
endif
$(if $(wildcard $(OBJDIR)/missing),$(shell cd $(OBJDIR)/missing && rm -f $(PROGS)))

# ---- building --------------------------------------------------------------------------------------
.DEFAULT_GOAL := all
all: $(PROGS) $(EXERCISE_PROGS)
exercises: $(EXERCISE_PROGS)
# `make pracN` builds the whole practical; a program may itself be called pracN (prac2), so its own link
# rule stays the only recipe, the rest are added as prerequisites, and it is not phony (no relink each time)
prac$(PRAC): $(filter-out prac$(PRAC),$(PROGS))
.PHONY: all exercises $(filter-out $(PROGS),prac$(PRAC)) check run bench sanitize profile bad clean help

# The compiler's messages (ptxas's report included) go to the terminal and to .obj/.../x.cu.log, which
# `make test` reads for warnings and register spills.
CU_COMPILE = $(NVCC) $(ALL_NVCCFLAGS) $(1) -MMD -MP -MF $(@:.o=.d) -c $< -o $@ 2>&1 | tee $(@:.o=.log)
C_COMPILE = $(CC) $(CFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@ 2>&1 | tee $(@:.o=.log)

# Objects are named after their source (.obj/x.cu.o); a program with flags of its own gets .obj/prog/x.cu.o.
# A source's object, for program $(1):
obj_of = $(if $(filter %.a,$(2)),$(2),$(if $(strip $($(1)_NVCCFLAGS)),$(OBJDIR)/$(1)/$(2).o,$(OBJDIR)/$(2).o))

# Each program: its objects, linked by nvcc (or by gcc, prog_LINKER = gcc). The default sources are
# prog.cu and its gold (GOLD, else prog_gold.c); an exercise written as exercises/x uses x's gold.
define PROG_RULES
$(1)_SRCS ?= $$(call default_srcs,$(1))
$(1)_OBJS := $$(foreach src,$$($(1)_SRCS),$$(call obj_of,$(1),$$(src)))
$(1): $$($(1)_OBJS) $(MAKEFILE_DEPS)
ifeq ($$($(1)_LINKER),gcc)
	$$(CC) $$(filter %.o %.a,$$^) -o $$@ $$($(1)_LIBS) $$(CUDA_LDFLAGS) $$(filter-out -Xcompiler,$$(LDLIBS))
else
	$$(NVCC) $$(GENCODE) -ccbin $$(HOST_COMPILER) $$(filter %.o %.a,$$^) -o $$@ $$($(1)_LIBS) $$(LDLIBS)
endif
ifneq ($$(strip $$($(1)_NVCCFLAGS)),)
$$(filter %.cu.o,$$($(1)_OBJS)): $(OBJDIR)/$(1)/%.cu.o: %.cu $(MAKEFILE_DEPS) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$$(call CU_COMPILE,$$($(1)_NVCCFLAGS))
$$(filter %.c.o,$$($(1)_OBJS)): $(OBJDIR)/$(1)/%.c.o: %.c $(MAKEFILE_DEPS) $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$$(C_COMPILE)
endif
endef
$(foreach p,$(PROGS) $(EXERCISE_PROGS),$(eval $(call PROG_RULES,$(p))))

# Static libraries (prac6's lesson): nvcc -lib archives the objects of libx_SRCS.
define LIB_RULES
$(1)_OBJS := $$(patsubst %,$(OBJDIR)/%.o,$$($(1:.a=)_SRCS))
$(1): $$($(1)_OBJS) $(MAKEFILE_DEPS)
	$$(NVCC) $$(GENCODE) -lib $$(filter %.o,$$^) -o $$@
endef
$(foreach l,$(LIBRARIES),$(eval $(call LIB_RULES,$(l))))

$(OBJDIR)/%.cu.o: %.cu $(MAKEFILE_DEPS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call CU_COMPILE,)

$(OBJDIR)/%.c.o: %.c $(MAKEFILE_DEPS) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(C_COMPILE)

-include $(shell find $(OBJDIR) -name '*.d' 2>/dev/null)

# ---- running ---------------------------------------------------------------------------------------
RUN_CHECKS := $(COMMON_DIR)/run_checks.sh

# the runs files check the starting files too (their expect=FAIL lines): build them with the programs
check: $(PROGS) $(EXERCISE_PROGS)
	@$(RUN_CHECKS) check runs

bench: $(PROGS)
	@$(RUN_CHECKS) bench runs

sanitize: $(PROGS) $(EXERCISE_PROGS)
	@$(RUN_CHECKS) sanitize runs

profile: $(PROGS)
	@$(RUN_CHECKS) profile runs

bad: $(PROGS)
	@$(RUN_CHECKS) bad runs

run: $(PROGS)
	@for p in $(PROGS); do echo "== ./$$p"; ./$$p; echo "(exit code $$?)"; done

# make sweep: each of SWEEP_PROGS with -sweep (SWEEP_ARGS=... adds options); make timeline: the practical's
# timeline.sh (Nsight Systems), where it has one: a SKIP (exit 2: no nsys, or it cannot trace here) is no error
ifneq ($(SWEEP_PROGS),)
sweep: $(SWEEP_PROGS)
	@for p in $(SWEEP_PROGS); do echo "== ./$$p -sweep $(SWEEP_ARGS)"; ./$$p -sweep $(SWEEP_ARGS); done; true
.PHONY: sweep
endif
ifneq ($(wildcard timeline.sh),)
timeline: $(PROGS)
	@./timeline.sh; rc=$$?; [ $$rc = 2 ] && rc=0; exit $$rc
.PHONY: timeline
endif

clean:
	rm -rf $(OBJDIR) $(PROGS) $(EXERCISE_PROGS) $(LIBRARIES)

# (a double-colon rule: a practical adds its own lines with a help:: rule of its own after the include)
help::
	@echo "make / make prac$(PRAC)  build: $(PROGS) $(EXERCISE_PROGS)"
	@$(if $(EXERCISE_PROGS),echo "make exercises       build the starting files: $(EXERCISE_PROGS)")
	@echo "make check           run each program against its gold (the 'check' lines of ./runs)"
	@echo "make run             run each program once with its defaults, showing everything it prints"
	@echo "make bench           the timed runs ('bench' lines), BENCH lines and verdicts"
	@echo "make sanitize        the 'sanitize' runs under compute-sanitizer"
	@echo "make profile         the 'profile' runs (Nsight Compute / Systems)"
	@$(if $(SWEEP_PROGS),echo "make sweep           each program's -sweep: a table of block sizes (SWEEP_ARGS=... adds options)")
	@$(if $(wildcard timeline.sh),echo "make timeline        an Nsight Systems timeline (timeline.sh; SKIP without nsys)")
	@echo "make clean           remove binaries and objects"
	@echo "ARCH=$(ARCH)  SMS=$(SMS)  DEBUG=$(DEBUG)  REQUIRE_GPU=$(REQUIRE_GPU)  CUDA_ROOT=$(CUDA_ROOT)"

# for common/default_runs.sh (make defaults): the programs built here, and those left out (MISSING)
print-progs:
	@echo $(PROGS) $(MISSING)
.PHONY: print-progs

# for common/run_checks.sh help (make test): the starting files, exercises/x, whose -help is checked too
print-exercise-progs:
	@echo $(EXERCISE_PROGS)
.PHONY: print-exercise-progs

# for tests/Makefile, which compiles this practical's gold routines with the same flags
print-gold-cflags:
	@echo $(GOLD_CFLAGS)
.PHONY: print-gold-cflags
