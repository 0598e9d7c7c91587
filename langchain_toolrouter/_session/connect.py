"""Connections as flows: a session's toolkits with their state, and waiting for one to be ACTIVE."""

from __future__ import annotations

import time

from langchain_toolrouter._session.flows import Flow, Sleep, pages
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.errors import ConnectionFailedError, ConnectionTimeoutError
from langchain_toolrouter.types import ToolkitInfo, ToolkitList

__all__ = ["ENDED", "toolkits", "wait_until_connected"]

ENDED = frozenset(("FAILED", "EXPIRED"))
"""Account statuses that waiting cannot turn into ACTIVE."""


def toolkits(
    session_id: str,
    *,
    connected: bool | None = None,
    search: str | None = None,
    slugs: list[str] | None = None,
) -> Flow[ToolkitList]:
    """The session's toolkits (every page) with the user's connection state."""
    items = yield from pages(
        ToolRouterClient.iter_toolkits,
        session_id,
        is_connected=connected,
        search=search,
        toolkits=slugs,
    )
    return ToolkitList.from_items(items)


def wait_until_connected(
    session_id: str, toolkit: str, *, timeout: float, poll_interval: float
) -> Flow[ToolkitInfo]:
    """Poll `toolkit`'s state until it is connected (or needs no auth).

    Raises:
        ValueError: the session has no such toolkit.
        ConnectionFailedError: the account ended `FAILED` or `EXPIRED` (no use waiting).
        ConnectionTimeoutError: not connected after `timeout` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        listed = yield from toolkits(session_id, slugs=[toolkit])
        info = listed.get(toolkit)
        if info is None:
            msg = f"toolkit {toolkit!r} is not part of session {session_id}"
            raise ValueError(msg)
        status = (info.status or "").upper()
        if info.connected is False and status in ENDED:
            raise ConnectionFailedError(toolkit, status)
        if info.connected is not False:
            return info
        if time.monotonic() >= deadline:
            raise ConnectionTimeoutError(toolkit, timeout, info.status)
        yield Sleep(min(poll_interval, max(0.0, deadline - time.monotonic())))
