"""The normalizer's fast path (share already-standard subtrees) agrees with its rewriting path,
and converting never mutates the caller's schema."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from langchain_toolrouter.schema import ConversionOptions, clear_cache, json_schema_to_model
from langchain_toolrouter.schema import normalize as normalize_module

from .oracle import CorpusSchema, load_corpus
from .test_generated_properties import SCHEMAS

CORPUS = load_corpus()


def _both_paths(schema: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = normalize_module.normalize(schema)
    with monkeypatch.context() as patch:
        patch.setattr(normalize_module, "_FAST_PATH", False)
        slow = normalize_module.normalize(schema)
    assert fast.schema == slow.schema
    assert fast.entries == slow.entries
    assert fast.has_refs == slow.has_refs


@pytest.mark.skipif(not CORPUS, reason="shared schema corpus not found beside the checkout")
@pytest.mark.parametrize("item", CORPUS or [None], ids=[c.id for c in CORPUS] or ["no-corpus"])
def test_fast_and_rewriting_paths_agree_on_the_corpus(
    item: CorpusSchema, monkeypatch: pytest.MonkeyPatch
) -> None:
    _both_paths(item.schema, monkeypatch)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=SCHEMAS)
def test_fast_and_rewriting_paths_agree_on_generated_schemas(schema: dict[str, Any]) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _both_paths(schema, monkeypatch)


@pytest.mark.skipif(not CORPUS, reason="shared schema corpus not found beside the checkout")
def test_converting_never_mutates_the_callers_schema() -> None:
    clear_cache()
    for item in CORPUS:
        original = copy.deepcopy(item.schema)
        for options in (
            None,
            ConversionOptions(strict_provider="openai"),
            ConversionOptions(strict_provider="gemini"),
        ):
            conversion = json_schema_to_model(item.schema, name=item.name, options=options)
            _ = conversion.llm_schema, conversion.report, conversion.model
            with contextlib.suppress(ValueError):
                conversion.validate({})
        assert json.dumps(item.schema) == json.dumps(original), item.id


def _containers(value: Any) -> dict[int, Any]:
    """Every dict and list in ``value`` by id (the objects are kept alive by ``value``)."""
    found: dict[int, Any] = {}
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found[id(node)] = node
            stack.extend(node.values())
        elif isinstance(node, list):
            found[id(node)] = node
            stack.extend(node)
    return found


def _assert_isolated(schema: dict[str, Any]) -> None:
    clear_cache()
    source = _containers(schema)
    for options in (None, ConversionOptions(strict_provider="openai")):
        conversion = json_schema_to_model(schema, name="isolated", options=options)
        for produced in (conversion.effective_schema, conversion.llm_schema):
            shared = source.keys() & _containers(produced).keys()
            assert not shared, [source[i] for i in shared][:3]


@pytest.mark.skipif(not CORPUS, reason="shared schema corpus not found beside the checkout")
@pytest.mark.parametrize("item", CORPUS or [None], ids=[c.id for c in CORPUS] or ["no-corpus"])
def test_no_object_of_the_callers_schema_is_shared(item: CorpusSchema) -> None:
    """Conversion copies as it checks: editing the caller's schema afterwards (at any depth,
    enum and default values included) cannot reach the model-facing or effective schema."""
    _assert_isolated(item.schema)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=SCHEMAS)
def test_no_object_of_a_generated_schema_is_shared(schema: dict[str, Any]) -> None:
    _assert_isolated(schema)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"a": {"type": "dict", "enum": [{"x": [1]}]}}},
        {"properties": {"a": {"type": "string", "nullable": True, "x-meta": {"k": [1]}}}},
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "t": {"type": "array", "items": [{"type": "string"}], "default": [["a"]]}
            },
            "dependencies": {"t": ["u"]},
        },
        {"a": {"type": "str", "examples": [{"deep": {"er": []}}]}},
    ],
    ids=["dirty-enum", "nullable-vendor", "draft-07-tuple", "bare-map"],
)
def test_rewritten_schemas_share_nothing_either(schema: dict[str, Any]) -> None:
    _assert_isolated(schema)


_FLOAT = {"type": "float", "description": "a catalog's name for number"}
_RENAMED_TYPES: dict[str, dict[str, Any]] = {
    # Renamed type names at every kind of schema position, "type" before and after the
    # children (the report lists them in key order, depth first).
    "everywhere": {
        "type": "dict",
        "properties": {
            "a": _FLOAT,
            "b": {"properties": {"c": {"type": "String"}}, "type": "map"},
            "d": {"type": "list", "items": {"type": "int"}},
            "e": {"anyOf": [{"type": "bool"}, {"type": "str", "maxLength": 2}]},
            "f": {"$ref": "#/$defs/g"},
        },
        "$defs": {"g": {"type": "long"}},
        "required": ["a"],
    },
    # The check of the root fails (nullable, an OpenAPI keyword) after it renamed types in
    # subtrees; the rewriting path reuses those copies and must still report each rename once.
    "rewritten root": {
        "type": "object",
        "properties": {"x": {"type": "array", "items": _FLOAT}, "y": {"type": "double"}},
        "nullable": True,
    },
    # A renamed subtree beside one the check cannot take (unknown type name).
    "beside a dirty sibling": {
        "type": "object",
        "properties": {"p": {"type": "float"}, "q": {"type": "whatever"}, "r": _FLOAT},
    },
    # The same source subtree object twice: each place is reported.
    "shared subtree": {"type": "object", "properties": {"u": _FLOAT, "v": _FLOAT}},
}


@pytest.mark.parametrize("case", sorted(_RENAMED_TYPES))
def test_renamed_type_names_are_reported_alike_on_both_paths(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = _RENAMED_TYPES[case]
    _both_paths(schema, monkeypatch)
    entries = normalize_module.normalize(schema).entries
    renamed = [e for e in entries if "non-standard type" in e.reason]
    assert renamed, entries
    assert len({e.pointer for e in renamed}) == len(renamed)


def test_fresh_tests_each_kind_by_its_own_number() -> None:
    """``fresh`` compares kinds as literal numbers, each commented with its name: every such
    comparison must be the number that name has in the kind table."""
    import inspect
    import re

    source = inspect.getsource(normalize_module._Normalizer.fresh)
    found = re.findall(r"kind (==|<=) (\d+):  # ([^\n]*)", source)
    assert len(found) >= 15
    tested: set[int] = set()  # the kinds the branches before this one took
    for op, number, comment in found:
        values = {getattr(normalize_module, n) for n in re.findall(r"_K_\w+", comment)}
        if op == "==":
            assert values == {int(number)}, comment
        else:  # "kind <= N": the comment names every kind up to N no earlier branch took
            assert values == set(range(int(number) + 1)) - tested, comment
        tested |= values
    # every kind but _K_OTHER (0, an unknown key) names some keyword; _K_DIRTY is the last
    assert set(normalize_module._KIND.values()) == set(range(1, normalize_module._K_DIRTY + 1))
