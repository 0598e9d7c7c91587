"""A router closes every client it opened: sync and per-loop async, with close, aclose and `with`."""

from __future__ import annotations

import asyncio
import threading

import pytest

from langchain_toolrouter.client import AsyncToolRouterClient
from langchain_toolrouter.session import ToolRouter


def make() -> ToolRouter:
    return ToolRouter(api_key="ak_test", base_url="http://127.0.0.1:9")


async def test_aclose_closes_the_sync_and_the_loops_client() -> None:
    router = make()
    aclient = router.aclient
    assert router.aclient is aclient  # one per loop
    await router.aclose()
    assert router.client.is_closed
    assert aclient.is_closed
    with pytest.raises(RuntimeError, match="closed"):
        _ = router.aclient


async def test_async_with_closes_everything() -> None:
    async with make() as router:
        aclient = router.aclient
    assert router.client.is_closed
    assert aclient.is_closed


async def test_a_closed_router_cannot_be_entered_again() -> None:
    router = make()
    with router:
        pass
    with pytest.raises(RuntimeError, match="this ToolRouter is closed; create a new one"):
        router.__enter__()
    with pytest.raises(RuntimeError, match="this ToolRouter is closed; create a new one"):
        await router.__aenter__()
    with pytest.raises(RuntimeError, match="by the ToolRouter that made it"):
        router.create_session("u1")


def test_each_asyncio_run_gets_a_client_closed_with_its_loop() -> None:
    router = make()

    async def use() -> AsyncToolRouterClient:
        return router.aclient

    first, second = asyncio.run(use()), asyncio.run(use())
    assert first is not second
    assert first.is_closed
    assert second.is_closed
    router.close()


def test_sync_close_in_a_running_loop_closes_that_loops_client() -> None:
    """Jupyter: `router.close()` in a cell, on the loop that used the async client."""

    async def cell() -> AsyncToolRouterClient:
        router = make()
        aclient = router.aclient
        router.close()
        assert router.client.is_closed
        await asyncio.sleep(0)  # the scheduled close runs
        await asyncio.sleep(0)
        return aclient

    assert asyncio.run(cell()).is_closed


def test_sync_close_reaches_a_loop_on_another_thread() -> None:
    router = make()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever)
    thread.start()
    try:

        async def use() -> AsyncToolRouterClient:
            return router.aclient

        aclient = asyncio.run_coroutine_threadsafe(use(), loop).result(timeout=5)
        router.close()
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0.01), loop).result(timeout=5)
        assert aclient.is_closed
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def test_with_closes_the_sync_client() -> None:
    with make() as router:
        pass
    assert router.client.is_closed
