"""Agents that pause for a connection and resume, one compiled agent serving several users.

`create_agent` with a checkpointer, per-user tools with `on_connection_required="interrupt"`:
the run returns an interrupt with the link, the test opens it (as the user's browser would) and
resumes; the call runs once. Declining, a restart between interrupt and resume, the async
twin, multi-execute, `COMPOSIO_MANAGE_CONNECTIONS`, the plain `ToolNode` and `"wait"` mode.
"""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command, Send

from langchain_toolrouter import ToolRouter
from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.errors import ConfigurationError
from langchain_toolrouter.testing import Intent, ScriptedChatModel
from langchain_toolrouter.types import ConnectionRequest
from tests.chat_models import Reactive, calls, requests_by_text
from tests.integration_tests.agents import executes, new_user, thread, tool_messages
from tests.unit_tests.langchain.loopback import make_router, server  # noqa: F401 - fixture

REPO = "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER"
LIST_REPOS = "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER"
KV_SET = "NOTES_KV_SET"
KV_GET = "NOTES_KV_GET"
MULTI = "COMPOSIO_MULTI_EXECUTE_TOOL"
MANAGE = "COMPOSIO_MANAGE_CONNECTIONS"
OPTIONS: dict[str, Any] = {"toolkits": ["github", "notes"], "preload": [REPO, KV_SET, KV_GET]}

TURNS = {
    "save my name": calls((KV_SET, {"key": "name", "value": "me"}, "c-save")),
    "make a repository": calls((REPO, {"name": "hello"}, "c-repo")),
    "save and make": calls(
        (
            MULTI,
            {
                "tools": [
                    {"tool_slug": KV_SET, "arguments": {"key": "k", "value": 1}},
                    {"tool_slug": REPO, "arguments": {"name": "multi"}},
                ],
                "thought": "both",
                "sync_response_to_workbench": False,
            },
            "c-multi",
        ),
    ),
    "make two": calls(
        (
            MULTI,
            {
                "tools": [
                    {"tool_slug": REPO, "arguments": {"name": "one"}},
                    {"tool_slug": REPO, "arguments": {"name": "two"}},
                ],
                "thought": "both",
                "sync_response_to_workbench": False,
            },
            "c-two",
        ),
    ),
    "connect github": calls((MANAGE, {"toolkits": ["github"]}, "c-manage")),
    "save and make apart": calls(
        (KV_SET, {"key": "apart", "value": 1}, "c-kv"), (REPO, {"name": "apart"}, "c-r")
    ),
}


@pytest.fixture
def irouter(server: EmulatorServer) -> Any:
    router = make_router(server, on_connection_required="interrupt", connection_timeout=5)
    yield router
    router.close()


@pytest.fixture
def router(server: EmulatorServer) -> Any:
    plain = make_router(server)
    yield plain
    plain.close()


def agent_for(router: ToolRouter, saver: InMemorySaver) -> Any:
    tools = router.per_user_tools(**OPTIONS)
    return create_agent(Reactive(reply=requests_by_text(TURNS)), tools, checkpointer=saver)


def paused(result: dict[str, Any]) -> dict[str, Any]:
    interrupts = result.get("__interrupt__")
    assert interrupts, f"the run did not pause: {result['messages'][-1]}"
    payload: dict[str, Any] = interrupts[0].value
    return payload


