"""The emulator's built-in catalog: toolkits, their tools, schemas and behaviour.

Each tool is a pydantic argument model (its JSON Schema is the tool's `input_parameters`, shaped
like the service's: titles, defaults, enums, formats, nested objects, `required`) plus a plain
function over the calling user's state for that toolkit. The same functions answer
`proxy_execute` through each toolkit's table of fake upstream REST routes, so both paths see the
same data. Tool code raises `ToolFailure` for failures the model should read (in-band errors).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

__all__ = [
    "TAGS",
    "Catalog",
    "CatalogTool",
    "ProxyRoute",
    "ToolContext",
    "ToolFailure",
    "Toolkit",
    "default_catalog",
    "format_validation_error",
    "tool_factory",
]

#: Hint tags a session can filter on (the service's Tag enum).
TAGS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

#: The generic output schema of every app tool (the service wraps tool output the same way).
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "ToolResponse",
    "properties": {
        "data": {"type": "object", "title": "Data", "description": "Data from the action."},
        "error": {
            "type": "string",
            "title": "Error",
            "description": "Error message if the action failed.",
            "nullable": True,
        },
        "successful": {
            "type": "boolean",
            "title": "Successful",
            "description": "Whether the action succeeded.",
        },
    },
    "required": ["data", "successful"],
}


class ToolFailure(Exception):  # noqa: N818 - an in-band tool outcome, not a program error
    """A tool ran and failed in a way the caller should read (answered in-band, HTTP 200).

    `status` is the HTTP status the fake upstream answers on the proxy path (404 for a missing
    object, 422 for a semantic error, ...).
    """

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class ToolContext:
    """What a tool function sees: the user, that user's state for the toolkit, and the clock."""

    user_id: str
    state: dict[str, Any]
    now: datetime

    def next_id(self, kind: str) -> int:
        """A per-user, per-kind counter starting at 1 (deterministic ids)."""
        counters: dict[str, int] = self.state.setdefault("_counters", {})
        counters[kind] = counters.get(kind, 0) + 1
        return counters[kind]


ToolFunction = Callable[[ToolContext, Any], dict[str, Any]]


