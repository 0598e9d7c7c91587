"""Contract: the official generated client (composio-client 1.43.0) works against the emulator.

Every one of the spec's 13 operations (plus PATCH, attach and config history) runs through
`composio_client.Composio` over real HTTP on the v3.1 paths, with the client's *strict* response
validation on, so a response missing a field the official models require fails the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import composio_client
import httpx
import pytest

from langchain_toolrouter.emulator import EmulatorServer


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(api_key="ak_contract") as running:
        yield running


@pytest.fixture
def client(server: EmulatorServer) -> composio_client.Composio:
    return composio_client.Composio(
        api_key=server.api_key,
        base_url=server.base_url,
        max_retries=0,
        _strict_response_validation=True,
    )


def test_all_operations_with_the_official_client(
    server: EmulatorServer, client: composio_client.Composio
) -> None:
    sessions = client.tool_router.session
    files = sessions.files

    # 1. create (201)
    created = sessions.create(
        user_id="contract-user",
        toolkits={"enable": ["github", "notes"]},
        manage_connections={"enable": True, "enable_wait_for_connections": True},
        preload={"tools": ["NOTES_CREATE_NOTE"]},
        experimental={
            "custom_tools": [
                {
                    "slug": "summarize_inbox",
                    "name": "Summarize inbox",
                    "description": "Summarize today's unread email",
                    "input_schema": {
                        "type": "object",
                        "properties": {"limit": {"type": "integer"}},
                    },
                    "extends_toolkit": "gmail",
                }
            ]
        },
    )
    session_id = created.session_id
    assert session_id.startswith("trs_")
    assert created.experimental is not None
    assert created.experimental.custom_tools is not None
    assert created.experimental.custom_tools[0].slug == "LOCAL_GMAIL_SUMMARIZE_INBOX"

    # 2. get
    fetched = sessions.retrieve(session_id)
    assert fetched.config.user_id == "contract-user"
    assert "COMPOSIO_WAIT_FOR_CONNECTIONS" in fetched.tool_router_tools

    # 3. tools (meta tools + the preloaded app tool)
    tools = sessions.tools(session_id, limit=500)
    slugs = [item.slug for item in tools.items]
    assert "COMPOSIO_SEARCH_TOOLS" in slugs
    assert "NOTES_CREATE_NOTE" in slugs

    # 4. toolkits
    toolkits = sessions.toolkits(session_id, limit=1)
    assert toolkits.items[0].slug in {"github", "notes"}
    assert toolkits.next_cursor
    second = sessions.toolkits(session_id, cursor=toolkits.next_cursor, limit=1)
    assert second.items[0].slug != toolkits.items[0].slug

    # 5. search
    found = sessions.search(
        session_id,
        queries=[{"use_case": "create a note in my notebook"}],
        experimental={
            "custom_tools": [
                {
                    "slug": "summarize_inbox",
                    "name": "Summarize inbox",
                    "description": "Summarize today's unread email",
                    "input_schema": {"type": "object", "properties": {}},
                    "extends_toolkit": "gmail",
                }
            ]
        },
    )
    assert found.results[0].primary_tool_slugs[0] == "NOTES_CREATE_NOTE"

    # 6. execute (no-auth tool)
    note = sessions.execute(session_id, tool_slug="NOTES_CREATE_NOTE", arguments={"title": "hello"})
    assert note.error is None
    assert note.data["title"] == "hello"

    # 7. execute_meta
    meta = sessions.execute_meta(
        session_id,
        slug="COMPOSIO_SEARCH_TOOLS",
        arguments={"queries": [{"use_case": "list issues"}]},
    )
    assert meta.error is None
    results = meta.data["results"]
    assert isinstance(results, list)
    assert results[0]["primary_tool_slugs"]

    # 8. link (201) then the browser step, then the GitHub tool works
    link = sessions.link(session_id, toolkit="github")
    assert link.redirect_url.startswith(server.base_url)
    assert httpx.get(link.redirect_url).status_code == 200
    issues = sessions.execute(
        session_id,
        tool_slug="GITHUB_LIST_REPOSITORY_ISSUES",
        arguments={"owner": "contract-user", "repo": "hello-world"},
    )
    assert issues.error is None
    assert issues.data["total_count"] == 1

    # 9. proxy_execute against the toolkit's fake upstream
    proxied = sessions.proxy_execute(
        session_id, toolkit_slug="github", endpoint="/user/repos", method="GET"
    )
    assert proxied.status == 200

    # 10-13. mounts: upload URL, PUT without key, list, download URL, delete
    upload = files.create_upload_url(
        "files", session_id=session_id, mount_relative_path="out/a.txt"
    )
    assert httpx.put(upload.upload_url, content=b"hello").status_code == 200
    listed = files.list("files", session_id=session_id, mount_relative_prefix="out/")
    assert [i.mount_relative_path for i in listed.items] == ["out/a.txt"]
    download = files.create_download_url(
        "files", session_id=session_id, mount_relative_path="out/a.txt"
    )
    assert httpx.get(download.download_url).content == b"hello"
    deleted = files.delete("files", session_id=session_id, mount_relative_path="out/a.txt")
    assert deleted.mount_relative_path == "out/a.txt"

    # Beyond the 13: PATCH, attach, config history.
    patched = sessions.patch(session_id, search={"enable": False})
    assert patched.config_version == 2
    assert "COMPOSIO_SEARCH_TOOLS" not in patched.tool_router_tools
    attached = sessions.attach(session_id, experimental={"custom_tools": []})
    assert attached.session_id == session_id
    history = sessions.config_history(session_id)
    assert [item.version for item in history.items] == [2, 1]

    assert not [r for r in server.log if r.operation.startswith("presigned") and r.had_api_key]


def error_of(exc: composio_client.APIStatusError) -> dict[str, Any]:
    """The error object of the service's error body, as the official client keeps it."""
    body = exc.body
    assert isinstance(body, dict)
    error: dict[str, Any] = body["error"]
    return error


