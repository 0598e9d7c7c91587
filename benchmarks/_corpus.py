"""The shared schema corpus, and the valid and invalid calls the quality section sends.

Valid calls are generated from each schema with hypothesis-jsonschema and kept only if the
``jsonschema`` package (the oracle) accepts them; invalid calls are mutations of valid ones that
the oracle rejects, labelled by the keyword the oracle reports.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "FORMAT_CLASS",
    "SCHEMAS_ENV",
    "Calls",
    "Tool",
    "find_schema_dir",
    "generate_calls",
    "load_corpus",
    "map_bfcl_types",
    "replicate",
]

SCHEMAS_ENV = "TOOLROUTER_SCHEMAS_DIR"

# ``format`` is an annotation in JSON Schema 2020-12 (asserting it is optional), so calls that
# break only a format are scored apart from the other invalid calls.
FORMAT_CLASS = "format (optional)"

# BFCL's non-JSON-Schema type names, read the way the benchmark means them. Used only to give the
# oracle and the generator a schema they understand; the converters always get the original.
_BFCL_TYPES: dict[str, str | None] = {
    "dict": "object",
    "HashMap": "object",
    "float": "number",
    "double": "number",
    "int": "integer",
    "long": "integer",
    "tuple": "array",
    "ArrayList": "array",
    "list": "array",
    "String": "string",
    "str": "string",
    "char": "string",
    "Boolean": "boolean",
    "bool": "boolean",
    "any": None,
    "Any": None,
}

# The oracle's failing keyword -> the mutation class the issue names.
_KEYWORD_CLASS = {
    "type": "wrong type",
    "required": "missing required",
    "additionalProperties": "unknown key (closed)",
    "unevaluatedProperties": "unknown key (closed)",
    "enum": "out of enum/const",
    "const": "out of enum/const",
    "pattern": "pattern",
    "format": FORMAT_CLASS,
}


@dataclass(frozen=True)
class Tool:
    """One corpus line: where it came from, the tool name and description, its input schema."""

    file: str
    source: str
    name: str
    description: str
    schema: dict[str, Any]


@dataclass
class Calls:
    """The calls generated for one tool (empty with ``skipped`` set when the oracle cannot)."""

    valid: list[dict[str, Any]] = field(default_factory=list)
    invalid: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (class, call)
    skipped: str | None = None
    mapped_types: bool = False  # BFCL type names were mapped for the oracle
    oracle: Any = None  # the jsonschema validator the calls were checked with


def find_schema_dir(arg: str | None) -> Path:
    """``--schemas``, else $TOOLROUTER_SCHEMAS_DIR, else ``<repo>/../shared/schemas``."""
    raw = arg or os.environ.get(SCHEMAS_ENV)
    path = Path(raw) if raw else Path(__file__).resolve().parents[1].parent / "shared" / "schemas"
    if not path.is_dir() or not any(path.glob("*.jsonl")):
        raise SystemExit(
            f"no schema corpus (*.jsonl) in {path}; pass --schemas DIR or set {SCHEMAS_ENV}"
        )
    return path


def load_corpus(directory: Path) -> list[Tool]:
    """Every line of every ``*.jsonl`` file in ``directory``, in file then line order."""
    tools = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                tools.append(
                    Tool(
                        path.stem,
                        row["source"],
                        row["name"],
                        row["description"],
                        row["input_schema"],
                    )
                )
    return tools


def replicate(tools: list[Tool], count: int) -> list[Tool]:
    """``count`` tools with pairwise different schemas (root ``description`` varied), so a cache
    keyed by the schema cannot hit. Bare property maps (no ``type``/``properties``) are left out,
    since a ``description`` key would read as a property there."""
    base = [t for t in tools if "type" in t.schema or "properties" in t.schema]
    out = []
    for i in range(count):
        tool = base[i % len(base)]
        schema = dict(tool.schema)
        schema["description"] = f"{schema.get('description', tool.description)[:200]} #{i}"
        out.append(Tool(tool.file, tool.source, f"{tool.name}_{i}", tool.description, schema))
    return out


def map_bfcl_types(node: Any) -> Any:
    """A BFCL schema with its non-JSON-Schema type names read as JSON Schema's (`dict` ->
    `object`, `float` -> `number`, ...; `any` dropped)."""
    if isinstance(node, list):
        return [map_bfcl_types(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str) and value in _BFCL_TYPES:
            if _BFCL_TYPES[value] is not None:
                out[key] = _BFCL_TYPES[value]
        else:
            out[key] = map_bfcl_types(value)
    return out


def _oracle(schema: dict[str, Any]) -> tuple[Any, bool] | str:
    """A jsonschema validator for ``schema`` (BFCL types mapped if need be), or why not."""
    import jsonschema

    for candidate, mapped in ((schema, False), (map_bfcl_types(schema), True)):
        cls = jsonschema.validators.validator_for(
            candidate, default=jsonschema.Draft202012Validator
        )
        try:
            cls.check_schema(candidate)
        except jsonschema.SchemaError as exc:
            reason = f"not valid JSON Schema: {exc.message[:80]}"
            continue
        return cls(candidate, format_checker=cls.FORMAT_CHECKER), mapped
    return reason


def _examples(schema: dict[str, Any], count: int, seed: int) -> list[Any]:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from hypothesis_jsonschema import from_schema

    out: list[Any] = []

    @hseed(seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(from_schema(schema))
    def collect(value: Any) -> None:
        out.append(value)

    collect()
    return out


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _paths(value: Any, path: tuple[Any, ...] = (), depth: int = 0) -> Iterator[tuple[Any, ...]]:
    yield path
    if depth >= 6:
        return
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key), depth + 1)
    elif isinstance(value, list):
        for index, child in enumerate(value[:3]):
            yield from _paths(child, (*path, index), depth + 1)


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for token in path:
        value = value[token]
    return value


def _replaced(instance: Any, path: tuple[Any, ...], new: Any) -> Any:
    out = copy.deepcopy(instance)
    if not path:
        return new
    _get(out, path[:-1])[path[-1]] = new
    return out


def _other_types(value: Any) -> list[Any]:
    """Values of another JSON type, including the ones a lax validator would coerce."""
    if isinstance(value, bool):
        return ["true", 1]
    if isinstance(value, int | float):
        return [str(value), [value], True]
    if isinstance(value, str):
        return [12345, [value], {"value": value}]
    if isinstance(value, list):
        return [{"0": value[0]} if value else {}, "[]"]
    if isinstance(value, dict):
        return [[value], json.dumps(value)]
    return ["null", 0]


def _out_of_range(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [value + 10**9, value - 10**9, value + 0.5]
    if isinstance(value, str):
        return [value + "\u2063zz-not-allowed", "", "x" * 5000]
    if isinstance(value, list):
        return [[], value * 50 if value else [None], value + value[:1]]
    return []


def _mutations(instance: dict[str, Any]) -> dict[str, list[Callable[[], Any]]]:
    """Mutations of ``instance`` by operation, as thunks (materialized only when tried)."""
    ops: dict[str, list[Callable[[], Any]]] = {"drop": [], "add": [], "retype": [], "range": []}

    def dropped(path: tuple[Any, ...], key: str) -> Any:
        out = copy.deepcopy(instance)
        del _get(out, path)[key]
        return out

    for path in _paths(instance):
        target = _get(instance, path)
        if isinstance(target, dict):
            ops["drop"].extend(functools.partial(dropped, path, key) for key in target)
            extended = {**target, "zz_unknown_property": "x"}
            ops["add"].append(functools.partial(_replaced, instance, path, extended))
        if path:
            ops["retype"].extend(
                functools.partial(_replaced, instance, path, new) for new in _other_types(target)
            )
            ops["range"].extend(
                functools.partial(_replaced, instance, path, new) for new in _out_of_range(target)
            )
    return ops


def _classify(validator: Any, instance: Any) -> str | None:
    """The mutation class of the oracle's best error, or None when the instance is valid."""
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(instance))
    if error is None:
        return None
    keyword = str(error.validator)
    if keyword in _KEYWORD_CLASS:
        return _KEYWORD_CLASS[keyword]
    if keyword in {"anyOf", "oneOf", "allOf", "not", "if", "then", "else", "dependentRequired"}:
        return "combinator"
    return "out of bounds"


