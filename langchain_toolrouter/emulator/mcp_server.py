"""Each session's MCP endpoint (streamable HTTP, stateless) at its `mcp.url`, on the official
`mcp` server SDK: a low-level `Server` with `tools/list` and `tools/call`, served by the SDK's
`StreamableHTTPSessionManager`.

`tools/list` answers the session's tools as `GET .../tools` lists them: name = slug, the input
schema, the description (and the name as title, the hint tags as MCP tool annotations).
`tools/call` sends the call to the session's own `POST .../execute` inside the app, so it takes
the path a REST call takes: meta tools, app tools, connection errors, fault rules and the
request log (where it shows as an `execute` beside the `mcp` request). A call that failed in the
tool or was refused is an MCP error result (`isError`) whose text is the service's JSON answer.

The HTTP request is checked first, as on the REST routes: no `x-api-key` or an unknown one is
401, an unknown or deleted session 404, each with the service's error body. The session manager
runs for the app's lifespan (`lifespan` below): servers run it (uvicorn, `EmulatorServer`, the
CLI), and so do `sync_transport`, an `async_transport` client entered with `async with`, and
`with TestClient(app)`; a request that arrives without it answers 503 saying so.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from langchain_toolrouter.emulator.context import base_url, session_for, state_of
from langchain_toolrouter.emulator.definitions import TAGS
from langchain_toolrouter.emulator.errors import EmulatorError
from langchain_toolrouter.emulator.middleware import request_id_of
from langchain_toolrouter.emulator.transports import call_app
from langchain_toolrouter.wire.operations import EXECUTE

__all__ = ["STATE_KEY", "McpEndpoint", "lifespan"]

#: Where the running session manager sits in the lifespan state (and so in each request's).
STATE_KEY = "toolrouter_mcp_sessions"


class _CallFailed(Exception):  # noqa: N818 - the SDK turns it into an `isError` result
    """A tool call that failed or was refused; its text is what the MCP client reads."""


def _http_request(server: Server[Any, Any]) -> Request:
    """The HTTP request that carried the MCP message being handled."""
    request = server.request_context.request
    assert isinstance(request, Request), "the streamable HTTP transport passes the request"
    return request


def _mcp_tool(item: dict[str, Any]) -> types.Tool:
    hints = {tag: True for tag in item.get("tags", ()) if tag in TAGS}
    return types.Tool(
        name=item["slug"],
        title=item["name"],
        description=item["description"],
        inputSchema=item["input_parameters"],
        annotations=types.ToolAnnotations(**hints) if hints else None,
    )


async def _execute(request: Request, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Run one call through the session's `POST .../execute` in this app.

    Raises:
        _CallFailed: the tool failed (its execute answer), the call was refused (the service's
            error body), or an injected fault cut the connection.
    """
    _, record = session_for(request)
    path = f"/api/{record.api_version}{EXECUTE.render_path({'session_id': record.id})}"
    headers = {"x-request-id": request_id_of(request.scope), "content-type": "application/json"}
    for header in ("x-api-key", "x-user-api-key"):
        if header in request.headers:
            headers[header] = request.headers[header]
    # ASCII JSON: text that execute refuses (a lone surrogate) reaches it escaped, and is refused.
    content = json.dumps({"tool_slug": name, "arguments": arguments}).encode()
    url = base_url(request).rstrip("/") + path
    sent = httpx.Request("POST", url, headers=headers, content=content)
    try:
        response = await call_app(request.app, sent)
    except httpx.RemoteProtocolError as exc:
        raise _CallFailed(
            f"The connection to the tool was cut ({exc}; a fault rule of the emulator); the "
            "tool may or may not have run."
        ) from exc
    body: dict[str, Any] = response.json()
    if response.status_code != 200 or body.get("error") is not None:
        raise _CallFailed(json.dumps(body, ensure_ascii=False))
    return body


def _build_server() -> Server[Any, Any]:
    server: Server[Any, Any] = Server("toolrouter-emulator")

    async def list_tools() -> list[types.Tool]:
        request = _http_request(server)
        _, record = session_for(request)
        return [_mcp_tool(item) for item in state_of(request).session_tools(record).items]

    async def call_tool(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await _execute(_http_request(server), name, arguments)

    # The SDK's registering decorators carry no types; the handlers above do.
    server.list_tools()(list_tools)  # type: ignore[no-untyped-call]
    # The emulator checks arguments itself, as on POST .../execute (the answer is the same).
    server.call_tool(validate_input=False)(call_tool)
    return server


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
    """Run a fresh session manager for one lifespan of the app (a manager runs only once, and
    a stopped `EmulatorServer` may start again)."""
    del app
    manager = StreamableHTTPSessionManager(_build_server(), stateless=True, json_response=True)
    async with manager.run():
        yield {STATE_KEY: manager}


class McpEndpoint:
    """The ASGI endpoint at `/tool_router/{session_id}/mcp`."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session_for(Request(scope, receive))
        manager = scope.get("state", {}).get(STATE_KEY)
        if not isinstance(manager, StreamableHTTPSessionManager):
            raise EmulatorError(
                503,
                "Emulator_McpNotRunning",
                5030,
                "The MCP endpoint runs with the app's lifespan, which was not started.",
                suggested_fix="Serve the app with EmulatorServer, the CLI or uvicorn; in-process, "
                "enter the client (`async with httpx.AsyncClient(transport=async_transport(app))`"
                ", or `with TestClient(app)`).",
            )
        await manager.handle_request(scope, receive, send)
