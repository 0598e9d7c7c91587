"""``unevaluatedProperties``/``unevaluatedItems`` beside applicators are enforced exactly.

Each case is judged by jsonschema on the schema as published and by the converter's validator;
both must agree on every value. The model-facing schema keeps the keyword as written.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest

from langchain_toolrouter.schema import (
    ArgsValidationError,
    ConversionOptions,
    json_schema_to_model,
)
from langchain_toolrouter.schema import validator as validator_module

from .oracle import agree

_KIND_A = {"properties": {"kind": {"const": "a"}, "a": {"type": "integer"}}, "required": ["kind"]}
_KIND_B = {"properties": {"kind": {"const": "b"}, "b": {"type": "integer"}}, "required": ["kind"]}


def _obj(**keywords: Any) -> dict[str, Any]:
    return {"type": "object", **keywords}


def _list_prop(array_schema: dict[str, Any], **root: Any) -> dict[str, Any]:
    """Tool arguments are an object: the array under test is the property ``xs``."""
    return {"type": "object", "properties": {"xs": array_schema}, **root}


def _xs(*lists: list[Any]) -> list[dict[str, Any]]:
    return [{"xs": v} for v in lists]


# name -> (schema, accepted, rejected)
CASES: dict[str, tuple[dict[str, Any], list[Any], list[Any]]] = {
    "anyOf: names of every passing branch": (
        _obj(
            anyOf=[
                {"properties": {"a": {"type": "string"}}},
                {"properties": {"b": {"type": "integer"}}},
            ],
            unevaluatedProperties=False,
        ),
        [{}, {"a": "x"}, {"b": 1}, {"a": "x", "b": 1}],
        [{"c": 1}, {"a": "x", "c": 1}, {"a": 1, "b": 1}, {"a": "x", "b": "y"}],
    ),
    "oneOf: only the passing branch evaluates": (
        _obj(oneOf=[_KIND_A, _KIND_B], unevaluatedProperties=False),
        [{"kind": "a", "a": 1}, {"kind": "b", "b": 2}, {"kind": "a"}],
        [{"kind": "a", "b": 1}, {"kind": "b", "a": 1}, {"kind": "a", "z": 1}],
    ),
    "oneOf with a schema for the rest": (
        _obj(oneOf=[_KIND_A, _KIND_B], unevaluatedProperties={"type": "boolean"}),
        [{"kind": "a", "b": True}, {"kind": "b", "b": 1, "a": False}],
        [{"kind": "a", "b": 1}, {"kind": "b", "x": "y"}],
    ),
    "allOf containing anyOf": (
        _obj(
            properties={"id": {"type": "integer"}},
            allOf=[{"anyOf": [{"properties": {"a": True}}, {"properties": {"b": True}}]}],
            unevaluatedProperties=False,
        ),
        [{"id": 1, "a": 1}, {"b": [], "a": None}],
        [{"id": 1, "c": 1}],
    ),
    "not evaluates nothing": (
        _obj(
            properties={"a": {"type": "integer"}},
            **{"not": {"properties": {"b": {"type": "string"}}, "required": ["b"]}},
            unevaluatedProperties=False,
        ),
        [{"a": 1}, {}],
        [{"b": 1}, {"a": 1, "b": 2}, {"b": "x"}],
    ),
    "if/then/else": (
        _obj(
            properties={"mode": {"enum": ["file", "url"]}},
            required=["mode"],
            **{
                "if": {"properties": {"mode": {"const": "file"}}},
                "then": {"properties": {"path": {"type": "string"}}},
                "else": {"properties": {"url": {"type": "string"}}},
            },
            unevaluatedProperties=False,
        ),
        [{"mode": "file", "path": "/x"}, {"mode": "url", "url": "u"}, {"mode": "url"}],
        [{"mode": "file", "url": "u"}, {"mode": "url", "path": "/x"}, {"mode": "file", "z": 1}],
    ),
    "if without then/else: its own names count when it passes": (
        _obj(
            **{"if": {"properties": {"a": {"type": "integer"}}, "required": ["a"]}},
            unevaluatedProperties=False,
        ),
        [{"a": 1}, {}],
        [{"a": "x"}, {"a": 1, "b": 1}],
    ),
    "dependentSchemas: only when triggered": (
        _obj(
            properties={"card": {"type": "string"}},
            dependentSchemas={"card": {"properties": {"cvc": {"type": "string"}}}},
            unevaluatedProperties=False,
        ),
        [{"card": "1", "cvc": "2"}, {"card": "1"}],
        [{"cvc": "2"}, {"card": "1", "cvc": "2", "pin": "3"}],
    ),
    "$ref to a definition with properties": (
        _obj(
            **{"$defs": {"base": {"properties": {"id": {"type": "integer"}}}}},
            **{"$ref": "#/$defs/base"},
            anyOf=[{"properties": {"name": {"type": "string"}}}],
            unevaluatedProperties=False,
        ),
        [{"id": 1, "name": "n"}, {}],
        [{"id": 1, "other": 1}, {"extra": True}],
    ),
    "$ref to a definition whose names depend on anyOf": (
        _obj(
            **{
                "$defs": {
                    "pet": {
                        "anyOf": [
                            {"properties": {"bark": {"type": "boolean"}}, "required": ["bark"]},
                            {"properties": {"meow": {"type": "boolean"}}, "required": ["meow"]},
                        ]
                    }
                }
            },
            properties={"name": {"type": "string"}},
            allOf=[{"$ref": "#/$defs/pet"}],
            unevaluatedProperties=False,
        ),
        [{"name": "rex", "bark": True}, {"meow": False, "bark": True}],
        [{"bark": "no", "meow": True}, {"bark": True, "purr": True}],
    ),
    "nested unevaluatedProperties evaluates everything": (
        _obj(
            allOf=[{"properties": {"a": True}, "unevaluatedProperties": {"type": "integer"}}],
            anyOf=[{"required": ["a"]}],
            unevaluatedProperties=False,
        ),
        [{"a": "x", "b": 1}],
        [{"a": "x", "b": "y"}],
    ),
    "additionalProperties in a passing branch evaluates everything": (
        _obj(
            anyOf=[{"additionalProperties": {"type": "integer"}}, {"properties": {"s": True}}],
            unevaluatedProperties=False,
        ),
        [{"x": 1, "y": 2}, {"s": "x"}],
        [{"s": "x", "y": "z"}],
    ),
    "patternProperties in a branch": (
        _obj(
            oneOf=[
                {"patternProperties": {"^x-": {"type": "string"}}, "required": ["x-kind"]},
                {"required": ["id"]},
            ],
            properties={"id": {"type": "integer"}},
            unevaluatedProperties=False,
        ),
        [{"x-kind": "1", "x-a": "2"}, {"id": 1}],
        [{"x-kind": "1", "y": 1}, {"id": 1, "x-a": "1"}, {"x-kind": "1", "id": 1}],
    ),
    "nested object: the inner keyword at its own path": (
        _obj(
            properties={
                "filter": _obj(
                    anyOf=[{"properties": {"eq": True}}, {"properties": {"in": True}}],
                    unevaluatedProperties=False,
                )
            }
        ),
        [{"filter": {"eq": 1}}, {"filter": {}}],
        [{"filter": {"eq": 1, "ne": 2}}],
    ),
    "unevaluatedItems with prefixItems beside allOf": (
        _list_prop(
            {
                "type": "array",
                "prefixItems": [{"type": "string"}],
                "allOf": [{"prefixItems": [True, {"type": "integer"}]}],
                "unevaluatedItems": False,
            }
        ),
        _xs([], ["a"], ["a", 1]),
        _xs(["a", 1, 2], [1], ["a", "b"]),
    ),
    "unevaluatedItems with contains": (
        _list_prop(
            {
                "type": "array",
                "prefixItems": [{"type": "string"}],
                "contains": {"type": "integer"},
                "unevaluatedItems": False,
            }
        ),
        _xs(["a", 1], ["a", 1, 2], ["a"] + [3] * 3),
        _xs(["a", 1, "b"], ["a", 1, None], [1]),
    ),
    "unevaluatedItems: contains only counts in a passing branch": (
        _list_prop(
            {
                "type": "array",
                "anyOf": [
                    {"contains": {"type": "integer"}, "minContains": 2},
                    {"prefixItems": [True]},
                ],
                "unevaluatedItems": {"type": "string"},
            }
        ),
        _xs([1, 2], [1, 2, "s"], [None, "s"], [None]),
        _xs([1, None], [True, None]),
    ),
    "unevaluatedItems beside if/then and $ref": (
        _list_prop(
            {
                "type": "array",
                "$ref": "#/$defs/pair",
                "if": {"prefixItems": [{"const": "tag"}]},
                "then": {"prefixItems": [True, True, {"type": "string"}]},
                "unevaluatedItems": False,
            },
            **{"$defs": {"pair": {"prefixItems": [{"type": "string"}, {"type": "integer"}]}}},
        ),
        _xs(["tag", 1, "x"], ["a", 1], ["tag"]),
        _xs(["a", 1, "x"], ["tag", 1, "x", "y"]),
    ),
    "nested unevaluatedItems evaluates everything": (
        _list_prop(
            {
                "type": "array",
                "oneOf": [{"prefixItems": [True], "unevaluatedItems": {"type": "integer"}}],
                "unevaluatedItems": False,
            }
        ),
        _xs(["a", 1, 2], []),
        _xs(["a", "b"]),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_verdicts_agree_with_jsonschema(case: str) -> None:
    schema, accepted, rejected = CASES[case]
    agree(schema, accepted, rejected)


@pytest.mark.parametrize("case", sorted(CASES))
def test_keyword_is_not_reported_and_stays_in_the_model_facing_schema(case: str) -> None:
    schema = CASES[case][0]
    conversion = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert not [e for e in conversion.report if "unevaluated" in e.reason], conversion.report
    llm = conversion.llm_schema
    jsonschema.Draft202012Validator.check_schema(llm)
    for keyword in ("unevaluatedProperties", "unevaluatedItems"):
        assert (keyword in json.dumps(schema)) == (keyword in json.dumps(llm))
    for provider in ("openai", "gemini"):
        variant = json_schema_to_model(
            copy.deepcopy(schema), name="t", options=ConversionOptions(strict_provider=provider)
        )
        jsonschema.Draft202012Validator.check_schema(variant.llm_schema)


def _errors(schema: dict[str, Any], value: Any) -> list[dict[str, Any]]:
    conversion = json_schema_to_model(schema, name="t")
    with pytest.raises(ArgsValidationError) as info:
        conversion.validate(value)
    return info.value.errors


def test_error_names_the_unevaluated_key_and_what_is_allowed() -> None:
    schema, _, _ = CASES["oneOf: only the passing branch evaluates"]
    (error,) = _errors(schema, {"kind": "a", "a": 1, "b": 2})
    assert error["path"] == "/b"
    assert error["message"] == "unknown property 'b'"
    assert error["expected"] == "only these properties: a, kind"


def test_error_for_a_nested_object_has_the_full_path() -> None:
    schema, _, _ = CASES["nested object: the inner keyword at its own path"]
    (error,) = _errors(schema, {"filter": {"eq": 1, "ne": 2}})
    assert error["path"] == "/filter/ne"
    assert "ne" in error["message"]


def test_error_for_a_schema_valued_keyword_comes_from_that_schema() -> None:
    schema, _, _ = CASES["oneOf with a schema for the rest"]
    (error,) = _errors(schema, {"kind": "a", "b": 1})
    assert error["path"] == "/b"
    assert error["expected"] == "a boolean"


def test_error_for_an_unevaluated_item_names_its_index() -> None:
    schema, _, _ = CASES["unevaluatedItems with contains"]
    (error,) = _errors(schema, {"xs": ["a", 1, "b"]})
    assert error["path"] == "/xs/2"
    assert '"b"' in error["message"]


def test_other_failures_are_reported_without_repeating_the_branch_names() -> None:
    schema = _obj(allOf=[{"properties": {"n": {"type": "integer"}}}], unevaluatedProperties=False)
    errors = _errors(schema, {"n": "x", "m": 1})
    assert [(e["path"], e["message"]) for e in errors] == [
        ("/n", 'got string "x"'),
        ("/m", "unknown property 'm'"),
    ]


def test_schemas_without_the_keywords_never_build_collectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path stays as it was: no annotation tracking where nothing needs it."""

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("annotation tracking compiled for a schema without unevaluated*")

    monkeypatch.setattr(validator_module._Compiler, "collector", forbidden)
    monkeypatch.setattr(validator_module._Compiler, "unevaluated", forbidden)
    schema = _obj(
        **{"$defs": {"base": {"properties": {"id": {"type": "integer"}}}}},
        **{"$ref": "#/$defs/base"},
        properties={"xs": {"type": "array", "prefixItems": [True], "contains": {"const": 1}}},
        anyOf=[_KIND_A, _KIND_B],
        **{"if": {"required": ["a"]}, "then": {"required": ["kind"]}},
        dependentSchemas={"z": {"required": ["b"]}},
        additionalProperties={"type": ["integer", "string"]},
    )
    conversion = json_schema_to_model(schema, name="t")
    assert conversion.validate({"kind": "a", "a": 1}) == {"kind": "a", "a": 1}
    with pytest.raises(ArgsValidationError):
        conversion.validate({"kind": "c"})
    with pytest.raises(AssertionError, match="annotation tracking"):
        validator_module.compile_schema(_obj(anyOf=[True], unevaluatedProperties=False))


