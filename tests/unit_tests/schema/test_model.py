"""The pydantic args model: a typed view gated by the exact validator, sending the raw payload."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from langchain_toolrouter.schema import ConversionOptions, json_schema_to_model

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "format": "uri"},
        "when": {"type": "string", "format": "date-time"},
        "count": {"type": "integer", "enum": [1, 2]},
        "ratio": {"type": "number", "default": 0.5},
        "meta": {"type": "object"},
        "rows": {
            "type": "array",
            "items": {"type": "object", "properties": {"id": {"type": "string"}}},
        },
        "kind": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "required": ["url"],
}


def test_model_is_a_typed_view_with_exact_payload() -> None:
    conversion = json_schema_to_model(SCHEMA, name="typed")
    model = conversion.model
    assert issubclass(model, BaseModel)
    args = {
        "url": "https://a.com",
        "when": "2024-01-01T10:00:00+02:00",
        "count": 2,
        "meta": {"nested": {"deep": [1, {"x": None}]}},
        "rows": [{"id": "a", "free": {"form": True}}],
    }
    instance = model.model_validate(args)
    assert instance.url == "https://a.com"  # type: ignore[attr-defined]
    assert instance.rows[0].id == "a"  # type: ignore[attr-defined]
    assert instance.ratio == 0.5  # type: ignore[attr-defined]  # the view shows the default...
    assert conversion.payload(instance) == args  # ...the wire never gets it


def test_values_pydantic_would_coerce_are_rejected() -> None:
    model = json_schema_to_model(SCHEMA, name="strict_view").model
    for bad in ({"url": 5}, {"url": "x", "count": "2"}, {"url": "x", "count": True}, {}):
        with pytest.raises(ValidationError):
            model.model_validate(bad)


def test_values_json_schema_accepts_but_types_are_narrower_still_pass() -> None:
    conversion = json_schema_to_model(SCHEMA, name="narrow")
    args = {"url": "x", "count": 1.0}  # 1.0 is the integer 1 in JSON Schema
    assert conversion.payload(conversion.model.model_validate(args)) == args


def test_model_json_schema_is_the_model_facing_schema() -> None:
    conversion = json_schema_to_model(SCHEMA, name="shown")
    assert conversion.model.model_json_schema() == conversion.llm_schema
    assert conversion.model.model_json_schema() is not conversion.llm_schema  # a copy


def test_payload_of_a_model_built_by_hand_is_validated() -> None:
    conversion = json_schema_to_model(
        {"type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"]},
        name="by_hand",
    )
    instance = conversion.model.model_construct(from_="x")
    assert conversion.payload(instance) == {"from": "x"}


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="strict_provider"):
        ConversionOptions(strict_provider="anthropic")  # type: ignore[arg-type]
    for depth in (-1, True, "2"):
        with pytest.raises(ValueError, match="recursion_depth"):
            ConversionOptions(recursion_depth=depth)  # type: ignore[arg-type]


def test_a_value_the_typed_view_refuses_keeps_its_raw_view_and_is_sent_exactly() -> None:
    """1e308 is an integer to JSON Schema but not to a pydantic ``int``: the gate accepts it and
    the instance holds the raw values. Found by a fuzz run: through ``model_validate`` the
    instance came back empty (pydantic validated into a second one via ``__init__``), and an
    extra property named ``cls`` broke ``model_construct(**payload)``."""
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "from": {"type": "string"}},
        "additionalProperties": True,
    }
    conversion = json_schema_to_model(schema, name="raw")
    model: Any = conversion.model
    call = {"n": 1e308, "from": "a", "cls": 1, "_fields_set": [1]}
    instance = model.model_validate(call)
    assert (instance.n, instance.from_) == (1e308, "a")
    assert instance.model_fields_set == {"n", "from_"}
    assert instance.model_extra == {"cls": 1, "_fields_set": [1]}
    assert conversion.payload(instance) == call
    by_keyword = model(n=1e20, from_="b")
    assert by_keyword.n == 1e20
    assert conversion.payload(by_keyword) == {"n": 1e20, "from": "b"}
    assert conversion.payload(model(n=3)) == {"n": 3}


def test_a_ref_target_used_on_many_paths_becomes_one_model_class() -> None:
    # Each target used twice inside the one before: one class per path would be 2**12 classes
    # (the builder's depth limit), built in seconds; one per target is 12.
    levels = 16
    defs: dict[str, Any] = {
        f"d{i}": {
            "type": "object",
            "properties": {"a": {"$ref": f"#/$defs/d{i + 1}"}, "b": {"$ref": f"#/$defs/d{i + 1}"}},
        }
        for i in range(levels)
    }
    defs[f"d{levels}"] = {"type": "string"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    model = json_schema_to_model(schema, name="doubling").model

    def model_in(annotation: Any) -> Any:  # the model class of `M` or `M | None`
        options = typing.get_args(annotation) or (annotation,)
        found = [o for o in options if isinstance(o, type) and issubclass(o, BaseModel)]
        return found[0] if found else None

    classes = set()
    node = model_in(model.model_fields["x"].annotation)
    while node is not None:
        a, b = (model_in(node.model_fields[k].annotation) for k in "ab")
        assert a is b  # the same class on both paths
        classes.add(node)
        node = a
    assert len(classes) >= 10  # (the builder types 12 levels, then Any)
    assert model.model_validate({"x": {"a": {"b": {}}}}).model_dump(
        by_alias=True, exclude_unset=True
    )
    with pytest.raises(ValidationError):
        model.model_validate({"x": {"a": 5}})
