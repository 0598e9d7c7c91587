"""`ToolRouterMiddleware` in a real `create_agent` agent: each user's catalog as typed tools
picked per user message, run in the user's session, with pauses for connections, input the
service asks for and approvals, sync and async, across a restart.
"""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware, ToolRetryMiddleware
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langchain_toolrouter import ToolRouter, ToolRouterMiddleware
from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.errors import (
    ConfigurationError,
    ConnectError,
    RateLimitError,
    ToolRouterError,
)
from langchain_toolrouter.middleware import retry_on
from tests.chat_models import Reactive, calls, requests_by_text
from tests.integration_tests.agents import new_user, thread, tool_messages
from tests.integration_tests.postgres import kept, persistence, postgres_dsn  # noqa: F401
from tests.unit_tests.langchain.loopback import make_router, server  # noqa: F401 - fixture

REPO = "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER"
SEND = "GMAIL_SEND_EMAIL"
KV_SET, KV_GET = "NOTES_KV_SET", "NOTES_KV_GET"
EMAIL = {"recipient_email": "a@example.com", "subject": "hi", "body": "hello"}

TURNS = {
    "save my name in my notes": calls((KV_SET, {"key": "name", "value": "me"}, "c-save")),
    "read my name from my notes": calls((KV_GET, {"key": "name"}, "c-read")),
    "create a github repository named hello": calls((REPO, {"name": "hello"}, "c-repo")),
    "send an email with gmail": calls((SEND, EMAIL, "c-mail")),
}


class Seeing(Reactive):
    """A scripted model that also remembers the tool names bound to each of its calls."""

    def _bound(self, names: list[str]) -> None:
        BOUND.append(names)


BOUND: list[list[str]] = []


def agent_with(router: ToolRouter, *more: Any, saver: Any = None, **options: Any) -> Any:
    options.setdefault("toolkits", ["github", "gmail", "notes"])
    middleware = ToolRouterMiddleware(router, **options)
    return create_agent(
        Seeing(reply=requests_by_text(TURNS)),
        middleware=[middleware, *more],
        checkpointer=saver or InMemorySaver(),
        context_schema=Context,
    )


@dataclass
class Context:
    user_id: str | None = None


async def ainvoke(agent: Any, given: Any, config: dict[str, Any]) -> Any:
    """`agent.ainvoke`; on Python 3.10 with the config's user in the context too: LangGraph
    hands an async middleware hook no config there (`test_python_3_10_async_...`)."""
    if sys.version_info >= (3, 11):
        return await agent.ainvoke(given, config)
    configurable = config["configurable"]
    user = configurable.get("user_id") or configurable["langgraph_auth_user"]["identity"]
    return await agent.ainvoke(given, config, context=Context(user_id=user))


async def run_on(face: str, agent: Any, given: Any, config: dict[str, Any]) -> Any:
    """`agent.invoke` or `agent.ainvoke`, as `face` says."""
    return agent.invoke(given, config) if face == "sync" else await ainvoke(agent, given, config)


@pytest.fixture
def irouter(server: EmulatorServer) -> Any:
    router = make_router(server, on_connection_required="interrupt", connection_timeout=5)
    yield router
    router.close()


