"""LangChain tools from a Composio Tool Router session.

The public API is re-exported here; implementation lives in private modules.
"""

from langchain_toolrouter._version import __version__
from langchain_toolrouter.client import AsyncToolRouterClient, ToolRouterClient

__all__ = ["AsyncToolRouterClient", "ToolRouterClient", "__version__"]
