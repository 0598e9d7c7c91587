"""Regression tests for the failure classes an independent evaluation found (C1...C15).

Each verdict is checked against jsonschema on the schema as published (not the effective one),
so a wrong expectation fails as loudly as a wrong converter.
"""

from __future__ import annotations

import copy
import sys
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest

from langchain_toolrouter.schema import (
    ArgsValidationError,
    ConversionOptions,
    json_schema_to_model,
)
from langchain_toolrouter.schema.pointers import iter_subschemas

from .oracle import agree, converter_accepts, published_accepts

T = TypeVar("T")


def _named_zod(draft: str) -> dict[str, Any]:
    return {
        "$schema": f"http://json-schema.org/{draft}/schema#",
        "$ref": "#/definitions/A",
        "definitions": {
            "A": {
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
                "additionalProperties": False,
            }
        },
    }


@pytest.mark.parametrize("draft", ["draft-04", "draft-06", "draft-07"])
def test_c1_legacy_root_ref_into_definitions_is_followed(draft: str) -> None:
    schema = _named_zod(draft)
    agree(schema, [{"n": 1}], [{}, {"n": "x"}, {"n": 1, "m": 2}])
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    llm = conv.llm_schema
    assert llm["type"] == "object"
    assert llm["properties"] == {"n": {"type": "integer"}}
    assert llm["required"] == ["n"]
    assert not any("definitions" in str(e) for e in conv.report)
    assert list(conv.model.model_fields) == ["n"]


def test_c8_draft04_integer_excludes_floats() -> None:
    props = {"p": {"type": "integer"}, "q": {"type": ["integer", "string"]}}
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}
    agree({**draft4, "properties": props}, [{"p": 1}, {"q": "x"}], [{"p": 1.0}, {"q": 2.0}])
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    agree({**draft7, "properties": props}, [{"p": 1.0}, {"q": 2.0}], [{"p": 1.5}])


def test_c6_openapi_nullable_follows_json_schema_and_is_shown_as_written() -> None:
    schema = {
        "type": "object",
        "properties": {"d": {"type": "string", "enum": ["x", "y"], "nullable": True}},
    }
    agree(schema, [{"d": "x"}, {}], [{"d": None}, {"d": "z"}])
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert conv.llm_schema["properties"]["d"] == schema["properties"]["d"]
    (entry,) = conv.report
    assert entry.pointer == "/properties/d/nullable"


def test_c7_required_name_forbidden_by_closed_object_rejects_and_reports() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {}},
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    agree(schema, [], [{"a": 1, "b": 2}, {"a": 1}, {}])
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert conv.llm_schema["required"] == ["a", "b"]
    assert "b" not in conv.llm_schema["properties"]
    (entry,) = conv.report
    assert entry.pointer == "/required"
    assert "no call can satisfy" in entry.reason


def test_c7_required_name_without_closed_object_still_accepts_any_value() -> None:
    schema = {"type": "object", "properties": {"a": {}}, "required": ["a", "ghost"]}
    agree(schema, [{"a": 1, "ghost": [1]}], [{"a": 1}])


def test_c15_null_is_described_once() -> None:
    conv = json_schema_to_model(
        {"type": "object", "properties": {"s": {"type": "string"}}}, name="t"
    )
    with pytest.raises(ArgsValidationError) as info:
        conv.validate({"s": None})
    assert info.value.errors[0]["message"] == "got null"


