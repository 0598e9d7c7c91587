"""What a catalog is made of: tools, toolkits, the context a tool runs in, its failures.

A tool's input schema comes from a pydantic argument model (its JSON Schema is the tool's
`input_parameters`, shaped like the service's: titles, defaults, enums, formats, nested objects,
`required`) or is given as a plain JSON Schema (checked with `jsonschema` when the tool is
called). Its behaviour is a plain function over the calling user's state for that toolkit. The
same functions answer `proxy_execute` through each toolkit's table of fake upstream REST routes,
so both paths see the same data. Tool code raises `ToolFailure` for failures the model should
read (in-band errors).

This module imports nothing from the rest of the emulator: the toolkits build on it, and
`catalog` gathers them, so nothing imports back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

__all__ = [
    "OUTPUT_SCHEMA",
    "TAGS",
    "CatalogTool",
    "ProxyRoute",
    "ToolContext",
    "ToolFailure",
    "Toolkit",
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
    """One app tool: identity, input schema, hint tags and behaviour.

    Give the input schema one way: `args_model` (a pydantic model; `run` receives the validated
    model) or `input_schema` (a plain JSON Schema object; `run` receives the arguments as a dict
    once they satisfy it).

    Raises:
        ValueError: unknown tags, both or neither of `args_model` and `input_schema`, or an
            `input_schema` that is not a JSON object schema (the message names the tool).
    """

    slug: str
    name: str
    description: str
    toolkit: str
    run: ToolFunction
    args_model: type[BaseModel] | None = field(default=None, kw_only=True)
    tags: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    version: str = "20260101_00"
    input_schema: dict[str, Any] = field(default_factory=dict, compare=False)
    _validator: list[Any] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        unknown = set(self.tags) - set(TAGS)
        if unknown:
            raise ValueError(f"{self.slug}: unknown tags {sorted(unknown)}; use {TAGS}")
        if self.args_model is not None:
            schema = _strip_null_branches(self.args_model.model_json_schema())
            # A copy made with dataclasses.replace carries the derived schema along.
            if self.input_schema and self.input_schema != schema:
                raise ValueError(
                    f"{self.slug}: give args_model or input_schema, not both (the model's "
                    "JSON Schema is the input schema)"
                )
        else:
            schema = _checked_schema(self.slug, self.input_schema)
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
        args = self._checked_arguments(arguments)
        try:
            return self.run(ctx, args)
        except ToolFailure:
            raise
        except Exception as exc:  # any crash is this tool's failed result
            raise ToolFailure(
                f"{self.slug} failed: {type(exc).__name__}: {exc}", status=500
            ) from exc

    def _checked_arguments(self, arguments: Mapping[str, Any]) -> Any:
        if self.args_model is not None:
            try:
                return self.args_model.model_validate(dict(arguments))
            except ValidationError as exc:
                raise self._invalid(format_validation_error(exc)) from exc
        problems = [
            f"{'.'.join(str(part) for part in error.absolute_path) or '(arguments)'}: "
            f"{error.message}"
            for error in self._schema_validator().iter_errors(dict(arguments))
        ]
        if problems:
            raise self._invalid(sorted(problems))
        return dict(arguments)

    def _invalid(self, problems: list[str]) -> ToolFailure:
        return ToolFailure(
            f"Invalid arguments for {self.slug}: {'; '.join(problems)}. Fix the arguments to "
            "match the tool's input schema (COMPOSIO_GET_TOOL_SCHEMAS returns it).",
            status=422,
        )

    def _schema_validator(self) -> Any:
        """The `jsonschema` validator of `input_schema`, built (and the schema checked against
        its metaschema) on first use: checking thousands of schemas up front would slow down
        building a large catalog."""
        if not self._validator:
            import jsonschema

            cls = jsonschema.validators.validator_for(
                self.input_schema, default=jsonschema.Draft202012Validator
            )
            try:
                cls.check_schema(self.input_schema)
            except jsonschema.SchemaError as exc:
                raise ToolFailure(
                    f"{self.slug} cannot run: its input_schema is not a valid JSON Schema "
                    f"({exc.message}); fix the tool's definition in the catalog.",
                    status=500,
                ) from exc
            self._validator.append(cls(self.input_schema))
        return self._validator[0]


def _checked_schema(slug: str, schema: Any) -> dict[str, Any]:
    """A private copy of a plain JSON Schema tool input, after the checks that are cheap."""
    if not isinstance(schema, dict) or not schema:
        raise ValueError(
            f"{slug}: give args_model (a pydantic model) or input_schema (a JSON Schema object "
            "such as {'type': 'object', 'properties': {...}})"
        )
    if schema.get("type") != "object" or not isinstance(schema.get("properties", {}), dict):
        raise ValueError(
            f"{slug}: input_schema must describe an object of named arguments: "
            "{'type': 'object', 'properties': {...}}"
        )
    try:
        copied: dict[str, Any] = json.loads(json.dumps(schema))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{slug}: input_schema must be plain JSON ({exc})") from exc
    return copied


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
