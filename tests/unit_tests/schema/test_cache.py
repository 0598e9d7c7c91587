"""Conversions are lazy and cached: the same schema is converted once; an edited one anew."""

from __future__ import annotations

import copy
import gc
import json
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from langchain_toolrouter.schema import (
    ArgsValidationError,
    ConversionOptions,
    SchemaConversionError,
    clear_cache,
    json_schema_to_model,
)
from langchain_toolrouter.schema import cache as cache_module
from langchain_toolrouter.schema import convert as convert_module
from langchain_toolrouter.schema.cache import canonical_key, content_of
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


def test_identity_cache_notices_an_edit_inside_a_list_after_the_snapshot() -> None:
    schema = {
        "type": "object",
        "properties": {"mode": {"type": "string", "enum": ["a"], "description": "how"}},
    }
    first = json_schema_to_model(schema, name="lists")
    assert json_schema_to_model(schema, name="lists") is first  # keys compared, snapshot kept
    schema["properties"]["mode"]["enum"].append("b")
    edited = json_schema_to_model(schema, name="lists")
    assert edited is not first
    assert edited.validate({"mode": "b"}) == {"mode": "b"}
    schema["properties"]["mode"]["description"] = "why"  # a new string, equal length
    assert json_schema_to_model(schema, name="lists") is not edited


def test_snapshot_copies_every_container_and_shares_only_immutable_scalars() -> None:
    leaf = {"type": "string", "enum": ["a", 1, 1.5, True, None], "description": "d"}
    odd = ("t", ["inner"])  # not JSON: deep-copied, never shared
    schema = {"type": "object", "properties": {"x": leaf}, "examples": [{"x": "a"}], "odd": odd}
    copied = cache_module.snapshot(schema)
    assert copied == schema
    assert copied["properties"]["x"] is not leaf
    assert copied["properties"]["x"]["enum"] is not leaf["enum"]
    assert copied["examples"][0] is not schema["examples"][0]
    assert copied["odd"] == odd
    assert copied["odd"][1] is not odd[1]
    assert copied["properties"]["x"]["description"] is leaf["description"]
    with pytest.raises(RecursionError):
        cache_module.snapshot(_nested(900))


def test_cache_key_depends_on_content_only() -> None:
    """The key is the same whatever objects the schema shares, or other code holds, and it
    tells apart what JSON tells apart (``1``, ``1.0`` and ``true``; key order)."""
    leaf = {"type": "string", "description": "shared"}
    shared = {"type": "object", "properties": {"a": leaf, "b": leaf}, "required": ["a"]}
    held = [leaf, shared["required"], "shared"]  # other references change refcounts only
    unshared = json.loads(json.dumps(shared))
    assert canonical_key(shared) == canonical_key(unshared)
    assert content_of(canonical_key(shared)) == unshared  # type: ignore[arg-type]
    keys = {canonical_key({"default": v}) for v in (1, 1.0, True, "1", None)}
    assert len(keys) == 5
    assert canonical_key({"a": 1, "b": 2}) != canonical_key({"b": 2, "a": 1})
    assert held
    big = {"type": "object", "properties": {f"p{i}": {"description": "x" * 999} for i in range(99)}}
    assert content_of(canonical_key(big)) == big  # type: ignore[arg-type]  # written in chunks


def test_cache_key_writes_no_object_that_loading_would_call() -> None:
    """A dict subclass or any other object is never pickled as a class reference (loading the
    key would call it): such a schema is keyed by its JSON text instead."""
    loaded: list[int] = []

    class Sneaky:
        def __reduce__(self) -> Any:
            return (loaded.append, (1,))

    ordered = OrderedDict(type="object")
    assert canonical_key(ordered) == '{"type":"object"}'
    text = canonical_key({"type": "object", "default": Sneaky()})
    assert isinstance(text, str)
    assert loaded == []
    cyclic: dict[str, Any] = {"type": "object"}
    cyclic["items"] = cyclic
    with pytest.raises(ValueError, match="Circular"):
        canonical_key(cyclic)