def test_two_users_on_one_agent_one_pauses_to_connect_and_resumes(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    saver = InMemorySaver()
    agent = agent_for(irouter, saver)
    alice, bob = new_user(), new_user()
    alice_run, bob_run = thread(alice), thread(bob)

    done = agent.invoke({"messages": [("user", "save my name")]}, alice_run)
    assert "__interrupt__" not in done
    assert tool_messages(done)[-1].status == "success"  # notes need no connection

    payload = paused(agent.invoke({"messages": [("user", "make a repository")]}, bob_run))
    assert payload["type"] == "connection_required"
    assert payload["toolkits"] == ["github"]
    assert payload["user_id"] == bob
    assert payload["tool"] == REPO
    assert payload["redirect_urls"]["github"] in payload["message"]
    assert executes(server, payload["session_id"]) == [400]  # refused: nothing ran

    assert httpx.get(payload["redirect_urls"]["github"]).status_code == 200  # bob connects
    result = agent.invoke(Command(resume=True), bob_run)
    answer = tool_messages(result)[-1]
    assert answer.status == "success"
    assert '"full_name":"' + bob + '/hello"' in str(answer.content)
    assert executes(server, payload["session_id"]) == [400, 200]  # ran exactly once
    assert result["messages"][-1].content.startswith("done")

    # alice's thread and session were never touched by bob's
    again = agent.invoke({"messages": [("user", "save my name")]}, alice_run)
    assert '"previous":"me"' in str(tool_messages(again)[-1].content)


def test_a_declined_resume_answers_an_error_and_runs_nothing(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter, InMemorySaver())
    run = thread(new_user())
    payload = paused(agent.invoke({"messages": [("user", "make a repository")]}, run))
    result = agent.invoke(Command(resume={"connected": False}), run)
    answer = tool_messages(result)[-1]
    assert answer.status == "error"
    assert "the user did not connect github" in str(answer.content)
    assert payload["redirect_urls"]["github"] in str(answer.content)
    assert 200 not in executes(server, payload["session_id"])


@pytest.mark.parametrize("tools_of", ["session", "per_user"])
def test_the_scripted_model_takes_a_decline_as_final_and_says_why(
    irouter: ToolRouter, tools_of: str
) -> None:
    """An agent test of "the user declines, the agent answers without the tool" ends after one
    pause, with the default `max_attempts`."""
    user = new_user()
    tools = (
        irouter.create_session(user, toolkits=["github"]).get_tools()
        if tools_of == "session"
        else irouter.per_user_tools(toolkits=["github"])
    )
    model = ScriptedChatModel(stages=[[Intent("repo", "create a GitHub repository")]])
    agent = create_agent(model, tools, checkpointer=InMemorySaver())
    run = thread(user)
    state = agent.invoke({"messages": [("user", "make a repository")]}, run)
    pauses = 0
    while "__interrupt__" in state:
        pauses += 1
        state = agent.invoke(Command(resume=False), run)
    final = state["messages"][-1]
    assert pauses == 1
    assert final.response_metadata["outcome"] == "gave_up"
    assert final.content.startswith("I could not create a GitHub repository: ")
    assert "the user did not connect github" in final.content


def test_the_scripted_model_gives_up_with_the_reason_a_search_failed(
    router: ToolRouter, server: EmulatorServer
) -> None:
    from langchain_toolrouter.emulator import FaultRule

    agent = create_agent(
        ScriptedChatModel(stages=[[Intent("note", "create a note")]]),
        router.per_user_tools(toolkits=["notes"]),
    )
    server.faults.add(FaultRule(operation="execute_meta", status=503, times=5))
    try:
        final = agent.invoke(
            {"messages": [("user", "save a note")]}, {"configurable": {"user_id": new_user()}}
        )["messages"][-1]
    finally:
        server.faults.clear()
    assert final.response_metadata["outcome"] == "gave_up"
    assert final.content.startswith("I could not search for tools: COMPOSIO_SEARCH_TOOLS failed")
    assert "HTTP 503" in final.content


def test_resume_after_a_restart_with_the_same_checkpointer(server: EmulatorServer) -> None:
    """A fresh router, tool list and agent object (a new process) resume from the checkpoint;
    with the workers' shared store they also find the user's session, so the call that ran
    is the one the interrupt was about."""
    saver, store = InMemorySaver(), InMemoryStore()
    run = thread(new_user())

    def agent_in_a_new_process() -> tuple[ToolRouter, Any]:
        router = make_router(server, on_connection_required="interrupt", connection_timeout=5)
        tools = router.per_user_tools(session_store=store, **OPTIONS)
        model = Reactive(reply=requests_by_text(TURNS))
        return router, create_agent(model, tools, checkpointer=saver)

    first, agent = agent_in_a_new_process()
    payload = paused(agent.invoke({"messages": [("user", "make a repository")]}, run))
    first.close()  # the process ends: nothing of it survives but the checkpoint and the store

    httpx.get(payload["redirect_urls"]["github"])
    second, agent = agent_in_a_new_process()
    try:
        result = agent.invoke(Command(resume=True), run)
    finally:
        second.close()
    assert tool_messages(result)[-1].status == "success"
    assert executes(server, payload["session_id"]) == [400, 200]


async def test_async_twin_pauses_and_resumes(server: EmulatorServer) -> None:
    router = make_router(server, on_connection_required="interrupt", connection_timeout=5)
    try:
        tools = await router.aper_user_tools(**OPTIONS)
        agent = create_agent(
            Reactive(reply=requests_by_text(TURNS)), tools, checkpointer=InMemorySaver()
        )
        run = thread(new_user())
        payload = paused(await agent.ainvoke({"messages": [("user", "make a repository")]}, run))
        async with httpx.AsyncClient() as browser:
            await browser.get(payload["redirect_urls"]["github"])
        result = await agent.ainvoke(Command(resume=True), run)
        assert tool_messages(result)[-1].status == "success"
        assert executes(server, payload["session_id"]) == [400, 200]

        declined = thread(new_user())
        paused(await agent.ainvoke({"messages": [("user", "make a repository")]}, declined))
        result = await agent.ainvoke(Command(resume=False), declined)
        assert "did not connect github" in str(tool_messages(result)[-1].content)
    finally:
        await router.aclose()


def test_a_multi_execute_where_one_tool_ran_does_not_pause_or_run_twice(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter, InMemorySaver())
    user = new_user()
    result = agent.invoke({"messages": [("user", "save and make")]}, thread(user))
    assert "__interrupt__" not in result
    answer = tool_messages(result)[-1]
    text = str(answer.content)
    assert answer.status == "success"  # partly: the notes item ran
    assert '"previous":null' in text  # ran once
    assert "connect_links" in text
    assert "/_emulator/connect/" in text
    assert "Ask the user to open" in text


def test_a_multi_execute_where_nothing_ran_pauses_then_runs_once(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter, InMemorySaver())
    run = thread(new_user())
    payload = paused(agent.invoke({"messages": [("user", "make two")]}, run))
    assert payload["tool"] == MULTI
    httpx.get(payload["redirect_urls"]["github"])
    result = agent.invoke(Command(resume=True), run)
    answer = tool_messages(result)[-1]
    assert answer.status == "success"
    assert '"success_count":2' in str(answer.content)


def test_manage_connections_that_made_a_link_pauses_then_runs_again(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_for(irouter, InMemorySaver())
    run = thread(new_user())
    payload = paused(agent.invoke({"messages": [("user", "connect github")]}, run))
    assert payload["tool"] == MANAGE
    httpx.get(payload["redirect_urls"]["github"])
    result = agent.invoke(Command(resume=True), run)
    assert '"status":"active"' in str(tool_messages(result)[-1].content)


def plain_tool_node_app(tools: list[Any], *, send_each_call: bool) -> Any:
    model = Reactive(reply=requests_by_text(TURNS))

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    def route(state: MessagesState) -> Any:
        pending = state["messages"][-1].tool_calls  # type: ignore[union-attr]
        return [Send("tools", [call]) for call in pending] if pending else END

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    if send_each_call:
        graph.add_conditional_edges("agent", route, ["tools", END])
    else:
        graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    return graph.compile(checkpointer=InMemorySaver())


@pytest.mark.parametrize(
    "send_each_call", [False, True], ids=["one-task-for-the-turn", "a-task-per-call"]
)
def test_a_plain_tool_node_runs_each_call_once_across_pause_and_resume(
    irouter: ToolRouter, server: EmulatorServer, send_each_call: bool
) -> None:
    """A ToolNode runs every call of a turn in one task, and LangGraph runs that task again
    from its start on resume: the calls that had finished are answered from their record,
    not run again (sending each call on its own, `Send`, makes each its own task)."""
    app = plain_tool_node_app(irouter.per_user_tools(**OPTIONS), send_each_call=send_each_call)
    run = thread(new_user())
    payload = paused(app.invoke({"messages": [("user", "save and make apart")]}, run))
    httpx.get(payload["redirect_urls"]["github"])
    result = app.invoke(Command(resume=True), run)
    saved = [m for m in tool_messages(result) if m.name == KV_SET]
    assert len(saved) == 1
    sets = sum(
        1
        for record in server.log
        if record.operation == "execute"
        and payload["session_id"] in record.path
        and record.status == 200
    )
    assert sets == 2  # the notes call and the repository, once each
    assert '"previous":null' in str(saved[0].content)


def test_interrupt_outside_langgraph_says_what_to_use(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    session = irouter.create_session(new_user(), **OPTIONS)
    tool = session.tool(REPO)
    with pytest.raises(ConfigurationError, match=r"not inside one.*'wait'.*'message'"):
        tool.invoke({"name": "x"})


def test_wait_mode_hands_the_link_over_and_waits_sync_and_async(server: EmulatorServer) -> None:
    seen: list[ConnectionRequest] = []

    def user_opens(request: ConnectionRequest) -> None:
        seen.append(request)
        opener = threading.Timer(0.2, httpx.get, [request.redirect_urls["github"]])
        opener.start()

    router = make_router(
        server, on_connection_required="wait", connection_timeout=10, on_link=user_opens
    )
    try:
        session = router.create_session(new_user(), **OPTIONS)
        answer = session.tool(REPO).invoke(
            {"type": "tool_call", "id": "w1", "name": REPO, "args": {"name": "waited"}}
        )
        assert isinstance(answer, ToolMessage)
        assert answer.status == "success"
        assert seen[0].toolkits == ("github",)
        assert seen[0].session_id == session.session_id
        assert executes(server, session.session_id) == [400, 200]
    finally:
        router.close()


async def test_wait_mode_async_with_an_async_callback_and_a_timeout(
    server: EmulatorServer,
) -> None:
    links: list[str] = []

    async def remember(request: ConnectionRequest) -> None:
        links.append(request.redirect_urls["github"])

    router = make_router(
        server, on_connection_required="wait", connection_timeout=0.3, on_link=remember
    )
    try:
        session = await router.acreate_session(new_user(), **OPTIONS)
        answer = await session.tool(REPO).ainvoke(
            {"type": "tool_call", "id": "w2", "name": REPO, "args": {"name": "never"}}
        )
        assert answer.status == "error"
        assert "was not run" in answer.content
        assert "github was not connected within 0.3s (status: INITIATED)" in answer.content
        assert answer.artifact["reason"] == "timed_out"
        assert "authorize()" not in answer.content  # the model reads this: no developer hint
        assert links
        assert links[0] in answer.content
        assert executes(server, session.session_id) == [400]
    finally:
        await router.aclose()


def test_wait_mode_names_a_failed_connection_and_the_next_call_gets_a_new_link(
    server: EmulatorServer,
) -> None:
    links: list[str] = []

    def fails(request: ConnectionRequest) -> None:
        links.append(request.redirect_urls["github"])
        for state in server.store.users.values():
            for account in state.accounts:
                if account.status == "INITIATED":
                    account.status = "FAILED"

    router = make_router(
        server, on_connection_required="wait", connection_timeout=10, on_link=fails
    )
    try:
        session = router.create_session(new_user(), **OPTIONS)
        call = {"type": "tool_call", "id": "f1", "name": REPO, "args": {"name": "failed"}}
        answer = session.tool(REPO).invoke(call)
        assert answer.status == "error"
        assert "connecting github ended with status FAILED" in answer.content
        assert answer.artifact["reason"] == "failed"
        assert "a new link comes with the next call" in answer.content
        assert links[0] not in answer.content  # a dead link is not offered
        again = session.tool(REPO).invoke({**call, "id": "f2"})
        assert again.status == "error"
        assert len(links) == 2
        assert links[1] != links[0]
        assert executes(server, session.session_id) == [400, 400]
    finally:
        router.close()


def test_per_user_tools_need_a_user(irouter: ToolRouter, server: EmulatorServer) -> None:
    """A run that names no usable user is the program's mistake: it raises, naming where it
    looked, before anything is sent (the model could do nothing about it)."""
    tools = irouter.per_user_tools(**OPTIONS)
    before = len(server.log)
    call = {"type": "tool_call", "id": "n1", "name": KV_SET, "args": {"key": "k", "value": 1}}
    with pytest.raises(ConfigurationError, match="names no user") as caught:
        tools[KV_SET].invoke(call)
    for place in ("['user_id']", "runtime context", "langgraph_auth_user"):
        assert place in str(caught.value)
    with pytest.raises(ConfigurationError, match=r"\['user_id'\] is 42 \(int\)"):
        tools[KV_SET].invoke({**call, "id": "n2"}, config={"configurable": {"user_id": 42}})
    assert len(server.log) == before  # nothing was sent


def test_the_user_comes_from_the_runtime_context_or_the_auth_user(
    router: ToolRouter, server: EmulatorServer
) -> None:
    from dataclasses import dataclass

    @dataclass
    class Context:
        user_id: str

    irouter = router  # connections answered to the model: no checkpointer needed
    tools = irouter.per_user_tools(**OPTIONS)
    agent = create_agent(Reactive(reply=requests_by_text(TURNS)), tools, context_schema=Context)
    user = new_user()
    agent.invoke({"messages": [("user", "save my name")]}, context=Context(user_id=user))
    by_auth = new_user()
    tools[KV_SET].invoke(
        {"key": "k", "value": 2},
        config={"configurable": {"langgraph_auth_user": {"identity": by_auth}}},
    )
    mine = irouter.create_session(user, **OPTIONS)
    got = mine.execute(KV_GET, {"key": "name"})
    assert got.data == {"key": "name", "value": "me"}
    theirs = irouter.create_session(by_auth, **OPTIONS)
    assert theirs.execute(KV_GET, {"key": "k"}).data["value"] == 2


@pytest.mark.parametrize("where", ["context", "config"])
def test_a_resume_must_name_the_user_again(irouter: ToolRouter, where: str) -> None:
    """LangGraph checkpoints neither the runtime context nor the config: a resume without them
    names no user (docs/how-to/multi-user.md says so; this fails if LangGraph changes)."""

    @dataclass
    class Context:
        user_id: str

    def start() -> tuple[Any, dict[str, Any], dict[str, Any]]:
        user, thread_id = new_user(), f"t-{uuid.uuid4().hex[:8]}"
        named: dict[str, Any] = (
            {"context": Context(user_id=user)}
            if where == "context"
            else {"config": {"configurable": {"thread_id": thread_id, "user_id": user}}}
        )
        agent = create_agent(
            Reactive(reply=requests_by_text(TURNS)),
            irouter.per_user_tools(**OPTIONS),
            context_schema=Context,
            checkpointer=InMemorySaver(),
        )
        run = {"configurable": {"thread_id": thread_id}}
        payload = paused(
            agent.invoke({"messages": [("user", "make a repository")]}, **({"config": run} | named))
        )
        httpx.get(payload["redirect_urls"]["github"])
        return agent, run, named

    agent, run, _ = start()
    with pytest.raises(ConfigurationError, match="this run names no user"):
        agent.invoke(Command(resume=True), run)

    agent, run, named = start()
    resumed = agent.invoke(Command(resume=True), **({"config": run} | named))
    assert tool_messages(resumed)[-1].status == "success"


def test_an_unknown_session_option_is_named(irouter: ToolRouter) -> None:
    with pytest.raises(TypeError, match=r"'toolkit' \(did you mean 'toolkits'\?\)"):
        irouter.per_user_tools(toolkit=["github"])
    with pytest.raises(TypeError, match="session_store must be a LangGraph BaseStore"):
        irouter.per_user_tools(session_store={}, **OPTIONS)
    with pytest.raises(ConfigurationError, match="on_connection_required must be"):
        irouter.per_user_tools(on_connection_required="pause", **OPTIONS)


def replies_of(messages: list[BaseMessage]) -> list[AIMessage]:
    return [m for m in messages if isinstance(m, AIMessage)]


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_a_custom_tool_can_pause_the_graph_for_the_user(
    server: EmulatorServer, face: str
) -> None:
    """Human in the loop inside a custom tool: its `interrupt()` pauses the graph (it is not a
    failure of the tool), and the resume value reaches it. Inside a multi-execute, where a
    resume would run the other items again, the item fails with what to do instead."""
    from langgraph.types import interrupt

    from langchain_toolrouter import custom_tool

    @custom_tool
    def send_money(amount: int) -> dict[str, int]:
        """Send money once the user approves."""
        return {"sent": amount if interrupt({"approve": amount}) else 0}

    router = make_router(server)
    try:
        session = router.create_session(
            new_user(), toolkits=["notes"], custom_tools=[send_money], multi_execute=True
        )
        slug = send_money.final_slug
        tool = session.tool(slug)
        turns = {
            "pay": calls((slug, {"amount": 5}, "p1")),
            "pay in a batch": calls(
                (
                    MULTI,
                    {
                        "tools": [
                            {"tool_slug": KV_SET, "arguments": {"key": "paid", "value": 1}},
                            {"tool_slug": slug, "arguments": {"amount": 5}},
                        ],
                        "thought": "pay",
                        "sync_response_to_workbench": False,
                    },
                    "m1",
                )
            ),
        }
        agent = create_agent(
            Reactive(reply=requests_by_text(turns)),
            [tool, session.tool(MULTI)],
            checkpointer=InMemorySaver(),
        )
        paid = {"configurable": {"thread_id": f"pay-{face}"}}
        batch = {"configurable": {"thread_id": f"batch-{face}"}}
        if face == "sync":
            paused = agent.invoke({"messages": [("user", "pay")]}, paid)
            done = agent.invoke(Command(resume=True), paid)
            batched = agent.invoke({"messages": [("user", "pay in a batch")]}, batch)
        else:
            paused = await agent.ainvoke({"messages": [("user", "pay")]}, paid)
            done = await agent.ainvoke(Command(resume=True), paid)
            batched = await agent.ainvoke({"messages": [("user", "pay in a batch")]}, batch)
        assert [i.value for i in paused["__interrupt__"]] == [{"approve": 5}]
        answer = tool_messages(done)[-1]
        assert answer.status == "success"
        assert '"sent":5' in str(answer.content).replace(" ", "")
        assert "__interrupt__" not in batched
        item = tool_messages(batched)[-1]
        assert "cannot do without running its other tools twice" in str(item.content)
        assert session.execute(KV_GET, {"key": "paid"}).data["value"] == 1  # ran once
    finally:
        router.close()
