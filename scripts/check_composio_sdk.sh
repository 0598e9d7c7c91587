#!/usr/bin/env bash
# The official composio SDK against the emulator, in a virtual environment of its own:
# composio 0.30 pins composio-client 2.0.0rc19, which cannot share an environment with the
# composio-client 1.43.0 that the contract tests pin (the test extra). One test module runs
# here, tests/integration_tests/test_composio_sdk.py; everywhere else it is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

printf '\n==> the composio SDK (0.30) against the emulator, in its own environment\n'
venv=.venv-ci-composio
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[emulator]" \
    "composio==0.30.0" "pytest>=8" "pytest-asyncio>=0.24" "hypothesis>=6.100,<=6.170.9"
"$venv/bin/python" -m pip list 2>/dev/null | grep -E '^(composio|composio-client) '
"$venv/bin/python" -m pytest tests/integration_tests/test_composio_sdk.py -q -p no:cacheprovider
