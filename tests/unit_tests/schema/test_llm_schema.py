"""The model-facing schema: valid JSON Schema, original names, required sets, enums, $refs inlined.

Checked on every corpus schema and for each strict provider variant.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Iterator
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool

from langchain_toolrouter.schema import (
    ArgsValidationError,
    ConversionOptions,
    json_schema_to_model,
)
from langchain_toolrouter.schema.llm import inline_refs
from langchain_toolrouter.schema.options import StrictProvider
from langchain_toolrouter.schema.pointers import iter_subschemas

from .dialects import gemini_problems
from .oracle import CORPUS_DIR, CorpusSchema, load_corpus

CORPUS = load_corpus()
_SKIP = pytest.mark.skipif(not CORPUS, reason=f"shared schema corpus not found at {CORPUS_DIR}")
_PARAMS: list[Any] = CORPUS or [None]
_IDS = [c.id for c in CORPUS] or ["no-corpus"]
OPTIONS = {
    "default": ConversionOptions(),
    "openai": ConversionOptions(strict_provider="openai"),
    "gemini": ConversionOptions(strict_provider="gemini"),
}


def _walk(node: Any, *, defs: bool = True) -> Iterator[dict[str, Any]]:
    """Every subschema (schema positions only), optionally skipping $defs/definitions."""
    for sub, pointer in iter_subschemas(node, ""):
        if defs or not ("/$defs/" in pointer + "/" or "/definitions/" in pointer + "/"):
            yield sub


@_SKIP
@pytest.mark.parametrize("variant", list(OPTIONS))
@pytest.mark.parametrize("item", _PARAMS, ids=_IDS)
def test_llm_schema_is_valid_json_schema(item: CorpusSchema, variant: str) -> None:
    conversion = json_schema_to_model(item.schema, name=item.name, options=OPTIONS[variant])
    llm = conversion.llm_schema
    jsonschema.Draft202012Validator.check_schema(llm)
    json.dumps(llm)  # plain JSON, nothing Python-only inside
    assert llm.get("type") == "object"
    refs = [n["$ref"] for n in _walk(llm) if "$ref" in n]
    assert all(r.startswith("#/$defs/") for r in refs), refs
    if variant == "openai":
        for node in _walk(llm):
            if node.get("type") == "object" or "properties" in node:
                assert node["type"] == "object" or "object" in node["type"]
                assert node["additionalProperties"] is False
                assert sorted(node["required"]) == sorted(node["properties"])
            if "$ref" in node:
                assert node.keys() == {"$ref"}  # strict mode allows nothing beside a $ref
    if variant == "gemini":
        assert gemini_problems(llm) == []


@_SKIP
@pytest.mark.parametrize("item", _PARAMS, ids=_IDS)
def test_llm_schema_keeps_names_required_enums_descriptions_defaults(item: CorpusSchema) -> None:
    conversion = json_schema_to_model(item.schema, name=item.name)
    effective = conversion.effective_schema
    llm = conversion.llm_schema
    assert list(llm.get("properties", {})) == list(effective.get("properties", {}))
    assert llm.get("required", []) == effective.get("required", [])
    for name, prop in effective.get("properties", {}).items():
        shown = llm["properties"][name]
        if not isinstance(prop, dict) or "$ref" in prop:
            continue
        for key in ("enum", "description", "default", "const", "title"):
            if key in prop:
                assert shown[key] == prop[key], (name, key)
    # every enum of the effective schema is still offered somewhere in the model-facing schema
    effective_enums = sorted(
        json.dumps(n["enum"]) for n in _walk(effective, defs=False) if "enum" in n
    )
    llm_enums = {json.dumps(n["enum"]) for n in _walk(llm) if "enum" in n}
    assert set(effective_enums) <= llm_enums


def test_refs_are_inlined_with_their_annotations() -> None:
    schema = {
        "type": "object",
        "$defs": {"color": {"type": "string", "enum": ["red", "blue"]}},
        "properties": {"c": {"$ref": "#/$defs/color", "description": "Paint colour"}},
    }
    llm = json_schema_to_model(schema, name="paint").llm_schema
    assert llm == {
        "type": "object",
        "properties": {
            "c": {"type": "string", "enum": ["red", "blue"], "description": "Paint colour"}
        },
    }


def test_recursive_ref_is_kept_in_defs_and_reported() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            }
        },
        "properties": {"tree": {"$ref": "#/$defs/node"}},
    }
    conversion = json_schema_to_model(schema, name="tree")
    llm = conversion.llm_schema
    jsonschema.Draft202012Validator.check_schema(llm)
    assert llm["properties"]["tree"]["properties"]["kids"]["items"] == {"$ref": "#/$defs/node"}
    assert "node" in llm["$defs"]
    assert any("recursive $ref" in e.reason for e in conversion.report.of_kind("approximated"))
    # the model-facing schema accepts what the tool accepts
    call: dict[str, Any] = {"tree": {"kids": [{"kids": [{}]}]}}
    assert jsonschema.Draft202012Validator(llm).is_valid(call)
    assert conversion.validate(call) == call


def test_recursion_depth_unrolls_instead_of_defs() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "child": {"$ref": "#"}}}
    conversion = json_schema_to_model(
        schema, name="unrolled", options=ConversionOptions(recursion_depth=2)
    )
    llm = conversion.llm_schema
    assert "$defs" not in llm
    depth, node = 0, llm
    while "child" in node.get("properties", {}):
        node, depth = node["properties"]["child"], depth + 1
    assert depth == 3
    assert conversion.report.of_kind("approximated")


def test_openai_strict_variant_makes_optionals_nullable_and_strips_unsupported() -> None:
    schema = {
        "type": "object",
        "properties": {
            "q": {"type": "string", "minLength": 1, "default": "x"},
            "n": {"type": "integer", "enum": [1, 2]},
            "choice": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        },
        "required": ["q"],
    }
    conversion = json_schema_to_model(
        schema, name="strict", options=ConversionOptions(strict_provider="openai")
    )
    llm = conversion.llm_schema
    assert llm["required"] == ["q", "n", "choice"]
    assert llm["additionalProperties"] is False
    assert llm["properties"]["q"] == {"type": "string"}
    assert llm["properties"]["n"] == {"type": ["integer", "null"], "enum": [1, 2, None]}
    assert llm["properties"]["choice"] == {
        "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]
    }
    reasons = str(conversion.report)
    assert "minLength" in reasons
    assert "default" in reasons
    assert "oneOf" in reasons
    # the model's placeholders are not sent; the source schema still judges the call
    assert conversion.validate({"q": "hi", "n": None, "choice": None}) == {"q": "hi"}
    assert conversion.validate({"q": "hi", "n": 2}) == {"q": "hi", "n": 2}


def test_gemini_variant_uses_its_subset() -> None:
    schema = {
        "type": "object",
        "properties": {
            "v": {"type": ["string", "null"], "enum": ["a", "b", None]},
            "w": {"const": 3},
            "x": {"type": "number", "exclusiveMinimum": 0},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    }
    conversion = json_schema_to_model(
        schema, name="gem", options=ConversionOptions(strict_provider="gemini")
    )
    props = conversion.llm_schema["properties"]
    assert props["v"] == {"type": "string", "nullable": True, "enum": ["a", "b"]}
    assert "enum" not in props["w"]
    assert props["w"]["type"] == "integer"  # what the const implies: Gemini needs a type
    assert "3" in props["w"]["description"]
    assert props["x"] == {"type": "number", "minimum": 0}
    assert "additionalProperties" not in props["m"]
    assert {e.pointer for e in conversion.report} == {
        "/properties/v/type",
        "/properties/w/enum",
        "/properties/x/exclusiveMinimum",
        "/properties/m/additionalProperties",
    }


def test_gemini_shows_exclusive_bounds_on_integers_exactly() -> None:
    """An integer above 0 is one from 1: Gemini has no exclusive bounds, but needs none here."""
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "exclusiveMinimum": 0},
            "b": {"type": "integer", "exclusiveMaximum": 2.5, "maximum": 1},
            "c": {"type": "integer", "exclusiveMinimum": 3, "minimum": 1},
            "d": {"type": "integer", "exclusiveMaximum": 10, "maximum": 20},
            "e": {"type": ["integer", "null"], "exclusiveMinimum": 0},
        },
    }
    conversion = json_schema_to_model(
        schema, name="gem", options=ConversionOptions(strict_provider="gemini")
    )
    assert conversion.llm_schema["properties"] == {
        "a": {"type": "integer", "minimum": 1},
        "b": {"type": "integer", "maximum": 1},
        "c": {"type": "integer", "minimum": 4},
        "d": {"type": "integer", "maximum": 9},
        "e": {"type": "integer", "minimum": 1, "nullable": True},
    }
    assert [e.pointer for e in conversion.report] == ["/properties/e/type"]  # null as nullable


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_a_replaced_subschema_leaves_no_report_entry_behind(provider: StrictProvider) -> None:
    """An "any value" additionalProperties the variant then removes (or closes) is reported as
    removed, not also as shown some way: the report describes the final schema."""
    schema = {"type": "object", "properties": {"p": {"type": "object", "additionalProperties": {}}}}
    conversion = json_schema_to_model(
        schema, name="t", options=ConversionOptions(strict_provider=provider)
    )
    said = [e for e in conversion.report if e.pointer.startswith("/properties/p/")]
    assert [e.pointer for e in said] == ["/properties/p/additionalProperties"]
    assert "shown as a string" not in said[0].reason


_GEMINI_ANY = {
    "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}],
    "nullable": True,
}


def test_gemini_variant_meets_what_gemini_requires_beyond_its_keywords() -> None:
    # Each of these was shown as published and made Gemini answer 400 ("only 'enum' and
    # 'date-time' are supported for STRING type", "enum only allowed for STRING type",
    # "properties: only allowed for OBJECT type", a missing type or items).
    schema = {
        "type": "object",
        "properties": {
            "url": {"type": "string", "format": "uri"},
            "when": {"type": "string", "format": "date-time"},
            "any": {"description": "anything"},
            "n": {"type": "integer", "enum": ["1", "2"]},
            "sn": {"type": ["string", "integer"], "minLength": 1, "minimum": 2},
            "arr": {"type": "array"},
            "obj": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
            },
            "p": {"properties": {"a": {"type": "string"}}},
        },
    }
    conversion = json_schema_to_model(
        schema, name="gem", options=ConversionOptions(strict_provider="gemini")
    )
    props = conversion.llm_schema["properties"]
    assert gemini_problems(conversion.llm_schema) == []
    assert props["url"] == {"type": "string"}
    assert props["when"] == {"type": "string", "format": "date-time"}
    assert props["any"] == {"description": "anything", **_GEMINI_ANY}
    assert props["n"] == {"type": "integer", "description": 'Allowed values: "1", "2".'}
    assert props["sn"] == {
        "anyOf": [{"type": "string", "minLength": 1}, {"type": "integer", "minimum": 2}]
    }
    assert props["arr"] == {"type": "array", "items": _GEMINI_ANY}
    assert props["obj"] == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert props["p"]["type"] == "object"
    reported = {e.pointer: e.kind for e in conversion.report}
    assert reported == {
        "/properties/url/format": "dropped",
        "/properties/any": "approximated",
        "/properties/n/enum": "approximated",
        "/properties/sn/type": "approximated",
        "/properties/arr/items": "approximated",
        "/properties/obj/anyOf": "dropped",
        "/properties/p/type": "approximated",
    }
    # calls are still judged by the source schema
    call = {"url": "https://example.com/a", "any": [1], "sn": "x", "arr": [{}], "obj": {"a": "x"}}
    assert conversion.validate(call) == call
    with pytest.raises(ArgsValidationError):
        conversion.validate({"obj": {}})


@pytest.mark.parametrize(
    ("prop", "shown"),
    [
        # the one alternative left beside null is merged property by property, not over them
        (
            {
                "properties": {"a": {"type": "string"}},
                "anyOf": [
                    {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]},
                    {"type": "null"},
                ],
            },
            {
                "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                "nullable": True,
                "type": "object",
                "required": ["b"],
            },
        ),
        # alternatives that carry properties are shown as one object with all of them
        (
            {
                "type": "object",
                "anyOf": [
                    {"properties": {"email": {"type": "string"}}, "required": ["email"]},
                    {"properties": {"phone": {"type": "string"}}, "required": ["phone"]},
                ],
            },
            {
                "type": "object",
                "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
            },
        ),
        # a type list's enum: only the types its values have, the description kept
        (
            {"type": ["string", "integer"], "enum": ["a", "b"], "description": "The ID"},
            {"type": "string", "enum": ["a", "b"], "description": "The ID"},
        ),
        (
            {"type": ["string", "integer"], "enum": ["a", 1], "description": "The ID"},
            {
                "description": "The ID",
                "anyOf": [
                    {"type": "string", "enum": ["a"]},
                    {"type": "integer", "description": "Allowed values: 1."},
                ],
            },
        ),
        # items must be a schema object
        ({"type": "array", "items": True}, {"type": "array", "items": _GEMINI_ANY}),
        (
            {"type": "array", "items": False},
            {"type": "array", "maxItems": 0, "items": _GEMINI_ANY},
        ),
        (  # brought by an allOf part, merged after the node's own keywords were read
            {"allOf": [{"type": "array", "items": True}]},
            {"type": "array", "items": _GEMINI_ANY},
        ),
        # a const's own type, not "any value"
        (
            {"const": {"mode": "fast"}},
            {"type": "object", "description": 'Allowed values: {"mode": "fast"}.'},
        ),
    ],
)
def test_gemini_variant_keeps_what_the_source_says_where_it_can(
    prop: dict[str, Any], shown: dict[str, Any]
) -> None:
    schema = {"type": "object", "properties": {"x": prop}}
    conversion = json_schema_to_model(
        schema, name="gem", options=ConversionOptions(strict_provider="gemini")
    )
    assert conversion.llm_schema["properties"]["x"] == shown
    assert gemini_problems(conversion.llm_schema) == []
    jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)


def test_a_recursion_cut_keeps_its_targets_type() -> None:
    # Shown as "any value", a cut object made every call that follows the schema invalid.
    schema = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/node"}},
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            }
        },
    }
    for options in (
        ConversionOptions(strict_provider="gemini", recursion_depth=0),
        ConversionOptions(recursion_depth=0),
    ):
        llm = json_schema_to_model(schema, name="tree", options=options).llm_schema
        assert llm["properties"]["root"]["type"] == "object"


def test_openai_strict_shows_an_objects_alternatives_as_one_object() -> None:
    # Closed with no properties beside its alternatives, the object allowed only {}.
    schema = {
        "type": "object",
        "properties": {
            "contact": {
                "type": "object",
                "anyOf": [
                    {"properties": {"email": {"type": "string"}}, "required": ["email"]},
                    {"properties": {"phone": {"type": "string"}}, "required": ["phone"]},
                ],
            }
        },
        "required": ["contact"],
    }
    conversion = json_schema_to_model(
        schema, name="contact", options=ConversionOptions(strict_provider="openai")
    )
    shown = conversion.llm_schema["properties"]["contact"]
    assert shown == {
        "type": "object",
        "properties": {
            "email": {"type": ["string", "null"]},
            "phone": {"type": ["string", "null"]},
        },
        "required": ["email", "phone"],
        "additionalProperties": False,
    }
    assert conversion.validate({"contact": {"email": "a@b.c"}}) == {"contact": {"email": "a@b.c"}}
    with pytest.raises(ArgsValidationError):  # the alternatives still judge the call
        conversion.validate({"contact": {}})


@pytest.mark.parametrize(
    "prop", [{"const": None}, {"enum": [None]}, {"type": ["string", "null"], "const": None}]
)
def test_gemini_shows_a_null_only_enum_as_nullable_not_as_an_empty_enum(
    prop: dict[str, Any],
) -> None:
    schema = {"type": "object", "properties": {"a": prop}}
    conversion = json_schema_to_model(
        schema, name="gem", options=ConversionOptions(strict_provider="gemini")
    )
    shown = conversion.llm_schema["properties"]["a"]
    assert "enum" not in shown  # [] would allow nothing
    assert shown["nullable"] is True
    assert "null" in shown["description"]
    assert "/properties/a/enum" in {e.pointer for e in conversion.report.of_kind("approximated")}
    assert conversion.validate({"a": None}) == {"a": None}


def test_openai_strict_root_combinators_are_removed_and_reported() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
    }
    conversion = json_schema_to_model(
        schema, name="either", options=ConversionOptions(strict_provider="openai")
    )
    assert "anyOf" not in conversion.llm_schema
    assert "/anyOf" in {e.pointer for e in conversion.report.of_kind("approximated")}
    assert conversion.validate({"a": "x", "b": None}) == {"a": "x"}
    with pytest.raises(ValueError, match=r"alternatives|expected"):
        conversion.validate({"a": None, "b": None})


def test_recursive_ref_entries_point_at_the_ref_in_the_source_schema() -> None:
    # the walk builds a pointer only when it reports: escaped names and indices must still be
    # exact, and an unrolled ref met several times is reported once
    node = {
        "type": "object",
        "properties": {"a/b~c": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/node"}]}},
    }
    schema = {
        "type": "object",
        "$defs": {"node": node},
        "properties": {"tree": {"$ref": "#/$defs/node"}},
    }
    pointer = "/$defs/node/properties/a~1b~0c/anyOf/1"
    for bounded in (None, 2):
        _, entries = inline_refs(schema, bounded=bounded)
        assert [e.pointer for e in entries] == [pointer], bounded


def test_a_ref_target_used_twice_is_inlined_as_two_independent_copies() -> None:
    schema = {
        "type": "object",
        "$defs": {"tag": {"type": "object", "properties": {"k": {"type": "string"}}}},
        "properties": {"a": {"$ref": "#/$defs/tag"}, "b": {"$ref": "#/$defs/tag"}},
    }
    llm, _ = inline_refs(schema)
    a, b = llm["properties"]["a"], llm["properties"]["b"]
    assert a == b == {"type": "object", "properties": {"k": {"type": "string"}}}
    a["properties"]["k"]["description"] = "edited"
    assert b == {"type": "object", "properties": {"k": {"type": "string"}}}
    assert schema["$defs"]["tag"] == {"type": "object", "properties": {"k": {"type": "string"}}}


def test_refs_inside_content_schema_are_inlined_too() -> None:
    # Every walk reads subschema positions from one list (pointers.SUBSCHEMA_KEYS); the
    # model-facing walk used to skip contentSchema, leaving a $ref to $defs it then dropped.
    schema = {
        "type": "object",
        "properties": {
            "doc": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": "#/$defs/doc"},
            }
        },
        "$defs": {"doc": {"type": "object", "properties": {"id": {"type": "integer"}}}},
    }
    llm = json_schema_to_model(schema, name="content").llm_schema
    assert "$defs" not in llm
    assert llm["properties"]["doc"]["contentSchema"] == {
        "type": "object",
        "properties": {"id": {"type": "integer"}},
    }


@pytest.mark.parametrize(
    ("target", "siblings"),
    [
        ({"enum": [1]}, {"enum": [True]}),  # equal to Python, not to JSON Schema
        ({"additionalProperties": False}, {"properties": {"b": {"type": "string"}}}),
        ({"properties": {"b": {"type": "string"}}}, {"additionalProperties": False}),
        ({"prefixItems": [{"type": "string"}]}, {"items": False}),
    ],
)
def test_ref_siblings_are_merged_into_the_target_only_where_that_keeps_its_meaning(
    target: dict[str, Any], siblings: dict[str, Any]
) -> None:
    """Found by a fuzz run: a plain dict union lost the target's enum, or let its
    additionalProperties see the sibling's properties."""
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/T", **siblings}},
        "$defs": {"T": target},
    }
    shown = json_schema_to_model(schema, name="t").llm_schema
    original, model_facing = (jsonschema.Draft202012Validator(s) for s in (schema, shown))
    for value in (1, True, "s", {"b": "x"}, {"c": 1}, [], ["s"], ["s", 1]):
        assert original.is_valid({"a": value}) == model_facing.is_valid({"a": value}), value


