"""LangChain tools from a Composio Tool Router session.

The public API is re-exported here and loaded on first use, so that importing one layer
(`langchain_toolrouter.wire`, the emulator) loads neither the others nor LangChain.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from langchain_toolrouter._version import __version__

if TYPE_CHECKING:
    from langchain_toolrouter._session.connections import connect_links
    from langchain_toolrouter.client import AsyncToolRouterClient, ToolRouterClient
    from langchain_toolrouter.custom_tools import (
        CustomTool,
        CustomToolContext,
        CustomToolkit,
        custom_tool,
    )
    from langchain_toolrouter.middleware import ToolRouterMiddleware
    from langchain_toolrouter.search import ToolRetriever, ToolSearch
    from langchain_toolrouter.session import ToolRouter, ToolRouterSession
    from langchain_toolrouter.toolkit import ToolRouterToolkit
    from langchain_toolrouter.tools import ToolRouterTool

__all__ = [
    "AsyncToolRouterClient",
    "CustomTool",
    "CustomToolContext",
    "CustomToolkit",
    "ToolRetriever",
    "ToolRouter",
    "ToolRouterClient",
    "ToolRouterMiddleware",
    "ToolRouterSession",
    "ToolRouterTool",
    "ToolRouterToolkit",
    "ToolSearch",
    "__version__",
    "connect_links",
    "custom_tool",
]

_HOMES = {
    "AsyncToolRouterClient": "langchain_toolrouter.client",
    "ToolRouterClient": "langchain_toolrouter.client",
    "CustomTool": "langchain_toolrouter.custom_tools",
    "CustomToolContext": "langchain_toolrouter.custom_tools",
    "CustomToolkit": "langchain_toolrouter.custom_tools",
    "custom_tool": "langchain_toolrouter.custom_tools",
    "ToolRetriever": "langchain_toolrouter.search",
    "ToolSearch": "langchain_toolrouter.search",
    "ToolRouter": "langchain_toolrouter.session",
    "ToolRouterSession": "langchain_toolrouter.session",
    "ToolRouterToolkit": "langchain_toolrouter.toolkit",
    "ToolRouterTool": "langchain_toolrouter.tools",
    "ToolRouterMiddleware": "langchain_toolrouter.middleware",
    "connect_links": "langchain_toolrouter._session.connections",
}


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (then it is a plain attribute)."""
    home = _HOMES.get(name)
    if home is None:
        msg = f"module 'langchain_toolrouter' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
