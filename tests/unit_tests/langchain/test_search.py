"""ToolSearch (Runnable), ToolRetriever and ToolRouterToolkit over a stand-in session."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import BaseTool

from langchain_toolrouter.search import ToolRetriever, ToolSearch, parse_query
from langchain_toolrouter.toolkit import ToolRouterToolkit
from langchain_toolrouter.tools import ToolRouterTool
from langchain_toolrouter.types import ToolList, ToolSearchResult
from tests.chat_models import Script, ScriptedChatModel

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}


def make_tool(slug: str, toolkit: str, kind: str = "app") -> ToolRouterTool:
    return ToolRouterTool.from_schema(
        slug,
        f"{slug} does things",
        SCHEMA,
        lambda payload: payload,
        metadata={"toolkit": toolkit, "kind": kind},
    )


class StandInSession:
    """Answers search from a fixed list and records what it was asked."""

    session_id = "trs_standin"

    def __init__(self) -> None:
        self.tools = [
            make_tool("GITHUB_CREATE_AN_ISSUE", "github"),
            make_tool("GITHUB_LIST_ISSUES", "github"),
            make_tool("NOTES_CREATE_NOTE", "notes"),
            make_tool("COMPOSIO_SEARCH_TOOLS", "composio", "meta"),
        ]
        self.queries: list[tuple[str, str | None, bool]] = []

    def _result(self, query: str, known: str | None, related: bool) -> ToolSearchResult:
        self.queries.append((query, known, related))
        found = self.tools[:3] if related else self.tools[:1]
        return ToolSearchResult(
            found,
            query=query,
            primary=["GITHUB_CREATE_AN_ISSUE"],
            connected={"github": False, "notes": None},
            response=None,
        )

    def search_tools(
        self, query: str, *, known_fields: str | None = None, include_related: bool = True
    ) -> ToolSearchResult:
        return self._result(query, known_fields, include_related)

    async def asearch_tools(
        self, query: str, *, known_fields: str | None = None, include_related: bool = True
    ) -> ToolSearchResult:
        return self._result(query, known_fields, include_related)

    def get_tools(self) -> list[ToolRouterTool]:
        return list(self.tools)

    async def aget_tools(self) -> list[ToolRouterTool]:
        return list(self.tools)


@pytest.fixture
def session() -> StandInSession:
    return StandInSession()


def test_parse_query_forms() -> None:
    assert parse_query("send mail") == ("send mail", None)
    assert parse_query({"query": "send mail"}) == ("send mail", None)
    assert parse_query({"use_case": "send", "known_fields": "to:a@b.c"}) == ("send", "to:a@b.c")
    with pytest.raises(ValueError, match="'query'"):
        parse_query({"q": "x"})
    with pytest.raises(ValueError, match="'query'"):
        parse_query({"known_fields": "a:b"})
    with pytest.raises(ValueError, match=r"'limit' .* is not applied: .*as_search_runnable"):
        parse_query({"query": "x", "limit": 1})
    with pytest.raises(ValueError, match="got 'querry'; did you mean 'query'"):
        parse_query({"querry": "x", "query": "y"})
    # A chain's own keys ride along (LCEL passes the whole input dict).
    assert parse_query({"query": "x", "question": "why?"}) == ("x", None)
    with pytest.raises(ValueError, match="empty"):
        parse_query("  ")
    with pytest.raises(TypeError, match="string or a dict"):
        parse_query(3)
    with pytest.raises(ValueError, match="known_fields"):
        parse_query({"query": "x", "known_fields": ["a"]})


def test_invoke_batch_and_limit(session: StandInSession) -> None:
    search = ToolSearch(session)  # type: ignore[arg-type]
    assert [t.name for t in search.invoke("create issue")] == [
        "GITHUB_CREATE_AN_ISSUE",
        "GITHUB_LIST_ISSUES",
        "NOTES_CREATE_NOTE",
    ]
    batched = search.batch(["a", {"query": "b", "known_fields": "k:v"}])
    assert [len(tools) for tools in batched] == [3, 3]
    assert ("b", "k:v", True) in session.queries
    limited = ToolSearch(session, limit=1, include_related=False)  # type: ignore[arg-type]
    assert [t.name for t in limited.invoke("x")] == ["GITHUB_CREATE_AN_ISSUE"]
    assert session.queries[-1] == ("x", None, False)
    with pytest.raises(ValueError, match="limit"):
        ToolSearch(session, limit=0)  # type: ignore[arg-type]


async def test_ainvoke_and_abatch(session: StandInSession) -> None:
    search = ToolSearch(session)  # type: ignore[arg-type]
    assert len(await search.ainvoke({"use_case": "x"})) == 3
    assert [len(r) for r in await search.abatch(["a", "b"])] == [3, 3]


def test_found_tools_bind_to_a_chat_model_in_a_chain(session: StandInSession) -> None:
    script = Script([AIMessage(content="I would call GITHUB_CREATE_AN_ISSUE")])
    model = ScriptedChatModel(script=script)
    search = ToolSearch(session)  # type: ignore[arg-type]
    chain = {"tools": search, "question": RunnableLambda(lambda q: q)} | RunnableLambda(
        lambda x: model.bind_tools(x["tools"]).invoke([HumanMessage(x["question"])])
    )
    answer = chain.invoke("file a bug")
    assert answer.content == "I would call GITHUB_CREATE_AN_ISSUE"
    assert script.bound == [["GITHUB_CREATE_AN_ISSUE", "GITHUB_LIST_ISSUES", "NOTES_CREATE_NOTE"]]

    def names(tools: list[BaseTool]) -> list[str]:
        return [t.name for t in tools]

    piped = search | RunnableLambda(names)
    assert piped.invoke("x")[0] == "GITHUB_CREATE_AN_ISSUE"


def test_retriever_documents(session: StandInSession) -> None:
    retriever = ToolRetriever(session=session)
    docs = retriever.invoke("create issue")
    assert [d.metadata["slug"] for d in docs] == [
        "GITHUB_CREATE_AN_ISSUE",
        "GITHUB_LIST_ISSUES",
        "NOTES_CREATE_NOTE",
    ]
    first = docs[0]
    assert first.page_content == "GITHUB_CREATE_AN_ISSUE: GITHUB_CREATE_AN_ISSUE does things"
    assert first.metadata["toolkit"] == "github"
    assert first.metadata["rank"] == 1
    assert first.metadata["primary"] is True
    assert first.metadata["connected"] is False
    assert docs[1].metadata["primary"] is False
    assert first.metadata["input_schema"] == SCHEMA


async def test_retriever_async(session: StandInSession) -> None:
    docs = await ToolRetriever(session=session, include_related=False).ainvoke("x")
    assert [d.metadata["slug"] for d in docs] == ["GITHUB_CREATE_AN_ISSUE"]


def test_toolkit_filters(session: StandInSession) -> None:
    all_tools = ToolRouterToolkit(session=session).get_tools()
    assert len(all_tools) == 4
    github = ToolRouterToolkit(session=session, include=["github"]).get_tools()
    assert [t.name for t in github] == ["GITHUB_CREATE_AN_ISSUE", "GITHUB_LIST_ISSUES"]
    no_meta = ToolRouterToolkit(session=session, exclude=["meta", "*_LIST_*"]).get_tools()
    assert [t.name for t in no_meta] == ["GITHUB_CREATE_AN_ISSUE", "NOTES_CREATE_NOTE"]
    assert isinstance(no_meta, ToolList)
    with pytest.raises(ValueError, match=r"\['gmal'\] match no tool"):
        ToolRouterToolkit(session=session, include=["gmal"]).get_tools()
    # exclude is the safety filter: a typo would leave in what was meant to be left out.
    with pytest.warns(UserWarning, match=r"\['NOTES_DELTE_NOTE'\] match no tool"):
        kept = ToolRouterToolkit(session=session, exclude=["NOTES_DELTE_NOTE"]).get_tools()
    assert len(kept) == 4


async def test_toolkit_async(session: StandInSession) -> None:
    tools = await ToolRouterToolkit(session=session, include=["notes_*"]).aget_tools()
    assert [t.name for t in tools] == ["NOTES_CREATE_NOTE"]


def test_search_result_display(session: StandInSession) -> None:
    found = session.search_tools("create <b>issue</b>")
    html = found._repr_html_()
    assert "<table>" in html
    assert "&lt;b&gt;issue&lt;/b&gt;" in html
    assert "<b>issue" not in html
    text = str(found)
    assert text.splitlines()[0] == "3 tools for 'create <b>issue</b>'"
    assert "GITHUB_CREATE_AN_ISSUE  github   yes      no" in text
    assert repr(found) == (
        "ToolSearchResult(['GITHUB_CREATE_AN_ISSUE', 'GITHUB_LIST_ISSUES', 'NOTES_CREATE_NOTE'])"
    )
