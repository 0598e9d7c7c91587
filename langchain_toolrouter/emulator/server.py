"""`EmulatorServer`: the emulator on a real loopback socket, in a background thread.

The pattern of httpx's test suite: run `uvicorn.Server` in a thread, wait until it has `started`,
and on exit set `should_exit` and join. This is the only thread the package starts, and only when
a caller asks for a server (tests, notebooks, the demo).
"""

from __future__ import annotations

import inspect
import logging
import socket
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn
from starlette.applications import Starlette

from langchain_toolrouter._arguments import (
    check_integer,
    check_number,
    check_text,
    describe,
    unknown_arguments,
)
from langchain_toolrouter.emulator.app import DEFAULT_API_KEY, create_app
from langchain_toolrouter.emulator.connections import server_config
from langchain_toolrouter.emulator.context import EmulatorState
from langchain_toolrouter.emulator.defaults import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_KEEP_ALIVE_TIMEOUT,
)
from langchain_toolrouter.emulator.faults import Faults, RequestLog
from langchain_toolrouter.emulator.middleware import ConnectionDropped
from langchain_toolrouter.emulator.store import Store

__all__ = ["EmulatorServer", "free_port"]


class _HideInjectedDrops(logging.Filter):
    """Keep uvicorn from logging a traceback for every connection we cut on purpose."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, ConnectionDropped)


_FILTER = _HideInjectedDrops()


class _Server(uvicorn.Server):
    failure: BaseException | None = None
    """Why start-up failed: uvicorn logs it and ends the thread with SystemExit."""

    def install_signal_handlers(self) -> None:
        """Signals belong to the main thread's owner, not to a background test server."""

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve until told to exit; a failed start-up is kept in `failure` for `start()`."""
        try:
            super().run(sockets=sockets)
        except SystemExit as exc:
            self.failure = exc.__context__ or exc


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free on `host` a moment ago (for servers that must print it first)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host:port` (not yet listening; uvicorn listens on it).

    The protocol is named (`IPPROTO_TCP`, not 0): asyncio sets `TCP_NODELAY` on a connection
    only when its socket says TCP, and without it a response's head and body, sent as two
    writes, wait for the client's delayed ACK (about 40 ms per request on Linux).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


_OWN_OPTIONS = (
    "api_key",
    "host",
    "port",
    "app",
    "startup_timeout",
    "header_timeout",
    "body_timeout",
    "keep_alive_timeout",
)


class EmulatorServer:
    """Run the emulator under uvicorn on `host:port` (a free loopback port by default).

    Example:
        >>> with EmulatorServer() as server:  # doctest: +SKIP
        ...     client = ToolRouterClient(api_key=server.api_key, base_url=server.base_url)

    Args:
        api_key: the key clients must send; with `api_keys` (an `app_options` entry) or `app`,
            one of their keys (the first one if not given).
        host, port: where to listen; port 0 (the default) picks a free port, else 1-65535.
        app: serve this app (made by `create_app`) instead of building one from `app_options`.
        startup_timeout: seconds (> 0) to wait for the socket to accept connections.
        header_timeout: seconds (> 0) a connection may take to send a request's head (from
            its opening, or from the first byte after a pause between requests); then it is
            closed.
        body_timeout: seconds (> 0) a request body may take to arrive after its head; then
            the connection is closed (the request log says 408).
        keep_alive_timeout: seconds (> 0) an idle connection is kept open between requests.
        app_options: passed to `create_app` (faults, seed, data_dir, store, access_log, ...).

    Raises:
        TypeError, ValueError: an option of the wrong type or out of range (checked here, with
            the `create_app` options, not on the first request).
        RuntimeError: port 0 and no free port could be bound on `host`.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        app: Starlette | None = None,
        startup_timeout: float = 10.0,
        header_timeout: float = DEFAULT_HEADER_TIMEOUT,
        body_timeout: float = DEFAULT_BODY_TIMEOUT,
        keep_alive_timeout: float = DEFAULT_KEEP_ALIVE_TIMEOUT,
        **app_options: Any,
    ) -> None:
        if app is not None and app_options:
            raise ValueError("EmulatorServer: pass app= or create_app options, not both")
        unknown_arguments(
            "EmulatorServer",
            app_options,
            [*_OWN_OPTIONS, *inspect.signature(create_app).parameters],
        )
        if api_key is not None:
            check_text(
                "EmulatorServer(api_key=...)", api_key, hint="e.g. api_key='ak_test', or omit it"
            )
        check_text("EmulatorServer(host=...)", host, hint="e.g. host='127.0.0.1'")
        check_integer(
            "EmulatorServer(port=...)",
            port,
            minimum=0,
            maximum=65535,
            hint="give a TCP port 1-65535, or 0 (the default) for any free port",
        )
        self.startup_timeout = check_number(
            "EmulatorServer(startup_timeout=...)",
            startup_timeout,
            positive=True,
            hint="give seconds, e.g. startup_timeout=10",
        )
        header_seconds = check_number(
            "EmulatorServer(header_timeout=...)",
            header_timeout,
            positive=True,
            hint="give seconds, e.g. header_timeout=10",
        )
        body_seconds = check_number(
            "EmulatorServer(body_timeout=...)",
            body_timeout,
            positive=True,
            hint="give seconds, e.g. body_timeout=30",
        )
        keep_alive_seconds = check_number(
            "EmulatorServer(keep_alive_timeout=...)",
            keep_alive_timeout,
            positive=True,
            hint="give seconds, e.g. keep_alive_timeout=5",
        )
        if app is None:
            if app_options.get("api_keys") is None:
                app_options["api_keys"] = [api_key or DEFAULT_API_KEY]
            app = create_app(**app_options)
        elif not isinstance(app, Starlette) or not isinstance(
            getattr(app.state, "emulator", None), EmulatorState
        ):
            raise TypeError(
                f"EmulatorServer(app=...) takes an app made by create_app(), got {describe(app)}; "
                "e.g. EmulatorServer(app=create_app(seed=1))"
            )
        self.app = app
        keys = self.state.api_keys
        if api_key is None:
            api_key = next(iter(keys))
        elif api_key not in keys:
            raise ValueError(
                f"EmulatorServer(api_key={api_key!r}) is not one of the app's keys "
                f"({', '.join(map(repr, keys))}); add it to api_keys or leave api_key out"
            )
        self.api_key = api_key
        self.host = host
        # Port 0: bind now and hand uvicorn the socket, so no other process can take the port
        # between choosing it and listening on it (tests run in parallel on shared machines).
        self._owns_socket = port == 0
        self._socket: socket.socket | None = None
        if port == 0:
            try:
                self._socket = _bind(host, 0)
            except OSError as exc:
                raise RuntimeError(
                    f"EmulatorServer could not listen on {host} ({exc}); check host= (e.g. "
                    "host='127.0.0.1')"
                ) from exc
            port = int(self._socket.getsockname()[1])
        self.port = port
        self._config = server_config(
            app,
            host=host,
            port=self.port,
            header_timeout=header_seconds,
            body_timeout=body_seconds,
            keep_alive_timeout=keep_alive_seconds,
            timeout_graceful_shutdown=2,
        )
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        # start() and stop() from two threads: one after the other, never interleaved.
        self._lifecycle = threading.RLock()

    @property
    def base_url(self) -> str:
        """`http://host:port` (no trailing slash), what clients take as `base_url`."""
        return f"http://{self.host}:{self.port}"

    @property
    def state(self) -> EmulatorState:
        """The app's state: store, mounts, faults, request log."""
        state: EmulatorState = self.app.state.emulator
        return state

    @property
    def faults(self) -> Faults:
        """The fault rules, mutable while the server runs."""
        return self.state.faults

    @property
    def log(self) -> RequestLog:
        """The latest requests the server saw (`log_size` of them)."""
        return self.state.log

    @property
    def store(self) -> Store:
        """Sessions, users and accounts."""
        return self.state.store

    @property
    def data_dir(self) -> Path:
        """Where mount files are kept."""
        return self.state.mounts.root

    def start(self) -> EmulatorServer:
        """Start serving; returns once the socket accepts connections.

        A stopped server can be started again: same port, same state (sessions, users, files).
        A `stop()` from another thread meanwhile waits for the start to finish.
        """
        with self._lifecycle:
            if self._thread is not None:
                raise RuntimeError("EmulatorServer is already started; use one server per `with`")
            logging.getLogger("uvicorn.error").addFilter(_FILTER)
            sockets = self._listening_sockets()
            # uvicorn.Server keeps `started`/`should_exit` set after a run: one per start.
            server = self._server = _Server(self._config)
            thread = self._thread = threading.Thread(
                target=server.run,
                kwargs={"sockets": sockets},
                name="toolrouter-emulator",
                daemon=True,
            )
            thread.start()
            try:
                self._wait_until_started(server, thread)
            except BaseException:
                self.stop()
                raise
            return self

    def _listening_sockets(self) -> list[socket.socket] | None:
        """The socket uvicorn serves on: ours (bound again after a stop), or None to let uvicorn
        bind the port it was given."""
        if not self._owns_socket:
            return None
        if self._socket is None:
            try:
                self._socket = _bind(self.host, self.port)
            except OSError as exc:
                raise RuntimeError(
                    f"EmulatorServer could not listen on {self.host}:{self.port} again ({exc}); "
                    "make a new EmulatorServer to get a free port"
                ) from exc
        return [self._socket]

    def _wait_until_started(self, server: _Server, thread: threading.Thread) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while not server.started:
            if not thread.is_alive():
                thread.join()
                reason = server.failure or "is the port in use?"
                raise RuntimeError(
                    f"EmulatorServer could not start on {self.host}:{self.port} ({reason})"
                ) from server.failure
            if time.monotonic() > deadline:
                raise RuntimeError(f"EmulatorServer did not start within {self.startup_timeout}s")
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop serving, wait for the thread to end and release the socket (also when the
        server was never started, or failed to start)."""
        with self._lifecycle:
            thread, self._thread = self._thread, None
            if thread is not None and self._server is not None:
                self._server.should_exit = True
                thread.join(timeout=10)
            if self._socket is not None:
                self._socket.close()
                self._socket = None

    def __enter__(self) -> EmulatorServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        running = "running" if self._thread is not None else "stopped"
        return f"EmulatorServer(base_url={self.base_url!r}, {running})"
