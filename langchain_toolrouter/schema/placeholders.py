"""Undo OpenAI strict mode's ``null`` placeholders before a call is validated.

Strict mode makes every property required, so an optional property becomes nullable and the
model answers ``null`` for "not given" (see ``providers``). The source schema usually does not
allow ``null`` there, and the service expects the key to be absent. Before validating a call
made against the strict variant, a ``null`` is removed exactly where the source property is
optional and does not itself accept ``null``; a ``null`` the source schema allows is kept. The
walk follows ``properties``, ``items``/``prefixItems``, ``$ref`` and, for ``anyOf``/``oneOf``/
``allOf``, the first branch whose cleaned value the source schema accepts.
"""

from __future__ import annotations

from typing import Any

from langchain_toolrouter.schema.pointers import ref_to_pointer, resolve
from langchain_toolrouter.schema.validator import Check, compile_schema

__all__ = ["PlaceholderNulls"]

_MAX_REF_HOPS = 32


class PlaceholderNulls:
    """Removes strict-mode ``null`` placeholders from calls, for one effective schema."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self._checks: dict[int, tuple[Any, Check]] = {}

    def check_for(self, schema: Any) -> Check:
        hit = self._checks.get(id(schema))
        if hit is None or hit[0] is not schema:
            check = compile_schema(schema, root=self.root)
            hit = (schema, check)
            self._checks[id(schema)] = hit
        return hit[1]

    def deref(self, schema: Any) -> Any:
        for _ in range(_MAX_REF_HOPS):
            if not (isinstance(schema, dict) and isinstance(schema.get("$ref"), str)):
                return schema
            pointer = ref_to_pointer(schema["$ref"])
            if pointer is None:
                return schema
            try:
                schema = resolve(self.root, pointer)
            except KeyError:
                return schema
        return schema

    def clean(self, value: Any, schema: Any) -> Any:
        """``value`` without placeholder nulls (a new value; the input is not modified)."""
        schema = self.deref(schema)
        if not isinstance(schema, dict):
            return value
        if isinstance(value, dict):
            value = self.clean_object(value, schema)
        elif isinstance(value, list):
            value = self.clean_array(value, schema)
        for key in ("allOf", "anyOf", "oneOf"):
            for branch in schema.get(key, ()):
                cleaned = self.clean(value, branch)
                if cleaned is not value and self.check_for(branch)(cleaned, (), None):
                    value = cleaned
                    break
        return value

    def clean_object(self, value: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
        props = schema.get("properties")
        if not isinstance(props, dict):
            return value
        required = set(schema.get("required", ()))
        out: dict[str, Any] = {}
        changed = False
        for key, item in value.items():
            sub = props.get(key)
            if sub is None:
                out[key] = item
            elif item is None and key not in required and not self.check_for(sub)(None, (), None):
                changed = True
            else:
                cleaned = self.clean(item, sub)
                changed = changed or cleaned is not item
                out[key] = cleaned
        return out if changed else value

    def clean_array(self, value: list[Any], schema: dict[str, Any]) -> list[Any]:
        prefix = schema.get("prefixItems", ())
        items = schema.get("items")
        out: list[Any] = []
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else items
            out.append(self.clean(item, sub) if sub is not None else item)
        return out if any(a is not b for a, b in zip(out, value, strict=True)) else value
