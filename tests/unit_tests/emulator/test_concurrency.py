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
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, async_transport
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


def test_one_link_gets_an_alias_asked_for_at_once(
    app: Starlette, state: EmulatorState, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = state.store
    monkeypatch.setattr(store, "initiate_account", _slowed(store.initiate_account))
    for trial in range(TRIALS):
        session_id = _new_session(app)
        body = {"toolkit": "github", "alias": f"work{trial}"}
        statuses = _all_at_once(app, "POST", f"{V31}/session/{session_id}/link", [body] * THREADS)
        assert sorted(statuses) == [201] + [400] * (THREADS - 1)


NOTE = {"title": "t", "content": "c"}
AFTER_LOOKUP = [
    pytest.param("PATCH", "", {"search": {"enable": False}}, id="patch"),
    pytest.param("POST", "/link", {"toolkit": "github"}, id="link"),
    pytest.param(
        "POST", "/execute", {"tool_slug": "NOTES_CREATE_NOTE", "arguments": NOTE}, id="execute"
    ),
    pytest.param(
        "POST",
        "/proxy_execute",
        {"toolkit_slug": "notes", "endpoint": "/notes", "method": "POST", "body": NOTE},
        id="proxy",
    ),
]


@pytest.mark.parametrize(("method", "suffix", "body"), AFTER_LOOKUP)
def test_a_session_deleted_after_lookup_is_not_changed(
    client: TestClient,
    state: EmulatorState,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    suffix: str,
    body: dict[str, Any],
) -> None:
    """A DELETE landing between the handler's lookup and its change wins: 404, nothing done."""
    session_id = client.post(f"{V31}/session", json={"user_id": "late"}).json()["session_id"]
    parse_body = handlers_module.parse_body

    async def delete_meanwhile(request: Any, model: Any) -> Any:
        parsed = await parse_body(request, model)
        assert state.store.delete_session("project-a", session_id)
        return parsed

    monkeypatch.setattr(handlers_module, "parse_body", delete_meanwhile)
    accounts_before = sum(len(user.accounts) for user in state.store.users.values())
    response = client.request(method, f"{V31}/session/{session_id}{suffix}", json=body)
    assert response.status_code == 404, response.text
    assert response.json()["error"]["slug"] == "ToolRouterV2_SessionNotFound"
    assert sum(len(user.accounts) for user in state.store.users.values()) == accounts_before
    notes = [u.toolkit_state.get("notes", {}) for u in state.store.users.values()]
    assert not any(n.get("notes") for n in notes)


def test_an_upload_after_delete_leaves_no_file(
    client: TestClient, state: EmulatorState, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = client.post(f"{V31}/session", json={"user_id": "late"}).json()["session_id"]
    upload_url = client.post(
        f"{V31}/session/{session_id}/mounts/files/upload_url", json={"mount_relative_path": "a.txt"}
    ).json()["upload_url"]
    presigned_target = handlers_module._presigned_target

    def delete_meanwhile(request: Any, method: str) -> tuple[str, str, str]:
        target = presigned_target(request, method)
        assert client.delete(f"{V31}/session/{session_id}").status_code == 200
        return target

    monkeypatch.setattr(handlers_module, "_presigned_target", delete_meanwhile)
    with TestClient(client.app) as keyless:
        response = keyless.put(upload_url, content=b"late")
    assert response.status_code == 404
    assert not (state.mounts.root / session_id).exists()
