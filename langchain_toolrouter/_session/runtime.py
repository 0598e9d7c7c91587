"""What every object of a router's sessions receives: its clients and settings, never the router.

Sessions, their tools, files, search and toolkits hold a `Runtime`; only `ToolRouter` builds
one and closes it. So nothing below the router points back at it, and no module of the session
layer imports `session.py`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from langchain_toolrouter._answers import DEFAULT_MAX_CONTENT_CHARS
from langchain_toolrouter._session.loop_clients import LoopClients
from langchain_toolrouter.client import AsyncToolRouterClient, ToolRouterClient

if TYPE_CHECKING:
    from langchain_toolrouter.schema import ConversionOptions
    from langchain_toolrouter.tools import NameStyle

__all__ = ["Runtime", "ToolOptions"]


@dataclass(frozen=True)
class ToolOptions:
    """How a router's tools are built and answer (see `ToolRouter`'s arguments)."""

    name_style: NameStyle = "exact"
    schema_options: ConversionOptions | None = None
    max_content_chars: int = DEFAULT_MAX_CONTENT_CHARS
    raise_errors: bool = False


class Runtime:
    """The clients and settings of one router, shared by everything its sessions hand out.

    Attributes:
        client: The sync client.
        storage_client / astorage_client: The caller's httpx clients for presigned file URLs
            (`None`: a key-less client per transfer).
        tools: How tools are built and answer.
    """

    __slots__ = (
        "__weakref__",
        "_aclients",
        "_closer",
        "astorage_client",
        "client",
        "storage_client",
        "tools",
    )

    def __init__(
        self,
        client: ToolRouterClient,
        aclients: LoopClients,
        *,
        storage_client: httpx.Client | None,
        astorage_client: httpx.AsyncClient | None,
        tools: ToolOptions,
    ) -> None:
        self.client = client
        self._aclients = aclients
        self.storage_client = storage_client
        self.astorage_client = astorage_client
        self.tools = tools
        # Whatever still uses the clients (a session, a tool) holds this runtime: once nothing
        # does, the pools are closed, so a router that was never closed leaks no socket.
        self._closer = weakref.finalize(self, _close, client, aclients)

    @property
    def aclient(self) -> AsyncToolRouterClient:
        """The async client of the running event loop, opened on first use."""
        return self._aclients.get()

    @property
    def api_version(self) -> str:
        """The API version in use (`v3` or `v3.1`)."""
        return self.client.settings.api_version

    @property
    def base_url(self) -> str:
        """The service root."""
        return self.client.settings.base_url

    def close(self) -> None:
        """Close the clients opened for this runtime (see `ToolRouter.close`)."""
        self._closer()

    async def aclose(self) -> None:
        """Close the clients, waiting for the running loop's async client."""
        self._closer.detach()
        self.client.close()
        await self._aclients.aclose()


def _close(client: ToolRouterClient, aclients: LoopClients) -> None:
    client.close()
    aclients.close_nowait()
