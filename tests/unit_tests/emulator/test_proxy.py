"""proxy_execute: fake upstreams answer from the same state as the tools; other hosts are blocked."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.unit_tests.emulator.calls import V31, connect, execute
from tests.unit_tests.emulator.conftest import SessionFactory


def proxy(client: TestClient, session_id: str, **body: Any) -> Any:
    return client.post(f"{V31}/session/{session_id}/proxy_execute", json=body)


def test_relative_and_absolute_endpoints_hit_the_fake_upstream(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session("ivy")
    connect(client, session_id, "github")
    created = proxy(
        client,
        session_id,
        toolkit_slug="github",
        endpoint="/repos/ivy/hello-world/issues",
        method="POST",
        body={"title": "From proxy"},
    ).json()
    assert created["status"] == 201
    assert created["data"]["number"] == 2
    listed = proxy(
        client,
        session_id,
        toolkit_slug="github",
        endpoint="https://api.github.example/repos/ivy/hello-world/issues?state=all",
        method="GET",
    ).json()
    assert [i["title"] for i in listed["data"]["issues"]] == [
        "Welcome to hello-world",
        "From proxy",
    ]
    # the tools see what the proxy wrote
    via_tool = execute(
        client,
        session_id,
        "GITHUB_GET_AN_ISSUE",
        {"owner": "ivy", "repo": "hello-world", "issue_number": 2},
    )
    assert via_tool.json()["data"]["title"] == "From proxy"


def test_query_parameters_and_upstream_errors(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    proxy(
        client,
        session_id,
        toolkit_slug="notes",
        endpoint="/notes",
        method="POST",
        body={"title": "a", "tags": ["x"]},
    )
    proxy(
        client,
        session_id,
        toolkit_slug="notes",
        endpoint="/notes",
        method="POST",
        body={"title": "b"},
    )
    tagged = proxy(
        client,
        session_id,
        toolkit_slug="notes",
        endpoint="/notes",
        method="GET",
        parameters=[{"name": "tag", "type": "query", "value": "x"}],
    ).json()
    assert [n["title"] for n in tagged["data"]["notes"]] == ["a"]
    missing = proxy(
        client, session_id, toolkit_slug="notes", endpoint="notes/note_99", method="GET"
    ).json()
    assert missing["status"] == 404
    assert "note_99" in missing["data"]["message"]
    no_route = proxy(
        client, session_id, toolkit_slug="notes", endpoint="/elsewhere", method="GET"
    ).json()
    assert no_route["status"] == 404
    wrong_method = proxy(
        client, session_id, toolkit_slug="notes", endpoint="/notes", method="DELETE"
    ).json()
    assert wrong_method["status"] == 405


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://evil.example/steal",
        "http://169.254.169.254/latest/meta-data",
        "https://gmail.googleapis.example/gmail/v1/users/me/messages",
        "//evil.example/x",
        "https://api.github.example.evil.example/user/repos",
    ],
)
def test_other_hosts_are_ssrf_blocked(
    client: TestClient, new_session: SessionFactory, endpoint: str
) -> None:
    session_id = new_session()
    connect(client, session_id, "github")
    response = proxy(client, session_id, toolkit_slug="github", endpoint=endpoint, method="GET")
    assert response.status_code == 400
    assert response.json()["error"]["slug"] == "ExternalProxy_SSRFBlocked"


def test_proxy_needs_an_active_connection(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    response = proxy(
        client,
        session_id,
        toolkit_slug="gmail",
        endpoint="/gmail/v1/users/me/messages",
        method="GET",
    )
    assert response.status_code == 400
    assert response.json()["error"]["slug"] == "ToolRouterV2_NoActiveConnection"


def test_proxy_bad_body_names_the_field(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    response = proxy(client, session_id, toolkit_slug="notes", endpoint="/notes", method="FETCH")
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0].startswith("method:")


def test_own_credentials_skip_the_connection(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    byo = {"authScheme": "OAUTH2", "toolkitSlug": "github", "val": {"access_token": "gho_x"}}
    ok = proxy(
        client,
        session_id,
        toolkit_slug="github",
        endpoint="/user/repos",
        method="GET",
        custom_connection_data=byo,
    )
    assert ok.json()["status"] == 200
    no_token = {**byo, "val": {}}
    bad = proxy(
        client,
        session_id,
        toolkit_slug="github",
        endpoint="/user/repos",
        method="GET",
        custom_connection_data=no_token,
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["errors"] == [
        "custom_connection_data.val.access_token: required for OAuth schemes"
    ]
    wrong_kit = {**byo, "toolkitSlug": "gmail", "authScheme": "MAGIC"}
    worse = proxy(
        client,
        session_id,
        toolkit_slug="github",
        endpoint="/user/repos",
        method="GET",
        custom_connection_data=wrong_kit,
    )
    assert len(worse.json()["error"]["errors"]) == 2


def test_binary_bodies_are_refused_by_the_fake_upstream(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    response = proxy(
        client,
        session_id,
        toolkit_slug="notes",
        endpoint="/notes",
        method="POST",
        binary_body={"base64": "AAAA"},
    )
    assert response.status_code == 200
    assert response.json()["status"] == 415


@pytest.mark.parametrize(
    "endpoint",
    [
        "HTTPS://API.GITHUB.EXAMPLE/user/repos",
        "https://Api.GitHub.Example/user/repos",
    ],
)
def test_scheme_and_host_match_in_any_case(
    client: TestClient, new_session: SessionFactory, endpoint: str
) -> None:
    # Scheme and host are case-insensitive (RFC 3986): the toolkit's own host, not SSRF.
    session_id = new_session()
    connect(client, session_id, "github")
    response = proxy(client, session_id, toolkit_slug="github", endpoint=endpoint, method="GET")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == 200


def test_the_path_stays_case_sensitive(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    connect(client, session_id, "github")
    response = proxy(
        client,
        session_id,
        toolkit_slug="github",
        endpoint="https://api.github.example/USER/REPOS",
        method="GET",
    )
    assert response.status_code == 200
    assert response.json()["status"] == 404
