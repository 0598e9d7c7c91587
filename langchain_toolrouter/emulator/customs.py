"""Custom tools and toolkits: slug rules, validation and the echoes returned on create/attach.

The service's rules: a user slug matches `^[A-Za-z0-9_-]+$` and does not start
with `LOCAL_` or `COMPOSIO_`; the final slug is `LOCAL_<TOOL>`, `LOCAL_<EXTENDED_TOOLKIT>_<TOOL>`
or `LOCAL_<CUSTOM_TOOLKIT>_<TOOL>`, upper-cased, at most 60 characters; `extends_toolkit` must be
a catalog toolkit and a custom toolkit slug must not clash with one; `input_schema` must be an
object schema with `properties`. The emulator never runs custom tools: execution belongs to the
client.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from langchain_toolrouter.emulator.catalog import Catalog
from langchain_toolrouter.emulator.errors import bad_request
from langchain_toolrouter.wire.models import (
    CustomToolDefinition,
    CustomToolEcho,
    CustomToolkitDefinition,
    CustomToolkitEcho,
    CustomToolkitToolDefinition,
    CustomToolkitToolEcho,
)

__all__ = ["MAX_SLUG_LENGTH", "CustomTool", "resolve_customs"]

MAX_SLUG_LENGTH = 60
_USER_SLUG = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class CustomTool:
    """A custom tool known to one request: final slug, owning toolkit and its definition."""

    slug: str
    original_slug: str
    toolkit: str
    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    extends_toolkit: str | None


def _check_slug(slug: str, where: str, problems: list[str]) -> None:
    if not _USER_SLUG.match(slug):
        problems.append(f"{where}.slug: {slug!r} must match ^[A-Za-z0-9_-]+$")
    if slug.upper().startswith(("LOCAL_", "COMPOSIO_")):
        problems.append(f"{where}.slug: {slug!r} must not start with LOCAL_ or COMPOSIO_")


def _check_schema(schema: dict[str, Any], where: str, problems: list[str]) -> None:
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        problems.append(f"{where}.input_schema: must be an object schema with 'properties'")


def _final(parts: list[str], where: str, problems: list[str]) -> str:
    slug = "_".join(["LOCAL", *parts]).upper()
    if len(slug) > MAX_SLUG_LENGTH:
        problems.append(
            f"{where}.slug: final slug {slug} is {len(slug)} characters; the limit is "
            f"{MAX_SLUG_LENGTH}"
        )
    return slug


def resolve_customs(
    catalog: Catalog,
    tools: list[CustomToolDefinition],
    toolkits: list[CustomToolkitDefinition],
) -> tuple[list[CustomTool], list[CustomToolEcho], list[CustomToolkitEcho]]:
    """Validate inline custom definitions and compute their final slugs and echoes.

    Raises:
        EmulatorError: 400 `ToolRouterV2_BadRequest` listing every problem found.
    """
    problems: list[str] = []
    resolved: list[CustomTool] = []
    tool_echoes: list[CustomToolEcho] = []
    toolkit_echoes: list[CustomToolkitEcho] = []
    for i, tool in enumerate(tools):
        where = f"experimental.custom_tools.{i}"
        _check_slug(tool.slug, where, problems)
        _check_schema(tool.input_schema, where, problems)
        extends = tool.extends_toolkit
        if extends is not None and catalog.toolkit(extends) is None:
            problems.append(
                f"{where}.extends_toolkit: {extends!r} is not a toolkit of this service "
                f"(known: {', '.join(sorted(catalog.toolkits))})"
            )
        parts = [extends, tool.slug] if extends else [tool.slug]
        final = _final(parts, where, problems)
        resolved.append(
            CustomTool(
                slug=final,
                original_slug=tool.slug,
                toolkit=(extends or "custom").lower(),
                name=tool.name,
                description=tool.description,
                input_schema=tool.input_schema,
                output_schema=tool.output_schema,
                extends_toolkit=extends.lower() if extends else None,
            )
        )
        tool_echoes.append(
            CustomToolEcho(
                slug=final,
                original_slug=tool.slug,
                name=tool.name,
                description=tool.description,
                input_schema=tool.input_schema,
                output_schema=tool.output_schema,
                extends_toolkit=extends,
                preload=tool.preload,
            )
        )
    for i, kit in enumerate(toolkits):
        where = f"experimental.custom_toolkits.{i}"
        _check_slug(kit.slug, where, problems)
        if catalog.toolkit(kit.slug) is not None:
            problems.append(f"{where}.slug: {kit.slug!r} clashes with a toolkit of this service")
        members: list[CustomToolkitToolEcho] = []
        for j, member in enumerate(kit.tools):
            member_where = f"{where}.tools.{j}"
            _check_toolkit_tool(member, member_where, problems)
            final = _final([kit.slug, member.slug], member_where, problems)
            resolved.append(
                CustomTool(
                    slug=final,
                    original_slug=member.slug,
                    toolkit=kit.slug.lower(),
                    name=member.name,
                    description=member.description,
                    input_schema=member.input_schema,
                    output_schema=member.output_schema,
                    extends_toolkit=None,
                )
            )
            members.append(
                CustomToolkitToolEcho(
                    slug=final,
                    original_slug=member.slug,
                    name=member.name,
                    description=member.description,
                    input_schema=member.input_schema,
                    output_schema=member.output_schema,
                    preload=member.preload,
                )
            )
        toolkit_echoes.append(
            CustomToolkitEcho(
                slug=kit.slug,
                name=kit.name,
                description=kit.description,
                tools=members,
                preload=kit.preload,
            )
        )
    seen: set[str] = set()
    for tool_ in resolved:
        if tool_.slug in seen:
            problems.append(f"custom tool slug {tool_.slug} is defined twice")
        seen.add(tool_.slug)
    if problems:
        raise bad_request(
            "Invalid custom tool definitions: " + "; ".join(problems),
            suggested_fix="Use slugs of letters, digits, '_' and '-' without a LOCAL_/COMPOSIO_ "
            "prefix, keep final slugs within 60 characters, give every input_schema "
            "type 'object' with 'properties', and extend only existing toolkits.",
            errors=problems,
        )
    return resolved, tool_echoes, toolkit_echoes


def _check_toolkit_tool(tool: CustomToolkitToolDefinition, where: str, problems: list[str]) -> None:
    _check_slug(tool.slug, where, problems)
    _check_schema(tool.input_schema, where, problems)
