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

.PHONY: all $(PRACS) check bench sanitize profile test doctor clean help

all: $(PRACS)
$(PRACS):
	@$(MAKE) --no-print-directory -C $@

# every program against its gold: one verdict line each, then "N passed, N failed, N skipped"
check: all
	@common/run_checks.sh check $(RUNS)

# the timed runs; their BENCH lines, with `make doctor`'s report, become docs/results.md
bench: all
	@rm -f bench.log; common/doctor.sh > doctor.log 2>&1 || true
	@LOG=bench.log common/run_checks.sh bench $(RUNS) | tee bench.summary; \
	  status=$$?; python3 common/results.py doctor.log bench.log > docs/results.md && \
	  echo "wrote docs/results.md"; exit $$status

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
	@echo "make test         CPU tests, build checks, bad-input runs and make check (what CI runs)"
	@echo "make bench        timed runs against a device-to-device copy; writes docs/results.md"
	@echo "make sanitize     the sanitize runs under compute-sanitizer (memcheck)"
	@echo "make profile      the profile runs (Nsight Compute), where a practical has them"
	@echo "make doctor       toolkit, driver, host compiler and GPU: what this machine has"
	@echo "make clean        remove what the build made"
	@echo "Options: ARCH=sm_90 (now $(ARCH)), SMS=\"80 86 90\", DEBUG=1, NVCCFLAGS=..., EXTRA_NVCCFLAGS=..."
