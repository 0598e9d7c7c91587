"""What the session layer hands back: results, tool lists, toolkits, links, MCP and files.

Each prints as a readable table (HTML in Jupyter) and is plain data underneath. Lists of named
things (`ToolList`, `ToolkitList`) also find an item by name: `tools["GITHUB_STAR_A_REPO"]`.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, SupportsIndex, TypeVar, overload
from urllib.parse import urlsplit

from langchain_core.tools import BaseTool

from langchain_toolrouter._display import html_table, not_found, text_table, tools_html, tools_text
from langchain_toolrouter.wire.models import LinkResponse, MountItem, SearchResponse, ToolkitItem

__all__ = [
    "ConnectionLink",
    "ConnectionRequest",
    "McpConfig",
    "MountItemList",
    "NamedList",
    "ToolList",
    "ToolOutcome",
    "ToolSearchResult",
    "ToolkitInfo",
    "ToolkitList",
]

_log = logging.getLogger("langchain_toolrouter")
_T = TypeVar("_T")


# --------------------------------------------------------------------------- tool results


@dataclass(frozen=True)
class ToolOutcome:
    """The result of one tool call, whoever ran it.

    Attributes:
        successful: Whether the tool did what was asked.
        data: The tool's output (any JSON value; usually an object).
        error: The failure text when `successful` is false.
        log_id: The service's execution log id (`""` for calls run locally).
        extra: Further fields of the service's answer (e.g. `result_type`), kept as given.
    """

    successful: bool
    data: Any = None
    error: str | None = None
    log_id: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_wire(cls, body: Mapping[str, Any]) -> ToolOutcome:
        """Read an execute-shaped answer: `{data, error, log_id, result_type?, ...}`.

        Success is `result_type == "completed"` when the service sends a result type, and
        otherwise the absence of an error (the official client reads it the same way).
        """
        result_type = body.get("result_type")
        error = body.get("error") or None
        if result_type is not None:
            successful = result_type == "completed"
        elif "successful" in body:
            successful = bool(body["successful"])
        else:
            successful = error is None
        if not successful and error is None:
            error = _incomplete_reason(body)
        known = {"data", "error", "log_id", "successful"}
        return cls(
            successful=successful,
            data=body.get("data"),
            error=None if successful else str(error),
            log_id=str(body.get("log_id") or ""),
            extra={k: v for k, v in body.items() if k not in known},
        )

    def as_dict(self) -> dict[str, Any]:
        """The full result as plain data: `{successful, data, error, log_id, ...extra}`."""
        return {
            "successful": self.successful,
            "data": self.data,
            "error": self.error,
            "log_id": self.log_id,
            **self.extra,
        }


def _incomplete_reason(body: Mapping[str, Any]) -> str:
    """Why a run without an error text did not complete (blocked, needs input, ...)."""
    result_type = body.get("result_type")
    if result_type == "blocked":
        return f"the call was blocked: {body.get('message') or body.get('reason') or 'no reason given'}"
    if result_type == "input_required":
        requests = body.get("input_requests")
        asks = (
            [str(r.get("message")) for r in requests.values() if isinstance(r, Mapping)]
            if isinstance(requests, Mapping)
            else []
        )
        detail = "; ".join(a for a in asks if a and a != "None") or "no details given"
        return f"the tool needs more input from the user: {detail}"
    return f"the tool did not complete (result_type={result_type!r})"


# --------------------------------------------------------------------------- tool lists


class NamedList(list[_T]):
    """A list whose items are also found by name: `items["name"]` and `"name" in items`."""

    _kind: ClassVar[str] = "item"

    def get(self, name: str) -> _T | None:  # pragma: no cover - every subclass has its own
        """The item called `name`, else `None`."""
        raise NotImplementedError

    def _names(self) -> list[str]:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    @overload
    def __getitem__(self, key: SupportsIndex) -> _T: ...
    @overload
    def __getitem__(self, key: slice) -> list[_T]: ...
    @overload
    def __getitem__(self, key: str) -> _T: ...
    def __getitem__(self, key: SupportsIndex | slice | str) -> _T | list[_T]:
        """`items[0]` as for any list; `items["name"]` finds by name (as `get` does) and
        raises a `KeyError` naming what is here (and the closest name) when there is none."""
        if isinstance(key, str):
            found = self.get(key)
            if found is None:
                raise not_found(self._kind, key, self._names())
            return found
        return super().__getitem__(key)

    def __contains__(self, item: object) -> bool:
        """`"name" in items` asks by name (as `get` does); an item, as for any list."""
        if isinstance(item, str):
            return self.get(item) is not None
        return super().__contains__(item)


class ToolList(NamedList[BaseTool]):
    """A list of tools that prints as a table (HTML in Jupyter) and finds tools by name."""

    caption: str | None = None
    _kind = "tool"

    @property
    def names(self) -> list[str]:
        """The tools' names, in order."""
        return [tool.name for tool in self]

    def get(self, name: str) -> BaseTool | None:
        """The tool called `name` (or whose slug is `name`), else `None`."""
        for tool in self:
            if tool.name == name or getattr(tool, "slug", None) == name:
                return tool
        return None

    def _names(self) -> list[str]:
        return self.names

    def _repr_html_(self) -> str:
        return tools_html(self, caption=self.caption or f"{len(self)} tools")

    def __str__(self) -> str:
        return tools_text(self, caption=self.caption or f"{len(self)} tools")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.names!r})"


_SEARCH_HEADERS = ("name", "toolkit", "primary", "connected", "description")


class ToolSearchResult(ToolList):
    """The tools a search found (primary first, then related), ready to bind to a model.

    Attributes:
        query: The use case searched for.
        primary: Names of the primary tools.
        connected: Toolkit slug -> whether the user has an active connection, as the
            service's `has_active_connection` says (`True` for no-auth toolkits and custom
            tools, which need none; `None` only when the service left it out).
        response: The service's whole search answer (plans, pitfalls, guidance).
    """

    def __init__(
        self,
        tools: Iterable[BaseTool],
        *,
        query: str,
        primary: Iterable[str],
        connected: Mapping[str, bool | None],
        response: SearchResponse | None,
    ) -> None:
        super().__init__(tools)
        self.query = query
        self.primary = frozenset(primary)
        self.connected: dict[str, bool | None] = dict(connected)
        self.response = response
        self.caption = f"{len(self)} tools for {query!r}"

    def _rows(self) -> list[tuple[Any, ...]]:
        rows = []
        for tool in self:
            toolkit = (tool.metadata or {}).get("toolkit") or ""
            state = self.connected.get(toolkit)
            rows.append(
                (
                    tool.name,
                    toolkit,
                    "yes" if tool.name in self.primary else "",
                    "" if state is None else ("yes" if state else "no"),
                    tool.description,
                )
            )
        return rows

    def _repr_html_(self) -> str:
        return html_table(_SEARCH_HEADERS, self._rows(), caption=self.caption)

    def __str__(self) -> str:
        return text_table(_SEARCH_HEADERS, self._rows(), caption=self.caption)


# --------------------------------------------------------------------------- toolkits, links, MCP


ACTIVE = "ACTIVE"


@dataclass(frozen=True)
class ToolkitInfo:
    """A toolkit of the session and the user's connection to it.

    Attributes:
        slug: Toolkit slug (`github`).
        name: Display name.
        is_no_auth: True when the toolkit needs no connection.
        connected: True when an ACTIVE account exists; `None` for no-auth toolkits.
        connected_account_id: The account's id, when there is one (even if not active yet).
        status: The account status as the service gave it (`ACTIVE`, `INITIATED`, ...).
        description: The toolkit's description.
    """

    slug: str
    name: str
    is_no_auth: bool
    connected: bool | None
    connected_account_id: str | None = None
    status: str | None = None
    description: str | None = None

    @classmethod
    def from_item(cls, item: ToolkitItem) -> ToolkitInfo:
        """Read a `list_toolkits` item (status compared case-insensitively)."""
        account = item.connected_account
        no_auth = bool(item.is_no_auth)
        status = account.status if account is not None else None
        return cls(
            slug=item.slug,
            name=item.name or item.slug,
            is_no_auth=no_auth,
            connected=None if no_auth else (status or "").upper() == ACTIVE,
            connected_account_id=account.id if account is not None else None,
            status=status,
            description=item.meta.description if item.meta is not None else None,
        )


_TOOLKIT_HEADERS = ("toolkit", "name", "connection", "account")


def _state(info: ToolkitInfo) -> str:
    if info.connected is None:
        return "no auth needed"
    if info.connected:
        return "connected"
    return f"not connected ({info.status.lower()})" if info.status else "not connected"


class ToolkitList(NamedList[ToolkitInfo]):
    """Toolkits with their connection state; prints as a table; found by slug (any case)."""

    _kind = "toolkit"

    @classmethod
    def from_items(cls, items: Iterable[ToolkitItem]) -> ToolkitList:
        """A list from `list_toolkits` items."""
        return cls(ToolkitInfo.from_item(item) for item in items)

    def get(self, slug: str) -> ToolkitInfo | None:
        """The toolkit with this slug (case-insensitive), else `None`."""
        for info in self:
            if info.slug.lower() == slug.lower():
                return info
        return None

    def _names(self) -> list[str]:
        return [info.slug for info in self]

    def _rows(self) -> list[tuple[str, str, str, str]]:
        return [(t.slug, t.name, _state(t), t.connected_account_id or "") for t in self]

    def _repr_html_(self) -> str:
        return html_table(_TOOLKIT_HEADERS, self._rows(), caption=f"{len(self)} toolkits")

    def __str__(self) -> str:
        return text_table(_TOOLKIT_HEADERS, self._rows(), caption=f"{len(self)} toolkits")

    def __repr__(self) -> str:
        return f"ToolkitList({[t.slug for t in self]!r})"


@dataclass(frozen=True)
class ConnectionLink:
    """A started connection: send the user to `redirect_url`.

    Attributes:
        toolkit: The toolkit being connected.
        redirect_url: Where the user authorizes the connection.
        connected_account_id: The new account (status INITIATED until the user finishes).
        link_token: The link's token (`lt_...`), when given.
    """

    toolkit: str
    redirect_url: str
    connected_account_id: str
    link_token: str | None = None

    @classmethod
    def from_response(cls, toolkit: str, response: LinkResponse) -> ConnectionLink:
        """Read a `create_link` answer."""
        return cls(
            toolkit=toolkit,
            redirect_url=response.redirect_url,
            connected_account_id=response.connected_account_id,
            link_token=response.link_token,
        )

    def _repr_html_(self) -> str:
        url = html.escape(self.redirect_url, quote=True)
        # Only http(s) becomes a clickable link (a `javascript:` URL must not run on a click).
        is_web = urlsplit(self.redirect_url).scheme.lower() in ("http", "https")
        link = f"<a href='{url}' target='_blank' rel='noopener'>{url}</a>" if is_web else url
        return (
            f"Connect <b>{html.escape(self.toolkit)}</b>: {link} "
            f"(account {html.escape(self.connected_account_id)})"
        )


@dataclass(frozen=True)
class ConnectionRequest:
    """A tool call is waiting for the user to connect accounts: what to show them.

    What `on_connection_required="wait"` hands to `on_link`, and (as `as_payload()`) the
    value of the LangGraph interrupt with `on_connection_required="interrupt"`.

    Attributes:
        toolkits: The toolkits to connect (slugs).
        redirect_urls: Toolkit slug -> the link the user opens to connect it.
        user_id: The session's user.
        session_id: The session.
        tool: The tool whose call waits.
        message: One line a UI can show.
    """

    toolkits: tuple[str, ...]
    redirect_urls: Mapping[str, str]
    user_id: str
    session_id: str
    tool: str
    message: str

    @classmethod
    def of(
        cls, tool: str, links: Mapping[str, str], *, user_id: str, session_id: str
    ) -> ConnectionRequest:
        """The request for `links` (toolkit -> redirect URL), with its message."""
        names = " and ".join(links)
        shown = "; ".join(f"{toolkit}: {url}" for toolkit, url in links.items())
        return cls(
            toolkits=tuple(links),
            redirect_urls=dict(links),
            user_id=user_id,
            session_id=session_id,
            tool=tool,
            message=f"Connect {names} to continue ({tool}): open {shown}",
        )

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> ConnectionRequest:
        """The request of an interrupt payload (`as_payload`'s), as kept by a paused call."""
        urls = payload.get("redirect_urls")
        links = {str(k): str(v) for k, v in urls.items()} if isinstance(urls, Mapping) else {}
        return cls.of(
            str(payload.get("tool", "")),
            links,
            user_id=str(payload.get("user_id", "")),
            session_id=str(payload.get("session_id", "")),
        )

    def as_payload(self) -> dict[str, Any]:
        """The interrupt payload: `type` is `"connection_required"`, then every field, and
        `requests`: one entry a link, shaped as LangChain's MCP elicitation requests
        (`{key, message, mode: "url", url}`), so a UI that renders those serves this too."""
        return {
            "type": "connection_required",
            "toolkits": list(self.toolkits),
            "redirect_urls": dict(self.redirect_urls),
            "user_id": self.user_id,
            "session_id": self.session_id,
            "tool": self.tool,
            "message": self.message,
            "requests": [
                {
                    "key": connect_key(toolkit),
                    "message": f"Connect {toolkit} to continue ({self.tool})",
                    "mode": "url",
                    "url": url,
                }
                for toolkit, url in self.redirect_urls.items()
            ],
        }

    def _repr_html_(self) -> str:
        links = ", ".join(
            f"<a href='{html.escape(url, quote=True)}' target='_blank' rel='noopener'>"
            f"{html.escape(toolkit)}</a>"
            if urlsplit(url).scheme.lower() in ("http", "https")
            else html.escape(f"{toolkit}: {url}")
            for toolkit, url in self.redirect_urls.items()
        )
        return f"Connect {links} to continue ({html.escape(self.tool)})"


def connect_key(toolkit: str) -> str:
    """The key of a connection's entry in a pause's `requests` (answered under that key)."""
    return f"connect:{toolkit}"


def _same_origin(url: str, other: str) -> bool:
    """True when both URLs have the same scheme, host and port."""
    a, b = urlsplit(url), urlsplit(other)

    def port(parts: Any) -> int | None:
        return parts.port or {"http": 80, "https": 443}.get(parts.scheme)

    return (
        a.scheme == b.scheme
        and (a.hostname or "").lower() == (b.hostname or "").lower()
        and port(a) == port(b)
    )


@dataclass(frozen=True)
class McpConfig:
    """How to reach the session over MCP (Streamable HTTP).

    Attributes:
        url: The MCP endpoint (as the service returned it; never built here).
        type: Transport type, lower-cased (`http`).
        headers: Auth headers to send, given only when `url` has the API's origin; empty
            otherwise so the key never goes to another host.
    """

    url: str
    type: str
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return f"McpConfig(url={self.url!r}, type={self.type!r}, headers={sorted(self.headers)!r})"

    @classmethod
    def for_session(
        cls, url: str, type_: str, base_url: str, auth_headers: Mapping[str, str]
    ) -> McpConfig:
        """The MCP config, with `auth_headers` only when `url` has the API's origin (the key
        goes to the service's origin only; a session URL elsewhere gets no headers, and a
        warning)."""
        if _same_origin(url, base_url):
            return cls(url=url, type=type_.lower(), headers=dict(auth_headers))
        _log.warning(
            "the session's MCP URL (%s) is not on the API's origin; auth headers are left out "
            "so the API key is not sent there",
            urlsplit(url).netloc,
        )
        return cls(url=url, type=type_.lower(), headers={})


# --------------------------------------------------------------------------- files


_MOUNT_HEADERS = ("path", "size", "last modified")


class MountItemList(list[MountItem]):
    """Files of a mount; prints as a table."""

    @property
    def paths(self) -> list[str]:
        """The files' mount-relative paths."""
        return [item.mount_relative_path for item in self]

    def _rows(self) -> list[tuple[str, str, str]]:
        return [
            (i.mount_relative_path, "" if i.size is None else str(i.size), i.last_modified or "")
            for i in self
        ]

    def _repr_html_(self) -> str:
        return html_table(_MOUNT_HEADERS, self._rows(), caption=f"{len(self)} files")

    def __str__(self) -> str:
        return text_table(_MOUNT_HEADERS, self._rows(), caption=f"{len(self)} files")
