"""The clients over the emulator's ASGI app in-process: no socket, the caller's own http client."""

from __future__ import annotations

import ast
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from langchain_toolrouter import AsyncToolRouterClient, ToolRouterClient, errors
from langchain_toolrouter.emulator import (
    DEFAULT_API_KEY,
    EmulatorState,
    FaultRule,
    async_transport,
    create_app,
    sync_transport,
)
from langchain_toolrouter.wire.retry import RetryPolicy

BASE_URL = "http://localhost"


def test_a_foreign_http_client_is_refused_clearly() -> None:
    with TestClient(create_app()) as test_client:
        if isinstance(test_client, httpx.Client):
            # Starlette before its move to httpx2 (its lowest release we allow): an httpx
            # client like any other, so it is taken and works.
            with ToolRouterClient(
                api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=test_client
            ) as client:
                assert client.create_session(user_id="inproc", toolkits=["notes"]).session_id
        else:
            # Built on httpx2, it cannot send httpx requests: refused, pointing to the fix.
            with pytest.raises(TypeError, match=r"sync_transport"):
                ToolRouterClient(api_key=DEFAULT_API_KEY, http_client=test_client)
    with httpx.Client() as sync_http, pytest.raises(TypeError, match=r"httpx\.AsyncClient"):
        AsyncToolRouterClient(api_key=DEFAULT_API_KEY, http_client=sync_http)  # type: ignore[arg-type]


async def test_async_client_over_asgi_transport() -> None:
    app = create_app()
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app))
    async with AsyncToolRouterClient(
        api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=http
    ) as client:
        session = await client.create_session(user_id="inproc", toolkits=["notes"])
        result = await client.execute(session.session_id, "NOTES_CREATE_NOTE", {"title": "t"})
        assert result.successful
        tools = [tool.slug async for tool in client.iter_tools(session.session_id, limit=2)]
        assert "COMPOSIO_SEARCH_TOOLS" in tools
        with pytest.raises(errors.NotFoundError) as caught:
            await client.get_session("trs_missing")
        assert caught.value.slug
        assert caught.value.request_id
    assert not http.is_closed, "the caller's client is theirs to close"
    await http.aclose()


def test_sync_client_over_the_in_process_transport() -> None:
    app = create_app()
    state: EmulatorState = app.state.emulator
    http = httpx.Client(transport=sync_transport(app))
    with ToolRouterClient(api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=http) as client:
        session = client.create_session(user_id="inproc-sync", toolkits=["notes"])
        result = client.execute(session.session_id, "NOTES_CREATE_NOTE", {"title": "t"})
        assert result.successful
        # The log is complete as soon as the answer arrives: no polling needed.
        assert [r.operation for r in state.log] == ["create_session", "execute"]
        tools = [tool.slug for tool in client.iter_tools(session.session_id, limit=2)]
        assert "COMPOSIO_SEARCH_TOOLS" in tools
        with pytest.raises(errors.NotFoundError) as caught:
            client.get_session("trs_missing")
        assert caught.value.status == 404
    http.close()
    http.close()  # closing twice is harmless


def _notes(client: ToolRouterClient, session_id: str) -> list[str]:
    result = client.execute(session_id, "NOTES_LIST_NOTES", {"limit": 100})
    return [note["title"] for note in result.data["notes"]]


@pytest.mark.parametrize("drop", ["before", "after"])
def test_in_process_drops_look_like_a_lost_connection_and_execute_runs_at_most_once(
    drop: str,
) -> None:
    app = create_app()
    state: EmulatorState = app.state.emulator
    fast = RetryPolicy(max_attempts=4, wait=False)
    with (
        httpx.Client(transport=sync_transport(app)) as http,
        ToolRouterClient(
            api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=http, retry=fast
        ) as client,
    ):
        sid = client.create_session(user_id=f"drop-{drop}").session_id
        state.faults.add(FaultRule(operation="execute", drop=drop, times=1))  # type: ignore[arg-type]
        with pytest.raises(errors.ConnectionLostError):
            client.execute(sid, "NOTES_CREATE_NOTE", {"title": "once"})
        assert state.log.count("execute") == 1
        assert state.log.count("execute", processed=True) == (drop == "after")
        assert _notes(client, sid) == (["once"] if drop == "after" else [])
        state.faults.add(FaultRule(operation="get_session", drop=drop, times=2))  # type: ignore[arg-type]
        assert client.get_session(sid).session_id == sid  # reads are retried
        assert state.log.count("get_session") == 3


