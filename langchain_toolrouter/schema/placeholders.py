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
same way against the schemas the alternative gives them (a value for a property it does not
define, against the first schema another alternative gives it whose cleaning that schema accepts,
or else the first: what the model was shown; as it is if that is not accepted), and the properties of the other schemas shown for
the same place (the branches of a flattened root give a property one each) count as shown. Of the alternatives whose cleaned value
the node and the branches they picked accept, the one with the fewest removals wins (the first
one on a tie: a null the picked branch accepts is kept where it can be); when none is accepted,
every null some schema shown for its name rejects is removed, so the errors reported are about
the call as the model meant it. Arrays follow ``items``/``prefixItems`` and the first ``allOf``/``anyOf``/
``oneOf`` branch whose cleaned value that branch accepts. The schemas an alternative gives one
property (its ``allOf`` parts) clean its value together, so a ``null`` one of them requires is
kept. When no cleaning is accepted, the nulls of optional properties the model was shown are
removed even where their own schemas accept ``null`` (another part may be closed to the name),
and that is kept if accepted.
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
    branches: tuple[Any, ...]  # the anyOf/oneOf branches picked: each must accept the value

    def merge(self, other: _Alternative) -> _Alternative:
        if not (other.defined or other.required or other.patterns or other.branches):
            return self
        defined = dict(self.defined)
        for name, schemas in other.defined.items():
            defined[name] = defined.get(name, ()) + schemas
        return _Alternative(
            defined,
            self.required | other.required,
            self.patterns + other.patterns,
            self.branches + other.branches,
        )

    def picked(self, branch: Any) -> _Alternative:
        return self._replace(branches=(branch, *self.branches))

    def schemas_for(self, name: str) -> tuple[Any, ...]:
        found = self.defined.get(name, ())
        for pattern, schema in self.patterns:
            if pattern.search(name):
                found += (schema,)
        return found


_NOTHING = _Alternative({}, frozenset(), (), ())


class _View(NamedTuple):
    alternatives: tuple[_Alternative, ...]
    # name -> every schema some alternative gives it: the names strict mode shows (and may put
    # a null for), and what the model was shown for them
    shown: dict[str, tuple[Any, ...]]


