"""Contract: the official generated client (composio-client 1.43.0) reads the project endpoints
the SDK polls, connected accounts and toolkits, with its strict response validation on."""

from __future__ import annotations

from collections.abc import Iterator

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
