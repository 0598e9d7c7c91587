"""LangChain tools from what a session knows: listed schemas, search answers, custom tools.

`ToolBuilder` keeps the schemas a session has seen, so that an unchanged schema listed again
builds from the same object (its conversion is found by identity and the schema cache does not
fill up with copies), and records the tools it has to leave out (`skipped`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from langchain_toolrouter._arguments import check_text
from langchain_toolrouter._exceptions import ToolSearchError
from langchain_toolrouter._session.calls import is_meta
from langchain_toolrouter._session.faces import Face
from langchain_toolrouter._session.runtime import Runtime
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.custom_tools import CustomTool
from langchain_toolrouter.custom_tools._registry import CustomRegistry
from langchain_toolrouter.schema import SchemaConversionError
from langchain_toolrouter.tools import ToolExecutor, ToolRouterTool, tool_name_for
from langchain_toolrouter.types import ToolList, ToolSearchResult
from langchain_toolrouter.wire import models as m

__all__ = ["GET_TOOL_SCHEMAS", "ToolBuilder", "full_schema", "read_schemas", "search"]

GET_TOOL_SCHEMAS = "COMPOSIO_GET_TOOL_SCHEMAS"

_log = logging.getLogger("langchain_toolrouter")

_NO_ARGUMENTS: Mapping[str, Any] = {"type": "object", "properties": {}}
"""The schema of a tool the service lists without one (one object, so its conversion is
found by identity)."""

_SchemaT = TypeVar("_SchemaT", m.ToolSchema, m.SearchToolSchema)


def _kept(seen: dict[str, _SchemaT], key: str, schema: _SchemaT) -> _SchemaT:
    """The schema object to build `key`'s tool from: the one kept from an earlier listing or
    search when it is unchanged, else `schema`, now kept."""
    previous = seen.get(key)
    if previous is not None and previous == schema:
        return previous
    seen[key] = schema
    return schema


def full_schema(found: m.SearchToolSchema | None) -> bool:
    """True when a search answer carries a tool's whole input schema."""
    return (
        found is not None and found.input_schema is not None and found.has_full_schema is not False
    )