@pytest.mark.parametrize("depth", [150, 1000])
def test_c14_deep_payload_is_rejected_not_a_recursion_error(depth: int) -> None:
    value: Any = []
    for _ in range(depth):
        value = [value]
    free = json_schema_to_model({"type": "object", "properties": {"a": {}}}, name="t")
    with pytest.raises(ArgsValidationError, match="nested"):
        free.validate({"a": value})
    tree = {
        "$defs": {"n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}},
        "type": "object",
        "properties": {"t": {"$ref": "#/$defs/n"}},
    }
    node: Any = {}
    for _ in range(depth):
        node = {"c": node}
    with pytest.raises(ArgsValidationError, match="nested"):
        json_schema_to_model(tree, name="t").validate({"t": node})
    ok: Any = {}
    for _ in range(40):
        ok = {"c": ok}
    assert json_schema_to_model(tree, name="t").validate({"t": ok}) == {"t": ok}


def _with_stack_room(frames: int, call: Callable[[], T]) -> T:
    """``call()`` run with only about ``frames`` frames left below the recursion limit, as when
    an agent makes a tool's first call from deep inside its own stack."""
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    return _burn(sys.getrecursionlimit() - frames - depth, call)


def _burn(frames: int, call: Callable[[], T]) -> T:
    return call() if frames <= 0 else _burn(frames - 1, call)


@pytest.mark.parametrize("depth", [380, 450])
def test_c14_schema_too_deep_to_compile_degrades_instead_of_raising(depth: int) -> None:
    # Read at load, but compiled (lazily) on a first call made with too little stack left
    # for its frames (two or more per level; on Python 3.11 and older, a few more per level
    # than reading takes, so 380 levels do not compile even from a shallow stack): that call
    # degrades, as reading does for deeper schemas, instead of raising.
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        conv = json_schema_to_model(schema, name="t")
        first = _with_stack_room(600, lambda: conv.validate({"a": 1}))
    assert first == {"a": 1}
    assert any("tool schema degraded" in str(w.message) for w in caught)
    dropped = [e for e in conv.report if e.kind == "dropped" and e.pointer == ""]
    assert dropped, conv.report
    with pytest.raises(ArgsValidationError):
        conv.validate([])  # type: ignore[arg-type]  # still an object


C5_CASES = {
    "draft-07 anchor spelled as $id": (
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"x": {"$ref": "#foo"}},
            "definitions": {"a": {"$id": "#foo", "type": "string"}},
        },
        [{"x": "s"}],
        [{"x": 1}],
    ),
    "anchor": (
        {
            "$defs": {"A": {"$anchor": "aa", "type": "integer"}},
            "type": "object",
            "properties": {"x": {"$ref": "#aa"}},
        },
        [{"x": 1}],
        [{"x": "s"}],
    ),
    "absolute id": (
        {
            "$id": "https://e.com/s.json",
            "$defs": {"A": {"type": "integer"}},
            "type": "object",
            "properties": {
                "y": {"$ref": "https://e.com/s.json#/$defs/A"},
                "z": {"$ref": "s.json#/$defs/A"},
            },
        },
        [{"y": 1, "z": 2}],
        [{"y": "s"}, {"z": "s"}],
    ),
    "nested id scope": (
        {
            "type": "object",
            "$defs": {"X": {"type": "string"}},
            "properties": {
                "p": {
                    "$id": "http://x/p",
                    "$defs": {"X": {"type": "integer"}},
                    "type": "object",
                    "properties": {"q": {"$ref": "#/$defs/X"}},
                }
            },
        },
        [{"p": {"q": 1}}],
        [{"p": {"q": "s"}}],
    ),
    "dynamic ref": (
        {
            "$defs": {
                "n": {
                    "$dynamicAnchor": "node",
                    "type": "object",
                    "properties": {"c": {"type": "array", "items": {"$dynamicRef": "#node"}}},
                }
            },
            "type": "object",
            "properties": {"t": {"$ref": "#/$defs/n"}},
        },
        [{"t": {"c": [{"c": []}]}}],
        [{"t": {"c": [1]}}],
    ),
}


@pytest.mark.parametrize("case", sorted(C5_CASES))
def test_c5_anchor_id_and_dynamic_refs_resolve_locally(case: str) -> None:
    schema, accepted, rejected = C5_CASES[case]
    agree(schema, accepted, rejected)
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert not conv.report.of_kind("dropped")
    if case == "dynamic ref":
        (entry,) = [e for e in conv.report if e.pointer.endswith("/$dynamicRef")]
        assert "resolved statically" in entry.reason


def test_c4_ecmascript_unicode_property_escapes_are_checked() -> None:
    schema = {
        "type": "object",
        "properties": {
            "s": {"type": "string", "pattern": "^\\p{L}+$"},
            "u": {"type": "string", "pattern": "^[\\p{Lu}0-9]+$"},
            "n": {"type": "string", "pattern": "^\\P{N}*$"},
        },
        "patternProperties": {"^\\p{Lu}": {"type": "integer"}},
    }
    conv = json_schema_to_model(schema, name="t")
    good = {"s": "Ünïcode", "u": "ÅB9", "n": "abc", "Xy": 1}
    assert conv.validate(good) == good
    for bad in ({"s": "123"}, {"s": "a_b"}, {"u": "aB"}, {"n": "a1"}, {"Xy": "not int"}):
        with pytest.raises(ArgsValidationError):
            conv.validate(bad)
    assert conv.llm_schema["properties"]["s"]["pattern"] == "^\\p{L}+$"
    assert len(conv.report.of_kind("approximated")) == 4
    assert not conv.report.of_kind("dropped")


