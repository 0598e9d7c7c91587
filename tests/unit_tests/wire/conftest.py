"""Fixtures of the wire tests: the fake service and clients of both flavours."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from langchain_toolrouter import ToolRouterClient
from langchain_toolrouter.wire.retry import RetryPolicy
from tests.unit_tests.wire._fakes import AnyClient, FakeService, make_client


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture(params=["sync", "async"])
def flavor(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def sleeps() -> list[float]:
    """Waits the client asked for (recorded instead of slept)."""
    return []


@pytest.fixture
async def client(
    flavor: str, service: FakeService, sleeps: list[float]
) -> AsyncIterator[AnyClient]:
    """A client over the fake service; waits recorded in ``sleeps``."""
    made = make_client(flavor, service, sleeps, retry=RetryPolicy(max_attempts=4))
    yield made
    if isinstance(made, ToolRouterClient):
        made.close()
    else:
        await made.aclose()
