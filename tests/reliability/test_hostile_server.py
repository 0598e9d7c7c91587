"""The client against a hostile server on loopback: an endless chunked body, a 300 MB body, a
gzip bomb, a body at 4 bytes/s, a 5,000-digit integer and 100k-deep nesting.

Each call ends with a library error within the configured deadline (plus a generous margin
for a loaded machine), the client's memory grows by less than twice the configured size limit
(traced allocations, the server's included), and a session tool answers an error ToolMessage
every time, sync and async. Small limits keep it fast: 1 MiB and 1.5 s.
"""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Iterator
from types import TracebackType
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from langchain_toolrouter import AsyncToolRouterClient, ToolRouter, ToolRouterClient, errors
from tests.reliability.hostile import ANSWERS, SESSION, TOOL_SLUG, HostileServer, gzip_bomb

LIMIT = 1024 * 1024
DEADLINE = 1.5
MARGIN = 20.0  # the machine is shared: only "ended, not hung" is asserted
EXPECTED: dict[str, type[errors.ToolRouterError]] = {
    "endless chunked body": errors.ResponseTooLargeError,
    "300 MB body (Content-Length)": errors.ResponseTooLargeError,
    "300 MB body (until close)": errors.ResponseTooLargeError,
    "gzip bomb (300 KB to 300 MiB)": errors.ResponseTooLargeError,
    "body at 4 bytes/s": errors.DeadlineExceededError,
    "5,000-digit integer": errors.ResponseValidationError,
    "100k-deep nesting": errors.ResponseValidationError,
}
SID = str(SESSION["session_id"])
CALL = {"type": "tool_call", "id": "c1", "name": TOOL_SLUG, "args": {"key": "k"}}


@pytest.fixture(scope="module")
def server() -> Iterator[HostileServer]:
    with HostileServer() as running:
        yield running


def options(server: HostileServer) -> dict[str, Any]:
    return {
        "api_key": "ak_hostile",
        "base_url": server.base_url,
        "max_response_bytes": LIMIT,
        "attempt_deadline": DEADLINE,
        "timeout": 5.0,
        "execute_timeout": 5.0,
    }


class Measured:
    """Wall time and the peak growth of traced memory over a block."""

    seconds = 0.0
    growth = 0

    def __enter__(self) -> Measured:
        gc.collect()
        tracemalloc.start()
        self._base = tracemalloc.get_traced_memory()[0]
        self._started = time.monotonic()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.seconds = time.monotonic() - self._started
        self.growth = tracemalloc.get_traced_memory()[1] - self._base
        tracemalloc.stop()

    def check(self) -> None:
        assert self.seconds < DEADLINE + MARGIN, f"took {self.seconds:.1f}s"
        assert self.growth < 2 * LIMIT, f"memory grew by {self.growth:,} bytes"


def test_every_answer_is_covered() -> None:
    assert set(EXPECTED) == set(ANSWERS)
    bomb = gzip_bomb()
    assert 250_000 < len(bomb) < 400_000  # about 300 KB, expanding to 300 MiB


@pytest.mark.parametrize("answer", list(ANSWERS))
def test_the_sync_client_ends_with_a_library_error(server: HostileServer, answer: str) -> None:
    with ToolRouterClient(**options(server)) as client:
        client.get_session(SID)  # the connection pool and the code paths warmed up
        server.answer = answer
        with Measured() as measured, pytest.raises(errors.ToolRouterError) as caught:
            client.execute(SID, TOOL_SLUG, {"key": "k"})
    assert isinstance(caught.value, EXPECTED[answer]), caught.value
    assert caught.value.request_sent is True  # type: ignore[attr-defined]
    measured.check()


@pytest.mark.parametrize("answer", list(ANSWERS))
async def test_the_async_client_ends_with_a_library_error(
    server: HostileServer, answer: str
) -> None:
    async with AsyncToolRouterClient(**options(server)) as client:
        await client.get_session(SID)
        server.answer = answer
        with Measured() as measured, pytest.raises(errors.ToolRouterError) as caught:
            await client.execute(SID, TOOL_SLUG, {"key": "k"})
    assert isinstance(caught.value, EXPECTED[answer]), caught.value
    measured.check()


def _check_answer(message: Any, answer: str) -> None:
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert "MAY HAVE RUN" in message.content
    assert message.artifact["error_type"] == "ToolTransportError"
    assert message.artifact["request_sent"] is True
    said = {
        errors.ResponseTooLargeError: "max_response_bytes",
        errors.DeadlineExceededError: "attempt_deadline",
        errors.ResponseValidationError: "is not JSON this client reads",
    }
    assert said[EXPECTED[answer]] in message.content


@pytest.mark.parametrize("answer", list(ANSWERS))
def test_tool_invoke_answers_an_error_message(server: HostileServer, answer: str) -> None:
    with ToolRouter(**options(server)) as router:
        tool = router.create_session("u1").get_tools()[TOOL_SLUG]
        server.answer = "5,000-digit integer"
        tool.invoke(CALL)  # warmed up
        server.answer = answer
        with Measured() as measured:
            message = tool.invoke(CALL)
    _check_answer(message, answer)
    measured.check()


@pytest.mark.parametrize("answer", list(ANSWERS))
async def test_tool_ainvoke_answers_an_error_message(server: HostileServer, answer: str) -> None:
    async with ToolRouter(**options(server)) as router:
        session = await router.acreate_session("u1")
        tool = (await session.aget_tools())[TOOL_SLUG]
        server.answer = "5,000-digit integer"
        await tool.ainvoke(CALL)
        server.answer = answer
        with Measured() as measured:
            message = await tool.ainvoke(CALL)
    _check_answer(message, answer)
    measured.check()
