"""Property tests over generated schemas: random combinations of the constructs tool schemas use,
with tricky property names, judged by jsonschema exactly like the corpus schemas."""

from __future__ import annotations

import json
import os
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from langchain_toolrouter.schema import ConversionOptions, json_schema_to_model

from .dialects import gemini_problems
from .oracle import instances, mutations, oracle, sends_exactly, unreported_losses

SCALE = float(os.environ.get("TOOLROUTER_PROPERTY_SCALE", "1"))

NAMES = st.sampled_from(
    [
        "a",
        "b",
        "id",
        "from",
        "first name",
        "json",
        "schema",
        "model_config",
        "_x",
        "$ref",
        "User-Agent",
        "config",
        "callbacks",
        "ünï",
        "validate",
        "copy",
        "fields",
        "class",
        "a.b",
    ]
)
PATTERNS = st.sampled_from(["^[a-z]+$", "\\d", "^x-", "^.{0,3}$", "[A-Z]"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.5, -1.5, 2.0]),
    st.sampled_from(["", "a", "on", "5", "True"]),
)


def _strings() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "minLength": st.integers(0, 3),
            "maxLength": st.integers(3, 8),
            "pattern": PATTERNS,
            "format": st.sampled_from(
                ["date-time", "uri", "email", "uuid", "int64", "binary", "date"]
            ),
            "description": st.just("a string"),
        },
    )


def _numbers() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"type": st.sampled_from(["integer", "number"])},
        optional={
            "minimum": st.integers(-10, 0),
            "maximum": st.integers(1, 100),
            "exclusiveMinimum": st.integers(-20, -11),
            "exclusiveMaximum": st.integers(101, 200),
            "multipleOf": st.sampled_from([1, 2, 0.5]),
            "default": SCALARS,
        },
    )


LEAVES = st.one_of(
    _strings(),
    _numbers(),
    st.just({"type": "boolean"}),
    st.just({"type": "null"}),
    st.just({}),
    st.lists(SCALARS, min_size=1, max_size=4, unique_by=lambda v: json.dumps(v)).map(
        lambda e: {"enum": e}
    ),
    SCALARS.map(lambda c: {"const": c}),
    st.lists(
        st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"]),
        min_size=1,
        max_size=3,
        unique=True,
    ).map(lambda t: {"type": t}),
)


def _object(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(NAMES, children, max_size=4))
        schema: dict[str, Any] = {"type": "object", "properties": props}
        names = sorted(props)
        if names:
            schema["required"] = draw(
                st.lists(st.sampled_from(names), unique=True, max_size=len(names))
            )
        extra = draw(st.sampled_from(["absent", "true", "false", "schema", "pattern"]))
        if extra == "true":
            schema["additionalProperties"] = True
        elif extra == "false":
            schema["additionalProperties"] = False
        elif extra == "schema":
            schema["additionalProperties"] = draw(LEAVES)
        elif extra == "pattern":
            schema["patternProperties"] = {draw(PATTERNS): draw(LEAVES)}
            schema["additionalProperties"] = False
        return schema

    return build()


def _composite(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        _object(children),
        st.fixed_dictionaries(
            {"type": st.just("array"), "items": children},
            optional={
                "minItems": st.integers(0, 2),
                "maxItems": st.integers(2, 4),
                "uniqueItems": st.booleans(),
            },
        ),
        st.lists(children, min_size=1, max_size=3).map(lambda b: {"anyOf": b}),
        st.lists(children, min_size=1, max_size=3).map(lambda b: {"oneOf": b}),
        st.lists(children, min_size=1, max_size=2).map(lambda b: {"allOf": b}),
        children.map(lambda c: {"anyOf": [c, {"type": "null"}]}),
    )


SCHEMAS = _object(st.recursive(LEAVES, _composite, max_leaves=6))

_SETTINGS = settings(
    max_examples=max(1, round(60 * SCALE)),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.slow
@_SETTINGS
@given(schema=SCHEMAS, data=st.data())
def test_generated_schemas_are_exact_and_strict(
    schema: dict[str, Any], data: st.DataObject
) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    conversion = json_schema_to_model(schema, name="generated")
    assert not [e for e in conversion.report if e.kind != "renamed"], str(conversion.report)
    jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)
    judge = oracle(schema)
    instance = data.draw(instances(schema), label="valid instance")
    # hypothesis-jsonschema ignores a "format" merged with a "const" (allOf: [{format: email},
    # {const: ""}]): such a schema allows nothing, and its draw is not an instance.
    assume(judge.is_valid(instance))
    assert sends_exactly(conversion, instance)
    assert conversion.payload(conversion.model.model_validate(instance)) == instance
    for _ in range(3):
        mutated = data.draw(mutations(instance), label="mutation")
        if isinstance(mutated, dict):
            assert sends_exactly(conversion, mutated) == judge.is_valid(mutated), mutated


@pytest.mark.slow
@settings(_SETTINGS, max_examples=max(1, round(30 * SCALE)))
@given(schema=SCHEMAS, data=st.data())
def test_gemini_variant_is_in_gemini_dialect_and_calls_pass_unchanged(
    schema: dict[str, Any], data: st.DataObject
) -> None:
    """The Gemini variant is a schema Gemini's function declarations accept (``dialects``);
    valid calls still pass unchanged, since they are checked against the source."""
    conversion = json_schema_to_model(
        schema, name="gemini", options=ConversionOptions(strict_provider="gemini")
    )
    jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)
    assert gemini_problems(conversion.llm_schema) == []
    instance = data.draw(instances(schema), label="valid instance")
    assume(oracle(schema).is_valid(instance))
    assert conversion.validate(instance) == instance


