"""Flows of several steps, written once: generators of effects, run by a sync or an async driver.

A flow yields effects (a client call, a pause, a local custom tool, a presigned transfer,
several sub-flows at once, one run shared by concurrent callers) and receives each one's result,
or has its exception thrown back in. `run_sync` performs the effects with the sync client on
this thread; `run_async` with the async client on the running loop. A flow never does I/O
itself, so creating a session, searching, waiting for a connection, moving a file or splitting
a multi-execute is written once for both (the pattern of httpx's auth flows)::

    def wait_until_active(...) -> Flow[ToolkitInfo]:
        while True:
            items = yield from call(ToolRouterClient.list_toolkits, session_id, ...)
            ...
            yield Sleep(poll_interval)

Effects name the sync client's methods (`ToolRouterClient.search`); the async driver calls the
async client's method of the same name (the two clients are twins, a test holds them so).
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Awaitable, Callable, Generator, Hashable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import copy_context
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

from langchain_toolrouter._session.blocking import run_coroutine_sync, running_loop
from langchain_toolrouter._session.presigned import aget_bytes, aput_bytes, get_bytes, put_bytes
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.errors import ConfigurationError

if TYPE_CHECKING:
    from langchain_toolrouter._session.runtime import Runtime
    from langchain_toolrouter.custom_tools import CustomTool, CustomToolContext
    from langchain_toolrouter.types import ToolOutcome

__all__ = [
    "ClientCall",
    "Effect",
    "Flow",
    "Gather",
    "GetBytes",
    "Interrupt",
    "Notify",
    "PutBytes",
    "RunCustom",
    "Shared",
    "SingleFlight",
    "Sleep",
    "call",
    "pages",
    "run_async",
    "run_sync",
]

T = TypeVar("T")
P = ParamSpec("P")

MAX_THREADS = 5
"""Threads for the sub-flows of one sync `Gather` (as the official SDK's multi-execute)."""


class Effect(Protocol):
    """One step a flow asks its driver to perform."""

    def run(self, rt: Runtime) -> Any:
        """Perform it on this thread, with the sync client."""
        ...

    async def arun(self, rt: Runtime) -> Any:
        """Perform it on the running loop, with the async client."""
        ...


Flow = Generator[Effect, Any, T]
"""A flow: yields effects, receives their results, returns a `T`."""


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class ClientCall:
    """Call a client method: `method` is the sync client's; the async driver awaits the async
    client's method of the same name with the same arguments. With `every_page`, the method is
    a paged listing (`iter_tools`, ...) and the result is the list of all its items."""

    method: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    every_page: bool = False

    def run(self, rt: Runtime) -> Any:
        result = getattr(rt.client, self.method.__name__)(*self.args, **self.kwargs)
        return list(result) if self.every_page else result

    async def arun(self, rt: Runtime) -> Any:
        result = getattr(rt.aclient, self.method.__name__)(*self.args, **self.kwargs)
        if self.every_page:
            return [item async for item in result]
        return await result


@dataclass(frozen=True)
class Sleep:
    """Wait this many seconds."""

    seconds: float

    def run(self, rt: Runtime) -> None:
        time.sleep(self.seconds)

    async def arun(self, rt: Runtime) -> None:
        await asyncio.sleep(self.seconds)


@dataclass(frozen=True)
class RunCustom:
    """Run a custom tool here (its failures come back as a failed outcome)."""

    tool: CustomTool
    arguments: dict[str, Any]
    context: CustomToolContext

    def run(self, rt: Runtime) -> ToolOutcome:
        return self.tool.run(self.arguments, self.context)

    async def arun(self, rt: Runtime) -> ToolOutcome:
        return await self.tool.arun(self.arguments, self.context)


@dataclass(frozen=True)
class PutBytes:
    """Upload bytes to a presigned URL (with the runtime's storage client, never the key)."""

    url: str
    data: bytes
    content_type: str

    def run(self, rt: Runtime) -> None:
        put_bytes(self.url, self.data, self.content_type, http_client=rt.storage_client)

    async def arun(self, rt: Runtime) -> None:
        await aput_bytes(self.url, self.data, self.content_type, http_client=rt.astorage_client)


@dataclass(frozen=True)
class GetBytes:
    """Download a presigned URL's bytes, refusing more than `max_bytes`."""

    url: str
    max_bytes: int

    def run(self, rt: Runtime) -> bytes:
        return get_bytes(self.url, max_bytes=self.max_bytes, http_client=rt.storage_client)

    async def arun(self, rt: Runtime) -> bytes:
        return await aget_bytes(self.url, max_bytes=self.max_bytes, http_client=rt.astorage_client)


@dataclass(frozen=True)
class Interrupt:
    """Pause the LangGraph run with `value` (`langgraph.types.interrupt`); the result is the
    value the run is resumed with. LangGraph re-runs the interrupted task from its start on
    resume, and this effect then returns at once with the resume value.

    Raises:
        ConfigurationError: not inside a LangGraph run, or langgraph is not installed.
    """

    value: Any

    def run(self, rt: Runtime) -> Any:
        return _interrupt(self.value)

    async def arun(self, rt: Runtime) -> Any:
        return _interrupt(self.value)


def _interrupt(value: Any) -> Any:
    try:
        from langgraph.types import interrupt
    except ImportError as exc:  # pragma: no cover - checked when the option is given
        raise ConfigurationError(INTERRUPT_NEEDS_LANGGRAPH) from exc
    try:
        return interrupt(value)
    except (RuntimeError, KeyError) as exc:  # no LangGraph run: no config, or no scratchpad
        raise ConfigurationError(
            "on_connection_required='interrupt' pauses a LangGraph run, and this tool call is "
            "not inside one (create_agent, a ToolNode or a graph node, run with a "
            "checkpointer). Outside LangGraph use on_connection_required='wait' (the call "
            "waits for the account, the link going to on_link) or 'message' (the model gets "
            "the link)."
        ) from exc


INTERRUPT_NEEDS_LANGGRAPH = (
    "on_connection_required='interrupt' needs langgraph: "
    "pip install 'langchain-toolrouter[langgraph]'"
)


@dataclass(frozen=True)
class Notify:
    """Call `callback(value)` (awaited when it returns an awaitable, in the async driver)."""

    callback: Callable[[Any], Any]
    value: Any

    def run(self, rt: Runtime) -> None:
        result = self.callback(self.value)
        if inspect.isawaitable(result):
            run_coroutine_sync(lambda: _awaited(result))

    async def arun(self, rt: Runtime) -> None:
        result = self.callback(self.value)
        if inspect.isawaitable(result):
            await result


async def _awaited(value: Awaitable[T]) -> T:
    return await value


@dataclass(frozen=True)
class Gather:
    """Run sub-flows at once; their results in order (the first failure is raised).

    Sync: on a short-lived pool of at most `MAX_THREADS` threads, each in a copy of the caller's
    context (callbacks, tracing); async: `asyncio.gather` on the running loop.
    """

    flows: Sequence[Flow[Any]]

    def run(self, rt: Runtime) -> list[Any]:
        if not self.flows:
            return []
        if len(self.flows) == 1:
            return [run_sync(self.flows[0], rt)]
        workers = min(MAX_THREADS, len(self.flows))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="toolrouter") as pool:
            futures = [pool.submit(copy_context().run, run_sync, flow, rt) for flow in self.flows]
            return [future.result() for future in futures]

    async def arun(self, rt: Runtime) -> list[Any]:
        return list(await asyncio.gather(*(run_async(flow, rt) for flow in self.flows)))


