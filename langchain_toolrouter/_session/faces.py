"""Flows of several requests, written once as an `async def`, run by either face.

A flow that makes several requests and must decide the same way in sync and async code (search
then fetch the schemas it left out, wait for a connection, the connect pause, a split
multi-execute, a file's transfer, a user's session) is one `async def` that takes a `Face` and
does all its I/O through it::

    async def wait_until_connected(face, session_id, toolkit, *, timeout, poll_interval):
        while True:
            items = await face.pages(ToolRouterClient.iter_toolkits, session_id, ...)
            ...
            await face.sleep(poll_interval)

`AsyncFace` awaits the async client on the running loop. `SyncFace` takes the same steps with
the sync client on this thread: its methods are `async def` in form but never suspend, so
`run_sync` runs a whole flow with one `send`, with no event loop (it works inside a running one,
as in Jupyter). Either way the flow's own frame is on the stack while a request is sent, where
a debugger or a traceback shows the code that decided to make it (the pattern of httpx's auth
flows, which are generators, keeps the deciding frame suspended instead).

One-request operations need none of this: they are plain twins (`ToolRouterSession.authorize` /
`aauthorize`), as httpx writes `Client`/`AsyncClient`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

from langchain_toolrouter._blocking import running_loop
from langchain_toolrouter.client import ToolRouterClient

if TYPE_CHECKING:
    from langchain_toolrouter._session.runtime import Runtime

__all__ = ["AsyncFace", "Face", "Flow", "SingleFlight", "SyncFace", "run_sync"]

T = TypeVar("T")
P = ParamSpec("P")

Flow = Coroutine[Any, Any, T]
"""A flow: an `async def`'s coroutine, awaited by `AsyncFace` code or run by `run_sync`."""

MAX_THREADS = 5
"""Threads for the flows of one sync `gather` (as the official SDK's multi-execute)."""


