"""Example tests: each JSON Schema construct, accepted and rejected exactly like jsonschema.

Every case lists calls that must be accepted (and sent unchanged) and calls that must be
rejected; the oracle (jsonschema, on the effective schema) must agree with each expectation,
so a wrong expectation fails as loudly as a wrong converter.
"""

from __future__ import annotations

from typing import Any

import pytest

from langchain_toolrouter.schema import ArgsValidationError, json_schema_to_model

from .oracle import oracle


def obj(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **extra}


CASES: dict[str, tuple[dict[str, Any], list[Any], list[Any]]] = {
    "all JSON types": (
        obj(
            {
                "s": {"type": "string"},
                "i": {"type": "integer"},
                "n": {"type": "number"},
                "b": {"type": "boolean"},
                "z": {"type": "null"},
                "a": {"type": "array"},
                "o": {"type": "object"},
            }
        ),
        [
            {"s": "5", "i": 5, "n": 5, "b": False, "z": None, "a": [1, "x"], "o": {"k": [{}]}},
            {"i": 1.0, "n": 2.5},
            {},
        ],
        [
            {"s": 5},
            {"i": "5"},
            {"i": 1.5},
            {"i": True},
            {"n": True},
            {"n": "1"},
            {"b": 0},
            {"b": "true"},
            {"z": 0},
            {"a": {}},
            {"o": []},
            {"s": None},
        ],
    ),
    "type list and nullable": (
        obj({"v": {"type": ["string", "integer", "null"]}, "w": {"type": ["number", "null"]}}),
        [{"v": "x"}, {"v": 3}, {"v": None}, {"w": None}, {"w": 0.5}],
        [{"v": 1.5}, {"v": []}, {"w": "1"}],
    ),
    "anyOf with null": (
        obj({"v": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]}}),
        [{"v": "abc"}, {"v": None}],
        [{"v": "abcd"}, {"v": 1}],
    ),
    "mixed enum with null": (
        obj({"v": {"enum": ["a", 1, True, None, [1], {"k": 1}]}}),
        [{"v": "a"}, {"v": 1}, {"v": 1.0}, {"v": True}, {"v": None}, {"v": [1]}, {"v": {"k": 1}}],
        [{"v": "b"}, {"v": 2}, {"v": False}, {"v": [1, 2]}, {"v": {"k": 2}}, {"v": "1"}],
    ),
    "boolean/string enum": (
        obj({"led": {"type": ["boolean", "string"], "enum": [True, False, "on", "off"]}}),
        [{"led": True}, {"led": "off"}],
        [{"led": "true"}, {"led": 1}, {"led": "ON"}],
    ),
    "const": (
        obj({"kind": {"const": "page"}, "one": {"const": 1}}),
        [{"kind": "page"}, {"one": 1.0}],
        [{"kind": "Page"}, {"one": True}, {"one": "1"}],
    ),
    "oneOf exclusive": (
        obj({"v": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]}}),
        [{"v": 3}, {"v": 10.5}],
        [{"v": 12}, {"v": "x"}],
    ),
    "allOf": (
        obj({"v": {"allOf": [{"type": "string"}, {"enum": ["a", "b"]}, {"minLength": 1}]}}),
        [{"v": "a"}],
        [{"v": "c"}, {"v": 1}],
    ),
    "not and if/then/else": (
        obj(
            {
                "v": {"not": {"type": "string"}},
                "w": {
                    "if": {"type": "integer"},
                    "then": {"minimum": 0},
                    "else": {"type": "string"},
                },
            }
        ),
        [{"v": 1}, {"w": 3}, {"w": "x"}],
        [{"v": "s"}, {"w": -1}, {"w": 1.5}],
    ),
    "numeric bounds": (
        obj(
            {
                "a": {"type": "number", "minimum": 1, "maximum": 3},
                "b": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
                "c": {"type": "number", "multipleOf": 0.5},
                "d": {"type": "integer", "multipleOf": 3},
            }
        ),
        [{"a": 1, "b": 9, "c": 1.5, "d": 9}, {"a": 3.0}, {"d": -3}],
        [{"a": 0.99}, {"a": 3.01}, {"b": 0}, {"b": 10}, {"c": 0.3}, {"d": 4}],
    ),
    "string constraints": (
        obj(
            {
                "s": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[a-z]+$"},
                "p": {"type": "string", "pattern": "\\d+\\.\\d+"},
            }
        ),
        [{"s": "ab"}, {"s": "abcd"}, {"p": "v1.25x"}],
        [{"s": "a"}, {"s": "abcde"}, {"s": "AB"}, {"s": "éé"}, {"p": "12"}],
    ),
    "array counts and unique items": (
        obj(
            {
                "a": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "minItems": 1,
                    "maxItems": 3,
                    "uniqueItems": True,
                }
            }
        ),
        [{"a": [1]}, {"a": [1, 2, 3]}],
        [{"a": []}, {"a": [1, 2, 3, 4]}, {"a": [1, 1]}, {"a": [1, 1.0]}, {"a": ["1"]}],
    ),
    "unique items tells true from 1": (
        obj({"a": {"type": "array", "uniqueItems": True}}),
        [{"a": [1, True]}, {"a": [0, False]}, {"a": [{"x": 1}, {"x": True}]}],
        [{"a": [{"x": 1}, {"x": 1.0}]}, {"a": [[1], [1]]}],
    ),
    "arrays of arrays and objects": (
        obj(
            {
                "rows": {
                    "type": "array",
                    "items": {
                        "type": "array",
                        "items": {"type": "number"},
                        "minItems": 2,
                        "maxItems": 2,
                    },
                },
                "objs": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"id": {"type": "string"}},
                        "required": ["id"],
                    },
                },
            }
        ),
        [{"rows": [[1, 2.5], [3, 4]], "objs": [{"id": "a", "extra": {"deep": [1]}}]}],
        [{"rows": [[1]]}, {"rows": [[1, "2"]]}, {"objs": [{}]}, {"objs": [{"id": 1}]}],
    ),
    "closed and open objects": (
        obj(
            {
                "closed": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "additionalProperties": False,
                },
                "typed_map": {"type": "object", "additionalProperties": {"type": "integer"}},
                "open": {"type": "object", "additionalProperties": True},
            },
            additionalProperties=False,
        ),
        [{"closed": {"a": "x"}, "typed_map": {"x": 1, "y": 2}, "open": {"x": {"y": [None]}}}],
        [{"closed": {"b": 1}}, {"typed_map": {"x": "1"}}, {"unknown": 1}],
    ),
    "patternProperties": (
        {
            "type": "object",
            "patternProperties": {"^x-": {"type": "string"}},
            "additionalProperties": False,
        },
        [{"x-a": "1"}, {}],
        [{"x-a": 1}, {"y": "1"}],
    ),
    "propertyNames and counts": (
        {
            "type": "object",
            "propertyNames": {"maxLength": 3},
            "minProperties": 1,
            "maxProperties": 2,
        },
        [{"abc": 1}, {"a": 1, "b": 2}],
        [{}, {"abcd": 1}, {"a": 1, "b": 2, "c": 3}],
    ),
    "dependentRequired": (
        {"type": "object", "dependentRequired": {"a": ["b"]}},
        [{"a": 1, "b": 2}, {"b": 1}],
        [{"a": 1}],
    ),
    "local $ref to $defs": (
        {
            "type": "object",
            "$defs": {"id": {"type": "string", "format": "uuid"}},
            "properties": {"a": {"$ref": "#/$defs/id"}},
            "required": ["a"],
        },
        [{"a": "0b6c6f4e-4a67-4a51-9b7c-0c8b1f6f4b52"}],
        [{"a": 1}, {}, {"a": "not a uuid"}],
    ),
    "definitions and $ref to a sibling property": (
        {
            "type": "object",
            "definitions": {"n": {"type": "integer"}},
            "properties": {"a": {"$ref": "#/definitions/n"}, "b": {"$ref": "#/properties/a"}},
        },
        [{"a": 1, "b": 2}],
        [{"b": "2"}],
    ),
    "recursive $ref through $defs": (
        {
            "type": "object",
            "$defs": {
                "node": {
                    "type": "object",
                    "properties": {
                        "v": {"type": "integer"},
                        "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    },
                    "additionalProperties": False,
                }
            },
            "properties": {"root": {"$ref": "#/$defs/node"}},
        },
        [{"root": {"v": 1, "kids": [{"v": 2, "kids": [{"kids": []}]}]}}],
        [{"root": {"kids": [{"kids": [{"v": "x"}]}]}}, {"root": {"kids": [{"other": 1}]}}],
    ),
    "recursive $ref to the root": (
        {"type": "object", "properties": {"name": {"type": "string"}, "child": {"$ref": "#"}}},
        [{"name": "a", "child": {"name": "b", "child": {}}}],
        [{"child": {"child": {"name": 1}}}],
    ),
    "recursive $ref into its own anyOf": (
        {
            "type": "object",
            "properties": {
                "filter": {
                    "anyOf": [
                        {
                            "anyOf": [
                                {"type": "object", "properties": {"attribute": {"type": "string"}}},
                                {
                                    "type": "object",
                                    "properties": {
                                        "or": {
                                            "type": "array",
                                            "items": {"$ref": "#/properties/filter/anyOf/0"},
                                        }
                                    },
                                },
                            ]
                        },
                        {"type": "null"},
                    ]
                }
            },
        },
        [{"filter": None}, {"filter": {"or": [{"attribute": "a"}, {"or": [{"attribute": "b"}]}]}}],
        [
            {"filter": "x"},
            {"filter": {"attribute": 1, "or": 5}},
            {"filter": {"attribute": 2, "or": [{"attribute": 1, "or": [5]}]}},
        ],
    ),
    "formats are strings sent unchanged": (
        obj(
            {
                "when": {"type": "string", "format": "date-time"},
                "url": {"type": "string", "format": "uri"},
                "mail": {"type": "string", "format": "email"},
                "day": {"type": "string", "format": "date"},
                "n": {"type": "string", "format": "int64"},
                "blob": {"type": "string", "format": "binary"},
            }
        ),
        [
            {
                "when": "2024-01-02T03:04:05+05:30",
                "url": "https://a.com",
                "mail": "a@b.co",
                "day": "2024-02-29",
                "n": "12",
                "blob": "AAEC",
            },
            # date-time and uri stay annotations: services take these, and descriptions say so
            {"when": "2024-01-02", "url": "www.a.com"},
        ],
        [{"when": 1700000000}, {"url": None}, {"day": "2023-02-29"}, {"mail": "ab.co"}],
    ),
    "draft-07 tuple items and additionalItems": (
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "t": {
                    "type": "array",
                    "items": [{"type": "string"}, {"type": "integer"}],
                    "additionalItems": False,
                }
            },
        },
        [{"t": ["a", 1]}, {"t": ["a"]}],
        [{"t": [1, "a"]}, {"t": ["a", 1, 2]}],
    ),
    "draft-04 boolean exclusiveMinimum": (
        obj({"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True}}),
        [{"n": 0.1}],
        [{"n": 0}],
    ),
    "required names a missing property": (
        obj({"a": {"type": "string"}}, required=["a", "ghost"]),
        [{"a": "x", "ghost": {"any": ["thing"]}}],
        [{"a": "x"}],
    ),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_construct(case: str) -> None:
    schema, valid, invalid = CASES[case]
    conversion = json_schema_to_model(schema, name=case.replace(" ", "_"))
    judge = oracle(conversion.effective_schema, draft_of=schema)
    model = conversion.model
    for args in valid:
        assert judge.is_valid(args), f"bad test expectation: oracle rejects {args}"
        assert conversion.validate(args) == args
        assert conversion.payload(model.model_validate(args)) == args
    for args in invalid:
        assert not judge.is_valid(args), f"bad test expectation: oracle accepts {args}"
        with pytest.raises(ArgsValidationError):
            conversion.validate(args)
        with pytest.raises(ValueError, match="expected"):
            model.model_validate(args)
