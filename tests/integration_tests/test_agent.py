"""A LangGraph ReAct agent with a scripted chat model, end to end against the emulator.

The script searches, calls a tool with a bad argument (and recovers), meets "connect your
account" (the user opens the link), creates the issue, then runs a custom tool and an app tool
in one COMPOSIO_MULTI_EXECUTE_TOOL call. Sync and async.
"""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.prebuilt import create_react_agent

from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.emulator import EmulatorServer
from langchain_toolrouter.session import ToolRouter, ToolRouterSession
from tests.chat_models import Script, ScriptedChatModel, call
from tests.unit_tests.langchain.loopback import (  # noqa: F401 - fixtures
    arouter,
    ops,
    router,
    server,
    user,
)

stamped: list[str] = []


@custom_tool(preload=True)
def stamp(text: str) -> dict[str, str]:
    """Stamp a text as triaged (runs in this process)."""
    stamped.append(text)
    return {"stamped": f"[triaged] {text}"}


def last_tool_message(messages: list[BaseMessage]) -> ToolMessage:
    message = messages[-1]
    assert isinstance(message, ToolMessage), message
    return message


def agent_script(user: str) -> Script:
    issue = {"owner": user, "repo": "hello-world", "title": "Crash on start", "body": "Boom"}

    def after_search(messages: list[BaseMessage], tools: list[str]) -> AIMessage:
        found = last_tool_message(messages)
        assert found.status == "success"
        assert "GITHUB_CREATE_AN_ISSUE" in str(found.content)
        assert "GITHUB_CREATE_AN_ISSUE" in tools
        bad = {key: value for key, value in issue.items() if key != "title"}
        return call("GITHUB_CREATE_AN_ISSUE", bad, "c2")

    def after_bad_arguments(messages: list[BaseMessage], tools: list[str]) -> AIMessage:
        error = last_tool_message(messages)
        assert error.status == "error"
        assert "/title" in str(error.content)
        return call("GITHUB_CREATE_AN_ISSUE", issue, "c3")

    def after_not_connected(messages: list[BaseMessage], tools: list[str]) -> AIMessage:
        error = last_tool_message(messages)
        assert error.status == "error"
        link = re.search(r"https?://\S+/_emulator/connect/\S+", str(error.content))
        assert link is not None, error.content
        assert httpx.get(link.group(0)).status_code == 200  # the user connects
        return call("GITHUB_CREATE_AN_ISSUE", issue, "c4")

    def after_created(messages: list[BaseMessage], tools: list[str]) -> AIMessage:
        created = last_tool_message(messages)
        assert created.status == "success"
        number = json.loads(str(created.content))["number"]
        return call(
            "COMPOSIO_MULTI_EXECUTE_TOOL",
            {
                "tools": [
                    {"tool_slug": "LOCAL_STAMP", "arguments": {"text": f"issue {number}"}},
                    {
                        "tool_slug": "NOTES_CREATE_NOTE",
                        "arguments": {"title": f"issue {number}", "content": "filed"},
                    },
                ],
                "sync_response_to_workbench": False,
                "thought": "record the issue",
            },
            "c5",
        )

    def after_multi(messages: list[BaseMessage], tools: list[str]) -> AIMessage:
        merged = last_tool_message(messages)
        assert merged.status == "success", merged.content
        data = json.loads(str(merged.content))
        assert [r["tool_slug"] for r in data["results"]] == ["LOCAL_STAMP", "NOTES_CREATE_NOTE"]
        assert data["success_count"] == 2
        return AIMessage(content="Filed the issue, stamped it and noted it.")

    return Script(
        [
            call(
                "COMPOSIO_SEARCH_TOOLS",
                {
                    "queries": [{"use_case": "create a github issue"}],
                    "session": {"generate_id": True},
                },
                "c1",
            ),
            after_search,
            after_bad_arguments,
            after_not_connected,
            after_created,
            after_multi,
        ]
    )


def check_run(result: dict[str, Any], script: Script, session: ToolRouterSession) -> None:
    assert script.done
    messages = result["messages"]
    assert messages[-1].content == "Filed the issue, stamped it and noted it."
    statuses = [m.status for m in messages if isinstance(m, ToolMessage)]
    assert statuses == ["success", "error", "error", "success", "success"]
    listed = session.execute(
        "GITHUB_LIST_REPOSITORY_ISSUES", {"owner": session.user_id, "repo": "hello-world"}
    )
    assert "Crash on start" in json.dumps(listed.data)


def test_agent_end_to_end(router: ToolRouter, server: EmulatorServer, user: str) -> None:
    session = router.create_session(user, toolkits=["github", "notes"], custom_tools=[stamp])
    tools = [*session.get_tools(), *session.search_tools("create a github issue")]
    script = agent_script(user)
    agent = create_react_agent(ScriptedChatModel(script=script), tools)
    before = len(stamped)
    result = agent.invoke({"messages": [HumanMessage("File the crash as an issue and note it")]})
    check_run(result, script, session)
    assert len(stamped) == before + 1
    assert ops(server, "create_link", session.session_id) == 1


async def test_agent_end_to_end_async(
    arouter: ToolRouter, server: EmulatorServer, user: str
) -> None:
    session = await arouter.acreate_session(
        user, toolkits=["github", "notes"], custom_tools=[stamp]
    )
    tools = [*(await session.aget_tools()), *(await session.asearch_tools("create a github issue"))]
    script = agent_script(user)
    agent = create_react_agent(ScriptedChatModel(script=script), tools)
    result = await agent.ainvoke(
        {"messages": [HumanMessage("File the crash as an issue and note it")]}
    )
    check_run(result, script, session)
    assert ops(server, "create_link", session.session_id) == 1