class Face(Protocol):
    """Where a flow's I/O goes: the sync client on this thread, or the async one on the loop.

    Attributes:
        rt: The router's runtime (clients and settings).
    """

    rt: Runtime

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop this face's flows run on (`None` for the sync face)."""
        ...

    async def wait(self, run: Future[T]) -> T:
        """The result of a run another caller is making (see `SingleFlight.lead_or_join`)."""
        ...

    async def call(
        self,
        method: Callable[Concatenate[ToolRouterClient, P], T],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Call a client method, named by the sync client's (the clients are twins)."""
        ...

    async def pages(
        self,
        method: Callable[Concatenate[ToolRouterClient, P], Iterator[T]],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> list[T]:
        """Every item of a paged listing (`iter_tools`, `iter_toolkits`, ...)."""
        ...

    async def run(
        self,
        sync: Callable[P, T],
        async_: Callable[P, Awaitable[T]],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run one of a pair of twins: `sync(...)` on this thread, or `await async_(...)`."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait this many seconds."""
        ...

    async def gather(self, flows: Sequence[Flow[T]]) -> list[T]:
        """Run flows at once; their results in order (the first failure is raised)."""
        ...

    async def shared(self, group: SingleFlight, key: Hashable, start: Callable[[], Flow[T]]) -> T:
        """`start()`'s flow, run once for all concurrent callers asking `group` for `key`."""
        ...


class SyncFace:
    """The sync client, on this thread: every step is done before the method returns."""

    __slots__ = ("rt",)

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        return None

    async def wait(self, run: Future[T]) -> T:
        return run.result()

    async def call(
        self,
        method: Callable[Concatenate[ToolRouterClient, P], T],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        return cast(T, getattr(self.rt.client, method.__name__)(*args, **kwargs))

    async def pages(
        self,
        method: Callable[Concatenate[ToolRouterClient, P], Iterator[T]],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> list[T]:
        return list(getattr(self.rt.client, method.__name__)(*args, **kwargs))

    async def run(
        self,
        sync: Callable[P, T],
        async_: Callable[P, Awaitable[T]],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        return sync(*args, **kwargs)

    async def sleep(self, seconds: float) -> None:
        time.sleep(seconds)  # noqa: ASYNC251 - the sync face's steps block by design

    async def gather(self, flows: Sequence[Flow[T]]) -> list[T]:
        """On a short-lived pool of at most `MAX_THREADS` threads, each flow in a copy of the
        caller's context (callbacks, tracing)."""
        if len(flows) <= 1:
            return [run_sync(flow) for flow in flows]
        workers = min(MAX_THREADS, len(flows))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="toolrouter") as pool:
            futures = [pool.submit(copy_context().run, run_sync, flow) for flow in flows]
            return [future.result() for future in futures]

    async def shared(self, group: SingleFlight, key: Hashable, start: Callable[[], Flow[T]]) -> T:
        return group.run_sync(key, lambda: run_sync(start()))


class AsyncFace:
    """The async client of the running event loop."""

    __slots__ = ("rt",)

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        return asyncio.get_running_loop()

    async def wait(self, run: Future[T]) -> T:
        shared = asyncio.wrap_future(run)
        shared.add_done_callback(_retrieved)  # a cancelled caller leaves it unread
        return await asyncio.shield(shared)

    async def call(
        self,
        method: Callable[Concatenate[ToolRouterClient, P], T],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        return cast(T, await getattr(self.rt.aclient, method.__name__)(*args, **kwargs))

    async def pages(
        self,
        method: Callable[Concatenate[ToolRouterClient, P], Iterator[T]],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> list[T]:
        return [item async for item in getattr(self.rt.aclient, method.__name__)(*args, **kwargs)]

    async def run(
        self,
        sync: Callable[P, T],
        async_: Callable[P, Awaitable[T]],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        return await async_(*args, **kwargs)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def gather(self, flows: Sequence[Flow[T]]) -> list[T]:
        return list(await asyncio.gather(*flows))

    async def shared(self, group: SingleFlight, key: Hashable, start: Callable[[], Flow[T]]) -> T:
        return cast(T, await group.run_async(key, start))


def run_sync(flow: Flow[T]) -> T:
    """Run a flow on this thread to its end (its awaits are `SyncFace` steps, which never
    suspend); returns what it returns.

    Raises:
        RuntimeError: the flow awaited real async work (a bug: a sync flow must only await
            its `SyncFace`).
    """
    try:
        flow.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    flow.close()
    msg = "a flow run by the sync face awaited async work: sync flows only await their face"
    raise RuntimeError(msg)


@dataclass
class SingleFlight:
    """Concurrent callers asking for one key share one run: threads, asyncio tasks of any loop,
    and the sync and async faces alike.

    Runs are shared while they last; nothing is cached afterwards (callers keep what they
    want to reuse). A sync caller on a thread whose own event loop is making the run does not
    wait for it (the loop cannot progress while the thread waits): it makes its own.
    """

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _runs: dict[Hashable, tuple[Future[Any], asyncio.AbstractEventLoop | None]] = field(
        default_factory=dict
    )

    def lead_or_join(
        self, key: Hashable, loop: asyncio.AbstractEventLoop | None
    ) -> tuple[Future[Any], bool]:
        """The run to wait for and False, or a new run this caller makes and True (then it
        must `end` it). `loop` is the caller's event loop (`None` for sync code); a caller
        that makes the run itself keeps its own frames on the stack while it does."""
        with self._lock:
            running = self._runs.get(key)
            if running is not None and not (
                loop is None and running[1] is not None and running[1] is running_loop()
            ):
                return running[0], False
            mine: Future[Any] = Future()
            if running is None:
                self._runs[key] = (mine, loop)
            return mine, True

    def end(self, key: Hashable, run: Future[Any], result: Any) -> None:
        """End a run this caller made with `result`, for whoever waits for it."""
        run.set_result(result)
        self._end(key, run)

    def _end(self, key: Hashable, mine: Future[Any]) -> None:
        with self._lock:
            if self._runs.get(key, (None,))[0] is mine:
                del self._runs[key]

    def run_sync(self, key: Hashable, work: Callable[[], T]) -> T:
        """`work()`, or the result of the run of it another caller is making for `key`."""
        mine, lead = self.lead_or_join(key, None)
        if not lead:
            return cast(T, mine.result())
        try:
            result = work()
        except BaseException as exc:
            mine.set_exception(exc)
            raise
        else:
            mine.set_result(result)
            return result
        finally:
            self._end(key, mine)

    async def run_async(self, key: Hashable, work: Callable[[], Awaitable[Any]]) -> Any:
        """`await work()`, or the result of the run another caller is making for `key`.

        The run is a task of its own, so a cancelled caller (even the one that started it)
        does not cancel it for the others."""
        loop = asyncio.get_running_loop()
        mine, lead = self.lead_or_join(key, loop)
        if lead:
            task = asyncio.ensure_future(work())

            def settle(done: asyncio.Future[Any]) -> None:
                if done.cancelled():
                    mine.cancel()
                elif done.exception() is not None:
                    mine.set_exception(cast(BaseException, done.exception()))
                else:
                    mine.set_result(done.result())
                self._end(key, mine)

            task.add_done_callback(settle)
        shared = asyncio.wrap_future(mine)
        shared.add_done_callback(_retrieved)  # a cancelled caller leaves it unread
        return await asyncio.shield(shared)


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
