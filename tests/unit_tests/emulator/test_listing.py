"""GET .../tools: pages joined from items built once, exactly the wire models' JSON."""

from __future__ import annotations

from starlette.testclient import TestClient

from langchain_toolrouter.emulator.presenters import dump
from langchain_toolrouter.wire.models import ToolPage, ToolSchema
from tests.unit_tests.emulator.calls import V31
from tests.unit_tests.emulator.conftest import SessionFactory

ALL = ["github", "gmail", "googlecalendar", "notes"]


def test_every_item_is_a_tool_schema_as_the_wire_model_dumps_it(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session(toolkits={"enable": ALL}, preload={"tools": "all"})
    body = client.get(f"{V31}/session/{session_id}/tools").json()
    page = ToolPage.model_validate(body)
    assert page.total_items == len(body["items"]) == 6 + 20  # six meta tools, every app tool
    for item in body["items"]:
        assert dump(ToolSchema.model_validate(item)) == item


def test_pages_cover_every_tool_once_and_follow_config_changes(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session(toolkits={"enable": ALL}, preload={"tools": "all"})
    url = f"{V31}/session/{session_id}/tools"
    whole = [item["slug"] for item in client.get(url).json()["items"]]
    walked, cursor = [], None
    while True:
        page = client.get(url, params={"limit": 4, **({"cursor": cursor} if cursor else {})})
        body = page.json()
        walked += [item["slug"] for item in body["items"]]
        cursor = body.get("next_cursor")
        if not cursor:
            assert "next_cursor" not in body
            break
    assert walked == whole
    patched = client.patch(
        f"{V31}/session/{session_id}", json={"preload": {"tools": ["NOTES_KV_GET"]}}
    )
    assert patched.status_code == 200, patched.text
    assert [item["slug"] for item in client.get(url).json()["items"]][-1] == "NOTES_KV_GET"
    assert client.get(url).json()["total_items"] == 7
