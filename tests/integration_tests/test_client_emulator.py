"""Both clients against the real emulator on a loopback socket, with injected faults.

One test body serves the sync and the async client. The emulator's request log is the witness:
it records every request it saw, whether its handler ran, and the ``x-request-id`` it carried.
A request is logged before the client can see the end of its answer, so the log is complete
when a call returns; only a request the client gave up on (a timeout) is logged when it ends.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from langchain_toolrouter import AsyncToolRouterClient, ToolRouterClient, errors
from langchain_toolrouter.emulator import EmulatorServer, FaultRule
from langchain_toolrouter.wire.retry import RetryPolicy
from tests.unit_tests.wire._fakes import AnyClient, call, collect

FAST = RetryPolicy(max_attempts=4, wait=False)


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer() as running:
        yield running


@pytest.fixture(autouse=True)
def _clean_faults(server: EmulatorServer) -> Iterator[None]:
    server.faults.clear()
    server.log.clear()
    yield
    server.faults.clear()


@pytest.fixture(params=["sync", "async"])
def flavor(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def open_client(flavor: str, server: EmulatorServer, **options: Any) -> AnyClient:
    options.setdefault("api_key", server.api_key)
    options.setdefault("base_url", server.base_url)
    options.setdefault("retry", FAST)
    if flavor == "sync":
        return ToolRouterClient(**options)
    return AsyncToolRouterClient(**options)


async def close(client: AnyClient) -> None:
    if isinstance(client, ToolRouterClient):
        client.close()
    else:
        await client.aclose()


@pytest.fixture
async def client(flavor: str, server: EmulatorServer) -> AsyncIterator[AnyClient]:
    made = open_client(flavor, server)
    yield made
    await close(made)


def browser(method: str, url: str, **options: Any) -> httpx.Response:
    """What a user's browser or a presigned-URL upload does: a plain request, no API key."""
    response = httpx.request(method, url, **options)
    response.raise_for_status()
    return response


async def new_session(client: AnyClient, user: str = "user", **fields: Any) -> str:
    """A session for a user no other test touched (the server lives for the whole module)."""
    user_id = f"{user}-{uuid.uuid4().hex[:8]}"
    session = await call(client, "create_session", user_id=user_id, **fields)
    return str(session.session_id)


async def notes_of(client: AnyClient, session_id: str) -> list[dict[str, Any]]:
    result = await call(client, "execute", session_id, "NOTES_LIST_NOTES", {"limit": 100})
    assert result.successful, result.error
    notes: list[dict[str, Any]] = result.data["notes"]
    return notes


# --------------------------------------------------------------------------- every operation


@pytest.mark.parametrize("api_version", ["v3", "v3.1"])
async def test_session_lifecycle(flavor: str, server: EmulatorServer, api_version: str) -> None:
    client = open_client(flavor, server, api_version=api_version)
    try:
        created = await call(
            client,
            "create_session",
            user_id=f"life-{uuid.uuid4().hex[:8]}",
            toolkits=["notes", "github"],
            manage_connections={"enable": True},
        )
        assert created.session_id.startswith("trs_")
        assert created.config.toolkits.enabled == ["notes", "github"]
        assert created.config.manage_connections.enabled is True
        got = await call(client, "get_session", created.session_id)
        assert got.session_id == created.session_id
        assert got.mcp.url
        patched = await call(
            client,
            "update_session",
            created.session_id,
            expected_config_version=got.config_version,
            toolkits={"disable": ["gmail"]},
        )
        assert patched.config_version == (got.config_version or 0) + 1
        attached = await call(
            client,
            "attach",
            created.session_id,
            custom_tools=[
                {
                    "slug": "ping",
                    "name": "Ping",
                    "description": "Answers pong",
                    "input_schema": {"type": "object", "properties": {}},
                }
            ],
        )
        assert attached.experimental is not None
        [echo] = attached.experimental.custom_tools or []
        assert echo.slug.startswith("LOCAL_")
        assert echo.original_slug == "ping"
        history = await collect(client, "iter_config_history", created.session_id, limit=1)
        assert [entry.version for entry in history] == [2, 1]
        assert [entry.is_current for entry in history] == [True, False]
        deleted = await call(client, "delete_session", created.session_id)
        assert deleted.deleted is True
        with pytest.raises(errors.NotFoundError):
            await call(client, "get_session", created.session_id)
        assert server.log.count("get_session") == 2
        assert all(r.path.startswith(f"/api/{api_version}/") for r in server.log)
    finally:
        await close(client)


