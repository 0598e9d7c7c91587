"""Check-then-act handlers are atomic across threads: the in-process transport may be used from
several threads, each with its own event loop, so the store's lock is all that orders them.

The race tests widen the window between a handler's check and its change (a short sleep in a
helper the handler calls there), so the unguarded code fails every run instead of now and then.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from langchain_toolrouter.emulator import async_transport
from langchain_toolrouter.emulator import handlers as handlers_module
from tests.unit_tests.emulator.calls import API_KEY, V31

THREADS = 8
TRIALS = 4


@pytest.fixture(autouse=True)
def _fast_switching() -> Iterator[None]:
    """Switch threads as often as possible, so interleavings the lock must prevent happen."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def _slowed(function: Callable[..., Any]) -> Callable[..., Any]:
    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.002)  # lets the other threads run between the check and the change
        return function(*args, **kwargs)

    return slow


def _request(app: Starlette, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """One request on a fresh event loop in the calling thread; (status, JSON body)."""

    async def send() -> tuple[int, Any]:
        transport = async_transport(app)
        headers = {"x-api-key": API_KEY}
        async with httpx.AsyncClient(transport=transport, base_url="http://emulator") as client:
            response = await client.request(method, path, json=body, headers=headers)
            return response.status_code, response.json()

    return asyncio.run(send())


def _all_at_once(app: Starlette, method: str, path: str, bodies: list[dict[str, Any]]) -> list[int]:
    """Send the requests from as many threads, released together; their status codes."""
    barrier = threading.Barrier(len(bodies))

    def one(body: dict[str, Any]) -> int:
        barrier.wait()
        status: int = _request(app, method, path, body)[0]
        return status

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(one, bodies))


def _new_session(app: Starlette) -> str:
    status, body = _request(app, "POST", f"{V31}/session", {"user_id": "racer"})
    assert status == 201
    session_id: str = body["session_id"]
    return session_id


def test_one_conditional_patch_wins_per_version(
    app: Starlette, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handlers_module, "patch_config", _slowed(handlers_module.patch_config))
    for _ in range(TRIALS):
        session_id = _new_session(app)
        bodies = [
            {"toolkits": {"enable": [["notes", "github"][i % 2]]}, "expected_config_version": 1}
            for i in range(THREADS)
        ]
        statuses = _all_at_once(app, "PATCH", f"{V31}/session/{session_id}", bodies)
        assert sorted(statuses) == [200] + [409] * (THREADS - 1)
        _, session = _request(app, "GET", f"{V31}/session/{session_id}")
        assert session["config_version"] == 2