class PlaceholderNulls:
    """Removes strict-mode ``null`` placeholders from calls, for one effective schema."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self._checks: dict[int, tuple[Any, Check]] = {}
        self._views: dict[int, tuple[Any, _View]] = {}
        self._busy: set[int] = set()  # nodes whose alternatives are being built (ref cycles)
        # several schemas applying to one place (allOf parts) -> one schema for all of them
        self._together: dict[tuple[int, ...], tuple[tuple[Any, ...], dict[str, Any]]] = {}

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

    def clean(self, value: Any, schema: Any, context: tuple[Any, ...] = ()) -> Any:
        """``value`` without placeholder nulls (a new value; the input is not modified).

        ``context``: the other schemas the model was shown for this place (the branches of a
        flattened root give one property several): their properties are placeholders too.
        """
        if isinstance(value, dict):
            return self.clean_object(value, schema, context)
        if isinstance(value, list):
            return self.clean_array(value, schema)
        return value

    # -- objects --------------------------------------------------------------------------------

    def view(self, schema: Any) -> _View:
        hit = self._views.get(id(schema))
        if hit is None or hit[0] is not schema:
            alternatives = tuple(self.alternatives(schema))
            shown: dict[str, tuple[Any, ...]] = {}
            for alt in alternatives:
                _add_shown(shown, alt.defined)
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
            (),
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
                parts.append([a.picked(b) for b in branches for a in self.alternatives(b)])
        return parts

    def together(self, schemas: tuple[Any, ...]) -> Any:
        """One schema for several that apply to the same place (``allOf`` of them), so that a
        value is cleaned against all at once: a null one of them requires is kept."""
        if len(schemas) == 1:
            return schemas[0]
        key = tuple(map(id, schemas))
        hit = self._together.get(key)
        if hit is None:
            hit = self._together[key] = (schemas, {"allOf": list(schemas)})
        return hit[1]

    def clean_object(
        self, value: dict[str, Any], schema: Any, context: tuple[Any, ...] = ()
    ) -> dict[str, Any]:
        view = self.view(schema)
        shown = view.shown
        if context:
            shown = dict(shown)
            for other in context:
                if other is not schema:
                    _add_shown(shown, self.view(other).shown)
        if len(view.alternatives) == 1:
            alt = view.alternatives[0]
            cleaned = self.clean_for(value, alt, shown)[0]
            if not self.accepts(schema, cleaned):
                # A null its own schema accepts may still break another part (an allOf part
                # closed to the name): the model meant "not given" there too.
                without_nulls = self.clean_for(value, alt, shown, eager=True)[0]
                if without_nulls is not cleaned and self.accepts(schema, without_nulls):
                    return without_nulls
            return cleaned
        best: dict[str, Any] | None = None
        fewest = len(value) + 1
        for eager in (False, True):
            for alt in view.alternatives:
                cleaned, removed, foreign = self.clean_for(value, alt, shown, eager=eager)
                tries = (cleaned, self.clean_for(value, alt, shown, foreign=False, eager=eager)[0])
                for attempt in tries[: 1 + foreign]:
                    if (
                        removed < fewest
                        and self.accepts(schema, attempt)
                        and all(self.accepts(b, attempt) for b in alt.branches)
                    ):
                        best, fewest = attempt, removed
                        break
                if best is not None and not fewest:
                    break
            if best is not None:
                return best
        return self.clean_for(value, None, shown)[0]

    def clean_for(
        self,
        value: dict[str, Any],
        alt: _Alternative | None,
        shown: dict[str, tuple[Any, ...]],
        *,
        foreign: bool = True,
        eager: bool = False,
    ) -> tuple[dict[str, Any], int, bool]:
        """``value`` cleaned under one alternative, how many nulls were removed here, and
        whether a value of a property the alternative does not define was cleaned (only with
        ``foreign``: else those are left as they are).

        ``alt`` None: under none in particular (no alternative is accepted however cleaned):
        every null is removed that some schema shown for its name rejects, so the errors
        are about the call as the model meant it. ``eager``: a null for an optional property
        the model was shown is removed even where its schemas accept ``null``.
        """
        out: dict[str, Any] = {}
        removed = 0
        changed = cleaned_foreign = False
        for key, item in value.items():
            if item is None:
                if alt is None:
                    schemas = shown.get(key, ())
                    drop = bool(schemas) and not all(self.accepts(s, None) for s in schemas)
                elif key in shown and key not in alt.required:
                    schemas = alt.schemas_for(key)
                    drop = eager or not schemas or not all(self.accepts(s, None) for s in schemas)
                else:
                    drop = False
                if drop:
                    removed += 1
                    changed = True
                    continue
                out[key] = item
            elif isinstance(item, (dict, list)):
                cleaned = item
                schemas = alt.schemas_for(key) if alt is not None else ()
                seen = shown.get(key, ())
                if schemas:
                    cleaned = self.clean(cleaned, self.together(schemas), seen)
                if not schemas and seen and foreign:
                    # Not this alternative's property, but the model was shown one for it
                    # (another branch's): its placeholders follow the first that fits, or the
                    # first one (this alternative does not constrain the value).
                    attempts = [self.clean(item, sub, seen) for sub in seen]
                    fits = (
                        a
                        for a, sub in zip(attempts, seen, strict=True)
                        if a is not item and self.accepts(sub, a)
                    )
                    cleaned = next(fits, attempts[0])
                    cleaned_foreign = cleaned_foreign or cleaned is not item
                changed = changed or cleaned is not item
                out[key] = cleaned
            else:
                out[key] = item
        return (out if changed else value), removed, cleaned_foreign

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


def _add_shown(shown: dict[str, tuple[Any, ...]], more: dict[str, tuple[Any, ...]]) -> None:
    """Add ``more`` (name -> schemas) to ``shown``, each schema once (by identity)."""
    for name, schemas in more.items():
        known = shown.get(name, ())
        shown[name] = known + tuple(s for s in schemas if not any(s is k for k in known))


def _compiled(patterns: dict[str, Any]) -> list[tuple[re.Pattern[str], Any]]:
    return [(r, schema) for p, schema in patterns.items() if (r := _regex(p)) is not None]


def _regex(pattern: str) -> re.Pattern[str] | None:
    try:
        return python_regex(pattern)
    except re.error:  # dropped by normalize already; never stop a cleaning for it
        return None
