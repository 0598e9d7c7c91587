"""Session logic that needs no service: search answers read, errors named, MCP headers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from langchain_toolrouter._custom_registry import CustomRegistry
from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.session import ToolRouter, ToolRouterSession, ToolSearchError
from langchain_toolrouter.wire.models import SearchResponse, Session


@custom_tool
def finder(name: str) -> dict[str, str]:
    """Find locally."""
    return {"name": name}


@pytest.fixture
def session() -> Iterator[ToolRouterSession]:
    with ToolRouter(api_key="ak_offline", base_url="https://api.example.test") as router:
        raw = Session.model_validate(
            {
                "session_id": "trs_offline",
                "mcp": {
                    "type": "HTTP",
                    "url": "https://api.example.test/tool_router/trs_offline/mcp",
                },
                "config": {"user_id": "u1", "toolkits": {"enabled": ["github"]}},
            }
        )
        yield ToolRouterSession(router, raw, CustomRegistry([finder]))


def response(**fields: object) -> SearchResponse:
    return SearchResponse.model_validate(fields)


def test_search_answer_is_read_in_order_with_missing_schemas(session: ToolRouterSession) -> None:
    answer = response(
        results=[
            {
                "primary_tool_slugs": ["GITHUB_A", "LOCAL_FINDER"],
                "related_tool_slugs": ["GITHUB_B", "GITHUB_A"],
            }
        ],
        tool_schemas={
            "GITHUB_A": {"tool_slug": "GITHUB_A", "input_schema": {"type": "object"}},
            "GITHUB_B": {"tool_slug": "GITHUB_B", "hasFullSchema": False},
        },
    )
    ordered, primary, missing = session._search_slugs(answer, include_related=True)
    assert ordered == ["GITHUB_A", "LOCAL_FINDER", "GITHUB_B"]
    assert primary == ["GITHUB_A", "LOCAL_FINDER"]
    assert missing == ["GITHUB_B"]  # the custom tool is known here; A came with its schema
    assert session._search_slugs(answer, include_related=False)[0] == [
        "GITHUB_A",
        "LOCAL_FINDER",
    ]


def test_failed_search_is_an_error(session: ToolRouterSession) -> None:
    with pytest.raises(ToolSearchError, match="1 out of 1 searches failed"):
        session._search_slugs(
            response(success=False, error="1 out of 1 searches failed", results=[]), True
        )
    with pytest.raises(ToolSearchError, match="index unavailable"):
        session._search_slugs(response(results=[{"error": "index unavailable"}]), True)


def test_facts_and_mcp(session: ToolRouterSession) -> None:
    assert (session.session_id, session.user_id) == ("trs_offline", "u1")
    mcp = session.mcp
    assert mcp.type == "http"
    assert mcp.headers == {"x-api-key": "ak_offline"}
    assert "ak_offline" not in repr(mcp) + repr(session) + str(session)
    assert session.custom_tools[0].final_slug == "LOCAL_FINDER"
    with pytest.raises(ValueError, match="include_custom"):
        session._tool_list([], "some")  # type: ignore[arg-type]
