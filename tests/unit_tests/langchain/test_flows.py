"""The flow drivers and the single-flight runs, with effects of their own (no service)."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from dataclasses import dataclass
from typing import Any

import pytest

from langchain_toolrouter._session.flows import (
    Flow,
    Gather,
    Shared,
    SingleFlight,
    run_async,
    run_sync,
)


@dataclass(frozen=True)
class Echo:
    """An effect that answers its value (or raises it, when it is an exception)."""

    value: Any

    def run(self, rt: Any) -> Any:
        if isinstance(self.value, BaseException):
            raise self.value
        return ("sync", self.value)

    async def arun(self, rt: Any) -> Any:
        if isinstance(self.value, BaseException):
            raise self.value
        return ("async", self.value)


def steps(seen: list[Any]) -> Flow[str]:
    seen.append((yield Echo(1)))
    try:
        yield Echo(KeyError("thrown back in"))
    except KeyError as exc:
        seen.append(f"caught {exc}")
    seen.append((yield Echo(2)))
    return "end"


def test_the_same_flow_runs_on_both_drivers() -> None:
    synced: list[Any] = []
    awaited: list[Any] = []
    assert run_sync(steps(synced), None) == "end"  # type: ignore[arg-type]
    assert asyncio.run(run_async(steps(awaited), None)) == "end"  # type: ignore[arg-type]
    assert synced == [("sync", 1), "caught 'thrown back in'", ("sync", 2)]
    assert awaited == [("async", 1), "caught 'thrown back in'", ("async", 2)]


def failing() -> Flow[None]:
    yield Echo(ValueError("not handled"))


def test_an_unhandled_error_leaves_the_flow() -> None:
    with pytest.raises(ValueError, match="not handled"):
        run_sync(failing(), None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not handled"):
        asyncio.run(run_async(failing(), None))  # type: ignore[arg-type]


def test_gather_keeps_the_order_of_its_flows() -> None:
    def one(n: int) -> Flow[int]:
        got = yield Echo(n)
        return int(got[1]) * 10

    def all_of() -> Flow[list[int]]:
        results: list[int] = yield Gather([one(1), one(2), one(3)])
        return results

    assert run_sync(all_of(), None) == [10, 20, 30]  # type: ignore[arg-type]
    assert asyncio.run(run_async(all_of(), None)) == [10, 20, 30]  # type: ignore[arg-type]


def test_gathering_nothing_gives_nothing_on_both_faces() -> None:
    """A multi-execute whose every item was refused before running gathers no sub-flow."""

    def none_of() -> Flow[list[Any]]:
        results: list[Any] = yield Gather([])
        return results

    assert run_sync(none_of(), None) == []  # type: ignore[arg-type]
    assert asyncio.run(run_async(none_of(), None)) == []  # type: ignore[arg-type]


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

    def shared() -> Flow[str]:
        result: str = yield Shared(group, "k", flow_of(work))
        return result

    def flow_of(factory: Any) -> Flow[str]:
        result: str = yield AwaitIt(factory)
        return result

    async def main() -> list[Any]:
        return await asyncio.gather(
            *(run_async(shared(), None) for _ in range(5)),  # type: ignore[arg-type]
            return_exceptions=True,
        )

    outcomes = asyncio.run(main())
    assert runs == [1]
    assert all(isinstance(o, LookupError) for o in outcomes)


def test_single_flight_is_shared_across_loops_threads_and_both_faces() -> None:
    """Threads each running `asyncio.run` (a sync web server calling an async agent) and a
    plain sync caller, all asking for one key while the first run lasts: one run."""
    group = SingleFlight()
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
    release.set()
    for thread in [first, *others]:
        thread.join(5)
    assert runs == [1]
    assert results == ["made"] * 5


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


@dataclass(frozen=True)
class AwaitIt:
    factory: Any

    def run(self, rt: Any) -> Any:  # pragma: no cover - async only
        raise AssertionError

    async def arun(self, rt: Any) -> Any:
        return await self.factory()