async def test_async_transport_maps_drops_too() -> None:
    app = create_app()
    state: EmulatorState = app.state.emulator
    http = httpx.AsyncClient(transport=async_transport(app))
    async with AsyncToolRouterClient(
        api_key=DEFAULT_API_KEY,
        base_url=BASE_URL,
        http_client=http,
        retry=RetryPolicy(wait=False),
    ) as client:
        sid = (await client.create_session(user_id="adrop")).session_id
        state.faults.add(FaultRule(operation="execute", drop="after", times=1))
        with pytest.raises(errors.ConnectionLostError):
            await client.execute(sid, "NOTES_CREATE_NOTE", {"title": "once"})
        assert state.log.count("execute", processed=True) == 1
        result = await client.execute(sid, "NOTES_LIST_NOTES", {})
        assert [note["title"] for note in result.data["notes"]] == ["once"]
    await http.aclose()


WIRE = Path(__file__).resolve().parents[3] / "langchain_toolrouter" / "wire"


@pytest.mark.parametrize("module", sorted(WIRE.glob("*.py")), ids=lambda p: p.name)
def test_the_wire_package_stays_free_of_langchain_io_and_the_emulator(module: Path) -> None:
    imported: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    forbidden = ("langchain_core", "langchain_toolrouter.emulator", "tenacity", "asyncio")
    assert not [name for name in imported if name.startswith(forbidden)]


def test_a_retried_delete_that_finds_the_session_gone_reports_the_first_delete() -> None:
    app = create_app()
    state: EmulatorState = app.state.emulator
    with (
        httpx.Client(transport=sync_transport(app)) as http,
        ToolRouterClient(
            api_key=DEFAULT_API_KEY,
            base_url=BASE_URL,
            http_client=http,
            retry=RetryPolicy(wait=False),
        ) as client,
    ):
        sid = client.create_session(user_id="del").session_id
        # The delete runs, its answer is lost, the retry meets a 404: that is success.
        state.faults.add(FaultRule(operation="delete_session", drop="after", times=1))
        done = client.delete_session(sid)
        assert (done.session_id, done.deleted) == (sid, True)
        assert state.log.count("delete_session") == 2
        with pytest.raises(errors.NotFoundError):
            client.get_session(sid)
        # A 404 after retries that provably never ran (429s) stays a 404.
        state.faults.add(FaultRule(operation="delete_session", status=429, retry_after=0, times=1))
        with pytest.raises(errors.NotFoundError):
            client.delete_session(sid)
        # So does a first-attempt 404, and a 404 from another operation after a lost answer.
        with pytest.raises(errors.NotFoundError):
            client.delete_session("trs_never_there")
        state.faults.add(FaultRule(operation="get_session", drop="after", times=1))
        with pytest.raises(errors.NotFoundError):
            client.get_session(sid)


async def test_async_retried_delete_reports_the_first_delete_too() -> None:
    app = create_app()
    state: EmulatorState = app.state.emulator
    http = httpx.AsyncClient(transport=async_transport(app))
    async with AsyncToolRouterClient(
        api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=http, retry=RetryPolicy(wait=False)
    ) as client:
        sid = (await client.create_session(user_id="adel")).session_id
        state.faults.add(FaultRule(operation="delete_session", drop="after", times=1))
        done = await client.delete_session(sid)
        assert (done.session_id, done.deleted) == (sid, True)
        with pytest.raises(errors.NotFoundError):
            await client.delete_session("trs_never_there")
    await http.aclose()
