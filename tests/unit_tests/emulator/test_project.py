"""The project endpoints the official SDK polls: connected accounts and toolkits by id."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.unit_tests.emulator.calls import OTHER_KEY, V31
from tests.unit_tests.emulator.conftest import SessionFactory


@pytest.mark.parametrize("version", ["v3", "v3.1"])
def test_an_account_is_initiated_until_its_link_is_opened(
    client: TestClient, new_session: SessionFactory, version: str
) -> None:
    session_id = new_session()
    link = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "github"}).json()
    url = f"/api/{version}/connected_accounts/{link['connected_account_id']}"
    before = client.get(url)
    assert before.status_code == 200, before.text
    account = before.json()
    assert account["status"] == "INITIATED"
    assert account["state"]["val"] == {"status": "INITIATED", "redirectUrl": link["redirect_url"]}
    assert account["toolkit"] == {"slug": "github"}
    assert account["user_id"] == "alice"
    assert account["updated_at"] == account["created_at"]
    assert client.get(link["redirect_url"]).status_code == 200
    after = client.get(url).json()
    assert after["status"] == "ACTIVE"
    assert after["state"]["val"]["status"] == "ACTIVE"
    assert after["state"]["val"]["access_token"].startswith("emulator-token-")
    assert after["updated_at"] >= after["created_at"]


def test_accounts_are_per_project_and_need_a_key(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    link = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "gmail"}).json()
    url = f"/api/v3.1/connected_accounts/{link['connected_account_id']}"
    other = client.get(url, headers={"x-api-key": OTHER_KEY})
    assert other.status_code == 404
    assert other.json()["error"]["slug"] == "ConnectedAccount_NotFound"
    assert client.get(url, headers={"x-api-key": "wrong"}).status_code == 401
    assert client.get("/api/v3.1/connected_accounts/ca_none").status_code == 404


@pytest.mark.parametrize("slug", ["github", "GitHub"])
def test_a_toolkit_by_slug(client: TestClient, slug: str) -> None:
    response = client.get(f"/api/v3.1/toolkits/{slug}")
    assert response.status_code == 200, response.text
    toolkit = response.json()
    assert toolkit["slug"] == "github"
    assert toolkit["composio_managed_auth_schemes"] == ["OAUTH2"]
    assert toolkit["meta"]["tools_count"] == 8
    assert toolkit["composio_managed_auth"][0]["mode"] == "OAUTH2"


def test_a_no_auth_toolkit_and_an_unknown_one(client: TestClient) -> None:
    notes = client.get("/api/v3/toolkits/notes").json()
    assert notes["no_auth"] is True
    assert notes["composio_managed_auth"] == []
    unknown = client.get("/api/v3/toolkits/nope")
    assert unknown.status_code == 404
    assert "github" in unknown.json()["error"]["suggested_fix"]
