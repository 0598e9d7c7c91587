"""httpx transports that run the emulator app in-process: no socket, no server to start.

``AsyncToolRouterClient(http_client=httpx.AsyncClient(transport=async_transport(app)))`` and
``ToolRouterClient(http_client=httpx.Client(transport=sync_transport(app)))`` talk to
``create_app()`` directly. Starlette's ``TestClient`` cannot be used as the sync client's
``http_client`` (here it is built on a different httpx package), and ``httpx.WSGITransport``
does not run ASGI apps: :func:`sync_transport` is the sync route. It drives the app on an anyio
blocking portal (one background daemon thread with an event loop, stopped when the
``httpx.Client`` closes).

Both transports turn an injected dropped connection (``FaultRule(drop=...)``) into
``httpx.RemoteProtocolError``, as a real socket would, instead of letting the app's internal
``ConnectionDropped`` escape. Timeouts and injected latency: the app is awaited to the end,
so an ``httpx`` timeout does not cut an in-process call short (use ``EmulatorServer`` for that).
"""

from __future__ import annotations

import threading

import anyio
import httpx
from anyio.from_thread import BlockingPortal
from starlette.types import ASGIApp, Receive, Scope, Send

from langchain_toolrouter.emulator.middleware import ConnectionDropped

__all__ = ["async_transport", "sync_transport"]


async def _handle(app: ASGIApp, request: httpx.Request) -> httpx.Response:
    """One request through the app; a dropped connection becomes ``RemoteProtocolError``."""
    dropped = False

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        nonlocal dropped
        try:
            await app(scope, receive, send)
        except ConnectionDropped:
            dropped = True
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    # Other app exceptions: Starlette has already answered 500, as a real server would.
    transport = httpx.ASGITransport(app=guarded, raise_app_exceptions=False)
    response = await transport.handle_async_request(request)
    content = b"".join([chunk async for chunk in response.aiter_raw()])
    if dropped:
        raise httpx.RemoteProtocolError(
            "server disconnected without sending a complete response", request=request
        )
    return httpx.Response(
        response.status_code,
        headers=response.headers,
        content=content,
        extensions=response.extensions,
    )


class _AsyncAppTransport(httpx.AsyncBaseTransport):
    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await _handle(self._app, request)


class _SyncAppTransport(httpx.BaseTransport):
    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._lock = threading.Lock()
        self._portal: BlockingPortal | None = None
        self._thread: threading.Thread | None = None

    def _running_portal(self) -> BlockingPortal:
        with self._lock:
            if self._portal is None:
                # Our own daemon thread (anyio's start_blocking_portal uses a non-daemon pool
                # thread): an httpx.Client nobody closed must not keep the process from exiting.
                ready = threading.Event()
                made: list[BlockingPortal] = []

                async def serve() -> None:
                    async with BlockingPortal() as portal:
                        made.append(portal)
                        ready.set()
                        await portal.sleep_until_stopped()

                thread = threading.Thread(
                    target=anyio.run, args=(serve,), name="toolrouter-emulator-app", daemon=True
                )
                thread.start()
                ready.wait()
                self._portal, self._thread = made[0], thread
            return self._portal

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()  # the app reads an async stream: hand it the bytes
        copy = httpx.Request(
            request.method,
            request.url,
            headers=request.headers,
            content=body,
            extensions=request.extensions,
        )
        return self._running_portal().call(_handle, self._app, copy)

    def close(self) -> None:
        with self._lock:
            portal, thread = self._portal, self._thread
            self._portal = self._thread = None
        if portal is not None and thread is not None:
            portal.call(portal.stop)
            thread.join()


def sync_transport(app: ASGIApp) -> httpx.BaseTransport:
    """A transport for ``httpx.Client`` that serves every request from ``app`` in-process.

    Example::

        app = create_app()
        http = httpx.Client(transport=sync_transport(app))
        with ToolRouterClient(api_key=DEFAULT_API_KEY, base_url="http://emulator", http_client=http):
            ...
        http.close()  # stops the portal thread
    """
    return _SyncAppTransport(app)


def async_transport(app: ASGIApp) -> httpx.AsyncBaseTransport:
    """A transport for ``httpx.AsyncClient``: ``httpx.ASGITransport`` that also turns an
    injected dropped connection into ``httpx.RemoteProtocolError``."""
    return _AsyncAppTransport(app)