class ToolBuilder:
    """Builds a session's tools and remembers what it built them from.

    Attributes:
        skipped: `(slug, reason)` for each tool left out: its schema could not be converted,
            or its `name_style="safe"` name is another tool's.
    """

    def __init__(
        self,
        rt: Runtime,
        executor: Callable[[str, str | None], ToolExecutor],
        registry: CustomRegistry,
        session_id: str | None,
    ) -> None:
        self._rt = rt
        self._executor = executor
        self.registry = registry
        self._session_id = session_id
        self.schemas: dict[str, m.ToolSchema] = {}  # listed, by upper-case slug
        self._found: dict[str, m.SearchToolSchema] = {}  # the last schema search gave per slug
        self._built: dict[str, tuple[object, ToolRouterTool | None]] = {}
        self.skipped: list[tuple[str, str]] = []

    def _once(
        self, slug: str, source: object, build: Callable[[], ToolRouterTool | None]
    ) -> ToolRouterTool | None:
        """The tool of `slug` built from `source` (a kept schema, a custom tool), built again
        only when the source changes: converting a schema costs more than a model call's
        bookkeeping, and agents ask for the same tools on every model call."""
        built = self._built.get(slug)
        if built is not None and built[0] is source:
            return built[1]
        tool = build()
        self._built[slug] = (source, tool)
        return tool

    def make(
        self,
        slug: str,
        description: str | None,
        input_schema: Mapping[str, Any] | None,
        *,
        toolkit: str | None,
        kind: str,
        tags: Sequence[str] = (),
        output_schema: Mapping[str, Any] | None = None,
    ) -> ToolRouterTool | None:
        """A LangChain tool for one slug; `None` (and a warning) if its schema cannot convert."""
        metadata: dict[str, Any] = {
            "slug": slug,
            "toolkit": toolkit,
            "kind": kind,
            "tags": list(tags),
            "read_only": "readOnlyHint" in tags,
            "destructive": "destructiveHint" in tags,
            "output_schema": dict(output_schema) if output_schema else None,
            "session_id": self._session_id,
        }
        options = self._rt.tools
        try:
            return ToolRouterTool._construct(
                name=tool_name_for(slug, options.name_style),
                slug=slug,
                description=description or slug,
                input_json_schema=input_schema or _NO_ARGUMENTS,
                executor=self._executor(slug, toolkit),
                metadata=metadata,
                schema_options=options.schema_options,
                max_content_chars=options.max_content_chars,
                handle_tool_error=not options.raise_errors,
            )
        except SchemaConversionError as exc:
            self.skip(slug, f"its input schema cannot be used ({exc})")
            return None

    def from_schema(self, schema: m.ToolSchema) -> ToolRouterTool | None:
        """The tool of a listed schema (`/tools`, `COMPOSIO_GET_TOOL_SCHEMAS`)."""
        return self._once(
            schema.slug,
            schema,
            lambda: self.make(
                schema.slug,
                schema.description,
                schema.input_parameters,
                toolkit=schema.toolkit.slug if schema.toolkit else None,
                kind="meta" if is_meta(schema.slug) else "app",
                tags=schema.tags,
                output_schema=schema.output_parameters,
            ),
        )

    def custom(self, custom: CustomTool) -> ToolRouterTool | None:
        """The tool of a custom tool (run here)."""
        return self._once(
            custom.final_slug,
            custom,
            lambda: self.make(
                custom.final_slug,
                custom.description,
                custom.input_schema,
                toolkit=custom.toolkit or custom.extends_toolkit,
                kind="custom",
                output_schema=custom.output_schema,
            ),
        )

    def listed(self, schemas: Iterable[m.ToolSchema], customs: Iterable[CustomTool]) -> ToolList:
        """The tools of a `/tools` listing plus `customs`, each name once."""
        tools: list[ToolRouterTool] = []
        seen: set[str] = set()
        for schema in schemas:
            key = schema.slug.upper()
            if key in seen or self.registry.resolve_exact(schema.slug) is not None:
                continue  # a custom tool echoed by the service is built from our definition
            seen.add(key)
            tool = self.from_schema(_kept(self.schemas, key, schema))
            if tool is not None:
                tools.append(tool)
        for custom in customs:
            tool = self.custom(custom)
            if tool is not None:
                tools.append(tool)
        result = ToolList(self.distinct_names(tools))
        owner = f"session {self._session_id}" if self._session_id else "each user's session"
        result.caption = f"{len(result)} tools of {owner}"
        return result

    def found(self, slug: str, found: m.SearchToolSchema | None) -> ToolRouterTool | None:
        """The tool of a slug search or `COMPOSIO_GET_TOOL_SCHEMAS` gave (a custom tool from
        its definition; an app tool from the answer's schema, else from a listed one or one
        an earlier answer gave)."""
        custom = self.registry.resolve_exact(slug)
        if custom is not None:
            return self.custom(custom)
        if full_schema(found):
            assert found is not None
            kept = _kept(self._found, slug, found)
            return self._once(
                slug,
                kept,
                lambda: self.make(
                    slug,
                    kept.description,
                    kept.input_schema,
                    toolkit=kept.toolkit,
                    kind="meta" if is_meta(slug) else "app",
                    output_schema=kept.output_schema,
                ),
            )
        cached = self.schemas.get(slug.upper())
        if cached is not None:
            return self.from_schema(cached)
        if slug in self._found:  # an earlier search or fetch gave it
            return self.found(slug, self._found[slug])
        self.skip(slug, "search found it, but its schema is not available from the service")
        return None

    def known(self, slug: str) -> ToolRouterTool | bool | None:
        """A tool from what is already known (a custom tool, a listed schema, one a search or
        `COMPOSIO_GET_TOOL_SCHEMAS` gave): `False` when nothing is; `None` when its schema
        cannot be converted."""
        custom = self.registry.resolve_exact(slug)
        if custom is not None:
            return self.custom(custom)
        cached = self.schemas.get(slug.upper())
        if cached is not None:
            return self.from_schema(cached)
        found = self._found.get(slug)
        if found is not None:
            return self.found(slug, found)
        return False

    def has_schema(self, slug: str) -> bool:
        """Whether a listing, a search or `COMPOSIO_GET_TOOL_SCHEMAS` already gave `slug`'s
        schema (so no request needs to fetch it)."""
        return slug.upper() in self.schemas or slug in self._found

    @property
    def name_style(self) -> str:
        """How slugs become tool names (the router's option)."""
        return self._rt.tools.name_style

    def distinct_names(self, tools: Iterable[ToolRouterTool]) -> list[ToolRouterTool]:
        """The tools minus any whose name an earlier one has (logged, and in `skipped`):
        `name_style="safe"` can give two slugs one name (`GET.USER`, `GET_USER`), and a model
        could only ever call the first."""
        kept: dict[str, ToolRouterTool] = {}
        for tool in tools:
            first = kept.setdefault(tool.name, tool)
            if first is not tool:
                why = (
                    f"its name {tool.name!r} is also the name of {first.slug} "
                    f"(name_style={self._rt.tools.name_style!r}); use name_style='exact' "
                    "to offer both"
                )
                self.skip(tool.slug, why)
        return list(kept.values())

    def skip(self, slug: str, why: str) -> None:
        """Record (once; tools are listed again and again) and log a tool that is left out."""
        if (slug, why) not in self.skipped:
            _log.warning("tool %s is skipped: %s", slug, why)
            self.skipped.append((slug, why))


