"""Notebook-style use (the sync API inside a running event loop) and many calls at once."""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

import asyncio
import gc
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from langchain_toolrouter.client import AsyncToolRouterClient
from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.emulator import EmulatorServer, FaultRule
from langchain_toolrouter.session import ToolRouter
from langchain_toolrouter.tools import ToolRouterTool
from tests.unit_tests.langchain.loopback import (  # noqa: F401 - fixtures
    arouter,
    make_router,
    ops,
    router,
    server,
    user,
)

CALLS = 20


@custom_tool
async def slow_echo(text: str) -> dict[str, str]:
    """Echo a text after a short pause."""
    await asyncio.sleep(0.05)
    return {"text": text}


def call(tool: ToolRouterTool, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": tool.name, "args": args}


def test_sync_api_inside_a_running_loop(
    server: EmulatorServer, user: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As in Jupyter: a loop is running and the user calls the sync API from a cell.

    No helper thread may be started from the cell. Counting the process's threads (as this
    test once did) was flaky under load: threads of other origins (the emulator's server
    thread, idle pool workers of earlier tests ending when their executor is garbage
    collected) come and go while the cell runs. So the threads the cell starts are recorded.
    """
    started_from_cell: list[str] = []
    cell_thread: list[threading.Thread] = []
    start = threading.Thread.start

    def recording_start(self: threading.Thread) -> None:
        if threading.current_thread() in cell_thread:
            started_from_cell.append(self.name)
        start(self)

    monkeypatch.setattr(threading.Thread, "start", recording_start)

    async def cell() -> list[str]:
        running = asyncio.get_running_loop()
        cell_thread.append(threading.current_thread())
        router = make_router(server)
        session = router.create_session(user, toolkits=["notes"])
        tools = session.get_tools()
        found = session.search_tools("create a note")
        note = found.get("NOTES_CREATE_NOTE")
        assert isinstance(note, ToolRouterTool)
        message = note.invoke(call(note, {"title": "from a cell", "content": "x"}, "n1"))
        assert isinstance(message, ToolMessage)
        assert message.status == "success"
        assert session.toolkits().get("notes") is not None
        assert session.files.upload(b"cell", "cell.txt") == "cell.txt"
        assert session.files.download("cell.txt") == b"cell"
        router.close()
        assert asyncio.get_running_loop() is running
        return tools.names

    names = asyncio.run(asyncio.wait_for(cell(), timeout=30))
    assert "COMPOSIO_SEARCH_TOOLS" in names
    assert started_from_cell == []  # no helper loop or worker thread, not even a short-lived one


async def test_twenty_tool_calls_at_once_with_gather(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[slow_echo])
    note = await session.atool("NOTES_CREATE_NOTE")
    echo = await session.atool("LOCAL_SLOW_ECHO")
    started = time.perf_counter()
    messages = await asyncio.gather(
        *(
            note.ainvoke(call(note, {"title": f"n{i}", "content": "c"}, f"a{i}"))
            for i in range(CALLS)
        ),
        *(echo.ainvoke(call(echo, {"text": f"e{i}"}, f"b{i}")) for i in range(CALLS)),
    )
    elapsed = time.perf_counter() - started
    assert [m.status for m in messages] == ["success"] * (2 * CALLS)
    titles = sorted(m.artifact["data"]["title"] for m in messages[:CALLS])
    assert titles == sorted(f"n{i}" for i in range(CALLS))
    assert [m.tool_call_id for m in messages[CALLS:]] == [f"b{i}" for i in range(CALLS)]
    assert elapsed < CALLS * 0.05  # the local sleeps overlapped
    assert ops(server, "execute", session.session_id) == CALLS


def test_twenty_tool_calls_at_once_from_threads(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = router.create_session(user, toolkits=["notes"])
    note = session.tool("NOTES_CREATE_NOTE")
    with ThreadPoolExecutor(max_workers=10) as pool:
        messages = list(
            pool.map(
                lambda i: note.invoke(call(note, {"title": f"t{i}", "content": "c"}, f"t{i}")),
                range(CALLS),
            )
        )
    assert [m.status for m in messages] == ["success"] * CALLS
    assert len({m.artifact["data"]["id"] for m in messages}) == CALLS
    assert ops(server, "execute", session.session_id) == CALLS


async def test_concurrent_multi_execute_with_custom_items(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[slow_echo])
    multi = await session.atool("COMPOSIO_MULTI_EXECUTE_TOOL")
    arguments = {
        "tools": [
            {"tool_slug": "LOCAL_SLOW_ECHO", "arguments": {"text": "a"}},
            {"tool_slug": "LOCAL_SLOW_ECHO", "arguments": {"text": "b"}},
            {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}},
        ],
        "sync_response_to_workbench": False,
    }
    messages = await asyncio.gather(
        *(multi.ainvoke(call(multi, arguments, f"m{i}")) for i in range(5))
    )
    assert all(m.status == "success" for m in messages)
    assert ops(server, "execute_meta", session.session_id) == 5  # one service call each


def test_slow_service_is_an_error_message_not_a_hang(server: EmulatorServer, user: str) -> None:
    router = make_router(server, execute_timeout=0.3)
    session = router.create_session(user, toolkits=["notes"])
    note = session.tool("NOTES_LIST_NOTES")
    server.faults.add(FaultRule(operation="execute", latency=2.0, times=1))
    try:
        started = time.perf_counter()
        message = note.invoke(call(note, {}, "slow"))
        assert time.perf_counter() - started < 1.5
        assert message.status == "error"
        assert "MAY HAVE RUN" in message.content  # timed out after sending: say so
    finally:
        server.faults.clear()
        router.close()


@pytest.mark.parametrize("calls", [5])
async def test_sync_and_async_share_one_session(arouter: ToolRouter, user: str, calls: int) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"])
    note = await session.atool("NOTES_CREATE_NOTE")
    sync_runs = [
        asyncio.to_thread(note.invoke, call(note, {"title": f"s{i}", "content": "c"}, f"s{i}"))
        for i in range(calls)
    ]
    async_runs = [
        note.ainvoke(call(note, {"title": f"a{i}", "content": "c"}, f"a{i}")) for i in range(calls)
    ]
    messages = await asyncio.gather(*sync_runs, *async_runs)
    assert all(m.status == "success" for m in messages)
    listed = await session.aexecute("NOTES_LIST_NOTES", {})
    assert listed.successful


def test_one_session_across_several_event_loops(router: ToolRouter, user: str) -> None:
    """A script may call asyncio.run more than once; each loop gets working connections, and
    each loop's client is closed when asyncio.run shuts that loop down (no ResourceWarning,
    which this suite turns into an error)."""
    session = router.create_session(user, toolkits=["notes"])
    clients: list[AsyncToolRouterClient] = []

    async def create(title: str) -> str:
        note = await session.atool("NOTES_CREATE_NOTE")
        message = await note.ainvoke(call(note, {"title": title, "content": "c"}, title))
        clients.append(router.aclient)
        return str(message.status)

    assert [asyncio.run(create(t)) for t in ("first", "second", "last")] == ["success"] * 3
    assert len({id(c) for c in clients}) == 3
    assert all(client.is_closed for client in clients)
    gc.collect()  # anything left unclosed would warn here, under this suite's warning filters


@pytest.mark.parametrize("drop_router", [False, True])
def test_close_as_the_last_step_of_asyncio_run_leaves_nothing_open(
    server: EmulatorServer, user: str, drop_router: bool
) -> None:
    """`router.close()` (not `aclose`) right before the coroutine of `asyncio.run` returns: the
    loop cancels the close it scheduled, and the client must still be closed by shutdown (no
    ResourceWarning, which this suite turns into an error), also when nothing holds the router."""

    async def main() -> None:
        router = ToolRouter(api_key=server.api_key, base_url=server.base_url)
        await router.acreate_session(user, toolkits=["notes"])
        router.close()
        if drop_router:
            del router
            gc.collect()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(main())
        gc.collect()
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []


def issue_args(user: str) -> dict[str, Any]:
    return {"owner": user, "repo": "app", "title": "Crash on start"}


async def test_concurrent_unconnected_calls_share_one_link(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["github"])
    tool = await session.atool("GITHUB_CREATE_AN_ISSUE")
    messages = await asyncio.gather(
        *(tool.ainvoke(call(tool, issue_args(user), f"g{i}")) for i in range(5))
    )
    assert [m.status for m in messages] == ["error"] * 5
    assert len({m.artifact["redirect_url"] for m in messages}) == 1
    assert ops(server, "create_link", session.session_id) == 1  # not one pending account each


def test_unconnected_calls_from_threads_share_one_link(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = router.create_session(user, toolkits=["github"])
    tool = session.tool("GITHUB_CREATE_AN_ISSUE")
    with ThreadPoolExecutor(max_workers=5) as pool:
        messages = list(
            pool.map(lambda i: tool.invoke(call(tool, issue_args(user), f"t{i}")), range(5))
        )
    assert len({m.artifact["redirect_url"] for m in messages}) == 1
    assert ops(server, "create_link", session.session_id) == 1