def test_official_client_errors(server: EmulatorServer, client: composio_client.Composio) -> None:
    with pytest.raises(composio_client.NotFoundError) as missing:
        client.tool_router.session.retrieve("trs_doesnotexist")
    assert error_of(missing.value)["slug"] == "ToolRouterV2_SessionNotFound"

    bad_key = composio_client.Composio(api_key="wrong", base_url=server.base_url, max_retries=0)
    with pytest.raises(composio_client.AuthenticationError):
        bad_key.tool_router.session.create(user_id="x")

    with pytest.raises(composio_client.BadRequestError) as invalid:
        client.tool_router.session.create(user_id="")
    assert error_of(invalid.value)["errors"] == ["user_id: String should have at least 1 character"]


# The project endpoints the official SDK's session flow polls.


def test_a_connected_account_before_and_after_its_link(client: composio_client.Composio) -> None:
    session = client.tool_router.session.create(user_id="contract-user")
    link = client.tool_router.session.link(session.session_id, toolkit="github")
    initiated = client.connected_accounts.retrieve(link.connected_account_id)
    assert initiated.status == "INITIATED"
    assert initiated.toolkit.slug == "github"
    assert httpx.get(link.redirect_url).status_code == 200
    active = client.connected_accounts.retrieve(link.connected_account_id)
    assert active.status == "ACTIVE"
    assert active.auth_config.auth_scheme == "OAUTH2"
    assert active.user_id == "contract-user"


@pytest.mark.parametrize("slug", ["github", "gmail", "googlecalendar", "notes"])
def test_every_toolkit(client: composio_client.Composio, slug: str) -> None:
    toolkit = client.toolkits.retrieve(slug)
    assert toolkit.slug == slug
    assert toolkit.meta.tools_count > 0


def test_unknown_ids_are_not_found(client: composio_client.Composio) -> None:
    with pytest.raises(composio_client.NotFoundError):
        client.connected_accounts.retrieve("ca_none")
    with pytest.raises(composio_client.NotFoundError):
        client.toolkits.retrieve("nope")
