"""Custom catalogs: tools defined by a plain JSON Schema, served like the built-in ones."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import Catalog, CatalogTool, ToolContext, Toolkit, create_app
from tests.unit_tests.emulator.calls import API_KEY, V31, execute

SCHEMA = {
    "type": "object",
    "properties": {
        "email": {"type": "string", "minLength": 3},
        "limit": {"type": "integer", "minimum": 1, "default": 10},
    },
    "required": ["email"],
    "additionalProperties": False,
}


def _find(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return {"email": args["email"], "user": ctx.user_id}


def _crm(schema: dict[str, Any]) -> Catalog:
    tool = CatalogTool(
        "CRM_FIND", "Find customer", "Finds a customer.", "crm", _find, input_schema=schema
    )
    kit = Toolkit(
        slug="crm",
        name="CRM",
        description="Customer records.",
        no_auth=True,
        auth_scheme="NO_AUTH",
        upstream="https://crm.emulator.example",
        tools=(tool,),
        init_state=lambda user_id: {},
    )
    return Catalog([kit])


def _client(catalog: Catalog) -> TestClient:
    return TestClient(
        create_app(api_keys=[API_KEY], catalog=catalog), headers={"x-api-key": API_KEY}
    )


def test_a_json_schema_tool_is_listed_and_run() -> None:
    with _client(_crm(SCHEMA)) as client:
        created = client.post(
            f"{V31}/session",
            json={"user_id": "u", "toolkits": {"enable": ["crm"]}, "preload": {"tools": "all"}},
        ).json()
        listed = client.get(f"{V31}/session/{created['session_id']}/tools").json()["items"]
        assert listed[-1]["input_parameters"] == SCHEMA
        ran = execute(client, created["session_id"], "CRM_FIND", {"email": "ada@example.com"})
        assert ran.json()["data"] == {"email": "ada@example.com", "user": "u"}
        bad = execute(client, created["session_id"], "CRM_FIND", {"email": "a", "extra": 1})
        error = bad.json()["error"]
        assert error.startswith("Invalid arguments for CRM_FIND:")
        assert "'a' is too short" in error
        assert "Additional properties are not allowed" in error


def test_the_schema_is_the_tool_s_own_copy() -> None:
    schema = {"type": "object", "properties": {"email": {"type": "string"}}}
    catalog = _crm(schema)
    schema["properties"]["email"]["type"] = "integer"
    assert catalog.tools["CRM_FIND"].input_schema["properties"]["email"]["type"] == "string"


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        ({}, "give args_model"),
        ({"type": "string"}, "must describe an object"),
        ({"type": "object", "properties": []}, "must describe an object"),
        ({"type": "object", "properties": {"x": {"default": object()}}}, "must be plain JSON"),
    ],
)
def test_a_schema_that_is_not_an_object_schema_is_refused(schema: Any, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        _crm(schema)


def test_a_schema_the_metaschema_refuses_fails_the_call_not_the_server() -> None:
    broken = {"type": "object", "properties": {"n": {"type": "integer", "minimum": "one"}}}
    with _client(_crm(broken)) as client:
        created = client.post(
            f"{V31}/session", json={"user_id": "u", "toolkits": {"enable": ["crm"]}}
        ).json()
        ran = execute(client, created["session_id"], "CRM_FIND", {"n": 1})
    assert ran.status_code == 200
    assert "not a valid JSON Schema" in ran.json()["error"]
