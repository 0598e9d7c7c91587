"""How the emulator's server (the CLI and `EmulatorServer`) treats connections: uvicorn with h11,
and a deadline on every request's head.

uvicorn closes a connection left idle after an answer (`timeout_keep_alive`), but one that was
opened and never sent a whole request head stays open forever: a thousand such connections, or
a client sending its headers a byte at a time, would hold the emulator's file descriptors until
it stopped accepting. Here a connection must send each request's head within `header_timeout`
seconds, counted from the connection's opening or from the first byte after a pause between
requests; then it is closed. A slow body is the app's to bound (`create_app(body_timeout=...)`:
it answers 408), so that bound holds under any server.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["server_config"]


class _HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is late."""

    header_timeout: float
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _watch_head(self) -> None:
        """Time the head while h11 still waits for one (IDLE); stop once it has arrived."""
        if self.conn.their_state is not h11.IDLE:
            self._stop_head_timer()
        elif self._head_timer is None:
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_too_late)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        # A state h11 cannot close from cleanly is closed all the same.
        with contextlib.suppress(h11.LocalProtocolError):
            self.conn.send(h11.ConnectionClosed())
        self.transport.close()


def _protocol(header_timeout: float) -> type[H11Protocol]:
    class Protocol(_HeadDeadline):
        pass

    Protocol.header_timeout = header_timeout
    return Protocol


def server_config(
    app: ASGIApp,
    *,
    host: str,
    port: int,
    header_timeout: float,
    keep_alive_timeout: float,
    **options: Any,
) -> uvicorn.Config:
    """The uvicorn configuration of the emulator: h11 with the head deadline, the keep-alive
    timeout, no websockets, the app's lifespan on, and uvicorn's own logs at warning level (its
    access log shows query strings, which carry presigned signatures; the app has its own).
    `options` go to `uvicorn.Config` as they are."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=_protocol(header_timeout),
        ws="none",
        lifespan="on",
        log_level="warning",
        access_log=False,
        # uvicorn times it with call_later, so a fraction of a second works too.
        timeout_keep_alive=keep_alive_timeout,  # type: ignore[arg-type]
        **options,
    )
