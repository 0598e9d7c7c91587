"""Session logic that needs no service: search answers read, errors named, MCP headers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from langchain_toolrouter._custom_registry import CustomRegistry
from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.session import ToolRouter, ToolRouterSession, ToolSearchError
from langchain_toolrouter.wire.models import SearchResponse, SearchToolSchema, Session, ToolSchema


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


def test_safe_names_that_collide_keep_the_first_tool_and_say_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with ToolRouter(
        api_key="ak_offline", base_url="https://api.example.test", name_style="safe"
    ) as router:
        raw = Session.model_validate(
            {
                "session_id": "trs_safe",
                "mcp": {"type": "HTTP", "url": "https://x.test/mcp"},
                "config": {"user_id": "u1"},
            }
        )
        session = ToolRouterSession(router, raw, CustomRegistry())
        schemas = [
            ToolSchema(slug=slug, description=slug, input_parameters={"type": "object"})
            for slug in ("GET.USER", "GET_USER", "GET_TEAM")
        ]
        tools = session._tool_list(schemas, "preloaded")
        assert [(t.name, t.slug) for t in tools] == [  # type: ignore[attr-defined]
            ("GET_USER", "GET.USER"),
            ("GET_TEAM", "GET_TEAM"),
        ]
        assert session.skipped_tools[0][0] == "GET_USER"
        assert "also the name of GET.USER" in session.skipped_tools[0][1]
        assert "tool GET_USER is skipped" in caplog.text
        found = session._search_result(
            "user",
            response(results=[]),
            ["GET_USER", "GET.USER"],
            [],
            {
                slug: SearchToolSchema(tool_slug=slug, input_schema={"type": "object"})
                for slug in ("GET_USER", "GET.USER")
            },
        )
        assert [t.slug for t in found] == ["GET_USER"]  # type: ignore[attr-defined]