def generate_calls(tool: Tool, valid: int, invalid: int, seed: int = 0) -> Calls:
    """Up to ``valid`` valid and ``invalid`` invalid calls for ``tool``, deterministic per seed."""
    oracle = _oracle(tool.schema)
    if isinstance(oracle, str):
        return Calls(skipped=oracle)
    validator, mapped = oracle
    schema = map_bfcl_types(tool.schema) if mapped else tool.schema
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            examples = _examples(schema, valid + max(2, valid // 4), seed)
        except Exception as exc:  # the generator's own limits, e.g. recursive $ref
            return Calls(
                skipped=f"hypothesis-jsonschema: {type(exc).__name__}", mapped_types=mapped
            )
    calls = Calls(mapped_types=mapped, oracle=validator)
    seen: set[str] = set()
    for example in examples:
        key = _canon(example)
        if isinstance(example, dict) and key not in seen and validator.is_valid(example):
            seen.add(key)
            calls.valid.append(example)
    calls.valid = calls.valid[:valid]
    if not calls.valid:
        calls.skipped = "the generator produced no instance the oracle accepts"
        return calls
    rng = random.Random(f"{seed}:{tool.name}")
    ops: dict[str, list[Callable[[], Any]]] = {}
    for example in calls.valid[:8]:
        for op, thunks in _mutations(example).items():
            ops.setdefault(op, []).extend(thunks)
    for thunks in ops.values():
        rng.shuffle(thunks)
    # Try a bounded number of mutations, alternating between operations; keep those the oracle
    # rejects, labelled by its failing keyword.
    pool: dict[str, tuple[str, dict[str, Any]]] = {}
    budget = invalid * 6
    while budget > 0 and any(ops.values()):
        for thunks in ops.values():
            if not thunks or budget <= 0:
                continue
            budget -= 1
            mutated = thunks.pop()()
            key = _canon(mutated)
            if key in pool or key in seen:
                continue
            kind = _classify(validator, mutated)
            if kind is not None:
                pool[key] = (kind, mutated)
    by_kind: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for item in pool.values():
        by_kind.setdefault(item[0], []).append(item)
    # Round-robin over classes so a schema's many type mutations do not crowd out the rest.
    for items in by_kind.values():
        rng.shuffle(items)
    while len(calls.invalid) < invalid and any(by_kind.values()):
        for items in by_kind.values():
            if items and len(calls.invalid) < invalid:
                calls.invalid.append(items.pop())
    return calls
