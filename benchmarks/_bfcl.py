"""BFCL v4 as a tool-search benchmark: its functions as catalog tools, its questions as queries.

The data comes from the `bfcl-eval` package (`pip install --no-deps bfcl-eval`: only its data
files are read), or from a folder laid out as its `data/` folder (`BFCL_v4_<category>.json` and
`possible_answer/BFCL_v4_<category>.json`, one JSON object a line), such as the small sample in
`benchmarks/search_sample/` that the smoke run uses when the package is absent.

The ten categories with a ground truth of function calls are read: `simple_python`,
`simple_java`, `simple_javascript`, `multiple`, `parallel`, `parallel_multiple` and their four
`live_*` counterparts (requests from real users; the held-out figure). Each distinct function
definition (name, description and parameters) becomes one tool, in the category where it first
appears; the categories are cut into toolkits of at most 100 tools (30 toolkits). A query is the
user's message (cut to the 1,024 characters a search query may have); the tools it should find
are the functions its ground truth calls, looked up in the query's own function list. A *class*
is a function name with its parameter names (a signature): definitions that differ only in their
descriptions, types or defaults are one class.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _corpus import map_bfcl_types

CATEGORIES = (
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "parallel_multiple",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
)
TOOLKIT_SIZE = 100
QUERY_LIMIT = 1024  # the longest `use_case` the service takes


@dataclass(frozen=True)
class Function:
    """One distinct BFCL function definition."""

    key: str  # its definition as canonical JSON
    category: str  # where it first appears
    name: str
    description: str
    parameters: dict[str, Any] = field(compare=False)

    @property
    def klass(self) -> str:
        """Its class: the name and the parameter names (its signature)."""
        properties = self.parameters.get("properties")
        return json.dumps([self.name, sorted(properties if isinstance(properties, dict) else ())])


@dataclass(frozen=True)
class Query:
    """One labelled request."""

    id: str
    category: str
    text: str
    functions: tuple[str, ...]  # keys of the functions it should find

    @property
    def live(self) -> bool:
        """A request from a real user (the held-out set)."""
        return self.category.startswith("live_")


@dataclass
class Dataset:
    """The functions (in catalog order) and the queries."""

    functions: list[Function]
    queries: list[Query]
    source: str

    def by_key(self) -> dict[str, Function]:
        """Functions by their definition."""
        return {f.key: f for f in self.functions}


def data_dir() -> Path | None:
    """The `bfcl-eval` package's data folder, or None when the package is not installed."""
    try:
        import bfcl_eval  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    path = Path(bfcl_eval.__file__).parent / "data"
    return path if path.is_dir() else None


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def _canonical(function: dict[str, Any]) -> str:
    return json.dumps(
        [function["name"], function.get("description", ""), function.get("parameters", {})],
        sort_keys=True,
    )


def load(directory: Path) -> Dataset:
    """Every labelled query of the ten categories and every distinct function they offer."""
    functions: dict[str, Function] = {}
    queries: list[Query] = []
    for category in CATEGORIES:
        questions = directory / f"BFCL_v4_{category}.json"
        answers_path = directory / "possible_answer" / f"BFCL_v4_{category}.json"
        if not questions.exists() or not answers_path.exists():
            continue
        answers = {row["id"]: row["ground_truth"] for row in _lines(answers_path)}
        for row in _lines(questions):
            offered: dict[str, str] = {}
            for raw in row["function"]:
                key = _canonical(raw)
                offered[raw["name"]] = key
                if key not in functions:
                    functions[key] = Function(
                        key,
                        category,
                        raw["name"],
                        raw.get("description", ""),
                        raw.get("parameters") or {},
                    )
            wanted = tuple(
                dict.fromkeys(offered[name] for call in answers[row["id"]] for name in call)
            )
            text = " ".join(
                message["content"]
                for turn in row["question"]
                for message in turn
                if message["role"] == "user"
            )
            queries.append(Query(row["id"], category, text[:QUERY_LIMIT], wanted))
    return Dataset(list(functions.values()), queries, str(directory))


def json_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """BFCL parameters as a JSON Schema object (its type names mapped, a missing type added)."""

    schema: dict[str, Any] = map_bfcl_types(parameters)
    schema["type"] = "object"
    if not isinstance(schema.get("properties"), dict):
        schema["properties"] = {}
    return schema


def toolkits(functions: list[Function], count: int | None = None) -> list[list[Function]]:
    """The functions in toolkits: each category cut into runs of at most 100 (the default), or,
    with `count`, the same functions in catalog order cut into `count` near-equal runs."""
    if count is None:
        groups: list[list[Function]] = []
        for category in CATEGORIES:
            members = [f for f in functions if f.category == category]
            groups += [members[i : i + TOOLKIT_SIZE] for i in range(0, len(members), TOOLKIT_SIZE)]
        return groups
    count = max(1, min(count, len(functions)))
    bounds = [round(i * len(functions) / count) for i in range(count + 1)]
    return [functions[bounds[i] : bounds[i + 1]] for i in range(count)]


def slug_part(name: str) -> str:
    """A function name as a tool slug part (`uber.eat.order` -> `UBER_EAT_ORDER`)."""
    return re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_") or "TOOL"


def write_sample(source: Path, target: Path, per_category: int = 4) -> None:
    """The first `per_category` labelled queries of each category, in the data's own layout."""
    (target / "possible_answer").mkdir(parents=True, exist_ok=True)
    for category in CATEGORIES:
        name = f"BFCL_v4_{category}.json"
        rows = list(_lines(source / name))[:per_category]
        ids = {row["id"] for row in rows}
        answers = [row for row in _lines(source / "possible_answer" / name) if row["id"] in ids]
        for path, kept in ((target / name, rows), (target / "possible_answer" / name, answers)):
            path.write_text(
                "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in kept),
                encoding="utf-8",
            )
