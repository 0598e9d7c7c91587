"""Executing catalog tools: the connect flow, per-user state, in-band failures, refusals."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.unit_tests.emulator.calls import V3, V31, connect, execute
from tests.unit_tests.emulator.conftest import SessionFactory


def test_connect_flow_link_redirect_active_then_tool_works(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    before = execute(client, session_id, "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER")
    assert before.status_code == 400
    error = before.json()["error"]
    assert (error["slug"], error["code"], error["status"]) == (
        "ToolRouterV2_NoActiveConnection",
        4302,
        400,
    )
    assert "/link" in error["suggested_fix"]
    assert "COMPOSIO_MANAGE_CONNECTIONS" in error["suggested_fix"]

    link = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "github"})
    assert link.status_code == 201
    body = link.json()
    assert body["redirect_url"] == f"http://testserver/_emulator/connect/{body['link_token']}"
    assert body["link_token"].startswith("lt_")
    listed = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"toolkits": "github"}
    ).json()
    assert listed["items"][0]["connected_account"]["status"] == "INITIATED"
    assert (
        execute(
            client,
            session_id,
            "GITHUB_GET_AN_ISSUE",
            {"owner": "alice", "repo": "hello-world", "issue_number": 1},
        ).status_code
        == 400
    )

    page = client.get(body["redirect_url"])
    assert page.status_code == 200
    assert "ACTIVE" in page.text
    listed = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"toolkits": "github"}
    ).json()
    account = listed["items"][0]["connected_account"]
    assert (account["id"], account["status"]) == (body["connected_account_id"], "ACTIVE")

    after = execute(client, session_id, "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER")
    assert after.status_code == 200
    result = after.json()
    assert result["result_type"] == "completed"
    assert result["log_id"].startswith("log_")
    assert [r["full_name"] for r in result["data"]["repositories"]] == ["alice/hello-world"]


def test_link_with_callback_redirects_the_browser(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    link = client.post(
        f"{V31}/session/{session_id}/link",
        json={"toolkit": "gmail", "callback_url": "https://app.example/done?x=1"},
    ).json()
    page = client.get(link["redirect_url"], follow_redirects=False)
    assert page.status_code == 303
    assert (
        page.headers["location"]
        == f"https://app.example/done?x=1&status=success&connected_account_id={link['connected_account_id']}"
    )


def test_unknown_link_token_is_404_page(client: TestClient) -> None:
    assert client.get("/_emulator/connect/lt_nope").status_code == 404


def test_link_refusals(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    no_auth = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "notes"})
    assert (no_auth.status_code, no_auth.json()["error"]["slug"]) == (
        400,
        "ToolRouterV2_ToolkitsIsNoAuth",
    )
    unknown = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "slack"})
    assert unknown.status_code == 400
    assert "github" in unknown.json()["error"]["suggested_fix"]
    acl = client.post(
        f"{V31}/session/{session_id}/link",
        json={
            "toolkit": "github",
            "experimental": {"acl_config_for_shared": {"allow_all_users": True}},
        },
    )
    assert acl.status_code == 400
    assert "SHARED" in acl.json()["error"]["message"]


def test_state_is_per_user_and_survives_sessions(
    client: TestClient, new_session: SessionFactory
) -> None:
    first = new_session("alice")
    assert (
        execute(client, first, "NOTES_KV_SET", {"key": "color", "value": {"hex": "#00f"}}).json()[
            "error"
        ]
        is None
    )
    second = new_session("alice", prefix=V3)
    got = execute(client, second, "NOTES_KV_GET", {"key": "color"}).json()
    assert got["data"]["value"] == {"hex": "#00f"}
    other = new_session("bob")
    missing = execute(client, other, "NOTES_KV_GET", {"key": "color"}).json()
    assert missing["result_type"] == "failed"
    assert "NOTES_KV_SET" in missing["error"]


def test_connections_survive_sessions_of_the_same_user(
    client: TestClient, new_session: SessionFactory
) -> None:
    connect(client, new_session("carol"), "gmail")
    later = new_session("carol")
    sent = execute(
        client, later, "GMAIL_SEND_EMAIL", {"recipient_email": "x@y.example", "body": "hi"}
    )
    assert sent.json()["data"]["labelIds"] == ["SENT"]


def test_github_issue_lifecycle(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session("dev@corp.example")
    connect(client, session_id, "github")
    repo = execute(
        client, session_id, "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER", {"name": "api"}
    ).json()["data"]
    assert repo["full_name"] == "dev/api"
    dup = execute(
        client, session_id, "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER", {"name": "api"}
    ).json()
    assert dup["result_type"] == "failed"
    assert "already exists" in dup["error"]
    ref = {"owner": "dev", "repo": "api"}
    issue = execute(
        client, session_id, "GITHUB_CREATE_AN_ISSUE", {**ref, "title": "Bug", "labels": ["bug"]}
    ).json()["data"]
    assert issue["number"] == 1
    execute(
        client,
        session_id,
        "GITHUB_CREATE_AN_ISSUE_COMMENT",
        {**ref, "issue_number": 1, "body": "seen"},
    )
    comments = execute(
        client, session_id, "GITHUB_LIST_ISSUE_COMMENTS", {**ref, "issue_number": 1}
    ).json()["data"]
    assert [c["body"] for c in comments["comments"]] == ["seen"]
    closed = execute(
        client, session_id, "GITHUB_UPDATE_AN_ISSUE", {**ref, "issue_number": 1, "state": "closed"}
    ).json()["data"]
    assert (closed["state"], closed["state_reason"]) == ("closed", "completed")
    assert (
        execute(client, session_id, "GITHUB_LIST_REPOSITORY_ISSUES", ref).json()["data"][
            "total_count"
        ]
        == 0
    )
    everything = execute(
        client,
        session_id,
        "GITHUB_LIST_REPOSITORY_ISSUES",
        {**ref, "state": "all", "labels": "bug"},
    ).json()
    assert everything["data"]["issues"][0]["comments"] == 1


def test_mail_send_to_self_lands_in_inbox_and_reading_marks_read(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session("erin")
    connect(client, session_id, "gmail")
    execute(
        client,
        session_id,
        "GMAIL_SEND_EMAIL",
        {"recipient_email": "erin@mail.example", "subject": "Note to self", "body": "milk"},
    )
    inbox = execute(
        client, session_id, "GMAIL_FETCH_EMAILS", {"query": "subject:note is:unread"}
    ).json()["data"]
    assert [m["subject"] for m in inbox["messages"]] == ["Note to self"]
    message_id = inbox["messages"][0]["messageId"]
    read = execute(
        client, session_id, "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID", {"message_id": message_id}
    ).json()["data"]
    assert "UNREAD" not in read["labelIds"]
    assert (
        execute(
            client, session_id, "GMAIL_FETCH_EMAILS", {"query": "subject:note is:unread"}
        ).json()["data"]["messages"]
        == []
    )
    paged = execute(client, session_id, "GMAIL_FETCH_EMAILS", {"max_results": 1}).json()["data"]
    assert paged["resultSizeEstimate"] == 3
    rest = execute(
        client,
        session_id,
        "GMAIL_FETCH_EMAILS",
        {"max_results": 5, "page_token": paged["nextPageToken"]},
    ).json()["data"]
    assert len(rest["messages"]) == 2


def test_calendar_events(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    connect(client, session_id, "googlecalendar")
    created = execute(
        client,
        session_id,
        "GOOGLECALENDAR_CREATE_EVENT",
        {
            "summary": "Sync",
            "start_datetime": "2026-03-01T10:00:00+01:00",
            "event_duration_minutes": 45,
            "attendees": [{"email": "bob@x.example"}],
            "reminders": {"use_default": False, "overrides": [{"method": "popup", "minutes": 10}]},
        },
    ).json()["data"]
    assert created["start"] == {"dateTime": "2026-03-01T09:00:00Z"}
    assert created["end"] == {"dateTime": "2026-03-01T09:45:00Z"}
    listed = execute(
        client,
        session_id,
        "GOOGLECALENDAR_EVENTS_LIST",
        {"time_min": "2026-03-01T00:00:00Z", "q": "sync"},
    ).json()["data"]
    assert [e["id"] for e in listed["items"]] == [created["id"]]
    assert (
        execute(
            client, session_id, "GOOGLECALENDAR_DELETE_EVENT", {"event_id": created["id"]}
        ).json()["data"]["deleted"]
        is True
    )
    again = execute(
        client, session_id, "GOOGLECALENDAR_DELETE_EVENT", {"event_id": created["id"]}
    ).json()
    assert again["result_type"] == "failed"


def test_invalid_arguments_fail_in_band_naming_each_field(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    response = execute(client, session_id, "NOTES_CREATE_NOTE", {"title": "", "colour": "red"})
    assert response.status_code == 200
    body = response.json()
    assert body["result_type"] == "failed"
    assert body["data"] == {}
    assert "title: String should have at least 1 character" in body["error"]
    assert "colour: Extra inputs are not permitted" in body["error"]


def test_unknown_tool_is_404_and_disallowed_tool_is_400(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session(
        toolkits={"enable": ["notes"]}, tools={"notes": {"disable": ["NOTES_DELETE_NOTE"]}}
    )
    unknown = execute(client, session_id, "SLACK_SEND_MESSAGE")
    assert (unknown.status_code, unknown.json()["error"]["slug"]) == (
        404,
        "ToolRouterV2_ToolNotFound",
    )
    other_kit = execute(
        client, session_id, "GMAIL_SEND_EMAIL", {"recipient_email": "a@b.example", "body": "x"}
    )
    assert (other_kit.status_code, other_kit.json()["error"]["slug"]) == (
        400,
        "ToolRouterV2_ToolNotAllowed",
    )
    assert "not enabled" in other_kit.json()["error"]["message"]
    filtered = execute(client, session_id, "NOTES_DELETE_NOTE", {"note_id": "note_1"})
    assert filtered.status_code == 400
    assert execute(client, session_id, "notes_list_notes").status_code == 200


def test_tag_filters(client: TestClient, new_session: SessionFactory) -> None:
    read_only = new_session(tags=["readOnlyHint"])
    assert execute(client, read_only, "NOTES_LIST_NOTES").status_code == 200
    assert execute(client, read_only, "NOTES_CREATE_NOTE", {"title": "x"}).status_code == 400
    # toolkit-level tags override global ones
    mixed = new_session(
        tags={"enable": ["readOnlyHint"]},
        tools={"notes": {"tags": {"enable": ["destructiveHint"]}}},
    )
    assert execute(client, mixed, "NOTES_DELETE_NOTE", {"note_id": "n"}).status_code == 200
    assert execute(client, mixed, "NOTES_LIST_NOTES").status_code == 400


def test_custom_tools_are_not_run_by_the_server(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    custom = {
        "slug": "greet",
        "name": "Greet",
        "description": "Say hi",
        "input_schema": {"type": "object", "properties": {}},
    }
    refused = execute(client, session_id, "LOCAL_GREET", experimental={"custom_tools": [custom]})
    assert (refused.status_code, refused.json()["error"]["slug"]) == (
        400,
        "ToolRouterV2_CustomToolNotExecutable",
    )
    assert "your own process" in refused.json()["error"]["suggested_fix"]
    unknown = execute(client, session_id, "LOCAL_GREET")
    assert unknown.status_code == 404
    assert "experimental.custom_tools" in unknown.json()["error"]["suggested_fix"]


def test_account_selection(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session("frank")
    first = connect(client, session_id, "github")
    link = client.post(
        f"{V31}/session/{session_id}/link", json={"toolkit": "github", "alias": "work"}
    ).json()
    client.get(link["redirect_url"])
    by_alias = execute(
        client, session_id, "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER", account="work"
    )
    assert by_alias.status_code == 200
    wrong = execute(
        client, session_id, "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER", account="ca_nope"
    )
    assert (wrong.status_code, wrong.json()["error"]["slug"]) == (
        400,
        "ToolRouterV2_InvalidConnectedAccountIds",
    )
    assert first in wrong.json()["error"]["suggested_fix"]
    strict = new_session(
        "frank", multi_account={"enable": True, "require_explicit_selection": True}
    )
    ambiguous = execute(client, strict, "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER")
    assert ambiguous.status_code == 400
    assert link["connected_account_id"] in ambiguous.json()["error"]["suggested_fix"]
    dup_alias = client.post(
        f"{V31}/session/{session_id}/link", json={"toolkit": "github", "alias": "work"}
    )
    assert dup_alias.status_code == 400


def test_toolkits_listing_filters_and_pagination(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session(toolkits={"disable": ["gmail"]})
    items = client.get(f"{V31}/session/{session_id}/toolkits").json()["items"]
    assert [i["slug"] for i in items] == ["github", "googlecalendar", "notes"]
    notes = items[2]
    assert (notes["is_no_auth"], notes["composio_managed_auth_schemes"], notes["enabled"]) == (
        True,
        [],
        True,
    )
    assert items[0]["composio_managed_auth_schemes"] == ["OAUTH2"]
    explicit = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"toolkits": "gmail,notes"}
    ).json()["items"]
    assert [(i["slug"], i["enabled"]) for i in explicit] == [("gmail", False), ("notes", True)]
    connected = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"is_connected": "true"}
    ).json()["items"]
    assert [i["slug"] for i in connected] == ["notes"]
    found = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"search": "calendar"}
    ).json()["items"]
    assert [i["slug"] for i in found] == ["googlecalendar"]
    page = client.get(f"{V31}/session/{session_id}/toolkits", params={"limit": 2}).json()
    assert (len(page["items"]), page["total_pages"]) == (2, 2)
    capped = client.get(f"{V31}/session/{session_id}/toolkits", params={"limit": 1000}).json()
    assert capped["total_pages"] == 1


def test_link_url_overwrite_changes_the_link_origin(client: TestClient) -> None:
    created = client.post(
        f"{V31}/session",
        json={
            "user_id": "u",
            "experimental": {"link_url_overwrite": "https://connect.example.com"},
        },
    )
    session_id = created.json()["session_id"]
    link = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "github"}).json()
    assert (
        link["redirect_url"]
        == f"https://connect.example.com/_emulator/connect/{link['link_token']}"
    )
    client.patch(f"{V31}/session/{session_id}", json={"experimental": {"link_url_overwrite": None}})
    again = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "github"}).json()
    assert again["redirect_url"].startswith("http://testserver/_emulator/connect/")
    bad = client.post(
        f"{V31}/session",
        json={"user_id": "u", "experimental": {"link_url_overwrite": "connect.example.com"}},
    )
    assert bad.status_code == 400


def _shared_link(client: TestClient, session_id: str, toolkit: str) -> str:
    link = client.post(
        f"{V31}/session/{session_id}/link",
        json={"toolkit": toolkit, "experimental": {"account_type": "SHARED"}},
    )
    assert link.status_code == 201, link.text
    assert link.json()["experimental"]["account_type"] == "SHARED"
    client.get(link.json()["redirect_url"])
    account_id: str = link.json()["connected_account_id"]
    return account_id


def test_shared_account_is_used_only_when_pinned(
    client: TestClient, new_session: SessionFactory
) -> None:
    slug = "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER"
    session_id = new_session("carol")
    shared = _shared_link(client, session_id, "github")
    unpinned = execute(client, session_id, slug)
    assert (unpinned.status_code, unpinned.json()["error"]["slug"]) == (
        400,
        "ToolRouterV2_NoActiveConnection",
    )
    assert execute(client, session_id, slug, account=shared).status_code == 400
    listed = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"toolkits": "github", "is_connected": True}
    ).json()
    assert listed["items"] == []
    proxied = client.post(
        f"{V31}/session/{session_id}/proxy_execute",
        json={"toolkit_slug": "github", "endpoint": "/user/repos", "method": "GET"},
    )
    assert proxied.status_code == 400

    pinned = new_session("carol", connected_accounts={"github": [shared]})
    assert execute(client, pinned, slug).status_code == 200
    found = client.post(
        f"{V31}/session/{pinned}/search", json={"queries": [{"use_case": "list my github repos"}]}
    ).json()
    (status,) = [s for s in found["toolkit_connection_statuses"] if s["toolkit"] == "github"]
    assert status["has_active_connection"] is True
    assert [(a["id"], a["account_type"]) for a in status["accounts"]] == [(shared, "SHARED")]


def test_private_accounts_still_work_unpinned_beside_a_shared_one(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session("dora")
    _shared_link(client, session_id, "github")
    private = connect(client, session_id, "github")
    listed = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"toolkits": "github"}
    ).json()
    assert listed["items"][0]["connected_account"]["id"] == private
    response = execute(client, session_id, "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER")
    assert response.status_code == 200


def test_at_most_one_shared_account_is_pinned_per_toolkit(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session("erin", multi_account={"enable": True})
    first = _shared_link(client, session_id, "github")
    second = _shared_link(client, session_id, "github")
    response = client.post(
        f"{V31}/session",
        json={
            "user_id": "erin",
            "multi_account": {"enable": True},
            "connected_accounts": {"github": [first, second]},
        },
    )
    assert response.status_code == 400
    assert response.json()["error"]["errors"] == [
        "connected_accounts.github: at most one SHARED account per toolkit"
    ]
