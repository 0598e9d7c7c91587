"""The conversion cache: the same schema (and options) is converted once per process.

Two levels, checked in order:

1. identity: the very same schema object seen before, and still equal to the content that was
   converted (its first repeat compares the serialization below, later ones a dict lookup and a
   C-level ``==`` with a :func:`snapshot`, about a microsecond for most schemas); the object is
   held, so its ``id`` cannot be reused. A schema edited in place is converted anew.
2. content: a serialization of the schema as the key (see :func:`canonical_key`), so equal schemas
   from different sessions share one conversion core (effective schema, model-facing schema,
   compiled validator); each tool name gets its own light :class:`Conversion` over it.

Both levels are bounded (``convert``): the content level evicts the least recently used entry,
the identity level starts afresh when full.
"""

from __future__ import annotations

import copy
import json
import marshal
import pickle
from collections.abc import Mapping
from typing import Any

from langchain_toolrouter.schema.errors import SchemaConversionError

__all__ = ["canonical_key", "content_of", "snapshot"]


class _PlainPickler(pickle.Pickler):
    """Pickles exact JSON-ish builtins only: anything else (a dict subclass, an arbitrary
    object) raises instead of being written as a class reference that ``loads`` would call."""

    def reducer_override(self, obj: Any) -> Any:
        # Called only for objects that are not exact builtins (None, bool, int, float, str,
        # bytes, dict, list, tuple, set...): those are written directly.
        msg = f"not a plain value: {type(obj).__name__}"
        raise ValueError(msg)


class _Chunks(list[bytes]):
    """Where a pickler writes: its output, as the bytes objects it made (no copy)."""

    __slots__ = ()

    @property
    def write(self) -> Any:
        return self.append


def _pickler() -> tuple[_PlainPickler, _Chunks]:
    chunks = _Chunks()
    pickler = _PlainPickler(chunks, 5)
    # Fast mode writes no memo (no back-references), so the bytes depend on the content only,
    # never on which objects happen to be shared or referenced elsewhere.
    pickler.fast = True
    return pickler, chunks


# Picklers not in use; at most as many as keys were ever made at once (threads, re-entry).
_IDLE: list[tuple[_PlainPickler, _Chunks]] = []
_PICKLE_START = pickle.PROTO  # how a pickle of protocol 2 or later starts; marshal never does


def canonical_key(schema: Mapping[str, Any]) -> bytes | str:
    """A key equal for structurally identical schemas (same keys in the same order, same values
    of the same JSON types), and different otherwise; a bytes key gives the content back
    (:func:`content_of`).

    A fast-mode pickle (no memo) of exact builtins: it does not depend on object sharing,
    keeps ``1``, ``1.0`` and ``true`` apart, and writes ASCII strings without encoding them
    (~25% fewer instructions than ``marshal`` format 2, the other sharing-independent C
    serializer; ``json.dumps`` costs ~4x). A schema nested deeper than pickling allows falls
    back to ``marshal``; anything neither will write (a dict subclass, a non-JSON object, a
    cycle) to JSON text. Pickling's depth limit counts the caller's own stack, so a schema a
    few hundred levels deep may get either kind of key: the cost is a second conversion, never
    a wrong one. Key order is kept on purpose: property order is part of the model-facing
    schema.
    """
    # Taken from the idle ones while in use (``list.pop`` is atomic), put back only after a
    # clean dump: another thread, or a key made meanwhile on this one (a finalizer or a signal
    # handler run mid-dump), gets a pickler of its own, and nothing a failed or interrupted
    # dump left behind is reused.
    try:
        state = _IDLE.pop()
    except IndexError:  # (not a test first: another thread may take the last one in between)
        state = _pickler()
    pickler, chunks = state
    try:
        pickler.dump(schema)  # one write at the end, more for outputs over 64 KiB
    except RecursionError:
        # Deeper than pickling allows (its depth counts against Python's recursion limit):
        # marshal format 2, also sharing-independent, has a depth limit of its own (2,000).
        try:
            return marshal.dumps(schema, 2)  # type: ignore[arg-type]  # ValueError if it cannot
        except ValueError:
            return _json_key(schema)
    except (ValueError, pickle.PicklingError):
        return _json_key(schema)
    key = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    chunks.clear()
    _IDLE.append(state)
    return key


def _json_key(schema: Mapping[str, Any]) -> str:
    try:
        return json.dumps(schema, separators=(",", ":"), ensure_ascii=False, default=repr)
    except RecursionError:
        raise SchemaConversionError(
            "the schema is nested too deeply to convert (more levels than Python's recursion "
            "limit allows); flatten it, e.g. with $defs and $ref for repeated parts",
            pointer="",
        ) from None


def content_of(key: bytes) -> Any:
    """A fresh copy of the content a bytes :func:`canonical_key` was made from."""
    if key[:1] == _PICKLE_START:
        return pickle.loads(key)  # noqa: S301 - our own bytes: exact builtins only, no globals
    return marshal.loads(key)  # noqa: S302 - our own bytes, from marshal.dumps


_SCALARS = frozenset((str, int, float, bool, type(None)))


def snapshot(schema: Any) -> Any:
    """A copy of ``schema`` for the identity level to compare repeats with: new dicts and
    lists, the very same strings and numbers (anything else deep-copied).

    ``==`` tests identity before content, so against this copy an unchanged string costs one
    pointer comparison: about half the time of comparing with a copy loaded from the key, whose
    strings are all new. Raises RecursionError for a schema nested deeper than the stack allows.
    """
    kind = type(schema)
    if kind is dict:
        return {key: snapshot(value) for key, value in schema.items()}
    if kind is list:
        return [snapshot(value) for value in schema]
    if kind in _SCALARS:
        return schema
    return copy.deepcopy(schema)
