"""Test aids shared by the schema property tests: the corpus, the oracle and mutations.

``jsonschema`` is the oracle (a test-only dependency). Corpus schemas that are not valid JSON
Schema (``type: "dict"``...) are judged through the converter's *effective* schema, which is the
documented standard reading of them; every other schema is judged as published.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the environment
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from hypothesis_jsonschema._from_schema import STRING_FORMATS

from langchain_toolrouter.schema import ArgsValidationError, Conversion, json_schema_to_model
from langchain_toolrouter.schema.formats import FORMAT_CHECKS
from langchain_toolrouter.schema.pointers import join

# tests/unit_tests/schema/<file> -> parents[3] is the repository root; "shared" sits beside it.
CORPUS_DIR = Path(__file__).resolve().parents[3] / ".." / "shared" / "schemas"


@dataclass(frozen=True)
class CorpusSchema:
    """One line of the shared corpus."""

    source_file: str
    name: str
    schema: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.source_file}:{self.name}"


def load_corpus() -> list[CorpusSchema]:
    """Every schema of the shared corpus, or [] when the folder is not next to the checkout."""
    if not CORPUS_DIR.is_dir():
        return []
    out: list[CorpusSchema] = []
    for path in sorted(CORPUS_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.append(CorpusSchema(path.stem, row["name"], row["input_schema"]))
    return out


def published_accepts(schema: dict[str, Any], value: Any) -> bool:
    """jsonschema's verdict on ``value`` under ``schema`` as published (its declared draft,
    2020-12 when none is declared)."""
    return bool(oracle(schema).is_valid(value))


def converter_accepts(schema: dict[str, Any], value: Any, **options: Any) -> bool:
    """Whether a fresh conversion of ``schema`` accepts ``value``; an accepted value must be
    sent exactly as given (checked here)."""
    conversion = json_schema_to_model(copy.deepcopy(schema), name="t", **options)
    return sends_exactly(conversion, copy.deepcopy(value))


def sends_exactly(conversion: Conversion, value: Any) -> bool:
    """Whether ``conversion`` accepts ``value``; an accepted value must be sent exactly as given
    (checked here)."""
    try:
        sent = conversion.validate(value)
    except ArgsValidationError:
        return False
    assert sent == value
    return True


def agree(schema: dict[str, Any], accepted: list[Any], rejected: list[Any]) -> None:
    """jsonschema (the expectation itself is right) and the converter both accept ``accepted``
    and both reject ``rejected``."""
    for value in accepted:
        assert published_accepts(schema, value), value
        assert converter_accepts(schema, value), value
    for value in rejected:
        assert not published_accepts(schema, value), value
        assert not converter_accepts(schema, value), value


def oracle_schema(original: dict[str, Any], conversion: Conversion) -> dict[str, Any]:
    """The schema the oracle judges by: the original if it is standard, else the effective one."""
    standard = not any(
        e.kind != "renamed" and "recursive $ref" not in e.reason for e in conversion.report
    )
    if standard:
        cls = jsonschema.validators.validator_for(original, default=jsonschema.Draft202012Validator)
        try:
            cls.check_schema(original)
        except jsonschema.SchemaError:
            standard = False
    return original if standard else conversion.effective_schema


def oracle(schema: dict[str, Any], *, draft_of: dict[str, Any] | None = None) -> Any:
    """A jsonschema validator for ``schema`` (dialect from ``$schema``, 2020-12 by default).

    It asserts the formats the converter asserts (``FORMAT_CHECKS``), as jsonschema's checker
    for the dialect of ``draft_of`` (default ``schema``) defines them: an effective schema is
    judged with the formats of the draft its source declared.
    """
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    dialect = jsonschema.validators.validator_for(
        schema if draft_of is None else draft_of, default=jsonschema.Draft202012Validator
    )
    checker = jsonschema.FormatChecker(formats=())
    checker.checkers = {
        name: check
        for name, check in dialect.FORMAT_CHECKER.checkers.items()
        if name in FORMAT_CHECKS
    }
    return cls(schema, format_checker=checker)


def _formats(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        fmt = schema.get("format")
        if isinstance(fmt, str):
            yield fmt
        for value in schema.values():
            yield from _formats(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _formats(value)


def instances(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Valid instances of ``schema``; formats hypothesis-jsonschema does not know are free text.

    hypothesis-jsonschema cannot generate for recursive schemas, so references are inlined
    first (``unroll``), with deeper recursion cut to ``false`` (a stricter schema: whatever it
    generates is still valid, and the tests re-check each instance with the oracle anyway).
    """
    if '"$ref"' in json.dumps(schema):
        schema = unroll(schema)
    custom = {f: _format_strings(f) for f in _formats(schema) if f not in STRING_FORMATS}
    return from_schema(schema, custom_formats=custom)


_CHECKER = jsonschema.FormatChecker()