def test_c4_untranslatable_property_escape_is_still_dropped_and_reported() -> None:
    schema = {"type": "object", "properties": {"s": {"pattern": "^\\p{Script=Latin}+$"}}}
    conv = json_schema_to_model(schema, name="t")
    assert conv.validate({"s": "123"}) == {"s": "123"}
    (entry,) = conv.report.of_kind("dropped")
    assert entry.pointer == "/properties/s/pattern"


def test_c12_schema_edited_in_place_after_conversion_is_converted_again() -> None:
    src: dict[str, Any] = {
        "type": "object",
        "properties": {"r": {"type": "string", "maxLength": 3}},
    }
    first = json_schema_to_model(src, name="B")
    assert first.validate({"r": "ab"}) == {"r": "ab"}
    src["properties"]["r"]["maxLength"] = 1
    second = json_schema_to_model(src, name="B")
    assert second.llm_schema["properties"]["r"]["maxLength"] == 1
    with pytest.raises(ArgsValidationError):
        second.validate({"r": "ab"})
    assert first.validate({"r": "ab"}) == {"r": "ab"}  # the earlier conversion is unchanged


def test_c12_caller_edit_before_first_call_does_not_reach_the_validator() -> None:
    src: dict[str, Any] = {
        "type": "object",
        "properties": {"r": {"type": "string", "maxLength": 3}},
    }
    conv = json_schema_to_model(src, name="B")
    src["properties"]["r"]["maxLength"] = 1
    assert conv.validate({"r": "ab"}) == {"r": "ab"}
    assert conv.llm_schema["properties"]["r"]["maxLength"] == 3


def test_c12_editing_llm_schema_changes_nothing_else() -> None:
    src: dict[str, Any] = {"type": "object", "properties": {"s": {"type": "string", "enum": ["a"]}}}
    conv = json_schema_to_model(src, name="D")
    conv.llm_schema["properties"]["s"]["enum"].append("b")
    assert src["properties"]["s"]["enum"] == ["a"]
    with pytest.raises(ArgsValidationError):
        conv.validate({"s": "b"})
    with pytest.raises(ArgsValidationError):
        json_schema_to_model(src, name="D").validate({"s": "b"})


def test_c13_model_instances_never_send_stale_or_python_names() -> None:
    from pydantic import ValidationError

    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "from": {"type": "integer"}},
    }
    conv = json_schema_to_model(schema, name="m")
    model: Any = conv.model
    m = model.model_validate({"a": "x"})
    with pytest.raises(ValidationError):
        m.a = "changed"
    assert conv.payload(m) == {"a": "x"}
    assert conv.payload(m.model_copy(update={"a": "copy"})) == {"a": "copy"}
    assert conv.payload(model(a="kw", from_=2)) == {"a": "kw", "from": 2}
    assert conv.payload(model(**{"a": "kw", "from": 3})) == {"a": "kw", "from": 3}
    with pytest.raises(ValidationError):
        model(a="kw", from_="not an int")


C2_CASES = {
    "allOf": (
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "allOf": [{"properties": {"b": {"type": "integer"}}}],
            "unevaluatedProperties": False,
        },
        [{"a": "x", "b": 1}, {}],
        [{"c": 1}, {"a": "x", "c": 1}, {"b": "x"}],
    ),
    "ref": (
        {
            "$defs": {"base": {"properties": {"id": {"type": "integer"}}}},
            "type": "object",
            "$ref": "#/$defs/base",
            "properties": {"name": {"type": "string"}},
            "unevaluatedProperties": {"type": "boolean"},
        },
        [{"id": 1, "name": "n", "flag": True}],
        [{"id": 1, "flag": "no"}, {"other": 1}],
    ),
    "branch with additionalProperties evaluates all": (
        {
            "type": "object",
            "allOf": [{"additionalProperties": {"type": "integer"}}],
            "unevaluatedProperties": False,
        },
        [{"x": 1}],
        [{"x": "s"}],
    ),
}


@pytest.mark.parametrize("case", sorted(C2_CASES))
def test_c2_unevaluated_properties_beside_allof_and_ref(case: str) -> None:
    schema, accepted, rejected = C2_CASES[case]
    agree(schema, accepted, rejected)
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert not any("unevaluated" in e.reason for e in conv.report)


