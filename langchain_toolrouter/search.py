"""Tool search inside chains: a Runnable from a query to ready tools, and a retriever form.

`ToolSearch` maps a query (a string, or a dict with `query`/`use_case` and optional
`known_fields`) to the tools the session's search found, ready to bind to a chat model:

    search = session.as_search_runnable()
    chain = search | (lambda tools: model.bind_tools(tools))

`ToolRetriever` returns one `Document` per tool instead (metadata: slug, toolkit, kind,
rank, primary, connected), for users who rank or filter tools themselves.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Annotated, Any, Protocol

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import ConfigDict, Field, SkipValidation, StrictBool, model_validator

from langchain_toolrouter._arguments import model_arguments, require_session
from langchain_toolrouter.types import ToolSearchResult

__all__ = [
    "SearchableSession",
    "ToolQuery",
    "ToolRetriever",
    "ToolSearch",
    "parse_query",
    "tools_to_documents",
]


class SearchableSession(Protocol):
    """What search needs of a session (`ToolRouterSession` is one)."""

    @property
    def session_id(self) -> str:
        """The session id."""
        ...

    def search_tools(
        self, query: str, *, known_fields: str | None = ..., include_related: bool = ...
    ) -> ToolSearchResult:
        """Search the session's tools."""
        ...

    async def asearch_tools(
        self, query: str, *, known_fields: str | None = ..., include_related: bool = ...
    ) -> ToolSearchResult:
        """Async twin of `search_tools`."""
        ...


ToolQuery = str | Mapping[str, Any]
"""A search query: the use case as a string, or `{"query" | "use_case": ..., "known_fields": ...}`."""


def parse_query(value: Any) -> tuple[str, str | None]:
    """Read `(use_case, known_fields)` from a string or a dict.

    Raises:
        TypeError: for any other input type.
        ValueError: for a dict without a non-empty `query`/`use_case` string.
    """
    if isinstance(value, str):
        text, known = value, None
    elif isinstance(value, Mapping):
        _check_query_keys(value)
        if "query" in value and "use_case" in value:
            msg = "a tool search dict takes 'query' or 'use_case' (the same thing), not both"
            raise ValueError(msg)
        text = value.get("use_case", value.get("query"))
        known = value.get("known_fields")
        if not isinstance(text, str):
            msg = (
                "a tool search dict needs a 'query' (or 'use_case') string, got keys "
                f"{sorted(value)}"
            )
            raise ValueError(msg)
        if known is not None and not isinstance(known, str):
            msg = "known_fields must be one string of 'key:value, key:value' pairs"
            raise ValueError(msg)
    else:
        msg = f"tool search takes a string or a dict with 'query', got {type(value).__name__}"
        raise TypeError(msg)
    if not text.strip():
        msg = "the tool search query is empty: say what the tool should do"
        raise ValueError(msg)
    return text, known


_QUERY_KEYS = ("query", "use_case", "known_fields")
# Options of the search itself: in the query dict they would silently not apply.
_OPTION_KEYS = frozenset(("limit", "k", "top_k", "include_related", "toolkits"))


def _check_query_keys(value: Mapping[str, Any]) -> None:
    """Refuse keys of a query dict that look meant for the search but would not reach it: a
    search option (`limit`) or a near miss of a query key (`querry`). Other keys are a chain's
    own (LCEL passes the whole input dict along) and are left alone.

    Raises:
        ValueError: naming the key and where it belongs.
    """
    for key in value:
        if key in _QUERY_KEYS or not isinstance(key, str):
            continue
        if key in _OPTION_KEYS:
            msg = (
                f"{key!r} in a tool search dict is not applied: it is an option of the search "
                f"itself, e.g. session.as_search_runnable({key}=...) (the dict takes "
                f"{', '.join(_QUERY_KEYS)})"
            )
            raise ValueError(msg)
        close = difflib.get_close_matches(key, _QUERY_KEYS, n=1, cutoff=0.75)
        if close:
            msg = f"a tool search dict got {key!r}; did you mean {close[0]!r}?"
            raise ValueError(msg)


