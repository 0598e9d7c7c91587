"""What strict providers accept, as checks on a model-facing schema (their documented rules
and the 400s their APIs answer), for tests of the strict-provider variants.

Written from the providers' rules, not from ``schema/providers.py``: an oracle that shared the
adapter's tables would agree with its mistakes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["gemini_problems"]

_GEMINI_KEYWORDS = frozenset(
    (
        "type",
        "format",
        "description",
        "title",
        "nullable",
        "enum",
        "properties",
        "required",
        "items",
        "anyOf",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
        "minProperties",
        "maxProperties",
        "default",
        "propertyOrdering",
    )
)
_GEMINI_TYPES = frozenset(("string", "number", "integer", "boolean", "object", "array", "null"))
# Keywords Gemini allows only beside one type ("properties: only allowed for OBJECT type").
_ONLY_ON = {
    "properties": {"object"},
    "required": {"object"},
    "minProperties": {"object"},
    "maxProperties": {"object"},
    "propertyOrdering": {"object"},
    "items": {"array"},
    "minItems": {"array"},
    "maxItems": {"array"},
    "enum": {"string"},  # "enum only allowed for STRING type"
    "minLength": {"string"},
    "maxLength": {"string"},
    "pattern": {"string"},
    "minimum": {"number", "integer"},
    "maximum": {"number", "integer"},
}
# "only 'enum' and 'date-time' are supported for STRING type" (and float/double, int32/int64)
_FORMATS = {
    "string": {"enum", "date-time"},
    "number": {"float", "double"},
    "integer": {"int32", "int64"},
}


def _nodes(node: Any, pointer: str = "") -> Iterator[tuple[Any, str]]:
    yield node, pointer
    if not isinstance(node, dict):
        return
    for name, sub in (node.get("properties") or {}).items():
        yield from _nodes(sub, f"{pointer}/properties/{name}")
    if "items" in node:
        yield from _nodes(node["items"], f"{pointer}/items")
    for i, sub in enumerate(node.get("anyOf") or []):
        yield from _nodes(sub, f"{pointer}/anyOf/{i}")


def gemini_problems(schema: dict[str, Any]) -> list[str]:
    """Why Gemini's function-declaration ``parameters`` would refuse ``schema`` (none: [])."""
    problems: list[str] = []
    for node, at in _nodes(schema):
        if not isinstance(node, dict):
            problems.append(f"{at}: a schema must be an object, got {node!r}")
            continue
        if extra := node.keys() - _GEMINI_KEYWORDS:
            problems.append(f"{at}: unsupported keywords {sorted(extra)}")
        kind = node.get("type")
        if kind is None:
            if not node.get("anyOf"):
                problems.append(f"{at}: no type (and no anyOf)")
        elif kind not in _GEMINI_TYPES:
            problems.append(f"{at}: type {kind!r} is not one of Gemini's")
        for key, kinds in _ONLY_ON.items():
            if key in node and kind not in kinds:
                problems.append(f"{at}: {key} beside type {kind!r}")
        if "format" in node and node["format"] not in _FORMATS.get(kind, ()):
            problems.append(f"{at}: format {node['format']!r} on type {kind!r}")
        if "enum" in node and not all(isinstance(v, str) for v in node["enum"]):
            problems.append(f"{at}: enum with values that are not strings")
        if kind == "array" and "items" not in node:
            problems.append(f"{at}: an array without items")
        if isinstance(node.get("required"), list):
            missing = [n for n in node["required"] if n not in node.get("properties", {})]
            if missing:
                problems.append(f"{at}: required names without a property: {missing}")
        if "anyOf" in node and (not isinstance(node["anyOf"], list) or not node["anyOf"]):
            problems.append(f"{at}: anyOf must be a non-empty list")
    return problems
