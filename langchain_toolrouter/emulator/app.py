"""`create_app`: the emulator as a Starlette app, its route table and its error rendering.

The API routes are the operations of `wire.operations` (the table the library's clients send
from), each served under `/api/v3` and `/api/v3.1` by one handler (the handler reads the version
from the path where it matters: v3 keeps custom tools with the session, v3.1 does not); the
emulator's own routes (`routes.OWN_ROUTES`) sit beside them. Errors are rendered in one place as
the service's error body.
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
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp

from langchain_toolrouter._arguments import check_integer, check_number, describe
from langchain_toolrouter.emulator import handlers, project
from langchain_toolrouter.emulator.catalog import Catalog, default_catalog
from langchain_toolrouter.emulator.context import EmulatorState
from langchain_toolrouter.emulator.defaults import DEFAULT_LOG_SIZE, DEFAULT_MAX_BODY_BYTES
from langchain_toolrouter.emulator.errors import EmulatorError, error_body
from langchain_toolrouter.emulator.faults import FaultRule, Faults, RequestLog, fault_rules
from langchain_toolrouter.emulator.limits import BodyLimitMiddleware
from langchain_toolrouter.emulator.mcp_server import McpEndpoint, lifespan
from langchain_toolrouter.emulator.middleware import FaultMiddleware, request_id_of
from langchain_toolrouter.emulator.mounts import MountStore
from langchain_toolrouter.emulator.routes import API_VERSIONS, OWN_ROUTES, ROUTE_NAMES
from langchain_toolrouter.emulator.store import Store
from langchain_toolrouter.wire.operations import ALL_OPERATIONS

__all__ = ["DEFAULT_API_KEY", "build_routes", "create_app"]

#: The key `create_app()` accepts when none is given (an emulator is not a secret store).
DEFAULT_API_KEY = "ak_emulator_local"
#: The longest lifetime of a presigned URL, in seconds (S3's limit, 7 days).
MAX_URL_TTL = 7 * 24 * 3600
#: How many requests the request log keeps by default (the oldest go first).

Endpoint = Callable[[Request], Coroutine[Any, Any, Response]]

#: The handler of every route, by route name (`routes.ROUTE_NAMES`).
HANDLERS: Mapping[str, Endpoint | ASGIApp] = {
    "create_session": handlers.create_session,
    "get_session": handlers.get_session,
    "update_session": handlers.update_session,
    "delete_session": handlers.delete_session,
    "attach": handlers.attach,
    "list_config_history": handlers.list_config_history,
    "execute": handlers.execute,
    "execute_meta": handlers.execute_meta,
    "create_link": handlers.create_link,
    "proxy_execute": handlers.proxy_execute,
    "list_toolkits": handlers.list_toolkits,
    "list_tools": handlers.list_tools,
    "search": handlers.search,
    "list_mount_items": handlers.list_mount_items,
    "create_download_url": handlers.create_download_url,
    "create_upload_url": handlers.create_upload_url,
    "delete_mount_item": handlers.delete_mount_item,
    "get_connected_account": project.get_connected_account,
    "get_toolkit": project.get_toolkit,
    "connect_account": handlers.connect_account,
    "presigned_upload": handlers.presigned_upload,
    "presigned_download": handlers.presigned_download,
    "mcp": McpEndpoint(),
    "openapi": handlers.openapi,
}
if HANDLERS.keys() != ROUTE_NAMES:  # pragma: no cover - a route added without its handler
    raise RuntimeError(f"routes without a handler: {sorted(ROUTE_NAMES - HANDLERS.keys())}")


def build_routes() -> list[BaseRoute]:
    """The whole route table: the API operations under both versions, then the emulator's own
    routes (connect pages and presigned files take no API key)."""
    routes: list[BaseRoute] = [
        Route(f"/api/{version}{op.path}", HANDLERS[op.name], methods=[op.method], name=op.name)
        for version in API_VERSIONS
        for op in ALL_OPERATIONS
    ]
    routes += [
        Route(path, HANDLERS[route.name], methods=list(route.methods), name=route.name)
        for route in OWN_ROUTES
        for path in route.paths()
    ]
    return routes


def _error_response(request: Request, error: EmulatorError) -> JSONResponse:
    request_id = request_id_of(request.scope)
    headers = {"x-request-id": request_id, **error.headers}
    return JSONResponse(error_body(error, request_id), status_code=error.status, headers=headers)


async def _on_emulator_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, EmulatorError)
    return _error_response(request, exc)


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        allowed = _allowed_methods(request)
        error = EmulatorError(
            405,
            "ToolRouterV2_MethodNotAllowed",
            4050,
            f"{request.method} is not allowed on {request.url.path}; it takes {allowed}.",
            suggested_fix="Check the HTTP method of this operation in the API reference.",
            headers={"allow": allowed},
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


def _allowed_methods(request: Request) -> str:
    """Every method served at the request's path (Starlette names only the first route's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match is not Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


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
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    log_size: int = DEFAULT_LOG_SIZE,
    access_log: bool = False,
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
        url_ttl: lifetime of presigned URLs, in seconds (> 0, at most 7 days).
        signing_secret: HMAC key of presigned URLs: bytes, or a str (UTF-8 encoded); random
            per app if None.
        max_body_bytes: the largest request body accepted (4 MiB by default); a larger one is
            answered 413 before it is read. Presigned file uploads have their own limit
            (100 MB), checked as they stream in.
        log_size: how many requests the request log keeps (the oldest are dropped first).
        access_log: log one line per request (method, path, status, milliseconds) on the
            `langchain_toolrouter.emulator.access` logger at INFO (the CLI prints them).

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
    if ttl > MAX_URL_TTL:
        raise ValueError(
            f"create_app(url_ttl=...) must be at most {MAX_URL_TTL} seconds (7 days, as for S3 "
            f"presigned URLs), got {url_ttl}"
        )
    secret = _secret(signing_secret)
    check_integer(
        "create_app(max_body_bytes=...)",
        max_body_bytes,
        minimum=1,
        hint="give bytes, e.g. max_body_bytes=4 * 1024 * 1024",
    )
    check_integer("create_app(log_size=...)", log_size, minimum=1, hint="e.g. log_size=10_000")
    if not isinstance(access_log, bool):
        raise TypeError(
            f"create_app(access_log=...) takes True or False, got {describe(access_log)}"
        )
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
    log = RequestLog(maxlen=log_size)
    routes = build_routes()
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(
                FaultMiddleware, faults=faults, log=log, routes=routes, access_log=access_log
            ),
            Middleware(BodyLimitMiddleware, max_bytes=max_body_bytes),
        ],
        lifespan=lifespan,
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