async def search(
    face: Face,
    builder: ToolBuilder,
    session_id: str,
    query: str,
    *,
    known_fields: str | None = None,
    include_related: bool = True,
    model: str | None = None,
    inline: m.InlineCustomTools | None = None,
) -> ToolSearchResult:
    """Search a session's tools for a use case, fetch the schemas the answer left out
    (`COMPOSIO_GET_TOOL_SCHEMAS`), and build the tools: primary ones first, then related.

    Raises:
        ToolSearchError: the service's search failed for the query.
        ValueError, TypeError: a blank query, or `known_fields` that is not text.
    """
    # Refused as ToolSearch refuses it: a blank use case finds nothing meaningful.
    entry: dict[str, Any] = {
        "use_case": check_text("the tool search query", query, hint="e.g. 'create a note'")
    }
    if known_fields is not None and known_fields != "":  # "" is "nothing known"
        entry["known_fields"] = check_text(
            "known_fields", known_fields, hint="e.g. 'repo:hello-world, owner:alice'"
        )
    response = await face.call(
        ToolRouterClient.search, session_id, [entry], model=model, experimental=inline
    )
    if not response.results:
        raise ToolSearchError(response.error or "the service's search returned no result")
    found = response.results[0]
    if found.error and not found.primary_tool_slugs:
        raise ToolSearchError(found.error)
    related = found.related_tool_slugs if include_related else []
    ordered = list(dict.fromkeys([*found.primary_tool_slugs, *related]))
    missing = [
        slug
        for slug in ordered
        if builder.registry.resolve_exact(slug) is None
        and not full_schema(response.tool_schemas.get(slug))
        and not builder.has_schema(slug)
    ]
    fetched: dict[str, m.SearchToolSchema] = {}
    if missing:
        result = await face.call(
            ToolRouterClient.execute_meta,
            session_id,
            GET_TOOL_SCHEMAS,
            {"tool_slugs": missing},
            experimental=inline,
        )
        fetched = read_schemas(result)
    tools: list[ToolRouterTool] = []
    for slug in ordered:
        schema = response.tool_schemas.get(slug)
        if not full_schema(schema):
            schema = fetched.get(slug) or schema
        tool = builder.found(slug, schema)
        if tool is not None:
            tools.append(tool)
    style = builder.name_style
    return ToolSearchResult(
        builder.distinct_names(tools),
        query=query,
        primary=[tool_name_for(slug, style) for slug in found.primary_tool_slugs],
        connected={
            status.toolkit: status.has_active_connection
            for status in response.toolkit_connection_statuses
        },
        response=response,
    )


def read_schemas(result: m.ExecuteResult) -> dict[str, m.SearchToolSchema]:
    """The schemas a `COMPOSIO_GET_TOOL_SCHEMAS` answer holds, by slug."""
    raw = result.data.get("tool_schemas") if result.data else None
    if not isinstance(raw, Mapping):
        return {}
    return {slug: m.SearchToolSchema.model_validate(entry) for slug, entry in raw.items()}
