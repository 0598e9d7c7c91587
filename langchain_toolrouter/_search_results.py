"""What `session.search_tools` returns: the found tools plus what search said about them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.tools import BaseTool

from langchain_toolrouter._display import ToolList, html_table, text_table
from langchain_toolrouter.wire.models import SearchResponse

__all__ = ["ToolSearchResult"]

_HEADERS = ("name", "toolkit", "primary", "connected", "description")


class ToolSearchResult(ToolList):
    """The tools a search found (primary first, then related), ready to bind to a model.

    Attributes:
        query: The use case searched for.
        primary: Names of the primary tools.
        connected: Toolkit slug -> whether the user has an active connection, as the
            service's `has_active_connection` says (`True` for no-auth toolkits and custom
            tools, which need none; `None` only when the service left it out).
        response: The service's whole search answer (plans, pitfalls, guidance).
    """

    def __init__(
        self,
        tools: Iterable[BaseTool],
        *,
        query: str,
        primary: Iterable[str],
        connected: Mapping[str, bool | None],
        response: SearchResponse | None,
    ) -> None:
        super().__init__(tools)
        self.query = query
        self.primary = frozenset(primary)
        self.connected: dict[str, bool | None] = dict(connected)
        self.response = response
        self.caption = f"{len(self)} tools for {query!r}"

    def _rows(self) -> list[tuple[Any, ...]]:
        rows = []
        for tool in self:
            toolkit = (tool.metadata or {}).get("toolkit") or ""
            state = self.connected.get(toolkit)
            rows.append(
                (
                    tool.name,
                    toolkit,
                    "yes" if tool.name in self.primary else "",
                    "" if state is None else ("yes" if state else "no"),
                    tool.description,
                )
            )
        return rows

    def _repr_html_(self) -> str:
        return html_table(_HEADERS, self._rows(), caption=self.caption)

    def __str__(self) -> str:
        return text_table(_HEADERS, self._rows(), caption=self.caption)