def _doubling(levels: int) -> dict[str, Any]:
    """Each target used twice inside the one before: full inlining has 2**levels copies."""
    defs: dict[str, Any] = {
        f"d{i}": {
            "type": "object",
            "properties": {"a": {"$ref": f"#/$defs/d{i + 1}"}, "b": {"$ref": f"#/$defs/d{i + 1}"}},
            "required": ["a"],
        }
        for i in range(levels)
    }
    defs[f"d{levels}"] = {"type": "string", "enum": ["leaf"]}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}


def _deepest(levels: int, missing: str | None = None, strict: bool = False) -> dict[str, Any]:
    """A call down the "a" branch to the leaf (or with ``missing`` as the leaf's value);
    ``strict``: as OpenAI's strict mode sends it, with ``null`` for the optional "b"."""
    value: Any = "leaf" if missing is None else missing
    for _ in range(levels):
        value = {"a": value, "b": None} if strict else {"a": value}
    return {"x": value}


@pytest.mark.parametrize("variant", list(OPTIONS))
def test_targets_used_inside_each_other_stop_being_inlined_past_a_size_limit(variant: str) -> None:
    levels = 16
    schema = _doubling(levels)
    conversion = json_schema_to_model(schema, name="doubling", options=OPTIONS[variant])
    llm = conversion.llm_schema
    # Full inlining would make 2**levels copies; the limit is 5,000 + 10x the schema's own
    # nodes (plus what the $refs in progress add when it is reached, and strict mode's wrappers).
    limit = 5_000 + 10 * sum(1 for _ in iter_subschemas(schema, ""))
    assert sum(1 for _ in iter_subschemas(llm, "")) < 2 * limit
    text = json.dumps(llm)
    assert "$ref" not in text  # LangChain's convert_to_openai_tool would inline them all again
    assert "(not shown: the full schema is too large to inline)" in text
    cut = [e for e in conversion.report.of_kind("approximated") if "not inlined" in e.reason]
    targets = [e.reason.split("'")[1] for e in cut]
    assert targets
    assert len(targets) == len(set(targets))  # one entry per target, not per place
    if variant == "default":  # (4 s for 5,000 nodes: once is enough)
        jsonschema.Draft202012Validator.check_schema(llm)
    # the model-facing schema still accepts every call the tool accepts; the tool stays exact
    deep = _deepest(levels, strict=variant == "openai")
    assert jsonschema.Draft202012Validator(llm).is_valid(deep)
    assert conversion.validate(_deepest(levels)) == _deepest(levels)
    with pytest.raises(ArgsValidationError):
        conversion.validate(_deepest(levels, missing="other"))


