"""A local Tool Router emulator: the service's wire format, offline (an optional extra).

Start one for tests or notebooks with `EmulatorServer`, or build the ASGI app with `create_app`
and drive it in-process: our clients take `httpx.Client(transport=sync_transport(app))` or
`httpx.AsyncClient(transport=async_transport(app))` (Starlette's `TestClient` drives the raw
app, but is not an `httpx.Client` our sync client can use). From a shell:
`python -m langchain_toolrouter.emulator` (or `toolrouter-emulator`). Besides the REST API it
serves MCP at each session's `mcp.url` and the connected-account and toolkit endpoints the
official SDK polls; docs/emulator.md says what it serves, its limits and what it does not do.

Error slugs and codes the service does not document (`ToolRouterV2_SessionNotFound` 4304,
`Emulator_*` slugs, ...) are the emulator's own: match on the HTTP status or the error
class, not on those numbers, when code must also run against the real service.

Needs `starlette`, `uvicorn`, `bm25s`, `jsonschema` and `mcp`: `pip install
"langchain-toolrouter[emulator]"`.
The library's runtime path never imports this package.
"""

from __future__ import annotations

try:
    import bm25s  # noqa: F401
    import jsonschema  # noqa: F401
    import mcp  # noqa: F401
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"The Tool Router emulator needs the 'emulator' extra ({exc.name} is missing): "
        'pip install "langchain-toolrouter[emulator]"'
    ) from exc

from langchain_toolrouter.emulator.app import DEFAULT_API_KEY, create_app
from langchain_toolrouter.emulator.catalog import (
    Catalog,
    CatalogTool,
    ToolContext,
    ToolFailure,
    Toolkit,
    default_catalog,
)
from langchain_toolrouter.emulator.context import EmulatorState
from langchain_toolrouter.emulator.faults import FaultRule, Faults, RequestLog, RequestRecord
from langchain_toolrouter.emulator.server import EmulatorServer
from langchain_toolrouter.emulator.store import Store
from langchain_toolrouter.emulator.transports import async_transport, sync_transport

__all__ = [
    "DEFAULT_API_KEY",
    "Catalog",
    "CatalogTool",
    "EmulatorServer",
    "EmulatorState",
    "FaultRule",
    "Faults",
    "RequestLog",
    "RequestRecord",
    "Store",
    "ToolContext",
    "ToolFailure",
    "Toolkit",
    "async_transport",
    "create_app",
    "default_catalog",
    "sync_transport",
]
