"""The bounds of a request body: its size, and the connection it leaves behind when an answer
comes before it was read. (The time it may take to arrive is the server's: `connections`.)

- **Size**: a declared `Content-Length` over the limit is answered 413 at once, without reading
  the body; a body sent without one is counted as it arrives and refused as soon as it passes
  the limit. Presigned file uploads are not API bodies: they have their own, larger limit (a
  mount file's size), checked by their handler as the bytes stream in.
- **An unread body**: an answer sent before the body was read (a 413, a 401, a refused
  presigned upload) says `connection: close`, so the server closes the connection after it
  instead of leaving it open with the rest of the body waiting.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from langchain_toolrouter.emulator.defaults import DEFAULT_MAX_BODY_BYTES
from langchain_toolrouter.emulator.errors import EmulatorError, error_body
from langchain_toolrouter.emulator.middleware import request_id_of

__all__ = ["DEFAULT_MAX_BODY_BYTES", "BodyLimitMiddleware", "body_too_large"]

_UNLIMITED_PREFIXES = ("/_emulator/files/",)
_CLOSE = (b"connection", b"close")


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


def _body_headers(scope: Scope) -> tuple[bool, int | None]:
    """Whether the request announces a body, and its declared length (None if unknown)."""
    announced, declared = False, None
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = bytes(value).strip()
            declared = int(text) if text.isdigit() else None
            announced = announced or declared != 0
        elif name == b"transfer-encoding":
            announced = True
    return announced, declared


class BodyLimitMiddleware:
    """Bound request bodies to `max_bytes` (413), and say `connection: close` on an answer that
    leaves one unread."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced, declared = _body_headers(scope)
        if not announced:  # nothing to bound (most GETs)
            await self.app(scope, receive, send)
            return
        limit = None if scope["path"].startswith(_UNLIMITED_PREFIXES) else self.max_bytes
        if limit is not None and declared is not None and declared > limit:
            await self._refuse(scope, send)
            return
        received = 0
        whole = False

        async def bounded() -> Message:
            nonlocal received, whole
            message = await receive()
            if whole:  # later reads wait for a disconnect
                return message
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if limit is not None and received > limit:
                    # Raised in the handler's read: the app's error handler answers it.
                    raise body_too_large(limit)
                whole = not message.get("more_body", False)
            else:  # http.disconnect
                whole = True
            return message

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start" and not whole:
                message = {**message, "headers": [*message.get("headers", []), _CLOSE]}
            await send(message)

        await self.app(scope, bounded, closing)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        request_id = request_id_of(scope)
        body = json.dumps(error_body(body_too_large(self.max_bytes), request_id)).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"x-request-id", request_id.encode("latin-1")),
            # The unread body stays on the connection: the server closes it after this answer.
            _CLOSE,
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})
