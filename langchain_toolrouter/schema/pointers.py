"""JSON pointers (RFC 6901): building them while walking a schema and resolving ``$ref``s."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import unquote

__all__ = [
    "SCHEMA_LIST_KEYS",
    "SCHEMA_MAP_KEYS",
    "SUBSCHEMA_KEYS",
    "iter_subschemas",
    "join",
    "ref_to_pointer",
    "resolve",
    "to_pointer",
]

# Where a schema holds subschemas (2020-12), shared by every walk over schemas: one subschema,
# a map of them, a list of them.
SUBSCHEMA_KEYS = (
    "items",
    "additionalProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
SCHEMA_MAP_KEYS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LIST_KEYS = ("anyOf", "oneOf", "allOf", "prefixItems")


def _escape(token: str) -> str:
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def join(pointer: str, token: str | int) -> str:
    """``pointer`` extended by one reference token."""
    if isinstance(token, int):
        return f"{pointer}/{token}"
    return f"{pointer}/{_escape(token)}"


def to_pointer(path: Iterable[str | int]) -> str:
    """A JSON pointer for a path of keys and indices ("" is the whole document)."""
    return "".join(f"/{_escape(str(t))}" for t in path)


def ref_to_pointer(ref: str) -> str | None:
    """The JSON pointer of a local ``$ref`` ("#", "#/…"), or None when it is not local."""
    if not ref.startswith("#"):
        return None
    fragment = unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        return None  # a named anchor, not a pointer
    return fragment


def resolve(document: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``document``; raises KeyError naming the missing token."""
    node = document
    if not pointer:
        return node
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~") if "~" in raw else raw
        if type(node) is dict or isinstance(node, Mapping):
            if token not in node:
                raise KeyError(token)
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                raise KeyError(token)
            node = node[int(token)]
        else:
            raise KeyError(token)
    return node


def iter_subschemas(schema: Any, pointer: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Every object subschema of ``schema`` (itself included), depth first, with its pointer.

    Only schema positions are visited: values of ``enum``, ``default`` or ``examples`` are data.
    """
    stack: list[tuple[Any, str]] = [(schema, pointer)]
    while stack:
        node, here = stack.pop()
        if not isinstance(node, dict):
            continue
        yield node, here
        stack.extend((node[key], join(here, key)) for key in SUBSCHEMA_KEYS if key in node)
        for key in SCHEMA_MAP_KEYS:
            value = node.get(key)
            if isinstance(value, dict):
                base = join(here, key)
                stack.extend((v, join(base, k)) for k, v in value.items())
        for key in SCHEMA_LIST_KEYS:
            value = node.get(key)
            if isinstance(value, list):
                base = join(here, key)
                stack.extend((v, join(base, i)) for i, v in enumerate(value))
