"""Non-standard schemas from the wild are read in their closest standard way and reported;
only a schema that is not an object schema at all is refused."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from langchain_toolrouter.schema import (
    ArgsValidationError,
    ConversionOptions,
    ConversionReport,
    ReportEntry,
    SchemaConversionError,
    json_schema_to_model,
)
from langchain_toolrouter.schema.report import ReportKind

# The plain conversion and the strict providers' variants.
_EVERY_VARIANT = (
    None,
    ConversionOptions(strict_provider="openai"),
    ConversionOptions(strict_provider="gemini"),
)


def _accepts(schema: dict[str, Any], args: dict[str, Any]) -> bool:
    conversion = json_schema_to_model(schema, name="wild")
    try:
        assert conversion.validate(args) == args
    except ArgsValidationError:
        return False
    return True


@pytest.mark.parametrize(
    ("type_name", "good", "bad"),
    [
        ("dict", {"k": 1}, [1]),
        ("float", 1.5, "1.5"),
        ("double", 2, True),
        ("int", 3, 3.5),
        ("long", 3, "3"),
        ("tuple", [1, 2], {"a": 1}),
        ("list", [], "[]"),
        ("String", "x", 1),
        ("str", "x", None),
        ("bool", False, "false"),
        ("HashMap", {}, []),
        ("ArrayList", [1], {}),
    ],
)
def test_non_standard_type_names(type_name: str, good: Any, bad: Any) -> None:
    schema = {"type": "dict", "properties": {"v": {"type": type_name}}, "required": ["v"]}
    conversion = json_schema_to_model(schema, name="bfcl")
    assert conversion.validate({"v": good}) == {"v": good}
    with pytest.raises(ArgsValidationError):
        conversion.validate({"v": bad})
    pointers = {e.pointer for e in conversion.report.of_kind("approximated")}
    assert {"/type", "/properties/v/type"} <= pointers
    jsonschema.Draft202012Validator.check_schema(conversion.effective_schema)
    jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)


@pytest.mark.parametrize("type_name", ["any", "Any", "mixed", "weird-type"])
def test_any_and_unknown_types_accept_every_json_value(type_name: str) -> None:
    schema = {"type": "object", "properties": {"v": {"type": type_name}}}
    conversion = json_schema_to_model(schema, name="anything")
    for value in ("x", 1, 1.5, None, [1], {"a": [None]}, True):
        assert conversion.validate({"v": value}) == {"v": value}
    assert conversion.report


def test_missing_type_and_bare_property_map_root() -> None:
    assert _accepts({"properties": {"a": {"type": "string"}}}, {"a": "x"})
    bare = {"input": {"type": "string"}, "output": {"type": "string"}}
    conversion = json_schema_to_model(bare, name="bare")
    assert conversion.llm_schema == {"type": "object", "properties": bare}
    assert conversion.validate({"input": "a"}) == {"input": "a"}
    with pytest.raises(ArgsValidationError):
        conversion.validate({"input": 1})
    assert conversion.report.of_kind("approximated")[0].pointer == ""


def test_empty_schema_is_an_open_object() -> None:
    conversion = json_schema_to_model({}, name="empty")
    assert conversion.validate({}) == {}
    assert conversion.validate({"x": [1]}) == {"x": [1]}
    assert conversion.llm_schema == {"type": "object"}


def test_properties_on_a_non_object_is_dropped_and_reported() -> None:
    schema = {
        "type": "object",
        "properties": {"t": {"type": "array", "items": {"type": "string", "properties": {}}}},
    }
    conversion = json_schema_to_model(schema, name="odd")
    assert conversion.validate({"t": ["a"]}) == {"t": ["a"]}
    (entry,) = conversion.report.of_kind("dropped")
    assert entry.pointer == "/properties/t/items/properties"
    assert "properties" not in conversion.llm_schema["properties"]["t"]["items"]


def test_required_naming_a_missing_property_stays_required() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}
    conversion = json_schema_to_model(schema, name="ghost")
    assert conversion.llm_schema["properties"]["b"] == {}
    assert conversion.llm_schema["required"] == ["a", "b"]
    with pytest.raises(ArgsValidationError, match="/b"):
        conversion.validate({"a": "x"})
    assert any("'b'" in e.reason for e in conversion.report)


def test_defaults_that_violate_the_type_are_kept_but_never_injected() -> None:
    schema = {
        "type": "dict",
        "properties": {
            "auth": {"type": "string", "default": None},
            "unisex": {
                "type": "boolean",
                "enum": ["True", "False", "dontcare"],
                "default": "dontcare",
            },
        },
    }
    conversion = json_schema_to_model(schema, name="defaults")
    assert conversion.llm_schema["properties"]["auth"]["default"] is None
    assert conversion.validate({}) == {}
    instance = conversion.model.model_validate({})
    assert conversion.payload(instance) == {}


def test_openapi_nullable_and_draft03_required() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "nullable": True, "required": True}},
    }
    conversion = json_schema_to_model(schema, name="legacy")
    assert conversion.validate({"a": "x"}) == {"a": "x"}
    with pytest.raises(ArgsValidationError):  # nullable is no JSON Schema keyword (jsonschema)
        conversion.validate({"a": None})
    with pytest.raises(ArgsValidationError):
        conversion.validate({})
    assert conversion.llm_schema["properties"]["a"]["nullable"] is True
    assert len(conversion.report) == 2


def test_keywords_spelled_as_googles_sdks_spell_them_are_kept_unapplied_and_reported() -> None:
    """google-generativeai's ``type_``, google-genai's snake_case ``model_dump()`` keys: no JSON
    Schema keywords, so (as every validator, the oracle included) calls are not checked against
    them; but the report says so, naming the keyword meant."""
    schema = {
        "type_": "OBJECT",
        "properties": {
            "to": {"type_": "STRING", "max_length": 3, "any_of": None},
            "tags": {"type": "array", "min_items": 1},
            "both": {"type": "string", "type_": "INTEGER"},
        },
        "required": ["to"],
    }
    conversion = json_schema_to_model(schema, name="gemini_sdk")
    assert conversion.effective_schema["properties"] == schema["properties"]  # kept as written
    said = {e.pointer: e.reason for e in conversion.report if e.kind == "dropped"}
    assert said == {
        "/type_": '"type_" is how Google\'s SDKs spell "type", not a JSON Schema keyword: calls '
        'are not checked against it (no JSON Schema validator would); write "type" to have them '
        "checked",
        "/properties/to/type_": said["/properties/to/type_"],
        "/properties/to/max_length": said["/properties/to/max_length"],
        "/properties/tags/min_items": said["/properties/tags/min_items"],
    }  # not for a null (an unset field), nor beside the standard spelling
    assert 'spell "maxLength"' in said["/properties/to/max_length"]
    anything = {"to": 5, "tags": [], "both": "x"}
    assert conversion.validate(anything) == anything  # as jsonschema judges it
    with pytest.raises(ArgsValidationError):
        conversion.validate({})  # required is a keyword


@pytest.mark.parametrize("required_first", [True, False])
def test_draft03_required_joins_a_required_list_in_either_key_order(required_first: bool) -> None:
    props = {"a": {"type": "integer", "required": True}, "g": {}}
    schema: dict[str, Any] = (
        {"type": "object", "required": ["g"], "properties": props}
        if required_first
        else {"type": "object", "properties": props, "required": ["g"]}
    )
    conversion = json_schema_to_model(schema, name="legacy")
    assert conversion.llm_schema["required"] == ["g", "a"]
    with pytest.raises(ArgsValidationError):
        conversion.validate({"g": 1})
    assert conversion.validate({"g": 1, "a": 2}) == {"g": 1, "a": 2}


def test_draft03_required_with_no_properties_to_lift_into_is_reported() -> None:
    # A bare map root (as tool hubs publish them) is read with no required property, and a
    # "required": true outside a "properties" map has no list to join: both are reported,
    # never dropped silently.
    bare = {"a": {"type": "string", "required": True}, "b": {"type": "string", "required": False}}
    conversion = json_schema_to_model(bare, name="hub")
    assert conversion.validate({}) == {}
    assert "required" not in conversion.llm_schema
    (entry,) = conversion.report.of_kind("dropped")
    assert entry.pointer == "/a/required"
    assert '"required": [...]' in entry.reason
    nested = {
        "type": "object",
        "properties": {"a": {"type": "array", "items": {"type": "string", "required": True}}},
    }
    conversion = json_schema_to_model(nested, name="items")
    assert conversion.validate({"a": ["x"]}) == {"a": ["x"]}
    (entry,) = conversion.report.of_kind("dropped")
    assert entry.pointer == "/properties/a/items/required"
    assert conversion.llm_schema["properties"]["a"]["items"] == {"type": "string"}


def test_draft04_boolean_exclusive_bound_with_no_bound_is_reported() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "number", "exclusiveMinimum": True, "exclusiveMaximum": False}
        },
    }
    conversion = json_schema_to_model(schema, name="legacy")
    assert conversion.validate({"n": -5}) == {"n": -5}
    assert conversion.llm_schema["properties"]["n"] == {"type": "number"}
    (entry,) = conversion.report.entries  # false is the inclusive default: nothing lost
    assert (entry.kind, entry.pointer) == ("dropped", "/properties/n/exclusiveMinimum")


def test_uncompilable_pattern_is_dropped_and_reported() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "(?<name>x)["}}}
    conversion = json_schema_to_model(schema, name="regex")
    assert conversion.validate({"a": "anything"}) == {"a": "anything"}
    (entry,) = conversion.report.of_kind("dropped")
    assert entry.pointer == "/properties/a/pattern"


def test_unresolvable_ref_degrades_to_any_and_is_reported() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/missing"}, "b": {"$ref": "https://x/y.json"}},
    }
    conversion = json_schema_to_model(schema, name="refs")
    assert conversion.validate({"a": [1], "b": "x"}) == {"a": [1], "b": "x"}
    assert {e.pointer for e in conversion.report.of_kind("dropped")} == {
        "/properties/a/$ref",
        "/properties/b/$ref",
    }


def test_draft07_ref_siblings_are_ignored_like_the_draft_says() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "definitions": {"s": {"type": "string"}},
        "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1, "description": "kept"}},
    }
    conversion = json_schema_to_model(schema, name="draft7")
    assert conversion.validate({"a": "long"}) == {"a": "long"}
    assert jsonschema.Draft7Validator(schema).is_valid({"a": "long"})
    assert conversion.llm_schema["properties"]["a"] == {"type": "string", "description": "kept"}


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        ({"type": "string"}, "/type"),
        ({"type": ["string", "null"]}, "/type"),
        ([], ""),
        ("object", ""),
        (None, ""),
    ],
)
def test_non_object_schema_is_refused_with_a_pointer(schema: Any, pointer: str) -> None:
    with pytest.raises(SchemaConversionError) as info:
        json_schema_to_model(schema, name="bad")
    assert info.value.pointer == pointer
    assert "object" in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": 5}, "name must be a string"),
        ({"name": ["a"]}, "name must be a string"),
        ({"name": "t", "options": {"strict_provider": "openai"}}, "ConversionOptions"),
    ],
)
def test_a_name_or_options_of_the_wrong_type_is_refused_clearly(
    kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        json_schema_to_model({"type": "object"}, **kwargs)


def test_payload_of_something_that_is_not_a_model_instance_points_to_validate() -> None:
    conversion = json_schema_to_model({"type": "object"}, name="t")
    with pytest.raises(TypeError, match=r"validate\(\)"):
        conversion.payload({"a": 1})  # type: ignore[arg-type]


def test_root_type_list_with_object_is_narrowed() -> None:
    conversion = json_schema_to_model({"type": ["object", "null"], "properties": {}}, name="n")
    assert conversion.llm_schema["type"] == "object"
    assert conversion.report.of_kind("approximated")[0].pointer == "/type"


def test_report_reads_well() -> None:
    empty = ConversionReport()
    assert not empty
    assert len(empty) == 0
    assert "exact" in str(empty)
    report = ConversionReport((ReportEntry("dropped", "/a/pattern", "bad regex"),))
    assert report
    assert str(report) == "dropped at /a/pattern: bad regex"
    assert list(report) == [ReportEntry("dropped", "/a/pattern", "bad regex")]


def test_validation_error_names_each_path_and_expectation() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "maximum": 5},
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}},
                    "required": ["id"],
                },
            },
            "mode": {"enum": ["a", "b"]},
        },
        "required": ["n"],
        "additionalProperties": False,
    }
    conversion = json_schema_to_model(schema, name="errs")
    with pytest.raises(ArgsValidationError) as info:
        conversion.validate({"n": 9, "items": [{"id": "x"}, {}], "mode": "c", "extra": 1})
    errors = {e["path"]: e for e in info.value.errors}
    assert set(errors) == {"/n", "/items/1/id", "/mode", "/extra"}
    assert errors["/n"]["expected"] == "a number <= 5"
    assert errors["/mode"]["expected"] == 'one of "a", "b"'
    text = str(info.value)
    assert "'errs'" in text
    for path in errors:
        assert path in text
    assert isinstance(info.value, ValueError)


def test_an_empty_enum_allows_nothing_and_says_so() -> None:
    # Valid JSON Schema (published by tool hubs that always write the keyword): no value matches.
    schema = {"type": "object", "properties": {"a": {"description": "x", "enum": []}}}
    conversion = json_schema_to_model(schema, name="empty_enum")
    assert conversion.validate({}) == {}
    assert conversion.llm_schema == schema
    with pytest.raises(ArgsValidationError) as info:
        conversion.validate({"a": "x"})
    (error,) = info.value.errors
    assert error["path"] == "/a"
    assert "enum is empty" in error["expected"]


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "integer", "enum": ["1", "2", "dontcare"]},  # a function-calling dataset's
        {"type": ["number", "null"], "enum": ["a", True]},
        {"type": "string", "const": 3},
    ],
)
def test_a_type_that_excludes_every_enum_value_says_the_schema_contradicts_itself(
    prop: dict[str, Any],
) -> None:
    # Each error used to point at the other: "1" was told "an integer", 1 "one of "1", ...".
    schema = {"type": "object", "properties": {"a": prop}}
    conversion = json_schema_to_model(schema, name="contradiction")
    assert conversion.llm_schema == schema  # shown as published
    members = prop.get("enum", [prop.get("const")])
    for value in [*members, 1, "x", None]:
        with pytest.raises(ArgsValidationError) as info:
            conversion.validate({"a": value})
        (error,) = info.value.errors
        assert error["path"] == "/a"
        assert "contradicts itself" in error["expected"], (value, error)


def test_an_enum_the_type_partly_excludes_is_not_called_a_contradiction() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer", "enum": [1, "x"]}}}
    conversion = json_schema_to_model(schema, name="partial")
    assert conversion.validate({"a": 1}) == {"a": 1}
    with pytest.raises(ArgsValidationError) as info:
        conversion.validate({"a": 2})
    assert "contradicts" not in info.value.errors[0]["expected"]


def test_non_json_values_are_refused_not_sent() -> None:
    import datetime

    conversion = json_schema_to_model({"type": "object"}, name="json_only")
    for value in (datetime.datetime.now(), (1, 2), {1, 2}, float("nan"), b"x"):
        with pytest.raises(ArgsValidationError, match="/v"):
            conversion.validate({"v": value})
    with pytest.raises(ArgsValidationError):
        conversion.validate([])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "path", "said"),
    [
        ({1: "x"}, "", "object key 1 is not a string"),
        ({"v": {("a",): 1}}, "/v", "object key ('a',) is not a string"),
        ({"v": "a\ud800b"}, "/v", "lone surrogate (U+D800 at index 1)"),
        ({"v": ["ok", "é\udfff"]}, "/v/1", "lone surrogate (U+DFFF at index 1)"),
        ({"v": "\ud83d\ude00"}, "/v", "lone surrogate (U+D83D at index 0)"),  # a pair, as str
        ({"v": {"k\udc80": 1}}, "/v", "object key 'k\\udc80' holds a lone surrogate"),
    ],
)
def test_keys_that_are_not_text_and_lone_surrogates_are_invalid_arguments(
    call: dict[Any, Any], path: str, said: str
) -> None:
    conversion = json_schema_to_model({"type": "object"}, name="text_only")
    with pytest.raises(ArgsValidationError) as info:
        conversion.validate(call)
    (error,) = info.value.errors
    assert error["path"] == path
    assert said in error["message"]
    with pytest.raises(ValidationError, match=r"not a string|lone surrogate"):  # the same gate
        conversion.model.model_validate(call)


@given(st.text(st.characters(codec="utf-8"), max_size=20), st.text(max_size=20))
def test_unicode_text_is_sent_exactly_and_a_surrogate_anywhere_is_refused(
    text: str, key: str
) -> None:
    conversion = json_schema_to_model({"type": "object"}, name="text_only")
    call = {key: [text, {text: key}]}
    assert conversion.validate(call) == call
    for bad in ({key: [text + "\ud800"]}, {key: {text + "\udbff": 1}}, {key + "\udc00": 0}):
        with pytest.raises(ArgsValidationError, match="lone surrogate"):
            conversion.validate(bad)


def test_bad_pattern_property_key_is_dropped_and_reported() -> None:
    schema = {
        "type": "object",
        "patternProperties": {"[": {"type": "string"}, "^x": {"type": "integer"}},
    }
    conversion = json_schema_to_model(schema, name="patterns")
    assert conversion.validate({"x1": 1, "[": [1]}) == {"x1": 1, "[": [1]}
    with pytest.raises(ArgsValidationError):
        conversion.validate({"x1": "1"})
    (entry,) = conversion.report.of_kind("dropped")
    assert entry.pointer == "/patternProperties/["


def test_ecmascript_named_groups_are_translated() -> None:
    schema = {
        "type": "object",
        "properties": {"d": {"type": "string", "pattern": "^(?<year>\\d{4})$"}},
    }
    conversion = json_schema_to_model(schema, name="js_regex")
    assert conversion.validate({"d": "2024"}) == {"d": "2024"}
    with pytest.raises(ArgsValidationError):
        conversion.validate({"d": "24"})
    assert conversion.report.of_kind("approximated")[0].pointer == "/properties/d/pattern"


def test_unevaluated_properties_without_applicators_is_enforced() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "unevaluatedProperties": False,
    }
    conversion = json_schema_to_model(schema, name="uneval")
    assert jsonschema.Draft202012Validator(schema).is_valid({"a": "x"})
    assert conversion.validate({"a": "x"}) == {"a": "x"}
    with pytest.raises(ArgsValidationError, match="/b"):
        conversion.validate({"a": "x", "b": 1})
    assert not conversion.report


def test_a_converter_failure_degrades_that_tool_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from langchain_toolrouter.schema import normalize as normalize_module

    def broken(self: Any, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(normalize_module._Normalizer, "run", broken)
    with pytest.warns(RuntimeWarning, match="degraded"):
        conversion = json_schema_to_model(
            {"type": "object", "properties": {"zz_degraded": {}}}, name="broken"
        )
    assert conversion.validate({"anything": [1]}) == {"anything": [1]}
    (entry,) = conversion.report.of_kind("dropped")
    assert "boom" in entry.reason


def test_odd_keyword_values_do_not_break_conversion() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {
                "type": "string",
                "format": {"not": "a string"},
                "minLength": "2",
                "maximum": "9",
            },
            "b": {"type": "integer", "maxItems": 2.0, "multipleOf": 0},
        },
        "dependentRequired": {"a": "b"},
        "dependencies": {"b": "nonsense"},
    }
    for options in _EVERY_VARIANT:
        conversion = json_schema_to_model(schema, name="odd_values", options=options)
        jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)
        assert conversion.validate({"a": "x", "b": 3}) == {"a": "x", "b": 3}
        dropped = {e.pointer for e in conversion.report.of_kind("dropped")}
        assert {
            "/properties/a/minLength",
            "/properties/a/maximum",
            "/properties/b/multipleOf",
        } <= dropped


@pytest.mark.parametrize(
    ("keyword", "value", "kind"),
    [
        ("enum", None, "dropped"),
        ("enum", "abc", "approximated"),
        ("enum", 0, "approximated"),
        ("examples", "abc", "dropped"),
        ("examples", None, "dropped"),
        ("dependencies", None, "dropped"),
        ("minLength", 1.5, "approximated"),
        ("$anchor", "#x", "dropped"),
        ("$anchor", None, "dropped"),
        ("$dynamicAnchor", "a b", "dropped"),
        ("$recursiveAnchor", "#x", "dropped"),
        ("$recursiveRef", {"a": 1}, "dropped"),
        ("$vocabulary", {"https://example.com/v": 1}, "dropped"),
        ("$vocabulary", "x", "dropped"),
    ],
)
def test_keyword_values_the_meta_schema_forbids_are_read_or_dropped_and_reported(
    keyword: str, value: Any, kind: ReportKind
) -> None:
    # Once on a plain leaf (the check-and-copy walk's fastest case) and once at the root.
    leaf = {"type": "object", "properties": {"a": {"type": "string", keyword: value}}}
    root = {"type": "object", "properties": {"a": {"type": "string"}}, keyword: value}
    for schema, pointer in ((leaf, f"/properties/a/{keyword}"), (root, f"/{keyword}")):
        for options in _EVERY_VARIANT:
            conversion = json_schema_to_model(schema, name="meta", options=options)
            jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)
            if options is None:
                assert pointer in {e.pointer for e in conversion.report.of_kind(kind)}
                jsonschema.Draft202012Validator.check_schema(conversion.effective_schema)
            if schema is leaf:  # (a root "enum" read as one value refuses {})
                assert conversion.validate({}) == {}
                conversion.model.model_validate({})


def test_non_list_enum_and_fractional_counts_keep_their_meaning() -> None:
    def accepts(prop: dict[str, Any], value: Any) -> bool:
        return _accepts({"type": "object", "properties": {"a": prop}}, {"a": value})

    assert accepts({"type": "string", "enum": None}, "anything")  # null: no enum
    assert accepts({"type": "string", "enum": "abc"}, "abc")  # a value: that value only
    assert not accepts({"type": "string", "enum": "abc"}, "abd")
    assert not accepts({"type": "string", "minLength": 1.5}, "a")  # at least 2
    assert accepts({"type": "string", "minLength": 1.5}, "ab")
    assert accepts({"type": "array", "maxItems": 2.5}, [1, 2])  # at most 2
    assert not accepts({"type": "array", "maxItems": 2.5}, [1, 2, 3])
    assert accepts({"type": "string", "maxLength": 10**400}, "x")  # no float overflow


def test_an_empty_draft07_items_list_constrains_no_position() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"type": "array", "items": [], "additionalItems": {"type": "string"}}},
    }
    conversion = json_schema_to_model(schema, name="tuple")
    jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)
    assert conversion.validate({"a": ["x", "y"]}) == {"a": ["x", "y"]}
    with pytest.raises(ArgsValidationError):
        conversion.validate({"a": ["x", 1]})


def test_patterns_python_warns_about_convert_and_check_quietly() -> None:
    # "[[" makes Python's re warn (FutureWarning); the tests turn warnings into errors.
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "pattern": "[[:alpha:]]+"},
            "r": {"type": "string", "format": "regex"},
        },
    }
    conversion = json_schema_to_model(schema, name="posix_class")
    assert not conversion.report
    assert conversion.validate({"a": "a:]", "r": "[[a]]&&b"}) == {"a": "a:]", "r": "[[a]]&&b"}


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("", "unknown type ''; any JSON value is accepted here"),
        ("Array<string>", "unknown type 'Array<string>'; any JSON value is accepted here"),
        (["string", "zz"], "unknown type 'zz'; that alternative accepts any JSON value"),
    ],
)
def test_an_unknown_type_name_is_reported_as_what_it_was(written: Any, said: str) -> None:
    # "that alternative" only makes sense inside a type list.
    schema = {"type": "object", "properties": {"v": {"type": written}}}
    conversion = json_schema_to_model(schema, name="unknown_type")
    (entry,) = [e for e in conversion.report if e.pointer == "/properties/v/type"]
    assert entry.kind == "dropped"
    assert entry.reason == said


def test_a_long_enum_in_an_error_says_how_many_values_there_are() -> None:
    schema = {"type": "object", "properties": {"m": {"enum": list(range(30))}}}
    with pytest.raises(ArgsValidationError) as info:
        json_schema_to_model(schema, name="long_enum").validate({"m": 99})
    assert info.value.errors[0]["expected"].endswith("19, ... (30 in all)")
