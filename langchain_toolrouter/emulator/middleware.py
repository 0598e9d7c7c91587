"""ASGI middleware that names each request's operation, applies fault rules and logs it.

It sits outside Starlette's routing, so it finds the operation by matching the app's routes
itself. Each request goes into the `RequestLog` and, when the app was made with
`access_log=True`, gives one line (method, path, status, milliseconds; never a query string,
a header or a body) on the `langchain_toolrouter.emulator.access` logger at INFO. A client that
leaves before its request body has arrived is recorded with status 499 (nginx's "client closed
request"), or 408 when the server closed it for sending its body too slowly, as not processed,
and nothing else is said: no answer, no traceback. A dropped connection is made the way a proxy or a crash makes one: the response head
announces more bytes than are sent, then the app raises `ConnectionDropped`, and the server
closes the socket; the client sees an incomplete message. With `drop="after"` the handler runs
first (its side effects happen) and only the response is lost.
"""

from __future__ import annotations

import json
import logging
import sys
import time
import uuid
from collections.abc import Sequence

import anyio
from starlette.requests import ClientDisconnect
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from langchain_toolrouter.emulator.errors import EmulatorError, error_body
from langchain_toolrouter.emulator.faults import FaultDecision, Faults, RequestLog, RequestRecord

__all__ = [
    "BODY_TIMED_OUT",
    "CLIENT_CLOSED_REQUEST",
    "ConnectionDropped",
    "FaultMiddleware",
    "request_id_of",
]

#: The request log's status of a request whose client left before sending all of it.
CLIENT_CLOSED_REQUEST = 499
#: Set in a request's scope state by the server that closed it for a body too slow to arrive.
BODY_TIMED_OUT = "toolrouter_body_timed_out"

ACCESS_LOGGER = logging.getLogger("langchain_toolrouter.emulator.access")


class ConnectionDropped(Exception):  # noqa: N818 - it names an event, not an error in the app
    """Raised to make the server cut the connection mid-response (an injected fault)."""


def request_id_of(scope: Scope) -> str:
    """The client's `x-request-id`, or a fresh `req_...` id (stored on the scope once made)."""
    state = scope.setdefault("state", {})
    existing = state.get("request_id")
    if isinstance(existing, str):
        return existing
    request_id = f"req_{uuid.uuid4().hex[:20]}"
    for name, value in scope.get("headers", []):
        if name == b"x-request-id":
            request_id = bytes(value).decode("latin-1")
            break
    state["request_id"] = request_id
    return request_id


def _header(scope: Scope, wanted: bytes) -> bool:
    return any(name == wanted for name, _ in scope.get("headers", []))


