"""Where each route of the emulator lives and what it is called (names and paths, no handlers).

The API routes are the operations of `wire.operations`, served under `/api/v3` and `/api/v3.1`
with the operation's name, method and path; beside them the emulator serves routes of its own:
the project endpoints the official SDK polls (connected accounts, toolkits), the "browser" page
of connect links, presigned file URLs and each session's MCP endpoint. Fault rules and the
request log name requests by these names.
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain_toolrouter.wire.operations import ALL_OPERATIONS

__all__ = ["API_VERSIONS", "OWN_ROUTES", "ROUTE_NAMES", "OwnRoute"]

#: The API versions served: the spec's v3 and the official client's v3.1.
API_VERSIONS = ("v3", "v3.1")


@dataclass(frozen=True)
class OwnRoute:
    """A route that is not an operation of the library's client."""

    name: str
    methods: tuple[str, ...]
    path: str
    versioned: bool = False
    """Served under `/api/v3` and `/api/v3.1`, as the service's own API paths are."""

    def paths(self) -> list[str]:
        """Every path the route is served at."""
        if not self.versioned:
            return [self.path]
        return [f"/api/{version}{self.path}" for version in API_VERSIONS]


_FILES = "/_emulator/files/{session_id}/{mount_id}/{path:path}"

OWN_ROUTES: tuple[OwnRoute, ...] = (
    OwnRoute("get_connected_account", ("GET",), "/connected_accounts/{account_id}", True),
    OwnRoute("get_toolkit", ("GET",), "/toolkits/{toolkit_slug}", True),
    OwnRoute("connect_account", ("GET",), "/_emulator/connect/{link_token}"),
    OwnRoute("presigned_upload", ("PUT",), _FILES),
    OwnRoute("presigned_download", ("GET",), _FILES),
    # Stateless MCP offers no standalone stream (GET) and no sessions to end (DELETE): both 405,
    # as the streamable HTTP transport allows.
    OwnRoute("mcp", ("POST",), "/tool_router/{session_id}/mcp"),
    OwnRoute("openapi", ("GET",), "/openapi.json"),
)

#: Every route name: the client's operations, then the emulator's own routes.
ROUTE_NAMES: frozenset[str] = frozenset(
    [op.name for op in ALL_OPERATIONS] + [route.name for route in OWN_ROUTES]
)
