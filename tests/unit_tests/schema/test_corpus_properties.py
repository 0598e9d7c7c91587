"""Property tests over every shared corpus schema, jsonschema as the oracle.

For each schema: every instance hypothesis-jsonschema generates is accepted and its payload is
equal to it (also through the pydantic model); mutated instances are accepted exactly when the
oracle accepts them, and never altered when accepted.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis_jsonschema._canonicalise import HypothesisRefResolutionError

from langchain_toolrouter.schema import ArgsValidationError

from .oracle import (
    CORPUS_DIR,
    CorpusSchema,
    convert,
    instances,
    load_corpus,
    mutations,
    oracle,
    oracle_schema,
    unreported_losses,
)

CORPUS = load_corpus()
# Raise for a deeper local run, e.g. TOOLROUTER_PROPERTY_SCALE=20 (the default keeps CI fast).
SCALE = float(os.environ.get("TOOLROUTER_PROPERTY_SCALE", "1"))
_SKIP_NO_CORPUS = pytest.mark.skipif(
    not CORPUS,
    reason=f"shared schema corpus not found at {CORPUS_DIR} (it sits beside the checkout)",
)
_IDS = [c.id for c in CORPUS] or ["no-corpus"]
_PARAMS: list[Any] = CORPUS or [None]

_SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)


def _strategy_or_skip(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    try:
        return instances(schema)
    except (HypothesisRefResolutionError, InvalidArgument) as exc:
        pytest.skip(f"hypothesis-jsonschema cannot generate instances for this schema: {exc}")


def _check_error_shape(exc: ArgsValidationError) -> None:
    """Every rejection names a JSON-pointer path, what is wrong and what was expected."""
    assert exc.errors
    text = str(exc)
    for error in exc.errors:
        assert error.keys() == {"path", "message", "expected"}
        assert error["path"] == "" or error["path"].startswith("/")
        assert error["message"]
        assert error["expected"]
        assert (error["path"] or "(root)") in text


def _accepts(conversion: Any, instance: Any) -> bool:
    try:
        payload = conversion.validate(instance)
    except ArgsValidationError as exc:
        _check_error_shape(exc)
        return False
    assert payload == instance
    assert json.dumps(payload, sort_keys=True) == json.dumps(instance, sort_keys=True)
    return True


def _examples_for(schema: dict[str, Any]) -> int:
    """Fewer examples for the few very large schemas, whose generation dominates the run."""
    size = len(json.dumps(schema))
    base = 12 if size < 1500 else 6 if size < 10000 else 4
    return max(1, round(base * SCALE))


@_SKIP_NO_CORPUS
@pytest.mark.slow
@pytest.mark.parametrize("item", _PARAMS, ids=_IDS)
def test_corpus_schema_is_exact_and_strict(item: CorpusSchema) -> None:
    """Valid instances are accepted and sent exactly (also via the pydantic model); mutated
    instances are accepted exactly when jsonschema accepts them."""
    conversion = convert(item)
    judge_schema = oracle_schema(item.schema, conversion)
    judge = oracle(judge_schema, draft_of=item.schema)
    strategy = _strategy_or_skip(judge_schema)

    @settings(_SETTINGS, max_examples=_examples_for(judge_schema))
    @given(st.data())
    def run(data: st.DataObject) -> None:
        try:
            instance = data.draw(strategy, label="valid instance")
        except (HypothesisRefResolutionError, InvalidArgument) as exc:
            pytest.skip(f"hypothesis-jsonschema cannot generate instances for this schema: {exc}")
        assert judge.is_valid(instance)
        assert _accepts(conversion, instance), instance
        model_instance = conversion.model.model_validate(instance)
        assert conversion.payload(model_instance) == instance
        for _ in range(3):
            mutated = data.draw(mutations(instance), label="mutation")
            if isinstance(mutated, dict):
                expected = judge.is_valid(mutated)
                got = _accepts(conversion, mutated)
                assert got == expected, (
                    mutated,
                    [e.message for e in judge.iter_errors(mutated)][:2],
                )

    run()


@_SKIP_NO_CORPUS
@pytest.mark.parametrize("item", _PARAMS, ids=_IDS)
def test_corpus_schema_drops_nothing_silently(item: CorpusSchema) -> None:
    """Whatever the effective schema lacks of the published one has a report entry."""
    assert unreported_losses(item.schema, convert(item)) == []
