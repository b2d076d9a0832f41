# The CUDA programming workbook -- top-level Makefile. `make help` lists the targets.
# Each practical builds on its own too: cd prac3 && make prac3 && ./laplace3d
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

# every pracN with a Makefile, prac1 .. prac12 in order (sort -V: prac10 after prac9)
PRACS := $(shell ls -d prac[0-9]*/Makefile 2>/dev/null | xargs -n1 dirname | sort -V)
RUNS  := $(addsuffix /runs,$(PRACS))

# the toolkit and ARCH, worked out once here (common/toolchain.mk) and handed to every practical
include common/toolchain.mk
# REQUIRE_GPU=1: every SKIP becomes a FAIL (see common/gpu_policy.h and common/run_checks.sh)
export REQUIRE_GPU

# the GPUs a learner may have, tested on the one here (common/check_matrix.sh, common/gpu_limits.h)
PROFILES := t4 rtx3060 rtx4060 a100 l4
ARCH_SMS := 75 80 86 89

.PHONY: all $(PRACS) exercises check bench sanitize profile test doctor doccheck clean help check-arch \
        check-profiles defaults results diagrams tune tune-kt

all: $(PRACS)
$(PRACS):
	@$(MAKE) --no-print-directory -C $@

# the starting files of every practical's exercises (make all builds them too)
exercises:
	@for p in $(PRACS); do $(MAKE) --no-print-directory -C $$p exercises || exit 1; done

# every program against its gold: one verdict line each, then "N passed, N failed, N skipped"
check: all
	@common/run_checks.sh check $(RUNS)

# the timed runs; their BENCH lines, with `make doctor`'s report, become docs/results.md -- only when the run
# measured something and nothing failed, else the page stays as it was (common/bench_results.sh)
bench: all
	@common/bench_results.sh $(RUNS)

# docs/results.md again from docs/results_<gpu>.csv alone (one CSV a GPU that ran make bench), no GPU needed
results:
	@python3 common/results.py --from-csv

sanitize: all
	@common/run_checks.sh sanitize $(RUNS)

# make check-arch SMS=75: a clean PTX-only build for that compute capability (SMS="75 80 86 89": each in turn),
# then every check line: the driver compiles the PTX for the GPU here, so it runs a T4 build's code
check-arch:
	@common/check_matrix.sh arch "$(or $(SMS),$(ARCH_SMS))" $(PRACS)

# every check line under each GPU profile: the limits (SMs, shared memory, L2, memory) of a T4, an RTX 3060,
# an RTX 4060 (8 GiB), an A100 and an L4, and that many SMs where the driver makes a green context
check-profiles: all
	@common/check_matrix.sh profiles "$(or $(PROFILE),$(PROFILES))" $(PRACS)

# every program with no arguments, in 4 GiB of device memory (WORKBOOK_DEVICE_MEM_MIB): each must PASS; the
# peak device memory of each (TABLE=FILE writes them as a Markdown table)
defaults: all
	@common/default_runs.sh $(PRACS)

profile: all
	@common/run_checks.sh profile $(RUNS)

# CI's command: CPU tests, build checks (warnings, spills), bad-input runs, -help texts, then `make check`
test:
	@common/run_tests.sh $(PRACS)

# this GPU's tuned table, tuned/<gpu>.txt (practical 10): each program's configs at each size class
tune:
	@$(MAKE) --no-print-directory -C prac3 laplace3d_tb
	@$(MAKE) --no-print-directory -C prac4 reduction_ladder softmax_rows
	@$(MAKE) --no-print-directory -C prac7 trid_batch
	@$(MAKE) --no-print-directory -C prac10 tables
# Kernel Tuner (the peer of prac10/tune) over laplace3d_tb's space at 512^3 (prac10/kt_peer.py; SKIP without it)
tune-kt:
	@$(MAKE) --no-print-directory -C prac10 tune-kt

doctor:
	@common/doctor.sh

# every command a handout shows with its output, run, and the output's shape (numbers masked) compared with
# the handout's: PASS / STALE (file:line) / SKIP each, then "N passed, N stale, N skipped" (common/doccheck.py)
doccheck: all
	@python3 common/doccheck.py $(foreach p,$(PRACS),$(wildcard docs/$(p).md docs/$(p)_*.md))

# docs/img/*.svg, the pictures of docs/concepts.md and the handouts, from docs/diagrams.py (make test checks them)
diagrams:
	@python3 docs/diagrams.py

clean:
	@for p in $(PRACS) tests; do $(MAKE) --no-print-directory -C $$p clean; done
	rm -f bench.log bench.summary doctor.log

help:
	@echo "make              build every practical ($(PRACS))"
	@echo "make pracN        build one practical"
	@echo "make check        run every program against its CPU gold: PASS / FAIL / SKIP each"
	@echo "make exercises    build the starting files in pracN/exercises/ (they FAIL until you finish them)"
	@echo "make test         CPU tests, build checks, bad-input runs, -help texts and make check (what CI runs)"
	@echo "make bench        timed runs against the copy and the libraries; writes docs/results_<gpu>.csv and docs/results.md"
	@echo "make results      docs/results.md (and its figures, with matplotlib) again from every docs/results_<gpu>.csv"
	@echo "make tune         this GPU's tuned table, tuned/<gpu>.txt (prac10's tune over each program and size class)"
	@echo "make tune-kt      Kernel Tuner (the peer of prac10's tune) over laplace3d_tb at 512^3; SKIP without it and CuPy"
	@echo "make sanitize     the sanitize runs under compute-sanitizer (memcheck, initcheck, racecheck, synccheck)"
	@echo "make check-arch SMS=75   a clean PTX-only build for compute capability 7.5, then make check on this GPU"
	@echo "make check-profiles      make check under each GPU profile ($(PROFILES)); PROFILE=t4 for one"
	@echo "make defaults     every program with no arguments in 4 GiB, and the peak device memory of each"
	@echo "make profile      the profile runs (Nsight Compute), where a practical has them"
	@echo "make doctor       toolkit, driver, host compiler and GPU: what this machine has"
	@echo "make doccheck     run the commands the handouts show; STALE where their output no longer has that shape"
	@echo "make diagrams     redraw the pictures in docs/img/ from docs/diagrams.py (make test checks they are current)"
	@echo "make clean        remove what the build made"
	@echo "Options: ARCH=sm_90 (now $(ARCH)), SMS=\"80 86 90\", PTX_ONLY=1, DEBUG=1, REQUIRE_GPU=1 (a SKIP is a FAIL),"
	@echo "         NVCCFLAGS=..., EXTRA_NVCCFLAGS=...; WORKBOOK_GPU_PROFILE=t4 and WORKBOOK_DEVICE_MEM_MIB=4096"
	@echo "         in the environment make every program act as on that GPU (docs/troubleshooting.md)"
