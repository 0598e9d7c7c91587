"""A crash inside a fake tool is that call's failed result (HTTP 200), never an HTTP 500."""

from __future__ import annotations

import dataclasses
from typing import Any, NoReturn

import pytest
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState
from langchain_toolrouter.emulator.catalog import ToolContext
from tests.unit_tests.emulator.calls import V31, connect, execute
from tests.unit_tests.emulator.conftest import SessionFactory


def _boom(ctx: ToolContext, args: Any) -> NoReturn:
    del ctx, args
    raise ZeroDivisionError("tool bug")


@pytest.fixture
def broken_list_notes(state: EmulatorState, monkeypatch: pytest.MonkeyPatch) -> None:
    """NOTES_LIST_NOTES raises a plain exception when it runs."""
    tool = state.catalog.tools["NOTES_LIST_NOTES"]
    monkeypatch.setitem(state.catalog.tools, tool.slug, dataclasses.replace(tool, run=_boom))


@pytest.mark.usefixtures("broken_list_notes")
def test_crash_in_tool_code_is_a_failed_result(
    client: TestClient, new_session: SessionFactory
) -> None:
    response = execute(client, new_session(), "NOTES_LIST_NOTES")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["result_type"] == "failed"
    assert "ZeroDivisionError: tool bug" in body["error"]


@pytest.mark.usefixtures("broken_list_notes")
def test_multi_execute_keeps_the_items_that_ran_before_a_crash(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    response = client.post(
        f"{V31}/session/{session_id}/execute_meta",
        json={
            "slug": "COMPOSIO_MULTI_EXECUTE_TOOL",
            "arguments": {
                "tools": [
                    {"tool_slug": "NOTES_CREATE_NOTE", "arguments": {"title": "kept"}},
                    {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}},
                ],
                "sync_response_to_workbench": False,
            },
        },
    )
    assert response.status_code == 200, response.text
    results = response.json()["data"]["results"]
    assert results[0]["response"]["data"]["title"] == "kept"
    assert "ZeroDivisionError" in results[1]["error"]


@pytest.mark.usefixtures("broken_list_notes")
def test_crash_behind_the_proxy_is_an_upstream_500(
    client: TestClient, new_session: SessionFactory
) -> None:
    response = client.post(
        f"{V31}/session/{new_session()}/proxy_execute",
        json={"toolkit_slug": "notes", "endpoint": "/notes", "method": "GET"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == 500
    assert "ZeroDivisionError" in body["data"]["message"]


@pytest.mark.parametrize("token", ["\u00b2", "1\u0661", "9" * 5000])
def test_gmail_page_token_that_is_not_ascii_digits_is_a_tool_error(
    client: TestClient, new_session: SessionFactory, token: str
) -> None:
    session_id = new_session()
    connect(client, session_id, "gmail")
    response = execute(client, session_id, "GMAIL_FETCH_EMAILS", {"page_token": token})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["result_type"] == "failed"
    assert "is not a token this mailbox issued" in body["error"]


@pytest.mark.parametrize(
    ("slug", "arguments", "field"),
    [
        (
            "GOOGLECALENDAR_CREATE_EVENT",
            {"summary": "x", "start_datetime": "9999-12-31T23:59:00Z"},
            "start_datetime",
        ),
        (
            "GOOGLECALENDAR_CREATE_EVENT",
            {"summary": "x", "start_datetime": "0001-01-01T00:00:00+01:00"},
            "start_datetime",
        ),
        ("GOOGLECALENDAR_EVENTS_LIST", {"time_min": "9999-12-31T23:00:00-02:00"}, "time_min"),
    ],
)
def test_calendar_dates_out_of_range_are_a_tool_error(
    client: TestClient,
    new_session: SessionFactory,
    slug: str,
    arguments: dict[str, Any],
    field: str,
) -> None:
    session_id = new_session()
    connect(client, session_id, "googlecalendar")
    response = execute(client, session_id, slug, arguments)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["result_type"] == "failed"
    assert f"{field} is outside the supported date range" in body["error"]
