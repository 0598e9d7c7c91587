#!/usr/bin/env bash
# The tests on the lowest releases of the runtime dependencies and the emulator extra that
# pyproject.toml allows (scripts/lowest-constraints.txt), in a virtual environment of their own:
# a lower bound that claims too much fails here (tenacity 8.2 lacked an attribute the retry log
# read).
# langchain-tests, langgraph (and its Postgres store and server), langchain, composio-client and
# langchain-mcp-adapters need newer
# releases than those, so the test modules that use them are left out (the docs examples too:
# their pages use them); everything else runs.
set -euo pipefail
cd "$(dirname "$0")/.."

printf '\n==> pytest on the lowest allowed runtime dependencies\n'
venv=.venv-ci-lowest
python3 -m venv "$venv"
requirements=$(mktemp)
trap 'rm -f "$requirements"' EXIT
"$venv/bin/python" - >"$requirements" <<'PY'
import re

try:
    import tomllib
except ImportError:  # Python 3.10: pip's own copy of the same parser
    from pip._vendor import tomli as tomllib

with open("pyproject.toml", "rb") as f:
    test = tomllib.load(f)["project"]["optional-dependencies"]["test"]
left_out = {
    "langchain-toolrouter",
    "langchain-tests",
    "langgraph",
    "langgraph-checkpoint-postgres",
    "langgraph-cli",
    "langchain",
    "composio-client",
    "langchain-mcp-adapters",
}
print("\n".join(r for r in test if re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0] not in left_out))
PY
"$venv/bin/python" -m pip install --quiet -e ".[emulator]" -r "$requirements" \
    -c scripts/lowest-constraints.txt
"$venv/bin/python" -m pip list 2>/dev/null | grep -E '^(langchain-core|httpx|pydantic|tenacity|starlette|uvicorn|wordllama|numpy|jsonschema|mcp) '
"$venv/bin/python" -m pytest tests -q -p no:cacheprovider \
    --ignore tests/integration_tests/test_agent.py \
    --ignore tests/integration_tests/test_agent_connections.py \
    --ignore tests/integration_tests/test_agents_in_production.py \
    --ignore tests/integration_tests/test_middleware.py \
    --ignore tests/test_benchmark_middleware_smoke.py \
    --ignore tests/integration_tests/test_workers_sharing_a_store.py \
    --ignore tests/integration_tests/test_langgraph_server.py \
    --ignore tests/integration_tests/test_per_user_tools.py \
    --ignore tests/integration_tests/test_contract_composio_client.py \
    --ignore tests/unit_tests/wire/test_contract_official_types.py \
    --ignore tests/integration_tests/test_docs_examples.py \
    --ignore tests/integration_tests/test_mcp_adapters.py \
    --ignore tests/integration_tests/test_testing_plugin.py \
    --ignore tests/integration_tests/test_tools_standard.py \
    --ignore tests/unit_tests/langchain/test_tools_standard.py
