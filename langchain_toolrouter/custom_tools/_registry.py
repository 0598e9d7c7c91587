"""The custom tools of one session: their wire payload, slug lookup and argument checks.

Built once from what the user passed (`CustomTool`, `CustomToolkit`, LangChain tools, plain
functions). The service's echo on create/attach is the source of truth for final slugs, so
`apply_echo` re-keys the tools by what the service returned. Lookup is case-insensitive, by
final `LOCAL_...` slug or by a unique original slug (an original slug shared by several tools
is ambiguous and refused). A `LOCAL_` slug with no tool here (a session resumed without its
custom tools) gets a hint saying how to pass them (`missing_hint`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from langchain_core.tools import BaseTool

from langchain_toolrouter._answers import ToolArgumentsError
from langchain_toolrouter._exceptions import AmbiguousSlugError
from langchain_toolrouter.custom_tools._tool import (
    CustomTool,
    CustomToolkit,
    as_custom_tool,
    single_item,
)
from langchain_toolrouter.schema.errors import ArgsValidationError
from langchain_toolrouter.wire.models import InlineCustomTools, SessionExperimental

__all__ = ["CustomRegistry", "CustomToolInput"]

CustomToolInput = CustomTool | CustomToolkit | BaseTool | Callable[..., Any]
"""What `custom_tools=[...]` accepts."""


class CustomRegistry:
    """The custom tools and toolkits of a session."""

    def __init__(self, items: Iterable[CustomToolInput] = ()) -> None:
        self.tools: list[CustomTool] = []
        self.toolkits: list[CustomToolkit] = []
        given: object = items
        if isinstance(given, (str, bytes, Mapping)) or single_item(given):
            msg = (
                f"custom_tools takes a list of custom tools, toolkits or functions, got one "
                f"{type(given).__name__}: pass custom_tools=[...]"
            )
            raise TypeError(msg)
        toolkit_slugs: dict[str, str] = {}
        for item in items:
            if isinstance(item, CustomToolkit):
                other = toolkit_slugs.get(item.slug.lower())
                if other is not None:
                    msg = (
                        f"two custom toolkits have the slug {item.slug!r} (the other: {other!r}; "
                        "slugs are case-insensitive): merge them, or give one another slug"
                    )
                    raise ValueError(msg)
                toolkit_slugs[item.slug.lower()] = item.slug
                self.toolkits.append(item)
                self.tools.extend(item.tools)
            else:
                self.tools.append(as_custom_tool(item))
        seen: dict[str, CustomTool] = {}
        for tool in self.tools:
            key = tool.final_slug.upper()
            if key in seen:
                msg = (
                    f"two custom tools have the final slug {tool.final_slug}: give one of them "
                    "another slug"
                )
                raise ValueError(msg)
            seen[key] = tool
        self._by_final = seen
        self.definitions = self._definitions()
        """The `experimental` block carrying every definition (sent with a create, an attach
        and, under v3.1, every call), or `None` when there are none."""

    def __bool__(self) -> bool:
        return bool(self.tools)

    def inline(self) -> InlineCustomTools | None:
        """`definitions` (kept for callers of the method)."""
        return self.definitions

    def _definitions(self) -> InlineCustomTools | None:
        if not self.tools:
            return None
        standalone = [tool for tool in self.tools if tool.toolkit is None]
        return InlineCustomTools(
            **({"custom_tools": [t.definition() for t in standalone]} if standalone else {}),
            **(
                {"custom_toolkits": [tk.definition() for tk in self.toolkits]}
                if self.toolkits
                else {}
            ),
        )

    def apply_echo(self, experimental: SessionExperimental | None) -> None:
        """Take the service's final slugs from a create/attach answer."""
        if experimental is None:
            return
        standalone = {
            (t.slug.upper(), (t.extends_toolkit or "").upper()): t
            for t in self.tools
            if t.toolkit is None
        }
        for echo in experimental.custom_tools or []:
            key = ((echo.original_slug or "").upper(), (echo.extends_toolkit or "").upper())
            tool = standalone.get(key)
            if tool is not None and echo.slug:
                tool._set_final_slug(echo.slug)
        toolkits = {tk.slug.upper(): tk for tk in self.toolkits}
        for tk_echo in experimental.custom_toolkits or []:
            toolkit = toolkits.get(tk_echo.slug.upper())
            if toolkit is None:
                continue
            members = {t.slug.upper(): t for t in toolkit.tools}
            for member_echo in tk_echo.tools:
                member = members.get((member_echo.original_slug or "").upper())
                if member is not None and member_echo.slug:
                    member._set_final_slug(member_echo.slug)
        self._by_final = {tool.final_slug.upper(): tool for tool in self.tools}

    def echo_mismatch(self, experimental: SessionExperimental | None) -> str | None:
        """What differs between these custom tools and those a resumed session was created
        with (the service's echo): tools it does not know, or knows with another input
        schema. `None` when they agree, or when the service echoed nothing to compare."""
        if experimental is None or (
            experimental.custom_tools is None and experimental.custom_toolkits is None
        ):
            return None
        echoed: dict[str, dict[str, Any] | None] = {
            echo.slug.upper(): echo.input_schema for echo in experimental.custom_tools or []
        }
        for toolkit in experimental.custom_toolkits or []:
            echoed.update({echo.slug.upper(): echo.input_schema for echo in toolkit.tools})
        unknown = [t.final_slug for t in self.tools if t.final_slug.upper() not in echoed]
        # Property names, not whole schemas: the service may echo a schema rewritten
        # (key order, titles, additionalProperties), which would be no real change.
        changed = [
            t.final_slug
            for t in self.tools
            if _property_names(echoed.get(t.final_slug.upper()))
            not in (None, _property_names(t.input_schema))
        ]
        problems = []
        if unknown:
            problems.append(
                f"{', '.join(unknown)} "
                + (
                    "is not part of it (it runs here, but its search cannot find it)"
                    if len(unknown) == 1
                    else "are not part of it (they run here, but its search cannot find them)"
                )
            )
        if changed:
            problems.append(
                f"{', '.join(changed)} {'has' if len(changed) == 1 else 'have'} other "
                "arguments there (the service's model reads those)"
            )
        if not problems:
            return None
        return (
            "the custom tools passed differ from those the session was created with: "
            + "; ".join(problems)
            + ". Under v3 a session's custom tools are fixed when it is created: create a new "
            "session with these tools (or use api_version='v3.1', which attaches them)"
        )

    def resolve_exact(self, slug: str) -> CustomTool | None:
        """The custom tool whose final `LOCAL_...` slug this is (any case), else `None`."""
        return self._by_final.get(slug.upper())

    def resolve(self, slug: str) -> CustomTool | None:
        """The custom tool a slug names (final or unique original slug), else `None`.

        Raises:
            AmbiguousSlugError: an original slug shared by several custom tools.
        """
        key = slug.upper()
        found = self._by_final.get(key)
        if found is not None:
            return found
        if key.startswith("COMPOSIO_"):
            return None
        matches = [tool for tool in self.tools if tool.slug.upper() == key]
        if len(matches) > 1:
            names = ", ".join(tool.final_slug for tool in matches)
            msg = f"{slug!r} names several custom tools ({names}); call one by its full slug"
            raise AmbiguousSlugError(msg)
        return matches[0] if matches else None

    def missing_hint(self, slug: str) -> str | None:
        """What to do when a `LOCAL_` slug has no function here (typically a session resumed
        without its custom tools); `None` when it has one, or is not a custom tool's slug."""
        if not slug.upper().startswith("LOCAL_") or self.resolve_exact(slug) is not None:
            return None
        resume = "router.get_session(session_id, custom_tools=[...])"
        if not self.tools:
            return (
                f"{slug} is a custom tool and this session has no function for it: pass the "
                f"session's custom tools when resuming it, {resume}."
            )
        # Some are here: more likely a mistyped or made-up slug than a missing function.
        names = [tool.final_slug for tool in self.tools]
        bare = {name.upper().removeprefix("LOCAL_"): name for name in names}
        close = difflib.get_close_matches(slug.upper().removeprefix("LOCAL_"), list(bare), n=1)
        guess = f" Did you mean {bare[close[0]]}?" if close else ""
        return (
            f"{slug} is not one of this session's custom tools ({', '.join(names)}).{guess} If "
            f"the session was created with it, pass it when resuming: {resume}."
        )

    def check_arguments(self, slug: str, payload: dict[str, Any], *, schema_checked: bool) -> None:
        """Refuse a call of the custom tool `slug` whose arguments its own checks refuse (its
        hidden arguments, its schema unless `schema_checked`, a function's parameter types);
        nothing for a slug that is not one of these tools. A session's tool calls this beside
        its schema check, so the model reads the same error on every path.

        Raises:
            ToolArgumentsError: the custom tool's own checks refuse the arguments.
        """
        custom = self.resolve_exact(slug)
        if custom is None:
            return
        try:
            custom.validate_arguments(payload, schema_checked=schema_checked)
        except ArgsValidationError as exc:
            raise ToolArgumentsError(tool=slug, errors=exc.errors, detail=str(exc)) from exc

    def preloaded(self) -> Sequence[CustomTool]:
        """Tools listed directly (tool or toolkit `preload=True`); the rest are found by search."""
        in_preloaded_toolkit = {id(t) for tk in self.toolkits if tk.preload for t in tk.tools}
        return [t for t in self.tools if t.preload or id(t) in in_preloaded_toolkit]


def _property_names(schema: Mapping[str, Any] | None) -> frozenset[str] | None:
    """The property names of an input schema (``None``: no schema, or none to compare)."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    return frozenset(properties) if isinstance(properties, Mapping) else None
