# Each target has one meaning; `make check` is what CI runs (scripts/check.sh).
PY ?= python

.PHONY: check test unit integration notebooks notebooks-refresh lint format typing docs charts screenshots check_imports bench demo emulator

check:
	bash scripts/check.sh

test:
	$(PY) -m pytest tests

unit:
	$(PY) -m pytest tests/unit_tests

integration:
	$(PY) -m pytest tests/integration_tests

# Run every notebook against the embedded emulator; fail if an output saved in it is stale.
notebooks:
	$(PY) scripts/notebooks.py --check

# Run every notebook and save its outputs (only the cells whose outputs changed are rewritten).
notebooks-refresh:
	$(PY) scripts/notebooks.py

lint:
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format:
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

typing:
	$(PY) -m mypy

docs:
	$(PY) -m mkdocs build --strict

# The benchmarks' charts (docs/assets/charts/*.svg) drawn again from benchmarks/results/*.json.
charts:
	$(PY) scripts/charts.py

# The site in headless Chromium at 1280 px: screenshots, cut-off tables, diagrams parsed (needs chromium).
screenshots:
	$(PY) scripts/screenshots.py

check_imports:
	$(PY) scripts/check_imports.py

bench:
	bash scripts/bench.sh

demo:
	$(PY) -m langchain_toolrouter demo

emulator:
	$(PY) -m langchain_toolrouter.emulator
