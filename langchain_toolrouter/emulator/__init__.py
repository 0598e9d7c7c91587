"""A local Tool Router emulator: the service's wire format, offline (an optional extra).

Start one for tests or notebooks with `EmulatorServer`, or build the ASGI app with `create_app`
and drive it in-process (Starlette's `TestClient`, `httpx.ASGITransport`). From a shell:
`python -m langchain_toolrouter.emulator` (or `toolrouter-emulator`).

Needs `starlette`, `uvicorn` and `bm25s`: `pip install "langchain-toolrouter[emulator]"`.
The library's runtime path never imports this package.
"""

from __future__ import annotations

try:
    import bm25s  # noqa: F401
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"The Tool Router emulator needs the 'emulator' extra ({exc.name} is missing): "
        'pip install "langchain-toolrouter[emulator]"'
    ) from exc

from langchain_toolrouter.emulator.app import DEFAULT_API_KEY, create_app
from langchain_toolrouter.emulator.catalog import Catalog, default_catalog
from langchain_toolrouter.emulator.context import EmulatorState
from langchain_toolrouter.emulator.faults import FaultRule, Faults, RequestLog, RequestRecord
from langchain_toolrouter.emulator.server import EmulatorServer
from langchain_toolrouter.emulator.store import Store

__all__ = [
    "DEFAULT_API_KEY",
    "Catalog",
    "EmulatorServer",
    "EmulatorState",
    "FaultRule",
    "Faults",
    "RequestLog",
    "RequestRecord",
    "Store",
    "create_app",
    "default_catalog",
]
