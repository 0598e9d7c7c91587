"""Fixtures for tests against an `EmulatorServer` on loopback (integration tests import these).

One server per test module; each test gets its own `ToolRouter` (fast retries, v3.1) and a
user id of its own, and any fault rules it adds are cleared afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.session import ToolRouter
from langchain_toolrouter.wire.retry import RetryPolicy

FAST_RETRY = RetryPolicy(max_attempts=2, wait=False)


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(seed=5) as running:
        yield running


def make_router(server: EmulatorServer, **options: object) -> ToolRouter:
    options.setdefault("retry", FAST_RETRY)
    options.setdefault("api_version", "v3.1")
    return ToolRouter(api_key=server.api_key, base_url=server.base_url, **options)  # type: ignore[arg-type]


@pytest.fixture
def router(server: EmulatorServer) -> Iterator[ToolRouter]:
    tool_router = make_router(server)
    try:
        yield tool_router
    finally:
        tool_router.close()
        server.faults.clear()


@pytest.fixture
async def arouter(server: EmulatorServer) -> AsyncIterator[ToolRouter]:
    """A router whose async client is closed on this test's event loop."""
    tool_router = make_router(server)
    try:
        yield tool_router
    finally:
        await tool_router.aclose()
        server.faults.clear()


@pytest.fixture
def user() -> str:
    return f"user-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def browser() -> Iterator[httpx.Client]:
    """The user's browser: opens connect links, never holds the API key."""
    with httpx.Client() as client:
        yield client


def ops(server: EmulatorServer, name: str, session_id: str | None = None) -> int:
    """How many `name` requests the server saw (for one session when given)."""
    return sum(
        1
        for record in server.log
        if record.operation == name and (session_id is None or session_id in record.path)
    )