def test_cache_keys_made_in_many_threads_are_each_right() -> None:
    schemas = [{"type": "object", "title": f"t{i}", "properties": {"x": {}}} for i in range(64)]
    expected = [canonical_key(s) for s in schemas]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            assert list(pool.map(canonical_key, schemas)) == expected


def test_content_cache_evicts_the_least_recently_used_schema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(convert_module, "_CORES_MAX", 2)
    a, b, c = ({"type": "object", "title": t} for t in "abc")
    first_a = json_schema_to_model(a, name="t")
    first_b = json_schema_to_model(b, name="t")
    assert json_schema_to_model(copy.deepcopy(a), name="t") is first_a  # a is now the newest
    json_schema_to_model(c, name="t")  # evicts b, the least recently used
    convert_module._BY_IDENTITY.clear()  # look up by content only
    assert json_schema_to_model(copy.deepcopy(a), name="t") is first_a
    assert json_schema_to_model(copy.deepcopy(b), name="t") is not first_b
    assert len(convert_module._CORES) == 2


def _nested(levels: int) -> dict[str, Any]:
    root: dict[str, Any] = {"type": "object"}
    node = root
    for _ in range(levels):
        child: dict[str, Any] = {"type": "object"}
        node["properties"] = {"a": child}
        node = child
    return root


def test_a_schema_deeper_than_pickling_allows_is_keyed_and_degraded_not_raised() -> None:
    """900 levels (1,800 nested dicts): past what pickle (or the normalizer) can recurse into,
    within marshal's own limit. The conversion degrades with a warning, as any schema the
    normalizer cannot read does; the key still records the content."""
    schema = _nested(900)
    key = canonical_key(schema)
    assert isinstance(key, bytes)
    assert canonical_key(content_of(key)) == key  # (``==`` itself cannot recurse so deep)
    with pytest.warns(RuntimeWarning, match="degraded: the schema is nested too deeply to read"):
        conversion = json_schema_to_model(schema, name="deep")
    assert [entry.kind for entry in conversion.report] == ["dropped"]
    assert all("flatten it" in entry.reason for entry in conversion.report)
    for _ in range(3):  # the identity cache's repeats compare too deep a schema by key
        assert json_schema_to_model(schema, name="deep") is conversion


def test_a_schema_too_deep_to_read_at_all_is_refused_with_a_clear_error() -> None:
    # Too deep for every key (pickle, marshal, JSON text). Python 3.13 lets C code such as
    # pickle recurse past the recursion limit (1,100 levels pickle there), so go far deeper.
    with pytest.raises(SchemaConversionError, match="nested too deeply"):
        json_schema_to_model(_nested(20_000), name="deeper")


def test_a_key_made_while_another_is_being_made_on_the_same_thread_is_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python code can run on the thread in the middle of a dump (a finalizer, a signal
    handler); a key it makes must not share the pickler that is busy, nor find what a failed
    or interrupted dump left behind."""
    inner = {"type": "object", "title": "inner"}
    expected = canonical_key(inner)
    made: list[Any] = []

    def reenter(self: Any, obj: Any) -> Any:
        made.append(canonical_key(inner))
        raise ValueError("not a plain value")

    big = {"type": "object", "description": "x" * 70_000}
    with monkeypatch.context() as patch:
        patch.setattr(cache_module._PlainPickler, "reducer_override", reenter)
        assert isinstance(canonical_key({"big": big, "odd": object()}), str)  # JSON text
    assert made == [expected]

    def interrupt(self: Any, obj: Any) -> Any:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(cache_module._PlainPickler, "reducer_override", interrupt)
        with pytest.raises(KeyboardInterrupt):
            canonical_key({"big": big, "odd": object()})  # over 64 KiB written before it
    assert canonical_key(inner) == expected
