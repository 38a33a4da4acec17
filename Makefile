# The two entry points the README names. Both provision Z3 first (idempotent, see scripts/).
EXAMPLE ?= examples/dll_append.c
CARGO ?= cargo

.PHONY: setup demo test bench lint fuzz fuzz-build fuzz-c-frontend fuzz-spec fuzz-cli difftest

setup:
	@./scripts/setup-z3.sh
	@./scripts/setup-benchexec.sh

demo: setup
	$(CARGO) run --release --quiet -- verify $(EXAMPLE) --check unreach-call,valid-memsafety,valid-memcleanup

test: setup
	$(CARGO) test --workspace --release

bench: setup
	$(CARGO) run --release --quiet -- bench ../shared/benchmarks/sv-comp

lint: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --release -- -D warnings

# Fuzzing and differential soundness testing (shapecheck-fuzz, see tests/fuzz/regressions/).
# `make fuzz FUZZ_SECONDS=3600` fuzzes each target for that long (in parallel with -j3);
# `make difftest DIFF_PROGRAMS=10000 DIFF_JOBS=2` cross-checks verdicts against ASan/UBSan.
# Crashes and defects are saved under fuzz-artifacts/ and difftest-artifacts/ (git-ignored).
FUZZ_SECONDS ?= 600
FUZZ_SEED ?= 0
FUZZ_ARGS ?=
DIFF_PROGRAMS ?= 1000
DIFF_JOBS ?= 2
DIFF_SEED ?= 0
DIFF_ARGS ?=
FUZZ = target/release/shapecheck-fuzz

fuzz-build: setup
	$(CARGO) build --release --bins

fuzz: fuzz-c-frontend fuzz-spec fuzz-cli

fuzz-c-frontend fuzz-spec fuzz-cli: fuzz-build
	-$(FUZZ) fuzz --target $(@:fuzz-%=%) --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED) --verbose $(FUZZ_ARGS)

difftest: fuzz-build
	$(FUZZ) difftest --programs $(DIFF_PROGRAMS) --jobs $(DIFF_JOBS) --seed $(DIFF_SEED) --verbose $(DIFF_ARGS)
