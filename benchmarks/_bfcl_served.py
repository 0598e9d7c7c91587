"""BFCL v4 as an emulator catalog, with its labelled requests.

The Berkeley Function Calling Leaderboard (the `bfcl-eval` package: `pip install --no-deps
bfcl-eval`) gives requests, the function documents offered with each, and the calls each
request should make (`possible_answer/`). Served here: every distinct function document is one
tool (its BFCL types made JSON Schema: `dict` is `object`, `float` is `number`, ...), all in one
toolkit `bfcl` (BFCL's functions belong to no app), or with `by_category` in one toolkit per
category (`bfcl01`, ...: neutral names, since the emulator's search reads toolkit names as app
names a request may mention). Each request is labelled with the tools of the functions its
answer calls.
"""

from __future__ import annotations

import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CATEGORIES", "BfclSet", "bfcl_data_dir", "load_bfcl"]

#: The categories whose requests have calls to expect (irrelevance, multi-turn, memory and
#: web search ones are left out: no single right tool).
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

_TYPES = {
    "dict": "object",
    "hashmap": "object",
    "float": "number",
    "double": "number",
    "long": "integer",
    "tuple": "array",
    "arraylist": "array",
    "char": "string",
}


@dataclass(frozen=True)
class Request:
    """One labelled request: its text and the slugs of the tools it must call."""

    id: str
    category: str
    text: str
    wanted: tuple[str, ...]
    wanted_names: tuple[str, ...]  # the BFCL function names (tools of the same name count too)


@dataclass
class BfclSet:
    """The catalog's tools (slug -> toolkit, function name, description, input schema) and the
    labelled requests."""

    tools: dict[str, tuple[str, str, str, dict[str, Any]]]
    requests: list[Request]
    categories: list[str]  # those found in the data folder

    @property
    def toolkits(self) -> list[str]:
        return sorted({toolkit for toolkit, _, _, _ in self.tools.values()})


def bfcl_data_dir() -> Path | None:
    """The `bfcl-eval` package's data folder, or None when it is not installed."""
    spec = importlib.util.find_spec("bfcl_eval")  # found, not imported: only its data is read
    if spec is None or spec.origin is None:
        return None
    found = Path(spec.origin).parent / "data"
    return found if found.is_dir() else None


def _json_schema(node: Any) -> Any:
    """A BFCL parameter schema as JSON Schema."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _json_schema(value) for key, value in node.items() if key != "type"}
    kind = node.get("type")
    if isinstance(kind, str) and kind and kind.lower() != "any":
        out["type"] = _TYPES.get(kind.lower(), kind.lower())
    if isinstance(node.get("properties"), dict):
        out["properties"] = {k: _json_schema(v) for k, v in node["properties"].items()}
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_") or "FUNCTION"


def _user_text(question: Any) -> str:
    turn = question[0] if question and isinstance(question[0], list) else question
    return "\n".join(m["content"] for m in turn if m.get("role") == "user")


def load_bfcl(
    data: Path,
    categories: tuple[str, ...] = CATEGORIES,
    limit: int = 0,
    *,
    by_category: bool = False,
) -> BfclSet:
    """The tools and labelled requests of `categories` (at most `limit` requests from each,
    spread over the category, when `limit` > 0); a category whose files the data folder does
    not have is left out (`BfclSet.categories` says which were read)."""
    tools: dict[str, tuple[str, str, str, dict[str, Any]]] = {}
    slug_of: dict[str, str] = {}  # the function document's JSON -> its slug
    requests: list[Request] = []
    found = []
    for number, category in enumerate(categories, start=1):
        toolkit = f"bfcl{number:02d}" if by_category else "bfcl"
        if not (data / f"BFCL_v4_{category}.json").is_file():
            continue
        found.append(category)
        answers = {}
        with (data / "possible_answer" / f"BFCL_v4_{category}.json").open() as lines:
            for line in lines:
                if line.strip():
                    row = json.loads(line)
                    answers[row["id"]] = row["ground_truth"]
        with (data / f"BFCL_v4_{category}.json").open() as lines:
            rows = [json.loads(line) for line in lines if line.strip()]
        if limit:
            rows = rows[:: max(1, len(rows) // limit)][:limit]
        for row in rows:
            slugs_here: dict[str, str] = {}
            for function in row["function"]:
                key = json.dumps(function, sort_keys=True)
                if key not in slug_of:
                    slug, n = _slug(function["name"]), 1
                    while slug in tools:
                        n += 1
                        slug = f"{_slug(function['name'])}_{n}"
                    schema = _json_schema(function.get("parameters") or {})
                    schema = {"type": "object", "properties": {}, **schema}
                    schema["type"] = "object"
                    description = function.get("description") or function["name"]
                    tools[slug] = (toolkit, function["name"], description, schema)
                    slug_of[key] = slug
                slugs_here[function["name"]] = slug_of[key]
            names = tuple(dict.fromkeys(name for call in answers[row["id"]] for name in call))
            requests.append(
                Request(
                    id=row["id"],
                    category=category,
                    text=_user_text(row["question"]),
                    wanted=tuple(slugs_here[name] for name in names),
                    wanted_names=names,
                )
            )
    return BfclSet(tools, requests, found)


def bfcl_catalog(data: Path, limit: int = 0, *, by_category: bool = False) -> Any:
    """The emulator `Catalog` of BFCL's functions (no auth; every tool echoes its call)."""
    from langchain_toolrouter.emulator.catalog import Catalog, CatalogTool, Toolkit

    def run(ctx: Any, args: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "arguments": args}

    served = load_bfcl(data, limit=limit, by_category=by_category)
    by_toolkit: dict[str, list[CatalogTool]] = {}
    for slug, (toolkit, name, description, schema) in served.tools.items():
        by_toolkit.setdefault(toolkit, []).append(
            CatalogTool(
                slug=slug,
                name=name,
                description=description,
                toolkit=toolkit,
                run=run,
                input_schema=schema,
            )
        )
    return Catalog(
        [
            Toolkit(
                slug=toolkit,
                name=toolkit.upper(),
                description="BFCL v4 functions"
                + (f" ({CATEGORIES[int(toolkit[4:]) - 1]})." if by_category else "."),
                no_auth=True,
                upstream=f"https://{toolkit}.emulator.example",
                tools=tuple(tools),
                init_state=lambda user_id: {},
                auth_scheme="NO_AUTH",
            )
            for toolkit, tools in sorted(by_toolkit.items())
        ]
    )
