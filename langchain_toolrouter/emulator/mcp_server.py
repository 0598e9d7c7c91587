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
401, an unknown or deleted session 404, each with the service's error body. Then its body is read
by the REST rules (`strict_json`: UTF-8, no byte order mark, no NaN or infinities, nesting, lone
surrogates) before the MCP library sees it: a body they refuse is a JSON-RPC parse error (HTTP
400) carrying the service's error in its `data`, never a 500 and never a value quietly changed
(the library would read NaN, and write it back as null). A call's arguments then go to execute
as the text the client sent, not read and written again. The session manager
runs for the app's lifespan (`lifespan` below): servers run it (uvicorn, `EmulatorServer`, the
CLI), and so do `sync_transport`, an `async_transport` client entered with `async with`, and
`with TestClient(app)`; a request that arrives without it answers 503 saying so.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import mcp
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from langchain_toolrouter.emulator.context import base_url, session_for, state_of
from langchain_toolrouter.emulator.definitions import TAGS
from langchain_toolrouter.emulator.errors import EmulatorError, error_body
from langchain_toolrouter.emulator.middleware import request_id_of
from langchain_toolrouter.emulator.strict_json import member_text, read_json
from langchain_toolrouter.emulator.transports import call_app
from langchain_toolrouter.wire.operations import EXECUTE

__all__ = ["STATE_KEY", "McpEndpoint", "lifespan"]

#: Where the running session manager sits in the lifespan state (and so in each request's).
STATE_KEY = "toolrouter_mcp_sessions"
#: Where a `tools/call`'s arguments, as sent, wait in the request's state for the handler.
_ARGUMENTS_KEY = "toolrouter_mcp_arguments"


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


async def _execute(request: Request, name: str) -> dict[str, Any]:
    """Run one call through the session's `POST .../execute` in this app, with the arguments
    as the client sent them.

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
    arguments = request.scope["state"].get(_ARGUMENTS_KEY) or "{}"
    # No longer than the MCP body it comes from: what passed its size limit passes execute's.
    content = f'{{"tool_slug":{json.dumps(name, ensure_ascii=False)},"arguments":{arguments}}}'
    url = base_url(request).rstrip("/") + path
    sent = httpx.Request("POST", url, headers=headers, content=content.encode())
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


def _text_result(
    text: str, *, error: bool, data: dict[str, Any] | None = None
) -> types.ServerResult:
    content = [types.TextContent(type="text", text=text)]
    return types.ServerResult(
        types.CallToolResult(content=content, structuredContent=data, isError=error)
    )


def _build_server() -> Server[Any, Any]:
    server: Server[Any, Any] = Server("toolrouter-emulator")

    async def list_tools() -> list[types.Tool]:
        request = _http_request(server)
        _, record = session_for(request)
        return [_mcp_tool(item) for item in state_of(request).session_tools(record).items]

    async def call_tool(call: types.CallToolRequest) -> types.ServerResult:
        # Registered as the request's handler itself: the SDK's `call_tool` decorator would
        # look the tool up in a listing first (built again, and a warning logged, for every
        # tool not in `tools/list`), though the emulator checks arguments as execute does.
        try:
            body = await _execute(_http_request(server), call.params.name)
        except _CallFailed as failed:
            return _text_result(str(failed), error=True)
        return _text_result(json.dumps(body, indent=2), error=False, data=body)

    # The SDK's registering decorator carries no types; the handler above does.
    server.list_tools()(list_tools)  # type: ignore[no-untyped-call]
    server.request_handlers[types.CallToolRequest] = call_tool
    return server


class _OneLineValidationErrors(logging.Filter):
    """The MCP library logs each message it cannot validate (an unknown method, bad params) as
    a root WARNING with pydantic's whole report, dozens of lines; the client has its JSON-RPC
    error already. Such a record becomes its first line, at DEBUG."""

    _package = str(Path(mcp.__file__).parent)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.pathname.startswith(self._package) and str(record.msg).startswith(
            "Failed to validate"
        ):
            record.msg = record.getMessage().split("\n", 1)[0]
            record.args = ()
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


_VALIDATION_ERRORS = _OneLineValidationErrors()


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
    """Run a fresh session manager for one lifespan of the app (a manager runs only once, and
    a stopped `EmulatorServer` may start again)."""
    del app
    # The library logs them with `logging.warning`: on the root logger itself, where a filter
    # sees its records only (not those of other loggers). Added once, whatever the apps.
    logging.getLogger().addFilter(_VALIDATION_ERRORS)
    manager = StreamableHTTPSessionManager(_build_server(), stateless=True, json_response=True)
    async with manager.run():
        yield {STATE_KEY: manager}


class McpEndpoint:
    """The ASGI endpoint at `/tool_router/{session_id}/mcp`."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        session_for(request)
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
        if scope["method"] == "POST":  # the route takes no other
            raw = await request.body()
            try:
                message = read_json(raw)
            except EmulatorError as refused:
                await _parse_error(refused, scope, receive, send)
                return
            if isinstance(message, dict) and message.get("method") == "tools/call":
                scope["state"][_ARGUMENTS_KEY] = _arguments(raw.decode())
            receive = _replay(raw, receive)
        await manager.handle_request(scope, receive, send)


def _arguments(text: str) -> str | None:
    """A `tools/call`'s arguments as sent; None when absent or null (no arguments)."""
    arguments = member_text(text, "params", "arguments")
    return None if arguments == "null" else arguments


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands over the body read already, then passes on what comes next (a
    disconnect)."""
    pending = True

    async def replay() -> Message:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _parse_error(error: EmulatorError, scope: Scope, receive: Receive, send: Send) -> None:
    """The JSON-RPC answer to a body the REST rules refuse: a parse error (HTTP 400, as the
    MCP library answers one) whose `data` is the service's error."""
    request_id = request_id_of(scope)
    answer = {
        "jsonrpc": "2.0",
        # No id could be read (or trusted) from the body: the library's own placeholder.
        "id": "server-error",
        "error": {
            "code": types.PARSE_ERROR,
            "message": f"Parse error: {error.message}",
            "data": error_body(error, request_id)["error"],
        },
    }
    response = JSONResponse(answer, status_code=400, headers={"x-request-id": request_id})
    await response(scope, receive, send)
