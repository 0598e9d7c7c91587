"""The flow drivers and the single-flight runs, with effects of their own (no service)."""

from __future__ import annotations

import asyncio
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


@dataclass(frozen=True)
class AwaitIt:
    factory: Any

    def run(self, rt: Any) -> Any:  # pragma: no cover - async only
        raise AssertionError

    async def arun(self, rt: Any) -> Any:
        return await self.factory()
