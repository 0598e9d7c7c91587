"""httpx transports that run the emulator app in-process: no socket, no server to start.

``AsyncToolRouterClient(http_client=httpx.AsyncClient(transport=async_transport(app)))`` and
``ToolRouterClient(http_client=httpx.Client(transport=sync_transport(app)))`` talk to
``create_app()`` directly. Starlette's ``TestClient`` cannot be used as the sync client's
``http_client`` (here it is built on a different httpx package), and ``httpx.WSGITransport``
does not run ASGI apps: :func:`sync_transport` is the sync route. It drives the app on an anyio
blocking portal (one background daemon thread with an event loop, stopped when the
``httpx.Client`` closes).

The app's lifespan (which runs the MCP endpoint's session manager) runs as a server would run
it: the sync transport starts it with its portal and stops it on close; the async transport
starts it when its client is entered (``async with httpx.AsyncClient(transport=...)``, on
asyncio) and stops it on exit. Without it the REST routes work and the MCP endpoint answers 503.

Both transports turn an injected dropped connection (``FaultRule(drop=...)``) into
``httpx.RemoteProtocolError``, as a real socket would, instead of letting the app's internal
``ConnectionDropped`` escape. Timeouts and injected latency: the app is awaited to the end,
so an ``httpx`` timeout does not cut an in-process call short (use ``EmulatorServer`` for that).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any

import anyio
import httpx
from anyio.from_thread import BlockingPortal
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from langchain_toolrouter.emulator.middleware import ConnectionDropped

__all__ = ["async_transport", "call_app", "running_lifespan", "sync_transport"]


async def call_app(
    app: ASGIApp, request: httpx.Request, state: dict[str, Any] | None = None
) -> httpx.Response:
    """One request through the app; a dropped connection becomes ``RemoteProtocolError``.

    ``state`` is the lifespan state each request's scope starts from (a copy of it), as a
    server passes it.
    """
    dropped = False

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        nonlocal dropped
        if state is not None:
            scope = {**scope, "state": dict(state)}
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


@contextlib.asynccontextmanager
async def running_lifespan(app: ASGIApp) -> AsyncIterator[dict[str, Any]]:
    """Run the app's lifespan (ASGI lifespan protocol): start it, yield its state, stop it.

    Raises:
        RuntimeError: the app reported that its start-up failed.
    """
    state: dict[str, Any] = {}
    to_app, app_inbox = anyio.create_memory_object_stream[Message](2)
    started, stopped = anyio.Event(), anyio.Event()
    failures: list[str] = []

    async def send(message: Message) -> None:
        if message["type"].endswith(".failed"):
            failures.append(str(message.get("message", "")))
        (started if message["type"].startswith("lifespan.startup") else stopped).set()

    async def run() -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": state}
        try:
            await app(scope, app_inbox.receive, send)
        except Exception as exc:  # reported below, as start-up or shutdown failure
            failures.append(f"{type(exc).__name__}: {exc}")
        finally:
            started.set()
            stopped.set()

    async with anyio.create_task_group() as group, to_app, app_inbox:
        group.start_soon(run)
        await to_app.send({"type": "lifespan.startup"})
        await started.wait()
        if failures:
            raise RuntimeError(f"the emulator app failed to start: {failures[0]}")
        try:
            yield state
        finally:
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                await to_app.send({"type": "lifespan.shutdown"})
            await stopped.wait()


class _AsyncAppTransport(httpx.AsyncBaseTransport):
    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._state: dict[str, Any] | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> _AsyncAppTransport:
        if self._task is not None:
            return self
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not asyncio (trio): no lifespan, and the MCP endpoint says so
            return self
        ready, stop = asyncio.Event(), asyncio.Event()

        async def serve() -> None:
            async with running_lifespan(self._app) as state:
                self._state = state
                ready.set()
                await stop.wait()

        # A task of its own: the lifespan's task group is entered and left in one task, even
        # when the client is entered and left in two (a pytest fixture, for one).
        task = loop.create_task(serve())
        waiter = asyncio.ensure_future(ready.wait())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if task.done():
            task.result()  # the start-up failure
        self._stop, self._task = stop, task
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc: BaseException | None = None,
        tb: TracebackType | None = None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        task, stop = self._task, self._stop
        self._task = self._stop = self._state = None
        if task is not None and stop is not None:
            stop.set()
            await task

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await call_app(self._app, request, self._state)


class _SyncAppTransport(httpx.BaseTransport):
    def __init__(self, app: ASGIApp) -> None:
        self._app = app
        self._lock = threading.Lock()
        self._portal: BlockingPortal | None = None
        self._state: dict[str, Any] = {}
        self._thread: threading.Thread | None = None

    def _running_portal(self) -> BlockingPortal:
        with self._lock:
            if self._portal is None:
                # Our own daemon thread (anyio's start_blocking_portal uses a non-daemon pool
                # thread): an httpx.Client nobody closed must not keep the process from exiting.
                ready = threading.Event()
                made: list[tuple[BlockingPortal, dict[str, Any]]] = []
                failed: list[BaseException] = []

                async def serve() -> None:
                    try:
                        async with BlockingPortal() as portal, running_lifespan(self._app) as state:
                            made.append((portal, state))
                            ready.set()
                            await portal.sleep_until_stopped()
                    except BaseException as exc:
                        failed.append(exc)
                        raise
                    finally:
                        ready.set()

                thread = threading.Thread(
                    target=anyio.run, args=(serve,), name="toolrouter-emulator-app", daemon=True
                )
                thread.start()
                ready.wait()
                if failed:
                    thread.join()
                    raise failed[0]
                (self._portal, self._state), self._thread = made[0], thread
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
        portal = self._running_portal()
        response: httpx.Response = portal.call(call_app, self._app, copy, self._state)
        return response

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
        http.close()  # stops the app's lifespan and the portal thread
    """
    return _SyncAppTransport(app)


def async_transport(app: ASGIApp) -> httpx.AsyncBaseTransport:
    """A transport for ``httpx.AsyncClient``: ``httpx.ASGITransport`` that also turns an
    injected dropped connection into ``httpx.RemoteProtocolError`` and, when its client is
    entered with ``async with``, runs the app's lifespan (the MCP endpoint needs it)."""
    return _AsyncAppTransport(app)