_OPENAI: dict[str, Any] = {"options": ConversionOptions(strict_provider="openai")}


def test_c9_openai_variant_sends_valid_calls_exactly() -> None:
    nulls_by_branch = {
        "type": "object",
        "anyOf": [
            {"properties": {"x": {"type": "string"}}},
            {"properties": {"x": {"type": "null"}}, "required": ["x"]},
        ],
    }
    assert published_accepts(nulls_by_branch, {"x": None})
    assert converter_accepts(
        nulls_by_branch, {"x": None}, **_OPENAI
    )  # _accepts checks sent == given
    not_branches = {
        "type": "object",
        "properties": {"a": {"type": ["null", "string"]}},
        "oneOf": [
            {"required": ["a"]},
            {"properties": {"a": {"not": {}}}},
            {"properties": {"a": {"not": {}}}, "minProperties": 0},
        ],
    }
    assert published_accepts(not_branches, {"a": None})
    assert converter_accepts(not_branches, {"a": None}, **_OPENAI)
    optional = {"type": "object", "properties": {"s": {"type": "string"}}}
    conv = json_schema_to_model(optional, name="t", **_OPENAI)
    assert conv.validate({"s": None}) == {}  # a placeholder the source rejects is still removed


def _strict_props(schema: dict[str, Any]) -> dict[str, Any]:
    llm = json_schema_to_model(schema, name="t", **_OPENAI).llm_schema
    assert llm["type"] == "object"
    assert llm["additionalProperties"] is False
    assert not {"anyOf", "oneOf", "allOf"} & llm.keys()
    props: dict[str, Any] = llm["properties"]
    return props


def test_c10_openai_allof_merge_intersects() -> None:
    props = _strict_props(
        {
            "type": "object",
            "allOf": [
                {"properties": {"a": {"type": "string"}}},
                {"properties": {"a": {"description": "A"}}},
            ],
        }
    )
    assert props["a"]["type"] == ["string", "null"]
    assert props["a"]["description"] == "A"
    props = _strict_props(
        {
            "type": "object",
            "allOf": [
                {"properties": {"a": {"type": "string", "enum": ["x", "y"]}}},
                {"properties": {"a": {"enum": ["y", "z"]}}},
            ],
        }
    )
    assert props["a"]["enum"] == ["y", None]
    props = _strict_props(
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "allOf": [{"properties": {"a": {"minimum": 1}}}],
        }
    )
    assert props["a"] == {"type": ["integer", "null"], "minimum": 1}


def test_c11_openai_every_property_has_a_type_and_the_root_is_plain() -> None:
    props = _strict_props(
        {"type": "object", "properties": {"v": {"description": "any value"}, "t": True}}
    )
    for name in ("v", "t"):
        assert {b["type"] for b in props[name]["anyOf"]} == {"string", "number", "boolean", "null"}
    assert props["v"]["description"] == "any value"
    props = _strict_props(
        {
            "type": "object",
            "oneOf": [
                {"properties": {"k": {"const": "a"}}, "required": ["k"]},
                {"properties": {"k": {"const": "b"}}, "required": ["k"]},
            ],
        }
    )
    assert props["k"] == {"enum": ["a", "b"]}


def _nested_resource(order: str) -> dict[str, Any]:
    """A nested "$id" resource whose "#/$defs/t" differs from the root's "#/$defs/t"."""
    inner: dict[str, Any] = {"properties": {"b": {"properties": {"c": {"$ref": "#/$defs/t"}}}}}
    resource = (
        {**inner, "$id": "http://x.example/a", "$defs": {"t": {"type": "string"}}}
        if order == "properties first"
        else {"$id": "http://x.example/a", "$defs": {"t": {"type": "string"}}, **inner}
    )
    return {
        "type": "object",
        "$defs": {"t": {"type": "integer"}},
        "properties": {"a": resource},
    }


@pytest.mark.parametrize("order", ["properties first", "$id first"])
def test_ref_inside_a_nested_id_resource_resolves_against_that_resource(order: str) -> None:
    # A subtree checked before the walk knew it sat in a nested resource (its keys come
    # before "$id") must not be reused as a plain copy: its ref means the resource's "t".
    schema = _nested_resource(order)
    agree(schema, [{"a": {"b": {"c": "s"}}}], [{"a": {"b": {"c": 1}}}])
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert conv.llm_schema["properties"]["a"]["properties"]["b"]["properties"]["c"] == {
        "type": "string"
    }


