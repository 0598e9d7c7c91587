"""How the emulator's server (the CLI and `EmulatorServer`) treats connections: uvicorn with h11,
and deadlines on each request's head and body.

uvicorn closes a connection left idle after an answer (`timeout_keep_alive`), but one that was
opened and never sent a whole request, or that sends its headers or its body a byte at a time,
stays open for as long as it likes: a thousand of them would hold the emulator's file
descriptors until it stopped accepting. Here a connection must send each request's head within
`header_timeout` seconds, counted from the connection's opening or from the first byte after a
pause between requests, and its body within `body_timeout` seconds of the head; otherwise it is
closed. A request whose body was late shows in the request log as a 408 (and nginx's way:
nothing is answered, the connection is closed). The timers cost nothing on the usual request,
whose head and body arrive together: a body timer is only set while a body is still on its way.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from langchain_toolrouter.emulator.middleware import BODY_TIMED_OUT

__all__ = ["server_config"]


class _Deadlines(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head or body is late."""

    header_timeout: float
    body_timeout: float
    _timer: asyncio.TimerHandle | None = None
    _waiting_for: object = None
    """The h11 state of the client being timed (IDLE: a head; SEND_BODY: a body), or None."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Time what h11 waits for from the client: a head (IDLE) or the rest of a body
        (SEND_BODY); nothing once the request is whole."""
        state = self.conn.their_state
        waiting = state if state in (h11.IDLE, h11.SEND_BODY) else None
        if waiting is self._waiting_for:
            return
        self._stop_timer()
        self._waiting_for = waiting
        if waiting is h11.IDLE:
            self._timer = self.loop.call_later(self.header_timeout, self._close)
        elif waiting is h11.SEND_BODY:
            self._timer = self.loop.call_later(self.body_timeout, self._body_too_late)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiting_for = None

    def _body_too_late(self) -> None:
        # The app sees the client leave mid-body; this mark makes its log say why.
        self.scope.setdefault("state", {})[BODY_TIMED_OUT] = self.body_timeout
        self._close()

    def _close(self) -> None:
        self._timer = None
        self._waiting_for = None
        if self.transport.is_closing():
            return
        # A state h11 cannot close from cleanly is closed all the same.
        with contextlib.suppress(h11.LocalProtocolError):
            self.conn.send(h11.ConnectionClosed())
        self.transport.close()


def _protocol(header_timeout: float, body_timeout: float) -> type[H11Protocol]:
    class Protocol(_Deadlines):
        pass

    Protocol.header_timeout = header_timeout
    Protocol.body_timeout = body_timeout
    return Protocol


def server_config(
    app: ASGIApp,
    *,
    host: str,
    port: int,
    header_timeout: float,
    body_timeout: float,
    keep_alive_timeout: float,
    **options: Any,
) -> uvicorn.Config:
    """The uvicorn configuration of the emulator: h11 with the head and body deadlines, the
    keep-alive timeout, no websockets, the app's lifespan on, and uvicorn's own logs at warning
    level (its access log shows query strings, which carry presigned signatures; the app has
    its own). `options` go to `uvicorn.Config` as they are."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=_protocol(header_timeout, body_timeout),
        ws="none",
        lifespan="on",
        log_level="warning",
        access_log=False,
        # uvicorn times it with call_later, so a fraction of a second works too.
        timeout_keep_alive=keep_alive_timeout,  # type: ignore[arg-type]
        **options,
    )
