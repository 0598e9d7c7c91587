"""Conversions are lazy and cached: the same schema is converted once; an edited one anew."""

from __future__ import annotations

import copy
import gc
from typing import Any

import pytest

from langchain_toolrouter.schema import (
    ArgsValidationError,
    ConversionOptions,
    clear_cache,
    json_schema_to_model,
)
from langchain_toolrouter.schema import convert as convert_module
from langchain_toolrouter.schema.model import build_model
from langchain_toolrouter.schema.validator import compile_schema

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"q": {"type": "string"}, "n": {"type": "integer", "minimum": 1}},
    "required": ["q"],
}


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    clear_cache()


def test_same_object_and_equal_schema_share_one_conversion() -> None:
    first = json_schema_to_model(SCHEMA, name="search")
    assert json_schema_to_model(SCHEMA, name="search") is first
    assert json_schema_to_model(copy.deepcopy(SCHEMA), name="search") is first


def test_other_name_or_options_get_their_own_conversion_over_a_shared_core() -> None:
    first = json_schema_to_model(SCHEMA, name="search")
    renamed = json_schema_to_model(copy.deepcopy(SCHEMA), name="find")
    assert renamed is not first
    assert renamed.name == "find"
    assert renamed._core is first._core  # normalized and compiled once for both
    assert renamed.llm_schema is first.llm_schema  # built once for both
    strict = json_schema_to_model(
        SCHEMA, name="search", options=ConversionOptions(strict_provider="openai")
    )
    assert strict is not first
    assert strict.llm_schema["additionalProperties"] is False
    assert "additionalProperties" not in first.llm_schema


def test_cleared_conversions_are_freed_at_once() -> None:
    """No reference cycle between a conversion and its core: clearing the cache (or evicting)
    frees them at once. A cycle would keep every converted schema until a garbage collection,
    which never comes while GC is off (as in benchmarks) and costs time while it is on."""
    gc.collect()
    gc.disable()
    try:
        for i in range(20):
            schema = {"type": "object", "properties": {"q": {"type": "string", "title": str(i)}}}
            conversion = json_schema_to_model(schema, name=f"tool{i}")
            assert json_schema_to_model(copy.deepcopy(schema), name="other") is not conversion
            conversion.llm_schema  # noqa: B018
        del conversion
        clear_cache()
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_model_and_validator_are_built_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    compiled: list[int] = []
    real_build = build_model
    real_compile = compile_schema

    def counting_build(name: str, *args: Any) -> Any:
        built.append(name)
        return real_build(name, *args)

    def counting_compile(*args: Any, **kwargs: Any) -> Any:
        compiled.append(1)
        return real_compile(*args, **kwargs)

    monkeypatch.setattr(convert_module, "build_model", counting_build)
    monkeypatch.setattr(convert_module, "compile_schema", counting_compile)
    conversion = json_schema_to_model(SCHEMA, name="lazy")
    _ = conversion.llm_schema, conversion.report
    assert built == []
    assert compiled == []
    conversion.validate({"q": "x"})
    conversion.validate({"q": "y"})
    assert compiled == [1]
    assert conversion.model is conversion.model
    assert built == ["lazy"]


def test_identity_cache_converts_a_schema_edited_in_place_anew() -> None:
    schema = copy.deepcopy(SCHEMA)
    first = json_schema_to_model(schema, name="frozen")
    assert json_schema_to_model(schema, name="frozen") is first  # unchanged: identity hit
    schema["properties"]["extra"] = {"type": "string"}
    edited = json_schema_to_model(schema, name="frozen")
    assert edited is not first
    assert "extra" in edited.llm_schema["properties"]
    assert "extra" not in first.llm_schema["properties"]


def test_identity_cache_notices_an_edit_made_before_the_first_repeat() -> None:
    # The first repeat compares cache keys (no snapshot exists yet); later ones a snapshot.
    schema = copy.deepcopy(SCHEMA)
    first = json_schema_to_model(schema, name="early")
    schema["properties"]["q"]["maxLength"] = 1
    edited = json_schema_to_model(schema, name="early")
    assert edited is not first
    assert json_schema_to_model(schema, name="early") is edited
    with pytest.raises(ArgsValidationError):
        edited.validate({"q": "ab"})
