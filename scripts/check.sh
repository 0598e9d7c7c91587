#!/usr/bin/env bash
# The project's whole check, as the README's test command runs it: lint, format, types, tests
# (unit with sockets off, integration on loopback, property tests), the strict docs build, and every
# notebook run afresh with its saved outputs compared to the run.
# Run it from an environment where `pip install -e ".[test,docs]"` has been done.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "ruff check"
python -m ruff check .
step "ruff format --check"
python -m ruff format --check .
step "mypy --strict"
python -m mypy
step "imports: every module loads, and the runtime path never loads the emulator"
python scripts/check_imports.py
step "imports: only down the layers (import-linter contracts in pyproject.toml, none ignored)"
lint-imports --no-cache
step "docs: mkdocs build --strict"
# No --quiet: it drops warnings before --strict counts them, so the build would pass with them.
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --site-dir "$(mktemp -d)"
step "pytest: unit, integration (emulator on loopback) and property tests"
python -m pytest tests "$@"
step "notebooks: each runs, and its saved outputs match the run (make notebooks-refresh updates them)"
python scripts/notebooks.py --check
