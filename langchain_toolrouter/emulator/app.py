"""`create_app`: the emulator as a Starlette app, its route table and its error rendering.

Every operation is served under `/api/v3/tool_router/...` and `/api/v3.1/tool_router/...` by the
same handler (the handler reads the version from the path where it matters: v3 keeps custom
tools with the session, v3.1 does not). Routes are declared in one list; errors are rendered in
one place as the service's error body.
"""

from __future__ import annotations

import os
import secrets
import tempfile
import weakref
from collections.abc import Callable, Coroutine, Iterable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from langchain_toolrouter._arguments import check_integer, check_number, describe
from langchain_toolrouter.emulator import handlers
from langchain_toolrouter.emulator.catalog import Catalog, default_catalog
from langchain_toolrouter.emulator.context import EmulatorState
from langchain_toolrouter.emulator.errors import EmulatorError
from langchain_toolrouter.emulator.faults import FaultRule, Faults, RequestLog, fault_rules
from langchain_toolrouter.emulator.middleware import FaultMiddleware, request_id_of
from langchain_toolrouter.emulator.mounts import MountStore
from langchain_toolrouter.emulator.store import Store

__all__ = ["API_PREFIXES", "DEFAULT_API_KEY", "build_routes", "create_app"]

#: Path prefixes served (the spec's v3 and the official client's v3.1).
API_PREFIXES = ("/api/v3/tool_router", "/api/v3.1/tool_router")
#: The key `create_app()` accepts when none is given (an emulator is not a secret store).
DEFAULT_API_KEY = "ak_emulator_local"

Endpoint = Callable[[Request], Coroutine[Any, Any, Response]]

#: (operation, method, path under the prefix, handler) for every API operation.
OPERATIONS: tuple[tuple[str, str, str, Endpoint], ...] = (
    ("create_session", "POST", "/session", handlers.create_session),
    ("get_session", "GET", "/session/{session_id}", handlers.get_session),
    ("patch_session", "PATCH", "/session/{session_id}", handlers.patch_session),
    ("delete_session", "DELETE", "/session/{session_id}", handlers.delete_session),
    ("attach_session", "POST", "/session/{session_id}/attach", handlers.attach_session),
    ("config_history", "GET", "/session/{session_id}/config_history", handlers.config_history),
    ("execute", "POST", "/session/{session_id}/execute", handlers.execute),
    ("execute_meta", "POST", "/session/{session_id}/execute_meta", handlers.execute_meta),
    ("create_link", "POST", "/session/{session_id}/link", handlers.create_link),
    ("proxy_execute", "POST", "/session/{session_id}/proxy_execute", handlers.proxy_execute),
    ("list_toolkits", "GET", "/session/{session_id}/toolkits", handlers.list_toolkits),
    ("list_tools", "GET", "/session/{session_id}/tools", handlers.list_tools),
    ("search", "POST", "/session/{session_id}/search", handlers.search),
    (
        "list_mount_items",
        "GET",
        "/session/{session_id}/mounts/{mount_id}/items",
        handlers.list_mount_items,
    ),
    (
        "create_download_url",
        "POST",
        "/session/{session_id}/mounts/{mount_id}/download_url",
        handlers.create_download_url,
    ),
    (
        "create_upload_url",
        "POST",
        "/session/{session_id}/mounts/{mount_id}/upload_url",
        handlers.create_upload_url,
    ),
    (
        "delete_mount_item",
        "POST",
        "/session/{session_id}/mounts/{mount_id}/delete",
        handlers.delete_mount_item,
    ),
)

_FILES = "/_emulator/files/{session_id}/{mount_id}/{path:path}"


def build_routes() -> list[BaseRoute]:
    """The whole route table: API operations under both prefixes, then the emulator's own
    browser/presigned routes (which take no API key)."""
    routes: list[BaseRoute] = [
        Route(prefix + path, handler, methods=[method], name=operation)
        for prefix in API_PREFIXES
        for operation, method, path, handler in OPERATIONS
    ]
    routes += [
        Route(
            "/_emulator/connect/{link_token}",
            handlers.connect_account,
            methods=["GET"],
            name="connect_account",
        ),
        Route(_FILES, handlers.presigned_upload, methods=["PUT"], name="presigned_upload"),
        Route(_FILES, handlers.presigned_download, methods=["GET"], name="presigned_download"),
        Route(
            "/tool_router/{session_id}/mcp",
            handlers.mcp_unavailable,
            methods=["GET", "POST", "DELETE"],
            name="mcp",
        ),
    ]
    return routes