def answer_of(result: dict[str, Any], name: str) -> ToolMessage:
    return next(m for m in reversed(tool_messages(result)) if m.name == name)


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_two_users_one_agent_typed_tools_picked_per_message(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    """The model gets the tools a search of the user's session found, as typed tools, and
    calls them by name: never COMPOSIO_MULTI_EXECUTE_TOOL. One user comes from the config,
    the other from LangGraph server auth; each writes and reads in their own session."""
    agent = agent_with(irouter)
    alice, bob = new_user(), new_user()
    by_config = thread(alice)
    by_auth = thread(langgraph_auth_user={"identity": bob})
    BOUND.clear()

    async def ask(text: str, config: dict[str, Any]) -> dict[str, Any]:
        message = {"messages": [("user", text)]}
        if face == "sync":
            result: dict[str, Any] = agent.invoke(message, config)
        else:
            result = await ainvoke(agent, message, config)
        return result

    saved = await ask("save my name in my notes", by_config)
    assert answer_of(saved, KV_SET).status == "success"
    assert KV_SET in BOUND[0]
    assert all(not name.startswith("COMPOSIO_") for names in BOUND for name in names)
    assert len(BOUND[0]) <= 8  # top_k: the rest of the catalog never reaches the model
    assert KV_SET in saved["toolrouter_tools"]  # kept in the thread for later turns

    again = await ask("read my name from my notes", by_config)
    assert '"value":"me"' in str(answer_of(again, KV_GET).content)
    assert KV_SET in again["toolrouter_tools"]  # loaded earlier in the thread: still there

    theirs = await ask("read my name from my notes", by_auth)
    assert "is not set" in str(answer_of(theirs, KV_GET).content)  # bob's own session


async def test_python_3_10_async_needs_the_user_in_the_context(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    """An async run naming its user in the config only: on Python 3.11+ it runs; on 3.10,
    where LangGraph hands async middleware no config, it fails before sending anything with
    an error that says to name the user in the context."""
    agent = agent_with(irouter)
    run = thread(new_user())
    message = {"messages": [("user", "save my name in my notes")]}
    mark = len(server.log)
    if sys.version_info >= (3, 11):
        result = await agent.ainvoke(message, run)
        assert answer_of(result, KV_SET).status == "success"
        return
    with pytest.raises(ConfigurationError, match=r"Python 3.10.*in the context"):
        await agent.ainvoke(message, run)
    assert len(server.log) == mark


def test_one_search_per_user_message_whatever_the_model_calls(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    agent = agent_with(irouter)
    run = thread(new_user())
    before = sum(1 for r in server.log if r.operation == "search")
    agent.invoke({"messages": [("user", "save my name in my notes")]}, run)  # 2 model calls
    assert sum(1 for r in server.log if r.operation == "search") - before == 1


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_a_user_message_whose_tools_are_known_costs_one_search_and_its_calls(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    """No schema is fetched again for tools an earlier search or fetch gave: the second
    message sends its search and its tool call, nothing else."""
    agent = agent_with(irouter)
    user = new_user()
    message = {"messages": [("user", "save my name in my notes")]}
    agent.invoke(message, thread(user))
    mark = len(server.log)
    if face == "sync":
        agent.invoke(message, thread(user))
    else:
        await ainvoke(agent, message, thread(user))
    assert [r.operation for r in list(server.log)[mark:]] == ["search", "execute"]


def test_a_user_message_longer_than_a_search_query_is_searched_by_its_start(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    """The service reads at most 1,024 characters of a use case: a longer message is cut at a
    word, not refused, and its turn runs."""
    long = "save my name in my notes " + "and please be careful about it " * 200
    agent = create_agent(
        Seeing(
            reply=lambda messages: (
                TURNS["save my name in my notes"]
                if not isinstance(messages[-1], ToolMessage)
                else AIMessage(content="done")
            )
        ),
        middleware=[ToolRouterMiddleware(irouter, toolkits=["notes"])],
        checkpointer=InMemorySaver(),
    )
    result = agent.invoke({"messages": [("user", long)]}, thread(new_user()))
    assert answer_of(result, KV_SET).status == "success"
    searched = [r for r in server.log if r.operation == "search"][-1]
    assert searched.status == 200


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_a_connection_pauses_and_the_resume_runs_the_call_once(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    agent = agent_with(irouter)
    run = thread(new_user())
    message = {"messages": [("user", "create a github repository named hello")]}
    if face == "sync":
        paused = agent.invoke(message, run)
    else:
        paused = await ainvoke(agent, message, run)
    request = paused["__interrupt__"][0].value
    assert request["type"] == "connection_required"
    assert request["requests"][0]["mode"] == "url"
    async with httpx.AsyncClient() as browser:
        await browser.get(request["redirect_urls"]["github"])
    resume = Command(resume={"responses": {request["requests"][0]["key"]: {"action": "accept"}}})
    done = agent.invoke(resume, run) if face == "sync" else await ainvoke(agent, resume, run)
    assert answer_of(done, REPO).status == "success"
    runs = [
        r.status for r in server.log if r.operation == "execute" and request["session_id"] in r.path
    ]
    assert runs == [400, 200]


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_input_the_service_asks_for_pauses_and_goes_back_once(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    """A session that asks for approval of the notes toolkit answers input_required: the run
    pauses with the form; the resume's answer is sent back once with the request_state."""
    agent = agent_with(irouter, toolkits={"enable": ["notes"], "require_approval": ["notes"]})
    run = thread(new_user())
    message = {"messages": [("user", "save my name in my notes")]}
    paused = agent.invoke(message, run) if face == "sync" else await ainvoke(agent, message, run)
    request = paused["__interrupt__"][0].value
    assert request["type"] == "input_required"
    (form,) = request["requests"]
    assert form["mode"] == "form"
    assert "approve" in form["requested_schema"]["properties"]
    answer = Command(resume={"responses": {form["key"]: {"action": "accept", "content": {}}}})
    done = agent.invoke(answer, run) if face == "sync" else await ainvoke(agent, answer, run)
    assert answer_of(done, KV_SET).status == "success"
    session = request["session_id"]
    runs = [r.status for r in server.log if r.operation == "execute" and session in r.path]
    assert runs == [200, 200]  # asked, then run once with the answer


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_declining_the_input_runs_nothing(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    agent = agent_with(irouter, toolkits={"enable": ["notes"], "require_approval": ["notes"]})
    run = thread(new_user())
    paused = await run_on(face, agent, {"messages": [("user", "save my name in my notes")]}, run)
    request = paused["__interrupt__"][0].value
    done = await run_on(face, agent, Command(resume=False), run)
    answer = answer_of(done, KV_SET)
    assert answer.status == "error"
    assert "declined" in str(answer.content)
    mine = irouter.create_session(request["user_id"], toolkits=["notes"])
    assert "is not set" in str(mine.execute(KV_GET, {"key": "name"}).error)


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_a_stacked_human_in_the_loop_gates_the_real_action(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    """HumanInTheLoopMiddleware matches tool names: the model calls GMAIL_SEND_EMAIL itself
    (not inside a multi-execute), so the approval gates that very action."""
    if face == "async" and sys.version_info < (3, 11):
        pytest.skip(
            "HumanInTheLoopMiddleware interrupts in an async node through get_config(), which "
            "LangGraph supports from Python 3.11 (our own approvals work on 3.10: see below)"
        )
    gate = HumanInTheLoopMiddleware(interrupt_on={SEND: True})
    agent = agent_with(irouter, gate, toolkits=["gmail"])
    user = new_user()
    session = irouter.create_session(user, toolkits=["gmail"])
    async with httpx.AsyncClient() as browser:
        await browser.get(session.authorize("gmail").redirect_url)
    run = thread(user)
    paused = await run_on(face, agent, {"messages": [("user", "send an email with gmail")]}, run)
    review = paused["__interrupt__"][0].value
    assert review["action_requests"][0]["name"] == SEND
    assert not [r for r in server.log if r.operation == "execute" and session.session_id in r.path]
    rejected = await run_on(face, agent, Command(resume={"decisions": [{"type": "reject"}]}), run)
    assert answer_of(rejected, SEND).status == "error"
    assert not [r for r in server.log if r.operation == "execute" and session.session_id in r.path]


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_destructive_tools_wait_for_approval(
    irouter: ToolRouter, server: EmulatorServer, face: str
) -> None:
    agent = agent_with(irouter, approve=[KV_SET], toolkits=["notes"])
    run = thread(new_user())
    paused = await run_on(face, agent, {"messages": [("user", "save my name in my notes")]}, run)
    review = paused["__interrupt__"][0].value
    assert review["action_requests"][0]["name"] == KV_SET
    edited = {
        "type": "edit",
        "edited_action": {"name": KV_SET, "args": {"key": "name", "value": "you"}},
    }
    done = await run_on(face, agent, Command(resume={"decisions": [edited]}), run)
    assert '"value":"you"' in str(answer_of(done, KV_SET).content)


def test_a_restart_keeps_the_loaded_tools_and_runs_the_call_once(
    server: EmulatorServer, kept: tuple[str, str | None]
) -> None:
    """A new router and agent in a new process, sharing the checkpointer and the store (a real
    Postgres among them): the tools loaded in the thread are still the model's, and the paused
    call runs once."""
    run = thread(new_user())

    @contextmanager
    def agent_in_a_new_process() -> Iterator[Any]:
        router = make_router(server, on_connection_required="interrupt", connection_timeout=5)
        with router, persistence(*kept) as (saver, store):
            middleware = ToolRouterMiddleware(
                router, toolkits=["github", "notes"], session_store=store
            )
            yield create_agent(
                Seeing(reply=requests_by_text(TURNS)),
                middleware=[middleware],
                checkpointer=saver,
                store=store,
            )

    with agent_in_a_new_process() as agent:
        asked = {"messages": [("user", "create a github repository named hello")]}
        request = agent.invoke(asked, run)["__interrupt__"][0].value
    httpx.get(request["redirect_urls"]["github"])
    with agent_in_a_new_process() as agent:
        done = agent.invoke(Command(resume=True), run)
        assert answer_of(done, REPO).status == "success", answer_of(done, REPO).content
        BOUND.clear()
        agent.invoke({"messages": [("user", "save my name in my notes")]}, run)
        assert REPO in BOUND[0]  # loaded in the first process, bound in the second
    runs = [
        r.status for r in server.log if r.operation == "execute" and request["session_id"] in r.path
    ]
    assert runs[:2] == [400, 200]


def test_the_meta_selection_loads_what_the_models_search_finds(
    irouter: ToolRouter, server: EmulatorServer
) -> None:
    def reply(messages: list[BaseMessage]) -> AIMessage:
        last = messages[-1]
        if isinstance(last, ToolMessage) and last.name == "search_tools":
            return calls((KV_SET, {"key": "name", "value": "me"}, "c-set"))
        if isinstance(last, ToolMessage):
            return AIMessage(content="done")
        return calls(("search_tools", {"query": "save a value in my notes"}, "c-find"))

    middleware = ToolRouterMiddleware(irouter, select="meta", toolkits=["notes"])
    agent = create_agent(Seeing(reply=reply), middleware=[middleware], checkpointer=InMemorySaver())
    BOUND.clear()
    done = agent.invoke({"messages": [("user", "remember my name")]}, thread(new_user()))
    assert BOUND[0] == ["search_tools"]
    assert KV_SET in BOUND[1]
    assert answer_of(done, KV_SET).status == "success"


def test_retry_on_never_retries_a_call_that_may_have_run() -> None:
    assert retry_on(ConnectError("refused", operation="execute"))
    assert retry_on(RateLimitError("slow down", status=429))
    assert not retry_on(ToolRouterError("x"))
    lost = ConnectError("lost", operation="execute")
    lost.request_sent = True
    assert not retry_on(lost)
    assert ToolRetryMiddleware(retry_on=retry_on)  # the stack the docs show


def test_options_of_the_wrong_kind_are_named(irouter: ToolRouter) -> None:
    from langchain_toolrouter.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="select must be"):
        ToolRouterMiddleware(irouter, select="some")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="top_k"):
        ToolRouterMiddleware(irouter, top_k=0)
    with pytest.raises(ConfigurationError, match="always_include must be a list"):
        ToolRouterMiddleware(irouter, always_include="GMAIL_SEND_EMAIL")
    with pytest.raises(TypeError, match="'toolkit' \\(did you mean 'toolkits'\\?\\)"):
        ToolRouterMiddleware(irouter, toolkit=["github"])
    with pytest.raises(ConfigurationError, match="needs a ToolRouter"):
        ToolRouterMiddleware("router")  # type: ignore[arg-type]
