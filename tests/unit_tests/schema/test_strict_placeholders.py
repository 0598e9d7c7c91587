"""OpenAI strict mode's ``null`` placeholders across alternatives (``anyOf``/``oneOf``/``allOf``).

Strict mode shows a root ``anyOf``/``oneOf`` as one object with every branch's properties, all
required and the optional ones nullable, so the model sends ``null`` for every property it does
not give, those of the branches it did not pick included. Random schemas with root and nested
alternatives (with and without ``unevaluatedProperties``/``additionalProperties: false``) and
valid instances of them (jsonschema as the oracle): the instance plus a ``null`` for every
property the strict model-facing schema shows and the instance lacks must come back as the
instance (the instance's own nulls aside, see ``_cleaned_to``), unless the source schema
accepts it with the nulls: then it is sent as given.
"""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langchain_toolrouter.schema import ArgsValidationError, ConversionOptions, json_schema_to_model
from langchain_toolrouter.schema.pointers import iter_subschemas

SCALE = float(os.environ.get("TOOLROUTER_PROPERTY_SCALE", "1"))
_SETTINGS = settings(
    max_examples=max(1, round(300 * SCALE)),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
_OPENAI = ConversionOptions(strict_provider="openai")

NAMES = ["a", "b", "c", "d"]
LEAVES: list[dict[str, Any]] = [
    {"type": "integer"},
    {"type": "integer"},
    {"type": "string"},
    {"type": "boolean"},
    {"enum": ["x", "y"]},
    {"type": ["integer", "null"]},  # a null here is a real value: kept
]


def _leaf(rnd: random.Random) -> dict[str, Any]:
    return copy.deepcopy(rnd.choice(LEAVES))


def _branch(rnd: random.Random, tag: str | None, depth: int) -> dict[str, Any]:
    props = {n: _leaf(rnd) for n in rnd.sample(NAMES, rnd.randint(0, 3))}
    if depth > 0 and rnd.random() < 0.3:
        props["o"] = object_node(rnd, depth - 1)
    out: dict[str, Any] = {"properties": props}
    if tag is not None:
        props["kind"] = {"const": tag}
    required = [n for n in props if rnd.random() < 0.5]
    if tag is not None:
        required.append("kind")
    if required:
        out["required"] = sorted(set(required))
    if rnd.random() < 0.3:
        out["type"] = "object"
    return out


def object_node(rnd: random.Random, depth: int) -> dict[str, Any]:
    """An object schema: own properties, and alternatives in anyOf/oneOf (tagged by a "kind"
    discriminator or not), maybe an allOf part, closed or not."""
    out: dict[str, Any] = {"type": "object"}
    props = {n: _leaf(rnd) for n in rnd.sample(NAMES, rnd.randint(0, 2))}
    tagged = rnd.random() < 0.5
    key = rnd.choice(["anyOf", "oneOf"])
    tags = ["t0", "t1", "t2"][: rnd.randint(2, 3)]
    if tagged:
        props["kind"] = {"enum": tags}
    out["properties"] = props
    out[key] = [_branch(rnd, tag if tagged else None, depth) for tag in tags]
    if rnd.random() < 0.25:
        out["allOf"] = [_branch(rnd, None, 0)]
    if props and rnd.random() < 0.3:
        out["required"] = rnd.sample(sorted(props), 1)
    closing = rnd.random()
    if closing < 0.5:
        out["unevaluatedProperties"] = False
    elif closing < 0.6:
        out["additionalProperties"] = False
    return out


# -- instances ----------------------------------------------------------------------------------


def _value(rnd: random.Random, schemas: list[Any]) -> Any:
    for s in schemas:
        if "const" in s:
            return s["const"]
    s = rnd.choice(schemas)
    if "enum" in s:
        return rnd.choice(s["enum"])
    kind = s.get("type")
    if kind == "object" or "properties" in s:
        return instance(rnd, s)
    if kind == "integer":
        return rnd.randint(0, 3)
    if kind == "string":
        return rnd.choice(["s", "x"])
    if kind == "boolean":
        return rnd.random() < 0.5
    return rnd.choice([1, None])  # ["integer", "null"]


def instance(rnd: random.Random, schema: dict[str, Any]) -> dict[str, Any]:
    """A candidate instance: one branch per anyOf/oneOf, every allOf part, some optional keys
    (the caller keeps those jsonschema accepts)."""
    parts = [schema, *schema.get("allOf", [])]
    parts.extend(rnd.choice(schema[key]) for key in ("anyOf", "oneOf") if key in schema)
    defined: dict[str, list[Any]] = {}
    required: set[str] = set()
    for part in parts:
        for name, sub in part.get("properties", {}).items():
            defined.setdefault(name, []).append(sub)
        required.update(part.get("required", ()))
    return {
        name: _value(rnd, subs)
        for name, subs in defined.items()
        if name in required or name == "kind" or rnd.random() < 0.5
    }


# -- what a strict-mode model sends -----------------------------------------------------------


def views(node: Any) -> list[dict[str, Any]]:
    """The property sets a model can fill at ``node`` of the model-facing schema: its own
    properties with those of one ``anyOf`` branch (recursively); name -> schema."""
    if not isinstance(node, dict):
        return [{}]
    own = dict(node.get("properties", {}))
    if "anyOf" not in node:
        return [own]
    return [{**own, **view} for branch in node["anyOf"] for view in views(branch)]


_MAX_SENT = 16


def _takes_null(schema: Any) -> bool:
    return bool(jsonschema.Draft202012Validator(schema).is_valid(None))


def as_sent_by_model(llm: Any, value: Any, nullable: set[str]) -> list[Any]:
    """Every way a strict-mode model can send ``value``: per object, a view of the model-facing
    schema holding its keys, with a null for every property the view shows and the value lacks
    (but the names a null is a real value for, in the source schema)."""
    if not isinstance(value, dict):
        return [value]
    out: list[Any] = []
    for view in views(llm):
        missing = [name for name in view if name not in value]
        if not value.keys() <= view.keys() or not all(_takes_null(view[n]) for n in missing):
            continue  # not a view that fits: the model must give a value it lacks
        nulls = {name: None for name in missing if name not in nullable}
        combos: list[dict[str, Any]] = [{}]
        for name, item in value.items():
            sent = as_sent_by_model(view[name], item, nullable)
            combos = [{**c, name: s} for c in combos for s in sent][:_MAX_SENT]
        out.extend({**c, **nulls} for c in combos)
    return out[:_MAX_SENT]


def nullable_names(schema: dict[str, Any]) -> set[str]:
    """Names some property schema of ``schema`` accepts null for."""
    return {
        name
        for node, _ in iter_subschemas(schema, "")
        for name, sub in node.get("properties", {}).items()
        if jsonschema.Draft202012Validator(sub).is_valid(None)
    }


def object_shapes(schema: dict[str, Any]) -> dict[str, list[Any]]:
    """Name -> the object schemas the source gives that property anywhere."""
    out: dict[str, list[Any]] = {}
    for node, _ in iter_subschemas(schema, ""):
        for name, sub in node.get("properties", {}).items():
            if isinstance(sub, dict) and sub.get("type") == "object":
                out.setdefault(name, []).append(jsonschema.Draft202012Validator(sub))
    return out


def fits_a_shape(value: dict[str, Any], shapes: dict[str, list[Any]]) -> bool:
    """Whether every object below ``value`` fits a schema given for its property somewhere.

    A strict-mode model fills an object after a shape it was shown; a value accepted only
    because a branch leaves the property free, and fitting no shape, is not what it sends (and
    which of its nulls are placeholders is then anyone's guess).
    """
    return all(
        any(v.is_valid(item) for v in shapes.get(name, ())) and fits_a_shape(item, shapes)
        for name, item in value.items()
        if isinstance(item, dict)
    )


def assert_openai_strict_rules(llm: dict[str, Any]) -> None:
    """What the existing tests check of the strict variant (test_llm_schema, c11)."""
    jsonschema.Draft202012Validator.check_schema(llm)
    assert llm["type"] == "object"
    assert not {"anyOf", "oneOf", "allOf", "not", "enum", "const"} & llm.keys()
    for node, _ in iter_subschemas(llm, ""):
        assert not {"oneOf", "allOf", "unevaluatedProperties"} & node.keys(), node
        if node.get("type") == "object" or "properties" in node:
            assert node["additionalProperties"] is False, node
            assert sorted(node["required"]) == sorted(node["properties"]), node
            for sub in node["properties"].values():
                assert {"type", "anyOf", "enum", "const", "$ref"} & sub.keys(), sub


def _cleaned_to(got: Any, instance: Any) -> bool:
    """Whether ``got`` is ``instance``, but perhaps for some of the instance's own nulls: a
    null the model sends for a property it was shown nullable is ambiguous ("not given" or
    null) where the source does not define the property (the cleaner reads it as "not given").
    """
    if isinstance(instance, dict):
        return (
            isinstance(got, dict)
            and got.keys() <= instance.keys()
            and all(_cleaned_to(got[k], v) if k in got else v is None for k, v in instance.items())
        )
    return bool(got == instance)


def _sent(conversion: Any, value: dict[str, Any]) -> Any:
    try:
        return conversion.validate(value)
    except ArgsValidationError as exc:
        return exc


_STATS: list[str] = []  # outcomes (when STRICT_STATS is set, to check the generators)


@pytest.mark.slow
@_SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_strict_placeholders_across_alternatives_are_removed(seed: int) -> None:
    rnd = random.Random(seed)
    schema = object_node(rnd, 1)
    if rnd.random() < 0.4:  # the alternatives one level down, under a property
        schema = {
            "type": "object",
            "properties": {"p": schema, "q": _leaf(rnd)},
            "required": ["p"] if rnd.random() < 0.5 else [],
        }
    conversion = json_schema_to_model(schema, name="strict", options=_OPENAI)
    assert_openai_strict_rules(conversion.llm_schema)
    judge = jsonschema.Draft202012Validator(schema)
    nullable = nullable_names(schema)
    candidates = [instance(rnd, schema) for _ in range(8)]
    shapes = object_shapes(schema)
    for value in [v for v in candidates if judge.is_valid(v) and fits_a_shape(v, shapes)]:
        assert conversion.validate(value) == value
        sent = as_sent_by_model(conversion.llm_schema, value, nullable)
        for as_sent in sent:
            got = _sent(conversion, as_sent)
            why = (json.dumps(schema), value, as_sent, got)
            if judge.is_valid(as_sent):
                assert got == as_sent, why
            else:
                assert _cleaned_to(got, value), why
        if os.environ.get("STRICT_STATS"):
            _STATS.extend(
                "same"
                if s == value
                else "as sent"
                if judge.is_valid(s)
                else "cleaned"
                if _sent(conversion, s) == value
                else "own nulls dropped"
                for s in sent
            )
            _STATS.append(f"views: {len(sent)}")


# -- examples -------------------------------------------------------------------------------------

TAGGED = {
    "type": "object",
    "properties": {"kind": {"enum": ["a", "b"]}},
    "oneOf": [
        {
            "properties": {"kind": {"const": "a"}, "a": {"type": "integer"}},
            "required": ["kind", "a"],
        },
        {
            "properties": {"kind": {"const": "b"}, "b": {"type": "integer"}},
            "required": ["kind", "b"],
        },
    ],
    "unevaluatedProperties": False,
}


def test_nulls_for_the_branches_not_picked_are_removed() -> None:
    conversion = json_schema_to_model(TAGGED, name="t", options=_OPENAI)
    assert conversion.llm_schema["properties"]["b"] == {"type": ["integer", "null"]}
    assert conversion.validate({"kind": "a", "a": 1, "b": None}) == {"kind": "a", "a": 1}
    assert conversion.validate({"kind": "b", "a": None, "b": 2}) == {"kind": "b", "b": 2}
    with pytest.raises(ArgsValidationError):  # the picked branch's required value is missing
        conversion.validate({"kind": "b", "a": 1, "b": None})


def test_a_null_the_chosen_branch_accepts_is_kept() -> None:
    schema = {
        "type": "object",
        "anyOf": [
            {"properties": {"a": {"type": "integer"}, "n": {"type": ["string", "null"]}}},
            {"properties": {"b": {"type": "integer"}}, "required": ["b"]},
        ],
        "unevaluatedProperties": False,
    }
    conversion = json_schema_to_model(schema, name="t", options=_OPENAI)
    assert jsonschema.Draft202012Validator(schema).is_valid({"a": 1, "n": None})
    assert conversion.validate({"a": 1, "n": None, "b": None}) == {"a": 1, "n": None}
    assert conversion.validate({"a": None, "n": None, "b": 2}) == {"n": None, "b": 2}


def test_nested_alternatives_under_a_property() -> None:
    schema = {"type": "object", "properties": {"p": TAGGED}, "required": ["p"]}
    conversion = json_schema_to_model(schema, name="t", options=_OPENAI)
    sent = conversion.validate({"p": {"kind": "b", "a": None, "b": 2}})
    assert sent == {"p": {"kind": "b", "b": 2}}
    assert_openai_strict_rules(conversion.llm_schema)


def test_a_null_another_allof_part_requires_is_kept() -> None:
    # "a" has two schemas (its own and an allOf part's): cleaned against both at once, the
    # null the second requires stays, while the root's "b" placeholder goes.
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object"}, "b": {"type": "string"}},
        "allOf": [
            {"properties": {"a": {"properties": {"x": {"type": "null"}}, "required": ["x"]}}}
        ],
    }
    conversion = json_schema_to_model(schema, name="t", options=_OPENAI)
    call = {"a": {"x": None}, "b": None}
    assert jsonschema.Draft202012Validator(conversion.llm_schema).is_valid(call)
    assert conversion.validate(call) == {"a": {"x": None}}


@pytest.mark.parametrize("shown", [{}, {"type": ["string", "null"]}])
def test_a_null_another_allof_part_forbids_is_removed(shown: dict[str, Any]) -> None:
    # The merged strict schema shows "a" (required, so the model sends null for "not given"),
    # but one allOf part is closed: only "a" absent is valid, even where "a" accepts null.
    schema = {
        "type": "object",
        "properties": {
            "o": {"allOf": [{"additionalProperties": False}, {"properties": {"a": shown}}]}
        },
    }
    conversion = json_schema_to_model(schema, name="t", options=_OPENAI)
    call = {"o": {"a": None}}
    assert jsonschema.Draft202012Validator(conversion.llm_schema).is_valid(call)
    assert conversion.validate(call) == {"o": {}}
    with pytest.raises(ArgsValidationError):
        conversion.validate({"o": {"a": "x"}})
