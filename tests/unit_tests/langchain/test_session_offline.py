"""Session logic that needs no service: search answers read, errors named, MCP headers."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pytest

from langchain_toolrouter._session.connections import ConnectionPolicy
from langchain_toolrouter._session.faces import run_sync
from langchain_toolrouter._session.sessions import Creation
from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.custom_tools._registry import CustomRegistry
from langchain_toolrouter.errors import (
    ToolSearchError,
)
from langchain_toolrouter.search import ToolRetriever
from langchain_toolrouter.session import (
    ToolRouter,
    ToolRouterSession,
    _check_toolkit_filters,
)
from langchain_toolrouter.toolkit import ToolRouterToolkit
from langchain_toolrouter.wire.models import (
    ExecuteResult,
    SearchResponse,
    Session,
    ToolSchema,
)

from .scripted_face import ScriptedFace, Step


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
        yield opened(router, raw, CustomRegistry([finder]))


def opened(router: ToolRouter, raw: Session, registry: CustomRegistry) -> ToolRouterSession:
    """The session of a service answer, made with no service."""
    return ToolRouterSession(Creation(router._rt, registry, ConnectionPolicy()).opened(raw))


def response(**fields: object) -> SearchResponse:
    return SearchResponse.model_validate(fields)


def scripted(flow: Any, *answers: object) -> tuple[Any, list[Step]]:
    """Run a flow of the session with no service: each client call it makes gets the next
    answer (an exception is raised); returns what it returned and the calls it made.
    `flow(face)` makes the flow."""
    face = ScriptedFace(answers=list(answers))
    return run_sync(flow(face)), face.calls


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
    schemas = ExecuteResult(
        data={"tool_schemas": {"GITHUB_B": {"tool_slug": "GITHUB_B", "input_schema": {}}}}
    )
    found, calls = scripted(lambda f: session._search(f, "q", None, True, None), answer, schemas)
    assert [c.name for c in calls] == ["search", "execute_meta"]
    # the custom tool is known here and A came with its schema: only B is fetched
    assert calls[1].args[2] == {"tool_slugs": ["GITHUB_B"]}
    assert [t.slug for t in found] == ["GITHUB_A", "LOCAL_FINDER", "GITHUB_B"]
    assert found.primary == {"GITHUB_A", "LOCAL_FINDER"}
    primary_only, calls = scripted(lambda f: session._search(f, "q", None, False, None), answer)
    assert [t.slug for t in primary_only] == ["GITHUB_A", "LOCAL_FINDER"]
    assert len(calls) == 1  # B is not wanted, so nothing is fetched


def test_failed_search_is_an_error(session: ToolRouterSession) -> None:
    failed = response(success=False, error="1 out of 1 searches failed", results=[])
    with pytest.raises(ToolSearchError, match="1 out of 1 searches failed"):
        scripted(lambda f: session._search(f, "q", None, True, None), failed)
    with pytest.raises(ToolSearchError, match="index unavailable"):
        scripted(
            lambda f: session._search(f, "q", None, True, None),
            response(results=[{"error": "index unavailable"}]),
        )


def test_facts_and_mcp(session: ToolRouterSession) -> None:
    assert (session.session_id, session.user_id) == ("trs_offline", "u1")
    mcp = session.mcp
    assert mcp.type == "http"
    assert mcp.headers == {"x-api-key": "ak_offline"}
    assert "ak_offline" not in repr(mcp) + repr(session) + str(session)
    assert session.custom_tools[0].final_slug == "LOCAL_FINDER"
    with pytest.raises(ValueError, match="include_custom"):
        session.get_tools(include_custom="some")  # type: ignore[arg-type]


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
        session = opened(router, raw, CustomRegistry())
        schemas = [
            ToolSchema(slug=slug, description=slug, input_parameters={"type": "object"})
            for slug in ("GET.USER", "GET_USER", "GET_TEAM")
        ]
        tools = session._tools.listed(schemas, ())
        assert [(t.name, t.slug) for t in tools] == [  # type: ignore[attr-defined]
            ("GET_USER", "GET.USER"),
            ("GET_TEAM", "GET_TEAM"),
        ]
        assert session.skipped_tools[0][0] == "GET_USER"
        assert "also the name of GET.USER" in session.skipped_tools[0][1]
        assert "tool GET_USER is skipped" in caplog.text
        answer = response(
            results=[{"primary_tool_slugs": ["GET_USER", "GET.USER"]}],
            tool_schemas={
                slug: {"tool_slug": slug, "input_schema": {"type": "object"}}
                for slug in ("GET_USER", "GET.USER")
            },
        )
        found, _ = scripted(lambda f: session._search(f, "user", None, True, None), answer)
        assert [t.slug for t in found] == ["GET_USER"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda s: s.execute(123), TypeError, "the tool slug must be a string"),
        (lambda s: s.execute("GITHUB_A", "hello"), TypeError, "must be a dict of named arguments"),
        (lambda s: s.execute("GITHUB_A", [("a", 1)]), TypeError, "got list"),
        (lambda s: s.tool(123), TypeError, "the tool slug must be a string"),
        (lambda s: s.authorize(5), TypeError, "the toolkit must be a string"),
        (lambda s: s.authorize(" "), ValueError, "the toolkit must be a non-empty string"),
        (lambda s: s.wait_for_connection("github", timeout="5"), TypeError, "timeout"),
        (lambda s: s.wait_for_connection("github", poll_interval=0), ValueError, "> 0"),
        (
            lambda s: s.search_tools("   "),
            ValueError,
            "the tool search query must be a non-empty string, got '   '; e.g. 'create a note'",
        ),
        (lambda s: s.search_tools("x", known_fields=5), TypeError, "known_fields must be"),
        (lambda s: s.as_search_runnable(limit="2"), TypeError, "limit must be a positive"),
        (lambda s: s.as_search_runnable(include_related="no"), TypeError, "True or False"),
        (lambda s: s.toolkits(connected="yes"), TypeError, "connected must be True, False"),
        (lambda s: s.toolkits(toolkits="github"), TypeError, "toolkits must be a list"),
    ],
)
def test_arguments_of_the_wrong_kind_are_named_before_any_request(
    session: ToolRouterSession, call: Any, error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error, match=re.escape(fragment)):
        call(session)


def test_toolkit_and_retriever_refuse_unknown_arguments(session: ToolRouterSession) -> None:
    with pytest.raises(TypeError, match=r"unknown argument 'exlude' \(did you mean 'exclude'\?\)"):
        ToolRouterToolkit(session=session, exlude=["COMPOSIO_REMOTE_*"])
    with pytest.raises(TypeError, match=r"pass exclude=\['COMPOSIO_\*'\]"):
        ToolRouterToolkit(session=session, exclude="COMPOSIO_*")
    with pytest.raises(TypeError, match="needs session=<a ToolRouterSession>"):
        ToolRouterToolkit(session=None)
    with pytest.raises(TypeError, match="ToolRetriever got unknown argument 'k'"):
        ToolRetriever(session=session, k=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"needs session=<a ToolRouterSession>.*got int"):
        ToolRetriever(session=5)
    assert ToolRetriever(session=session, include_related=False).include_related is False


def test_waiting_without_limit_and_a_set_of_toolkits_are_taken(session: ToolRouterSession) -> None:
    face = ScriptedFace()  # timeout=math.inf: as long as it takes
    with pytest.raises(AssertionError, match="more than was scripted: iter_toolkits"):
        run_sync(session._wait(face, "github", math.inf, 1.0))
    assert face.calls[0].kwargs["toolkits"] == ["github"]
    assert _check_toolkit_filters(None, None, {"github"}) == ["github"]
