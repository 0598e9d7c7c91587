"""What a session config allows: toolkits, tools, tags, preload and which meta tools exist.

The service's rules: a toolkit allowlist or denylist; per-toolkit tool
lists or tag filters; global tags (`enabled`: at least one of them, `disabled`: none of them);
toolkit-level tags override global ones and explicit tool lists win over tags. Meta tools appear
unless their switch is off (search, multi-execute, manage connections, workbench), and
`COMPOSIO_WAIT_FOR_CONNECTIONS` only when asked for.
"""

from __future__ import annotations

from langchain_toolrouter.emulator.catalog import Catalog
from langchain_toolrouter.emulator.definitions import CatalogTool
from langchain_toolrouter.wire.models import SessionConfig, TagsConfig

__all__ = [
    "META_TOOLS",
    "allowed_tools",
    "meta_tools",
    "preloaded_tools",
    "tool_allowed",
    "toolkit_allowed",
]

#: Every meta tool the emulator knows, in the order the service lists them.
META_TOOLS = (
    "COMPOSIO_SEARCH_TOOLS",
    "COMPOSIO_GET_TOOL_SCHEMAS",
    "COMPOSIO_MULTI_EXECUTE_TOOL",
    "COMPOSIO_MANAGE_CONNECTIONS",
    "COMPOSIO_WAIT_FOR_CONNECTIONS",
    "COMPOSIO_REMOTE_WORKBENCH",
    "COMPOSIO_REMOTE_BASH_TOOL",
)


def toolkit_allowed(config: SessionConfig, toolkit: str) -> bool:
    """Whether the session's toolkit allow/deny list lets `toolkit` through."""
    return _Rules(config).toolkit(toolkit)


def _tags_pass(tags: TagsConfig | None, tool_tags: tuple[str, ...]) -> bool:
    if tags is None:
        return True
    if tags.enabled and not set(tags.enabled) & set(tool_tags):
        return False
    return not (tags.disabled and set(tags.disabled) & set(tool_tags))


class _Rules:
    """A session config's allow and deny lists, read once (lower-cased toolkit slugs,
    upper-cased tool slugs) and then asked about any number of tools."""

    def __init__(self, config: SessionConfig) -> None:
        self.config = config
        rule = config.toolkits
        self.enabled: frozenset[str] | None = None
        self.disabled: frozenset[str] | None = None
        if rule is not None and rule.enabled is not None:
            self.enabled = frozenset(t.lower() for t in rule.enabled)
        elif rule is not None and rule.disabled is not None:
            self.disabled = frozenset(t.lower() for t in rule.disabled)
        self.per_toolkit = {key.lower(): value for key, value in (config.tools or {}).items()}
        self.tool_lists = {
            key: (
                None if value.enabled is None else frozenset(s.upper() for s in value.enabled),
                frozenset(s.upper() for s in value.disabled or ()),
            )
            for key, value in self.per_toolkit.items()
        }

    def toolkit(self, toolkit: str) -> bool:
        if self.enabled is not None:
            return toolkit in self.enabled
        return self.disabled is None or toolkit not in self.disabled

    def __call__(self, tool: CatalogTool) -> bool:
        if not self.toolkit(tool.toolkit):
            return False
        per_toolkit = self.per_toolkit.get(tool.toolkit)
        if per_toolkit is not None:
            enabled, disabled = self.tool_lists[tool.toolkit]
            if enabled is not None:
                return tool.slug in enabled
            if tool.slug in disabled:
                return False
            if per_toolkit.tags is not None:
                return _tags_pass(per_toolkit.tags, tool.tags)
        return _tags_pass(self.config.tags, tool.tags)


def tool_allowed(config: SessionConfig, tool: CatalogTool) -> bool:
    """Whether the session may use a catalog tool (search, execute, schemas, preload)."""
    return _Rules(config)(tool)


def allowed_tools(config: SessionConfig, catalog: Catalog) -> list[CatalogTool]:
    """Every catalog tool the session may use, in catalog order (the config read once)."""
    allows = _Rules(config)
    return [tool for tool in catalog.tools.values() if allows(tool)]


def preloaded_tools(config: SessionConfig, catalog: Catalog) -> list[CatalogTool]:
    """App tools listed by `GET .../tools` beside the meta tools (`preload.tools`)."""
    preload = config.preload
    if preload is None:
        return []
    if preload.tools == "all":
        return allowed_tools(config, catalog)
    wanted = {slug.upper() for slug in preload.tools}
    return [t for t in allowed_tools(config, catalog) if t.slug in wanted]


def meta_tools(config: SessionConfig) -> list[str]:
    """The meta tools this session exposes, in service order."""
    search = config.search is None or config.search.enable is not False
    multi = config.execute is None or config.execute.enable_multi_execute is not False
    manage = config.manage_connections
    manage_on = manage is None or manage.enabled is not False
    wait_on = manage is not None and manage.enable_wait_for_connections is True
    workbench = config.workbench is None or config.workbench.enable is not False
    present = {
        "COMPOSIO_SEARCH_TOOLS": search,
        "COMPOSIO_GET_TOOL_SCHEMAS": search,
        "COMPOSIO_MULTI_EXECUTE_TOOL": multi,
        "COMPOSIO_MANAGE_CONNECTIONS": manage_on,
        "COMPOSIO_WAIT_FOR_CONNECTIONS": wait_on,
        "COMPOSIO_REMOTE_WORKBENCH": workbench,
        "COMPOSIO_REMOTE_BASH_TOOL": workbench,
    }
    return [slug for slug in META_TOOLS if present[slug]]