def _error_response(request: Request, error: EmulatorError) -> JSONResponse:
    request_id = request_id_of(request.scope)
    body = {
        "error": {
            "message": error.message,
            "code": error.code,
            "slug": error.slug,
            "status": error.status,
            "request_id": request_id,
            "suggested_fix": error.suggested_fix,
            "errors": error.errors,
        }
    }
    headers = {"x-request-id": request_id, **error.headers}
    return JSONResponse(body, status_code=error.status, headers=headers)


async def _on_emulator_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, EmulatorError)
    return _error_response(request, exc)


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        error = EmulatorError(
            405,
            "ToolRouterV2_MethodNotAllowed",
            4050,
            f"{request.method} is not allowed on {request.url.path}.",
            suggested_fix="Check the HTTP method of this operation in the API reference.",
            headers=dict(exc.headers or {}),
        )
    else:
        error = EmulatorError(
            exc.status_code,
            "ToolRouterV2_RouteNotFound" if exc.status_code == 404 else "ToolRouterV2_HTTPError",
            exc.status_code * 10,
            f"No operation at {request.method} {request.url.path}."
            if exc.status_code == 404
            else str(exc.detail),
            suggested_fix="Use a path under /api/v3/tool_router or /api/v3.1/tool_router.",
        )
    return _error_response(request, error)


async def _on_crash(request: Request, exc: Exception) -> Response:
    error = EmulatorError(
        500,
        "ToolRouterV2_InternalServerError",
        4340,
        f"The emulator failed while handling this request: {type(exc).__name__}: {exc}",
        suggested_fix="This is an emulator bug; report it with the request_id.",
    )
    return _error_response(request, error)


_KEYS_EXAMPLE = "e.g. api_keys=['ak_test'] or {'ak_a': 'project-a', 'ak_b': 'project-b'}"


def _key_map(api_keys: Any) -> dict[str, str]:
    """The accepted keys and their projects, each a non-empty string.

    Raises:
        TypeError: `api_keys` is not a string, an iterable of strings or a mapping of strings.
        ValueError: no key, or an empty one.
    """
    if isinstance(api_keys, str):
        api_keys = [api_keys]  # one key, not its characters
    keys: dict[str, str]
    if isinstance(api_keys, Mapping):
        pairs = list(api_keys.items())
        bad = [(k, v) for k, v in pairs if not isinstance(k, str) or not isinstance(v, str)]
        if bad:
            key, project = bad[0]
            raise TypeError(
                "create_app(api_keys=...) maps each key (a string) to its project name (a "
                f"string), got {describe(key)} -> {describe(project)}; {_KEYS_EXAMPLE}"
            )
        keys = dict(pairs)
        if any(not project for project in keys.values()):
            raise ValueError(
                f"create_app(api_keys=...) needs a non-empty project name per key; {_KEYS_EXAMPLE}"
            )
    elif isinstance(api_keys, Iterable) and not isinstance(api_keys, bytes | bytearray):
        given = list(api_keys)
        for key in given:
            if not isinstance(key, str):
                raise TypeError(
                    f"create_app(api_keys=...) takes string keys, got {describe(key)}; "
                    f"{_KEYS_EXAMPLE}"
                )
        keys = {key: f"project_{i}" for i, key in enumerate(given)}
    else:
        raise TypeError(
            "create_app(api_keys=...) takes a key, a list of keys or a mapping key -> project, "
            f"got {describe(api_keys)}; {_KEYS_EXAMPLE}"
        )
    if not keys or any(not key for key in keys):
        raise ValueError(
            "create_app(api_keys=...) needs at least one non-empty key, e.g. "
            "api_keys=['ak_test'] or {'ak_a': 'project-a', 'ak_b': 'project-b'}"
        )
    return keys


def _secret(signing_secret: Any) -> bytes:
    """The HMAC key of presigned URLs: bytes as given, a string UTF-8 encoded, random if None.

    Raises:
        TypeError: neither bytes, str nor None.
        ValueError: empty (an empty key signs nothing; None gets a random one).
    """
    if signing_secret is None:
        return secrets.token_bytes(32)
    if isinstance(signing_secret, str):
        signing_secret = signing_secret.encode()
    if not isinstance(signing_secret, bytes | bytearray):
        raise TypeError(
            "create_app(signing_secret=...) takes bytes or a str (UTF-8 encoded), got "
            f"{describe(signing_secret)}; e.g. signing_secret=b'my-secret', or None for a "
            "random one"
        )
    if not signing_secret:
        raise ValueError(
            "create_app(signing_secret=...) must not be empty; give some bytes (e.g. "
            "b'my-secret') or None for a random one"
        )
    return bytes(signing_secret)


