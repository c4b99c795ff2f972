# Every target sets up what it needs: a fresh clone runs `make demo` or `make test` and nothing else.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_OLD := corpora/demo/frobber-v6.yaml
DEMO_NEW := corpora/demo/frobber-v7.yaml
#: the reference date the golden reports are judged on and name, so that they do not change with the calendar
DEMO_TODAY := 2026-01-15

.PHONY: setup lock demo test lint typecheck unit bench bench-quick verdicts fuzz reports example-notes docs browser clean

LOCK := requirements-dev.txt
PIP := $(BIN)/pip --quiet --disable-pip-version-check

# The development environment is exactly the lock (hash-checked), then specdiff itself on top of it, built with
# the locked setuptools: nothing is resolved afresh, so a release of any dependency cannot change a run.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv --clear $(VENV)
	$(PIP) install --require-hashes --no-deps -r $(LOCK)
	$(PIP) install --no-deps --no-build-isolation --config-settings editable_mode=compat -e .
	touch $(STAMP)

# The bytecode is compiled here, as pip compiles an installed wheel's: with PYTHONDONTWRITEBYTECODE set, an
# editable install would otherwise compile every module it imports on every run. Run on each setup, so that
# edited modules are compiled again (compileall skips those whose bytecode is current).
setup: $(STAMP)
	$(BIN)/python -m compileall -q specdiff

# Refresh the lock after changing dependencies in pyproject.toml (or to take newer releases): commit both together.
# requirements.txt, what the GitHub action installs, is the run-time part of it (tests/runtime_lock.py).
lock: setup
	$(BIN)/pip-compile --quiet --upgrade --extra dev --all-build-deps --generate-hashes --allow-unsafe --strip-extras \
	  --no-emit-index-url --no-emit-find-links --output-file $(LOCK) pyproject.toml
	$(PIP) install --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python tests/runtime_lock.py

demo: setup
	@echo "\$$ specdiff $(DEMO_OLD) $(DEMO_NEW)"
	@$(BIN)/specdiff $(DEMO_OLD) $(DEMO_NEW); status=$$?; \
	  echo "(exit code $$status: 0 compatible, 1 breaking changes found, 2 input error)"; \
	  test $$status -le 1

lint: setup
	$(BIN)/ruff check specdiff tests benchmarks
	$(BIN)/lint-imports --no-cache

typecheck: setup
	$(BIN)/mypy specdiff

# One worker per core; the tests that build and install specdiff are one xdist group, run by one worker from the
# start (pytest-xdist's documented `--dist loadgroup`). The code is byte-compiled first: where
# PYTHONDONTWRITEBYTECODE is set, each `python -m specdiff` process the suite starts would otherwise compile the
# modules it imports again (up to 0.2 s each).
unit: setup browser
	$(BIN)/python -m compileall -q specdiff tests benchmarks
	$(BIN)/python -m pytest -n auto --dist loadgroup

test: lint typecheck unit

# The HTML report is tested in Debian's headless Chromium; installed once, when it is missing.
CHROMIUM := /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
	  > /dev/null; } || echo "warning: could not install chromium; the HTML page tests will be skipped"

# Golden reports: every --format for the demo pair, and the README's excerpts of them (tests/test_goldens.py
# fails when either drifts).
reports: setup
	@rm -f reports/specdiff.*
	@$(BIN)/specdiff $(DEMO_OLD) $(DEMO_NEW) --no-config --today $(DEMO_TODAY) --output-dir reports \
	  $$($(BIN)/python -c 'from specdiff.report import FORMATS; print(" ".join("--format " + f for f in FORMATS))'); \
	  test $$? -le 1
	$(BIN)/python tests/excerpts.py
	@$(MAKE) --no-print-directory example-notes
	@ls reports

# Release notes for a real Kubernetes release and a plain OpenAPI one, from the corpora beside the project
# (tests/test_goldens.py checks them when the corpora are there).
CORPORA ?= ../shared/corpora
EXAMPLE_NOTES := reports/examples/kubernetes-1.35-to-1.36.release-notes.md
EXAMPLE_OPENAPI_NOTES := reports/examples/museum-1.0.0-to-1.2.1.release-notes.md
MUSEUM := $(CORPORA)/openapi/museum-3.1
#: a Kubernetes history: the Gateway API's HTTPRoute CRD over four standard-channel releases, newest first
EXAMPLE_HISTORY_NOTES := reports/examples/httproute-v1.0.0-to-v1.4.0.history.release-notes.md
HTTPROUTES := $(foreach v,v1.0.0 v1.1.0 v1.2.0 v1.4.0,$(CORPORA)/crds/gateway-api/httproutes.standard.$(v).yaml)
example-notes: setup
	@if test -d $(CORPORA); then mkdir -p reports/examples && $(BIN)/specdiff \
	  $(CORPORA)/kubernetes/v2/swagger-v1.35.json $(CORPORA)/kubernetes/v2/swagger-v1.36.json --no-config --today $(DEMO_TODAY) \
	  --format release-notes --output $(EXAMPLE_NOTES); test $$? -le 1 && $(BIN)/specdiff \
	  $(MUSEUM)/museum-2023-11-01-0624581.yaml $(MUSEUM)/museum-2024-11-20-2770b2b.yaml --no-config --today $(DEMO_TODAY) \
	  --format release-notes --output $(EXAMPLE_OPENAPI_NOTES); test $$? -le 1 && $(BIN)/specdiff history \
	  $(HTTPROUTES) --no-config --today $(DEMO_TODAY) --format release-notes --output $(EXAMPLE_HISTORY_NOTES); \
	  test $$? -le 1; \
	else echo "no corpora at $(CORPORA): reports/examples/ left as it is"; fi

# docs/rules.md and rules/catalogue.json are generated from the rule cards (tests/test_goldens.py fails when
# either is stale), specdiff/diff/cel_tables.py from cel-python's CEL grammar (tests/test_cel_grammar.py), and
# specdiff/record_inits.py from the record classes (tests/test_frozen.py).
docs: setup
	$(BIN)/specdiff rules --format markdown > docs/rules.md
	$(BIN)/python -c 'from specdiff.classify.cards import write_compiled; write_compiled()'
	$(BIN)/python -c 'from specdiff.diff.cel_grammar import write_tables; write_tables()'
	$(BIN)/python -c 'from specdiff.frozen import write_inits; write_inits()'

# Whole-process wall time, CPU time and peak memory per case (docs/performance.md); timings are never a failure.
bench: setup
	$(BIN)/python -m benchmarks $(if $(QUICK),--quick)

bench-quick: setup
	$(BIN)/python -m benchmarks --quick

# The findings of every real pair against those of an earlier build (`python -m benchmarks.verdicts BEFORE` run
# there): fails when any line moved. VERDICTS_BEFORE=... VERDICTS_AFTER=...
VERDICTS_BEFORE ?= /tmp/vbase
VERDICTS_AFTER ?= /tmp/verdicts-$(shell git rev-parse --short HEAD)
verdicts: setup
	$(BIN)/python -m benchmarks.verdicts $(VERDICTS_AFTER) --against $(VERDICTS_BEFORE)

# the long mutation fuzz of the real specs; COUNT=... SEED=... to change it
fuzz: setup
	$(BIN)/python tests/fuzzing.py --seed $(or $(SEED),1) --count $(or $(COUNT),20000)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info