@pytest.mark.slow
@settings(_SETTINGS, max_examples=max(1, round(30 * SCALE)))
@given(schema=SCHEMAS, data=st.data())
def test_openai_strict_variant_round_trips_calls(
    schema: dict[str, Any], data: st.DataObject
) -> None:
    """Valid calls pass the strict variant unchanged, and so do they with a null placeholder for
    every optional, non-nullable property left out (what a strict-mode model sends). A null for
    a property that does accept null is a real value and is kept."""
    conversion = json_schema_to_model(
        schema, name="strict", options=ConversionOptions(strict_provider="openai")
    )
    llm = conversion.llm_schema
    jsonschema.Draft202012Validator.check_schema(llm)
    instance = data.draw(instances(schema), label="valid instance")
    assert conversion.validate(instance) == instance
    placeholders = {
        name: None
        for name, prop in schema["properties"].items()
        if name not in instance
        and name not in schema.get("required", ())
        and not jsonschema.Draft202012Validator(prop).is_valid(None)
    }
    as_sent_by_model = {**instance, **placeholders}
    assert llm["required"] == list(schema["properties"])
    assert conversion.validate(as_sent_by_model) == instance


WILD_LEAVES = st.one_of(
    LEAVES,
    st.sampled_from(
        ["dict", "float", "int", "tuple", "any", "String", "HashMap", "bool", "weird"]
    ).map(lambda t: {"type": t}),
    st.sampled_from(["string", "integer"]).map(lambda t: {"type": t, "nullable": True}),
    st.just({"type": "number", "minimum": 0, "exclusiveMinimum": True}),
    st.just({"type": "string", "properties": {}, "required": ["x"]}),
    st.just({"type": "string", "format": 5, "description": ["not", "text"], "examples": "x"}),
    st.just({"type": "string", "pattern": "(?<y>\\d)"}),
    st.just({"type": "string", "pattern": "["}),
    st.sampled_from(["string", "integer", None, 5]),
    st.just({"type": ["string", "string", "null"]}),
    st.just({"minLength": "3", "maxItems": 2.0, "multipleOf": 0}),
    st.just({"type": "string", "required": True}),  # draft-03: lifted into the parent, or not
    st.just({"type": "number", "exclusiveMaximum": True}),  # draft-04, with no bound beside it
    st.just({"enum": []}),
    # Keywords as Google's SDKs spell them (kept, not applied, reported).
    st.just({"type_": "STRING", "max_length": 3, "format_": "uri"}),
    st.just({"any_of": [{"type": "INTEGER"}, {"type": "null"}], "min_items": 1}),
    st.just({"type": "array", "items": {"type_": "NUMBER"}, "min_items": 1, "maxItems": 2}),
    st.just(
        {"type": "string", "type_": "INTEGER", "min_length": 2, "minLength": 1, "any_of": None}
    ),
)


@st.composite
def _wild_object(draw: st.DrawFn, children: st.SearchStrategy[Any]) -> dict[str, Any]:
    schema = draw(_object(children))
    if draw(st.booleans()):
        schema["required"] = [*schema.get("required", []), "ghost"]
    if draw(st.booleans()):
        schema["type"] = draw(st.sampled_from(["dict", "object", ["object", "null"]]))
    return schema


WILD_SCHEMAS = st.one_of(
    _wild_object(st.recursive(WILD_LEAVES, _composite, max_leaves=6)),
    st.dictionaries(NAMES, WILD_LEAVES, min_size=1, max_size=3),  # a bare map of properties
)


@pytest.mark.slow
@settings(_SETTINGS, max_examples=max(1, round(60 * SCALE)))
@given(schema=WILD_SCHEMAS, data=st.data())
def test_wild_schemas_convert_to_valid_schemas_and_judge_like_their_effective_reading(
    schema: dict[str, Any], data: st.DataObject
) -> None:
    """Non-standard schemas never crash the converter; the effective and model-facing schemas
    are valid JSON Schema (every variant); calls are judged like the effective schema says."""
    for options in (
        None,
        ConversionOptions(strict_provider="openai"),
        ConversionOptions(strict_provider="gemini"),
    ):
        conversion = json_schema_to_model(schema, name="wild", options=options)
        jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)
        if options is not None and options.strict_provider == "gemini":
            assert gemini_problems(conversion.llm_schema) == []
        str(conversion.report)
    conversion = json_schema_to_model(schema, name="wild")
    assert unreported_losses(schema, conversion) == []
    effective = conversion.effective_schema
    jsonschema.Draft202012Validator.check_schema(effective)
    judge = oracle(effective, draft_of=schema)
    instance = data.draw(instances(effective), label="valid instance")
    assert sends_exactly(conversion, instance)
    assert conversion.payload(conversion.model.model_validate(instance)) == instance
    mutated = data.draw(mutations(instance), label="mutation")
    if isinstance(mutated, dict):
        assert sends_exactly(conversion, mutated) == judge.is_valid(mutated), mutated
