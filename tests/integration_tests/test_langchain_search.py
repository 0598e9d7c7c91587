"""Tool search inside chains, the retriever and the toolkit, over a real session on loopback."""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableLambda

from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.session import ToolRouter
from langchain_toolrouter.toolkit import ToolRouterToolkit
from tests.chat_models import Script, ScriptedChatModel, call
from tests.unit_tests.langchain.loopback import arouter, router, server, user  # noqa: F401


@custom_tool
def summarize(text: str) -> dict[str, str]:
    """Summarize a text in one line."""
    return {"summary": text.split(".", maxsplit=1)[0]}


def bind_and_answer(model: ScriptedChatModel) -> RunnableLambda[dict[str, Any], BaseMessage]:
    return RunnableLambda(
        lambda x: model.bind_tools(x["tools"]).invoke([HumanMessage(x["question"])])
    )


def test_search_runnable_feeds_a_model_in_a_chain(router: ToolRouter, user: str) -> None:
    session = router.create_session(user, toolkits=["notes", "github"], custom_tools=[summarize])
    search = session.as_search_runnable(limit=3)
    script = Script([call("NOTES_CREATE_NOTE", {"title": "t", "content": "c"}, "n1")])
    model = ScriptedChatModel(script=script)
    chain = {"tools": search, "question": RunnableLambda(lambda q: q)} | bind_and_answer(model)
    answer = chain.invoke("create a note")
    assert isinstance(answer, AIMessage)
    assert len(script.bound[0]) == 3
    assert "NOTES_CREATE_NOTE" in script.bound[0]
    # the tool the model asked for is one of the found tools, ready to run
    found = {t.name: t for t in search.invoke("create a note")}
    result = found["NOTES_CREATE_NOTE"].invoke({**answer.tool_calls[0], "type": "tool_call"})
    assert isinstance(result, ToolMessage)
    assert result.status == "success"
    batched = search.batch(["create a note", {"query": "summarize a text"}])
    assert "LOCAL_SUMMARIZE" in [t.name for t in batched[1]]


async def test_search_runnable_async(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"], custom_tools=[summarize])
    search = session.as_search_runnable()
    script = Script([AIMessage(content="ok")])
    model = ScriptedChatModel(script=script)
    chain = {"tools": search, "question": RunnableLambda(lambda q: q["query"])} | bind_and_answer(
        model
    )
    answer = await chain.ainvoke({"query": "summarize a text"})
    assert answer.content == "ok"
    assert "LOCAL_SUMMARIZE" in script.bound[0]


def test_retriever_over_a_session(router: ToolRouter, user: str) -> None:
    session = router.create_session(user, toolkits=["github", "notes"])
    docs = session.as_retriever().invoke("create a github issue")
    first = docs[0]
    assert first.metadata["slug"] == "GITHUB_CREATE_AN_ISSUE"
    assert first.metadata["toolkit"] == "github"
    assert first.metadata["connected"] is False
    assert first.metadata["primary"] is True
    assert first.metadata["input_schema"]["properties"]["title"]["type"] == "string"
    # a chosen document turns back into a ready tool
    assert session.tool(first.metadata["slug"]).name == "GITHUB_CREATE_AN_ISSUE"


def test_retriever_ranked_by_the_user_feeds_a_model_in_a_chain(
    router: ToolRouter, user: str
) -> None:
    """The retriever form: the program filters the documents (here: connected or no-auth
    toolkits only), turns the chosen ones into tools, and binds them in the chain."""
    session = router.create_session(user, toolkits=["notes", "github"])

    def usable_tools(docs: list[Any]) -> list[Any]:
        chosen = [d for d in docs if d.metadata["connected"] is not False]
        return [session.tool(d.metadata["slug"]) for d in chosen[:2]]

    pick = session.as_retriever() | RunnableLambda(usable_tools)
    script = Script([call("NOTES_CREATE_NOTE", {"title": "t", "content": "c"}, "n1")])
    model = ScriptedChatModel(script=script)
    chain = {"tools": pick, "question": RunnableLambda(lambda q: q)} | bind_and_answer(model)
    answer = chain.invoke("create a note or a github issue")
    assert isinstance(answer, AIMessage)
    assert script.bound[0]
    assert not [name for name in script.bound[0] if name.startswith("GITHUB_")]  # filtered out
    assert "NOTES_CREATE_NOTE" in script.bound[0]


async def test_retriever_async(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"])
    docs = await session.as_retriever(include_related=False).ainvoke("create a note")
    assert all(d.metadata["primary"] for d in docs)
    assert docs[0].metadata["connected"] is True  # notes needs no auth: the service says True


def test_no_auth_toolkits_count_as_connected_in_search(router: ToolRouter, user: str) -> None:
    """The service's has_active_connection is True for a toolkit that needs no auth, as the
    docstrings of ToolSearchResult.connected and ToolRetriever now say (they said None)."""
    session = router.create_session(user, toolkits=["notes", "github"])
    found = session.search_tools("create a note")
    assert found.connected["notes"] is True
    assert session.search_tools("create a github issue").connected["github"] is False


def test_toolkit_over_a_session(router: ToolRouter, user: str) -> None:
    session = router.create_session(user, toolkits=["notes"], preload=["NOTES_CREATE_NOTE"])
    toolkit = session.as_toolkit(exclude=["COMPOSIO_REMOTE_*"])
    names = [t.name for t in toolkit.get_tools()]
    assert "NOTES_CREATE_NOTE" in names
    assert not [n for n in names if n.startswith("COMPOSIO_REMOTE_")]
    only_app = ToolRouterToolkit(session=session, include=["app"]).get_tools()
    assert [t.name for t in only_app] == ["NOTES_CREATE_NOTE"]


async def test_toolkit_async(arouter: ToolRouter, user: str) -> None:
    session = await arouter.acreate_session(user, toolkits=["notes"])
    tools = await session.as_toolkit(include=["meta"]).aget_tools()
    assert all(t.name.startswith("COMPOSIO_") for t in tools)
