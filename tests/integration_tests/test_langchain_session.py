"""ToolRouter and ToolRouterSession against an EmulatorServer over loopback, sync and async."""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

import asyncio
import copy
import json
import pickle
import re
import time
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolArg
from langchain_core.tools import tool as lc_tool
from pydantic import AfterValidator

from langchain_toolrouter import session as session_module
from langchain_toolrouter.custom_tools import CustomToolContext, CustomToolkit, custom_tool
from langchain_toolrouter.emulator import EmulatorServer, FaultRule
from langchain_toolrouter.errors import (
    AuthenticationError,
    ConnectionFailedError,
    ConnectionTimeoutError,
    NotFoundError,
    ToolNotConnectedError,
)
from langchain_toolrouter.files import _upload_source
from langchain_toolrouter.session import (
    ToolRouter,
    ToolRouterSession,
)
from langchain_toolrouter.tools import ToolRouterTool
from langchain_toolrouter.types import McpConfig
from tests.unit_tests.langchain.loopback import (  # noqa: F401 - fixtures
    arouter,
    browser,
    make_router,
    ops,
    router,
    server,
    user,
)


def issue(user: str) -> dict[str, str]:
    return {"owner": user, "repo": "hello-world", "title": "Crash on start"}


shouted: list[str] = []


@custom_tool(preload=True)
def shout(text: str) -> dict[str, str]:
    """Upper-case a text so it can be read from afar."""
    shouted.append(text)
    return {"text": text.upper()}


@custom_tool
def count_words(text: str) -> dict[str, int]:
    """Count the words of a text."""
    return {"words": len(text.split())}


