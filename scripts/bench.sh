#!/usr/bin/env bash
# Install the comparison libraries, then run a benchmark:
#   bash scripts/bench.sh [schema|call|search|middleware|all] [arguments...]
# `schema` (the default) runs benchmarks/bench_schema.py, `call` runs benchmarks/bench_call.py,
# `all` runs both; the other arguments go to the benchmark (e.g. `bash scripts/bench.sh --quick
# --json out.json`, `bash scripts/bench.sh call --quick`; with `all`, only --quick or --smoke).
# `search` and `middleware` install the BFCL v4 data (the bfcl-eval package, --no-deps: only its
# data files are read; its pinned requirements would downgrade numpy) and run
# benchmarks/bench_search.py or benchmarks/bench_middleware.py; they need none of the comparison
# libraries.
#
# composio 0.30 cannot be installed the ordinary way: it pins certifi>=2026.10.19, a release the
# package index does not have, and it needs composio-client 2.0.0rc19 while our test extra pins
# composio-client 1.43.0. So composio, composio-langchain and just the requirements they need to
# import (checked with `pip download --no-deps` + their METADATA) go with --no-deps into a folder of
# their own inside the environment, which only the benchmark puts on sys.path. Everything else they
# import (pydantic, jsonschema, json-schema-to-pydantic, requests, httpx, langchain-core...) is
# the environment's own.
set -euo pipefail
cd "$(dirname "$0")/.."

WHICH=schema
case "${1:-}" in
  schema | call | search | middleware | all) WHICH="$1"; shift ;;
esac

PY="${PYTHON:-python}"
if [[ "$WHICH" == search || "$WHICH" == middleware ]]; then
  printf '==> BFCL v4 data (bfcl-eval, --no-deps)\n'
  "$PY" -m pip install -qq --disable-pip-version-check --no-deps bfcl-eval
  printf '==> %s benchmark (quiet the machine first: it measures time)\n' "$WHICH"
  exec "$PY" "benchmarks/bench_$WHICH.py" "$@"
fi
TARGET="${TOOLROUTER_BENCH_PACKAGES:-$("$PY" -c 'import sys; print(sys.prefix)')/toolrouter-bench-packages}"

printf '==> comparison libraries into the environment (%s)\n' "$("$PY" -c 'import sys; print(sys.prefix)')"
"$PY" -m pip install -qq --disable-pip-version-check \
  "json-schema-to-pydantic>=0.4.11,<1" \
  "langchain-mcp-adapters>=0.3.2,<0.4" \
  "hypothesis>=6.100,<=6.170.9" "hypothesis-jsonschema==0.23.1" "jsonschema>=4.20" \
  "langchain-core>=1.0,<2" "requests>=2.26"

printf '==> composio 0.30 and what it needs to import into %s (--no-deps)\n' "$TARGET"
"$PY" -m pip install -qq --disable-pip-version-check --no-deps --upgrade --target "$TARGET" \
  "composio==0.30.0" "composio-langchain==0.30.0" "composio-client==2.0.0rc19" \
  "pysher==1.0.8" "websocket-client<2" \
  "openai>=2.48,<3" "jiter>=0.10,<1" "tqdm>4"

export TOOLROUTER_BENCH_PACKAGES="$TARGET"
if [[ "$WHICH" != call ]]; then
  printf '==> schema benchmark\n'
  "$PY" benchmarks/bench_schema.py "$@"
fi
if [[ "$WHICH" != schema ]]; then
  printf '==> call benchmark (quiet the machine first: it measures latency)\n'
  "$PY" benchmarks/bench_call.py "$@"
fi
