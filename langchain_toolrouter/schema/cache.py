"""The conversion cache: the same schema (and options) is converted once per process.

Two levels, checked in order:

1. identity: the very same schema object seen before, and still equal to the content that was
   converted (its first repeat compares the serialization below, later ones a dict lookup and a
   C-level ``==`` with a snapshot, about a microsecond); the object is held, so its ``id``
   cannot be reused. A schema edited in place is converted anew.
2. content: a serialization of the schema as the key (see :func:`canonical_key`), so equal schemas
   from different sessions share one conversion core (effective schema, model-facing schema,
   compiled validator); each tool name gets its own light :class:`Conversion` over it.

Both levels are bounded (least recently used entries are evicted).
"""

from __future__ import annotations

import json
import marshal
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

__all__ = ["LRU", "canonical_key"]

K = TypeVar("K")
V = TypeVar("V")


def canonical_key(schema: Mapping[str, Any]) -> bytes | str:
    """A key equal for structurally identical schemas (same keys in the same order, same values
    of the same JSON types), and different otherwise.

    ``marshal`` format 2 (no back-references, so object sharing does not change the bytes) is
    about 4x faster than ``json.dumps`` and keeps ``1``, ``1.0`` and ``true`` apart; anything it
    cannot write (a dict subclass, a non-JSON value) falls back to JSON text. Key order is kept
    on purpose: property order is part of the model-facing schema.
    """
    try:
        return marshal.dumps(schema, 2)  # type: ignore[arg-type]  # ValueError if it cannot
    except ValueError:
        return json.dumps(schema, separators=(",", ":"), ensure_ascii=False, default=repr)


class LRU(Generic[K, V]):
    """A small thread-safe least-recently-used map."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        value = self._data.get(key)
        if value is not None:
            # not contextlib.suppress: this is the cache's hot path
            try:  # noqa: SIM105
                self._data.move_to_end(key)
            except KeyError:  # evicted by another thread in between
                pass
        return value

    def put(self, key: K, value: V) -> V:
        """Store ``value`` (the most recently used entry now) and return it."""
        with self._lock:
            self._data[key] = value
            if len(self._data) > self.maxsize:
                self._data.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)
