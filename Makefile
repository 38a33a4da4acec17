# The two entry points the README names. Both provision Z3 first (idempotent, see scripts/).
EXAMPLE ?= examples/dll_append.c
CARGO ?= cargo

.PHONY: setup demo test bench lint

setup:
	@./scripts/setup-z3.sh

demo: setup
	$(CARGO) run --release --quiet -- verify $(EXAMPLE) --check unreach-call,valid-memsafety,valid-memcleanup

test: setup
	$(CARGO) test --workspace --release

bench: setup
	$(CARGO) run --release --quiet -- bench ../shared/benchmarks/sv-comp

lint: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