async def test_execute_and_execute_meta(client: AnyClient) -> None:
    sid = await new_session(client)
    made = await call(client, "execute", sid, "NOTES_CREATE_NOTE", {"title": "hello"})
    assert made.successful
    assert made.log_id
    failed = await call(client, "execute", sid, "NOTES_GET_NOTE", {"note_id": "note_missing"})
    assert failed.successful is False
    assert failed.error
    meta = await call(
        client,
        "execute_meta",
        sid,
        "COMPOSIO_SEARCH_TOOLS",
        {"queries": [{"use_case": "create a note"}]},
    )
    assert meta.successful, meta.error


async def test_links_toolkits_and_connections(client: AnyClient, server: EmulatorServer) -> None:
    sid = await new_session(client, "linker")
    link = await call(client, "create_link", sid, "github")
    assert link.connected_account_id
    assert link.redirect_url.startswith(server.base_url)
    before = [t.slug for t in await collect(client, "iter_toolkits", sid, is_connected=True)]
    assert "github" not in before
    browser("GET", link.redirect_url)  # the user finishes the link
    after = await collect(client, "iter_toolkits", sid, is_connected=True)
    assert "github" in [t.slug for t in after]
    with pytest.raises(errors.BadRequestError) as caught:
        await call(client, "create_link", sid, "notes")
    assert caught.value.slug
    assert caught.value.suggested_fix


async def test_proxy_execute(client: AnyClient) -> None:
    sid = await new_session(client, "proxy")
    await call(client, "execute", sid, "NOTES_CREATE_NOTE", {"title": "via tool"})
    result = await call(client, "proxy_execute", sid, "notes", "/notes", "GET")
    assert result.status == 200
    assert "via tool" in str(result.data)


async def test_tools_search_and_pagination(client: AnyClient, server: EmulatorServer) -> None:
    sid = await new_session(client, "pager")
    page = await call(client, "list_tools", sid, limit=2)
    assert len(page.items) <= 2
    everything = await collect(client, "iter_tools", sid, limit=2)
    slugs = [tool.slug for tool in everything]
    assert len(slugs) == len(set(slugs))
    assert len(slugs) > 2
    assert server.log.count("list_tools") >= 1 + -(-len(slugs) // 2)
    toolkits = await collect(client, "iter_toolkits", sid, limit=1)
    assert len(toolkits) >= 2
    found = await call(client, "search", sid, ["create a note", "send an email"])
    assert [r.index for r in found.results] == [1, 2]
    assert found.results[0].primary_tool_slugs


async def test_mount_files(client: AnyClient, server: EmulatorServer) -> None:
    sid = await new_session(client, "files")
    for name in ("a.txt", "b.txt", "c.txt"):
        upload = await call(client, "create_upload_url", sid, f"docs/{name}", mimetype="text/plain")
        browser(
            "PUT", upload.upload_url, content=name.encode(), headers={"content-type": "text/plain"}
        )
    items = await collect(client, "iter_mount_items", sid, prefix="/docs", limit=2)
    assert sorted(i.mount_relative_path for i in items) == [
        "docs/a.txt",
        "docs/b.txt",
        "docs/c.txt",
    ]
    download = await call(client, "create_download_url", sid, "docs/b.txt")
    assert browser("GET", download.download_url).content == b"b.txt"
    await call(client, "delete_mount_item", sid, "docs/b.txt")
    await call(client, "delete_mount_item", sid, "docs/b.txt")  # idempotent
    page = await call(client, "list_mount_items", sid)
    assert sorted(i.mount_relative_path for i in page.items) == ["docs/a.txt", "docs/c.txt"]
    presigned = [r for r in server.log if r.operation.startswith("presigned")]
    assert presigned
    assert not any(r.had_api_key for r in presigned), "the key never goes to presigned URLs"


# --------------------------------------------------------------------------- errors


async def test_wrong_key_is_an_authentication_error(flavor: str, server: EmulatorServer) -> None:
    client = open_client(flavor, server, api_key="ak_wrong")
    try:
        with pytest.raises(errors.AuthenticationError) as caught:
            await call(client, "get_session", "trs_x")
        assert caught.value.request_id
        assert "ak_wrong" not in str(caught.value)
    finally:
        await close(client)


async def test_stale_config_version_is_a_conflict_and_not_retried(
    client: AnyClient, server: EmulatorServer
) -> None:
    sid = await new_session(client, "conflict")
    await call(client, "update_session", sid, expected_config_version=1, search={"enable": False})
    with pytest.raises(errors.ConflictError):
        await call(
            client, "update_session", sid, expected_config_version=1, search={"enable": True}
        )
    assert server.log.count("update_session") == 2


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, errors.BadRequestError),
        (403, errors.PermissionDeniedError),
        (404, errors.NotFoundError),
        (422, errors.UnprocessableEntityError),
        (500, errors.ServerError),
    ],
)
async def test_injected_statuses_raise_their_class(
    client: AnyClient, server: EmulatorServer, status: int, cls: type[errors.APIError]
) -> None:
    sid = await new_session(client, f"status-{status}")
    server.faults.add(FaultRule(operation="execute", status=status, message=f"injected {status}"))
    with pytest.raises(cls) as caught:
        await call(client, "execute", sid, "NOTES_LIST_NOTES")
    assert caught.value.status == status
    assert caught.value.message == f"injected {status}"
    assert server.log.count("execute") == 1
    assert server.log.count("execute", processed=True) == 0


