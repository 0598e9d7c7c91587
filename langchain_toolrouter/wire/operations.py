"""The operation table: one row per Tool Router endpoint.

Each :class:`Operation` says how an endpoint is reached (method, path template), what it takes
(request model, sent as a JSON body or as a query string) and returns (response model), whether a
failed attempt may be repeated (:class:`RetryClass`) and which timeout applies. Both clients and
the emulator read this table; adding an endpoint means adding a row and a model.

Paths are relative to ``/api/{version}`` (``v3`` by default; ``v3.1`` is what the official client
sends, and the service serves both).
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from enum import Enum
from typing import Final, Generic, Literal, TypeVar
from urllib.parse import quote

from pydantic import BaseModel

from langchain_toolrouter.wire import models as m

__all__ = [
    "ALL_OPERATIONS",
    "ATTACH",
    "CREATE_DOWNLOAD_URL",
    "CREATE_LINK",
    "CREATE_SESSION",
    "CREATE_UPLOAD_URL",
    "DELETE_MOUNT_ITEM",
    "DELETE_SESSION",
    "EXECUTE",
    "EXECUTE_META",
    "GET_SESSION",
    "LIST_CONFIG_HISTORY",
    "LIST_MOUNT_ITEMS",
    "LIST_TOOLKITS",
    "LIST_TOOLS",
    "OPERATIONS",
    "PROXY_EXECUTE",
    "SEARCH",
    "SPEC_OPERATIONS",
    "UPDATE_SESSION",
    "Operation",
    "RetryClass",
    "TimeoutClass",
]

ResponseT_co = TypeVar("ResponseT_co", bound=BaseModel, covariant=True)


class RetryClass(str, Enum):
    """Whether an operation may be sent again after an ambiguous failure."""

    SAFE = "safe"
    """Repeating it changes nothing: retried on connect errors, timeouts, 429 and 5xx."""
    UNSAFE = "unsafe"
    """It has side effects: retried only when it provably did not run (no connection, or 429)."""


class TimeoutClass(str, Enum):
    """Which of the client's timeouts applies."""

    DEFAULT = "default"
    EXECUTE = "execute"
    """Tool execution (execute, execute_meta, proxy_execute) runs long."""


@dataclass(frozen=True)
class Operation(Generic[ResponseT_co]):
    """One endpoint of the session API.

    Attributes:
        name: the client method name (``get_session``).
        method: HTTP method.
        path: template relative to ``/api/{version}``, e.g. ``/tool_router/session/{session_id}``.
        request_model: model of the body (``request_in="body"``) or query (``"query"``), if any.
        response_model: model of a 2xx body.
        retry: :class:`RetryClass`.
        success_status: the documented success status (the emulator answers it; any 2xx parses).
        timeout: :class:`TimeoutClass`.
        request_in: where the request model goes.
        in_spec: one of the 13 core operations (False for update, delete, attach and config
            history, which the service offers beside them).
        empty_ok: an empty 2xx body means an empty result (a delete with nothing to say);
            elsewhere an empty body is an error, never a default result (an empty execute
            answer must not read as a successful run).
    """

    name: str
    method: Literal["GET", "POST", "PATCH", "DELETE"]
    path: str
    request_model: type[BaseModel] | None
    response_model: type[ResponseT_co]
    retry: RetryClass
    success_status: int = 200
    timeout: TimeoutClass = TimeoutClass.DEFAULT
    request_in: Literal["body", "query"] | None = None
    in_spec: bool = True
    empty_ok: bool = False
    path_params: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        names = tuple(
            name for _, name, _, _ in string.Formatter().parse(self.path) if name is not None
        )
        object.__setattr__(self, "path_params", names)
        if (self.request_model is None) != (self.request_in is None):
            raise ValueError(f"{self.name}: request_model and request_in go together")

    def render_path(self, params: dict[str, str]) -> str:
        """The path with every parameter URL-encoded as one segment (``?`` becomes ``%3F``).

        A ``/`` (or ``\\``) is refused rather than sent as ``%2F``: many servers and proxies
        decode it before routing, so ``"trs_1/tools"`` would reach another endpoint. Ids the
        service hands out (letters, digits, ``_``, ``-``) are sent unchanged.

        Raises:
            ValueError: a parameter is missing, empty or blank, not a string, contains ``/`` or
                ``\\``, or is ``.``/``..`` (a dot segment would be removed by URL
                normalisation and reach another endpoint).
        """
        missing = [name for name in self.path_params if name not in params]
        extra = [name for name in params if name not in self.path_params]
        if missing or extra:
            raise ValueError(
                f"{self.name} takes path parameters {list(self.path_params)}; "
                f"missing {missing}, unexpected {extra}"
            )
        encoded: dict[str, str] = {}
        for name in self.path_params:
            value = params[name]
            fix = _PATH_PARAM_FIX.get(name, f"pass the {name} alone")
            if not isinstance(value, str) or not value.strip():
                raise ValueError(
                    f"{self.name}: {name} must be a non-empty string; got {value!r}; {fix}"
                )
            if value in (".", ".."):
                # URL normalisation would remove the segment and reach another endpoint.
                raise ValueError(f"{self.name}: {name} cannot be {value!r}; {fix}")
            if value != value.strip():
                # Sent as is, it names no session ("not found", with no hint of the spaces).
                raise ValueError(
                    f"{self.name}: {name} {value!r} has spaces around it; pass "
                    f"{value.strip()!r} ({fix})"
                )
            slash = next((char for char in "/\\" if char in value), None)
            if slash is not None:
                raise ValueError(
                    f"{self.name}: {name} {value!r} contains {slash!r}, but it is one segment "
                    f"of the URL path (a server may route a {slash!r} to another endpoint); {fix}"
                )
            encoded[name] = quote(value, safe="")
        return self.path.format(**encoded)


