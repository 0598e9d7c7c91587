"""The tools a session lists (`GET .../tools`, MCP `tools/list`), built once and reused.

A tool's listing item depends on the catalog tool alone, so its JSON is built once per app; the
list of a session's tools depends on its config, so it is kept per session and config version
(a PATCH makes a new version). A page of `GET .../tools` is then a slice of ready items, however
many tools the session has, instead of every item being built again for every page.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from langchain_toolrouter.emulator.policy import meta_tools, preloaded_tools
from langchain_toolrouter.emulator.presenters import dump, meta_tool_item, tool_item
from langchain_toolrouter.emulator.store import SessionRecord

if TYPE_CHECKING:
    from langchain_toolrouter.emulator.context import EmulatorState

__all__ = ["ToolListings", "session_tool_items"]


class ToolListings:
    """Listing items by tool slug, and each recent session's list of them (a bounded LRU)."""

    def __init__(self, sessions_kept: int = 64) -> None:
        self._items: dict[str, dict[str, Any]] = {}
        self._sessions: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
        self._sessions_kept = sessions_kept
        self._lock = threading.Lock()

    def _item(self, state: EmulatorState, slug: str) -> dict[str, Any]:
        item = self._items.get(slug)
        if item is None:
            tool = state.catalog.tools.get(slug)
            if tool is None:
                item = dump(meta_tool_item(slug))
            else:
                item = dump(tool_item(tool, state.catalog.toolkits[tool.toolkit]))
            self._items[slug] = item
        return item

    def session(self, state: EmulatorState, record: SessionRecord) -> list[dict[str, Any]]:
        """The session's tools as `GET .../tools` lists them: meta tools, then preloaded app
        tools. The items are shared: read them, never change them."""
        with state.store.lock:  # the config and its version of one moment
            key = (record.id, record.config_version)
            config = record.config
        with self._lock:
            cached = self._sessions.get(key)
            if cached is not None:
                self._sessions.move_to_end(key)
                return cached
        slugs = meta_tools(config) + [t.slug for t in preloaded_tools(config, state.catalog)]
        with self._lock:
            items = [self._item(state, slug) for slug in slugs]
            self._sessions[key] = items
            while len(self._sessions) > self._sessions_kept:
                self._sessions.popitem(last=False)
        return items


def session_tool_items(state: EmulatorState, record: SessionRecord) -> list[dict[str, Any]]:
    """The session's listed tools, as JSON items (shared: read only)."""
    return state.listings.session(state, record)
