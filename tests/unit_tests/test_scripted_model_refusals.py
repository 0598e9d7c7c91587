"""The scripted model when the way is shut: the user did not connect an account, or the search
itself failed. It answers with the tool's reason instead of calling again (no network)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage

from langchain_toolrouter.errors import ToolNotConnectedError, ToolRouterToolError
from langchain_toolrouter.testing import Intent, ScriptedChatModel

SEARCH = "COMPOSIO_SEARCH_TOOLS"
MANAGE = "COMPOSIO_MANAGE_CONNECTIONS"
MULTI = "COMPOSIO_MULTI_EXECUTE_TOOL"
REPO = "GITHUB_CREATE_A_REPOSITORY"
SEND = "GMAIL_SEND_EMAIL"
TOOLS = [
    {"name": name, "description": name, "parameters": {"type": "object", "properties": {}}}
    for name in (SEARCH, MANAGE, MULTI)
]
DECLINED = "the user did not connect"

Answer = Callable[[ToolCall], ToolMessage]


def found(*slugs: str, unconnected: tuple[str, ...] = ()) -> dict[str, Any]:
    """A search result finding one slug per query, and which toolkits are not connected."""
    return {
        "successful": True,
        "error": None,
        "data": {
            "results": [
                {"index": i + 1, "primary_tool_slugs": [slug]} for i, slug in enumerate(slugs)
            ],
            "tool_schemas": {s: {"toolkit": s.split("_")[0].lower()} for s in slugs},
            "toolkit_connection_statuses": [
                {"toolkit": kit, "has_active_connection": False} for kit in unconnected
            ],
        },
    }


def ok(call: ToolCall, data: dict[str, Any]) -> ToolMessage:
    return ToolMessage(str(data), artifact=data, tool_call_id=call["id"], name=call["name"])


def refused(call: ToolCall, error: ToolRouterToolError) -> ToolMessage:
    """The message a library tool answers with when it raises `error` (its artifact included)."""
    return ToolMessage(
        str(error),
        artifact=error.artifact(),
        status="error",
        tool_call_id=call["id"],
        name=call["name"],
    )


def not_connected(call: ToolCall, toolkit: str, why: str) -> ToolMessage:
    error = ToolNotConnectedError(
        f"{call['name']} was not run: {why}. Ask the user to connect ({toolkit}: "
        f"https://connect.example/{toolkit}), then call {call['name']} again.",
        tool=call["name"],
        toolkit=toolkit,
        redirect_url=f"https://connect.example/{toolkit}",
        connected_account_id=None,
    )
    return refused(call, error)


def converse(model: ScriptedChatModel, answer: Answer) -> tuple[list[ToolCall], AIMessage]:
    """Run the model against `answer` until it replies without tool calls."""
    bound = model.bind_tools(TOOLS)
    messages: list[BaseMessage] = [HumanMessage("task")]
    made: list[ToolCall] = []
    for _ in range(20):
        reply = bound.invoke(messages)
        assert isinstance(reply, AIMessage)
        messages.append(reply)
        if not reply.tool_calls:
            return made, reply
        made += reply.tool_calls
        messages += [answer(call) for call in reply.tool_calls]
    raise AssertionError("the scripted model did not finish")


def names(calls: list[ToolCall]) -> list[str]:
    return [call["name"] for call in calls]


REPO_PLAN = [[Intent("repo", "create a repository", {"name": "hello"})]]


def test_a_declined_connection_is_final_and_the_answer_says_why() -> None:
    def answer(call: ToolCall) -> ToolMessage:
        if call["name"] == SEARCH:
            return ok(call, found(REPO, unconnected=("github",)))
        if call["name"] == MANAGE:
            return not_connected(call, "github", f"{DECLINED} github")
        raise AssertionError(f"called {call['name']} after the user declined")

    calls, final = converse(ScriptedChatModel(stages=REPO_PLAN, answer="made"), answer)
    assert names(calls) == [SEARCH, MANAGE]  # one pause: no second ask, no run
    assert final.response_metadata["outcome"] == "gave_up"
    assert str(final.content).startswith("I could not create a repository: ")
    assert f"{DECLINED} github" in str(final.content)
    assert "https://connect.example/github" in str(final.content)


def test_a_call_declined_while_it_waited_for_the_user_is_not_made_again() -> None:
    """Search said connected; the call paused for the account and the user declined."""

    def answer(call: ToolCall) -> ToolMessage:
        if call["name"] == SEARCH:
            return ok(call, found(REPO))
        return not_connected(call, "github", f"{DECLINED} github")

    calls, final = converse(ScriptedChatModel(stages=REPO_PLAN, answer="made"), answer)
    assert names(calls) == [SEARCH, MULTI]
    assert final.response_metadata["outcome"] == "gave_up"
    assert f"{MULTI} was not run: {DECLINED} github" in str(final.content)


def test_an_account_not_connected_in_time_is_final_too() -> None:
    def answer(call: ToolCall) -> ToolMessage:
        if call["name"] == SEARCH:
            return ok(call, found(REPO, unconnected=("github",)))
        return not_connected(call, "github", "github was not connected within 300s")

    calls, final = converse(ScriptedChatModel(stages=REPO_PLAN), answer)
    assert names(calls) == [SEARCH, MANAGE]
    assert "not connected within 300s" in str(final.content)


def test_what_needs_no_declined_account_still_runs() -> None:
    """The decline is final for the intents that need the account, not for the others."""
    plan = [
        [Intent("note", "save a note", {"title": "t"})],
        [Intent("mail", "send an email", {"to": "a@b.co"})],
    ]
    ran: list[str] = []

    def answer(call: ToolCall) -> ToolMessage:
        if call["name"] == SEARCH:
            return ok(call, found("NOTES_CREATE", SEND, unconnected=("gmail",)))
        if call["name"] == MANAGE:
            return not_connected(call, "gmail", f"{DECLINED} gmail")
        ran.extend(item["tool_slug"] for item in call["args"]["tools"])
        item = {"index": 0, "response": {"successful": True, "data": {"id": 1}, "error": None}}
        return ok(call, {"successful": True, "data": {"results": [item]}, "error": None})

    _, final = converse(ScriptedChatModel(stages=plan), answer)
    assert ran == ["NOTES_CREATE"]
    assert final.response_metadata["outcome"] == "gave_up"
    assert f"I could not send an email: {MANAGE} was not run: {DECLINED} gmail" in str(
        final.content
    )


def test_a_failed_search_gives_up_with_its_reason() -> None:
    why = f"{SEARCH} was not run: it is a per-user tool and this run names no user."

    def answer(call: ToolCall) -> ToolMessage:
        assert call["name"] == SEARCH, "nothing to call after a failed search"
        return refused(call, ToolRouterToolError(why, tool=SEARCH))

    calls, final = converse(ScriptedChatModel(stages=REPO_PLAN), answer)
    assert names(calls) == [SEARCH]
    assert final.response_metadata["outcome"] == "gave_up"
    assert final.content == f"I could not search for tools: {why}"


def test_it_says_which_toolkits_need_a_connection_in_good_grammar() -> None:
    plan = [[Intent("repo", "create a repository"), Intent("mail", "send an email")]]
    one = found(REPO, SEND, unconnected=("github",))
    two = found(REPO, SEND, unconnected=("github", "gmail"))
    thoughts = []
    for result in (one, two):
        messages: list[BaseMessage] = [HumanMessage("task")]
        bound = ScriptedChatModel(stages=plan).bind_tools(TOOLS)
        search = bound.invoke(messages)
        assert isinstance(search, AIMessage)
        messages += [search, ok(search.tool_calls[0], result)]
        thoughts.append(bound.invoke(messages).content)
    assert thoughts == [
        "Search says github needs a connection; connecting.",
        "Search says github and gmail need a connection; connecting.",
    ]
