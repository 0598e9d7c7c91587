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

Needs `starlette`, `uvicorn`, `wordllama`, `numpy`, `jsonschema` and `mcp`: `pip install
"langchain-toolrouter[emulator]"`; without them, the first name taken from this package raises
an `ImportError` saying so (the package itself imports, so the command can say it in one line).
The library's runtime path never imports this package.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOMES = {
    "DEFAULT_API_KEY": "app",
    "create_app": "app",
    "Catalog": "catalog",
    "CatalogTool": "catalog",
    "ToolContext": "catalog",
    "ToolFailure": "catalog",
    "Toolkit": "catalog",
    "default_catalog": "catalog",
    "EmulatorState": "context",
    "FaultRule": "faults",
    "Faults": "faults",
    "RequestLog": "faults",
    "RequestRecord": "faults",
    "EmulatorServer": "server",
    "Store": "store",
    "async_transport": "transports",
    "sync_transport": "transports",
}


def _findable(name: str) -> bool:
    """Whether `import name` would find a module (a `None` in `sys.modules` blocks it)."""
    if name in sys.modules:
        return sys.modules[name] is not None
    return importlib.util.find_spec(name) is not None


def require_extra() -> None:
    """Raise an `ImportError` naming the extra to install when one of its packages is missing."""
    try:
        import jsonschema  # noqa: F401
        import mcp  # noqa: F401
        import numpy  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401

        # Found, not imported: importing it configures the root logger (see `semantic`).
        if not _findable("wordllama"):
            raise ModuleNotFoundError("No module named 'wordllama'", name="wordllama")
    except ImportError as exc:
        package = (exc.name or "").split(".")[0]
        if isinstance(exc, ModuleNotFoundError) or not package:
            raise ImportError(
                "The Tool Router emulator needs the 'emulator' extra "
                f"({package or 'one of its packages'} is missing): "
                'pip install "langchain-toolrouter[emulator]"'
            ) from exc
        where = exc.path or getattr(sys.modules.get(package), "__file__", None)
        raise ImportError(
            f"The Tool Router emulator could not import {package}: {exc}"
            + (
                f". {package} was loaded from {where}: if that is a file of yours, rename it "
                f"(it hides the {package} package)"
                if where
                else ""
            )
        ) from exc


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    require_extra()
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