def _chain(links: int) -> dict[str, Any]:
    """``links`` targets, each holding a $ref to the next."""
    defs: dict[str, Any] = {
        f"d{i}": {"type": "object", "properties": {"n": {"$ref": f"#/$defs/d{i + 1}"}}}
        for i in range(links)
    }
    defs[f"d{links}"] = {"type": "string"}
    return {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}


@pytest.mark.parametrize("links", [100, 2_000])
def test_a_chain_of_refs_is_inlined_64_deep_then_cut(links: int) -> None:
    conversion = json_schema_to_model(_chain(links), name="chain")
    node, depth = conversion.llm_schema["properties"]["x"], 0  # 2,000: RecursionError before
    while "properties" in node:
        node, depth = node["properties"]["n"], depth + 1
    assert depth == 64
    assert node == {"description": "(not shown: the full schema is too large to inline)"}
    [cut] = [e for e in conversion.report if "not inlined" in e.reason]
    assert "64 $refs deep" in cut.reason
    if links == 100:  # (2,000 links are too many to compile the validator: it degrades)
        # calls are still checked against the whole chain
        assert conversion.validate({"x": {"n": {"n": {}}}}) == {"x": {"n": {"n": {}}}}
        with pytest.raises(ArgsValidationError):
            conversion.validate({"x": {"n": {"n": 5}}})


