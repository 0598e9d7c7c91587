"""Quality measures: is a call sent exactly, and does the model-facing schema keep the facts.

"Facts" of a schema are its property names, required names and enum/const values, each at a
path of property names (``[]`` for array items, ``{}`` for map values); ``$ref``s are followed
and ``anyOf``/``oneOf``/``allOf`` branches are read through, so a fact kept anywhere on the same
path counts, whatever structure the converter chose.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

__all__ = ["FACT_KINDS", "difference", "facts", "has_undeclared_keys"]

FACT_KINDS = ("name", "required", "enum")
_JSON_SCALARS = (str, int, float, bool, type(None))


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def difference(sent: Any, given: Any) -> str | None:
    """None when ``sent`` equals ``given`` as JSON; else the first kind of difference found.

    Strict where the wire is: a value that is not plain JSON (a URL or date object) differs, and
    ``1.0`` differs from ``1``, ``True`` from ``1`` (they serialize differently). Key order is
    ignored, as JSON objects are unordered.
    """
    return next(_differences(sent, given), None)


def _differences(sent: Any, given: Any) -> Iterator[str]:
    if isinstance(given, dict):
        if not isinstance(sent, dict):
            yield "changed value"
            return
        added = set(sent) - set(given)
        if added:
            yield "added null" if all(sent[k] is None for k in added) else "added key"
            return
        if set(given) - set(sent):
            yield "dropped key"
            return
        for key in given:
            yield from _differences(sent[key], given[key])
        return
    if isinstance(given, list):
        if not isinstance(sent, list | tuple) or len(sent) != len(given):
            yield "changed value"
            return
        for a, b in zip(sent, given, strict=True):
            yield from _differences(a, b)
        return
    if not isinstance(sent, _JSON_SCALARS):
        yield "python object"
    elif type(sent) is not type(given) or sent != given:
        yield "changed value"


def _resolve(root: Any, ref: str) -> Any:
    if not ref.startswith("#"):
        return None
    node = root
    for raw in [t for t in ref[1:].split("/") if t]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def facts(schema: Any) -> set[tuple[str, tuple[str, ...], str]]:
    """The schema's facts: ``(kind, path, value)`` with kind in :data:`FACT_KINDS`."""
    out: set[tuple[str, tuple[str, ...], str]] = set()

    def walk(node: Any, path: tuple[str, ...], depth: int, refs: frozenset[str]) -> None:
        if depth > 24 or not isinstance(node, dict) or len(path) > 8:
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in refs:
            walk(_resolve(schema, ref), path, depth + 1, refs | {ref})
        for keyword in ("anyOf", "oneOf", "allOf"):
            branches = node.get(keyword)
            if isinstance(branches, list):
                for branch in branches:
                    walk(branch, path, depth + 1, refs)
        if isinstance(node.get("enum"), list):
            out.update(("enum", path, _canon(v)) for v in node["enum"])
        if "const" in node:
            out.add(("enum", path, _canon(node["const"])))
        props = node.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                out.add(("name", path, name))
                walk(sub, (*path, name), depth + 1, refs)
            required = node.get("required")
            if isinstance(required, list):
                out.update(("required", path, r) for r in required if r in props)
        items = node.get("items")
        for sub in items if isinstance(items, list) else [items]:
            walk(sub, (*path, "[]"), depth + 1, refs)
        prefix = node.get("prefixItems")
        if isinstance(prefix, list):
            for sub in prefix:
                walk(sub, (*path, "[]"), depth + 1, refs)
        walk(node.get("additionalProperties"), (*path, "{}"), depth + 1, refs)

    walk(schema, (), 0, frozenset())
    return out


def has_undeclared_keys(call: Any, schema_facts: set[tuple[str, tuple[str, ...], str]]) -> bool:
    """Whether ``call`` holds a key its schema does not name (in an open object or a map)."""
    names = {(path, value) for kind, path, value in schema_facts if kind == "name"}

    def walk(value: Any, path: tuple[str, ...]) -> bool:
        if isinstance(value, dict):
            return any(
                (path, key) not in names or walk(child, (*path, key))
                for key, child in value.items()
            )
        if isinstance(value, list):
            return any(walk(child, (*path, "[]")) for child in value)
        return False

    return walk(call, ())