def test_without_applicators_it_is_still_read_as_additional_properties() -> None:
    """The exact rewrite is kept where nothing evaluates in place (a plain, widely supported
    keyword for the model); beside an applicator the keyword stays as written."""
    plain = json_schema_to_model(
        _obj(properties={"a": True}, unevaluatedProperties=False), name="t"
    ).effective_schema
    assert plain["additionalProperties"] is False
    assert "unevaluatedProperties" not in plain
    beside = json_schema_to_model(
        _obj(allOf=[{"properties": {"a": True}}], unevaluatedProperties=False), name="t"
    ).effective_schema
    assert beside["unevaluatedProperties"] is False
    assert beside["allOf"] == [{"properties": {"a": True}}]


# A required name without a schema in "properties": an empty one is added (so the model sees
# the name) unless an unevaluatedProperties applies to the object, where it would count the
# name as evaluated.
_THEN_DEFINES_A = _obj(
    required=["a"],
    **{
        "if": {"properties": {"b": {"const": 1}}, "required": ["b"]},
        "then": {"properties": {"a": {"type": "integer"}}},
    },
    unevaluatedProperties=False,
)
_REQUIRED_CASES: dict[str, tuple[dict[str, Any], list[Any], list[Any]]] = {
    "then defines it, beside unevaluatedProperties": (
        _THEN_DEFINES_A,
        [{"a": 1, "b": 1}],
        [{"a": 1}, {"a": 1, "b": 2}, {"a": "x", "b": 1}, {"b": 1}],
    ),
    "dependentSchemas defines it, beside unevaluatedProperties": (
        _obj(
            required=["a"],
            dependentSchemas={"b": {"properties": {"a": {"type": "string"}}}},
            properties={"b": {}},
            unevaluatedProperties=False,
        ),
        [{"a": "x", "b": 0}],
        [{"a": "x"}, {"a": 1, "b": 0}],
    ),
    "a typed allOf part requires it, unevaluatedProperties above": (
        _obj(unevaluatedProperties=False, allOf=[_obj(required=["a"])]),
        [],
        [{"a": 1}, {}],
    ),
    "a typed then requires it, unevaluatedProperties above": (
        _obj(
            properties={"b": {}},
            unevaluatedProperties={"type": "integer"},
            **{"if": {"required": ["b"]}, "then": _obj(required=["a"])},
        ),
        [{"a": 1, "b": 0}, {}],
        [{"a": "x", "b": 0}, {"b": 0}],
    ),
    "nothing defines it, unevaluatedProperties false": (
        _obj(required=["a"], unevaluatedProperties=False),
        [],
        [{"a": 1}, {}],
    ),
    "no unevaluatedProperties: the name is added": (
        _obj(required=["a"], dependentSchemas={"b": {"properties": {"a": {"type": "string"}}}}),
        [{"a": 1}, {"a": "x", "b": 0}],
        [{"a": 1, "b": 0}, {}],
    ),
}


