"""`ToolRouterToolkit`: a LangChain `BaseToolkit` over one session, with include/exclude filters."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase
from typing import Annotated, Any

from langchain_core.tools import BaseTool, BaseToolkit
from pydantic import ConfigDict, Field, SkipValidation, model_validator

from langchain_toolrouter._arguments import model_arguments
from langchain_toolrouter.types import ToolList

__all__ = ["ToolRouterToolkit"]


def _keys(tool: BaseTool) -> tuple[str, ...]:
    meta = tool.metadata or {}
    values = (tool.name, getattr(tool, "slug", None), meta.get("toolkit"), meta.get("kind"))
    return tuple(str(v) for v in values if v)


def _matches(tool: BaseTool, pattern: str) -> bool:
    return any(fnmatchcase(key.upper(), pattern.upper()) for key in _keys(tool))


class ToolRouterToolkit(BaseToolkit):
    """The tools of a Tool Router session as a LangChain toolkit.

    Filters match a tool's name, slug, toolkit slug or kind (`meta`, `app`, `custom`),
    case-insensitively, with shell wildcards (`"GITHUB_*"`, `"github"`, `"meta"`).

    Args:
        session: The `ToolRouterSession`.
        include: Keep only tools matching at least one pattern (every pattern must match
            some tool, so a typo is an error rather than an empty toolkit).
        exclude: Drop tools matching any pattern (a pattern that matches no tool is warned
            about: a typo here would leave in a tool meant to be left out).

    Example:
        ```python
        from langchain.agents import create_agent

        toolkit = ToolRouterToolkit(session=session, exclude=["COMPOSIO_REMOTE_*"])
        agent = create_agent(model, toolkit.get_tools())
        ```
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    session: Annotated[Any, SkipValidation()] = Field(exclude=True)
    include: Sequence[str] | None = None
    exclude: Sequence[str] = ()

    @model_validator(mode="before")
    @classmethod
    def _known_arguments(cls, data: Any) -> Any:
        # A typo (`exlude=`) would otherwise be ignored and leave in the tools meant to be out.
        model_arguments("ToolRouterToolkit", data, cls.model_fields, "get_tools")
        if isinstance(data, Mapping):
            for name in ("include", "exclude"):
                value = data.get(name)
                if isinstance(value, (str, bytes)):
                    msg = (
                        f"ToolRouterToolkit: {name} takes a list of patterns, got the string "
                        f"{value!r}: pass {name}=[{value!r}]"
                    )
                    raise TypeError(msg)
        return data

    def get_tools(self) -> list[BaseTool]:
        """The session's tools (every page of `/tools` plus custom tools), filtered."""
        return self._filter(self.session.get_tools())

    async def aget_tools(self) -> list[BaseTool]:
        """Async twin of `get_tools`."""
        return self._filter(await self.session.aget_tools())

    def _filter(self, tools: Sequence[BaseTool]) -> ToolList:
        kept = list(tools)
        if self.include is not None:
            unmatched = [p for p in self.include if not any(_matches(t, p) for t in kept)]
            if unmatched:
                available = ", ".join(sorted(t.name for t in kept))
                msg = (
                    f"include pattern(s) {unmatched} match no tool of session "
                    f"{self.session.session_id}; available: {available}"
                )
                raise ValueError(msg)
            kept = [t for t in kept if any(_matches(t, p) for p in self.include)]
        unused = [p for p in self.exclude if not any(_matches(t, p) for t in kept)]
        if unused:
            warnings.warn(
                f"exclude pattern(s) {unused} match no tool of session "
                f"{self.session.session_id}: check them for a typo (patterns match a tool's "
                "name, slug, toolkit or kind, with shell wildcards)",
                UserWarning,
                stacklevel=3,
            )
        kept = [t for t in kept if not any(_matches(t, p) for p in self.exclude)]
        result = ToolList(kept)
        result.caption = f"{len(result)} tools of session {self.session.session_id}"
        return result