# --------------------------------------------------------------------------- retries and faults


async def test_a_503_burst_is_ridden_out_by_reads_with_one_request_id(
    client: AnyClient, server: EmulatorServer
) -> None:
    sid = await new_session(client, "burst")
    server.faults.add(FaultRule(operation="list_tools", status=503, times=3))
    page = await call(client, "list_tools", sid)
    assert page.items
    records = server.log.filter("list_tools")
    assert len(records) == 4
    assert len({r.request_id for r in records}) == 1
    assert [r.status for r in records] == [503, 503, 503, 200]


async def test_rate_limit_retry_after_is_waited_out(flavor: str, server: EmulatorServer) -> None:
    client = open_client(flavor, server, retry=RetryPolicy(max_attempts=3))
    try:
        sid = await new_session(client, "limited")
        server.faults.add(FaultRule(operation="execute", status=429, retry_after=0.3, times=1))
        started = time.monotonic()
        result = await call(client, "execute", sid, "NOTES_CREATE_NOTE", {"title": "once"})
        waited = time.monotonic() - started
        assert result.successful
        assert waited >= 0.3
        assert server.log.count("execute") == 2
        assert server.log.count("execute", processed=True) == 1
        assert len(await notes_of(client, sid)) == 1
    finally:
        await close(client)


async def test_execute_whose_response_is_lost_runs_exactly_once(
    client: AnyClient, server: EmulatorServer
) -> None:
    sid = await new_session(client, "lost")
    server.faults.add(FaultRule(operation="execute", drop="after", times=1))
    with pytest.raises(errors.ConnectionLostError) as caught:
        await call(client, "execute", sid, "NOTES_CREATE_NOTE", {"title": "send once"})
    assert caught.value.request_sent is True
    assert server.log.count("execute") == 1
    assert server.log.count("execute", processed=True) == 1
    notes = await notes_of(client, sid)
    assert [n["title"] for n in notes] == ["send once"], "the side effect happened once"


async def test_execute_dropped_before_processing_is_still_not_resent(
    client: AnyClient, server: EmulatorServer
) -> None:
    # From the client's side a drop before or after processing looks the same: unknown outcome.
    sid = await new_session(client, "dropped")
    server.faults.add(FaultRule(operation="execute", drop="before", times=1))
    with pytest.raises(errors.ConnectionLostError):
        await call(client, "execute", sid, "NOTES_CREATE_NOTE", {"title": "maybe"})
    assert server.log.count("execute") == 1
    assert await notes_of(client, sid) == []


async def test_reads_are_retried_after_a_dropped_connection(
    client: AnyClient, server: EmulatorServer
) -> None:
    sid = await new_session(client, "reread")
    server.faults.add(FaultRule(operation="get_session", drop="after", times=2))
    session = await call(client, "get_session", sid)
    assert session.session_id == sid
    records = server.log.filter("get_session")
    assert len(records) == 3
    assert len({r.request_id for r in records}) == 1


class _RefuseFirstConnect(httpx.HTTPTransport):
    """A transport whose first connection attempt is refused (nothing reaches the server)."""

    refused = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not self.refused:
            self.refused += 1
            raise httpx.ConnectError("connection refused", request=request)
        return super().handle_request(request)


class _AsyncRefuseFirstConnect(httpx.AsyncHTTPTransport):
    refused = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not self.refused:
            self.refused += 1
            raise httpx.ConnectError("connection refused", request=request)
        return await super().handle_async_request(request)


