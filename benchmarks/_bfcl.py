"""BFCL v4 for the benchmarks: its functions as emulator catalog tools, its questions as labelled
requests (read by `bench_search.py` and `bench_middleware.py`).

The data comes from the `bfcl-eval` package (`pip install --no-deps bfcl-eval`: only its data
files are read), or from a folder laid out as its `data/` folder (`BFCL_v4_<category>.json` and
`possible_answer/BFCL_v4_<category>.json`, one JSON object a line), such as the small sample in
`benchmarks/search_sample/` that the smoke run uses when the package is absent.

The ten categories with a ground truth of function calls are read: `simple_python`,
`simple_java`, `simple_javascript`, `multiple`, `parallel`, `parallel_multiple` and their four
`live_*` counterparts (requests from real users; the held-out figure). Each distinct function
definition (name, description and parameters) becomes one tool, in the category where it first
appears (`load`'s `limit` reads a spread of at most that many queries of each category, and only
their functions). A query is the user's message; the tools it should find are the functions its
ground truth calls, looked up in the query's own function list. A *class* is a function name
with its parameter names (a signature): definitions that differ only in their descriptions,
types or defaults are one class.

`serve` makes the functions an emulator `Catalog` (no auth; a tool echoes its call), in the
toolkits `toolkits` cuts: each category cut into runs of at most 100 (30 toolkits, the search
benchmark's), one toolkit per category, or any number of near-equal runs (one: all in one
toolkit). Toolkits are named `bfcl01`, ... (`bfcl` when there is one): neutral names, since the
emulator's search reads toolkit names as app names a request may mention.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator, Sequence
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
    text: str  # the user's message, whole
    functions: tuple[str, ...]  # keys of the functions it should find

    @property
    def live(self) -> bool:
        """A request from a real user (the held-out set)."""
        return self.category.startswith("live_")

    @property
    def use_case(self) -> str:
        """The message as a search query: its first 1,024 characters, all the service takes."""
        return self.text[:QUERY_LIMIT]


@dataclass
class Dataset:
    """The functions (in catalog order) and the queries."""

    functions: list[Function]
    queries: list[Query]
    source: str
    categories: list[str]  # those read (the data folder may have fewer than the ten)

    def by_key(self) -> dict[str, Function]:
        """Functions by their definition."""
        return {f.key: f for f in self.functions}


def data_dir() -> Path | None:
    """The `bfcl-eval` package's data folder, or None when the package is not installed."""
    spec = importlib.util.find_spec("bfcl_eval")  # found, not imported: only its data is read
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "data"
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


