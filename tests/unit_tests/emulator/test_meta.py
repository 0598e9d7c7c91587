"""Meta tools and search: ranking, schemas, multi-execute, connections, sandbox refusals."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, listing
from langchain_toolrouter.emulator.meta import (
    RELAXED,
    ManageArgs,
    MultiArgs,
    SchemasArgs,
    SearchArgs,
    WaitArgs,
)
from langchain_toolrouter.emulator.presenters import meta_tool_definition
from tests.unit_tests.emulator.calls import V31, connect, execute, search
from tests.unit_tests.emulator.conftest import SessionFactory


def meta(
    client: TestClient, session_id: str, slug: str, arguments: dict[str, Any], **extra: Any
) -> Any:
    response = client.post(
        f"{V31}/session/{session_id}/execute_meta",
        json={"slug": slug, "arguments": arguments, **extra},
    )
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize(
    ("use_case", "best"),
    [
        ("create a github issue", "GITHUB_CREATE_AN_ISSUE"),
        ("send an email to my boss", "GMAIL_SEND_EMAIL"),
        ("schedule a meeting tomorrow", "GOOGLECALENDAR_CREATE_EVENT"),
        ("reply to an issue with a comment", "GITHUB_CREATE_AN_ISSUE_COMMENT"),
        ("close an issue as completed", "GITHUB_UPDATE_AN_ISSUE"),
        ("search my inbox for unread invoices", "GMAIL_FETCH_EMAILS"),
        ("write down a note", "NOTES_CREATE_NOTE"),
    ],
)
def test_search_ranks_the_obvious_tool_first(
    client: TestClient, new_session: SessionFactory, use_case: str, best: str
) -> None:
    session_id = new_session()
    body = client.post(
        f"{V31}/session/{session_id}/search", json={"queries": [{"use_case": use_case}]}
    ).json()
    assert body["results"][0]["primary_tool_slugs"][0] == best


def test_search_response_shape(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    body = client.post(
        f"{V31}/session/{session_id}/search",
        json={"queries": [{"use_case": "create a github issue"}, {"use_case": "zzzz qqqq"}]},
    ).json()
    assert body["success"] is True
    first, second = body["results"]
    assert (first["index"], second["index"]) == (1, 2)
    assert first["toolkits"][0] == "github"
    assert second["primary_tool_slugs"] == []
    assert "rephrase" in second["execution_guidance"]
    primary = body["tool_schemas"][first["primary_tool_slugs"][0]]
    assert primary["hasFullSchema"] is True
    assert primary["input_schema"]["required"] == ["owner", "repo", "title"]
    related = body["tool_schemas"][first["related_tool_slugs"][-1]]
    assert related["hasFullSchema"] is False
    assert related["schemaRef"]["tool"] == "COMPOSIO_GET_TOOL_SCHEMAS"
    github = next(s for s in body["toolkit_connection_statuses"] if s["toolkit"] == "github")
    assert github["has_active_connection"] is False
    assert "COMPOSIO_MANAGE_CONNECTIONS" in github["status_message"]
    assert body["session"]["generate_id"] is True
    assert body["time_info"]["current_time_utc"].endswith("Z")


def test_search_only_finds_allowed_tools(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session(toolkits={"enable": ["notes"]})
    body = client.post(
        f"{V31}/session/{session_id}/search",
        json={"queries": [{"use_case": "create a github issue"}, {"use_case": "create a note"}]},
    ).json()
    github, note = body["results"]
    # Not a note tool for a GitHub task: nothing, and what to do about it.
    assert github["primary_tool_slugs"] == github["related_tool_slugs"] == []
    assert "does not enable github" in github["execution_guidance"]
    assert note["primary_tool_slugs"][0] == "NOTES_CREATE_NOTE"
    assert all(s.startswith("NOTES_") for s in note["related_tool_slugs"])


def test_search_naming_no_app_answers_with_the_best_tools_of_every_app(
    client: TestClient, new_session: SessionFactory
) -> None:
    body = search(client, new_session(), "delete something by its id")
    result = body["results"][0]
    assert result["primary_tool_slugs"][:2] == ["GOOGLECALENDAR_DELETE_EVENT", "NOTES_DELETE_NOTE"]
    assert {"googlecalendar", "notes"} <= set(result["toolkits"])
    statuses = {s["toolkit"] for s in body["toolkit_connection_statuses"]}
    assert statuses == set(result["toolkits"])


def test_search_reads_the_session_config_once_per_version(
    client: TestClient,
    new_session: SessionFactory,
    state: EmulatorState,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The allow-list is built from the config once, not on every search (nor for every tool),
    and built again when a PATCH changes the config."""
    built: list[int] = []
    real = listing.allowed_tools

    def counted(config: Any, catalog: Any) -> Any:
        built.append(1)
        return real(config, catalog)

    monkeypatch.setattr(listing, "allowed_tools", counted)
    session_id = new_session(toolkits={"enable": ["notes"]})

    def primary(use_case: str) -> list[str]:
        return list(search(client, session_id, use_case)["results"][0]["primary_tool_slugs"])

    assert primary("create a github issue") == []
    assert primary("create a note")[0] == "NOTES_CREATE_NOTE"
    assert len(built) == 1
    patched = client.patch(f"{V31}/session/{session_id}", json={"toolkits": {"enable": ["github"]}})
    assert patched.status_code == 200, patched.text
    assert primary("create a github issue")[0] == "GITHUB_CREATE_AN_ISSUE"
    assert len(built) == 2


