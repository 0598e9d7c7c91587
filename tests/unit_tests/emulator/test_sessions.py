"""Session lifecycle and config: create, get, PATCH, delete, attach, history, customs, /tools."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState
from tests.unit_tests.emulator.calls import V3, V31
from tests.unit_tests.emulator.conftest import SessionFactory

CUSTOM_TOOL = {
    "slug": "find_customer",
    "name": "Find customer",
    "description": "Look up a customer in the CRM by email",
    "input_schema": {"type": "object", "properties": {"email": {"type": "string"}}},
}
CUSTOM_TOOLKIT = {
    "slug": "crm",
    "name": "CRM",
    "description": "Customer records",
    "tools": [CUSTOM_TOOL],
}
ALL_META = [
    "COMPOSIO_SEARCH_TOOLS",
    "COMPOSIO_GET_TOOL_SCHEMAS",
    "COMPOSIO_MULTI_EXECUTE_TOOL",
    "COMPOSIO_MANAGE_CONNECTIONS",
    "COMPOSIO_REMOTE_WORKBENCH",
    "COMPOSIO_REMOTE_BASH_TOOL",
]


def tool_slugs(client: TestClient, session_id: str) -> list[str]:
    response = client.get(f"{V31}/session/{session_id}/tools")
    assert response.status_code == 200
    return [item["slug"] for item in response.json()["items"]]


def test_create_returns_201_with_defaults_and_prompt(client: TestClient) -> None:
    response = client.post(f"{V31}/session", json={"user_id": "alice"})
    assert response.status_code == 201
    body = response.json()
    assert body["session_id"].startswith("trs_")
    assert body["mcp"] == {
        "type": "http",
        "url": f"http://testserver/tool_router/{body['session_id']}/mcp",
    }
    assert body["config_version"] == 1
    assert body["config"]["execute"] == {"enable_multi_execute": True}
    assert body["config"]["search"] == {"enable": True}
    assert body["config"]["preload"] == {"tools": []}
    assert body["tool_router_tools"] == ALL_META
    assert "alice" in body["experimental"]["assistive_prompt"]


def test_request_spellings_come_back_as_response_spellings(client: TestClient) -> None:
    body = client.post(
        f"{V31}/session",
        json={
            "user_id": "alice",
            "toolkits": {"disable": ["gmail"]},
            "tools": {"github": {"enable": ["GITHUB_GET_AN_ISSUE"]}},
            "tags": ["readOnlyHint"],
            "manage_connections": {"enable": False},
            "workbench": {"enable": True, "enable_proxy_execution": True},
        },
    ).json()
    config = body["config"]
    assert config["toolkits"] == {"disabled": ["gmail"]}
    assert config["tools"] == {"github": {"enabled": ["GITHUB_GET_AN_ISSUE"]}}
    assert config["tags"] == {"enabled": ["readOnlyHint"]}
    assert config["manage_connections"]["enabled"] is False
    assert config["workbench"] == {"enable": True, "proxy_execution_enabled": True}


def test_get_returns_the_session_without_the_prompt(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    body = client.get(f"{V31}/session/{session_id}").json()
    assert body["session_id"] == session_id
    assert "experimental" not in body


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (
            {"search": {"enable": False}},
            [
                m
                for m in ALL_META
                if m not in ("COMPOSIO_SEARCH_TOOLS", "COMPOSIO_GET_TOOL_SCHEMAS")
            ],
        ),
        (
            {"execute": {"enable_multi_execute": False}},
            [m for m in ALL_META if m != "COMPOSIO_MULTI_EXECUTE_TOOL"],
        ),
        (
            {"manage_connections": {"enable": False}},
            [m for m in ALL_META if m != "COMPOSIO_MANAGE_CONNECTIONS"],
        ),
        (
            {"manage_connections": {"enable": True, "enable_wait_for_connections": True}},
            [*ALL_META[:4], "COMPOSIO_WAIT_FOR_CONNECTIONS", *ALL_META[4:]],
        ),
        ({"workbench": {"enable": False}}, ALL_META[:4]),
        (
            {"preload": {"tools": ["NOTES_KV_GET", "GITHUB_GET_AN_ISSUE"]}},
            [*ALL_META, "GITHUB_GET_AN_ISSUE", "NOTES_KV_GET"],
        ),
        (
            {
                "toolkits": {"enable": ["notes"]},
                "preload": {"tools": "all"},
                "tags": {"disable": ["destructiveHint"]},
                "workbench": {"enable": False},
            },
            [
                *ALL_META[:4],
                "NOTES_CREATE_NOTE",
                "NOTES_LIST_NOTES",
                "NOTES_GET_NOTE",
                "NOTES_KV_SET",
                "NOTES_KV_GET",
            ],
        ),
    ],
)
def test_tools_follow_the_session_config(
    client: TestClient, new_session: SessionFactory, config: dict[str, Any], expected: list[str]
) -> None:
    session_id = new_session(**config)
    assert tool_slugs(client, session_id) == expected
    assert client.get(f"{V31}/session/{session_id}").json()["tool_router_tools"] == expected


def test_tools_items_carry_schemas_like_the_service(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session(preload={"tools": ["GOOGLECALENDAR_CREATE_EVENT"]})
    items = {i["slug"]: i for i in client.get(f"{V31}/session/{session_id}/tools").json()["items"]}
    search = items["COMPOSIO_SEARCH_TOOLS"]
    assert search["input_parameters"]["required"] == ["queries"]
    assert search["toolkit"]["slug"] == "composio"
    event = items["GOOGLECALENDAR_CREATE_EVENT"]
    schema = event["input_parameters"]
    assert schema["type"] == "object"
    assert set(schema["required"]) == {"summary", "start_datetime"}
    assert schema["properties"]["start_datetime"]["format"] == "date-time"
    assert schema["properties"]["visibility"]["enum"] == ["default", "public", "private"]
    assert schema["properties"]["event_duration_minutes"]["default"] == 30
    assert event["tags"] == ["openWorldHint"]
    assert event["toolkit"] == {
        "slug": "googlecalendar",
        "name": "Google Calendar",
        "logo": "https://logos.composio.dev/api/googlecalendar",
    }
    assert event["no_auth"] is False


def test_tools_pagination(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    first = client.get(f"{V31}/session/{session_id}/tools", params={"limit": 4}).json()
    assert (first["current_page"], first["total_items"], first["total_pages"]) == (1, 6, 2)
    second = client.get(
        f"{V31}/session/{session_id}/tools", params={"cursor": first["next_cursor"]}
    ).json()
    assert len(second["items"]) == 2
    assert "next_cursor" not in second
    slugs = [i["slug"] for i in first["items"] + second["items"]]
    assert slugs == ALL_META


def test_the_cursor_keeps_its_page_size_when_limit_changes(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    url = f"{V31}/session/{session_id}/tools"
    first = client.get(url, params={"limit": 3}).json()
    second = client.get(url, params={"limit": 4, "cursor": first["next_cursor"]}).json()
    assert (second["current_page"], second["total_pages"]) == (2, 2)
    assert [i["slug"] for i in first["items"] + second["items"]] == ALL_META


def test_bad_cursor_is_400(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    response = client.get(f"{V31}/session/{session_id}/tools", params={"cursor": "garbage!"})
    assert response.status_code == 400
    assert response.json()["error"]["errors"] == ["cursor: invalid"]


@pytest.mark.parametrize(
    ("config", "problem"),
    [
        ({"toolkits": {"enable": ["nope"]}}, "toolkits.enable: unknown toolkit 'nope'"),
        (
            {"tools": {"github": {"enable": ["NOTES_KV_GET"]}}},
            "tools.github.enable: 'NOTES_KV_GET' is not a tool of github",
        ),
        ({"tools": {"nope": {"enable": ["X"]}}}, "tools.nope: unknown toolkit 'nope'"),
        ({"tags": ["fastHint"]}, "tags.enabled: unknown tag 'fastHint'"),
        ({"preload": {"tools": "all"}}, "preload.tools: 'all' needs a toolkit allowlist"),
        ({"preload": {"tools": ["NOPE_TOOL"]}}, "preload.tools: unknown tool 'NOPE_TOOL'"),
        ({"preload": {"tools": ["LOCAL_X"]}}, "preload.tools: 'LOCAL_X' is a custom tool"),
        (
            {"toolkits": {"enable": ["notes"]}, "preload": {"tools": ["GITHUB_GET_AN_ISSUE"]}},
            "preload.tools: 'GITHUB_GET_AN_ISSUE' is not a tool this session allows",
        ),
    ],
)
def test_invalid_config_is_400_listing_the_problem(
    client: TestClient, config: dict[str, Any], problem: str
) -> None:
    response = client.post(f"{V31}/session", json={"user_id": "alice", **config})
    assert response.status_code == 400
    errors = response.json()["error"]["errors"]
    assert any(e.startswith(problem) for e in errors), errors


def test_pinning_another_users_account_is_refused(
    client: TestClient, new_session: SessionFactory
) -> None:
    from tests.unit_tests.emulator.calls import connect

    bob_session = new_session("bob")
    account = connect(client, bob_session, "github")
    response = client.post(
        f"{V31}/session", json={"user_id": "alice", "connected_accounts": {"github": account}}
    )
    assert response.status_code == 400
    assert response.json()["error"]["slug"] == "ToolRouterV2_InvalidConnectedAccountIds"
    ok = client.post(
        f"{V31}/session", json={"user_id": "bob", "connected_accounts": {"github": [account]}}
    )
    assert ok.status_code == 201
    assert ok.json()["config"]["connected_accounts"] == {"github": [account]}


def test_patch_bumps_version_and_keeps_history(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session(toolkits={"enable": ["notes"]})
    patched = client.patch(
        f"{V31}/session/{session_id}",
        json={"search": {"enable": False}, "expected_config_version": 1},
    )
    assert patched.status_code == 200
    body = patched.json()
    assert body["config_version"] == 2
    assert body["config"]["toolkits"] == {"enabled": ["notes"]}
    assert "COMPOSIO_SEARCH_TOOLS" not in body["tool_router_tools"]
    history = client.get(f"{V31}/session/{session_id}/config_history").json()
    assert [(i["version"], i["is_current"]) for i in history["items"]] == [(2, True), (1, False)]
    assert history["items"][1]["config"]["search"] == {"enable": True}


def test_patch_null_removes_a_stored_block(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session(toolkits={"enable": ["notes"]})
    body = client.patch(f"{V31}/session/{session_id}", json={"toolkits": None}).json()
    assert "toolkits" not in body["config"]


def test_stale_patch_is_409(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    client.patch(f"{V31}/session/{session_id}", json={"search": {"enable": False}})
    stale = client.patch(
        f"{V31}/session/{session_id}",
        json={"search": {"enable": True}, "expected_config_version": 1},
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["slug"] == "ToolRouterV2_ConfigVersionConflict"
    assert client.get(f"{V31}/session/{session_id}").json()["config_version"] == 2


def test_patch_validates_like_create(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    response = client.patch(f"{V31}/session/{session_id}", json={"toolkits": {"enable": ["nope"]}})
    assert response.status_code == 400
    assert client.get(f"{V31}/session/{session_id}").json()["config_version"] == 1


def test_delete_session(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    deleted = client.delete(f"{V31}/session/{session_id}")
    assert deleted.status_code == 200
    assert deleted.json() == {"session_id": session_id, "deleted": True}
    assert client.get(f"{V31}/session/{session_id}").status_code == 404
    assert client.delete(f"{V31}/session/{session_id}").status_code == 404


def test_custom_tools_are_echoed_with_local_slugs(client: TestClient) -> None:
    body = client.post(
        f"{V31}/session",
        json={
            "user_id": "alice",
            "experimental": {
                "custom_tools": [
                    CUSTOM_TOOL,
                    {**CUSTOM_TOOL, "slug": "important_emails", "extends_toolkit": "gmail"},
                ],
                "custom_toolkits": [CUSTOM_TOOLKIT],
            },
        },
    ).json()
    tools = body["experimental"]["custom_tools"]
    assert [(t["slug"], t["original_slug"]) for t in tools] == [
        ("LOCAL_FIND_CUSTOMER", "find_customer"),
        ("LOCAL_GMAIL_IMPORTANT_EMAILS", "important_emails"),
    ]
    assert tools[1]["extends_toolkit"] == "gmail"
    kit = body["experimental"]["custom_toolkits"][0]
    assert kit["tools"][0]["slug"] == "LOCAL_CRM_FIND_CUSTOMER"


@pytest.mark.parametrize(
    ("tool", "problem"),
    [
        ({**CUSTOM_TOOL, "slug": "bad slug"}, "must match ^[A-Za-z0-9_-]+$"),
        ({**CUSTOM_TOOL, "slug": "local_thing"}, "must not start with LOCAL_ or COMPOSIO_"),
        ({**CUSTOM_TOOL, "slug": "Composio_x"}, "must not start with LOCAL_ or COMPOSIO_"),
        ({**CUSTOM_TOOL, "slug": "x" * 55}, "the limit is 60"),
        (
            {**CUSTOM_TOOL, "input_schema": {"type": "object"}},
            "experimental.custom_tools.0.input_schema",
        ),
        ({**CUSTOM_TOOL, "extends_toolkit": "slack"}, "'slack' is not a toolkit of this service"),
    ],
)
def test_custom_tool_slug_rules(client: TestClient, tool: dict[str, Any], problem: str) -> None:
    response = client.post(
        f"{V31}/session", json={"user_id": "a", "experimental": {"custom_tools": [tool]}}
    )
    assert response.status_code == 400
    assert problem in response.json()["error"]["message"]


def test_custom_toolkit_must_not_clash_with_a_catalog_toolkit(client: TestClient) -> None:
    kit = {**CUSTOM_TOOLKIT, "slug": "github"}
    response = client.post(
        f"{V31}/session", json={"user_id": "a", "experimental": {"custom_toolkits": [kit]}}
    )
    assert response.status_code == 400
    assert "clashes with a toolkit" in response.json()["error"]["message"]


def test_v3_persists_customs_and_v31_does_not(client: TestClient) -> None:
    payload = {"user_id": "a", "experimental": {"custom_tools": [CUSTOM_TOOL]}}
    v3_id = client.post(f"{V3}/session", json=payload).json()["session_id"]
    v31_id = client.post(f"{V31}/session", json=payload).json()["session_id"]
    v3_get = client.get(f"{V3}/session/{v3_id}").json()
    assert v3_get["experimental"]["custom_tools"][0]["slug"] == "LOCAL_FIND_CUSTOMER"
    assert "experimental" not in client.get(f"{V31}/session/{v31_id}").json()
    query = {"queries": [{"use_case": "find a customer in the crm by email"}]}
    v3_hits = client.post(f"{V3}/session/{v3_id}/search", json=query).json()
    v31_hits = client.post(f"{V31}/session/{v31_id}/search", json=query).json()
    assert v3_hits["results"][0]["primary_tool_slugs"] == ["LOCAL_FIND_CUSTOMER"]
    assert "LOCAL_FIND_CUSTOMER" not in v31_hits["results"][0]["primary_tool_slugs"]
    inline = {**query, "experimental": {"custom_tools": [CUSTOM_TOOL]}}
    assert client.post(f"{V31}/session/{v31_id}/search", json=inline).json()["results"][0][
        "primary_tool_slugs"
    ] == ["LOCAL_FIND_CUSTOMER"]


def test_attach_echoes_inline_customs(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    body = client.post(
        f"{V31}/session/{session_id}/attach",
        json={"experimental": {"custom_toolkits": [CUSTOM_TOOLKIT]}},
    ).json()
    assert body["session_id"] == session_id
    assert (
        body["experimental"]["custom_toolkits"][0]["tools"][0]["slug"] == "LOCAL_CRM_FIND_CUSTOMER"
    )
    bad = client.post(
        f"{V31}/session/{session_id}/attach",
        json={"experimental": {"custom_tools": [{**CUSTOM_TOOL, "slug": "LOCAL_x"}]}},
    )
    assert bad.status_code == 400


def test_auth_configs_are_checked_and_used_for_links(client: TestClient) -> None:
    bad = client.post(
        f"{V31}/session",
        json={"user_id": "a", "auth_configs": {"notes": "ac_1", "slack": "ac_2", "github": "x"}},
    )
    assert bad.status_code == 400
    errors = bad.json()["error"]["errors"]
    assert [e.split(":")[0] for e in errors] == [
        "auth_configs.notes",
        "auth_configs.slack",
        "auth_configs.github",
    ]
    session_id = client.post(
        f"{V31}/session", json={"user_id": "a", "auth_configs": {"github": "ac_mine"}}
    ).json()["session_id"]
    client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "github"})
    listed = client.get(
        f"{V31}/session/{session_id}/toolkits", params={"toolkits": "github"}
    ).json()
    assert listed["items"][0]["connected_account"]["auth_config"]["id"] == "ac_mine"


def test_assistive_prompt_names_the_timezone_and_exposed_tools(client: TestClient) -> None:
    body = client.post(
        f"{V31}/session",
        json={
            "user_id": "a",
            "search": {"enable": False},
            "experimental": {"assistive_prompt_config": {"user_timezone": "Europe/Paris"}},
        },
    ).json()
    prompt = body["experimental"]["assistive_prompt"]
    assert "Europe/Paris" in prompt
    assert "COMPOSIO_MULTI_EXECUTE_TOOL" in prompt
    assert "COMPOSIO_SEARCH_TOOLS" not in prompt
    bad = client.post(
        f"{V31}/session",
        json={
            "user_id": "a",
            "experimental": {"assistive_prompt_config": {"user_timezone": "Mars/Olympus"}},
        },
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["errors"] == [
        "experimental.assistive_prompt_config.user_timezone: unknown time zone"
    ]


def test_toolkit_keys_of_pins_and_auth_configs_are_stored_lower_case(
    client: TestClient, new_session: SessionFactory, state: EmulatorState
) -> None:
    from tests.unit_tests.emulator.calls import connect, execute

    setup = new_session("hal")
    first = connect(client, setup, "github")
    second = connect(client, setup, "github")
    created = client.post(
        f"{V31}/session",
        json={
            "user_id": "hal",
            "connected_accounts": {"GitHub": [second]},
            "auth_configs": {"GitHub": "ac_mine"},
        },
    )
    assert created.status_code == 201, created.text
    config = created.json()["config"]
    assert config["connected_accounts"] == {"github": [second]}
    assert config["auth_configs"] == {"github": "ac_mine"}
    session_id = created.json()["session_id"]
    slug = "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER"
    assert execute(client, session_id, slug, account=first).status_code == 400
    assert execute(client, session_id, slug, account=second).status_code == 200
    link = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "github"}).json()
    account = state.store.find_account("project-a", link["connected_account_id"])
    assert account is not None
    assert account.auth_config_id == "ac_mine"
    patched = client.patch(
        f"{V31}/session/{session_id}", json={"auth_configs": {"GITHUB": "ac_other"}}
    )
    assert patched.json()["config"]["auth_configs"] == {"github": "ac_other"}


def test_one_toolkit_twice_in_different_case_is_400(client: TestClient) -> None:
    response = client.post(
        f"{V31}/session",
        json={"user_id": "a", "auth_configs": {"github": "ac_1", "GitHub": "ac_2"}},
    )
    assert response.status_code == 400
    assert response.json()["error"]["errors"] == [
        "auth_configs.GitHub: toolkit 'github' is given more than once"
    ]


def test_patch_cannot_change_the_user(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session("alice")
    response = client.patch(
        f"{V31}/session/{session_id}", json={"user_id": "mallory", "search": {"enable": False}}
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["slug"], error["code"], error["status"]) == ("ToolRouterV2_BadRequest", 4300, 400)
    assert error["errors"] == ["user_id: not allowed in PATCH"]
    after = client.get(f"{V31}/session/{session_id}").json()
    assert (after["config"]["user_id"], after["config_version"]) == ("alice", 1)
    # A config read back and sent again carries the session's own user: that is no change.
    same = client.patch(
        f"{V31}/session/{session_id}", json={"user_id": "alice", "search": {"enable": False}}
    )
    assert same.status_code == 200, same.text
    assert same.json()["config"]["user_id"] == "alice"


def test_require_approval_is_a_documented_field(client: TestClient) -> None:
    # Wire reference 4.1: "[S-new] ... require_approval lists", sent by newer SDKs.
    body = {"user_id": "alice", "require_approval": {"toolkits": ["gmail"]}}
    created = client.post(f"{V31}/session", json=body)
    assert created.status_code == 201
    session_id = created.json()["session_id"]
    patched = client.patch(
        f"{V31}/session/{session_id}", json={"require_approval": {"toolkits": ["github"]}}
    )
    assert patched.json()["config"]["require_approval"] == {"toolkits": ["github"]}
    removed = client.patch(f"{V31}/session/{session_id}", json={"require_approval": None})
    assert "require_approval" not in removed.json()["config"]
    garbage = client.post(f"{V31}/session", json={"user_id": "a", "require_approval": "yes"})
    assert garbage.status_code == 400


@pytest.mark.parametrize("method", ["post", "patch"])
def test_unknown_top_level_fields_are_400_and_never_stored(
    client: TestClient, new_session: SessionFactory, method: str
) -> None:
    session_id = new_session()
    body = {"toolkit": {"enable": ["gmail"]}}
    if method == "post":
        response = client.post(f"{V31}/session", json={"user_id": "alice", **body})
    else:
        response = client.patch(f"{V31}/session/{session_id}", json=body)
    assert response.status_code == 400
    (problem,) = response.json()["error"]["errors"]
    assert problem.startswith("toolkit: unknown field; did you mean 'toolkits'?")
    config = client.get(f"{V31}/session/{session_id}").json()["config"]
    assert "toolkit" not in config


def test_newer_documented_blocks_are_accepted_and_patchable(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session(proxy_execute={"enable": True})
    patched = client.patch(f"{V31}/session/{session_id}", json={"proxy_execute": None})
    assert patched.status_code == 200, patched.text
    assert "proxy_execute" not in patched.json()["config"]


# --------------------------------------------------------------------------- fidelity


def test_a_405_on_the_session_path_names_every_method_served_there(
    client: TestClient, new_session: SessionFactory
) -> None:
    # It said "GET, HEAD": Starlette names only the first route of a path.
    response = client.put(f"{V31}/session/{new_session()}", json={})
    assert response.status_code == 405
    assert response.headers["allow"] == "DELETE, GET, HEAD, PATCH"
    assert "it takes DELETE, GET, HEAD, PATCH" in response.json()["error"]["message"]


def test_config_history_limit_is_at_most_100(
    client: TestClient, new_session: SessionFactory
) -> None:
    # It was read with the tools listing's query model, which has no maximum.
    session_id = new_session()
    assert client.get(f"{V31}/session/{session_id}/config_history?limit=100").status_code == 200
    refused = client.get(f"{V31}/session/{session_id}/config_history?limit=101")
    assert refused.status_code == 400
    assert refused.json()["error"]["errors"] == ["limit: Input should be less than or equal to 100"]


@pytest.mark.parametrize(("method", "operation"), [("PATCH", ""), ("POST", "/attach")])
def test_an_empty_body_is_400_saying_a_json_body_is_required(
    client: TestClient, new_session: SessionFactory, method: str, operation: str
) -> None:
    # Both took an empty body as {}; every operation with a body wants one.
    session_id = new_session()
    path = f"{V31}/session/{session_id}{operation}"
    for body in (b"", b"  \n"):
        response = client.request(method, path, content=body)
        assert response.status_code == 400, response.text
        assert response.json()["error"]["errors"] == ["(body): a JSON body is required"]
    assert client.request(method, path, content=b"{}").status_code == 200


@pytest.mark.parametrize("preload", [0, 1, "true", None])
def test_preload_must_be_a_boolean(client: TestClient, preload: object) -> None:
    # 0 was taken as false, 1 and "true" as true: a body's booleans are JSON booleans.
    tool = {**CUSTOM_TOOL, "preload": preload}
    body = {"user_id": "u", "experimental": {"custom_tools": [tool]}}
    response = client.post(f"{V3}/session", json=body)
    if preload is None:  # not given
        assert response.status_code == 201
        return
    assert response.status_code == 400, response.text
    assert response.json()["error"]["errors"] == [
        "experimental.custom_tools.0.preload: Input should be a valid boolean"
    ]
