"""Contract: the library's own clients run every operation against the emulator on v3 paths,
and see the emulator's injected faults as the error classes the library promises."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from langchain_toolrouter import errors
from langchain_toolrouter.client import AsyncToolRouterClient, ToolRouterClient
from langchain_toolrouter.emulator import EmulatorServer, FaultRule


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(api_key="ak_own") as running:
        yield running


@pytest.fixture
def client(server: EmulatorServer) -> Iterator[ToolRouterClient]:
    server.faults.clear()
    with ToolRouterClient(
        api_key=server.api_key, base_url=server.base_url, api_version="v3"
    ) as own:
        yield own


def test_all_operations_on_v3_paths(server: EmulatorServer, client: ToolRouterClient) -> None:
    server.log.clear()
    session = client.create_session(user_id="own-user", toolkits=["github", "notes"])
    session_id = session.session_id
    assert client.get_session(session_id).config.user_id == "own-user"
    assert client.list_tools(session_id).items[0].slug == "COMPOSIO_SEARCH_TOOLS"
    assert {t.slug for t in client.list_toolkits(session_id).items} == {"github", "notes"}
    found = client.search(session_id, "create a note")
    assert found.results[0].primary_tool_slugs[0] == "NOTES_CREATE_NOTE"
    note = client.execute(session_id, "NOTES_CREATE_NOTE", {"title": "hi"})
    assert note.error is None
    meta = client.execute_meta(
        session_id, "COMPOSIO_SEARCH_TOOLS", {"queries": [{"use_case": "issues"}]}
    )
    assert meta.error is None
    link = client.create_link(session_id, "github")
    assert httpx.get(link.redirect_url).status_code == 200
    proxied = client.proxy_execute(session_id, "github", "/user/repos")
    assert proxied.status == 200
    upload = client.create_upload_url(session_id, "a/b.txt")
    assert httpx.put(upload.upload_url, content=b"data").status_code == 200
    assert [i.mount_relative_path for i in client.list_mount_items(session_id).items] == ["a/b.txt"]
    download = client.create_download_url(session_id, "a/b.txt")
    assert httpx.get(download.download_url).content == b"data"
    client.delete_mount_item(session_id, "a/b.txt")
    updated = client.update_session(session_id, expected_config_version=1, search={"enable": False})
    assert updated.config_version == 2
    with pytest.raises(errors.ConflictError):
        client.update_session(session_id, expected_config_version=1, search={"enable": True})
    assert client.attach(session_id).session_id == session_id
    assert client.delete_session(session_id).deleted is True
    with pytest.raises(errors.NotFoundError):
        client.get_session(session_id)
    api_paths = [r.path for r in server.log if r.path.startswith("/api/")]
    assert api_paths
    assert all(p.startswith("/api/v3/tool_router/") for p in api_paths)
    assert not [r for r in server.log if not r.path.startswith("/api/") and r.had_api_key]


async def test_async_client_against_the_emulator(server: EmulatorServer) -> None:
    async with AsyncToolRouterClient(api_key=server.api_key, base_url=server.base_url) as client:
        session = await client.create_session(user_id="async-user")
        result = await client.execute(session.session_id, "NOTES_KV_SET", {"key": "k", "value": 1})
        assert result.error is None
        page = await client.list_tools(session.session_id)
        assert page.items


def test_response_lost_after_execute_is_not_retried(
    server: EmulatorServer, client: ToolRouterClient
) -> None:
    session_id = client.create_session(user_id="lossy").session_id
    server.log.clear()
    server.faults.add(FaultRule("execute", drop="after", times=1))
    with pytest.raises(errors.TransportError):
        client.execute(session_id, "NOTES_CREATE_NOTE", {"title": "once"})
    assert server.log.count("execute", processed=True) == 1
    notes = client.execute(session_id, "NOTES_LIST_NOTES").data["notes"]
    assert [n["title"] for n in notes] == ["once"]


def test_rate_limit_is_retried_with_retry_after(
    server: EmulatorServer, client: ToolRouterClient
) -> None:
    session_id = client.create_session(user_id="limited").session_id
    server.log.clear()
    server.faults.add(FaultRule("get_session", status=429, retry_after=0.1, times=1))
    assert client.get_session(session_id, request_id="rid-429").session_id == session_id
    attempts = server.log.filter("get_session")
    assert [(r.status, r.request_id) for r in attempts] == [(429, "rid-429"), (200, "rid-429")]


def test_unknown_session_and_bad_key(server: EmulatorServer, client: ToolRouterClient) -> None:
    with pytest.raises(errors.NotFoundError) as missing:
        client.get_session("trs_nope")
    assert missing.value.slug == "ToolRouterV2_SessionNotFound"
    with (
        ToolRouterClient(api_key="wrong", base_url=server.base_url) as wrong,
        pytest.raises(errors.AuthenticationError),
    ):
        wrong.create_session(user_id="x")
