"""Regression tests for the failure classes an independent evaluation found (C1...C15).

Each verdict is checked against jsonschema on the schema as published (not the effective one),
so a wrong expectation fails as loudly as a wrong converter.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest

from langchain_toolrouter.schema import ArgsValidationError, json_schema_to_model


def _oracle(schema: dict[str, Any], value: Any) -> bool:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return bool(cls(schema).is_valid(value))


def _accepts(schema: dict[str, Any], value: Any, **kw: Any) -> bool:
    conv = json_schema_to_model(copy.deepcopy(schema), name="t", **kw)
    try:
        sent = conv.validate(copy.deepcopy(value))
    except ArgsValidationError:
        return False
    assert sent == value
    return True


def _agree(schema: dict[str, Any], accepted: list[Any], rejected: list[Any]) -> None:
    for value in accepted:
        assert _oracle(schema, value), value
        assert _accepts(schema, value), value
    for value in rejected:
        assert not _oracle(schema, value), value
        assert not _accepts(schema, value), value


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
    _agree(schema, [{"n": 1}], [{}, {"n": "x"}, {"n": 1, "m": 2}])
    conv = json_schema_to_model(copy.deepcopy(schema), name="t")
    llm = conv.llm_schema
    assert llm["type"] == "object"
    assert llm["properties"] == {"n": {"type": "integer"}}
    assert llm["required"] == ["n"]
    assert not any("definitions" in str(e) for e in conv.report)
    assert list(conv.model.model_fields) == ["n"]
