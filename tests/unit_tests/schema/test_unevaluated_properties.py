"""Property test: ``unevaluatedProperties``/``unevaluatedItems`` mixed with every applicator.

Random schemas put the keywords beside (and inside) ``allOf``/``anyOf``/``oneOf``/``not``/
``if``/``then``/``else``/``dependentSchemas``/``$ref``, over a few shared names so branches
overlap. For each, a random value and every value obtained by dropping some of its keys (or
items), with and without an extra key (item), must be judged as jsonschema judges them.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
from collections.abc import Callable
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langchain_toolrouter.schema import json_schema_to_model

from .oracle import sends_exactly

SCALE = float(os.environ.get("TOOLROUTER_PROPERTY_SCALE", "1"))
_SETTINGS = settings(
    max_examples=max(1, round(300 * SCALE)),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)

KEYS = ["a", "b", "c", "x-d"]
VALUES = st.sampled_from([1, 1, "s", "s", None, 2.5, True])  # repeats weigh the draw
LEAVES: list[Any] = [
    {"type": "integer"},
    {"type": "integer"},
    {"type": "string"},
    {"type": "string"},
    {},
    True,
    False,
    {"const": 1},
    {"type": ["null"]},
]
RESTS: list[Any] = [False, True, {"type": "integer"}, {"type": "string"}]
_APPLICATORS = {"allOf", "anyOf", "oneOf", "not", "if", "dependentSchemas", "$ref"}

# The schemas are built from one seeded ``random.Random`` (drawn by hypothesis, so failures
# replay and shrink by seed): a tree of nested composite strategies costs several times more to
# generate than the whole check.


def _leaf(rnd: random.Random) -> Any:
    return copy.deepcopy(rnd.choice(LEAVES))


def _applicators(
    rnd: random.Random, sub: Callable[[], dict[str, Any]], refs: list[str], objects: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("allOf", "anyOf", "oneOf"):
        if rnd.random() < 0.3:
            out[key] = [sub() for _ in range(rnd.randint(1, 2))]
    if rnd.random() < 0.1:
        out["not"] = sub()
    if rnd.random() < 0.3:
        out["if"] = sub()
        for key in ("then", "else"):
            if rnd.random() < 0.7:
                out[key] = sub()
    if objects and rnd.random() < 0.25:
        out["dependentSchemas"] = {rnd.choice(KEYS): sub() for _ in range(rnd.randint(1, 2))}
    if refs and rnd.random() < 0.3:
        out["$ref"] = rnd.choice(refs)
    return out


def object_part(rnd: random.Random, depth: int, refs: list[str]) -> dict[str, Any]:
    """A subschema for an object, without ``type`` (branches constrain the same value)."""
    out: dict[str, Any] = {}
    if rnd.random() < 0.6:
        out["properties"] = {rnd.choice(KEYS): _leaf(rnd) for _ in range(rnd.randint(0, 2))}
    if rnd.random() < 0.2:
        out["patternProperties"] = {"^x-": _leaf(rnd)}
    if rnd.random() < 0.08:
        out["additionalProperties"] = _leaf(rnd)
    if rnd.random() < 0.3:
        out["required"] = rnd.sample(KEYS, rnd.randint(1, 2))
    if rnd.random() < 0.2:
        out["unevaluatedProperties"] = copy.deepcopy(rnd.choice(RESTS))
    if rnd.random() < 0.15:  # typed: a required name without a schema is then reported
        out["type"] = "object"
    if depth > 0:
        out.update(_applicators(rnd, lambda: object_part(rnd, depth - 1, refs), refs, True))
    return out


def array_part(rnd: random.Random, depth: int, refs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if rnd.random() < 0.6:
        out["prefixItems"] = [_leaf(rnd) for _ in range(rnd.randint(1, 3))]
    if rnd.random() < 0.3:
        out["contains"] = _leaf(rnd)
        if rnd.random() < 0.4:
            out["minContains"] = rnd.randint(0, 2)
    if rnd.random() < 0.08:
        out["items"] = _leaf(rnd)
    if rnd.random() < 0.2:
        out["unevaluatedItems"] = copy.deepcopy(rnd.choice(RESTS))
    if depth > 0:
        out.update(_applicators(rnd, lambda: array_part(rnd, depth - 1, refs), refs, False))
    return out


def object_schema(rnd: random.Random) -> dict[str, Any]:
    """A root object schema with ``unevaluatedProperties`` beside at least one applicator."""
    refs = ["#/$defs/p", "#/$defs/q"]
    defs = {"p": object_part(rnd, 1, []), "q": object_part(rnd, 0, [])}
    root = object_part(rnd, 2, refs)
    if "required" not in root and rnd.random() < 0.5:  # names perhaps defined only in branches
        root["required"] = rnd.sample(KEYS, rnd.randint(1, 2))
    if not root.keys() & _APPLICATORS:
        root["anyOf"] = [object_part(rnd, 0, refs), object_part(rnd, 1, refs)]
    rest = copy.deepcopy(rnd.choice(RESTS))
    return {"type": "object", "$defs": defs, **root, "unevaluatedProperties": rest}


def array_schema(rnd: random.Random) -> dict[str, Any]:
    """A root object whose property ``xs`` is an array with ``unevaluatedItems`` beside at
    least one applicator."""
    refs = ["#/$defs/p", "#/$defs/q"]
    defs = {"p": array_part(rnd, 1, []), "q": array_part(rnd, 0, [])}
    xs = array_part(rnd, 2, refs)
    if not xs.keys() & _APPLICATORS:
        xs["oneOf"] = [array_part(rnd, 0, refs), array_part(rnd, 1, refs)]
    xs = {"type": "array", **xs, "unevaluatedItems": copy.deepcopy(rnd.choice(RESTS))}
    return {"type": "object", "$defs": defs, "properties": {"xs": xs}}


SEEDS = st.integers(0, 2**32 - 1)


def _unschemed_required(pointer: str, reason: str) -> bool:
    """A required name without a schema in "properties" (typed object nodes): reported."""
    return pointer.endswith("/required") and "is required but" in reason


def _judge(schema: dict[str, Any], values: list[Any]) -> None:
    conversion = json_schema_to_model(schema, name="uneval")
    assert not [
        e
        for e in conversion.report
        if e.kind != "renamed" and not _unschemed_required(e.pointer, e.reason)
    ], str(conversion.report)
    jsonschema.Draft202012Validator.check_schema(conversion.llm_schema)
    judge = jsonschema.Draft202012Validator(schema)
    for value in values:
        expected = judge.is_valid(value)
        assert sends_exactly(conversion, value) == expected, (json.dumps(schema), value, expected)
    if os.environ.get("UNEVAL_STATS"):
        _STATS.extend(judge.is_valid(v) for v in values)


_STATS: list[bool] = []  # verdicts seen (when UNEVAL_STATS is set, to check the generators)


@pytest.mark.slow
@_SETTINGS
@given(
    seed=SEEDS,
    value=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4),
    extra=st.tuples(st.sampled_from([*KEYS, "zz"]), VALUES),
)
def test_unevaluated_properties_agree_with_jsonschema(
    seed: int, value: dict[str, Any], extra: tuple[str, Any]
) -> None:
    schema = object_schema(random.Random(seed))
    keys = sorted(value)
    subsets = [
        {k: value[k] for k in chosen}
        for n in range(len(keys) + 1)
        for chosen in itertools.combinations(keys, n)
    ]
    mutated = [{**v, extra[0]: extra[1]} for v in subsets]  # one more key added
    _judge(schema, subsets + mutated)


@pytest.mark.slow
@_SETTINGS
@given(seed=SEEDS, items=st.lists(VALUES, max_size=4), extra=VALUES)
def test_unevaluated_items_agree_with_jsonschema(seed: int, items: list[Any], extra: Any) -> None:
    schema = array_schema(random.Random(seed))
    prefixes = [items[:n] for n in range(len(items) + 1)]
    mutated = [[*p, extra] for p in prefixes] + [[extra, *items]]
    _judge(schema, [{"xs": v} for v in prefixes + mutated])
