"""`EmulatorServer`: the emulator on a real loopback socket, in a background thread.

The pattern of httpx's test suite: run `uvicorn.Server` in a thread, wait until it has `started`,
and on exit set `should_exit` and join. This is the only thread the package starts, and only when
a caller asks for a server (tests, notebooks, the demo).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn
from starlette.applications import Starlette

from langchain_toolrouter.emulator.app import DEFAULT_API_KEY, create_app
from langchain_toolrouter.emulator.context import EmulatorState
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
    def install_signal_handlers(self) -> None:
        """Signals belong to the main thread's owner, not to a background test server."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free on `host` a moment ago (for servers that must print it first)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


class EmulatorServer:
    """Run the emulator under uvicorn on `host:port` (a free loopback port by default).

    Example:
        >>> with EmulatorServer() as server:  # doctest: +SKIP
        ...     client = ToolRouterClient(api_key=server.api_key, base_url=server.base_url)

    Args:
        api_key: the key clients must send (also accepted: `create_app(**app_options)` keys).
        host, port: where to listen; port 0 picks a free port.
        app: serve this app instead of building one from `app_options`.
        startup_timeout: seconds to wait for the socket to accept connections.
        app_options: passed to `create_app` (faults, seed, data_dir, store, ...).
    """

    def __init__(
        self,
        *,
        api_key: str = DEFAULT_API_KEY,
        host: str = "127.0.0.1",
        port: int = 0,
        app: Starlette | None = None,
        startup_timeout: float = 10.0,
        **app_options: Any,
    ) -> None:
        if app is not None and app_options:
            raise ValueError("EmulatorServer: pass app= or create_app options, not both")
        if app is None:
            keys = app_options.pop("api_keys", None) or [api_key]
            app = create_app(api_keys=keys, **app_options)
        self.app = app
        self.api_key = api_key
        self.host = host
        # Port 0: bind now and hand uvicorn the socket, so no other process can take the port
        # between choosing it and listening on it (tests run in parallel on shared machines).
        self._socket: socket.socket | None = None
        if port == 0:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            self._socket = socket.socket(family, socket.SOCK_STREAM)
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._socket.bind((host, 0))
            port = int(self._socket.getsockname()[1])
        self.port = port
        self.startup_timeout = startup_timeout
        config = uvicorn.Config(
            app,
            host=host,
            port=self.port,
            log_level="warning",
            http="h11",
            ws="none",
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        self._server = _Server(config)
        self._thread: threading.Thread | None = None

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
        """Every request the server saw."""
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
        """Start serving; returns once the socket accepts connections."""
        if self._thread is not None:
            raise RuntimeError("EmulatorServer is already started; use one server per `with`")
        logging.getLogger("uvicorn.error").addFilter(_FILTER)
        sockets = [self._socket] if self._socket is not None else None
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": sockets},
            name="toolrouter-emulator",
            daemon=True,
        )
        self._thread.start()
        deadline = time.monotonic() + self.startup_timeout
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError(
                    f"EmulatorServer could not start on {self.host}:{self.port} (is the port in use?)"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"EmulatorServer did not start within {self.startup_timeout}s")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop serving and wait for the thread to end."""
        if self._thread is None:
            return
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._thread = None
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