def test_a_model_facing_schema_too_deep_for_the_stack_degrades_with_a_warning() -> None:
    conversion = json_schema_to_model(_chain(60), name="deep")  # 60 links: under the cut
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 120)  # enough to warn, not to inline 60 links
    try:
        with pytest.warns(RuntimeWarning, match="tool schema degraded: the schema is nested too"):
            llm = conversion.llm_schema
    finally:
        sys.setrecursionlimit(limit)
    assert llm == {"type": "object"}
    [entry] = conversion.report.of_kind("dropped")
    assert entry.pointer == ""
    assert "the model sees an object with any properties" in entry.reason


def test_interlinked_recursive_targets_are_unrolled_once_when_langchain_would_blow_them_up() -> (
    None
):
    # Four types, each with a property of each other type: kept in $defs (9 KB), LangChain's
    # convert_to_openai_tool inlined them itself into 57 MB, in a minute.
    names = ["a", "b", "c", "d"]
    defs = {
        n: {"type": "object", "properties": {f"to_{m}": {"$ref": f"#/$defs/{m}"} for m in names}}
        for n in names
    }
    schema = {"type": "object", "properties": {"root": {"$ref": "#/$defs/a"}}, "$defs": defs}
    conversion = json_schema_to_model(schema, name="mutual")
    llm = conversion.llm_schema
    assert "$ref" not in json.dumps(llm)
    assert (
        len(
            json.dumps(
                convert_to_openai_tool({"name": "mutual", "description": "d", "parameters": llm})
            )
        )
        < 500_000
    )
    [entry] = [e for e in conversion.report if "unrolled once" in e.reason]
    assert entry.pointer == ""
    deep = {"root": {"to_b": {"to_c": {"to_d": {"to_a": {"to_b": {}}}}}}}
    assert conversion.validate(deep) == deep
    with pytest.raises(ArgsValidationError):
        conversion.validate({"root": {"to_b": {"to_c": {"to_d": {"to_a": {"to_b": 1}}}}}})
    # one recursive target stays exact, in $defs: LangChain unrolls it cheaply
    tree = {
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/n"}},
        "$defs": {
            "n": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/n"}}},
            }
        },
    }
    assert "$defs" in json_schema_to_model(tree, name="tree").llm_schema