@pytest.mark.parametrize("case", sorted(_REQUIRED_CASES))
def test_required_name_without_a_schema_is_judged_like_jsonschema(case: str) -> None:
    schema, accepted, rejected = _REQUIRED_CASES[case]
    agree(schema, accepted, rejected)


def test_required_name_without_a_schema_is_reported_with_the_right_reason() -> None:
    def reasons(schema: dict[str, Any]) -> list[str]:
        conversion = json_schema_to_model(copy.deepcopy(schema), name="t")
        return [e.reason for e in conversion.report if e.pointer.endswith("/required")]

    (why,) = reasons(_THEN_DEFINES_A)
    assert "not shown to the model" in why
    assert '"unevaluatedProperties"' in why
    assert 'its schema in "then"' in why
    llm = json_schema_to_model(copy.deepcopy(_THEN_DEFINES_A), name="t").llm_schema
    assert "a" not in llm.get("properties", {})
    assert llm["required"] == ["a"]
    (why,) = reasons(_REQUIRED_CASES["nothing defines it, unevaluatedProperties false"][0])
    assert "every call is rejected" in why
    schema = _REQUIRED_CASES["no unevaluatedProperties: the name is added"][0]
    (why,) = reasons(schema)
    assert "shown to the model as any JSON value" in why
    assert '"dependentSchemas"' in why
    assert json_schema_to_model(schema, name="t").llm_schema["properties"]["a"] == {}
    (why,) = reasons(_obj(required=["a"], additionalProperties={"type": "string"}))
    assert 'checked against "additionalProperties"' in why
    (why,) = reasons(_obj(required=["a"]))
    assert why.endswith("kept required and its value accepts any JSON value")
