"""What every object of a router's sessions receives: its clients and settings, never the router.

Sessions, their tools, files, search and toolkits hold a `Runtime`; only `ToolRouter` builds
one and closes it. So nothing below the router points back at it, and no module of the session
layer imports `session.py`.
"""

from __future__ import annotations

import importlib.util
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import httpx

from langchain_toolrouter._arguments import check_number
from langchain_toolrouter._session.loop_clients import LoopClients
from langchain_toolrouter._session.render import DEFAULT_MAX_CONTENT_CHARS
from langchain_toolrouter.client import AsyncToolRouterClient, ToolRouterClient
from langchain_toolrouter.errors import ConfigurationError

if TYPE_CHECKING:
    from langchain_toolrouter.schema import ConversionOptions
    from langchain_toolrouter.tools import NameStyle
    from langchain_toolrouter.types import ConnectionRequest

__all__ = [
    "ConnectionPolicy",
    "OnConnectionRequired",
    "Runtime",
    "ToolOptions",
    "connection_policy",
]

OnConnectionRequired = Literal["message", "interrupt", "wait"]
"""What a tool does when its call needs an account the user has not connected."""


@dataclass(frozen=True)
class ConnectionPolicy:
    """How a session's tools handle "connect first" (see `ToolRouter`'s arguments).

    Attributes:
        mode: `"message"`: answer the model with the link; `"interrupt"`: pause the LangGraph
            run with the link and carry on when it is resumed; `"wait"`: hand the link to
            `on_link` and wait for the account.
        timeout: Seconds to wait for the account to be ACTIVE (`"interrupt"` after the
            resume, `"wait"` after `on_link`).
        on_link: Called with the `ConnectionRequest` in `"wait"` mode (default: a WARNING
            on the `langchain_toolrouter` logger); may be async for async calls.
        poll_interval: Seconds between two looks at the account's state.
    """

    mode: OnConnectionRequired = "message"
    timeout: float = 300.0
    on_link: Callable[[ConnectionRequest], Any] | None = None
    poll_interval: float = 1.0


def connection_policy(
    base: ConnectionPolicy,
    *,
    on_connection_required: object = None,
    connection_timeout: object = None,
    on_link: object = None,
) -> ConnectionPolicy:
    """`base` with the options given (`None`: keep `base`'s), each checked.

    Raises:
        ConfigurationError: an unknown mode, `"interrupt"` without langgraph installed, a
            timeout that is not a number >= 0, or an `on_link` that is not callable.
    """
    mode = base.mode if on_connection_required is None else on_connection_required
    if mode not in ("message", "interrupt", "wait"):
        raise ConfigurationError(
            f"on_connection_required must be 'message' (the model gets the connect link), "
            f"'interrupt' (a LangGraph run pauses until the user connects) or 'wait' (the "
            f"call waits for the account); got {mode!r}"
        )
    if mode == "interrupt" and importlib.util.find_spec("langgraph") is None:
        raise ConfigurationError(
            "on_connection_required='interrupt' needs langgraph: "
            "pip install 'langchain-toolrouter[langgraph]'"
        )
    timeout = base.timeout
    if connection_timeout is not None:
        try:
            timeout = check_number(
                "connection_timeout (seconds)", connection_timeout, minimum=0, infinite=True
            )
        except (TypeError, ValueError) as exc:
            raise ConfigurationError(str(exc)) from None
    if on_link is not None and not callable(on_link):
        raise ConfigurationError(
            f"on_link must be a callable taking a ConnectionRequest (or None to log the link "
            f"at WARNING); got {type(on_link).__name__}"
        )
    return ConnectionPolicy(
        mode=mode,
        timeout=timeout,
        on_link=on_link or base.on_link,
        poll_interval=base.poll_interval,
    )


@dataclass(frozen=True)
class ToolOptions:
    """How a router's tools are built and answer (see `ToolRouter`'s arguments)."""

    name_style: NameStyle = "exact"
    schema_options: ConversionOptions | None = None
    max_content_chars: int = DEFAULT_MAX_CONTENT_CHARS
    raise_errors: bool = False
    connection: ConnectionPolicy = field(default_factory=ConnectionPolicy)


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
