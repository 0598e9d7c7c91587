"""The reliability suite: the probes of a reliability run, kept as tests that CI runs in minutes.

Hostile input against the emulator (random MCP messages, slow and idle connections, uploads far
over their limit, clients that leave mid-body, schemathesis over its own OpenAPI document) and
against the client (a hostile server). Each test is seeded or scripted, so a failure repeats;
the full-size measurements (600 MB uploads, other clients' p99 latency, memory figures) are
`benchmarks/bench_emulator_limits.py`, whose results are in docs/benchmarks.md. Oversized API
bodies (413 before they are read, other clients served meanwhile) are
tests/integration_tests/test_emulator_abuse.py.
"""

from __future__ import annotations

import time

from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.emulator.faults import RequestRecord


def wait_for_record(
    server: EmulatorServer, operation: str, count: int = 1, timeout: float = 30.0
) -> list[RequestRecord]:
    """The request log's records of `operation`, once there are `count` of them (the server
    thread writes them when it is done with each request)."""
    deadline = time.monotonic() + timeout
    while len(records := server.log.filter(operation)) < count:
        assert time.monotonic() < deadline, f"{count} {operation} records never came: {records}"
        time.sleep(0.01)
    return records
