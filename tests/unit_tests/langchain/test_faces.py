"""The two faces of a flow and the single-flight runs (no service)."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from typing import Any

import pytest

from langchain_toolrouter._session.faces import (
    AsyncFace,
    Face,
    SingleFlight,
    SyncFace,
    run_sync,
)


def echo(value: Any) -> Any:
    if isinstance(value, BaseException):
        raise value
    return ("sync", value)


async def aecho(value: Any) -> Any:
    if isinstance(value, BaseException):
        raise value
    return ("async", value)


async def steps(face: Face, seen: list[Any]) -> str:
    seen.append(await face.run(echo, aecho, 1))
    try:
        await face.run(echo, aecho, KeyError("raised in the flow"))
    except KeyError as exc:
        seen.append(f"caught {exc}")
    seen.append(await face.run(echo, aecho, 2))
    return "end"


def test_the_same_flow_runs_on_both_faces() -> None:
    synced: list[Any] = []
    awaited: list[Any] = []
    assert run_sync(steps(SyncFace(None), synced)) == "end"  # type: ignore[arg-type]
    assert asyncio.run(steps(AsyncFace(None), awaited)) == "end"  # type: ignore[arg-type]
    assert synced == [("sync", 1), "caught 'raised in the flow'", ("sync", 2)]
    assert awaited == [("async", 1), "caught 'raised in the flow'", ("async", 2)]


async def failing(face: Face) -> None:
    await face.run(echo, aecho, ValueError("not handled"))


def test_an_unhandled_error_leaves_the_flow() -> None:
    with pytest.raises(ValueError, match="not handled"):
        run_sync(failing(SyncFace(None)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not handled"):
        asyncio.run(failing(AsyncFace(None)))  # type: ignore[arg-type]


def test_a_sync_flow_that_awaits_real_async_work_is_refused() -> None:
    """A flow run by `run_sync` must only await its `SyncFace`: anything that would suspend
    (a real async call) is a bug, said at once instead of returning a half-run flow."""

    async def wrong() -> None:
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="awaited async work"):
        run_sync(wrong())


def test_the_deciding_frame_is_on_the_stack_at_each_step() -> None:
    """The point of the faces: while a step runs, the flow that asked for it is on the stack
    (sync: one driver frame below it, one face frame above it)."""
    import sys

    seen: list[list[str]] = []

    def look(_: Any) -> None:
        frame: Any = sys._getframe()
        names = []
        while frame is not None:
            names.append(frame.f_code.co_name)
            frame = frame.f_back
        seen.append(names[1:4])

    async def decides(face: Face) -> None:
        await face.run(look, aecho, None)

    run_sync(decides(SyncFace(None)))  # type: ignore[arg-type]
    assert seen == [["run", "decides", "run_sync"]]


def test_gather_keeps_the_order_of_its_flows() -> None:
    async def one(face: Face, n: int) -> int:
        got = await face.run(echo, aecho, n)
        return int(got[1]) * 10

    async def all_of(face: Face) -> list[int]:
        return await face.gather([one(face, 1), one(face, 2), one(face, 3)])

    assert run_sync(all_of(SyncFace(None))) == [10, 20, 30]  # type: ignore[arg-type]
    assert asyncio.run(all_of(AsyncFace(None))) == [10, 20, 30]  # type: ignore[arg-type]


def test_gathering_nothing_gives_nothing_on_both_faces() -> None:
    """A multi-execute whose every item was refused before running gathers no flow."""

    async def none_of(face: Face) -> list[Any]:
        return await face.gather([])

    assert run_sync(none_of(SyncFace(None))) == []  # type: ignore[arg-type]
    assert asyncio.run(none_of(AsyncFace(None))) == []  # type: ignore[arg-type]


def test_single_flight_runs_once_for_concurrent_threads() -> None:
    group = SingleFlight()
    started, release = threading.Event(), threading.Event()
    runs: list[int] = []

    def work() -> str:
        runs.append(1)
        started.set()
        release.wait(5)
        return "made"

    results: list[str] = []
    threads = [
        threading.Thread(target=lambda: results.append(group.run_sync("k", work))) for _ in range(8)
    ]
    threads[0].start()
    assert started.wait(5)
    for thread in threads[1:]:
        thread.start()
    release.set()
    for thread in threads:
        thread.join(5)
    assert runs == [1]
    assert results == ["made"] * 8
    assert group.run_sync("k", lambda: "again") == "again"  # nothing is kept afterwards


def test_single_flight_runs_once_for_concurrent_tasks_and_shares_a_failure() -> None:
    group = SingleFlight()
    runs: list[int] = []

    async def work() -> str:
        runs.append(1)
        await asyncio.sleep(0.01)
        raise LookupError("shared")

    async def main() -> list[Any]:
        face = AsyncFace(None)  # type: ignore[arg-type]
        return await asyncio.gather(
            *(face.shared(group, "k", work) for _ in range(5)), return_exceptions=True
        )

    outcomes = asyncio.run(main())
    assert runs == [1]
    assert all(isinstance(o, LookupError) for o in outcomes)


def test_single_flight_is_shared_across_loops_threads_and_both_faces() -> None:
    """Threads each running `asyncio.run` (a sync web server calling an async agent) and a
    plain sync caller, all asking for one key while the first run lasts: one run."""
    group = CountingFlight()
    started, release = threading.Event(), threading.Event()
    runs: list[int] = []

    async def work() -> str:
        runs.append(1)
        started.set()
        await asyncio.to_thread(release.wait, 5)
        return "made"

    results: list[str] = []

    def on_its_own_loop() -> None:
        results.append(asyncio.run(group.run_async("k", work)))

    def sync_caller() -> None:
        results.append(group.run_sync("k", lambda: "not shared"))

    first = threading.Thread(target=on_its_own_loop)
    first.start()
    assert started.wait(5)
    others = [threading.Thread(target=on_its_own_loop) for _ in range(3)]
    others.append(threading.Thread(target=sync_caller))
    for thread in others:
        thread.start()
    assert group.wait_for_callers(5)  # every caller has joined the run before it ends
    release.set()
    for thread in [first, *others]:
        thread.join(5)
    assert runs == [1]
    assert results == ["made"] * 5


class CountingFlight(SingleFlight):
    """A `SingleFlight` that counts its callers, so a test can wait for them (not sleep)."""

    def __init__(self) -> None:
        super().__init__()
        self._callers = threading.Semaphore(0)

    def lead_or_join(self, key: Any, loop: Any) -> Any:
        joined = super().lead_or_join(key, loop)
        self._callers.release()
        return joined

    def wait_for_callers(self, count: int) -> bool:
        return all(self._callers.acquire(timeout=5) for _ in range(count))


def test_a_sync_caller_on_the_loop_making_the_run_makes_its_own() -> None:
    """A sync call from inside the loop whose task is making the run cannot wait for it (the
    loop is blocked by that very wait): it runs its own work instead of deadlocking."""
    group = SingleFlight()

    async def slow() -> str:
        await asyncio.sleep(0.05)
        return "async"

    async def main() -> tuple[str, str]:
        task = asyncio.ensure_future(group.run_async("k", slow))
        await asyncio.sleep(0)  # the run has started
        inside = group.run_sync("k", lambda: "own")  # e.g. a sync tool call in a Jupyter cell
        return inside, await task

    assert asyncio.run(main()) == ("own", "async")


def test_a_cancelled_starter_leaves_the_run_to_the_others_and_nothing_unretrieved(
    caplog: pytest.LogCaptureFixture,
) -> None:
    group = SingleFlight()
    runs: list[int] = []

    async def failing() -> str:
        runs.append(1)
        await asyncio.sleep(0.01)
        raise LookupError("shared")

    async def main() -> Any:
        starter = asyncio.ensure_future(group.run_async("k", failing))
        await asyncio.sleep(0)
        waiter = asyncio.ensure_future(group.run_async("k", failing))
        await asyncio.sleep(0)
        starter.cancel()
        return await asyncio.gather(starter, waiter, return_exceptions=True)

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        outcomes = asyncio.run(main())
        assert isinstance(outcomes[0], asyncio.CancelledError)
        assert isinstance(outcomes[1], LookupError)
        del outcomes  # their tracebacks hold the futures; collected, an unread one would log
        gc.collect()
    assert runs == [1]
    assert "never retrieved" not in caplog.text
