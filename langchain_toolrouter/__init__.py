"""LangChain tools from a Composio Tool Router session.

The public API is re-exported here; implementation lives in private modules.
"""

from langchain_toolrouter._version import __version__

__all__ = ["__version__"]
