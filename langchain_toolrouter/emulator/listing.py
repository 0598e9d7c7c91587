"""The tools a session lists (`GET .../tools`, MCP `tools/list`) and may use, built once and
reused.

A tool's listing item depends on the catalog tool alone, so its JSON (and its encoding) is built
once per app; the list of a session's tools depends on its config, so it is kept per session and
config version (a PATCH makes a new version). A page of `GET .../tools` is then the encoded
items of a slice joined together, however many tools the session has, instead of every item
being built and encoded again for every page.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_toolrouter.emulator.policy import allowed_tools, meta_tools, preloaded_tools
from langchain_toolrouter.emulator.presenters import dump, meta_tool_item, tool_item
from langchain_toolrouter.emulator.store import SessionRecord, Store
from langchain_toolrouter.wire.models import SessionConfig

if TYPE_CHECKING:
    from langchain_toolrouter.emulator.catalog import Catalog

__all__ = ["Allowed", "SessionTools", "ToolListings", "encode"]

T = TypeVar("T")


def encode(value: Any) -> bytes:
    """JSON as the app's responses encode it (Starlette's `JSONResponse` settings)."""
    return json.dumps(
        value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


@dataclass(frozen=True)
class SessionTools:
    """A session's listed tools: the JSON items (shared: read them, never change them) and
    their encodings, in listing order."""

    items: list[dict[str, Any]]
    encoded: list[bytes]


@dataclass(frozen=True)
class Allowed:
    """The catalog tools a session may use (slugs) and their toolkits."""

    tools: frozenset[str]
    toolkits: frozenset[str]


class ToolListings:
    """Listing items by tool slug, and each recent session's list of them (a bounded LRU)."""

    def __init__(self, sessions_kept: int = 64) -> None:
        self._items: dict[str, tuple[dict[str, Any], bytes]] = {}
        self._sessions: OrderedDict[tuple[str, int], SessionTools] = OrderedDict()
        self._allowed: OrderedDict[tuple[str, int], Allowed] = OrderedDict()
        self._sessions_kept = sessions_kept
        self._lock = threading.Lock()

    def _item(self, catalog: Catalog, slug: str) -> tuple[dict[str, Any], bytes]:
        built = self._items.get(slug)
        if built is None:
            tool = catalog.tools.get(slug)
            if tool is None:
                item = dump(meta_tool_item(slug))
            else:
                item = tool_item(tool, catalog.toolkits[tool.toolkit])
            built = self._items[slug] = (item, encode(item))
        return built

    def _per_version(
        self,
        kept: OrderedDict[tuple[str, int], T],
        store: Store,
        record: SessionRecord,
        build: Callable[[SessionConfig], T],
    ) -> T:
        """What `build` makes of the session's config, kept per session and config version."""
        with store.lock:  # the config and its version of one moment
            key = (record.id, record.config_version)
            config = record.config
        with self._lock:
            cached = kept.get(key)
            if cached is not None:
                kept.move_to_end(key)
                return cached
        value = build(config)
        with self._lock:
            kept[key] = value
            while len(kept) > self._sessions_kept:
                kept.popitem(last=False)
        return value

    def session(self, catalog: Catalog, store: Store, record: SessionRecord) -> SessionTools:
        """The session's tools as `GET .../tools` lists them: meta tools, then preloaded app
        tools."""

        def build(config: SessionConfig) -> SessionTools:
            slugs = meta_tools(config) + [t.slug for t in preloaded_tools(config, catalog)]
            with self._lock:
                built = [self._item(catalog, slug) for slug in slugs]
            return SessionTools([item for item, _ in built], [data for _, data in built])

        return self._per_version(self._sessions, store, record, build)

    def allowed(self, catalog: Catalog, store: Store, record: SessionRecord) -> Allowed:
        """The catalog tools the session's config allows, read once per config version."""

        def build(config: SessionConfig) -> Allowed:
            tools = allowed_tools(config, catalog)
            return Allowed(frozenset(t.slug for t in tools), frozenset(t.toolkit for t in tools))

        return self._per_version(self._allowed, store, record, build)