def _data_root(data_dir: Any) -> Path | None:
    """`data_dir` as a directory path (None: a temporary one).

    Raises:
        TypeError: not a str or path.
        ValueError: it names something that is not a directory.
    """
    if data_dir is None:
        return None
    if not isinstance(data_dir, str | os.PathLike):
        raise TypeError(
            f"create_app(data_dir=...) takes a directory path (str or Path), got "
            f"{describe(data_dir)}; or None for a temporary directory"
        )
    if not str(data_dir):
        raise ValueError(
            "create_app(data_dir=...) is an empty path; give a directory (e.g. "
            "data_dir='emulator-files'), or None for a temporary one"
        )
    root = Path(data_dir)
    if root.exists() and not root.is_dir():
        raise ValueError(
            f"create_app(data_dir=...) must be a directory, but {str(root)!r} is a file; give a "
            "directory (it is created if missing) or None for a temporary one"
        )
    return root


def create_app(
    *,
    api_keys: Iterable[str] | Mapping[str, str] | str = (DEFAULT_API_KEY,),
    store: Store | None = None,
    faults: Faults | list[FaultRule] | None = None,
    seed: int = 0,
    data_dir: str | Path | None = None,
    catalog: Catalog | None = None,
    url_ttl: float = 900.0,
    signing_secret: bytes | str | None = None,
) -> Starlette:
    """Build the emulator app.

    Args:
        api_keys: accepted `x-api-key` values: one key, a list (each key its own project), or
            a mapping key -> project name (keys of one project see the same sessions).
        store: state to serve (shared between apps, or pre-filled); a fresh one by default.
        faults: a `Faults` to mutate at runtime, or a list of `FaultRule`s (one rule goes in a
            list too: `faults=[FaultRule(...)]`).
        seed: seeds ids and fault probabilities, so runs repeat exactly.
        data_dir: where mount files live; a temporary directory (removed with the app) if None.
        catalog: the toolkits served; `default_catalog()` if None.
        url_ttl: lifetime of presigned URLs, in seconds (> 0).
        signing_secret: HMAC key of presigned URLs: bytes, or a str (UTF-8 encoded); random
            per app if None.

    Raises:
        TypeError, ValueError: an option of the wrong type or out of range; the message names
            the option and what to pass instead (checked here, not on the first request).

    The state is reachable as `app.state.emulator` (`EmulatorState`: store, mounts, faults,
    log). Serve it with `EmulatorServer(app=...)`, or in-process through
    `httpx.Client(transport=sync_transport(app))` / `httpx.AsyncClient(transport=async_transport(app))`
    as our clients' `http_client`.
    """
    keys = _key_map(api_keys)
    check_integer("create_app(seed=...)", seed, hint="e.g. seed=0")
    ttl = check_number(
        "create_app(url_ttl=...)", url_ttl, positive=True, hint="give seconds, e.g. url_ttl=900"
    )
    secret = _secret(signing_secret)
    root = _data_root(data_dir)
    if catalog is not None and not isinstance(catalog, Catalog):
        raise TypeError(
            f"create_app(catalog=...) takes a Catalog, got {describe(catalog)}; e.g. "
            "catalog=default_catalog(), or None"
        )
    if store is None:
        store = Store(catalog or default_catalog(), seed=seed)
    elif not isinstance(store, Store):
        raise TypeError(
            f"create_app(store=...) takes a Store, got {describe(store)}; e.g. "
            "store=Store(default_catalog()), or None for a fresh one"
        )
    elif catalog is not None and catalog is not store.catalog:
        raise ValueError("create_app: pass catalog= or store=, not both (the store has a catalog)")
    if not isinstance(faults, Faults):
        faults = Faults(fault_rules("create_app(faults=...)", faults), seed=seed)
    cleanup: tempfile.TemporaryDirectory[str] | None = None
    if root is None:
        cleanup = tempfile.TemporaryDirectory(prefix="toolrouter-emulator-")
        root = Path(cleanup.name)
    else:
        root.mkdir(parents=True, exist_ok=True)
    mounts = MountStore(root, secret=secret, url_ttl=ttl)
    log = RequestLog()
    routes = build_routes()
    app = Starlette(
        routes=routes,
        middleware=[Middleware(FaultMiddleware, faults=faults, log=log, routes=routes)],
        exception_handlers={
            EmulatorError: _on_emulator_error,
            HTTPException: _on_http_error,
            Exception: _on_crash,
        },
    )
    app.state.emulator = EmulatorState(
        api_keys=keys, store=store, mounts=mounts, faults=faults, log=log
    )
    if cleanup is not None:
        weakref.finalize(app, cleanup.cleanup)
    return app
