"""Property names that cannot be pydantic attributes keep their exact name on the wire and in
the model-facing schema, and arrive unchanged."""

from __future__ import annotations

import keyword
import warnings

import pytest

from langchain_toolrouter.schema import json_schema_to_model
from langchain_toolrouter.schema.naming import field_names

TRICKY_NAMES = [
    "first name",
    "from",
    "User-Agent",
    "$vectorSearch",
    "a.b",
    "why?",
    "9lives",
    "ünïcode",
    "名前",
    "class",
    "global",
    "lambda",
    "None",
    "True",
    "schema",
    "json",
    "dict",
    "copy",
    "validate",
    "fields",
    "construct",
    "parse_obj",
    "model_config",
    "model_fields",
    "model_dump",
    "model_x",
    "_from",
    "__init__",
    "_",
    "config",
    "callbacks",
    "run_manager",
    "tool_call_id",
    "self",
    "",
    " ",
    "a-b",
    "a_b",
    "from_",
    "json_",
    "wire_payload",
    "model_json_schema",
    "mro",  # the metaclass's attributes: pydantic warns a field would shadow them
    "register",
]


@pytest.mark.parametrize("name", TRICKY_NAMES)
def test_name_round_trips(name: str) -> None:
    schema = {
        "type": "object",
        "properties": {name: {"type": "string", "description": f"the {name!r} field"}},
        "required": [name],
        "additionalProperties": False,
    }
    conversion = json_schema_to_model(schema, name="names")
    assert list(conversion.llm_schema["properties"]) == [name]
    assert conversion.llm_schema["required"] == [name]
    args = {name: "value"}
    assert conversion.validate(args) == args
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "shadows an attribute" warning from pydantic
        model = conversion.model
    instance = model.model_validate(args)
    assert conversion.payload(instance) == args
    assert model.model_json_schema()["properties"].keys() == {name}
    (attr,) = model.model_fields
    assert attr.isidentifier()
    assert not keyword.iskeyword(attr)
    assert not attr.startswith("_")
    assert model.model_fields[attr].alias == name
    assert getattr(instance, attr) == "value"


def test_all_tricky_names_together_nested_and_in_arrays() -> None:
    props = {name: {"type": "integer"} for name in TRICKY_NAMES}
    schema = {
        "type": "object",
        "properties": {
            **props,
            "nested": {"type": "object", "properties": props, "additionalProperties": False},
            "rows": {
                "type": "array",
                "items": {"type": "object", "properties": props, "required": list(props)},
            },
        },
        "required": list(props),
        "additionalProperties": False,
    }
    conversion = json_schema_to_model(schema, name="everything")
    flat = {name: i for i, name in enumerate(TRICKY_NAMES)}
    args = {**flat, "nested": dict(flat), "rows": [dict(flat), dict(flat)]}
    assert conversion.validate(args) == args
    model = conversion.model
    assert conversion.payload(model.model_validate(args)) == args
    assert len(set(model.model_fields)) == len(TRICKY_NAMES) + 2
    renamed = {e.pointer.rsplit("/", 1)[-1] for e in conversion.report.of_kind("renamed")}
    assert "from" in renamed
    assert "model_config" in renamed


def test_python_name_is_not_accepted_on_the_wire() -> None:
    schema = {
        "type": "object",
        "properties": {"from": {"type": "string"}},
        "additionalProperties": False,
    }
    conversion = json_schema_to_model(schema, name="alias_only")
    with pytest.raises(ValueError, match="from_"):
        conversion.validate({"from_": "x"})
    with pytest.raises(ValueError, match="from_"):
        conversion.model.model_validate({"from_": "x"})


def test_names_that_clean_up_alike_get_the_first_free_suffixes() -> None:
    # "a_b_2" and "a_b_4" are taken by properties named so; the other names all clean up to
    # "a_b" (or "c") and take the free suffixes in order, each candidate counting on its own.
    names = ["a b", "a_b_2", "c!", "a-b", "a_b_4", "c?", "a.b", "a+b", "c#"]
    got = {name: attr for name, (attr, _why) in field_names(names).items()}
    assert got == {
        "a b": "a_b",
        "a_b_2": "a_b_2",
        "c!": "c",
        "a-b": "a_b_3",
        "a_b_4": "a_b_4",
        "c?": "c_2",
        "a.b": "a_b_5",
        "a+b": "a_b_6",
        "c#": "c_3",
    }
    many = [f"x y{chr(0x4E00 + i)}" for i in range(2000)]  # all clean up to "x_y"
    attrs = [attr for attr, _why in field_names(many).values()]
    assert attrs == ["x_y", *(f"x_y_{n}" for n in range(2, 2001))]