def load(directory: Path, limit: int = 0) -> Dataset:
    """The labelled queries of the ten categories (with `limit` > 0, at most that many of each,
    spread over the category) and every distinct function they offer. A category whose
    questions the folder does not have is left out (`Dataset.categories` names those read)."""
    functions: dict[str, Function] = {}
    queries: list[Query] = []
    read: list[str] = []
    for category in CATEGORIES:
        questions = directory / f"BFCL_v4_{category}.json"
        answers_path = directory / "possible_answer" / f"BFCL_v4_{category}.json"
        if not questions.exists():
            continue
        if not answers_path.exists():
            raise FileNotFoundError(
                f"{questions} has no ground truth: add {answers_path} (BFCL's possible_answer/)"
            )
        read.append(category)
        answers = {row["id"]: row["ground_truth"] for row in _lines(answers_path)}
        rows = list(_lines(questions))
        if limit > 0:
            rows = rows[:: max(1, len(rows) // limit)][:limit]
        for row in rows:
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
            queries.append(Query(row["id"], category, text, wanted))
    return Dataset(list(functions.values()), queries, str(directory), read)


def _lower_types(node: Any) -> Any:
    """`node` with each type name lower-cased (`Array` -> `array`), an empty one dropped."""
    if isinstance(node, list):
        return [_lower_types(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: value.lower() if key == "type" and isinstance(value, str) else _lower_types(value)
        for key, value in node.items()
        if not (key == "type" and value == "")
    }


def json_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """BFCL parameters as a JSON Schema object: its type names read as JSON Schema's (`dict` ->
    `object`, `float` -> `number`, `Array` -> `array`, ...; `any` and empty ones dropped), a
    missing type added."""
    schema: dict[str, Any] = _lower_types(map_bfcl_types(parameters))
    schema["type"] = "object"
    if not isinstance(schema.get("properties"), dict):
        schema["properties"] = {}
    return schema


def toolkits(
    functions: list[Function], count: int | None = None, *, size: int | None = TOOLKIT_SIZE
) -> list[list[Function]]:
    """The functions in toolkits: each category cut into runs of at most `size` (100; None: one
    toolkit per category), or, with `count`, the same functions in catalog order cut into
    `count` near-equal runs (1: one toolkit)."""
    if count is None:
        groups: list[list[Function]] = []
        for category in CATEGORIES:
            members = [f for f in functions if f.category == category]
            step = size or max(1, len(members))
            groups += [members[i : i + step] for i in range(0, len(members), step)]
        return groups
    count = max(1, min(count, len(functions)))
    bounds = [round(i * len(functions) / count) for i in range(count + 1)]
    return [functions[bounds[i] : bounds[i + 1]] for i in range(count)]


def slug_part(name: str) -> str:
    """A function name as a tool slug part (`uber.eat.order` -> `UBER_EAT_ORDER`)."""
    return re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_") or "TOOL"


@dataclass
class Served:
    """A catalog of BFCL functions: the emulator `Catalog`, and each tool's function."""

    catalog: Any
    function_of: dict[str, Function]  # slug -> function
    slug_of: dict[str, str]  # function key -> slug

    def slugs(self, query: Query) -> tuple[str, ...]:
        """The tools `query` should find."""
        return tuple(self.slug_of[key] for key in query.functions)


def serve(groups: Sequence[Sequence[Function]], *, prefixed: bool = True) -> Served:
    """The functions of `groups` (`toolkits`) as catalog tools, a toolkit per group: `bfcl01`,
    ... (`bfcl` for one group). A tool's slug is its function's name made a slug, after its
    toolkit's slug when `prefixed` (`BFCL01_GET_WEATHER`), with `_2`, ... when taken."""
    from langchain_toolrouter.emulator.catalog import Catalog, CatalogTool, Toolkit

    def run(ctx: Any, args: dict[str, Any]) -> dict[str, Any]:
        return {"echo": args}

    width = max(2, len(str(len(groups))))
    kits: list[Toolkit] = []
    function_of: dict[str, Function] = {}
    slug_of: dict[str, str] = {}
    for number, members in enumerate(groups, start=1):
        slug = f"bfcl{number:0{width}d}" if len(groups) > 1 else "bfcl"
        tools: list[CatalogTool] = []
        for function in members:
            base = slug_part(function.name)
            base = f"{slug.upper()}_{base}" if prefixed else base
            tool_slug, n = base, 1
            while tool_slug in function_of:
                n += 1
                tool_slug = f"{base}_{n}"
            function_of[tool_slug] = function
            slug_of[function.key] = tool_slug
            tools.append(
                CatalogTool(
                    slug=tool_slug,
                    name=function.name,
                    description=function.description or function.name,
                    toolkit=slug,
                    run=run,
                    input_schema=json_schema(function.parameters),
                )
            )
        categories = ", ".join(dict.fromkeys(f.category for f in members))
        kits.append(
            Toolkit(
                slug=slug,
                name=slug.upper(),
                description=f"BFCL v4 functions ({categories}).",
                no_auth=True,
                upstream=f"https://{slug}.emulator.example",
                tools=tuple(tools),
                init_state=lambda user_id: {},
                auth_scheme="NO_AUTH",
            )
        )
    return Served(Catalog(kits), function_of, slug_of)


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
