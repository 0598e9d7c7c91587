"""`Catalog`: the toolkits and tools an emulator serves, by slug; `default_catalog()`.

The building blocks (`CatalogTool`, `Toolkit`, `ToolContext`, ...) live in `definitions`, which
the toolkit modules build on; they are re-exported here, where a custom catalog is assembled:

    Catalog([Toolkit(slug="crm", ..., tools=(CatalogTool(..., input_schema={...}),))])
"""

from __future__ import annotations

from urllib.parse import urlsplit

from langchain_toolrouter.emulator.definitions import (
    OUTPUT_SCHEMA,
    TAGS,
    CatalogTool,
    ProxyRoute,
    ToolContext,
    ToolFailure,
    Toolkit,
    format_validation_error,
    tool_factory,
)
from langchain_toolrouter.emulator.toolkits import BUILT_IN

__all__ = [
    "OUTPUT_SCHEMA",
    "TAGS",
    "Catalog",
    "CatalogTool",
    "ProxyRoute",
    "ToolContext",
    "ToolFailure",
    "Toolkit",
    "default_catalog",
    "format_validation_error",
    "split_origin",
    "tool_factory",
]


def split_origin(url: str) -> tuple[str, str, str]:
    """Scheme, host and the rest (path, query) of an absolute URL; scheme and host lower-cased
    (they are case-insensitive, RFC 3986 section 6.2.2.1), the rest kept as given."""
    parts = urlsplit(url)
    rest = parts._replace(scheme="", netloc="").geturl()
    return parts.scheme.lower(), parts.netloc.lower(), rest


class Catalog:
    """Toolkits and tools by slug (tool lookup is case-insensitive, as in the service).

    Raises:
        ValueError: two toolkits or tools with one slug, a tool declared in another toolkit,
            or a proxy route naming an unknown tool.
    """

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
        """The toolkit whose fake upstream serves this absolute URL (scheme and host in any
        case), or None."""
        scheme, host, rest = split_origin(url)
        for toolkit in self.toolkits.values():
            up_scheme, up_host, up_rest = split_origin(toolkit.upstream.rstrip("/"))
            if (scheme, host) != (up_scheme, up_host):
                continue
            if rest == up_rest or rest.startswith(up_rest + "/"):
                return toolkit
        return None


def default_catalog() -> Catalog:
    """The built-in catalog: github, gmail, googlecalendar (auth) and notes (no auth)."""
    return Catalog(list(BUILT_IN))
