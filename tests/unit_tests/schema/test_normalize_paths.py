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