def _strip_null_branches(node: Any) -> Any:
    """Collapse pydantic's `anyOf: [X, {type: null}]` + `default: null` into plain `X`.

    The service's schemas mark optional fields by leaving them out of `required`, not with a null
    branch; matching that keeps the emulator's schemas shaped like the real ones.
    """
    if isinstance(node, list):
        return [_strip_null_branches(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strip_null_branches(value) for key, value in node.items()}
    branches = out.get("anyOf")
    if isinstance(branches, list):
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(branches):
            del out["anyOf"]
            if out.get("default", 0) is None:
                del out["default"]
            out = {**kept[0], **out}
    return out


def format_validation_error(error: ValidationError) -> list[str]:
    """Pydantic errors as `field.path: message` lines (the service's `errors` entries)."""
    lines = []
    for item in error.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"]) or "(body)"
        lines.append(f"{where}: {item['msg']}")
    return lines


@dataclass(frozen=True)
class CatalogTool:
    """One app tool: identity, schema source, hint tags and behaviour."""

    slug: str
    name: str
    description: str
    toolkit: str
    args_model: type[BaseModel]
    run: ToolFunction
    tags: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    version: str = "20260101_00"
    input_schema: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        unknown = set(self.tags) - set(TAGS)
        if unknown:
            raise ValueError(f"{self.slug}: unknown tags {sorted(unknown)}; use {TAGS}")
        schema = _strip_null_branches(self.args_model.model_json_schema())
        object.__setattr__(self, "input_schema", schema)

    @property
    def output_schema(self) -> dict[str, Any]:
        """The tool's `output_parameters`."""
        return OUTPUT_SCHEMA

    def invoke(self, ctx: ToolContext, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate `arguments` against the schema and run the tool.

        Raises:
            ToolFailure: invalid arguments (every bad field named), a failure of the tool, or
                an unexpected exception in the tool's code (status 500, named in the message),
                so a bug in one fake tool is that call's failed result, never an HTTP 500.
        """
        try:
            args = self.args_model.model_validate(dict(arguments))
        except ValidationError as exc:
            details = "; ".join(format_validation_error(exc))
            raise ToolFailure(
                f"Invalid arguments for {self.slug}: {details}. Fix the arguments to match the "
                f"tool's input schema (COMPOSIO_GET_TOOL_SCHEMAS returns it).",
                status=422,
            ) from exc
        try:
            return self.run(ctx, args)
        except ToolFailure:
            raise
        except Exception as exc:  # any crash is this tool's failed result
            raise ToolFailure(
                f"{self.slug} failed: {type(exc).__name__}: {exc}", status=500
            ) from exc


@dataclass(frozen=True)
class ProxyRoute:
    """A REST route of a toolkit's fake upstream, answered by one of its tools.

    Path parameters (named groups of `pattern`), query parameters and a JSON object body are
    merged into the tool's arguments.
    """

    method: str
    pattern: re.Pattern[str]
    tool_slug: str
    status: int = 200


@dataclass(frozen=True)
class Toolkit:
    """A catalog toolkit: metadata, auth requirement, fake upstream and tools."""

    slug: str
    name: str
    description: str
    no_auth: bool
    upstream: str
    tools: tuple[CatalogTool, ...]
    init_state: Callable[[str], dict[str, Any]]
    proxy_routes: tuple[ProxyRoute, ...] = ()
    auth_scheme: str = "OAUTH2"
    categories: tuple[str, ...] = ()

    @property
    def logo(self) -> str:
        """Logo URL in the service's style (never fetched by the emulator)."""
        return f"https://logos.composio.dev/api/{self.slug}"

    @property
    def managed_auth_schemes(self) -> list[str]:
        """`composio_managed_auth_schemes` of the toolkit listing."""
        return [] if self.no_auth else [self.auth_scheme]


def tool_factory(toolkit: str, *, scopes: tuple[str, ...] = ()) -> Callable[..., CatalogTool]:
    """A short constructor for one toolkit's tools: ``tool(slug, name, description, model, run, *tags)``.

    Every toolkit module builds its tools the same way; only the toolkit slug and its scopes differ.
    """

    def tool(
        slug: str, name: str, description: str, model: type[BaseModel], run: Any, *tags: str
    ) -> CatalogTool:
        return CatalogTool(
            slug=slug,
            name=name,
            description=description,
            toolkit=toolkit,
            args_model=model,
            run=run,
            tags=tags,
            scopes=scopes,
        )

    return tool


class Catalog:
    """Toolkits and tools by slug (tool lookup is case-insensitive, as in the service)."""

    def __init__(self, toolkits: list[Toolkit]) -> None:
        self.toolkits: dict[str, Toolkit] = {}
        self.tools: dict[str, CatalogTool] = {}
        for toolkit in toolkits:
            if toolkit.slug in self.toolkits:
                raise ValueError(f"duplicate toolkit slug {toolkit.slug!r}")
            self.toolkits[toolkit.slug] = toolkit
            for tool in toolkit.tools:
                if tool.slug in self.tools:
                    raise ValueError(f"duplicate tool slug {tool.slug!r}")
                if tool.toolkit != toolkit.slug:
                    raise ValueError(f"{tool.slug} is declared in toolkit {toolkit.slug!r}")
                self.tools[tool.slug] = tool
            for route in toolkit.proxy_routes:
                if route.tool_slug not in self.tools:
                    raise ValueError(f"proxy route {route.pattern.pattern} names unknown tool")

    def tool(self, slug: str) -> CatalogTool | None:
        """The tool with this slug (any case), or None."""
        return self.tools.get(slug.upper())

    def toolkit(self, slug: str) -> Toolkit | None:
        """The toolkit with this slug (any case), or None."""
        return self.toolkits.get(slug.lower())

    def toolkit_for_url(self, url: str) -> Toolkit | None:
        """The toolkit whose fake upstream serves this absolute URL, or None."""
        for toolkit in self.toolkits.values():
            if url == toolkit.upstream or url.startswith(toolkit.upstream.rstrip("/") + "/"):
                return toolkit
        return None


def default_catalog() -> Catalog:
    """The built-in catalog: github, gmail, googlecalendar (auth) and notes (no auth)."""
    from langchain_toolrouter.emulator.toolkits import calendar, github, mail, notes

    return Catalog([github.TOOLKIT, mail.TOOLKIT, calendar.TOOLKIT, notes.TOOLKIT])