@dataclass(frozen=True)
class Shared:
    """Run `flow` once for all concurrent callers that ask `group` for `key`.

    The first caller runs it; the others (threads, or tasks of the same loop) wait for and
    share its result or exception. Their own flow objects are dropped unstarted.
    """

    group: SingleFlight
    key: Hashable
    flow: Flow[Any]

    def run(self, rt: Runtime) -> Any:
        return self.group.run_sync(self.key, lambda: run_sync(self.flow, rt))

    async def arun(self, rt: Runtime) -> Any:
        return await self.group.run_async(self.key, lambda: run_async(self.flow, rt))


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

    def _join_or_lead(
        self, key: Hashable, loop: asyncio.AbstractEventLoop | None
    ) -> tuple[Future[Any], bool]:
        """The run to wait for and False, or a new run this caller makes and True."""
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

    def _end(self, key: Hashable, mine: Future[Any]) -> None:
        with self._lock:
            if self._runs.get(key, (None,))[0] is mine:
                del self._runs[key]

    def run_sync(self, key: Hashable, work: Callable[[], T]) -> T:
        """`work()`, or the result of the run of it another caller is making for `key`."""
        mine, lead = self._join_or_lead(key, None)
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

    async def run_async(self, key: Hashable, work: Callable[[], Any]) -> Any:
        """`await work()`, or the result of the run another caller is making for `key`.

        The run is a task of its own, so a cancelled caller (even the one that started it)
        does not cancel it for the others."""
        loop = asyncio.get_running_loop()
        mine, lead = self._join_or_lead(key, loop)
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


# --------------------------------------------------------------------------- helpers


def call(
    method: Callable[Concatenate[ToolRouterClient, P], T], *args: P.args, **kwargs: P.kwargs
) -> Flow[T]:
    """Call a client method from a flow: `result = yield from call(ToolRouterClient.search,
    ...)` (typed by the sync method's signature)."""
    result = yield ClientCall(method, args, kwargs)
    return cast(T, result)


def pages(
    method: Callable[Concatenate[ToolRouterClient, P], Iterator[T]],
    *args: P.args,
    **kwargs: P.kwargs,
) -> Flow[list[T]]:
    """Every item of a paged listing, from a flow (`iter_tools`, `iter_toolkits`, ...)."""
    result = yield ClientCall(method, args, kwargs, every_page=True)
    return cast(list[T], result)


# --------------------------------------------------------------------------- drivers


def run_sync(flow: Flow[T], rt: Runtime) -> T:
    """Drive `flow` to its end on this thread; returns what it returns."""
    value: Any = None
    error: Exception | None = None
    try:
        while True:
            try:
                effect = flow.send(value) if error is None else flow.throw(error)
            except StopIteration as stop:
                return cast(T, stop.value)
            try:
                value, error = effect.run(rt), None
            except Exception as exc:
                value, error = None, exc
    finally:
        flow.close()


async def run_async(flow: Flow[T], rt: Runtime) -> T:
    """Drive `flow` to its end on the running loop; returns what it returns."""
    value: Any = None
    error: Exception | None = None
    try:
        while True:
            try:
                effect = flow.send(value) if error is None else flow.throw(error)
            except StopIteration as stop:
                return cast(T, stop.value)
            try:
                value, error = await effect.arun(rt), None
            except Exception as exc:
                value, error = None, exc
    finally:
        flow.close()