def _format_strings(fmt: str) -> st.SearchStrategy[str]:
    """Strings for a format hypothesis-jsonschema lacks; it checks them with jsonschema's
    format checker, so formats that checker knows get conforming strings."""
    if fmt == "uuid":
        return st.uuids().map(str)
    if fmt in _CHECKER.checkers:
        return st.text(max_size=20).filter(lambda s: _CHECKER.conforms(s, fmt))
    return st.text(max_size=20)


def unroll(root: dict[str, Any], depth: int = 3) -> dict[str, Any]:
    """``root`` with every local ``$ref`` inlined, recursion cut to ``false`` after ``depth``."""

    def walk(node: Any, stack: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(v, stack) for v in node]
        if not isinstance(node, dict):
            return node
        if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#"):
            pointer = node["$ref"][1:]
            if stack.count(pointer) >= depth:
                return False
            target: Any = root
            for token in filter(None, pointer.split("/")):
                token = token.replace("~1", "/").replace("~0", "~")
                target = target[int(token)] if isinstance(target, list) else target[token]
            rest = {k: walk(v, stack) for k, v in node.items() if k != "$ref"}
            inlined = walk(target, (*stack, pointer))
            return {"allOf": [inlined], **rest} if rest else inlined
        return {
            k: walk(v, stack) if k not in ("enum", "const", "default", "examples") else v
            for k, v in node.items()
            if k not in ("$defs", "definitions")
        }

    out = walk(root, ())
    assert isinstance(out, dict)
    return out


_REPLACEMENTS: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**12,
    -(10**12),
    "",
    "5",
    "x" * 300,
    [],
    [1, "a"],
    {},
    {"zz_unknown__": 1},
    1.0,
    "not-in-enum",
]


@st.composite
def mutations(draw: st.DrawFn, instance: Any) -> Any:
    """``instance`` with one random change somewhere in its tree (the oracle decides validity)."""
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*path, key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, (*path, i))

    walk(instance, ())
    path = draw(st.sampled_from(paths))
    mutated = json.loads(json.dumps(instance))
    parent: Any = None
    node = mutated
    for token in path:
        parent, node = node, node[token]
    action = draw(st.sampled_from(["replace", "delete", "add", "grow"]))
    if action == "add" and isinstance(node, dict):
        node[draw(st.sampled_from(["zz_unknown__", "from", "first name", "_x"]))] = draw(
            st.sampled_from(_REPLACEMENTS)
        )
    elif action == "add" and isinstance(node, list):
        node.append(draw(st.sampled_from(_REPLACEMENTS)))
    elif action == "delete" and isinstance(node, dict) and node:
        del node[draw(st.sampled_from(sorted(node)))]
    elif action == "delete" and isinstance(node, list) and node:
        node.pop()
    elif action == "grow" and isinstance(node, str):
        longer = node + draw(st.sampled_from(["x", " ", "-1", "Z" * 50]))
        mutated = _set(mutated, path, longer)
    elif action == "grow" and isinstance(node, (int, float)) and not isinstance(node, bool):
        moved = node + draw(st.sampled_from([1, -1, 0.5, 10**6, -(10**6)]))
        mutated = _set(mutated, path, moved)
    else:
        mutated = _set(mutated, path, draw(st.sampled_from(_REPLACEMENTS)))
    del parent
    return mutated


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = root
    for token in path[:-1]:
        node = node[token]
    node[path[-1]] = value
    return root


def unreported_losses(schema: dict[str, Any], conversion: Conversion) -> list[str]:
    """Pointers of keys the source ``schema`` has that its effective schema lacks at the same
    place with no report entry about them: what the conversion dropped silently.

    An entry counts for a key when it is at the key, inside it, around it (any ancestor but the
    root), or at a sibling (a rewrite that folds one keyword into another, as draft-04's boolean
    ``exclusiveMinimum`` takes ``minimum``, reports the keyword it writes). A bare-map root is
    moved as a whole (one entry at the root says so), and ``$schema`` at the root is always
    dropped (the result is 2020-12): neither is looked at.
    """
    entries = [e.pointer for e in conversion.report.entries]
    if any(not e.pointer and "bare map" in e.reason for e in conversion.report.entries):
        return []
    lost: list[str] = []

    def walk(source: Any, effective: Any, pointer: str) -> None:
        if isinstance(source, dict) and isinstance(effective, dict):
            for key, value in source.items():
                here = join(pointer, key)
                if key in effective:
                    walk(value, effective[key], here)
                elif here != "/$schema":
                    lost.append(here)
        elif (
            isinstance(source, list)
            and isinstance(effective, list)
            and len(source) == len(effective)
        ):
            for index, (a, b) in enumerate(zip(source, effective, strict=True)):
                walk(a, b, join(pointer, index))

    walk(schema, conversion.effective_schema, "")

    def reported(here: str) -> bool:
        parent = here.rsplit("/", 1)[0]
        return any(
            e == here
            or e.startswith(here + "/")
            or (e and here.startswith(e + "/"))
            or e.rsplit("/", 1)[0] == parent
            for e in entries
        )

    return [here for here in lost if not reported(here)]


def convert(item: CorpusSchema) -> Conversion:
    """The conversion of one corpus schema."""
    return json_schema_to_model(item.schema, name=item.name)
