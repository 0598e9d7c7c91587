"""Build response models (the library's wire models) from emulator state.

Every field the official generated client declares as required is filled, so its typed models
parse the emulator's answers unchanged.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel

from langchain_toolrouter.emulator.definitions import CatalogTool, Toolkit
from langchain_toolrouter.emulator.policy import meta_tools, preloaded_tools
from langchain_toolrouter.emulator.store import ConnectedAccount, SessionRecord, Store
from langchain_toolrouter.wire.models import (
    CustomToolEcho,
    CustomToolkitEcho,
    McpServer,
    Session,
    SessionExperimental,
    SessionWarning,
    ToolkitAuthConfig,
    ToolkitConnectedAccount,
    ToolkitItem,
    ToolkitMeta,
    ToolSchema,
    ToolToolkitRef,
)

__all__ = [
    "dump",
    "meta_tool_definition",
    "meta_tool_item",
    "session_payload",
    "tool_item",
    "toolkit_item",
]

#: Above this many preloaded tools a session carries the service's context-usage warning.
PRELOAD_WARNING_THRESHOLD = 20


def dump(model: BaseModel) -> dict[str, Any]:
    """JSON-ready dict with wire spellings (`hasFullSchema`, ...) and no null fields."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


@cache
def _meta_definitions() -> dict[str, Any]:
    text = resources.files("langchain_toolrouter.emulator").joinpath("meta_tools.json").read_text()
    data: dict[str, Any] = _without_provenance(json.loads(text)["meta_tools"])
    return data


def _without_provenance(value: Any) -> Any:
    """``value`` without the ``x_source`` notes: they say where the file's schemas came from,
    for us; the service serves no such key, and a model shown them reads them as instructions."""
    if isinstance(value, dict):
        return {k: _without_provenance(v) for k, v in value.items() if k != "x_source"}
    if isinstance(value, list):
        return [_without_provenance(v) for v in value]
    return value


def meta_tool_definition(slug: str) -> dict[str, Any]:
    """Name, description and input schema of a meta tool."""
    definition: dict[str, Any] = _meta_definitions()[slug]
    return definition


def _deprecated(logo: str, version: str) -> dict[str, Any]:
    return {
        "available_versions": [version],
        "displayName": "",
        "is_deprecated": False,
        "toolkit": {"logo": logo},
        "version": version,
    }


def meta_tool_item(slug: str) -> ToolSchema:
    """A meta tool as `GET .../tools` lists it."""
    definition = meta_tool_definition(slug)
    logo = "https://logos.composio.dev/api/composio"
    version = "20260101_00"
    return ToolSchema(
        slug=slug,
        name=definition["name"],
        description=definition["description"],
        human_description=definition["description"],
        input_parameters=definition["input_schema"],
        output_parameters={"type": "object", "properties": {}},
        toolkit=ToolToolkitRef(slug="composio", name="Composio", logo=logo),
        tags=list(definition.get("tags", [])),
        scopes=[],
        no_auth=True,
        version=version,
        available_versions=[version],
        is_deprecated=False,
        deprecated=_deprecated(logo, version),
    )


def tool_item(tool: CatalogTool, toolkit: Toolkit) -> dict[str, Any]:
    """An app tool as `GET .../tools` lists it, as JSON (the `ToolSchema` fields, built
    directly: validating thousands of schemas into models is what made big listings slow)."""
    return {
        "slug": tool.slug,
        "name": tool.name,
        "description": tool.description,
        "human_description": tool.description,
        "input_parameters": tool.input_schema,
        "output_parameters": tool.output_schema,
        "toolkit": {"slug": toolkit.slug, "name": toolkit.name, "logo": toolkit.logo},
        "tags": list(tool.tags),
        "scopes": list(tool.scopes),
        "no_auth": toolkit.no_auth,
        "version": tool.version,
        "available_versions": [tool.version],
        "is_deprecated": False,
        "deprecated": _deprecated(toolkit.logo, tool.version),
    }


def toolkit_item(
    toolkit: Toolkit, *, enabled: bool, account: ConnectedAccount | None
) -> ToolkitItem:
    """A toolkit as `GET .../toolkits` lists it, with its connected account if any."""
    connected = None
    if account is not None:
        connected = ToolkitConnectedAccount(
            id=account.id,
            user_id=account.user_id,
            status=account.status,
            created_at=account.created_at,
            auth_config=ToolkitAuthConfig(
                id=account.auth_config_id, auth_scheme=account.auth_scheme, is_composio_managed=True
            ),
        )
    return ToolkitItem(
        slug=toolkit.slug,
        name=toolkit.name,
        enabled=enabled,
        is_no_auth=toolkit.no_auth,
        composio_managed_auth_schemes=toolkit.managed_auth_schemes,
        meta=ToolkitMeta(description=toolkit.description, logo=toolkit.logo),
        connected_account=connected,
    )


def exposed_tool_slugs(record: SessionRecord, store: Store) -> list[str]:
    """`tool_router_tools`: the meta tools plus preloaded app tools."""
    preloaded = [t.slug for t in preloaded_tools(record.config, store.catalog)]
    return meta_tools(record.config) + preloaded


def session_payload(
    record: SessionRecord,
    store: Store,
    base_url: str,
    *,
    assistive_prompt: bool = False,
    custom_tools: list[CustomToolEcho] | None = None,
    custom_toolkits: list[CustomToolkitEcho] | None = None,
) -> Session:
    """The session object of create/get/attach/update."""
    experimental = None
    if assistive_prompt or custom_tools or custom_toolkits:
        experimental = SessionExperimental(
            assistive_prompt=record.assistive_prompt if assistive_prompt else None,
            custom_tools=custom_tools or None,
            custom_toolkits=custom_toolkits or None,
        )
    preloaded = preloaded_tools(record.config, store.catalog)
    warnings = []
    if len(preloaded) > PRELOAD_WARNING_THRESHOLD:
        warnings.append(
            SessionWarning(
                code="PRELOAD_TOOLS_HIGH_CONTEXT_USAGE",
                message=f"{len(preloaded)} tools are preloaded; their schemas use much of the "
                "model's context. Prefer search, or preload fewer tools.",
            )
        )
    return Session(
        session_id=record.id,
        mcp=McpServer(type="http", url=f"{base_url}tool_router/{record.id}/mcp"),
        tool_router_tools=exposed_tool_slugs(record, store),
        config=record.config,
        config_version=record.config_version,
        experimental=experimental,
        warnings=warnings,
    )
