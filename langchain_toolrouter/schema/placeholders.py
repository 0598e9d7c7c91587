"""Undo OpenAI strict mode's ``null`` placeholders before a call is validated.

Strict mode makes every property required, so an optional property becomes nullable and the
model answers ``null`` for "not given" (see ``providers``). Alternatives are shown merged (a
root ``anyOf``/``oneOf`` becomes one object with every branch's properties, ``allOf`` is
merged), so the model also sends ``null`` for the properties of the branches it did not pick.
The source schema usually does not allow ``null`` there, and the service expects the key to be
absent.

Only a call the source schema rejects is cleaned (see ``Conversion.validate``). For an object,
each *alternative* of its schema is tried: the node's own ``properties`` merged with one branch
of every ``anyOf``/``oneOf`` and with every ``allOf`` part and ``$ref`` target, recursively. Under
an alternative, a ``null`` is removed for a property that some alternative defines (so strict
mode shows it) when this alternative does not define it, or defines it as optional with a
schema that rejects ``null``; a ``null`` for a required property, for a property whose schemas
all accept ``null``, or for a name no alternative defines is kept. Values below are cleaned the
same way against the schemas the alternative gives them. The alternative whose cleaned value
the node accepts with the fewest removals wins (the first one on a tie); when none is accepted
the first alternative's cleaning is returned, so the errors reported are about the call as the
model meant it. Arrays follow ``items``/``prefixItems`` and the first ``allOf``/``anyOf``/
``oneOf`` branch whose cleaned value that branch accepts.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from langchain_toolrouter.schema.ecma_regex import python_regex
from langchain_toolrouter.schema.pointers import ref_to_pointer, resolve
from langchain_toolrouter.schema.validator import Check, compile_schema

__all__ = ["PlaceholderNulls"]

_MAX_REF_HOPS = 32
# Alternatives are a product over a node's anyOf/oneOf lists (nested ones included): bounded,
# the first ones in document order are tried.
_MAX_ALTERNATIVES = 64


class _Alternative(NamedTuple):
    """One way an object can satisfy a schema: which property schemas apply, what is required."""

    defined: dict[str, tuple[Any, ...]]
    required: frozenset[str]
    patterns: tuple[tuple[re.Pattern[str], Any], ...]

    def merge(self, other: _Alternative) -> _Alternative:
        if not other.defined and not other.required and not other.patterns:
            return self
        defined = dict(self.defined)
        for name, schemas in other.defined.items():
            defined[name] = defined.get(name, ()) + schemas
        return _Alternative(
            defined, self.required | other.required, self.patterns + other.patterns
        )

    def schemas_for(self, name: str) -> tuple[Any, ...]:
        found = self.defined.get(name, ())
        for pattern, schema in self.patterns:
            if pattern.search(name):
                found += (schema,)
        return found


_NOTHING = _Alternative({}, frozenset(), ())


class _View(NamedTuple):
    alternatives: tuple[_Alternative, ...]
    shown: frozenset[str]  # names some alternative defines: where strict mode may put a null


class PlaceholderNulls:
    """Removes strict-mode ``null`` placeholders from calls, for one effective schema."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self._checks: dict[int, tuple[Any, Check]] = {}
        self._views: dict[int, tuple[Any, _View]] = {}
        self._busy: set[int] = set()  # nodes whose alternatives are being built (ref cycles)

    def check_for(self, schema: Any) -> Check:
        hit = self._checks.get(id(schema))
        if hit is None or hit[0] is not schema:
            check = compile_schema(schema, root=self.root)
            hit = (schema, check)
            self._checks[id(schema)] = hit
        return hit[1]

    def accepts(self, schema: Any, value: Any) -> bool:
        return self.check_for(schema)(value, (), None)

    def target(self, ref: Any) -> Any:
        """The schema a local ``$ref`` names, or None."""
        pointer = ref_to_pointer(ref) if isinstance(ref, str) else None
        if pointer is None:
            return None
        try:
            return resolve(self.root, pointer)
        except KeyError:
            return None

    def deref(self, schema: Any) -> Any:
        for _ in range(_MAX_REF_HOPS):
            if not (isinstance(schema, dict) and "$ref" in schema):
                return schema
            target = self.target(schema["$ref"])
            if target is None:
                return schema
            schema = target
        return schema

    def clean(self, value: Any, schema: Any) -> Any:
        """``value`` without placeholder nulls (a new value; the input is not modified)."""
        if isinstance(value, dict):
            return self.clean_object(value, schema)
        if isinstance(value, list):
            return self.clean_array(value, schema)
        return value

    # -- objects --------------------------------------------------------------------------------

    def view(self, schema: Any) -> _View:
        hit = self._views.get(id(schema))
        if hit is None or hit[0] is not schema:
            alternatives = tuple(self.alternatives(schema))
            shown = frozenset(name for alt in alternatives for name in alt.defined)
            hit = (schema, _View(alternatives, shown))
            self._views[id(schema)] = hit
        return hit[1]

    def alternatives(self, schema: Any) -> list[_Alternative]:
        if not isinstance(schema, dict) or id(schema) in self._busy:
            return [_NOTHING]
        props = schema.get("properties")
        required = schema.get("required")
        patterns = schema.get("patternProperties")
        own = _Alternative(
            {k: (v,) for k, v in props.items()} if isinstance(props, dict) else {},
            frozenset(n for n in required if isinstance(n, str))
            if isinstance(required, list)
            else frozenset(),
            tuple(_compiled(patterns)) if isinstance(patterns, dict) else (),
        )
        out = [own]
        self._busy.add(id(schema))
        try:
            for part in self.parts(schema):
                out = [a.merge(b) for a in out for b in part][:_MAX_ALTERNATIVES]
        finally:
            self._busy.discard(id(schema))
        return out

    def parts(self, schema: dict[str, Any]) -> list[list[_Alternative]]:
        """Per in-place applicator the model sees (``$ref``, ``allOf`` parts, ``anyOf``,
        ``oneOf``), the alternatives it offers."""
        parts: list[list[_Alternative]] = []
        if "$ref" in schema:
            target = self.target(schema["$ref"])
            if target is not None:
                parts.append(self.alternatives(target))
        all_of = schema.get("allOf")
        if isinstance(all_of, list):
            parts.extend(self.alternatives(part) for part in all_of)
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                parts.append([alt for b in branches for alt in self.alternatives(b)])
        return parts

    def clean_object(self, value: dict[str, Any], schema: Any) -> dict[str, Any]:
        view = self.view(schema)
        if len(view.alternatives) == 1:
            return self.clean_for(value, view.alternatives[0], view.shown)[0]
        first: dict[str, Any] | None = None
        best: dict[str, Any] | None = None
        fewest = len(value) + 1
        for alt in view.alternatives:
            cleaned, removed = self.clean_for(value, alt, view.shown)
            if first is None:
                first = cleaned
            if removed < fewest and self.accepts(schema, cleaned):
                best, fewest = cleaned, removed
                if not removed:
                    break
        if best is not None:
            return best
        return first if first is not None else value

    def clean_for(
        self, value: dict[str, Any], alt: _Alternative, shown: frozenset[str]
    ) -> tuple[dict[str, Any], int]:
        """``value`` cleaned under one alternative, and how many nulls were removed here."""
        out: dict[str, Any] = {}
        removed = 0
        changed = False
        for key, item in value.items():
            if item is None:
                if key in shown and key not in alt.required:
                    schemas = alt.schemas_for(key)
                    if not schemas or not all(self.accepts(s, None) for s in schemas):
                        removed += 1
                        changed = True
                        continue
                out[key] = item
            elif isinstance(item, (dict, list)):
                cleaned = item
                for sub in alt.schemas_for(key):
                    cleaned = self.clean(cleaned, sub)
                changed = changed or cleaned is not item
                out[key] = cleaned
            else:
                out[key] = item
        return (out if changed else value), removed

    # -- arrays ---------------------------------------------------------------------------------

    def clean_array(self, value: list[Any], schema: Any) -> list[Any]:
        schema = self.deref(schema)
        if not isinstance(schema, dict):
            return value
        prefix = schema.get("prefixItems", ())
        items = schema.get("items")
        out: list[Any] = []
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else items
            out.append(self.clean(item, sub) if sub is not None else item)
        if any(a is not b for a, b in zip(out, value, strict=True)):
            value = out
        for key in ("allOf", "anyOf", "oneOf"):
            for branch in schema.get(key, ()):
                cleaned = self.clean_array(value, branch)
                if cleaned is not value and self.accepts(branch, cleaned):
                    value = cleaned
                    break
        return value


def _compiled(patterns: dict[str, Any]) -> list[tuple[re.Pattern[str], Any]]:
    out: list[tuple[re.Pattern[str], Any]] = []
    for pattern, schema in patterns.items():
        try:
            out.append((python_regex(pattern), schema))
        except re.error:
            continue
    return out
