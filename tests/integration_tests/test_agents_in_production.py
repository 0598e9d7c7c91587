"""Agents in production, safe by construction: a "no" runs nothing, no user acts as another,
each call of a run runs once, and the program's mistakes raise before anything is sent.

Real LangGraph parts (`create_agent`, a plain `ToolNode` graph, checkpointers, stores) against
the emulator on loopback; a scripted model (`Reactive`) answers each turn the same way when
LangGraph runs it again.
"""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from langchain.agents import create_agent
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command

from langchain_toolrouter import ToolRouter
from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.errors import ConfigurationError, UserMismatchError
from tests.chat_models import Reactive, calls, requests_by_text
from tests.integration_tests.agents import new_user, thread, tool_messages
from tests.integration_tests.postgres import kept, persistence, postgres_dsn  # noqa: F401
from tests.unit_tests.langchain.loopback import make_router, server  # noqa: F401 - fixture

REPO = "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER"
SEND = "GMAIL_SEND_EMAIL"
KV_SET = "NOTES_KV_SET"
KV_GET = "NOTES_KV_GET"
OPTIONS: dict[str, Any] = {
    "toolkits": ["github", "gmail", "notes"],
    "preload": [REPO, SEND, KV_SET, KV_GET],
}
EMAIL = {"recipient_email": "a@example.com", "subject": "hi", "body": "hello"}

TURNS = {
    "make a repository": calls((REPO, {"name": "hello"}, "c-repo")),
    "save my name": calls((KV_SET, {"key": "name", "value": "me"}, "c-save")),
    "make and mail": calls(
        (REPO, {"name": "both"}, "c-both-repo"),
        (SEND, EMAIL, "c-both-mail"),
        (KV_SET, {"key": "seen", "value": 1}, "c-both-save"),
    ),
}


@pytest.fixture
def irouter(server: EmulatorServer) -> Any:
    router = make_router(server, on_connection_required="interrupt", connection_timeout=5)
    yield router
    router.close()


def paused(result: dict[str, Any]) -> dict[str, Any]:
    interrupts = result.get("__interrupt__")
    assert interrupts, f"the run did not pause: {result['messages'][-1]}"
    assert len(interrupts) == 1, interrupts
    payload: dict[str, Any] = interrupts[0].value
    return payload


def agent_for(router: ToolRouter, **options: Any) -> Any:
    tools = router.per_user_tools(**OPTIONS)
    return create_agent(Reactive(reply=requests_by_text(TURNS)), tools, **options)


def tool_node_app(tools: list[Any], **compile_options: Any) -> Any:
    """A hand-built graph with a plain ToolNode: every call of a turn in one task."""
    model = Reactive(reply=requests_by_text(TURNS))

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    return graph.compile(**compile_options)


def statuses_after(server: EmulatorServer, session_id: str, mark: int) -> list[int | None]:
    """The statuses of the session's executes logged after position `mark` of the log."""
    return [
        record.status
        for record in list(server.log)[mark:]
        if record.operation == "execute" and session_id in record.path
    ]


# --------------------------------------------------------------------------- 1. a "no" runs nothing


@pytest.mark.parametrize("declined", [False, {"connected": False}, 0])  # None: not a resume
def test_opening_the_link_then_declining_runs_nothing(
    irouter: ToolRouter, server: EmulatorServer, declined: Any
) -> None:
    """The user opened the link (the account is ACTIVE now), then the app resumed with "no":
    the resumed call reads the answer before anything is sent, and sends nothing."""
    agent = agent_for(irouter, checkpointer=InMemorySaver())
    run = thread(new_user())
    payload = paused(agent.invoke({"messages": [("user", "make a repository")]}, run))
    assert httpx.get(payload["redirect_urls"]["github"]).status_code == 200  # now ACTIVE
    mark = len(server.log)
    result = agent.invoke(Command(resume=declined), run)
    answer = tool_messages(result)[-1]
    assert answer.status == "error"
    assert "the user did not connect github" in str(answer.content)
    assert payload["redirect_urls"]["github"] in str(answer.content)
    assert answer.artifact["reason"] == "declined"  # for apps: no text to read
    assert statuses_after(server, payload["session_id"], mark) == []  # nothing sent


