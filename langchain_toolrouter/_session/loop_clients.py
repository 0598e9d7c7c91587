"""One async client per event loop, closed when its loop shuts down.

An `httpx.AsyncClient`'s connections belong to the event loop that opened them: a script that
calls `asyncio.run` twice cannot reuse the first loop's connections (they fail with "Event loop
is closed"), and connections left open when a loop closes are only reclaimed by garbage
collection, with a `ResourceWarning`. So `LoopClients` keeps one client per running loop and
ties its life to the loop: a small async generator, started on that loop, closes the client
from its `finally` when the loop runs `shutdown_asyncgens()`, which `asyncio.run`,
`asyncio.Runner` and pytest-asyncio all do before closing a loop. Jupyter's loop never closes;
its client lives until `aclose()`.

Thread-safe: tools of one router may run on several threads and loops at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field

from langchain_toolrouter._blocking import running_loop
from langchain_toolrouter.client import AsyncToolRouterClient

__all__ = ["LoopClients"]


_OPEN: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, set[_Entry]] = (
    weakref.WeakKeyDictionary()
)
"""Every loop's clients until they are closed: the loop holds its async generators only weakly,
and a keeper collected with its router before the loop shuts down would close nothing."""
_OPEN_LOCK = threading.Lock()


async def _close_at_shutdown(entry: _Entry) -> AsyncGenerator[None, None]:
    """Suspended until its loop's `shutdown_asyncgens()` (or `aclose()`), then closes the
    entry's client."""
    try:
        yield
    finally:
        await entry.client.aclose()
        if entry.loop is not None:
            with _OPEN_LOCK:
                _OPEN.get(entry.loop, set()).discard(entry)


async def _start(keeper: AsyncGenerator[None, None]) -> None:
    # Started from a task so the loop's first-iteration hook registers the generator.
    with contextlib.suppress(StopAsyncIteration):  # closed before it started
        await keeper.asend(None)


@dataclass(eq=False)
class _Entry:
    client: AsyncToolRouterClient
    loop: asyncio.AbstractEventLoop | None
    keeper: AsyncGenerator[None, None] | None = None
    tasks: set[asyncio.Future[None]] = field(default_factory=set)

    async def aclose(self) -> None:
        await self.client.aclose()
        if self.keeper is not None:
            await self.keeper.aclose()


class LoopClients:
    """The async clients of one router: one per event loop (or one shared, when the caller
    gave their own `httpx.AsyncClient`, which is theirs to bind to a loop)."""

    def __init__(self, factory: Callable[[], AsyncToolRouterClient], *, per_loop: bool) -> None:
        self._factory = factory
        self._per_loop = per_loop
        self._lock = threading.Lock()
        self._entries: dict[asyncio.AbstractEventLoop | None, _Entry] = {}
        self._closed = False

    def get(self) -> AsyncToolRouterClient:
        """The client for the running loop, opened on first use.

        Raises:
            RuntimeError: the router was closed.
        """
        loop = running_loop() if self._per_loop else None
        with self._lock:
            if self._closed:
                msg = "this ToolRouter is closed; create a new one to make more calls"
                raise RuntimeError(msg)
            for old in [key for key in self._entries if key is not None and key.is_closed()]:
                del self._entries[old]  # closed by its keeper when the loop shut down
            entry = self._entries.get(loop)
            if entry is None:
                entry = self._entries[loop] = _Entry(self._factory(), loop)
                if loop is not None:
                    with _OPEN_LOCK:
                        _OPEN.setdefault(loop, set()).add(entry)
                    entry.keeper = _close_at_shutdown(entry)
                    task = loop.create_task(_start(entry.keeper))
                    entry.tasks.add(task)
                    task.add_done_callback(entry.tasks.discard)
            return entry.client

    def _take_all(self) -> list[_Entry]:
        with self._lock:
            self._closed = True
            entries = list(self._entries.values())
            self._entries.clear()
            return entries

    def close_nowait(self) -> None:
        """Close every client without waiting (for sync `close()`).

        A client whose loop runs on this thread is closed by a task on that loop; one whose
        loop runs on another thread, by a call scheduled there. A client of a loop that is not
        running is closed when that loop shuts down (`asyncio.run` does this).
        """
        _schedule_close(self._take_all(), running_loop())

    async def aclose(self) -> None:
        """Close every client: the running loop's now, the others as `close_nowait` does."""
        current = running_loop()
        entries = self._take_all()
        _schedule_close([e for e in entries if e.loop not in (current, None)], current)
        for entry in entries:
            if entry.loop in (current, None):
                await entry.aclose()


async def _close_soon(entry: _Entry) -> None:
    # `close()` returning just before `asyncio.run`'s coroutine ends is common: the loop then
    # cancels this task. Cancelled at this first checkpoint, the client is still open and its
    # keeper closes it at `shutdown_asyncgens()`; cancelled halfway through `aclose()`, httpx
    # would count it closed with its connections still open.
    await asyncio.sleep(0)
    await entry.aclose()


def _schedule_close(entries: list[_Entry], current: asyncio.AbstractEventLoop | None) -> None:
    for entry in entries:
        loop = entry.loop
        if loop is None or loop.is_closed() or not loop.is_running():
            continue
        if loop is current:
            task = loop.create_task(_close_soon(entry))
            entry.tasks.add(task)
            task.add_done_callback(entry.tasks.discard)
        else:
            asyncio.run_coroutine_threadsafe(entry.aclose(), loop)
