"""LangChain tools from a Composio Tool Router session.

The public API is re-exported here; implementation lives in private modules.
"""

from langchain_toolrouter._version import __version__
from langchain_toolrouter.client import AsyncToolRouterClient, ToolRouterClient
from langchain_toolrouter.custom_tools import (
    CustomTool,
    CustomToolContext,
    CustomToolkit,
    custom_tool,
)
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
    "ToolRouterSession",
    "ToolRouterTool",
    "ToolRouterToolkit",
    "ToolSearch",
    "__version__",
    "custom_tool",
]