_ANY_JSON: dict[str, Any] = {
    "anyOf": [
        {"type": "string"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
        {"type": "array", "items": {"$ref": "#"}},
        {"type": "object", "additionalProperties": {"$ref": "#"}},
    ]
}


@pytest.mark.parametrize(
    "schema",
    [
        pytest.param(_ANY_JSON, id="no root type"),
        pytest.param(
            {**_ANY_JSON, "type": ["object", "string", "number", "boolean", "null", "array"]},
            id="root type list",
        ),
        pytest.param({**_ANY_JSON, "$defs": {"root": {"type": "integer"}}}, id="root name taken"),
    ],
)
def test_ref_to_a_root_narrowed_to_object_keeps_the_root_as_written(
    schema: dict[str, Any],
) -> None:
    # Tool arguments are an object, so the root is narrowed to "object"; a value nested through
    # "$ref": "#" is not an argument list and keeps every type the root was written with.
    nested = [{"a": 1}, {"a": [1, {"b": None}]}, {"a": {"b": {"c": [[[]]]}}}, {"a": 1.5}]
    agree(schema, [{}, *nested], [])
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    with pytest.raises(ArgsValidationError):
        conv.validate(["not", "an", "object"])  # type: ignore[arg-type]
    assert conv.effective_schema["type"] == "object"
    kept = "root_2" if "root" in schema.get("$defs", {}) else "root"
    assert conv.effective_schema["$defs"][kept]["anyOf"] == conv.effective_schema["anyOf"]
    assert conv.effective_schema["$defs"][kept].get("type") == schema.get("type")
    assert any(e.pointer == "" and f"/$defs/{kept}" in e.reason for e in conv.report)


_D4 = "http://json-schema.org/draft-04/schema#"
_D6 = "http://json-schema.org/draft-06/schema#"
_D7 = "http://json-schema.org/draft-07/schema#"

# Keywords a later draft added, in a schema that declares an older one: ignored, as it does.
LATER_KEYWORDS = {
    "dependentRequired": ({"dependentRequired": {"a": ["b"]}}, [{"a": 1}], []),
    "dependentSchemas": ({"dependentSchemas": {"a": False}}, [{"a": 1}], []),
    "unevaluatedProperties": ({"unevaluatedProperties": False}, [{"a": 1}], []),
    "prefixItems beside items": (
        {"properties": {"x": {"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}}},
        [{"x": ["s"]}],
        [{"x": [1]}],
    ),
    "minContains 0": (
        {"properties": {"x": {"contains": {"type": "string"}, "minContains": 0}}},
        [{"x": ["s", 1]}],
        [{"x": [1]}],
    ),
    "maxContains": (
        {"properties": {"x": {"contains": {"type": "string"}, "maxContains": 1}}},
        [{"x": ["a", "b"]}],
        [{"x": [1]}],
    ),
}


@pytest.mark.parametrize("case", list(LATER_KEYWORDS), ids=list(LATER_KEYWORDS))
def test_keywords_of_a_later_draft_are_ignored_under_draft_07(case: str) -> None:
    extra, accepted, rejected = LATER_KEYWORDS[case]
    schema = {"$schema": _D7, "type": "object", **extra}
    agree(schema, accepted, rejected)
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert any(e.kind == "dropped" and "declares" in e.reason for e in conv.report)


@pytest.mark.parametrize(
    ("draft", "extra", "accepted"),
    [
        (_D4, {"properties": {"x": {"const": 1}}}, {"x": 2}),
        (_D4, {"propertyNames": {"maxLength": 1}}, {"abc": 1}),
        (_D6, {"if": {"required": ["a"]}, "then": False}, {"a": 1}),
    ],
)
def test_keywords_of_a_later_draft_are_ignored_under_older_drafts(
    draft: str, extra: dict[str, Any], accepted: dict[str, Any]
) -> None:
    agree({"$schema": draft, "type": "object", **extra}, [accepted], [])


# A $ref kept as written whose target the rewrite moved or dropped: it reads the target as the
# source has it (before, the dangling $ref accepted anything).
MOVED_TARGETS = {
    "under dependencies": (
        {
            "dependencies": {"a": {"properties": {"b": {"type": "string"}}}},
            "properties": {"y": {"$ref": "#/dependencies/a/properties/b"}},
        },
        None,
    ),
    "under dependencies, draft-07": (
        {
            "dependencies": {"a": {"properties": {"b": {"type": "string"}}}},
            "properties": {"y": {"$ref": "#/dependencies/a/properties/b"}},
        },
        _D7,
    ),
    "draft-07 additionalItems": (
        {
            "properties": {
                "x": {"items": [{"type": "integer"}], "additionalItems": {"type": "string"}},
                "y": {"$ref": "#/properties/x/additionalItems"},
            }
        },
        _D7,
    ),
    "properties of a string": (
        {
            "properties": {
                "s": {"type": "string", "properties": {"a": {"type": "string"}}},
                "y": {"$ref": "#/properties/s/properties/a"},
            }
        },
        None,
    ),
    "beside a draft-07 $ref": (
        {
            "definitions": {"a": {"type": "integer"}},
            "properties": {
                "x": {"$ref": "#/definitions/a", "properties": {"q": {"type": "string"}}},
                "y": {"$ref": "#/properties/x/properties/q"},
            },
        },
        _D7,
    ),
}


@pytest.mark.parametrize("case", list(MOVED_TARGETS), ids=list(MOVED_TARGETS))
def test_ref_to_a_moved_or_dropped_target_reads_the_source_target(case: str) -> None:
    extra, draft = MOVED_TARGETS[case]
    schema: dict[str, Any] = {"type": "object", **extra}
    if draft is not None:
        schema["$schema"] = draft
    agree(schema, [{"y": "s"}], [{"y": 1}])
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    assert conv.llm_schema["properties"]["y"] == {"type": "string"}


def test_draft_07_dependencies_without_a_declared_draft_are_not_checked_and_reported() -> None:
    # 2019-09 and 2020-12 no longer define "dependencies": read as jsonschema reads it (not
    # checked, so no call it accepts is refused), and reported as dropped.
    schema = {"type": "object", "dependencies": {"a": ["b"]}}
    agree(schema, [{"a": 1}, {"a": 1, "b": 2}], [])
    conv = json_schema_to_model(schema, name="t")
    assert [(e.kind, e.pointer) for e in conv.report] == [("dropped", "/dependencies")]
    assert "draft-07" in conv.report.of_kind("dropped")[0].reason
    assert "dependencies" not in conv.llm_schema
    declared = json_schema_to_model({**schema, "$schema": _D7}, name="t")
    assert not list(declared.report)
    with pytest.raises(ArgsValidationError):
        declared.validate({"a": 1})


_D19 = "https://json-schema.org/draft/2019-09/schema"


@pytest.mark.parametrize(
    ("extra", "accepted", "rejected"),
    [
        # "prefixItems" is 2020-12's: under 2019-09, "items": false alone forbids every item.
        (
            {"properties": {"t": {"prefixItems": [{"const": None}], "items": False}}},
            [{"t": []}],
            [{"t": [None]}],
        ),
        # 2019-09's tuple form: a list "items" with "additionalItems".
        (
            {"properties": {"t": {"items": [{"type": "integer"}], "additionalItems": False}}},
            [{"t": [1]}],
            [{"t": [1, 2]}, {"t": ["x"]}],
        ),
        # "$recursiveRef" (2019-09) resolves to the root here, as "$ref": "#" would.
        (
            {
                "$recursiveAnchor": True,
                "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$recursiveRef": "#"}},
                },
            },
            [{"children": [{"name": "a", "children": []}]}],
            [{"children": [{"name": 5}]}, {"children": [1]}],
        ),
        # "dependencies" is not a 2019-09 keyword either; "dependentRequired" is.
        (
            {"dependencies": {"a": ["b"]}, "dependentRequired": {"c": ["d"]}},
            [{"a": 1}],
            [{"c": 1}],
        ),
    ],
)
def test_a_2019_09_schema_is_read_as_2019_09_reads_it(
    extra: dict[str, Any], accepted: list[Any], rejected: list[Any]
) -> None:
    agree({"$schema": _D19, "type": "object", **extra}, accepted, rejected)


def test_dynamic_ref_under_an_older_draft_is_not_a_keyword() -> None:
    schema = {
        "$schema": _D7,
        "type": "object",
        "properties": {"a": {"$dynamicRef": "#/definitions/s"}},
        "definitions": {"s": {"type": "string"}},
    }
    agree(schema, [{"a": 1}], [])
    conv = json_schema_to_model(schema, name="t")
    assert [(e.kind, e.pointer) for e in conv.report] == [("dropped", "/properties/a/$dynamicRef")]


def test_openai_strict_optional_with_alternatives_accepts_the_null_placeholder() -> None:
    schema = {
        "type": "object",
        "properties": {
            "p": {
                "type": "string",
                "anyOf": [{"type": "string", "maxLength": 3}, {"type": "string", "pattern": "^a"}],
            },
            "r": {"$ref": "#/$defs/s", "type": "string"},
        },
        "$defs": {"s": {"type": "string"}},
    }
    props = _strict_props(schema)
    for name in ("p", "r"):
        shown = jsonschema.Draft202012Validator({**props[name], "$defs": {}})
        assert shown.is_valid(None), props[name]  # the model can say "not given"
    conv = json_schema_to_model(schema, name="t", **_OPENAI)
    assert conv.validate({"p": None, "r": None}) == {}
    assert conv.validate({"p": "abc", "r": "x"}) == {"p": "abc", "r": "x"}


def test_openai_strict_properties_without_a_type_are_shown_as_an_object() -> None:
    props = _strict_props(
        {"type": "object", "properties": {"o": {"properties": {"a": {"type": "string"}}}}}
    )
    assert props["o"]["type"] == ["object", "null"]  # optional: null means "not given"
    assert props["o"]["additionalProperties"] is False


def test_openai_strict_recursive_ref_has_nothing_beside_it() -> None:
    node = {"type": "object", "properties": {"n": {"$ref": "#/$defs/N", "description": "child"}}}
    schema = {**node, "required": ["n"], "$defs": {"N": node}}
    llm = json_schema_to_model(schema, name="t", **_OPENAI).llm_schema
    for sub, _ in iter_subschemas(llm, ""):
        if "$ref" in sub:
            assert sub.keys() == {"$ref"}
    inner = llm["$defs"]["N"]["properties"]["n"]
    assert inner["description"] == "child"


def test_openai_strict_allof_merge_keeps_only_enum_values_of_the_merged_type() -> None:
    props = _strict_props(
        {
            "type": "object",
            "properties": {"c": {"allOf": [{"type": "string"}, {"enum": ["x", 1]}]}},
            "required": ["c"],
        }
    )
    assert props["c"] == {"type": "string", "enum": ["x"]}


# A required name with no schema gets a copy of "additionalProperties": a $ref in it that the
# rewrite resolves (an anchor, an absolute URI, the root narrowed to an object) is resolved in
# the copy too. Found by a fuzz run: the copy kept the raw $ref and accepted anything.
REQUIRED_THROUGH_EXTRA = {
    "anchor": (
        {
            "required": ["x"],
            "additionalProperties": {"$ref": "#str"},
            "$defs": {"s": {"$anchor": "str", "type": "string"}},
        },
        [{"x": "a"}],
        [{"x": 1}],
    ),
    "absolute id": (
        {
            "$id": "http://x.test/root",
            "required": ["x"],
            "additionalProperties": {"$ref": "http://x.test/root#/$defs/s"},
            "$defs": {"s": {"type": "string"}},
        },
        [{"x": "a"}],
        [{"x": 1}],
    ),
    "root as written": (
        {"type": ["object", "null"], "required": ["x"], "additionalProperties": {"$ref": "#"}},
        [{"x": None}, {"x": {"x": None}}],
        [{"x": 1}],
    ),
}


@pytest.mark.parametrize("case", list(REQUIRED_THROUGH_EXTRA), ids=list(REQUIRED_THROUGH_EXTRA))
def test_required_name_checked_through_additional_properties_resolves_its_ref(case: str) -> None:
    extra, accepted, rejected = REQUIRED_THROUGH_EXTRA[case]
    agree({"type": "object", **extra}, accepted, rejected)


def test_recursive_anchor_never_makes_the_model_facing_schema_invalid() -> None:
    d19 = {"$schema": _D19, "$recursiveAnchor": True, "type": "object"}
    assert not list(json_schema_to_model(d19, name="t").report)  # 2019-09: read statically
    for schema in (d19, {"$recursiveAnchor": True, "type": "object"}):
        conv = json_schema_to_model(schema, name="t")
        jsonschema.Draft202012Validator.check_schema(conv.llm_schema)
        assert "$recursiveAnchor" not in conv.llm_schema
