# The CUDA programming workbook -- top-level Makefile. `make help` lists the targets.
# Each practical builds on its own too: cd prac3 && make prac3 && ./laplace3d
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

PRACS := $(patsubst %/Makefile,%,$(sort $(wildcard prac[0-9]/Makefile)))
RUNS  := $(addsuffix /runs,$(PRACS))

# Work out ARCH once here (see common/prac.mk) and hand it to every practical.
ifeq ($(origin ARCH),undefined)
  LOCAL_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -dc 0-9)
  ARCH := sm_$(if $(LOCAL_CC),$(LOCAL_CC),90)
endif
export ARCH
# REQUIRE_GPU=1: every SKIP becomes a FAIL (see common/gpu_policy.h and common/run_checks.sh)
export REQUIRE_GPU

.PHONY: all $(PRACS) exercises check bench sanitize profile test doctor clean help

all: $(PRACS)
$(PRACS):
	@$(MAKE) --no-print-directory -C $@

# the starting files of every practical's exercises (make all builds them too)
exercises:
	@for p in $(PRACS); do $(MAKE) --no-print-directory -C $$p exercises || exit 1; done

# every program against its gold: one verdict line each, then "N passed, N failed, N skipped"
check: all
	@common/run_checks.sh check $(RUNS)

# the timed runs; their BENCH lines, with `make doctor`'s report, become docs/results.md -- but only when
# the run measured something and nothing failed: a machine without a GPU (every run a SKIP) or a failed
# run leaves the published page as it was (common/bench_results.sh)
bench: all
	@common/bench_results.sh $(RUNS)

sanitize: all
	@common/run_checks.sh sanitize $(RUNS)

profile: all
	@common/run_checks.sh profile $(RUNS)

# CI's command: CPU tests, build checks (warnings, spills), bad-input runs, then `make check`
test:
	@common/run_tests.sh $(PRACS)

doctor:
	@common/doctor.sh

clean:
	@for p in $(PRACS) tests; do $(MAKE) --no-print-directory -C $$p clean; done
	rm -f bench.log bench.summary doctor.log

help:
	@echo "make              build every practical ($(PRACS))"
	@echo "make pracN        build one practical"
	@echo "make check        run every program against its CPU gold: PASS / FAIL / SKIP each"
	@echo "make exercises    build the starting files in pracN/exercises/ (they FAIL until you finish them)"
	@echo "make test         CPU tests, build checks, bad-input runs and make check (what CI runs)"
	@echo "make bench        timed runs against the copy and the libraries; writes docs/results.md"
	@echo "make sanitize     the sanitize runs under compute-sanitizer (memcheck, racecheck, synccheck)"
	@echo "make profile      the profile runs (Nsight Compute), where a practical has them"
	@echo "make doctor       toolkit, driver, host compiler and GPU: what this machine has"
	@echo "make clean        remove what the build made"
	@echo "Options: ARCH=sm_90 (now $(ARCH)), SMS=\"80 86 90\", DEBUG=1, REQUIRE_GPU=1 (a SKIP is a FAIL),"
	@echo "         NVCCFLAGS=..., EXTRA_NVCCFLAGS=..."
