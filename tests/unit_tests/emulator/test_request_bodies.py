"""A request body's bounds: the time it may take, a client that leaves mid-body, an answer that
leaves it unread, and a presigned upload checked as it streams. Driven as ASGI, with the body's
chunks handed over one `receive()` at a time."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState
from langchain_toolrouter.emulator.middleware import BODY_TIMED_OUT
from tests.unit_tests.emulator.calls import API_KEY, V31

Message = dict[str, Any]


def _scope(method: str, path: str, *headers: tuple[bytes, bytes]) -> dict[str, Any]:
    raw_path, _, query = path.partition("?")
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": raw_path,
        "raw_path": raw_path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [*headers, (b"host", b"emulator")],
        "client": ("127.0.0.1", 1),
        "server": ("emulator", 80),
    }


def _chunks(
    *parts: bytes, then: Message | None = None
) -> tuple[Callable[[], Awaitable[Message]], list[int]]:
    """A `receive` handing over `parts` as body chunks, then `then` (or waiting forever: a client
    that sends no more); and the list of chunks taken, to see how far the app read."""
    taken: list[int] = []

    async def receive() -> Message:
        if len(taken) < len(parts):
            taken.append(len(parts[len(taken)]))
            return {"type": "http.request", "body": parts[len(taken) - 1], "more_body": True}
        if then is not None:
            return then
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    return receive, taken


async def _call(app: Starlette, scope: dict[str, Any], receive: Any) -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def _status_and_headers(sent: list[Message]) -> tuple[int, dict[bytes, bytes]]:
    start = sent[0]
    return int(start["status"]), dict(start["headers"])


@pytest.fixture
def state(app: Starlette) -> EmulatorState:
    emulator: EmulatorState = app.state.emulator
    return emulator


_JSON = (b"content-type", b"application/json")
_KEY = (b"x-api-key", API_KEY.encode())
_CHUNKED = (b"transfer-encoding", b"chunked")


async def test_a_client_that_leaves_mid_body_is_a_499_not_a_crash(
    app: Starlette, state: EmulatorState, caplog: pytest.LogCaptureFixture
) -> None:
    # It was a 500 with processed=True in the log, and a 53-line traceback from the server.
    receive, _ = _chunks(b'{"user_id": ', then={"type": "http.disconnect"})
    caplog.set_level(logging.DEBUG)
    sent = await _call(app, _scope("POST", f"{V31}/session", _KEY, _JSON, _CHUNKED), receive)
    assert sent == []  # nobody is there to answer
    record = state.log.filter("create_session")[0]
    assert (record.status, record.processed) == (499, False)
    assert state.store.sessions == {}
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def test_a_body_the_server_found_too_slow_is_a_408_in_the_log(
    app: Starlette, state: EmulatorState
) -> None:
    # The server closes such a connection (connections.py) after marking the request's state.
    receive, _ = _chunks(b'{"user_id": ', then={"type": "http.disconnect"})
    scope = _scope("POST", f"{V31}/session", _KEY, _JSON, _CHUNKED)
    scope["state"] = {BODY_TIMED_OUT: 30.0}
    assert await _call(app, scope, receive) == []
    record = state.log.filter("create_session")[0]
    assert (record.status, record.processed) == (408, False)


async def test_an_answer_that_leaves_the_body_unread_closes_the_connection(
    app: Starlette,
) -> None:
    # A 401 comes before the body is read: without `connection: close` the server kept the
    # connection open, its unread body waiting, once the answer was sent.
    receive, taken = _chunks(b'{"user_id": "u"}', then={"type": "http.request", "body": b""})
    sent = await _call(app, _scope("POST", f"{V31}/session", _JSON, _CHUNKED), receive)
    status, headers = _status_and_headers(sent)
    assert (status, headers[b"connection"]) == (401, b"close")
    assert taken == []
    # A body read to its end leaves the connection open for the next request.
    receive, _ = _chunks(b'{"user_id": "u"}', then={"type": "http.request", "body": b""})
    sent = await _call(app, _scope("POST", f"{V31}/session", _KEY, _JSON, _CHUNKED), receive)
    status, headers = _status_and_headers(sent)
    assert status == 201
    assert b"connection" not in headers


@pytest.fixture
def upload_url(app: Starlette, state: EmulatorState) -> str:
    state.mounts.max_upload_bytes = 10_000
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        session_id = client.post(f"{V31}/session", json={"user_id": "u"}).json()["session_id"]
        url: str = client.post(
            f"{V31}/session/{session_id}/mounts/files/upload_url",
            json={"mount_relative_path": "big.bin"},
        ).json()["upload_url"]
    return url.removeprefix("http://testserver")


async def test_an_upload_is_refused_as_soon_as_it_passes_the_limit(
    app: Starlette, state: EmulatorState, upload_url: str
) -> None:
    # The whole body was read into memory before the limit was checked (600 MB took 1.2 GB).
    chunk = b"x" * 1000
    receive, taken = _chunks(*[chunk] * 1000)  # 1 MB on offer, 100 times the limit
    sent = await _call(app, _scope("PUT", upload_url, _CHUNKED), receive)
    status, headers = _status_and_headers(sent)
    assert status == 413
    assert b"ToolRouterV2_FileTooLarge" in sent[1]["body"]
    assert headers[b"connection"] == b"close"
    assert len(taken) == 11  # read up to the chunk that passed the limit, no further
    files = [p for p in state.mounts.root.rglob("*") if p.is_file()]
    assert files == []  # nothing stored, the partial upload removed


async def test_an_upload_within_the_limit_streams_to_its_file(
    app: Starlette, state: EmulatorState, upload_url: str
) -> None:
    receive, _ = _chunks(b"a" * 6000, b"b" * 4000, then={"type": "http.request", "body": b""})
    sent = await _call(app, _scope("PUT", upload_url, _CHUNKED), receive)
    assert _status_and_headers(sent)[0] == 200
    session_id = upload_url.split("/")[3]
    stored = state.mounts.read(session_id, "files", "big.bin")
    assert stored == b"a" * 6000 + b"b" * 4000
    # An upload whose client leaves keeps the file as it was.
    receive, _ = _chunks(b"c" * 10, then={"type": "http.disconnect"})
    assert await _call(app, _scope("PUT", upload_url, _CHUNKED), receive) == []
    assert state.mounts.read(session_id, "files", "big.bin") == stored
    assert state.log.filter("presigned_upload")[-1].status == 499
    assert not list((state.mounts.root / ".incoming").iterdir())
