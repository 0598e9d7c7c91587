"""The model-facing JSON Schema: what the chat model sees as the tool's parameters.

Built from the effective schema (see ``normalize``): original property names, ``required``
sets, enums, descriptions and defaults kept; every local ``$ref`` inlined, because several chat
model APIs and LangChain's own converters resolve references badly or not at all. A recursive
reference cannot be inlined: by default it is kept as ``$defs``/``$ref`` (still valid JSON
Schema, exact), or, when ``bounded`` is set, unrolled that many levels and then cut to an
unconstrained value with a description saying so. Both are reported.

Inlining copies a target at each use, so targets that use each other grow the schema
exponentially (a target used twice inside one used twice, and so on: 18 levels make 17 MB).
Once inlining has produced more than ``_GROWTH`` times the schema's own size (plus
``_SLACK`` nodes), the remaining refs are cut to an unconstrained value with a description
saying so, and reported; calls are still validated against the full schema. Keeping them as
``$defs`` instead would be exact, but LangChain's ``convert_to_openai_tool`` (``bind_tools``)
inlines every ``$ref`` itself, and would hang. Real tool schemas stay far below the limit (at
most 2.3x in our corpora). A chain of more than ``_MAX_NESTED_REFS`` refs inlined one inside
another, which would exhaust the stack, is cut the same way. And where recursive targets refer
to each other, so that LangChain's own inlining of the kept ``$defs`` would pass the limit, the
model sees the recursion unrolled once, as LangChain would show it, but bounded.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, TypeAlias

from langchain_toolrouter.schema.pointers import (
    SCHEMA_LIST_KEYS,
    SCHEMA_MAP_KEYS,
    SUBSCHEMA_KEYS,
    iter_subschemas,
    ref_to_pointer,
    resolve,
    to_pointer,
)
from langchain_toolrouter.schema.report import ReportEntry
from langchain_toolrouter.schema.values import json_equal

__all__ = ["inline_refs"]

# How the walk treats each keyword (absent: copied as is).
_ONE, _MAP, _LIST, _DEFS = range(4)
_KIND = {
    **dict.fromkeys(SUBSCHEMA_KEYS, _ONE),
    **dict.fromkeys(SCHEMA_MAP_KEYS, _MAP),
    **dict.fromkeys(SCHEMA_LIST_KEYS, _LIST),
    **dict.fromkeys(("$defs", "definitions"), _DEFS),  # after the maps: dropped, not walked
}
_KIND_KEYS = frozenset(_KIND)
_OVERRIDABLE = ("title", "description", "default", "examples")
# Keywords that read each other within one schema object: laid over a target that has one of
# the same group, a sibling changes what the target's own keyword means (``properties`` beside
# the target's ``additionalProperties: false`` would admit names the target refuses).
_INTERACTING = (
    frozenset(("properties", "patternProperties", "additionalProperties", "unevaluatedProperties")),
    frozenset(
        ("prefixItems", "items", "unevaluatedItems", "contains", "minContains", "maxContains")
    ),
    frozenset(("if", "then", "else")),
)
_NON_NAME = re.compile(r"[^A-Za-z0-9_.-]")
# How many schema nodes inlining may produce: _GROWTH times the effective schema's, plus _SLACK.
_GROWTH = 10
_SLACK = 5_000
# $refs inlined inside one another at most: a longer chain would exhaust the stack.
_MAX_NESTED_REFS = 64


def inline_refs(
    root: dict[str, Any], *, bounded: int | None = None
) -> tuple[dict[str, Any], list[ReportEntry]]:
    """Inline every ``$ref`` of the effective schema ``root``; return the copy and report entries."""
    inliner = _Inliner(root, bounded)
    out = inliner.walk(root, "", ())
    if not isinstance(out, dict):
        out = {"type": "object"}
    if not inliner.defs:
        return out, inliner.entries
    out["$defs"] = inliner.defs
    if len(inliner.defs) == 1:  # one target: LangChain cuts it at its first repeat
        return out, inliner.entries
    # LangChain's convert_to_openai_tool (bind_tools) inlines $defs itself, unrolling each
    # recursion once per path. Interlinked recursive targets, each body inlined around the
    # refs to the others, can make that exponential (13 KB became 2.4 MB): where it would pass
    # the size limit, show the schema unrolled once, as it would, but bounded.
    probe = _Inliner(out, 1)
    probe.walk(out, "", ())
    if not probe.oversized:
        return out, inliner.entries
    unrolled = _Inliner(root, 1)
    flat = unrolled.walk(root, "", ())
    reason = (
        "recursive $refs unrolled once instead of kept in $defs: LangChain's "
        f"convert_to_openai_tool would inline those $defs itself, past {probe.limit} nodes"
    )
    return (
        flat if isinstance(flat, dict) else {"type": "object"},
        [ReportEntry("approximated", "", reason), *unrolled.entries],
    )


# Where a node sits in ``root``: a JSON pointer, or (where its parent sits, its key or index).
# The walk only ever builds the pair; ``_pointer`` joins the tokens when a report entry needs
# the pointer, which is rare (recursive refs only), instead of at every node.
_Where: TypeAlias = "str | tuple[_Where, str | int]"


def _pointer(where: _Where) -> str:
    """The JSON pointer of ``where``."""
    tokens: list[str | int] = []
    while isinstance(where, tuple):
        where, token = where
        tokens.append(token)
    return where + to_pointer(reversed(tokens))


class _Inliner:
    def __init__(self, root: dict[str, Any], bounded: int | None) -> None:
        self.root = root
        self.bounded = bounded
        self.entries: list[ReportEntry] = []
        self.defs: dict[str, Any] = {}
        self.def_names: dict[str, str] = {}  # target pointer -> $defs name
        self.reported: set[str] = set()
        self.produced = 0  # schema nodes the walk has made so far
        self.cut: set[str] = set()  # targets not inlined somewhere (past a limit)
        self.limit = 0  # the most nodes inlining may produce (see ``over_limit``)
        self.oversized = False  # whether it reached the limit

    def walk(self, schema: Any, where: _Where, stack: tuple[str, ...]) -> Any:
        """A copy of ``schema`` with its refs inlined; ``stack``: the ref targets being inlined."""
        if not isinstance(schema, dict):
            return schema
        if "$ref" in schema:
            return self.ref(schema, where, stack)
        self.produced += 1
        if _KIND_KEYS.isdisjoint(schema):  # no subschema inside (most leaves): a plain copy
            return dict(schema)
        walk = self.walk  # plain loops below: cheaper than comprehensions on Python 3.11
        out: dict[str, Any] = {}
        for key, value in schema.items():
            kind = _KIND.get(key)
            if kind is None:
                out[key] = value
            elif kind == _ONE:
                out[key] = walk(value, (where, key), stack)
            elif kind == _MAP and isinstance(value, dict):
                here = (where, key)
                walked: dict[str, Any] = {}
                for k, v in value.items():
                    walked[k] = walk(v, (here, k), stack)
                out[key] = walked
            elif kind == _LIST and isinstance(value, list):
                here = (where, key)
                items = []
                for i, v in enumerate(value):
                    items.append(walk(v, (here, i), stack))
                out[key] = items
            elif kind != _DEFS:
                out[key] = value
        return out

    def ref(self, schema: dict[str, Any], where: _Where, stack: tuple[str, ...]) -> Any:
        target_pointer = ref_to_pointer(schema["$ref"]) or ""
        self.produced += 1  # a node in any case: the target, or what stands for it
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        rest = self.walk(siblings, where, stack) if siblings else {}
        seen = stack.count(target_pointer)
        if (seen >= self.bounded) if self.bounded is not None else seen > 0:
            body: dict[str, Any] = self.recursive(target_pointer, _pointer(where), stack)
        elif self.produced > _SLACK and self.over_limit():
            self.oversized = True
            body = self.cut_off(
                target_pointer,
                _pointer(where),
                f"inlining every use would grow the model-facing schema past {self.limit} "
                "nodes (its targets use each other)",
            )
        elif len(stack) >= _MAX_NESTED_REFS:
            body = self.cut_off(
                target_pointer,
                _pointer(where),
                f"it sits {_MAX_NESTED_REFS} $refs deep, more than the model-facing schema inlines",
            )
        else:
            try:
                target = resolve(self.root, target_pointer)
            except KeyError:  # the normalizer already removed unresolvable refs
                target = {}
            inlined = self.walk(target, target_pointer, (*stack, target_pointer))
            if inlined is False:
                return False if not rest else {"not": {}, **rest}
            body = {} if inlined is True else inlined
        return _merge_annotations(body, rest)

    def recursive(
        self, target_pointer: str, pointer: str, stack: tuple[str, ...]
    ) -> dict[str, Any]:
        if self.bounded is not None:
            if pointer not in self.reported:
                self.reported.add(pointer)
                self.entries.append(
                    ReportEntry(
                        "approximated",
                        pointer,
                        f"recursive $ref to {'#' + target_pointer!r} unrolled {self.bounded} "
                        "level(s) in the model-facing schema, then left unconstrained; calls "
                        "are still validated against the full recursive schema",
                    )
                )
            stub: dict[str, Any] = {}
            with contextlib.suppress(KeyError):
                target = resolve(self.root, target_pointer)
                kind = target.get("type") if isinstance(target, dict) else None
                if isinstance(kind, (str, list)):  # the one constraint a stub can keep exactly
                    stub["type"] = kind
            stub["description"] = "(nested further: same shape as its enclosing value)"
            return stub
        name = self.def_names.get(target_pointer)
        if name is None:
            name = self.def_name(target_pointer)
            self.def_names[target_pointer] = name
            self.entries.append(
                ReportEntry(
                    "approximated",
                    pointer,
                    f"recursive $ref to {'#' + target_pointer!r} kept as '#/$defs/{name}' in the "
                    "model-facing schema (a recursive schema cannot be inlined)",
                )
            )
            self.defs[name] = {}
            target = resolve(self.root, target_pointer)
            body = self.walk(target, target_pointer, (target_pointer,))
            self.defs[name] = body
        return {"$ref": f"#/$defs/{name}"}

    def over_limit(self) -> bool:
        """Whether inlining has produced more nodes than it may: ``_SLACK`` plus ``_GROWTH`` times
        the schema's own (checked only past ``_SLACK``)."""
        if not self.limit:  # counted only when needed: walking the schema costs ~5 us a node
            self.limit = _SLACK + _GROWTH * sum(1 for _ in iter_subschemas(self.root, ""))
        return self.produced > self.limit

    def cut_off(self, target_pointer: str, pointer: str, why: str) -> dict[str, Any]:
        """What stands for a ``$ref`` that is not inlined (``why``), though not recursive."""
        if target_pointer not in self.cut:  # one entry per target: it may be cut at many places
            self.cut.add(target_pointer)
            self.entries.append(
                ReportEntry(
                    "approximated",
                    pointer,
                    f"$ref to {'#' + target_pointer!r} not inlined here or past this point: "
                    f"{why}; the value is left unconstrained there, and calls are still "
                    "validated against the full schema",
                )
            )
        return {"description": "(not shown: the full schema is too large to inline)"}

    def def_name(self, target_pointer: str) -> str:
        last = target_pointer.rsplit("/", 1)[-1] or "root"
        base = _NON_NAME.sub("_", last) or "def"
        name, n = base, 2
        while name in self.defs:
            name = f"{base}_{n}"
            n += 1
        return name


def _merge_annotations(body: dict[str, Any], rest: dict[str, Any]) -> dict[str, Any]:
    """The inlined target with the ``$ref`` node's own keywords laid over it."""
    if not rest:
        return body
    if (
        "$ref" in body
        or any(
            k in body and k not in _OVERRIDABLE and not json_equal(body[k], rest[k]) for k in rest
        )
        or any(not group.isdisjoint(body) and not group.isdisjoint(rest) for group in _INTERACTING)
    ):
        return {"allOf": [body], **rest}
    return {**body, **rest}