async def test_execute_is_retried_when_the_connection_was_never_made(
    flavor: str, server: EmulatorServer
) -> None:
    http: httpx.Client | httpx.AsyncClient
    if flavor == "sync":
        http = httpx.Client(transport=_RefuseFirstConnect())
    else:
        http = httpx.AsyncClient(transport=_AsyncRefuseFirstConnect())
    setup = open_client(flavor, server)
    client = open_client(flavor, server, http_client=http)
    try:
        sid = await new_session(setup, "refused")
        result = await call(client, "execute", sid, "NOTES_CREATE_NOTE", {"title": "after refusal"})
        assert result.successful
        assert server.log.count("execute", processed=True) == 1
    finally:
        await close(client)
        await close(setup)
        if isinstance(http, httpx.Client):
            http.close()
        else:
            await http.aclose()


async def test_a_dead_port_gives_a_connect_error_after_bounded_attempts(flavor: str) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    options: dict[str, Any] = {
        "api_key": "ak_x",
        "base_url": f"http://127.0.0.1:{port}",
        "retry": FAST,
    }
    client: AnyClient = (
        ToolRouterClient(**options) if flavor == "sync" else AsyncToolRouterClient(**options)
    )
    try:
        with pytest.raises(errors.ConnectError) as caught:
            await call(client, "execute", "trs_x", "NOTES_LIST_NOTES")
        assert caught.value.request_sent is False
        assert caught.value.request_id
    finally:
        await close(client)


async def test_a_timed_out_execute_is_not_resent(client: AnyClient, server: EmulatorServer) -> None:
    sid = await new_session(client, "slow")
    server.faults.add(FaultRule(operation="execute", latency=0.6, times=1))
    with pytest.raises(errors.RequestTimeoutError) as caught:
        await call(client, "execute", sid, "NOTES_CREATE_NOTE", {"title": "slow"}, timeout=0.2)
    assert caught.value.phase == "read"
    assert caught.value.request_sent is True
    await asyncio.sleep(0.8)  # let the service finish with the request the client gave up on
    assert server.log.count("execute") == 1, "a timed-out execute may have run: not resent"


async def test_a_timed_out_read_is_retried(client: AnyClient, server: EmulatorServer) -> None:
    sid = await new_session(client, "slowread")
    server.faults.add(FaultRule(operation="get_session", latency=0.6, times=1))
    session = await call(client, "get_session", sid, timeout=0.2)
    assert session.session_id == sid
    await asyncio.sleep(0.6)
    records = server.log.filter("get_session")
    assert len(records) == 2
    assert len({r.request_id for r in records}) == 1


async def test_a_raise_for_status_hook_on_a_real_socket_still_gives_typed_errors(
    flavor: str, server: EmulatorServer
) -> None:
    def hook(response: httpx.Response) -> None:
        response.raise_for_status()

    async def ahook(response: httpx.Response) -> None:
        response.raise_for_status()

    http: httpx.Client | httpx.AsyncClient
    if flavor == "sync":
        http = httpx.Client(event_hooks={"response": [hook]})
    else:
        http = httpx.AsyncClient(event_hooks={"response": [ahook]})
    client = open_client(flavor, server, http_client=http)
    try:
        with pytest.raises(errors.NotFoundError) as caught:
            await call(client, "get_session", "trs_missing")
        assert caught.value.status == 404
        assert server.log.count("get_session") == 1, "a 404 is not retried"
    finally:
        if isinstance(http, httpx.Client):
            http.close()
        else:
            await http.aclose()


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads Linux's /proc/net/tcp")
async def test_a_cancelled_aclose_still_closes_every_pooled_connection(
    server: EmulatorServer,
) -> None:
    with ToolRouterClient(api_key=server.api_key, base_url=server.base_url) as sync_client:
        sid = sync_client.create_session(user_id=f"close-{uuid.uuid4().hex[:6]}").session_id
    before = set(_established_to(server))
    client = AsyncToolRouterClient(api_key=server.api_key, base_url=server.base_url)
    await asyncio.gather(*(client.list_toolkits(sid) for _ in range(20)))  # a pool of sockets
    assert set(_established_to(server)) - before, "the calls opened connections"
    closing = asyncio.ensure_future(client.aclose())
    for _ in range(3):
        await asyncio.sleep(0)
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    assert client.is_closed
    await client.aclose()  # waits for the close the cancelled call started
    assert not set(_established_to(server)) - before, "every pooled connection was closed"


def _established_to(server: EmulatorServer) -> list[str]:
    """Open TCP connections to the server's port, by local address (Linux's /proc/net/tcp)."""
    port = f"{httpx.URL(server.base_url).port:04X}"
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.readlines()[1:]]
    # local address is column 1, remote column 2, state column 3 (01: established)
    return [r[1] for r in rows if r[2].endswith(f":{port}") and r[3] == "01"]
