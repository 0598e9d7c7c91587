"""A session's tool whose execute gets an answer no client can use answers the model with an
error ToolMessage ("may have run"), sync and async, and never raises into the agent."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from langchain_core.messages import ToolMessage

from langchain_toolrouter import ToolRouter
from tests.unit_tests.langchain.test_call_path import SESSION, TOOLS

LIMIT = 50_000


class Endless(httpx.SyncByteStream, httpx.AsyncByteStream):
    def __iter__(self) -> Iterator[bytes]:
        while True:
            yield b" " * 4096

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            yield b" " * 4096


def _wrap(value: bytes) -> bytes:
    return b'{"data": {"v": ' + value + b'}, "error": null, "log_id": "l", "successful": true}'


ANSWERS: dict[str, Any] = {
    "5000-digit integer": _wrap(b"9" * 5000),
    "100k-deep nesting": _wrap(b"[" * 100_000 + b"]" * 100_000),
    "300-deep nesting": _wrap(b"[" * 300 + b"]" * 300),
    "invalid UTF-8": _wrap(b'"\xff\xfe"'),
    "half a surrogate pair": _wrap(b'"\\udc00"'),
    "not JSON": b"<html>502 Bad Gateway</html>",
    "broken gzip": ("gzip", b"this is not gzip"),
    "gzip bomb": ("gzip", gzip.compress(b"[" * (5 * 1024 * 1024))),
    "endless body": Endless(),
}


def _service(answer: Any) -> httpx.MockTransport:
    def respond(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/tools"):
            return httpx.Response(200, json=TOOLS)
        if request.url.path.endswith("/execute"):
            if isinstance(answer, Endless):
                return httpx.Response(200, stream=answer)
            if isinstance(answer, tuple):
                return httpx.Response(200, content=answer[1], headers={"content-encoding": "gzip"})
            return httpx.Response(200, content=answer)
        return httpx.Response(201, json=SESSION)

    return httpx.MockTransport(respond)


CALL = {"type": "tool_call", "id": "c1", "name": "NOTES_KV_GET", "args": {"key": "k"}}


def _check(message: Any) -> None:
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert "MAY HAVE RUN" in message.content
    assert message.artifact["request_sent"] is True
    assert message.artifact["error_type"] == "ToolTransportError"


@pytest.mark.parametrize("name", list(ANSWERS))
def test_invoke_answers_an_error_message(name: str) -> None:
    http = httpx.Client(transport=_service(ANSWERS[name]))
    base = "https://api.example.test"
    with ToolRouter(api_key="ak_x", base_url=base, http_client=http, max_response_bytes=LIMIT) as r:
        tool = r.create_session("u1").get_tools()["NOTES_KV_GET"]
        _check(tool.invoke(CALL))


@pytest.mark.parametrize("name", list(ANSWERS))
async def test_ainvoke_answers_an_error_message(name: str) -> None:
    http = httpx.AsyncClient(transport=_service(ANSWERS[name]))
    async with ToolRouter(
        api_key="ak_x",
        base_url="https://api.example.test",
        async_http_client=http,
        max_response_bytes=LIMIT,
    ) as router:
        session = await router.acreate_session("u1")
        tool = (await session.aget_tools())["NOTES_KV_GET"]
        _check(await tool.ainvoke(CALL))