USE_CASES = {
    "github": [
        ("create a github issue", "GITHUB_CREATE_AN_ISSUE"),
        ("list the open issues of my repository", "GITHUB_LIST_REPOSITORY_ISSUES"),
        ("reply to an issue with a comment", "GITHUB_CREATE_AN_ISSUE_COMMENT"),
        ("close an issue as completed", "GITHUB_UPDATE_AN_ISSUE"),
        ("show my repositories", "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER"),
    ],
    "gmail": [
        ("send an email to my boss", "GMAIL_SEND_EMAIL"),
        ("search my inbox for unread invoices", "GMAIL_FETCH_EMAILS"),
        ("read my latest emails", "GMAIL_FETCH_EMAILS"),
        ("open the email message with id 42", "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID"),
    ],
    "googlecalendar": [
        ("list my calendar events", "GOOGLECALENDAR_EVENTS_LIST"),
        ("schedule a meeting tomorrow", "GOOGLECALENDAR_CREATE_EVENT"),
        ("cancel the event on friday", "GOOGLECALENDAR_DELETE_EVENT"),
        ("what is on my calendar next week", "GOOGLECALENDAR_EVENTS_LIST"),
    ],
    "notes": [
        ("write down a note", "NOTES_CREATE_NOTE"),
        ("delete a note", "NOTES_DELETE_NOTE"),
        ("save a value under a key", "NOTES_KV_SET"),
        ("find my notes tagged work", "NOTES_LIST_NOTES"),
    ],
}


@pytest.mark.parametrize(
    ("toolkit", "use_case", "best"),
    [(kit, use_case, best) for kit, cases in USE_CASES.items() for use_case, best in cases],
)
def test_search_answers_first_with_the_tools_of_the_app_the_use_case_is_about(
    client: TestClient, new_session: SessionFactory, toolkit: str, use_case: str, best: str
) -> None:
    body = search(client, new_session(), use_case)
    result = body["results"][0]
    assert result["primary_tool_slugs"][0] == best
    # The app's tools lead; another app's tool may follow among the related ones when it
    # shares the use case's words (a note search for "search my inbox").
    assert {slug.split("_")[0] for slug in result["primary_tool_slugs"]} == {toolkit.upper()}
    assert result["toolkits"][0] == toolkit
    statuses = [s["toolkit"] for s in body["toolkit_connection_statuses"]]
    assert statuses == result["toolkits"]


