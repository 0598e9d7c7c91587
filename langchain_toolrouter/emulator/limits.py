"""The request-body limit: a body over it is refused (413) before anything reads or parses it.

A declared `Content-Length` over the limit is answered at once, without reading the body (the
connection is closed after the answer); a body sent without one is counted as it arrives and
refused as soon as it passes the limit. Presigned file uploads are not API bodies: they have
their own, larger limit (a mount file's size), checked by their handler.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from langchain_toolrouter.emulator.errors import EmulatorError, error_body
from langchain_toolrouter.emulator.middleware import request_id_of

__all__ = ["DEFAULT_MAX_BODY_BYTES", "BodyLimitMiddleware", "body_too_large"]

#: The default limit of a request body: far above any real API request, far below a body whose
#: parsing would hold up every other client.
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024

_UNLIMITED_PREFIXES = ("/_emulator/files/",)


def body_too_large(limit: int) -> EmulatorError:
    """The 413 of a body over `limit` bytes."""
    return EmulatorError(
        413,
        "ToolRouterV2_PayloadTooLarge",
        4130,
        f"The request body is larger than the {limit} byte limit of this service.",
        suggested_fix="Send a smaller body: upload large data as a mount file (upload_url) and "
        "pass its path instead (the emulator's limit is create_app(max_body_bytes=...)).",
    )


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = bytes(value).strip()
            return int(text) if text.isdigit() else None
    return None


class BodyLimitMiddleware:
    """Refuse request bodies over `max_bytes` (413 with the service's error body)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(_UNLIMITED_PREFIXES):
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # Raised in the handler's read: the app's error handler answers it.
                    raise body_too_large(self.max_bytes)
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        request_id = request_id_of(scope)
        body = json.dumps(error_body(body_too_large(self.max_bytes), request_id)).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"x-request-id", request_id.encode("latin-1")),
            # The unread body stays on the connection: the server closes it after this answer.
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
