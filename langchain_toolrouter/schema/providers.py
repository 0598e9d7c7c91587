"""Strict-provider variants of the model-facing schema: OpenAI strict mode and Gemini's subset.

Both providers reject schemas outside their dialect, so the model-facing schema is rewritten
into it and each change is reported with its JSON pointer. Calls are still validated against
the source schema. OpenAI strict mode makes every property required, so an optional property
becomes nullable and the model sends ``null`` for "not given": ``Conversion.validate`` drops
such ``null`` values again before checking (see ``Conversion.validate``), so the wire payload
is what the source schema expects.
"""

from __future__ import annotations

import json
import math
from typing import Any

from langchain_toolrouter.schema.options import StrictProvider
from langchain_toolrouter.schema.pointers import join
from langchain_toolrouter.schema.report import ReportEntry
from langchain_toolrouter.schema.validator import is_json_type
from langchain_toolrouter.schema.values import kind_of

__all__ = ["adapt_for_provider"]

_OPENAI_KEEP = frozenset(
    (
        "type",
        "description",
        "title",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "$defs",
        "$ref",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    )
)
_OPENAI_FORMATS = frozenset(
    ("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")
)
_GEMINI_KEEP = frozenset(
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


def adapt_for_provider(
    schema: dict[str, Any], provider: StrictProvider
) -> tuple[dict[str, Any], list[ReportEntry]]:
    """Rewrite the (inlined) model-facing ``schema`` for ``provider``; return it and the changes."""
    adapter = _OpenAI() if provider == "openai" else _Gemini()
    if provider == "openai":
        schema = _flatten_root_alternatives(schema, adapter)
    out = adapter.node(schema, "")
    if not isinstance(out, dict):
        out = {"type": "object", "properties": {}}
    for key in ("anyOf", "not", "enum", "const"):
        if provider == "openai" and key in out:
            del out[key]
            adapter.note(
                "dropped",
                join("", key),
                f"{key!r} at the root is not supported; removed (calls are still checked against it)",
            )
    return out, adapter.entries


class _Adapter:
    keep: frozenset[str] = frozenset()
    provider = ""

    def __init__(self) -> None:
        self.entries: list[ReportEntry] = []

    def note(self, kind: str, pointer: str, reason: str) -> None:
        self.entries.append(ReportEntry(kind, pointer, f"{self.provider}: {reason}"))  # type: ignore[arg-type]

    def forget(self, pointer: str) -> None:
        """Drop the entries at or below ``pointer``: what they said was shown there was removed
        after all (a report describes the final model-facing schema)."""
        below = pointer + "/"
        self.entries = [
            e for e in self.entries if e.pointer != pointer and not e.pointer.startswith(below)
        ]

    def children(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        """A copy of ``node`` with subschemas adapted, ``oneOf`` as ``anyOf``, ``allOf`` merged."""
        if isinstance(node.get("allOf"), list):
            node = self.merge_all_of(node, pointer)
        out: dict[str, Any] = {}
        for key, value in node.items():
            here = join(pointer, key)
            if key in ("properties", "$defs") and isinstance(value, dict):
                out[key] = {k: self.node(v, join(here, k)) for k, v in value.items()}
            elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
                out[key] = [self.node(v, join(here, i)) for i, v in enumerate(value)]
            elif key in ("items", "additionalProperties") and isinstance(value, dict):
                out[key] = self.node(value, here)
            else:
                out[key] = value
        if "oneOf" in out:
            self.note(
                "approximated", join(pointer, "oneOf"), "oneOf shown as anyOf (no oneOf support)"
            )
            out["anyOf"] = out.get("anyOf", []) + out.pop("oneOf")
        return out

    def merge_all_of(self, node: dict[str, Any], pointer: str) -> dict[str, Any]:
        """``node`` with its ``allOf`` parts merged in (before adaptation), as an intersection:
        type lists and enums intersected, properties merged name by name, required united."""
        self.note(
            "approximated",
            join(pointer, "allOf"),
            "allOf merged into one schema (no allOf support)",
        )
        out = {k: v for k, v in node.items() if k != "allOf"}
        for i, part in enumerate(node["allOf"]):
            if isinstance(part, dict):
                out = self.intersect(out, part, join(join(pointer, "allOf"), i))
        return out

    def intersect(
        self, a: dict[str, Any], b: dict[str, Any], pointer: str, where: str = "allOf"
    ) -> dict[str, Any]:
        if isinstance(b.get("allOf"), list):
            b = self.merge_all_of(b, pointer)
        out = dict(a)
        for key, value in b.items():
            if key not in out:
                out[key] = value
            elif key == "properties" and isinstance(value, dict):
                props = dict(out[key])
                for name, sub in value.items():
                    mine = props.get(name)
                    if isinstance(mine, dict) and isinstance(sub, dict):
                        props[name] = self.intersect(
                            mine, sub, join(join(pointer, key), name), where
                        )
                    elif name not in props or mine is True:
                        props[name] = sub
                out[key] = props
            elif key == "required":
                out[key] = list(dict.fromkeys([*out[key], *value]))
            elif key == "type":
                mine = out[key] if isinstance(out[key], list) else [out[key]]
                theirs = value if isinstance(value, list) else [value]
                both = [t for t in mine if t in theirs or (t == "integer" and "number" in theirs)]
                both += [t for t in theirs if t == "integer" and "number" in mine and t not in both]
                if both:
                    out[key] = both[0] if len(both) == 1 else both
                else:
                    self.conflict(key, pointer, where)
            elif key == "enum" and isinstance(value, list) and isinstance(out[key], list):
                both = [v for v in out[key] if any(_same(v, w) for w in value)]
                if both:
                    out[key] = both
                else:
                    self.conflict(key, pointer, where)
            elif out[key] != value and key not in ("description", "title"):
                self.conflict(key, pointer, where)
        if isinstance(out.get("enum"), list) and "type" in out:
            types = out["type"] if isinstance(out["type"], list) else [out["type"]]
            fitting = [v for v in out["enum"] if any(is_json_type(v, t) for t in types)]
            if len(fitting) != len(out["enum"]):
                if fitting:
                    out["enum"] = fitting
                else:
                    self.conflict("enum", pointer, where)
        return out

    def conflict(self, key: str, pointer: str, where: str = "allOf") -> None:
        self.note(
            "dropped",
            join(pointer, key),
            f"conflicting {key!r} in {where}; the first is shown (calls are still checked "
            "against both)",
        )

    def strip(self, out: dict[str, Any], pointer: str) -> None:
        for key in [k for k in out if k not in self.keep]:
            del out[key]
            self.note(
                "dropped",
                join(pointer, key),
                f"keyword {key!r} is not supported; removed (calls are still checked against it)",
            )

    def object_alternatives(self, schema: dict[str, Any], pointer: str) -> dict[str, Any]:
        """An object's ``anyOf``/``oneOf`` of untyped (or object) branches, which a strict provider
        reads as values of their own: branches that only constrain the object (``[{"required":
        ["a"]}, {"required": ["b"]}]``) are removed; branches with properties are shown as one
        object with all of them. Either way reported; calls are still checked against them."""
        kind = schema.get("type", "object")
        if not (kind == "object" or (isinstance(kind, list) and kind == ["object"])):
            return schema
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if not isinstance(branches, list) or not branches:
                continue
            if not all(
                isinstance(b, dict)
                and b.get("type", "object") == "object"
                and not b.keys() & {"anyOf", "oneOf", "allOf", "enum", "const", "$ref"}
                for b in branches
            ):
                continue
            if any("properties" in b for b in branches):
                rest = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
                if key == "oneOf" and "anyOf" in schema:
                    rest["anyOf"] = schema["anyOf"]
                schema = _flatten_alternatives(
                    {**rest, key: branches}, self, pointer, f"{self.provider} needs one object here"
                )
            else:
                schema = {k: v for k, v in schema.items() if k != key}
                self.note(
                    "dropped",
                    join(pointer, key),
                    f"{key} of constraints on this object (branches without properties) is "
                    "not supported; removed (calls are still checked against it)",
                )
        return schema

    def node(self, schema: Any, pointer: str) -> Any:
        raise NotImplementedError


class _OpenAI(_Adapter):
    keep = _OPENAI_KEEP
    provider = "openai strict mode"

    def node(self, schema: Any, pointer: str) -> Any:
        if schema is False:
            self.note("approximated", pointer, "a schema that accepts nothing shown as null")
            return {"type": "null"}
        if not isinstance(schema, dict):
            schema = {}
        if "type" in schema or "properties" in schema:
            schema = self.object_alternatives(schema, pointer)
        out = self.children(schema, pointer)
        if "$ref" in out and len(out) > 1:
            out = self.lone_ref(out, pointer)
        if not out.keys() & _TYPED and "properties" in out:
            out["type"] = "object"
            self.note(
                "approximated",
                join(pointer, "type"),
                "properties without a type shown as an object (strict mode needs a type); a "
                "value of another type is still accepted when sent",
            )
        elif not out.keys() & _TYPED:
            out["anyOf"] = [dict(t) for t in _ANY_JSON]
            self.note(
                "approximated",
                pointer,
                "a schema without a type (any JSON value) shown as a string, number, boolean or "
                "null (strict mode needs a type); calls are still checked against the source",
            )
        fmt = out.get("format")
        if fmt is not None and not (isinstance(fmt, str) and fmt in _OPENAI_FORMATS):
            del out["format"]
            self.note(
                "dropped", join(pointer, "format"), f"format {fmt!r} is not supported; removed"
            )
        self.strip(out, pointer)
        types = out.get("type")
        is_object = (
            types == "object"
            or (isinstance(types, list) and "object" in types)
            or "properties" in out
        )
        if is_object:
            self.close_object(out, pointer)
        return out

    def lone_ref(self, out: dict[str, Any], pointer: str) -> dict[str, Any]:
        """A (recursive) ``$ref`` with nothing beside it, which strict mode requires: its
        annotations kept around it in a one-branch ``anyOf``, other keywords dropped."""
        siblings = [k for k in out if k != "$ref" and k not in _ANNOTATIONS]
        if siblings:
            self.note(
                "dropped",
                pointer,
                f"keywords {siblings} beside $ref are not supported; removed (calls are still "
                "checked against them)",
            )
        kept = {k: v for k, v in out.items() if k in _ANNOTATIONS}
        return {"anyOf": [{"$ref": out["$ref"]}], **kept}

    def close_object(self, out: dict[str, Any], pointer: str) -> None:
        props: dict[str, Any] = out.setdefault("properties", {})
        required = set(out.get("required", ()))
        optional = [name for name in props if name not in required]
        for name in optional:
            props[name] = _nullable(props[name])
        if optional:
            self.note(
                "approximated",
                join(pointer, "properties"),
                f"optional properties {optional} made required and nullable (strict mode requires "
                "every property); a null from the model means 'not given' and is not sent",
            )
        out["required"] = list(props)
        extra = out.get("additionalProperties", True)
        if extra is not False:
            self.forget(join(pointer, "additionalProperties"))
            what = "free-form object" if not props else "object open to extra properties"
            self.note(
                "approximated",
                join(pointer, "additionalProperties"),
                f"{what} closed with additionalProperties: false (strict mode requires it); the "
                "model can only send the listed properties here; use strict_provider=None for "
                "this tool if it needs free-form values",
            )
        out["additionalProperties"] = False


_ANNOTATIONS = frozenset(("title", "description", "default", "examples"))
_TYPED = frozenset(("type", "anyOf", "enum", "const", "$ref"))
_ANY_JSON = ({"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"})


def _same(a: Any, b: Any) -> bool:
    """JSON equality for enum members (booleans are not numbers)."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _enum_union(subs: list[Any]) -> list[Any] | None:
    """The values of branch schemas that are only ``enum``/``const``, or None."""
    values: list[Any] = []
    for sub in subs:
        if not isinstance(sub, dict) or not sub.keys() & {"enum", "const"}:
            return None
        if not sub.keys() <= {"enum", "const", "description", "title"}:
            return None
        for v in sub.get("enum", [sub.get("const")]) if "enum" in sub else [sub["const"]]:
            if not any(_same(v, w) for w in values):
                values.append(v)
    return values


def _flatten_root_alternatives(schema: dict[str, Any], adapter: _Adapter) -> dict[str, Any]:
    """A root ``anyOf``/``oneOf`` shown as one object (strict mode needs a plain object root)."""
    return _flatten_alternatives(schema, adapter, "", "strict mode needs a plain object root")


def _flatten_alternatives(
    schema: dict[str, Any], adapter: _Adapter, pointer: str, why: str
) -> dict[str, Any]:
    """``schema``'s ``anyOf``/``oneOf`` of object branches shown as one object: every branch's
    properties, required where every branch requires it (``why``: what the provider needs)."""
    branches = [b for k in ("anyOf", "oneOf") for b in schema.get(k, ()) if isinstance(b, dict)]
    if not branches:
        return schema
    out = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
    props = dict(out.get("properties", {}))
    options: dict[str, list[Any]] = {}
    for branch in branches:
        for name, sub in branch.get("properties", {}).items():
            if sub not in options.setdefault(name, []):
                options[name].append(sub)
    for name, subs in options.items():
        values = _enum_union(subs)
        if values is not None:  # discriminators: one enum of every branch's values
            base = props.get(name)
            props[name] = {**(base if isinstance(base, dict) else {}), "enum": values}
        elif name not in props:
            props[name] = subs[0] if len(subs) == 1 else {"anyOf": subs}
    common = set.intersection(*(set(b.get("required", ())) for b in branches))
    out["properties"] = props
    required = list(dict.fromkeys([*out.get("required", ()), *sorted(common)]))
    if required:
        out["required"] = required
    else:
        out.pop("required", None)
    adapter.note(
        "approximated",
        join(pointer, "anyOf" if "anyOf" in schema else "oneOf"),
        f"{'root alternatives' if not pointer else 'alternatives'} shown as one object with "
        f"every branch's properties ({why}); calls are still checked against the alternatives",
    )
    return out


def _nullable(schema: Any) -> Any:
    if not isinstance(schema, dict) or schema.keys() <= _ANNOTATIONS:
        return schema  # already accepts null
    if "$ref" in schema or ("anyOf" in schema and schema.keys() - _ANNOTATIONS != {"anyOf"}):
        # A null must pass the reference (or the alternatives and what is beside them) too:
        # an alternative of its own.
        return {"anyOf": [schema, {"type": "null"}]}
    if "type" in schema and "const" not in schema:
        types = schema["type"]
        listed = [types] if isinstance(types, str) else list(types)
        if "null" in listed:
            return schema
        out = {**schema, "type": [*listed, "null"]}
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    if "anyOf" in schema:
        if any(isinstance(b, dict) and b.get("type") == "null" for b in schema["anyOf"]):
            return schema
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}


class _Gemini(_Adapter):
    keep = _GEMINI_KEEP
    provider = "gemini"

    def node(self, schema: Any, pointer: str) -> Any:
        if not isinstance(schema, dict):
            schema = {} if schema is True else {"type": "null"}
        if "type" in schema or "properties" in schema:
            schema = self.object_alternatives(schema, pointer)
        out = self.boolean_items(self.children(schema, pointer), pointer)
        if "additionalProperties" in out and out["additionalProperties"] is not True:
            self.forget(join(pointer, "additionalProperties"))
            self.note(
                "dropped",
                join(pointer, "additionalProperties"),
                "additionalProperties is not supported; removed",
            )
            del out["additionalProperties"]
        for key, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if key in out:
                value = out.pop(key)
                whole = _whole_bound(value, bound) if _only_integers(out.get("type")) else None
                if whole is not None:
                    # An integer above 2.5 (or 2) is one from 3: the same values, shown exactly.
                    given: Any = out.get(bound)
                    if _is_number(given):
                        whole = max(whole, given) if bound == "minimum" else min(whole, given)
                    out[bound] = whole
                    continue
                if bound not in out:
                    out[bound] = value
                self.note("approximated", join(pointer, key), f"{key} shown as {bound} (inclusive)")
        if "const" in out:
            out["enum"] = [out.pop("const")]
        self.types(out, pointer)
        return self.finish(out, pointer)

    def boolean_items(self, schema: dict[str, Any], pointer: str) -> dict[str, Any]:
        """``items: true`` (any item) left to ``shape``; ``items: false`` (no item) shown as
        ``maxItems: 0``: Gemini's items must be a schema object (after ``children``, which
        merges ``allOf`` parts that may bring either)."""
        items = schema.get("items")
        if not isinstance(items, bool):
            return schema
        out = {k: v for k, v in schema.items() if k != "items"}
        if items is False:
            out["maxItems"] = 0
            self.note("approximated", join(pointer, "items"), "items: false shown as maxItems: 0")
        return out

    def finish(self, out: dict[str, Any], pointer: str) -> dict[str, Any]:
        """``out`` (its subschemas adapted, its type no list) in Gemini's dialect."""
        self.enums(out, pointer)
        if "anyOf" in out:
            branches = [
                b for b in out["anyOf"] if not (isinstance(b, dict) and b.get("type") == "null")
            ]
            if len(branches) != len(out["anyOf"]):
                out["nullable"] = True
                out["anyOf"] = branches
            if not branches:
                del out["anyOf"]  # only null was allowed: nullable says it all
            elif len(branches) == 1 and isinstance(branches[0], dict):
                only = out.pop("anyOf")[0]  # the one alternative left: the value must match it
                out = self.intersect(out, only, join(pointer, "anyOf/0"), "anyOf")
        self.strip(out, pointer)
        self.shape(out, pointer)
        return out

    def types(self, out: dict[str, Any], pointer: str) -> None:
        types = out.get("type")
        if not isinstance(types, list):
            return
        kinds = [t for t in types if t != "null"]
        if "null" in types:
            out["nullable"] = True
            self.note(
                "approximated", join(pointer, "type"), "null in a type list shown as nullable: true"
            )
        enum = out.get("enum") if isinstance(out.get("enum"), list) else None
        if enum is not None:
            # Only the types some enum value has can occur: the others are left out.
            fitting = [k for k in kinds if any(_fits(v, k) for v in enum)]
            if fitting and fitting != kinds:
                self.note(
                    "approximated",
                    join(pointer, "type"),
                    f"type list {types} shown as {fitting}: the enum allows no other",
                )
                kinds = fitting
            elif not fitting:
                enum = None  # no value fits any type: the enum stays whole, said in text
        if len(kinds) == 1:
            out["type"] = kinds[0]
        elif not kinds:
            out["type"] = "null"
        else:
            # Gemini allows each type's keywords only beside that type: they go to its branch,
            # with the enum values of that type.
            del out["type"]
            here = join(pointer, "anyOf")
            start = len(out.get("anyOf", []))
            moved = {"enum"} if enum is not None else set()
            branches = []
            for i, kind in enumerate(kinds):
                branch: dict[str, Any] = {"type": kind}
                for key in _GEMINI_TYPE_KEYWORDS[kind]:
                    if key in out and key != "enum":
                        branch[key] = out[key]
                        moved.add(key)
                if enum is not None:
                    branch["enum"] = [v for v in enum if _fits(v, kind)]
                branches.append(self.finish(branch, join(here, start + i)))
            for key in moved:
                out.pop(key, None)
            out["anyOf"] = out.get("anyOf", []) + branches
            self.note(
                "approximated",
                join(pointer, "type"),
                f"type list {types} shown as anyOf, each type with its own keywords",
            )

    def shape(self, out: dict[str, Any], pointer: str) -> None:
        """What Gemini's schema object requires beyond its keywords: a type on every node
        without ``anyOf`` (``enum`` only on strings), each type's keywords only beside it,
        ``format`` only as that type allows, ``items`` on arrays, ``required`` names defined."""
        if "type" not in out and "anyOf" not in out:
            self.infer_type(out, pointer)
        kind = out.get("type")
        allowed = _GEMINI_TYPE_KEYWORDS.get(kind, ()) if isinstance(kind, str) else ()
        here = f"on {_a(kind)}" if isinstance(kind, str) else "beside anyOf"
        for key in [k for k in out if k in _GEMINI_TYPED_KEYS and k not in allowed]:
            if key == "enum":  # on another type, a string enum allows nothing: said, not dropped
                self.enum_as_text(out, pointer, f"enum is not supported {here}")
            elif key != "format" or kind is None:
                del out[key]
                self.note(
                    "dropped",
                    join(pointer, key),
                    f"{key!r} is not supported {here}; removed (calls are still checked "
                    "against it)",
                )
        if kind is None:
            return
        fmt = out.get("format")
        if fmt is not None and fmt not in _GEMINI_FORMATS.get(kind, ()):
            del out["format"]
            self.note(
                "dropped",
                join(pointer, "format"),
                f"format {fmt!r} is not supported on {_a(kind)}; removed (calls are still "
                "checked against it)",
            )
        if kind == "array" and "items" not in out:
            out["items"] = _gemini_any()
            self.note(
                "approximated",
                join(pointer, "items"),
                "an array without items shown with items that are a string, number or "
                "boolean, or null (Gemini needs items); calls are still checked against the "
                "source",
            )
        if kind == "object" and isinstance(out.get("required"), list):
            props = out.get("properties", {})
            undefined = [n for n in out["required"] if n not in props]
            if undefined:
                out["required"] = [n for n in out["required"] if n in props]
                if not out["required"]:
                    del out["required"]
                self.note(
                    "dropped",
                    join(pointer, "required"),
                    f"required names without a property schema {undefined} are not supported; "
                    "removed (calls are still checked against them)",
                )

    def infer_type(self, out: dict[str, Any], pointer: str) -> None:
        """A type for a node with none, which Gemini requires (outside ``anyOf``)."""
        if "enum" in out:
            out["type"] = "string"  # enums kept here hold only strings: exact
            return
        for kind, key in (("object", "properties"), ("array", "items")):
            if key in out:
                out["type"] = kind
                self.note(
                    "approximated",
                    join(pointer, "type"),
                    f"{key} without a type shown as {_a(kind)} (Gemini needs a type); a value "
                    "of another type is still accepted when sent",
                )
                return
        out.update(_gemini_any())
        self.note(
            "approximated",
            pointer,
            "a schema without a type (any JSON value) shown as a string, number, boolean or "
            "null (Gemini needs a type); calls are still checked against the source",
        )

    def enums(self, out: dict[str, Any], pointer: str) -> None:
        if "const" in out:
            out["enum"] = [out.pop("const")]
        if "enum" not in out:
            return
        values = out["enum"]
        only_null = False
        if None in values:
            out["nullable"] = True
            values = [v for v in values if v is not None]
            only_null = not values  # as an empty enum, it would allow nothing, null included
        if not only_null and all(isinstance(v, str) for v in values):
            out["enum"] = values
            return
        if only_null:
            del out["enum"]
            said = "Must be null."
            why = "the only allowed value is null: shown as nullable: true and said in the description"
            out["description"] = (out.get("description", "") + " " + said).strip()
            self.note("approximated", join(pointer, "enum"), why)
        else:
            out["enum"] = values
            if "type" not in out and "anyOf" not in out:
                kind = _common_type(values)  # implied by the enum: exact
                if kind is not None:
                    out["type"] = kind
            self.enum_as_text(out, pointer, "enum with non-string values is not supported")

    def enum_as_text(self, out: dict[str, Any], pointer: str, why: str) -> None:
        """Move ``out``'s enum into its description, which Gemini shows the model."""
        values = out.pop("enum")
        said = f"Allowed values: {', '.join(json.dumps(v) for v in values)}."
        out["description"] = (out.get("description", "") + " " + said).strip()
        self.note(
            "approximated",
            join(pointer, "enum"),
            f"{why}; the values are listed in the description",
        )


# Gemini's keywords that belong to one type (numbers' also to integers), and its formats.
_GEMINI_TYPE_KEYWORDS: dict[str, tuple[str, ...]] = {
    "object": ("properties", "required", "minProperties", "maxProperties", "propertyOrdering"),
    "array": ("items", "minItems", "maxItems"),
    "string": ("enum", "minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum", "format"),
    "integer": ("minimum", "maximum", "format"),
    "boolean": (),
    "null": (),
}
_GEMINI_TYPED_KEYS = frozenset(k for keys in _GEMINI_TYPE_KEYWORDS.values() for k in keys)
_GEMINI_FORMATS: dict[str, frozenset[str]] = {
    "string": frozenset(("enum", "date-time")),
    "number": frozenset(("float", "double")),
    "integer": frozenset(("int32", "int64")),
}


_VALUE_TYPES = frozenset(("boolean", "integer", "number", "string", "object", "array"))


def _common_type(values: list[Any]) -> str | None:
    """The one JSON type of every value in ``values`` (integers count as numbers), or None."""
    kinds = {kind_of(v) for v in values}
    if kinds == {"integer", "number"}:
        return "number"
    return next(iter(kinds)) if len(kinds) == 1 and kinds <= _VALUE_TYPES else None


def _fits(value: Any, kind: str) -> bool:
    return value is not None and is_json_type(value, kind)


def _is_number(value: Any) -> bool:
    return kind_of(value) in ("integer", "number")


def _only_integers(types: Any) -> bool:
    """Whether a ``type`` allows integers and nothing else but null."""
    kinds = [types] if isinstance(types, str) else types if isinstance(types, list) else []
    return [k for k in kinds if k != "null"] == ["integer"]


def _whole_bound(value: Any, bound: str) -> int | None:
    """The inclusive integer bound equal to an exclusive one on integers (``None``: no number)."""
    if not _is_number(value) or not math.isfinite(value):
        return None
    return int(math.floor(value) + 1 if bound == "minimum" else math.ceil(value) - 1)


def _gemini_any() -> dict[str, Any]:
    """Gemini's closest form of "any JSON value" (it has no untyped schema)."""
    return {
        "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}],
        "nullable": True,
    }


def _a(kind: str) -> str:
    return "an " + kind if kind[0] in "aeiou" else "a " + kind