async def test_declining_runs_nothing_in_the_async_twin(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    tools = await irouter.aper_user_tools(**OPTIONS)
    agent = create_agent(
        Reactive(reply=requests_by_text(TURNS)), tools, checkpointer=InMemorySaver()
    )
    run = thread(new_user())
    payload = paused(await agent.ainvoke({"messages": [("user", "make a repository")]}, run))
    async with httpx.AsyncClient() as browser:
        await browser.get(payload["redirect_urls"]["github"])
    mark = len(server.log)
    result = await agent.ainvoke(Command(resume=False), run)
    assert "the user did not connect github" in str(tool_messages(result)[-1].content)
    assert statuses_after(server, payload["session_id"], mark) == []


def test_a_yes_waits_for_the_account_and_runs_the_call_once(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter, checkpointer=InMemorySaver())
    run = thread(new_user())
    payload = paused(agent.invoke({"messages": [("user", "make a repository")]}, run))
    httpx.get(payload["redirect_urls"]["github"])
    mark = len(server.log)
    result = agent.invoke(Command(resume={"connected": True}), run)
    assert tool_messages(result)[-1].status == "success"
    assert statuses_after(server, payload["session_id"], mark) == [200]


# --------------------------------------------------------------------------- 2. no user acts as another


@dataclass
class Context:
    user_id: str


@pytest.mark.parametrize("where", ["config", "context"])
def test_an_authenticated_user_cannot_act_as_another(
    irouter: ToolRouter, server: EmulatorServer, where: str
) -> None:
    """On a LangGraph server with auth the server sets `langgraph_auth_user`; `config` and
    `context` come from the client. dave's token with alice's user id: refused, nothing sent,
    alice's data untouched."""
    alice = new_user()
    saver = InMemorySaver()
    agent = agent_for(irouter, checkpointer=saver, context_schema=Context)
    agent.invoke(
        {"messages": [("user", "save my name")]}, thread(alice), context=Context(user_id=alice)
    )
    before = len(server.log)
    dave = {"langgraph_auth_user": {"identity": "dave", "is_authenticated": True}}
    if where == "config":
        run, context = thread(alice, **dave), None
    else:
        run, context = thread(**dave), Context(user_id=alice)
    with pytest.raises(UserMismatchError, match=r"'dave'") as caught:
        agent.invoke({"messages": [("user", "save my name")]}, run, context=context)
    assert caught.value.claimed[1] == alice
    assert [r for r in list(server.log)[before:] if r.operation != "get_session"] == []
    mine = irouter.create_session(alice, **OPTIONS)
    assert mine.execute(KV_GET, {"key": "name"}).data == {"key": "name", "value": "me"}


def test_the_authenticated_user_is_the_user_when_nothing_else_is_said(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter, checkpointer=InMemorySaver())
    dave = new_user()
    run = thread(langgraph_auth_user={"identity": dave})
    assert tool_messages(agent.invoke({"messages": [("user", "save my name")]}, run))
    assert (
        irouter.create_session(dave, **OPTIONS).execute(KV_GET, {"key": "name"}).data["value"]
        == "me"
    )


def test_a_resume_as_another_user_runs_nothing(irouter: ToolRouter, server: EmulatorServer) -> None:
    agent = agent_for(irouter, checkpointer=InMemorySaver())
    bob, mallory = new_user(), new_user()
    run = thread(bob)
    payload = paused(agent.invoke({"messages": [("user", "make a repository")]}, run))
    httpx.get(payload["redirect_urls"]["github"])
    mark = len(server.log)
    other = {"configurable": {**run["configurable"], "user_id": mallory}}
    result = agent.invoke(Command(resume=True), other)
    answer = tool_messages(result)[-1]
    assert answer.status == "error"
    assert "resumed as user" in str(answer.content)
    assert answer.artifact["reason"] == "other_user"
    assert [
        r for r in list(server.log)[mark:] if r.operation == "execute" and r.status == 200
    ] == []


# --------------------------------------------------------------------------- 4. nothing runs twice


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_one_tool_node_turn_needing_two_accounts_shows_both_links_once(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    """GitHub and Gmail in one ToolNode turn, neither connected, beside a call that needs
    nothing: one pause with both links; the user connects both and the app resumes once;
    every call runs once and no wait runs out."""
    saver = InMemorySaver()
    user = new_user()
    run = thread(user)
    if face == "sync":
        app = tool_node_app(irouter.per_user_tools(**OPTIONS), checkpointer=saver)
        payload = paused(app.invoke({"messages": [("user", "make and mail")]}, run))
    else:
        tools = await irouter.aper_user_tools(**OPTIONS)
        app = tool_node_app(tools, checkpointer=saver)
        payload = paused(await app.ainvoke({"messages": [("user", "make and mail")]}, run))
    assert sorted(payload["redirect_urls"]) == ["github", "gmail"]
    async with httpx.AsyncClient() as browser:
        for url in payload["redirect_urls"].values():
            await browser.get(url)
    if face == "sync":
        result = app.invoke(Command(resume=True), run)
    else:
        result = await app.ainvoke(Command(resume=True), run)
    assert "__interrupt__" not in result
    answers = {m.name: m for m in tool_messages(result)}
    assert {name: m.status for name, m in answers.items()} == {
        REPO: "success",
        SEND: "success",
        KV_SET: "success",
    }
    ran = [
        (r.status, r.path)
        for r in server.log
        if r.operation == "execute" and payload["session_id"] in r.path and r.status == 200
    ]
    assert len(ran) == 3  # each call once: the notes one was not run again on resume


def test_a_restart_between_pause_and_resume_runs_nothing_twice(
    server: EmulatorServer, kept: tuple[str, str | None]
) -> None:
    """A new router, tool list and graph (a new process) sharing the checkpointer and the
    store (a real Postgres among them): the notes call that ran before the pause is answered
    from its record."""
    run = thread(new_user())

    @contextmanager
    def app_in_a_new_process() -> Iterator[Any]:
        router = make_router(server, on_connection_required="interrupt", connection_timeout=5)
        with router, persistence(*kept) as (saver, store):
            tools = router.per_user_tools(session_store=store, **OPTIONS)
            yield tool_node_app(tools, checkpointer=saver, store=store)

    with app_in_a_new_process() as app:
        payload = paused(app.invoke({"messages": [("user", "make and mail")]}, run))
    for url in payload["redirect_urls"].values():
        httpx.get(url)
    with app_in_a_new_process() as app:
        result = app.invoke(Command(resume=True), run)
    assert all(m.status == "success" for m in tool_messages(result)), tool_messages(result)
    sets = [
        r
        for r in server.log
        if r.operation == "execute" and r.status == 200 and payload["session_id"] in r.path
    ]
    assert len(sets) == 3


# --------------------------------------------------------------------------- 5. mistakes raise early


def test_interrupt_without_a_checkpointer_raises_before_anything_is_sent(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter)  # no checkpointer: a pause could never be resumed
    before = len(server.log)
    with pytest.raises(ConfigurationError, match="no checkpointer"):
        agent.invoke({"messages": [("user", "make a repository")]}, thread(new_user()))
    assert [r for r in list(server.log)[before:] if r.operation == "execute"] == []


def test_no_user_raises_before_anything_is_sent(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter, checkpointer=InMemorySaver())
    before = len(server.log)
    with pytest.raises(ConfigurationError, match="names no user"):
        agent.invoke({"messages": [("user", "save my name")]}, thread())
    assert [r for r in list(server.log)[before:] if r.operation == "execute"] == []


# --------------------------------------------------------------------------- 6. one wording


def test_a_connection_is_asked_for_in_the_same_words_wherever_it_is_needed(
    server: EmulatorServer,
) -> None:
    """A direct call, an item of COMPOSIO_MULTI_EXECUTE_TOOL and COMPOSIO_MANAGE_CONNECTIONS
    (with the model told, "message"): the same sentence with the link, and no "share each
    redirect_url" once every account is active."""
    router = make_router(server)
    try:
        session = router.create_session(new_user(), **OPTIONS)
        direct = session.tool(REPO).invoke(
            {"type": "tool_call", "id": "d", "name": REPO, "args": {"name": "x"}}
        )
        multi = session.tool("COMPOSIO_MULTI_EXECUTE_TOOL").invoke(
            {
                "type": "tool_call",
                "id": "m",
                "name": "COMPOSIO_MULTI_EXECUTE_TOOL",
                "args": {
                    "tools": [{"tool_slug": REPO, "arguments": {"name": "y"}}],
                    "thought": "t",
                    "sync_response_to_workbench": False,
                },
            }
        )
        link = direct.artifact["redirect_url"]
        sentence = f"{REPO} needs a connected github account and the user has none."
        assert str(direct.content).startswith(sentence)
        item = multi.artifact["data"]["results"][0]
        assert item["error"] == str(direct.content)
        assert link in item["error"]
        httpx.get(link)
        manage = session.tool("COMPOSIO_MANAGE_CONNECTIONS").invoke(
            {
                "type": "tool_call",
                "id": "c",
                "name": "COMPOSIO_MANAGE_CONNECTIONS",
                "args": {"toolkits": ["github"]},
            }
        )
        assert "Share each redirect_url" not in str(manage.content)
        assert "Every requested toolkit is connected" in str(manage.content)
    finally:
        router.close()