class FaultMiddleware:
    """Apply `Faults` per operation and record every request in a `RequestLog`."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        faults: Faults,
        log: RequestLog,
        routes: Sequence[BaseRoute],
        access_log: bool = False,
    ) -> None:
        self.app = app
        self.faults = faults
        self.log = log
        self.routes = routes
        self.access_log = access_log

    def _operation(self, scope: Scope) -> str:
        for route in self.routes:
            match, _ = route.matches(scope)
            if match == Match.FULL:
                name = getattr(route, "name", None)
                return name if isinstance(name, str) else "unknown"
        return "unknown"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        operation = self._operation(scope)
        request_id = request_id_of(scope)
        decision = self.faults.decide(operation)
        status_seen: list[int] = []

        def record(processed: bool, fault: str | None) -> None:
            status = status_seen[0] if status_seen else None
            self.log.append(
                RequestRecord(
                    operation=operation,
                    method=scope["method"],
                    path=scope["path"],
                    request_id=request_id,
                    processed=processed,
                    status=status,
                    had_api_key=_header(scope, b"x-api-key") or _header(scope, b"x-user-api-key"),
                    fault=fault,
                )
            )
            if self.access_log:
                _access_line(scope, operation, status, time.perf_counter() - started)

        if decision.latency:
            # A slow service has the whole request before it is slow: read the body first, so a
            # client that gives up during the wait leaves a request that still runs, as for real.
            receive = await _buffered(receive)
            await anyio.sleep(decision.latency)
        if decision.status is not None:
            status_seen.append(decision.status)
            record(False, f"status {decision.status}")
            await self._error(send, decision, request_id)
            return
        if decision.drop == "before":
            record(False, "drop before")
            await self._truncate(send, [])
            raise ConnectionDropped("connection dropped before the request was processed")

        captured: list[Message] = []
        recorded = False

        async def capture(message: Message) -> None:
            nonlocal recorded
            if message["type"] == "http.response.start":
                status_seen.append(int(message["status"]))
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"x-request-id" for name, _ in headers):
                    headers.append((b"x-request-id", request_id.encode("latin-1")))
                message = {**message, "headers": headers}
            if decision.drop == "after":
                captured.append(message)
                return
            if message["type"] == "http.response.start" and not recorded:
                # Log before the client can see any of the answer (a response hook may act on
                # the status line alone), so a caller that got it always finds it in the log.
                recorded = True
                record(True, None)
            await send(message)

        try:
            await self.app(scope, receive, capture)
        except ClientDisconnect:
            # The client left while its body was read: nobody waits for an answer.
            if not recorded:  # nothing ran
                recorded = True
                timed_out = BODY_TIMED_OUT in scope.get("state", {})
                status_seen[:] = [408 if timed_out else CLIENT_CLOSED_REQUEST]
                record(False, None)
            return
        finally:
            if not recorded:
                if not status_seen and sys.exc_info()[0] is not None:
                    status_seen.append(500)  # the app crashed: the server answers 500
                record(True, "drop after" if decision.drop == "after" else None)
        if decision.drop == "after":
            await self._truncate(send, captured)
            raise ConnectionDropped("connection dropped after the request was processed")

    @staticmethod
    async def _error(send: Send, decision: FaultDecision, request_id: str) -> None:
        status = decision.status or 500
        slug = decision.slug
        if status == 429 and slug == "Emulator_InjectedFault":
            slug = "RateLimited"
        fix = "Retry later." if status in (429, 502, 503, 504) else ""
        error = EmulatorError(status, slug, status * 10, decision.message, suggested_fix=fix)
        body = json.dumps(error_body(error, request_id)).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"x-request-id", request_id.encode("latin-1")),
        ]
        if decision.retry_after is not None:
            headers.append((b"retry-after", f"{decision.retry_after:g}".encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def _truncate(send: Send, captured: list[Message]) -> None:
        """Send a response head promising more body than will ever arrive."""
        start = next((m for m in captured if m["type"] == "http.response.start"), None)
        body = b"".join(m.get("body", b"") for m in captured if m["type"] == "http.response.body")
        status = int(start["status"]) if start else 200
        headers = [
            (name, value)
            for name, value in (
                start["headers"] if start else [(b"content-type", b"application/json")]
            )
            if name.lower() != b"content-length"
        ]
        headers.append((b"content-length", str(len(body) + 1024).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send(
            {"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True}
        )


def _access_line(scope: Scope, operation: str, status: int | None, seconds: float) -> None:
    """One access-log line; the path alone (a presigned URL's signature is in its query), and a
    connect link's token left out (whoever holds the link connects the account)."""
    path: str = scope["path"]
    if operation == "connect_account":
        path = path.rsplit("/", 1)[0] + "/..."
    if not path.isprintable():  # a percent-encoded newline must not start a line of its own
        path = path.encode("unicode_escape").decode("ascii")
    ACCESS_LOGGER.info("%s %s %s %.1f ms", scope["method"], path, status or "-", seconds * 1000)


async def _buffered(receive: Receive) -> Receive:
    """Read the request body now and replay it, then pass later messages (disconnect) through."""
    pending: list[Message] = []
    while True:
        message = await receive()
        pending.append(message)
        if message["type"] != "http.request" or not message.get("more_body"):
            break

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay
