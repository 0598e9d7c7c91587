"""Small value classes a session hands out: toolkits with connection state, links, MCP config.

Each prints cleanly and renders as HTML in Jupyter. `McpConfig` holds the API key in its
headers (only when the MCP URL has the service's origin), so its repr shows header names only.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from langchain_toolrouter._display import NamedList, html_table, text_table
from langchain_toolrouter.wire.models import LinkResponse, ToolkitItem

__all__ = ["ConnectionLink", "McpConfig", "ToolkitInfo", "ToolkitList", "mcp_config", "same_origin"]

_log = logging.getLogger("langchain_toolrouter")

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


def same_origin(url: str, other: str) -> bool:
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


def mcp_config(url: str, type_: str, base_url: str, auth_headers: Mapping[str, str]) -> McpConfig:
    """The MCP config, with `auth_headers` only for a same-origin URL (wire reference section 9)."""
    if same_origin(url, base_url):
        return McpConfig(url=url, type=type_.lower(), headers=dict(auth_headers))
    _log.warning(
        "the session's MCP URL (%s) is not on the API's origin; auth headers are left out so "
        "the API key is not sent there",
        urlsplit(url).netloc,
    )
    return McpConfig(url=url, type=type_.lower(), headers={})


def toolkit_list(items: Iterable[ToolkitItem]) -> ToolkitList:
    """A `ToolkitList` from `list_toolkits` items."""
    return ToolkitList(ToolkitInfo.from_item(item) for item in items)
