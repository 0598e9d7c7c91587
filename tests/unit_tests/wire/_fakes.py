"""A scripted fake service behind ``httpx.MockTransport``, and helpers to drive either client."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from langchain_toolrouter import AsyncToolRouterClient, ToolRouterClient
from langchain_toolrouter.wire.retry import RetryPolicy

API_KEY = "ak_test_SECRET_value_123"
BASE_URL = "https://toolrouter.test"

Responder = httpx.Response | Callable[[httpx.Request], httpx.Response]
AnyClient = ToolRouterClient | AsyncToolRouterClient


def raises(exc_type: type[httpx.TransportError], message: str = "boom") -> Responder:
    """A responder that fails the attempt with an httpx transport error."""

    def responder(request: httpx.Request) -> httpx.Response:
        raise exc_type(message, request=request)

    return responder


def reply(status: int, body: Any = None, headers: dict[str, str] | None = None) -> httpx.Response:
    if isinstance(body, str | bytes):
        return httpx.Response(status, content=body, headers=headers)
    return httpx.Response(status, json=body, headers=headers)


@dataclass
class FakeService:
    """Answers each (method, path) with scripted responders, in order; the last one repeats."""

    routes: dict[tuple[str, str], list[Responder]] = field(default_factory=dict)
    requests: list[httpx.Request] = field(default_factory=list)

    def on(self, method: str, path: str, *responders: Responder) -> None:
        self.routes[(method, path)] = list(responders)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        key = (request.method, request.url.raw_path.split(b"?")[0].decode())
        script = self.routes.get(key)
        if not script:
            return reply(404, {"error": {"message": f"no route {key}"}})
        responder = script.pop(0) if len(script) > 1 else script[0]
        if isinstance(responder, httpx.Response):
            return responder
        return responder(request)

    def body(self, index: int = -1) -> Any:
        return json.loads(self.requests[index].content)

    def request_ids(self) -> list[str | None]:
        return [request.headers.get("x-request-id") for request in self.requests]


def make_client(
    flavor: str,
    service: FakeService,
    sleeps: list[float] | None = None,
    **options: Any,
) -> AnyClient:
    options.setdefault("api_key", API_KEY)
    options.setdefault("base_url", BASE_URL)
    options.setdefault("retry", RetryPolicy(wait=False))
    transport = httpx.MockTransport(service)
    client: AnyClient
    if flavor == "sync":
        client = ToolRouterClient(http_client=httpx.Client(transport=transport), **options)
        if sleeps is not None:
            client._sleep = sleeps.append  # type: ignore[method-assign]
    else:
        client = AsyncToolRouterClient(
            http_client=httpx.AsyncClient(transport=transport), **options
        )
        if sleeps is not None:

            async def record(seconds: float) -> None:
                sleeps.append(seconds)

            client._sleep = record  # type: ignore[method-assign]
    return client


async def call(client: AnyClient, method: str, *args: Any, **kwargs: Any) -> Any:
    """Call ``method`` on either client; one test body serves both."""
    result = getattr(client, method)(*args, **kwargs)
    if inspect.isawaitable(result):
        return await result
    return result


async def collect(client: AnyClient, method: str, *args: Any, **kwargs: Any) -> list[Any]:
    """Drain an ``iter_*`` method of either client."""
    iterator = getattr(client, method)(*args, **kwargs)
    if hasattr(iterator, "__aiter__"):
        return [item async for item in iterator]
    return list(iterator)
