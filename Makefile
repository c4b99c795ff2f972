# Every target sets up what it needs: a fresh clone runs `make demo` or `make test` and nothing else.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_OLD := corpora/demo/frobber-v6.yaml
DEMO_NEW := corpora/demo/frobber-v7.yaml

.PHONY: setup demo test lint typecheck unit bench bench-quick fuzz reports docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	@echo "\$$ specdiff $(DEMO_OLD) $(DEMO_NEW)"
	@$(BIN)/specdiff $(DEMO_OLD) $(DEMO_NEW); status=$$?; \
	  echo "(exit code $$status: 0 compatible, 1 breaking changes found, 2 input error)"; \
	  test $$status -le 1

lint: setup
	$(BIN)/ruff check specdiff tests benchmarks

typecheck: setup
	$(BIN)/mypy specdiff

unit: setup
	$(BIN)/python -m pytest

test: lint typecheck unit

# Whole-process wall time, CPU time and peak memory per case (docs/performance.md); timings are never a failure.
bench: setup
	$(BIN)/python -m benchmarks $(if $(QUICK),--quick)

bench-quick: setup
	$(BIN)/python -m benchmarks --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
