"""Running a coroutine to completion from sync code: the one rule for async work called sync.

An async-only custom tool or executor called from sync code (`tool.invoke`) runs on an event
loop of its own: a private loop on this thread when it runs none, or on a short-lived worker
thread when it does (a sync call made inside a running loop, e.g. in Jupyter), as blocking a
thread's loop on itself would deadlock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from typing import Any, TypeVar

__all__ = ["run_coroutine_sync", "running_loop"]

_T = TypeVar("_T")


def run_coroutine_sync(factory: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    """Run the coroutine `factory()` makes to completion from sync code and return its result.

    On a private event loop on this thread when it runs none; otherwise (a sync call made from
    inside a running loop) on a short-lived worker thread, as blocking this thread's loop on
    itself would deadlock. The thread's current loop is left as it was (`asyncio.run` would
    unset it), and the coroutine runs in a copy of the caller's context.
    """
    if running_loop() is None:
        return _run_on_private_loop(factory)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolrouter-async") as pool:
        return pool.submit(copy_context().run, _run_on_private_loop, factory).result()


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running on this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _run_on_private_loop(factory: Callable[[], Coroutine[Any, Any, _T]]) -> _T:
    """`asyncio.run` without touching the thread's current loop: run, then cancel what is
    left, close async generators (this closes the loop's pooled client) and the executor."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(factory())
    finally:
        try:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            loop.close()