def call(tool: ToolRouterTool, args: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": tool.name, "args": args}


def new_session(router: ToolRouter, user: str, **options: Any) -> ToolRouterSession:
    options.setdefault("toolkits", ["github", "notes"])
    return router.create_session(user, **options)


# --------------------------------------------------------------------------- sessions


def test_create_and_resume(router: ToolRouter, server: EmulatorServer, user: str) -> None:
    session = new_session(router, user, manage_connections=True)
    assert session.session_id.startswith("trs_")
    assert session.user_id == user
    assert session.config.toolkits is not None
    assert session.config.toolkits.enabled == ["github", "notes"]
    again = router.get_session(session.session_id)
    assert again.session_id == session.session_id
    assert ops(server, "get_session", session.session_id) == 1
    assert repr(again) == (
        f"ToolRouterSession(session_id={session.session_id!r}, user_id={user!r}, custom_tools=[])"
    )


def test_resume_with_custom_tools_attaches(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user)
    resumed = router.get_session(session.session_id, custom_tools=[shout])
    assert ops(server, "attach", session.session_id) == 1
    assert [t.final_slug for t in resumed.custom_tools] == ["LOCAL_SHOUT"]
    assert "LOCAL_SHOUT" in resumed.get_tools().names


async def test_async_create_and_resume(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[shout])
    resumed = await arouter.aget_session(session.session_id, custom_tools=[shout])
    plain = await arouter.aget_session(session.session_id)
    assert resumed.session_id == plain.session_id == session.session_id
    assert ops(server, "attach", session.session_id) == 1


def test_bad_key_is_the_callers_problem(server: EmulatorServer, user: str) -> None:
    with (
        ToolRouter(api_key="wrong", base_url=server.base_url) as wrong,
        pytest.raises(AuthenticationError),
    ):
        wrong.create_session(user)


def test_delete(router: ToolRouter, user: str) -> None:
    session = new_session(router, user)
    session.delete()
    with pytest.raises(NotFoundError):
        router.get_session(session.session_id)


async def test_adelete(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"])
    await session.adelete()
    with pytest.raises(NotFoundError):
        await arouter.aget_session(session.session_id)


def test_mcp_headers_only_for_the_api_origin(router: ToolRouter, user: str) -> None:
    session = new_session(router, user)
    mcp = session.mcp
    assert mcp.url.startswith(router.base_url + "/")
    assert mcp.type == "http"
    assert mcp.headers == {"x-api-key": router.client.settings.api_key.get_secret_value()}
    assert "x-api-key" in repr(mcp)
    assert mcp.headers["x-api-key"] not in repr(mcp)
    elsewhere = McpConfig.for_session(
        "https://mcp.example.com/x/mcp", "HTTP", router.base_url, {"k": "v"}
    )
    assert elsewhere.headers == {}
    assert elsewhere.type == "http"


# --------------------------------------------------------------------------- tools


def test_get_tools_lists_meta_preloaded_and_custom(router: ToolRouter, user: str) -> None:
    session = new_session(
        router, user, preload=["GITHUB_CREATE_AN_ISSUE"], custom_tools=[shout, count_words]
    )
    tools = session.get_tools()
    assert "COMPOSIO_SEARCH_TOOLS" in tools.names
    assert "GITHUB_CREATE_AN_ISSUE" in tools.names
    assert "LOCAL_SHOUT" in tools.names
    assert "LOCAL_COUNT_WORDS" not in tools.names  # not preloaded: found by search
    assert "LOCAL_COUNT_WORDS" in session.get_tools(include_custom="all").names
    create = tools.get("GITHUB_CREATE_AN_ISSUE")
    assert isinstance(create, ToolRouterTool)
    assert create.metadata is not None
    assert create.metadata["toolkit"] == "github"
    assert create.metadata["kind"] == "app"
    kinds = {t.name: (t.metadata or {}).get("kind") for t in tools}
    assert kinds["COMPOSIO_SEARCH_TOOLS"] == "meta"
    assert kinds["LOCAL_SHOUT"] == "custom"


def test_get_tools_walks_every_page(
    router: ToolRouter, server: EmulatorServer, monkeypatch: pytest.MonkeyPatch, user: str
) -> None:
    monkeypatch.setattr(session_module, "TOOLS_PAGE", 2)
    session = new_session(router, user)
    tools = session.get_tools()
    assert len(tools) >= 5
    assert ops(server, "list_tools", session.session_id) == (len(tools) + 1) // 2


def test_listing_again_reuses_the_conversions(router: ToolRouter, user: str) -> None:
    # A long-running agent lists tools every turn: unchanged schemas must not pile up in the
    # conversion cache (it holds each schema object it saw, up to 8,192).
    from langchain_toolrouter.schema import convert

    session = new_session(router, user, toolkits=["notes"], preload=["NOTES_CREATE_NOTE"])
    first = {tool.name: tool for tool in session.get_tools()}
    held = len(convert._BY_IDENTITY)
    for _ in range(5):
        again = {tool.name: tool for tool in session.get_tools()}
    assert len(convert._BY_IDENTITY) == held
    for name, tool in again.items():
        assert tool.conversion is first[name].conversion  # type: ignore[attr-defined]
    session.search_tools("create a note")
    held = len(convert._BY_IDENTITY)
    for _ in range(3):
        session.search_tools("create a note")
    assert len(convert._BY_IDENTITY) == held, "searching again holds no new copies either"


async def test_aget_tools(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[shout])
    sync_names = session.get_tools().names
    assert (await session.aget_tools()).names == sync_names


def test_bad_schema_is_skipped_not_fatal(
    router: ToolRouter, monkeypatch: pytest.MonkeyPatch, user: str
) -> None:
    session = new_session(router, user)
    real = session._tools.from_schema

    def broken_search(schema: Any) -> Any:
        if schema.slug == "COMPOSIO_SEARCH_TOOLS":
            schema = schema.model_copy(update={"input_parameters": {"type": "string"}})
        return real(schema)

    monkeypatch.setattr(session._tools, "from_schema", broken_search)
    tools = session.get_tools()
    assert "COMPOSIO_SEARCH_TOOLS" not in tools.names
    assert "COMPOSIO_MULTI_EXECUTE_TOOL" in tools.names
    assert session.skipped_tools[0][0] == "COMPOSIO_SEARCH_TOOLS"
    for _ in range(3):  # listed again and again: still one entry, not one per listing
        session.get_tools()
    assert [slug for slug, _ in session.skipped_tools] == ["COMPOSIO_SEARCH_TOOLS"]


# --------------------------------------------------------------------------- search


def test_search_tools_returns_ready_tools(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user)
    found = session.search_tools("create a github issue")
    assert found.names[0] == "GITHUB_CREATE_AN_ISSUE"
    assert "GITHUB_CREATE_AN_ISSUE" in found.primary
    assert found.connected.get("github") is False
    assert all(isinstance(tool, ToolRouterTool) for tool in found)
    # related tools came without schemas: they were fetched with one meta call
    assert ops(server, "execute_meta", session.session_id) == 1
    primary_only = session.search_tools("create a github issue", include_related=False)
    assert set(primary_only.names) <= set(found.primary)


def test_search_finds_custom_tools(router: ToolRouter, user: str) -> None:
    session = new_session(router, user, custom_tools=[count_words])
    found = session.search_tools("count the words of a text")
    assert "LOCAL_COUNT_WORDS" in found.names
    tool = found.get("LOCAL_COUNT_WORDS")
    assert isinstance(tool, ToolRouterTool)
    assert tool.invoke({"text": "a b c"}) == '{"words":3}'


async def test_asearch_tools(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["github", "notes"])
    found = await session.asearch_tools("create a note", known_fields="title:groceries")
    assert "NOTES_CREATE_NOTE" in found.names


def test_tool_by_slug(router: ToolRouter, user: str) -> None:
    session = new_session(router, user, custom_tools=[count_words])
    assert session.tool("NOTES_CREATE_NOTE").slug == "NOTES_CREATE_NOTE"
    assert session.tool("LOCAL_COUNT_WORDS").metadata["kind"] == "custom"  # type: ignore[index]
    assert session.tool("COMPOSIO_MULTI_EXECUTE_TOOL").metadata["kind"] == "meta"  # type: ignore[index]
    with pytest.raises(LookupError, match="NOPE_TOOL"):
        session.tool("NOPE_TOOL")


def test_tool_by_slug_in_any_case_has_the_services_name(router: ToolRouter, user: str) -> None:
    # The name must match what search and get_tools report, or the model calls two names.
    session = new_session(router, user, custom_tools=[count_words])
    for slug in ("notes_create_note", "composio_search_tools", "local_count_words"):
        tool = session.tool(slug)
        assert tool.name == tool.slug == slug.upper()


def test_copies_of_a_session_tool_call_the_same_session(router: ToolRouter, user: str) -> None:
    session = new_session(router, user, toolkits=["notes"])
    tool = session.tool("NOTES_CREATE_NOTE")
    for index, copied in enumerate(
        [copy.deepcopy(tool), tool.model_copy(deep=True), copy.copy(tool)], start=1
    ):
        assert json.loads(copied.invoke({"title": f"copy {index}"}))["title"] == f"copy {index}"
    listed = json.loads(session.tool("NOTES_LIST_NOTES").invoke({}))
    assert [note["title"] for note in listed["notes"]] == ["copy 1", "copy 2", "copy 3"]
    with pytest.raises(TypeError, match=r"cannot be pickled.*\.tool\(slug\)"):
        pickle.dumps(tool)


async def test_atool_by_slug(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[count_words])
    assert (await session.atool("NOTES_CREATE_NOTE")).slug == "NOTES_CREATE_NOTE"
    assert (await session.atool("COMPOSIO_SEARCH_TOOLS")).slug == "COMPOSIO_SEARCH_TOOLS"
    assert (await session.atool("LOCAL_COUNT_WORDS")).slug == "LOCAL_COUNT_WORDS"
    assert (await session.atool("Notes_List_Notes")).name == "NOTES_LIST_NOTES"
    with pytest.raises(LookupError, match="no tool 'GITHUB_CREATE_AN_ISSUE'"):
        await session.atool("GITHUB_CREATE_AN_ISSUE")  # github is not in this session


# --------------------------------------------------------------------------- connections


def test_connect_flow(router: ToolRouter, browser: httpx.Client, user: str) -> None:
    session = new_session(router, user)
    toolkits = session.toolkits()
    assert toolkits.get("notes").connected is None  # type: ignore[union-attr]
    assert toolkits.get("github").connected is False  # type: ignore[union-attr]
    link = session.authorize("github")
    assert link.connected_account_id.startswith("ca_")
    with pytest.raises(ConnectionTimeoutError, match="github was not connected"):
        session.wait_for_connection("github", timeout=0.05, poll_interval=0.01)
    assert browser.get(link.redirect_url).status_code == 200
    info = session.wait_for_connection("github", timeout=5, poll_interval=0.01)
    assert info.connected is True
    assert info.connected_account_id == link.connected_account_id
    assert session.toolkits(connected=True).get("github") is not None
    with pytest.raises(ValueError, match="not part of session"):
        session.wait_for_connection("nope", timeout=0)


def test_waiting_for_a_toolkit_outside_the_session_fails_fast(
    router: ToolRouter, user: str
) -> None:
    session = router.create_session(user, toolkits=["notes"])
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"'github' is not part of session .*toolkits: notes"):
        session.wait_for_connection("github", timeout=30)
    disabled = router.create_session(user, toolkits={"disable": ["github"]})
    with pytest.raises(ValueError, match="disabled"):
        disabled.wait_for_connection("GitHub", timeout=30)
    with pytest.raises(ValueError, match="not part of session"):  # no link to a dead end
        session.authorize("github")
    assert time.perf_counter() - started < 5


def test_waiting_stops_at_once_when_the_connection_failed(
    router: ToolRouter, server: EmulatorServer, browser: httpx.Client, user: str
) -> None:
    session = new_session(router, user)
    link = session.authorize("github")
    for (_, user_id), state in server.store.users.items():
        for account in state.accounts if user_id == user else []:
            if account.id == link.connected_account_id:
                account.status = "FAILED"
    started = time.perf_counter()
    with pytest.raises(ConnectionFailedError, match=r"FAILED.*authorize\('github'\)"):
        session.wait_for_connection("github", timeout=30, poll_interval=0.01)
    assert time.perf_counter() - started < 5
    # A new link is a new account: waiting for it works as usual.
    again = session.authorize("github")
    assert browser.get(again.redirect_url).status_code == 200
    info = session.wait_for_connection("github", timeout=5, poll_interval=0.01)
    assert info.connected is True


async def test_async_wait_outside_the_session_fails_fast(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"])
    with pytest.raises(ValueError, match="not part of session"):
        await session.await_for_connection("github", timeout=30)


async def test_async_connect_flow(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["github"])
    link = await session.aauthorize("github")
    async with httpx.AsyncClient() as browser:
        assert (await browser.get(link.redirect_url)).status_code == 200
    info = await session.await_for_connection("github", timeout=5, poll_interval=0.01)
    assert info.connected is True
    assert (await session.atoolkits()).get("github").connected is True  # type: ignore[union-attr]


def test_unconnected_tool_answers_with_a_link_then_works(
    router: ToolRouter, browser: httpx.Client, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user, preload=["GITHUB_CREATE_AN_ISSUE"])
    tool = session.get_tools().get("GITHUB_CREATE_AN_ISSUE")
    assert isinstance(tool, ToolRouterTool)
    first = tool.invoke(call(tool, issue(user), "1"))
    second = tool.invoke(call(tool, issue(user), "2"))
    assert isinstance(first, ToolMessage)
    assert first.status == "error"
    assert "/_emulator/connect/" in first.content
    assert first.content == second.content  # one link per toolkit, reused
    assert ops(server, "create_link", session.session_id) == 1
    url = str(first.content).rsplit(": ", 1)[1]
    assert first.artifact["redirect_url"] == url  # the program gets the link as data too
    assert first.artifact["toolkit"] == "github"
    assert first.artifact["error_type"] == "ToolNotConnectedError"
    assert browser.get(url).status_code == 200
    done = tool.invoke(call(tool, issue(user), "3"))
    assert done.status == "success"
    assert done.artifact["data"]["title"] == "Crash on start"
    assert done.artifact["log_id"].startswith("log_")


def test_unconnected_tool_when_no_link_can_be_made_still_says_connect(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user)
    tool = session.tool("GITHUB_CREATE_AN_ISSUE")
    server.faults.add(FaultRule(operation="create_link", drop="before"))
    message = tool.invoke(call(tool, issue(user)))
    assert message.status == "error"
    assert "needs a connected github account" in message.content
    assert "A connect link could not be created" in message.content
    assert message.artifact["redirect_url"] is None
    assert message.artifact["reason"] == "needs_connection"


async def test_async_unconnected_tool_answers_with_a_link(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["github"])
    tool = await session.atool("GITHUB_CREATE_AN_ISSUE")
    message = await tool.ainvoke(call(tool, issue(user)))
    assert message.status == "error"
    assert "open this link" in message.content
    assert message.artifact["redirect_url"] in message.content


# --------------------------------------------------------------------------- execution


def test_execute_direct(router: ToolRouter, user: str) -> None:
    session = new_session(router, user, custom_tools=[shout])
    note = session.execute("NOTES_CREATE_NOTE", {"title": "t", "content": "c"})
    assert note.successful
    assert note.data["title"] == "t"
    assert note.log_id.startswith("log_")
    local = session.execute("LOCAL_SHOUT", {"text": "hey"})
    assert (local.data, local.log_id) == ({"text": "HEY"}, "")
    failed = session.execute("NOTES_GET_NOTE", {"note_id": "missing"})
    assert not failed.successful
    assert failed.error


async def test_aexecute_direct(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[shout])
    assert (await session.aexecute("LOCAL_SHOUT", {"text": "a"})).data == {"text": "A"}
    note = await session.aexecute("NOTES_CREATE_NOTE", {"title": "t", "content": "c"})
    assert note.successful


MULTI_ARGS = {
    "tools": [
        {"tool_slug": "NOTES_CREATE_NOTE", "arguments": {"title": "n", "content": "c"}},
        {"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "hi"}},
        {"tool_slug": "LOCAL_CRM_BOOM", "arguments": {"x": 1}},
    ],
    "sync_response_to_workbench": False,
    "thought": "do three things",
}


@custom_tool
def boom(x: int) -> dict[str, int]:
    """Fail on purpose."""
    raise RuntimeError("kaput")


CRM = CustomToolkit("crm", "CRM", "Customer records.", tools=[boom])


def check_multi(message: Any) -> None:
    # Partial success is a normal answer: the model can use the two results that worked.
    assert message.status == "success"
    assert message.content.startswith("1 out of 3 tools failed; the others succeeded.\n")
    assert '"tool_slug":"NOTES_CREATE_NOTE","index":0' in message.content
    assert '"tool_slug":"LOCAL_SHOUT","index":1' in message.content
    assert "LOCAL_CRM_BOOM raised RuntimeError: kaput" in message.content
    assert '"total_count":3,"success_count":2,"error_count":1' in message.content
    artifact = message.artifact
    assert artifact["successful"] is False
    assert artifact["error"] == "1 out of 3 tools failed"
    assert [r["response"]["successful"] for r in artifact["data"]["results"]] == [True, True, False]


def test_multi_execute_runs_custom_items_here(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user, custom_tools=[shout, CRM])
    multi = session.get_tools().get("COMPOSIO_MULTI_EXECUTE_TOOL")
    assert isinstance(multi, ToolRouterTool)
    check_multi(multi.invoke(call(multi, MULTI_ARGS)))
    assert ops(server, "execute_meta", session.session_id) == 1  # the one remote item, in one call


async def test_async_multi_execute_runs_custom_items_here(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[shout, CRM])
    multi = (await session.aget_tools()).get("COMPOSIO_MULTI_EXECUTE_TOOL")
    assert isinstance(multi, ToolRouterTool)
    check_multi(await multi.ainvoke(call(multi, MULTI_ARGS)))
    assert ops(server, "execute_meta", session.session_id) == 1


@custom_tool
async def on_call(team: str) -> dict[str, str]:
    """Look up the on-call engineer of a team."""
    await asyncio.sleep(0)
    return {"team": team}


def test_sync_multi_execute_runs_an_async_custom_tool(router: ToolRouter, user: str) -> None:
    # It used to send the app items, then raise for the async item: done once, then again
    # on the retry. Now the async tool runs to completion on its own loop.
    session = new_session(router, user, custom_tools=[on_call])
    multi = session.tool("COMPOSIO_MULTI_EXECUTE_TOOL")
    items = [
        {"tool_slug": "NOTES_CREATE_NOTE", "arguments": {"title": "sent once"}},
        {"tool_slug": "LOCAL_ON_CALL", "arguments": {"team": "web"}},
    ]
    message = multi.invoke(call(multi, {"tools": items, "sync_response_to_workbench": False}))
    assert message.status == "success"
    assert message.artifact["data"]["results"][1]["response"]["data"] == {"team": "web"}
    titles = [n["title"] for n in session.execute("NOTES_LIST_NOTES").data["notes"]]
    assert titles.count("sent once") == 1
    tool = session.tool("LOCAL_ON_CALL")
    assert tool.invoke(call(tool, {"team": "db"})).artifact["data"] == {"team": "db"}


def test_multi_execute_where_every_item_failed_is_an_error_with_an_artifact(
    router: ToolRouter, user: str
) -> None:
    session = new_session(router, user, custom_tools=[CRM])
    multi = session.tool("COMPOSIO_MULTI_EXECUTE_TOOL")
    items = [{"tool_slug": "LOCAL_CRM_BOOM", "arguments": {"x": i}} for i in range(2)]
    message = multi.invoke(call(multi, {"tools": items, "sync_response_to_workbench": False}))
    assert message.status == "error"
    assert "2 out of 2 tools failed" in message.content
    assert message.artifact["error_type"] == "ToolExecutionError"
    assert message.artifact["data"]["error_count"] == 2


def test_multi_execute_only_local_needs_no_service_call(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user, custom_tools=[shout])
    before = ops(server, "execute_meta", session.session_id)
    outcome = session.execute(
        "COMPOSIO_MULTI_EXECUTE_TOOL",
        {"tools": [{"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "x"}}]},
    )
    assert outcome.data == {"text": "X"}
    assert ops(server, "execute_meta", session.session_id) == before


def test_service_failure_of_the_remote_half_keeps_local_results(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user, custom_tools=[shout])
    server.faults.add(FaultRule(operation="execute_meta", status=503, times=5))
    outcome = session.execute(
        "COMPOSIO_MULTI_EXECUTE_TOOL",
        {
            "tools": [
                {"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "x"}},
                {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}},
            ]
        },
    )
    first, second = outcome.data["results"]
    assert first["response"]["data"] == {"text": "X"}
    assert "HTTP 503" in second["error"]
    assert outcome.error == "1 out of 2 tools failed"


added: list[Any] = []


@custom_tool
def add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    added.append(a)
    return a + b


ADD_REFUSED = (
    "Invalid arguments for LOCAL_ADD; the call was not sent. Fix these and call again:\n"
    '- /a: got string "5" (expected an integer)'
)


def must_be_upper(value: str) -> str:
    if not value.isupper():
        raise ValueError("must be upper case")
    return value


@custom_tool
def upper_only(text: Annotated[str, AfterValidator(must_be_upper)]) -> str:
    """Repeat an upper-case text."""
    return text


UPPER_REFUSED = (
    "Invalid arguments for LOCAL_UPPER_ONLY; the call was not sent. Fix these and call again:\n"
    "- /text: Value error, must be upper case (expected a value the parameter's type accepts)"
)


def multi_call(session: ToolRouterSession, items: list[dict[str, Any]]) -> ToolMessage:
    multi = session.tool("COMPOSIO_MULTI_EXECUTE_TOOL")
    message = multi.invoke(call(multi, {"tools": items, "sync_response_to_workbench": False}))
    assert isinstance(message, ToolMessage)
    return message


def test_custom_tool_arguments_are_checked_alike_on_every_path(
    router: ToolRouter, user: str
) -> None:
    # A direct call refused "5" for an int; multi-execute and execute ran the tool with 5.
    session = new_session(router, user, custom_tools=[add])
    added.clear()
    direct = session.tool("LOCAL_ADD")
    message = direct.invoke(call(direct, {"a": "5"}))
    assert (message.status, message.content) == ("error", ADD_REFUSED)
    items = [
        {"tool_slug": "LOCAL_ADD", "arguments": {"a": "5"}},
        {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}},
    ]
    mixed = multi_call(session, items)
    assert mixed.artifact["data"]["results"][0]["error"] == ADD_REFUSED
    alone = multi_call(session, items[:1])  # one local item: its own result, unwrapped
    assert (alone.status, alone.artifact["error"]) == ("error", ADD_REFUSED)
    assert session.execute("LOCAL_ADD", {"a": "5"}).error == ADD_REFUSED
    assert added == []
    assert session.execute("LOCAL_ADD", {"a": 5}).data == {"result": 7}

    # What only the function's parameter types check (here a validator) reads the same way.
    upper = new_session(router, user, custom_tools=[upper_only])
    tool = upper.tool("LOCAL_UPPER_ONLY")
    message = tool.invoke(call(tool, {"text": "hi"}))
    assert (message.status, message.content) == ("error", UPPER_REFUSED)
    assert upper.execute("LOCAL_UPPER_ONLY", {"text": "hi"}).error == UPPER_REFUSED


async def test_custom_tool_arguments_are_checked_alike_on_every_async_path(
    arouter: ToolRouter, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[add])
    added.clear()
    direct = await session.atool("LOCAL_ADD")
    message = await direct.ainvoke(call(direct, {"a": "5"}))
    assert (message.status, message.content) == ("error", ADD_REFUSED)
    assert (await session.aexecute("LOCAL_ADD", {"a": "5"})).error == ADD_REFUSED
    items = [
        {"tool_slug": "LOCAL_ADD", "arguments": {"a": "5"}},
        {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}},
    ]
    mixed = await session.aexecute("COMPOSIO_MULTI_EXECUTE_TOOL", {"tools": items})
    assert mixed.data["results"][0]["error"] == ADD_REFUSED
    assert added == []


secrets_seen: list[str] = []


@lc_tool
def sign(text: str, secret: Annotated[str, InjectedToolArg] = "s3") -> str:
    """Sign a text with the application's secret."""
    secrets_seen.append(secret)
    return f"{text}:{secret}"


def stamp(text: str, secret: Annotated[str, InjectedToolArg] = "s3") -> str:
    """Stamp a text with the application's secret."""
    secrets_seen.append(secret)
    return f"{text}:{secret}"


def secret_refused(slug: str) -> str:
    return (
        f"Invalid arguments for {slug}; the call was not sent. Fix these and call again:\n"
        "- /secret: 'secret' is supplied by the application; the model cannot set it "
        "(expected the arguments without 'secret')"
    )


def test_the_model_cannot_set_an_injected_argument_on_any_path(
    router: ToolRouter, user: str
) -> None:
    session = new_session(router, user, custom_tools=[sign, stamp])
    secrets_seen.clear()
    forged = {"text": "t", "secret": "hack"}
    for slug in ("LOCAL_SIGN", "LOCAL_STAMP"):
        direct = session.tool(slug)
        assert "secret" not in direct.tool_call_schema["properties"]  # type: ignore[index]
        message = direct.invoke(call(direct, forged))
        assert (message.status, message.content) == ("error", secret_refused(slug))
        items = [
            {"tool_slug": slug, "arguments": forged},
            {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}},
        ]
        mixed = multi_call(session, items)
        assert mixed.artifact["data"]["results"][0]["error"] == secret_refused(slug)
        assert multi_call(session, items[:1]).artifact["error"] == secret_refused(slug)
        assert session.execute(slug, forged).error == secret_refused(slug)
        assert session.execute(slug, {"text": "t"}).data == {"result": "t:s3"}
    assert secrets_seen == ["s3", "s3"]


RESUME_FIX = "router.get_session(session_id, custom_tools=[...])"


def test_a_session_resumed_without_its_custom_tools_says_how_to_pass_them(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user, custom_tools=[shout])
    resumed = router.get_session(session.session_id)  # v3.1: the service forgot LOCAL_SHOUT
    missing = "LOCAL_SHOUT is a custom tool and this session has no function for it"
    with pytest.raises(NotFoundError) as raised:
        resumed.execute("LOCAL_SHOUT", {"text": "x"})
    assert missing in (raised.value.suggested_fix or "")
    assert RESUME_FIX in str(raised.value)
    answer = multi_call(resumed, [{"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "x"}}])
    assert answer.status == "error"
    item = answer.artifact["data"]["results"][0]
    assert missing in item["error"]
    assert RESUME_FIX in item["response"]["error"]
    with pytest.raises(LookupError, match=re.escape(RESUME_FIX)):
        resumed.tool("LOCAL_SHOUT")

    # v3 keeps the definition, so the model can still call the tool: the service refuses to
    # run custom code, and the model's error says what the developer must do.
    with make_router(server, api_version="v3") as v3:
        kept = v3.create_session(user, toolkits=["notes"], custom_tools=[shout])
        tool = v3.get_session(kept.session_id).tool("LOCAL_SHOUT")
        message = tool.invoke(call(tool, {"text": "x"}))
        assert message.status == "error"
        assert "the server does not run custom tool code" in message.content
        assert missing in message.content
        assert RESUME_FIX in message.content


async def test_an_async_session_resumed_without_its_custom_tools_says_how_to_pass_them(
    arouter: ToolRouter, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[shout])
    resumed = await arouter.aget_session(session.session_id)
    with pytest.raises(NotFoundError, match=re.escape(RESUME_FIX)):
        await resumed.aexecute("LOCAL_SHOUT", {"text": "x"})
    items = [{"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "x"}}]
    answer = await resumed.aexecute("COMPOSIO_MULTI_EXECUTE_TOOL", {"tools": items})
    assert RESUME_FIX in answer.data["results"][0]["error"]


def test_rate_limit_after_retries_is_an_error_message(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user)
    tool = session.tool("NOTES_LIST_NOTES")
    server.faults.add(FaultRule(operation="execute", status=429, retry_after=0.01))
    before = ops(server, "execute", session.session_id)
    message = tool.invoke(call(tool, {}))
    assert message.status == "error"
    assert "rate limited" in message.content
    assert ops(server, "execute", session.session_id) - before == 2  # the policy's attempts


async def test_tool_calls_go_through_the_retry_policy(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    """A 429 or a refused connection means the call did not run, so a tool call retries it;
    a 5xx may have run the tool, so an execute is not repeated (it could send an email twice)."""
    session = await arouter.acreate_session(user, toolkits=["notes"])
    tool = await session.atool("NOTES_LIST_NOTES")
    server.faults.add(FaultRule(operation="execute", status=429, retry_after=0.01, times=1))
    assert (await tool.ainvoke(call(tool, {}, "a"))).status == "success"
    server.faults.clear()
    server.faults.add(FaultRule(operation="execute", status=503, times=1))
    before = ops(server, "execute", session.session_id)
    message = await tool.ainvoke(call(tool, {}, "b"))
    assert message.status == "error"
    assert ops(server, "execute", session.session_id) - before == 1


def test_server_error_is_an_error_message_with_the_fix(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user)
    tool = session.tool("NOTES_LIST_NOTES")
    server.faults.add(FaultRule(operation="execute", status=500, message="db down"))
    message = tool.invoke(call(tool, {}))
    assert message.status == "error"
    assert "failed at the Tool Router service (HTTP 500): db down" in message.content
    assert "MAY HAVE RUN" in message.content


def test_transport_failure_is_an_error_message(
    router: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = new_session(router, user)
    tool = session.tool("NOTES_LIST_NOTES")
    server.faults.add(FaultRule(operation="execute", drop="after"))
    message = tool.invoke(call(tool, {}))
    assert message.status == "error"
    # The request reached the service (it ran the call, then the connection dropped): the
    # model is told it may have run, never that it may not have.
    assert "MAY HAVE RUN" in message.content
    assert "not have run" not in message.content
    assert message.artifact["request_sent"] is True


def test_a_timed_out_send_tells_the_model_it_may_have_run_and_is_not_resent(
    server: EmulatorServer, user: str, browser: httpx.Client
) -> None:
    router = make_router(server, execute_timeout=0.3)
    try:
        session = router.create_session(user, toolkits=["gmail"])
        browser.get(session.authorize("gmail").redirect_url)
        session.wait_for_connection("gmail", timeout=10, poll_interval=0.05)
        tool = session.tool("GMAIL_SEND_EMAIL")
        before = ops(server, "execute", session.session_id)
        server.faults.add(FaultRule(operation="execute", latency=1.0, times=1))
        message = tool.invoke(call(tool, {"recipient_email": "a@example.com", "body": "hi"}))
        assert message.status == "error"
        assert "MAY HAVE RUN" in message.content
        assert "check whether it took effect" in message.content
        assert "not have run" not in message.content
        assert message.artifact["request_sent"] is True
        time.sleep(1.0)  # the service finishes the send the client stopped waiting for
        assert ops(server, "execute", session.session_id) - before == 1, "never resent"
        sent = session.execute("GMAIL_FETCH_EMAILS", {"max_results": 5, "label_ids": ["SENT"]})
        assert [mail["to"] for mail in sent.data["messages"]] == ["a@example.com"]
    finally:
        router.close()
        server.faults.clear()


def test_an_unreachable_service_tells_the_model_the_call_did_not_run(user: str) -> None:
    with EmulatorServer() as own:  # stopped after this block: its port then refuses
        router = make_router(own)
        tool = new_session(router, user).tool("NOTES_CREATE_NOTE")
    try:
        message = tool.invoke(call(tool, {"title": "t", "content": "c"}))
    finally:
        router.close()
    assert message.status == "error"
    assert "did not run" in message.content
    assert "may have run" not in message.content.lower()
    assert message.artifact["request_sent"] is False


def test_deleted_session_propagates(router: ToolRouter, user: str) -> None:
    session = new_session(router, user)
    tool = session.tool("NOTES_LIST_NOTES")
    session.delete()
    with pytest.raises(NotFoundError):
        tool.invoke(call(tool, {}))


# --------------------------------------------------------------------------- proxy and files


def test_proxy_execute(router: ToolRouter, user: str) -> None:
    session = new_session(router, user)
    created = session.proxy_execute("notes", "/notes", "POST", body={"title": "t", "content": "c"})
    assert created.status == 201
    listed = session.proxy_execute("notes", "/notes")
    assert listed.status == 200


async def test_aproxy_execute(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"])
    result = await session.aproxy_execute("notes", "/notes")
    assert result.status == 200


def test_files_round_trip_never_sends_the_key(
    router: ToolRouter, server: EmulatorServer, tmp_path: Path, user: str
) -> None:
    session = new_session(router, user)
    local = tmp_path / "report.csv"
    local.write_text("a,b\n1,2\n")
    assert session.files.upload(local) == "report.csv"
    assert session.files.upload(b"hello", "/notes/hi.txt") == "notes/hi.txt"
    assert session.files.list().paths == ["notes/hi.txt", "report.csv"]
    assert session.files.list(prefix="notes").paths == ["notes/hi.txt"]
    assert session.files.download("notes/hi.txt") == b"hello"
    target = session.files.download("report.csv", to=tmp_path / "out" / "r.csv")
    assert target.read_text() == "a,b\n1,2\n"
    session.files.delete("report.csv")
    session.files.delete("report.csv")  # idempotent
    assert session.files.list().paths == ["notes/hi.txt"]
    presigned = [r for r in server.log if r.operation.startswith("presigned_")]
    assert len(presigned) == 4
    assert not any(r.had_api_key for r in presigned)


async def test_async_files_round_trip(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"])
    assert await session.files.aupload(b"x" * 10, "d/x.bin") == "d/x.bin"
    assert (await session.files.alist()).paths == ["d/x.bin"]
    assert await session.files.adownload("d/x.bin") == b"x" * 10
    await session.files.adelete("d/x.bin")
    assert (await session.files.alist()).paths == []
    assert not any(r.had_api_key for r in server.log if r.operation.startswith("presigned_"))


def test_file_inputs_are_checked(router: ToolRouter, tmp_path: Path, user: str) -> None:
    session = new_session(router, user)
    with pytest.raises(ValueError, match="remote_path"):
        session.files.upload(b"x")
    with pytest.raises(FileNotFoundError):
        session.files.upload(tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="mount path"):
        session.files.download("/")
    requests_before = len(session.files.list())
    for escaping in ("../secret.txt", "a/../../b", "a\\..\\b"):
        with pytest.raises(ValueError, match=r"leaves the mount"):
            session.files.upload(b"x", escaping)
        with pytest.raises(ValueError, match=r"leaves the mount"):
            session.files.download(escaping)
    assert len(session.files.list()) == requests_before


def test_file_names_types_and_folders(router: ToolRouter, tmp_path: Path, user: str) -> None:
    session = new_session(router, user)
    local = tmp_path / "data.bin"
    local.write_bytes(b"a,b\n")
    # The content type follows the name the file gets in the mount, not the local one.
    assert _upload_source(local, "report.csv", None)[2] == "text/csv"
    assert session.files.upload(local, "report.csv") == "report.csv"
    assert session.files.upload(memoryview(b"mv"), " padded name.txt") == " padded name.txt"
    assert session.files.download(" padded name.txt") == b"mv"
    folder = tmp_path / "downloads"
    folder.mkdir()
    saved = session.files.download("report.csv", to=folder)
    assert saved == folder / "report.csv"
    assert saved.read_bytes() == b"a,b\n"


# --------------------------------------------------------------------------- router options


def test_router_options_reach_the_tools(server: EmulatorServer, user: str) -> None:
    with make_router(server, raise_errors=True, name_style="safe", max_content_chars=50) as router:
        session = router.create_session(user, toolkits=["notes", "github"])
        note = session.tool("NOTES_CREATE_NOTE")
        message = note.invoke(call(note, {"title": "t", "content": "x" * 200}))
        assert "characters shown; full result in the artifact" in message.content
        issue_tool = session.tool("GITHUB_CREATE_AN_ISSUE")
        with pytest.raises(ToolNotConnectedError) as info:
            issue_tool.invoke(call(issue_tool, issue(user)))
        assert info.value.toolkit == "github"
        assert info.value.redirect_url is not None
        assert "/_emulator/connect/" in info.value.redirect_url
        assert repr(router) == f"ToolRouter(base_url={server.base_url!r}, api_version='v3.1')"


def test_custom_slug_that_looks_like_an_app_slug_does_not_hijack_it(
    router: ToolRouter, user: str
) -> None:
    @custom_tool(slug="NOTES_LIST_NOTES")
    def impostor() -> dict[str, str]:
        """Pretends to list notes."""
        return {"impostor": "yes"}

    session = new_session(router, user, custom_tools=[impostor])
    listed = session.execute("NOTES_LIST_NOTES", {})
    assert listed.log_id.startswith("log_")  # the service ran the real tool
    assert "impostor" not in listed.data
    assert session.execute("LOCAL_NOTES_LIST_NOTES", {}).data == {"impostor": "yes"}


def test_api_v3_sends_definitions_on_create_only(server: EmulatorServer, user: str) -> None:
    with make_router(server, api_version="v3") as router:
        session = router.create_session(user, toolkits=["notes"], custom_tools=[shout])
        assert session._calls.inline() is None  # v3 keeps them; v3.1 needs them on every call
        assert "LOCAL_SHOUT" in session.get_tools().names
        merged = session.execute(
            "COMPOSIO_MULTI_EXECUTE_TOOL",
            {
                "tools": [
                    {"tool_slug": "LOCAL_SHOUT", "arguments": {"text": "v3"}},
                    {"tool_slug": "NOTES_LIST_NOTES", "arguments": {}},
                ]
            },
        )
        assert merged.successful
        assert merged.data["results"][0]["response"]["data"] == {"text": "V3"}


async def test_api_v3_resumes_with_get_not_attach(server: EmulatorServer, user: str) -> None:
    """Attach is a v3.1 operation; a v3 session kept its custom definitions."""
    async with make_router(server, api_version="v3") as router:
        created = await router.acreate_session(user, toolkits=["notes"], custom_tools=[shout])
        resumed = await router.aget_session(created.session_id, custom_tools=[shout])
        assert ops(server, "attach", created.session_id) == 0
        outcome = await resumed.aexecute("LOCAL_SHOUT", {"text": "again"})
        assert outcome.data == {"text": "AGAIN"}
        assert router.get_session(created.session_id, custom_tools=[shout]).custom_tools
        assert ops(server, "attach", created.session_id) == 0


def test_session_renders_for_notebooks(router: ToolRouter, user: str) -> None:
    session = new_session(router, user, custom_tools=[shout])
    html = session._repr_html_()
    assert session.session_id in html
    assert "LOCAL_SHOUT" in html
    text = str(session)
    assert text.splitlines()[0] == "Tool Router session"
    assert f"user_id       {user}" in text
    assert "toolkits      github, notes" in text
    assert router.client.settings.api_key.get_secret_value() not in html + text


@custom_tool(preload=True)
def notify(channel: str, callbacks: list[str], _id: str = "") -> dict[str, Any]:
    """Post to a channel, then call these webhook URLs."""
    return {"channel": channel, "callbacks": callbacks, "_id": _id}


def test_run_argument_names_reach_a_custom_tool_unchanged(router: ToolRouter, user: str) -> None:
    """A custom tool's `callbacks` or `_id` parameter is the model's to fill, as any other."""
    session = new_session(router, user, custom_tools=[notify])
    tool = session.tool("LOCAL_NOTIFY")
    args = {"channel": "ops", "callbacks": ["https://x"], "_id": "n1"}
    message = tool.invoke(call(tool, args))
    assert message.status == "success", message.content
    assert message.artifact["data"] == args


def test_run_argument_names_reach_the_service_unchanged(
    router: ToolRouter, user: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`config`, `callbacks` and `run_manager` are LangChain's own names; ours still send them."""
    session = new_session(router, user)
    search = session.tool("COMPOSIO_SEARCH_TOOLS")  # its schema allows extra properties
    sent: list[dict[str, Any]] = []
    real = router.client.execute_meta

    def spy(session_id: str, slug: str, arguments: Any = None, **kwargs: Any) -> Any:
        sent.append(dict(arguments))
        return real(session_id, slug, arguments, **kwargs)

    monkeypatch.setattr(router.client, "execute_meta", spy)
    args = {
        "queries": [{"use_case": "create a note"}],
        "config": {"mode": "fast"},
        "callbacks": ["a"],
        "run_manager": "x",
    }
    message = search.invoke(call(search, args))
    assert message.status == "success"
    assert sent == [args]


@custom_tool
def note_it(text: str, ctx: CustomToolContext) -> dict[str, Any]:
    """Save a text as a note, through the session's own notes tool."""
    saved = ctx.execute("NOTES_CREATE_NOTE", {"title": text, "content": ctx.user_id})
    shouted_back = ctx.execute("LOCAL_SHOUT", {"text": text})  # a sibling runs locally
    return {"note": saved["data"]["id"], "shout": shouted_back["data"]["text"]}


@custom_tool
async def anote_it(text: str, ctx: CustomToolContext) -> dict[str, Any]:
    """Async twin of note_it."""
    saved = await ctx.aexecute("NOTES_CREATE_NOTE", {"title": text, "content": ctx.user_id})
    return {"note": saved["data"]["id"], "session": ctx.session_id}


def test_custom_tool_context_reaches_the_session(router: ToolRouter, user: str) -> None:
    session = new_session(router, user, custom_tools=[shout, note_it])
    outcome = session.execute("LOCAL_NOTE_IT", {"text": "hi"})
    assert outcome.successful, outcome.error
    assert outcome.data["shout"] == "HI"
    assert outcome.data["note"]


async def test_async_custom_tool_context(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[anote_it])
    tool = await session.atool("LOCAL_ANOTE_IT")
    message = await tool.ainvoke(call(tool, {"text": "hi"}))
    assert message.status == "success"
    assert message.artifact["data"]["session"] == session.session_id


@custom_tool(extends_toolkit="notes")
def pin_note(title: str, ctx: CustomToolContext) -> dict[str, Any]:
    """Create a pinned note through the notes API, with the user's notes connection."""
    created = ctx.proxy_execute("/notes", "POST", body={"title": f"📌 {title}", "content": ""})
    return {"status": created.status, "toolkit": ctx.toolkit}


@custom_tool(extends_toolkit="github")
async def star_repo(repo: str, ctx: CustomToolContext) -> dict[str, Any]:
    """Star a repository through the GitHub API, with the user's GitHub connection."""
    done = await ctx.aproxy_execute(f"/user/starred/{repo}", "PUT")
    return {"status": done.status}


def test_custom_tool_proxies_through_the_extended_toolkits_connection(
    router: ToolRouter, user: str
) -> None:
    session = new_session(router, user, custom_tools=[pin_note])
    outcome = session.execute("LOCAL_NOTES_PIN_NOTE", {"title": "x"})
    assert outcome.successful, outcome.error
    assert outcome.data == {"status": 201, "toolkit": "notes"}
    assert any(n["title"] == "📌 x" for n in session.execute("NOTES_LIST_NOTES").data["notes"])


async def test_async_custom_tool_without_the_connection_fails_readably(
    arouter: ToolRouter, user: str
) -> None:
    session = await arouter.acreate_session(user, toolkits=["github"], custom_tools=[star_repo])
    tool = await session.atool("LOCAL_GITHUB_STAR_REPO")
    message = await tool.ainvoke(call(tool, {"repo": "a/b"}))
    assert message.status == "error"
    assert "LOCAL_GITHUB_STAR_REPO raised" in message.content
    assert "No active connection for toolkit 'github'" in message.content  # the model can ask


def test_a_router_never_closed_leaks_no_socket_and_its_tools_outlive_it(
    server: EmulatorServer, user: str
) -> None:
    import gc
    import warnings

    router = ToolRouter(api_key=server.api_key, base_url=server.base_url)
    tools = router.create_session(user, toolkits=["notes"]).get_tools()
    del router
    gc.collect()
    answer = tools["COMPOSIO_SEARCH_TOOLS"].invoke({"queries": [{"use_case": "create a note"}]})
    assert "NOTES_CREATE_NOTE" in answer  # the tools keep the clients they need
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        del tools
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