_PATH_PARAM_FIX: Final = {
    "session_id": "pass the session_id create_session returned, such as 'trs_8fJ2kQ'",
    "mount_id": "pass a mount id such as 'files' (the default)",
}
"""How to fix a bad path parameter, by name (said in the error)."""

_SESSION = "/tool_router/session/{session_id}"
_MOUNT = _SESSION + "/mounts/{mount_id}"
_SAFE, _UNSAFE = RetryClass.SAFE, RetryClass.UNSAFE
_LONG = TimeoutClass.EXECUTE

CREATE_SESSION = Operation(
    "create_session",
    "POST",
    "/tool_router/session",
    m.SessionCreateRequest,
    m.Session,
    _UNSAFE,
    success_status=201,
    request_in="body",
)
EXECUTE = Operation(
    "execute",
    "POST",
    _SESSION + "/execute",
    m.ExecuteRequest,
    m.ExecuteResult,
    _UNSAFE,
    timeout=_LONG,
    request_in="body",
)
EXECUTE_META = Operation(
    "execute_meta",
    "POST",
    _SESSION + "/execute_meta",
    m.ExecuteMetaRequest,
    m.ExecuteResult,
    _UNSAFE,
    timeout=_LONG,
    request_in="body",
)
GET_SESSION = Operation("get_session", "GET", _SESSION, None, m.Session, _SAFE)
CREATE_LINK = Operation(
    "create_link",
    "POST",
    _SESSION + "/link",
    m.LinkRequest,
    m.LinkResponse,
    _UNSAFE,
    success_status=201,
    request_in="body",
)
PROXY_EXECUTE = Operation(
    "proxy_execute",
    "POST",
    _SESSION + "/proxy_execute",
    m.ProxyRequest,
    m.ProxyResult,
    _UNSAFE,
    timeout=_LONG,
    request_in="body",
)
LIST_TOOLKITS = Operation(
    "list_toolkits",
    "GET",
    _SESSION + "/toolkits",
    m.ListToolkitsQuery,
    m.ToolkitPage,
    _SAFE,
    request_in="query",
)
LIST_TOOLS = Operation(
    "list_tools",
    "GET",
    _SESSION + "/tools",
    m.ListToolsQuery,
    m.ToolPage,
    _SAFE,
    request_in="query",
)
SEARCH = Operation(
    "search",
    "POST",
    _SESSION + "/search",
    m.SearchRequest,
    m.SearchResponse,
    _SAFE,
    request_in="body",
)
LIST_MOUNT_ITEMS = Operation(
    "list_mount_items",
    "GET",
    _MOUNT + "/items",
    m.ListMountItemsQuery,
    m.MountItemPage,
    _SAFE,
    request_in="query",
)
CREATE_DOWNLOAD_URL = Operation(
    "create_download_url",
    "POST",
    _MOUNT + "/download_url",
    m.MountPathRequest,
    m.DownloadUrl,
    _SAFE,
    request_in="body",
)
CREATE_UPLOAD_URL = Operation(
    "create_upload_url",
    "POST",
    _MOUNT + "/upload_url",
    m.UploadUrlRequest,
    m.UploadUrl,
    _SAFE,
    request_in="body",
)
DELETE_MOUNT_ITEM = Operation(
    "delete_mount_item",
    "POST",
    _MOUNT + "/delete",
    m.MountPathRequest,
    m.MountDeleteResult,
    _SAFE,
    request_in="body",
    empty_ok=True,
)
# Beyond the 13 core operations: these exist in the service too.
UPDATE_SESSION = Operation(
    "update_session",
    "PATCH",
    _SESSION,
    m.SessionUpdateRequest,
    m.Session,
    _UNSAFE,
    request_in="body",
    in_spec=False,
)
DELETE_SESSION = Operation(
    "delete_session", "DELETE", _SESSION, None, m.SessionDeleteResult, _SAFE, in_spec=False
)
ATTACH = Operation(
    "attach",
    "POST",
    _SESSION + "/attach",
    m.AttachRequest,
    m.Session,
    _SAFE,
    request_in="body",
    in_spec=False,
)
LIST_CONFIG_HISTORY = Operation(
    "list_config_history",
    "GET",
    _SESSION + "/config_history",
    m.ListConfigHistoryQuery,
    m.ConfigHistoryPage,
    _SAFE,
    request_in="query",
    in_spec=False,
)

ALL_OPERATIONS: tuple[Operation[BaseModel], ...] = (
    CREATE_SESSION,
    EXECUTE,
    EXECUTE_META,
    GET_SESSION,
    CREATE_LINK,
    PROXY_EXECUTE,
    LIST_TOOLKITS,
    LIST_TOOLS,
    SEARCH,
    LIST_MOUNT_ITEMS,
    CREATE_DOWNLOAD_URL,
    CREATE_UPLOAD_URL,
    DELETE_MOUNT_ITEM,
    UPDATE_SESSION,
    DELETE_SESSION,
    ATTACH,
    LIST_CONFIG_HISTORY,
)
"""Every operation, the 13 core ones first."""

SPEC_OPERATIONS: tuple[Operation[BaseModel], ...] = tuple(op for op in ALL_OPERATIONS if op.in_spec)
OPERATIONS: dict[str, Operation[BaseModel]] = {op.name: op for op in ALL_OPERATIONS}
"""Operations by name."""