def test_search_bad_body_names_the_field(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    response = client.post(
        f"{V31}/session/{session_id}/search", json={"queries": [{"use_case": "x" * 1025}]}
    )
    assert response.status_code == 400
    assert response.json()["error"]["errors"][0].startswith("queries.0.use_case:")


def test_search_meta_tool_via_execute_reuses_the_workflow_id(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    first = execute(
        client, session_id, "COMPOSIO_SEARCH_TOOLS", {"queries": [{"use_case": "send email"}]}
    ).json()
    workflow = first["data"]["session"]["id"]
    again = execute(
        client,
        session_id,
        "COMPOSIO_SEARCH_TOOLS",
        {"queries": [{"use_case": "send email"}], "session": {"id": workflow}},
    ).json()
    assert again["data"]["session"] == {**first["data"]["session"], "generate_id": False}


def test_get_tool_schemas(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session(toolkits={"disable": ["gmail"]})
    body = meta(
        client,
        session_id,
        "COMPOSIO_GET_TOOL_SCHEMAS",
        {
            "tool_slugs": ["notes_kv_get", "GMAIL_SEND_EMAIL"],
            "include": ["input_schema", "output_schema"],
        },
    )
    assert body["error"] is None
    schema = body["data"]["tool_schemas"]["NOTES_KV_GET"]
    assert schema["input_schema"]["required"] == ["key"]
    assert schema["output_schema"]["required"] == ["data", "successful"]
    assert body["data"]["not_found"] == ["GMAIL_SEND_EMAIL"]
    none = meta(client, session_id, "COMPOSIO_GET_TOOL_SCHEMAS", {"tool_slugs": ["NOPE"]})
    assert none["result_type"] == "failed"
    assert "COMPOSIO_SEARCH_TOOLS" in none["error"]


def test_multi_execute_mixed_results(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    body = meta(
        client,
        session_id,
        "COMPOSIO_MULTI_EXECUTE_TOOL",
        {
            "tools": [
                {"tool_slug": "NOTES_CREATE_NOTE", "arguments": {"title": "a"}},
                {
                    "tool_slug": "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER",
                    "arguments": {},
                },
                {"tool_slug": "NOTES_GET_NOTE", "arguments": {"note_id": "note_1"}},
            ],
            "sync_response_to_workbench": False,
        },
    )
    data = body["data"]
    assert (data["total_count"], data["success_count"], data["error_count"]) == (3, 2, 1)
    assert body["error"] == "1 out of 3 tools failed"
    assert [r["index"] for r in data["results"]] == [0, 1, 2]
    assert data["results"][0]["response"]["successful"] is True
    failed = data["results"][1]
    assert failed["response"]["successful"] is False
    assert "No active connection" in failed["error"]
    assert data["results"][2]["response"]["data"]["title"] == "a"


def test_multi_execute_all_ok(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    body = meta(
        client,
        session_id,
        "COMPOSIO_MULTI_EXECUTE_TOOL",
        {
            "tools": [{"tool_slug": "NOTES_LIST_NOTES", "arguments": {}}],
            "sync_response_to_workbench": False,
        },
    )
    assert (body["error"], body["result_type"]) == (None, "completed")


def test_meta_tool_bad_arguments_fail_in_band(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    body = meta(client, session_id, "COMPOSIO_MULTI_EXECUTE_TOOL", {"tools": []})
    assert body["result_type"] == "failed"
    assert "tools: List should have at least 1 item" in body["error"]


def test_manage_connections_starts_the_connect_flow(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session("gina")
    body = meta(
        client,
        session_id,
        "COMPOSIO_MANAGE_CONNECTIONS",
        {"toolkits": ["github", "notes", "slack"]},
    )
    results = body["data"]["results"]
    assert results["notes"]["status"] == "no_auth_required"
    github = results["github"]
    assert github["status"] == "initiated"
    assert "slack" in body["data"]["errors"][0]
    client.get(github["redirect_url"])
    again = meta(client, session_id, "COMPOSIO_MANAGE_CONNECTIONS", {"toolkits": ["github"]})
    assert again["data"]["results"]["github"] == {
        "toolkit": "github",
        "status": "active",
        "has_active_connection": True,
        "connected_account_id": github["connected_account_id"],
    }


def test_wait_for_connections(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session(
        "hank", manage_connections={"enable": True, "enable_wait_for_connections": True}
    )
    timed_out = meta(
        client,
        session_id,
        "COMPOSIO_WAIT_FOR_CONNECTIONS",
        {"toolkits": ["gmail"], "timeout_seconds": 0},
    )
    assert timed_out["result_type"] == "failed"
    assert "gmail" in timed_out["error"]
    connect(client, session_id, "gmail")
    done = meta(
        client,
        session_id,
        "COMPOSIO_WAIT_FOR_CONNECTIONS",
        {"toolkits": ["gmail", "notes"], "timeout_seconds": 5},
    )
    assert done["error"] is None
    assert done["data"]["all_connected"] is True


@pytest.mark.parametrize("slug", ["COMPOSIO_REMOTE_WORKBENCH", "COMPOSIO_REMOTE_BASH_TOOL"])
def test_sandbox_tools_answer_an_in_band_error(
    client: TestClient, new_session: SessionFactory, slug: str
) -> None:
    session_id = new_session()
    body = meta(client, session_id, slug, {"code_to_execute": "print(1)", "command": "ls"})
    assert body["result_type"] == "failed"
    assert "not available on the emulator" in body["error"]


def test_hidden_and_unknown_meta_tools(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session(search={"enable": False})
    hidden = client.post(
        f"{V31}/session/{session_id}/execute_meta",
        json={"slug": "COMPOSIO_SEARCH_TOOLS", "arguments": {"queries": [{"use_case": "x"}]}},
    )
    assert (hidden.status_code, hidden.json()["error"]["slug"]) == (
        400,
        "ToolRouterV2_ToolNotAllowed",
    )
    wait = execute(client, session_id, "COMPOSIO_WAIT_FOR_CONNECTIONS", {"toolkits": ["gmail"]})
    assert wait.status_code == 400
    unknown = execute(client, session_id, "COMPOSIO_TELEPORT")
    assert unknown.status_code == 404
    not_meta = client.post(
        f"{V31}/session/{session_id}/execute_meta", json={"slug": "NOTES_LIST_NOTES"}
    )
    assert not_meta.status_code == 400
    assert not_meta.json()["error"]["errors"] == ["slug: must be a COMPOSIO_* meta tool"]


_MULTI_ITEM = {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}}


@pytest.mark.parametrize(
    ("slug", "arguments", "problem"),
    [
        (
            "COMPOSIO_MULTI_EXECUTE_TOOL",
            {"tools": [{"tool_slug": "NOTES_LIST_NOTES"}], "sync_response_to_workbench": False},
            "tools.0.arguments",
        ),
        (
            "COMPOSIO_MULTI_EXECUTE_TOOL",
            {"tools": [_MULTI_ITEM], "sync_response_to_workbench": "false"},
            "sync_response_to_workbench",
        ),
        (
            "COMPOSIO_GET_TOOL_SCHEMAS",
            {"tool_slugs": ["NOTES_LIST_NOTES"], "include": ["bogus"]},
            "include.0",
        ),
        ("COMPOSIO_GET_TOOL_SCHEMAS", {"tool_slugs": [""]}, "tool_slugs.0"),
    ],
)
def test_meta_arguments_the_published_schema_refuses_fail_in_band(
    client: TestClient, new_session: SessionFactory, slug: str, arguments: Any, problem: str
) -> None:
    body = meta(client, new_session(), slug, arguments)
    assert body["result_type"] == "failed"
    assert f"{problem}: " in body["error"]


@pytest.mark.parametrize(
    ("slug", "arguments"),
    [
        ("COMPOSIO_MANAGE_CONNECTIONS", {"toolkits": []}),
        ("COMPOSIO_GET_TOOL_SCHEMAS", {"tool_slugs": []}),
        ("COMPOSIO_WAIT_FOR_CONNECTIONS", {"toolkits": ["notes"], "timeout_seconds": 1}),
    ],
)
def test_meta_arguments_the_published_schema_allows_are_accepted(
    client: TestClient, new_session: SessionFactory, slug: str, arguments: Any
) -> None:
    session_id = new_session(manage_connections={"enable_wait_for_connections": True})
    body = meta(client, session_id, slug, arguments)
    assert body["result_type"] == "completed", body["error"]


def _required(schema: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    ref = schema.get("$ref")
    if ref:
        schema = defs[ref.rsplit("/", 1)[-1]]
    return set(schema.get("required", []))


@pytest.mark.parametrize(
    ("slug", "model"),
    [
        ("COMPOSIO_SEARCH_TOOLS", SearchArgs),
        ("COMPOSIO_GET_TOOL_SCHEMAS", SchemasArgs),
        ("COMPOSIO_MULTI_EXECUTE_TOOL", MultiArgs),
        ("COMPOSIO_MANAGE_CONNECTIONS", ManageArgs),
        ("COMPOSIO_WAIT_FOR_CONNECTIONS", WaitArgs),
    ],
)
def test_argument_models_require_what_the_published_schemas_require(
    slug: str, model: type[BaseModel]
) -> None:
    published = meta_tool_definition(slug)["input_schema"]
    ours = model.model_json_schema()
    defs = ours.get("$defs", {})
    relaxed = RELAXED.get(slug, frozenset())
    assert _required(ours, defs) == set(published.get("required", [])) - relaxed
    for name, prop in published["properties"].items():
        if name not in ours["properties"]:  # optional and unused here: kept as an extra
            continue
        items = prop.get("items", {})
        if prop.get("type") == "array" and items.get("type") == "object":
            assert _required(ours["properties"][name]["items"], defs) == set(
                items.get("required", [])
            ), name
        for key in ("minItems", "maxItems"):
            assert ours["properties"][name].get(key) == prop.get(key), (name, key)


def test_served_meta_schemas_carry_no_provenance_notes(
    client: TestClient, new_session: SessionFactory
) -> None:
    # meta_tools.json notes where each schema came from (`x_source`); the service has no such
    # key, and a model would read the note as part of the tool's instructions.
    session_id = new_session(toolkits=["notes"])
    response = client.get(f"{V31}/session/{session_id}/tools")
    assert response.status_code == 200, response.text
    served = response.text
    assert "COMPOSIO_MULTI_EXECUTE_TOOL" in served
    assert "x_source" not in served