class ToolSearch(Runnable[ToolQuery, list[BaseTool]]):
    """A Runnable that searches a session's tools: query in, ready LangChain tools out.

    Args:
        session: The `ToolRouterSession` to search.
        include_related: Also return the search's related tools (not only the primary ones).
        limit: Return at most this many tools (primary ones first).
    """

    def __init__(
        self,
        session: SearchableSession,
        *,
        include_related: bool = True,
        limit: int | None = None,
    ) -> None:
        require_session("ToolSearch", session, "search_tools")
        given: dict[str, object] = {"include_related": include_related, "limit": limit}
        if not isinstance(given["include_related"], bool):
            msg = f"include_related must be True or False, got {include_related!r}"
            raise TypeError(msg)
        if limit is not None and (
            not isinstance(given["limit"], int) or isinstance(given["limit"], bool) or limit < 1
        ):
            msg = f"limit must be a positive number of tools or None, got {limit!r}"
            raise (ValueError if isinstance(given["limit"], int) else TypeError)(msg)
        self.session = session
        self.include_related = include_related
        self.limit = limit

    def _search(self, value: ToolQuery) -> list[BaseTool]:
        use_case, known = parse_query(value)
        found = self.session.search_tools(
            use_case, known_fields=known, include_related=self.include_related
        )
        return list(found[: self.limit]) if self.limit else list(found)

    async def _asearch(self, value: ToolQuery) -> list[BaseTool]:
        use_case, known = parse_query(value)
        found = await self.session.asearch_tools(
            use_case, known_fields=known, include_related=self.include_related
        )
        return list(found[: self.limit]) if self.limit else list(found)

    def invoke(
        self, input: ToolQuery, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[BaseTool]:
        """Search with the sync client."""
        return self._call_with_config(self._search, input, config)

    async def ainvoke(
        self, input: ToolQuery, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[BaseTool]:
        """Search with the async client."""
        return await self._acall_with_config(self._asearch, input, config)

    def __repr__(self) -> str:
        return f"ToolSearch(session={self.session.session_id!r})"


def tools_to_documents(result: ToolSearchResult) -> list[Document]:
    """One `Document` per found tool, ranked as the search ranked them."""
    documents = []
    for rank, tool in enumerate(result, start=1):
        meta: Mapping[str, Any] = tool.metadata or {}
        toolkit = meta.get("toolkit")
        documents.append(
            Document(
                page_content=f"{tool.name}: {tool.description}",
                metadata={
                    "slug": getattr(tool, "slug", tool.name),
                    "name": tool.name,
                    "toolkit": toolkit,
                    "kind": meta.get("kind"),
                    "rank": rank,
                    "primary": tool.name in result.primary,
                    "connected": result.connected.get(toolkit) if toolkit else None,
                    "input_schema": getattr(tool, "input_json_schema", None),
                },
            )
        )
    return documents


class ToolRetriever(BaseRetriever):
    """A retriever over a session's tool search: one `Document` per tool found.

    `Document.metadata` holds `slug`, `name`, `toolkit`, `kind`, `rank`, `primary`,
    `connected` (the toolkit's connection state; `True` for no-auth toolkits) and
    `input_schema`. Turn a chosen document back into a tool with `session.tool(slug)`.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    session: Annotated[Any, SkipValidation()] = Field(exclude=True)
    """The `ToolRouterSession` to search."""
    include_related: StrictBool = True
    """Also return the search's related tools."""

    @model_validator(mode="before")
    @classmethod
    def _known_arguments(cls, data: Any) -> Any:
        # LangChain's retrievers ignore unknown arguments: `k=1` would silently do nothing.
        model_arguments("ToolRetriever", data, cls.model_fields, "search_tools")
        return data

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        use_case, known = parse_query(query)
        found = self.session.search_tools(
            use_case, known_fields=known, include_related=self.include_related
        )
        return tools_to_documents(found)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        use_case, known = parse_query(query)
        found = await self.session.asearch_tools(
            use_case, known_fields=known, include_related=self.include_related
        )
        return tools_to_documents(found)
