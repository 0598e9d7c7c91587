"""Schema conversion benchmark: langchain-toolrouter against the converters people use today.

Runs every tool schema of the shared corpus (``<repo>/../shared/schemas``, or ``--schemas DIR``,
or $TOOLROUTER_SCHEMAS_DIR) through ours, composio-langchain, json-schema-to-pydantic and
langchain-mcp-adapters in one process and prints, side by side:

- speed: first-build time per tool (caches cleared before every measurement), our cached time,
  1,000 distinct tools loaded by ours and by the others in interleaved lanes (``_lanes.py``;
  ``--baseline DIR`` adds an older checkout in a worker process), and the targets as PASS/FAIL;
- quality: valid calls accepted and sent exactly, invalid calls rejected, and the property
  names, required names and enum values the model-facing schema keeps.

Usage: ``python benchmarks/bench_schema.py [--quick | --smoke] [--json out.json] [--schemas DIR]``
(``bash scripts/bench.sh`` installs the comparison libraries first). docs/benchmarks.md says
exactly what each figure measures.

``--smoke`` is a few-second run of every code path on 6 tools (tests/test_benchmark_smoke.py runs
it in CI so the harness cannot rot unnoticed): its times are not judged against the targets.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from _converters import Converter, Ours, Rejected, available_converters
from _corpus import (
    FORMAT_CLASS,
    SCHEMAS_ENV,
    Calls,
    Tool,
    find_schema_dir,
    generate_calls,
    load_corpus,
    replicate,
)
from _lanes import SideBySide, common_tools, per_round, quantile
from _machine import run_facts
from _quality import FACT_KINDS, difference, facts, has_undeclared_keys

# The speed targets (docs/benchmarks.md says where each comes from).
LOAD_SPEEDUP = 10.0  # loading a tool vs composio-langchain's conversion, per tool
FIRST_CALL_SPEEDUP = 1.0  # first call (validator included) vs composio's conversion alone
CACHED_US = 10.0  # a cached build
# 1,000 distinct tools loaded, as ratios to the same 1,000 tools converted by the others in the
# same run (medians of per-round ratios of each worker's CPU time: wall times move 2x with the
# shared machine's speed, and with other processes taking turns on its two cores). They keep
# "1,000 tools in under 50 ms": the code that met it (commit 61592bc; 42.9 ms, the median of its
# last five quiet runs) measured 85.6x and 1.64x this way, and 50 ms allows 50 / 42.9 = 1.17
# times its time: 73x and 1.91x, rounded to 70x and 1.9x (docs/benchmarks.md, "Ratios instead of an
# absolute time").
THOUSAND_VS_COMPOSIO = 70.0  # composio-langchain's conversion / ours.load: at least
THOUSAND_VS_MCP = 1.9  # ours.load / langchain-mcp-adapters' conversion: at most
# The contenders of the 1,000-tool comparison (converter keys).
SIDE_BY_SIDE = ("ours", "composio", "mcp")


@dataclass(frozen=True)
class Settings:
    """How much work a run does (``--smoke``, ``--quick`` or full)."""

    reps: int
    warmup: int
    cached_batch: int
    valid_calls: int
    invalid_calls: int
    thousand_tools: int = 1000  # the "1,000 distinct tools" section (shrunk by --smoke)


QUICK = Settings(reps=5, warmup=1, cached_batch=200, valid_calls=8, invalid_calls=16)
FULL = Settings(reps=15, warmup=2, cached_batch=500, valid_calls=30, invalid_calls=40)
# Checks that the harness runs, not how fast anything is: the verdicts are "not judged".
SMOKE = Settings(
    reps=1,
    warmup=0,
    cached_batch=20,
    valid_calls=4,
    invalid_calls=6,
    thousand_tools=50,
)
SMOKE_TOOLS = 6
# Used by --smoke when the shared corpus is not there (a fresh clone in CI): a few schemas
# written for the smoke run, not copies of the corpus.
SMOKE_SCHEMAS = Path(__file__).resolve().parent / "smoke_schemas"


_MEASURE_ORDER = [
    "ours.load",
    "ours.bind",
    "ours.convert",
    "ours.first_call",
    "ours.first_invoke",
    "composio.convert",
    "composio.bind",
    "jstp.convert",
    "jstp.bind",
    "mcp.convert",
    "mcp.bind",
]

# -- timing -----------------------------------------------------------------------------------


@contextmanager
def _gc_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _time_ns(fn: Callable[[], Any]) -> int:
    start = time.perf_counter_ns()
    fn()
    return time.perf_counter_ns() - start


def _summary_us(per_tool_ns: dict[str, float]) -> dict[str, float]:
    values = [v / 1000 for v in per_tool_ns.values()]
    return {
        "tools": len(values),
        "median_us": quantile(values, 0.5),
        "p95_us": quantile(values, 0.95),
        "total_ms": sum(values) / 1000,
    }


class Measures:
    """Per (measure, tool): the list of times (ns) over repetitions, and failures."""

    def __init__(self) -> None:
        self.times: dict[str, dict[str, list[int]]] = {}
        self.failures: dict[str, dict[str, str]] = {}

    def run(
        self, measure: str, tool_id: str, clear: Callable[[], None], fn: Callable[[], Any]
    ) -> None:
        if tool_id in self.failures.get(measure, {}):
            return
        clear()
        try:
            elapsed = _time_ns(fn)
        except Exception as exc:  # an anchor failing to build is a result, not a crash
            self.failures.setdefault(measure, {})[tool_id] = f"{type(exc).__name__}: {exc}"[:200]
            self.times.get(measure, {}).pop(tool_id, None)
            return
        self.times.setdefault(measure, {}).setdefault(tool_id, []).append(elapsed)

    def medians(self, measure: str) -> dict[str, float]:
        return {t: statistics.median(v) for t, v in self.times.get(measure, {}).items()}

    def minima(self, measure: str) -> dict[str, float]:
        return {t: float(min(v)) for t, v in self.times.get(measure, {}).items()}


def _tool_id(index: int, tool: Tool) -> str:
    return f"{index:02d} {tool.name}"


def run_speed(
    tools: list[Tool],
    converters: list[Converter],
    calls: dict[str, Calls],
    settings: Settings,
    baseline: Path | None = None,
) -> dict[str, Any]:
    """First builds, cached builds and 1,000 tools (``settings.thousand_tools``), ours alone and
    side by side with the others (and with the ``baseline`` checkout, if given); returns the
    figures (also printed)."""
    ours = converters[0]
    assert isinstance(ours, Ours)
    for conv in converters:
        conv.prepare(tools)
    ids = [_tool_id(i, t) for i, t in enumerate(tools)]
    first_call_args = {tid: (calls[tid].valid[0] if calls[tid].valid else {}) for tid in ids}
    plan: list[tuple[str, Converter, Callable[[Tool, str], Callable[[], Any]]]] = [
        ("ours.load", ours, lambda t, _i: lambda: ours.load(t)),
        ("ours.bind", ours, lambda t, _i: lambda: ours.bind(t)),
        ("ours.convert", ours, lambda t, _i: lambda: ours.convert(t)),
        ("ours.first_call", ours, lambda t, i: lambda: ours.first_call(t, first_call_args[i])),
        (
            "ours.first_invoke",
            ours,
            lambda t, i: lambda: ours.first_invoke(t, first_call_args[i]),
        ),
    ]
    for conv in converters[1:]:
        plan.append((f"{conv.key}.convert", conv, lambda t, _i, c=conv: lambda: c.convert(t)))
        plan.append((f"{conv.key}.bind", conv, lambda t, _i, c=conv: lambda: c.bind(t)))

    # 1,000 distinct tools (no cache hit possible), cache cleared before each repetition.
    thousand = replicate(tools, settings.thousand_tools)
    # The same 1,000 tools with no object shared between them (replicate() shares subtrees
    # between the copies of one schema, as a catalog parsed once would not): shows whether
    # sharing flatters the figure.
    unshared = [
        Tool(t.file, t.source, t.name, t.description, json.loads(json.dumps(t.schema)))
        for t in thousand
    ]
    thousand_ms: dict[str, list[float]] = {"load": [], "bind": [], "convert": [], "unshared": []}

    def thousand_round() -> None:
        # Untimed first: the per-tool loop just ran three libraries through the CPU caches,
        # which would otherwise be charged to whichever measure comes first.
        for what, fn, batch in (
            ("warm-up", ours.load, thousand),
            ("load", ours.load, thousand),
            ("bind", ours.bind, thousand),
            ("convert", ours.convert, thousand),
            ("unshared", ours.load, unshared),
        ):
            ours.clear()
            with _gc_off():
                start = time.perf_counter_ns()
                for tool in batch:
                    try:
                        fn(tool)
                    except Exception:  # noqa: PERF203 - counted by the per-tool failures
                        continue
                if what in thousand_ms:
                    thousand_ms[what].append((time.perf_counter_ns() - start) / 1e6)
        ours.clear()

    # The same 1,000 distinct tools loaded by each contender, from the corpus tools they all
    # build and bind, one round of lanes after each per-tool repetition.
    contenders = [c for c in converters if c.key in SIDE_BY_SIDE]
    sources, left_out = common_tools(tools, contenders)
    head = Path(__file__).resolve().parents[1]
    keys = [c.key for c in contenders]
    side = SideBySide(sources, settings.thousand_tools, keys, head, baseline)
    measures = Measures()
    rng = random.Random(0)
    order = list(range(len(tools)))
    with warnings.catch_warnings(), contextlib.closing(side):
        warnings.simplefilter("ignore")
        for rep in range(settings.warmup + settings.reps):
            rng.shuffle(order)
            target = measures if rep >= settings.warmup else Measures()
            with _gc_off():
                for index in order:
                    tool, tid = tools[index], ids[index]
                    # Whatever runs right after another converter's work pays for cold CPU
                    # caches (~50 us here), so the order of the measures changes every time.
                    rng.shuffle(plan)
                    for measure, conv, make in plan:
                        target.run(measure, tid, conv.clear, make(tool, tid))
            if rep >= settings.warmup:
                # One round per repetition, so the rounds are spread over the whole loop: a
                # shared machine's slow spells last seconds to minutes, and rounds taken back
                # to back (~1 s in all) would all fall in one of them, or all miss them.
                thousand_round()
                side.round()

    # Cached: the repeated json_schema_to_model call (same schema object), and the same schema
    # arriving as an equal copy (as from another session).
    cached_same: dict[str, float] = {}
    cached_copy: dict[str, float] = {}
    batch = settings.cached_batch
    ours.clear()
    with _gc_off():
        for tool, tid in zip(tools, ids, strict=True):
            try:
                ours.cached(tool)
            except Exception:
                continue
            runs = []
            for _ in range(5):
                start = time.perf_counter_ns()
                for _ in range(batch):
                    ours.cached(tool)
                runs.append((time.perf_counter_ns() - start) / batch)
            cached_same[tid] = statistics.median(runs)
            copies = [
                Tool(
                    tool.file,
                    tool.source,
                    tool.name,
                    tool.description,
                    json.loads(json.dumps(tool.schema)),
                )
                for _ in range(min(batch, 200))
            ]
            start = time.perf_counter_ns()
            for copy_tool in copies:
                ours.cached(copy_tool)
            cached_copy[tid] = (time.perf_counter_ns() - start) / len(copies)

    measure_names = [m for m, _c, _f in sorted(plan, key=lambda p: _MEASURE_ORDER.index(p[0]))]
    medians = {m: measures.medians(m) for m in measure_names}
    result: dict[str, Any] = {
        "reps": settings.reps,
        "per_tool": {
            m: {**_summary_us(v), "failures": measures.failures.get(m, {})}
            for m, v in medians.items()
        },
        "cached_same_object": _summary_us(cached_same),
        "cached_equal_copy": _summary_us(cached_copy),
        "thousand_tools_count": len(thousand),
        "thousand_tools_ms": {k: statistics.median(v) for k, v in thousand_ms.items()},
        "thousand_tools_runs_ms": thousand_ms,
        "per_tool_medians_us": {m: {t: v / 1000 for t, v in d.items()} for m, d in medians.items()},
    }
    result["side_by_side"] = _side_by_side(side, sources, left_out)
    result["ratios"] = _ratios(medians)
    # Best-of-N per tool: less sensitive to other processes on a shared machine.
    result["ratios_best_of"] = _ratios({m: measures.minima(m) for m in measure_names})
    return result


def _side_by_side(
    side: SideBySide, sources: list[Tool], left_out: dict[str, str]
) -> dict[str, Any]:
    """The 1,000-tool lanes' times and their per-round ratios."""
    runs, cpu_runs = side.runs, side.cpu_runs
    ratios: dict[str, Any] = {}
    # (key, numerator lane, denominator lane): anchors over ours read as "x faster", ours over
    # langchain-mcp-adapters as "x its time" (it converts nothing, so ours takes longer).
    pairs = [
        ("load_vs_composio", "composio.convert", "ours.load"),
        ("bind_vs_composio", "composio.bind", "ours.bind"),
        ("load_vs_mcp", "ours.load", "mcp.convert"),
        ("bind_vs_mcp", "ours.bind", "mcp.bind"),
        ("load_vs_baseline", "ours.load", "baseline.load"),
        ("bind_vs_baseline", "ours.bind", "baseline.bind"),
        ("baseline_load_vs_composio", "composio.convert", "baseline.load"),
        ("baseline_load_vs_mcp", "baseline.load", "mcp.convert"),
        ("baseline_bind_vs_mcp", "baseline.bind", "mcp.bind"),
    ]
    for key, numerator, denominator in pairs:
        if numerator in runs and denominator in runs:
            ratios[key] = {
                "of": f"{numerator} / {denominator}",
                **per_round(runs[numerator], runs[denominator]),
                "cpu": per_round(cpu_runs[numerator], cpu_runs[denominator]),
            }
    return {
        "tools": side.tools,
        "corpus_tools": len(sources),
        "left_out": left_out,
        "lanes": side.lane_stats(),
        "ratios": ratios,
        "load_avg_1m": side.load_avg,
        "checkouts": side.checkouts,
    }


def _ratio_stats(
    numerator: dict[str, float], denominator: dict[str, float], goal: float
) -> dict[str, Any]:
    common = [t for t in numerator if t in denominator and denominator[t] > 0]
    ratios = {t: numerator[t] / denominator[t] for t in common}
    values = list(ratios.values())
    worst = sorted(ratios.items(), key=lambda kv: kv[1])[:5]
    return {
        "tools": len(values),
        "median": quantile(values, 0.5),
        "p5": quantile(values, 0.05),
        "min": min(values) if values else float("nan"),
        "tools_meeting_goal": sum(v >= goal for v in values),
        "total_ratio": (
            sum(numerator[t] for t in common) / sum(denominator[t] for t in common)
            if common
            else float("nan")
        ),
        "worst": [{"tool": t, "ratio": r} for t, r in worst],
    }


def _ratios(medians: dict[str, dict[str, float]]) -> dict[str, Any]:
    anchor = medians.get("composio.convert")
    if not anchor:
        return {}
    return {
        "load_vs_composio_convert": _ratio_stats(anchor, medians["ours.load"], LOAD_SPEEDUP),
        "bind_vs_composio_convert": _ratio_stats(anchor, medians["ours.bind"], LOAD_SPEEDUP),
        "convert_vs_composio_convert": _ratio_stats(anchor, medians["ours.convert"], LOAD_SPEEDUP),
        "first_call_vs_composio_convert": _ratio_stats(
            anchor, medians["ours.first_call"], FIRST_CALL_SPEEDUP
        ),
        "first_invoke_vs_composio_convert": _ratio_stats(
            anchor, medians["ours.first_invoke"], FIRST_CALL_SPEEDUP
        ),
    }


# -- quality ----------------------------------------------------------------------------------


def run_quality(
    tools: list[Tool], converters: list[Converter], calls: dict[str, Calls]
) -> dict[str, Any]:
    """Send every generated call through every converter; score the model-facing schemas."""
    out: dict[str, Any] = {}
    tool_facts = {_tool_id(i, t): facts(t.schema) for i, t in enumerate(tools)}
    for conv in converters:
        conv.clear()
        score: dict[str, Any] = {
            "built": 0,
            "build_failures": {},
            "valid": Counter(),
            "inexact": Counter(),
            "invalid": Counter(),
            "invalid_by_class": {},
            "facts": {k: Counter() for k in FACT_KINDS},
            "problems": {},
        }
        for index, tool in enumerate(tools):
            tid = _tool_id(index, tool)
            tool_calls = calls[tid]
            wanted = tool_facts[tid]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    handle = conv.bind(tool)
                    shown = facts(conv.model_facing(handle))
                except Exception as exc:
                    score["build_failures"][tid] = f"{type(exc).__name__}: {exc}"[:200]
                    handle = None
                    shown = set()
                else:
                    score["built"] += 1
                for kind, _path, _value in wanted:
                    score["facts"][kind]["total"] += 1
                for kind, _path, _value in wanted & shown:
                    score["facts"][kind]["kept"] += 1
                lost = sorted(wanted - shown)
                if lost and handle is not None:
                    score["problems"].setdefault(tid, []).append(
                        f"model-facing schema lost {len(lost)} fact(s), e.g. {lost[0]}"
                    )
                _score_calls(conv, handle, tool_calls, score, tid, wanted)
        out[conv.key] = _finish(score)
    return out


def _score_calls(
    conv: Converter,
    handle: Any,
    calls: Calls,
    score: dict[str, Any],
    tid: str,
    schema_facts: set[tuple[str, tuple[str, ...], str]],
) -> None:
    problems = score["problems"]
    for call in calls.valid:
        group = "undeclared" if has_undeclared_keys(call, schema_facts) else "declared"
        score["valid"]["total"] += 1
        score["valid"][f"{group}_total"] += 1
        if handle is None:
            continue
        try:
            sent = conv.send(handle, json.loads(json.dumps(call)))
        except Rejected as exc:
            problems.setdefault(tid, []).append(f"rejected a valid call: {str(exc)[:160]}")
            continue
        score["valid"]["accepted"] += 1
        score["valid"][f"{group}_accepted"] += 1
        why = difference(sent, call)
        if why is None:
            score["valid"]["exact"] += 1
        else:
            score["inexact"][why] += 1
            problems.setdefault(tid, []).append(f"valid call not sent exactly ({why})")
    for kind, call in calls.invalid:
        by_class = score["invalid_by_class"].setdefault(kind, Counter())
        # Breaking only a format is scored apart: asserting format is optional in JSON Schema.
        total = score["invalid"] if kind != FORMAT_CLASS else Counter()
        if handle is None:
            continue  # a tool that cannot be built gets no call (its valid calls count as lost)
        total["total"] += 1
        by_class["total"] += 1
        try:
            sent = conv.send(handle, json.loads(json.dumps(call)))
        except Rejected as exc:
            total["rejected"] += 1
            by_class["rejected"] += 1
            if exc.crash:
                total["crashed"] += 1
            continue
        total["sent"] += 1
        if calls.oracle is not None and _is_valid(calls.oracle, sent):
            total["repaired"] += 1
        if kind != FORMAT_CLASS:
            problems.setdefault(tid, []).append(f"sent an invalid call ({kind})")


def _is_valid(oracle: Any, payload: Any) -> bool:
    try:
        return bool(oracle.is_valid(json.loads(json.dumps(payload, default=str))))
    except (TypeError, ValueError):
        return False


def _share(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else float("nan")


def _finish(score: dict[str, Any]) -> dict[str, Any]:
    valid, invalid = score["valid"], score["invalid"]
    return {
        "built": score["built"],
        "build_failures": score["build_failures"],
        "valid_calls": valid["total"],
        "accepted_pct": _share(valid["accepted"], valid["total"]),
        "accepted_declared_keys_pct": _share(valid["declared_accepted"], valid["declared_total"]),
        "accepted_undeclared_keys_pct": _share(
            valid["undeclared_accepted"], valid["undeclared_total"]
        ),
        "valid_calls_with_undeclared_keys": valid["undeclared_total"],
        "exact_pct": _share(valid["exact"], valid["total"]),
        "inexact_reasons": dict(score["inexact"]),
        "invalid_calls": invalid["total"],
        "rejected_pct": _share(invalid["rejected"], invalid["total"]),
        "sent_invalid": invalid["sent"],
        "repaired": invalid["repaired"],
        "crashed": invalid["crashed"],
        "rejected_by_class_pct": {
            k: _share(c["rejected"], c["total"])
            for k, c in sorted(score["invalid_by_class"].items())
        },
        "facts_kept_pct": {k: _share(c["kept"], c["total"]) for k, c in score["facts"].items()},
        "facts_total": {k: c["total"] for k, c in score["facts"].items()},
        "problems": {t: sorted(set(p))[:4] for t, p in score["problems"].items()},
    }


# Property names the issue (item 3) says must keep their exact name on the wire and in the
# model-facing schema: non-identifiers, keywords, BaseModel attributes, LangChain run arguments.
STRESS_NAMES = [
    *("config", "callbacks", "run_manager", "tool_call_id", "args", "kwargs", "self"),
    *("validate", "schema", "json", "dict", "copy", "fields", "model_config", "model_dump"),
    *("from", "global", "class", "first name", "User-Agent", "a.b", "why?", "_private"),
    *("$vectorSearch", "naïve", "name", "description", "type", "id"),
]


def _stress_tools() -> list[Tool]:
    names = {"type": "object", "properties": {n: {"type": "string"} for n in STRESS_NAMES}}
    names["required"] = ["config", "from", "first name"]
    ref = {"type": "object", "properties": {"$ref": {"type": "string"}, "q": {"type": "string"}}}
    return [
        Tool("synthetic", "bench_schema.py", "name_stress", "Every awkward property name.", names),
        Tool("synthetic", "bench_schema.py", "dollar_ref_property", "A property named $ref.", ref),
    ]


def run_name_stress(converters: list[Converter]) -> dict[str, dict[str, str]]:
    """Per synthetic tool and converter: built? names lost? a call with every name sent exactly?"""
    out: dict[str, dict[str, str]] = {}
    for tool in _stress_tools():
        call = {name: f"value of {name}" for name in tool.schema["properties"]}
        row = out.setdefault(tool.name, {})
        for conv in converters:
            conv.clear()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    handle = conv.bind(tool)
                    shown = facts(conv.model_facing(handle))
                except Exception as exc:
                    row[conv.key] = f"build/bind failed ({type(exc).__name__}: {str(exc)[:50]})"
                    continue
                lost = sorted(v for k, _p, v in facts(tool.schema) - shown if k == "name")
                try:
                    why = difference(conv.send(handle, dict(call)), call)
                except Rejected:
                    why = "rejected"
            verdict = "exact" if why is None else why
            row[conv.key] = f"{len(lost)} names lost; call {verdict}"
            if lost:
                row[conv.key] += f" (lost: {', '.join(lost[:4])}{'...' if len(lost) > 4 else ''})"
    return out


# -- report -----------------------------------------------------------------------------------


def _machine() -> dict[str, Any]:
    import pydantic

    versions = {"pydantic": pydantic.VERSION}
    for dist in (
        "langchain-core",
        "composio",
        "composio-langchain",
        "json-schema-to-pydantic",
        "langchain-mcp-adapters",
        "mcp",
        "hypothesis",
        "hypothesis-jsonschema",
        "jsonschema",
    ):
        try:
            versions[dist] = version(dist)
        except PackageNotFoundError:  # noqa: PERF203
            versions[dist] = "not installed"
    facts = run_facts()
    return {
        **facts,
        "implementation": platform.python_implementation(),
        "load_avg_1m": facts["load_avg"][0] if facts["load_avg"] else None,
        "versions": versions,
    }


def _fmt_us(value: float) -> str:
    if value != value:  # nan
        return "-"
    return f"{value / 1000:.2f} ms" if value >= 1000 else f"{value:.1f} us"


def _verdict(ok: bool | None) -> str:
    """PASS/FAIL; None is a target a smoke run does not judge (too few repetitions)."""
    if ok is None:
        return "not judged (smoke run)"
    return "PASS" if ok else "FAIL"


# The 1,000-tool targets: (ratio key, goal, text); load_vs_composio is "at least", load_vs_mcp
# "at most".
_THOUSAND_TARGETS = (
    (
        "load_vs_composio",
        THOUSAND_VS_COMPOSIO,
        "{count:,} tools loaded >= {goal:g}x faster than by composio-langchain's conversion",
    ),
    (
        "load_vs_mcp",
        THOUSAND_VS_MCP,
        "{count:,} tools loaded in <= {goal:g}x the time of langchain-mcp-adapters' conversion",
    ),
)
_ANCHOR = {"load_vs_composio": "composio-langchain", "load_vs_mcp": "langchain-mcp-adapters"}
_THOUSAND_INFO = (
    ("bind_vs_composio", "with convert_to_openai_tool, composio-langchain's time over ours"),
    ("bind_vs_mcp", "with convert_to_openai_tool, ours over langchain-mcp-adapters' time"),
    ("load_vs_baseline", "this checkout's load over the baseline checkout's"),
    ("bind_vs_baseline", "this checkout's bind over the baseline checkout's"),
    ("baseline_load_vs_composio", "baseline: composio-langchain's time over its load"),
    ("baseline_load_vs_mcp", "baseline: its load over langchain-mcp-adapters' time"),
    ("baseline_bind_vs_mcp", "baseline: its bind over langchain-mcp-adapters' time"),
)


def _per_round_text(r: dict[str, Any]) -> str:
    """The per-round ratio by CPU time (what is judged) and by wall time: medians, p10, p90."""
    cpu = r["cpu"]
    digits = 1 if cpu["median"] >= 10 else 2
    return (
        f"CPU time: median {cpu['median']:.{digits}f}x of {r['rounds']} rounds (p10 "
        f"{cpu['p10']:.{digits}f}x, p90 {cpu['p90']:.{digits}f}x); wall time: median "
        f"{r['median']:.{digits}f}x (p10 {r['p10']:.{digits}f}x, p90 {r['p90']:.{digits}f}x)"
    )


def _load_range(values: list[float]) -> str:
    return f"{min(values):.1f}-{max(values):.1f}" if values else "n/a"


def _print_side_by_side(sbs: dict[str, Any]) -> None:
    print(
        f"\n== {sbs['tools']:,} distinct tools side by side ({sbs['corpus_tools']} corpus tools "
        f"every contender builds and binds, replicated; one worker process per contender, lanes "
        f"interleaved, one round after each repetition; 1-minute load average "
        f"{_load_range(sbs['load_avg_1m'])} over the rounds)"
    )
    print(f"   {'lane':24s} {'median':>10s} {'p90':>10s} {'fastest':>10s} {'CPU median':>11s}")
    for lane, row in sbs["lanes"].items():
        print(
            f"   {lane:24s} {row['median_ms']:8.1f}ms {row['p90_ms']:8.1f}ms "
            f"{row['fastest_ms']:8.1f}ms {row['cpu_median_ms']:9.1f}ms"
        )
    for tag, checkout in sbs["checkouts"].items():
        print(f"   {tag}: {checkout['commit']} ({checkout['package']})")
    if sbs["left_out"]:
        print(
            "   left out (a contender cannot build or bind them): "
            + ", ".join(f"{name} ({why})" for name, why in sbs["left_out"].items())
        )


def print_report(
    machine: dict[str, Any],
    converters: list[Converter],
    missing: dict[str, str],
    speed: dict[str, Any],
    quality: dict[str, Any],
    corpus: dict[str, Any],
    *,
    judge: bool = True,
) -> dict[str, bool | None]:
    """Print everything; return the verdict per target (None for each when not ``judge``)."""
    print(
        f"\n== machine: {machine['date_utc']}, Python {machine['python']}, "
        f"{machine['cpu_count']} CPUs, load {machine['load_avg_1m']}"
    )
    print("   " + ", ".join(f"{k} {v}" for k, v in machine["versions"].items()))
    print(f"== corpus: {corpus['tools']} tools from {corpus['dir']}")
    for label, why in missing.items():
        print(f"!! {label} not benchmarked: {why}")
    print("\n== what each converter measure times")
    for conv in converters:
        print(f"   {conv.key}.convert = {conv.convert_what}")
        if isinstance(conv, Ours):
            print(f"   {conv.key}.load    = {conv.load_what}")
        print(f"   {conv.key}.bind    = {conv.bind_what}")
    print("   ours.first_call = ours.load + .model + one .validate(valid call), from a cold cache")
    print("   ours.first_invoke = ours.load + one tool.invoke(valid call), from a cold cache")

    print("\n== first build per tool (caches cleared before each; median over repetitions)")
    print(f"   {'measure':24s} {'median':>10s} {'p95':>10s} {'corpus':>10s}  failures")
    for measure, row in speed["per_tool"].items():
        print(
            f"   {measure:24s} {_fmt_us(row['median_us']):>10s} {_fmt_us(row['p95_us']):>10s} "
            f"{row['total_ms']:8.1f}ms  {len(row['failures'])}"
        )
    for label, key in (("same object", "cached_same_object"), ("equal copy", "cached_equal_copy")):
        row = speed[key]
        print(
            f"   {'ours.cached (' + label + ')':24s} {_fmt_us(row['median_us']):>10s} "
            f"{_fmt_us(row['p95_us']):>10s}"
        )
    thousand = speed["thousand_tools_ms"]
    count = speed["thousand_tools_count"]
    print(
        f"   {count:,} distinct tools: load {thousand['load']:.1f} ms, bind {thousand['bind']:.1f} ms, "
        f"convert {thousand['convert']:.1f} ms; load with no object shared between tools "
        f"{thousand['unshared']:.1f} ms (whole corpus, ours alone; medians)"
    )
    _print_side_by_side(speed["side_by_side"])

    verdicts: dict[str, bool | None] = {}

    def judged(ok: bool) -> bool | None:
        return ok if judge else None

    print("\n== targets")
    ratios = speed["ratios"]
    if ratios:
        for key, goal, text in (
            (
                "load_vs_composio_convert",
                LOAD_SPEEDUP,
                "loading a tool >= 10x faster than composio-langchain's conversion",
            ),
            (
                "first_call_vs_composio_convert",
                FIRST_CALL_SPEEDUP,
                "first call (validator incl.) no slower than composio's conversion",
            ),
        ):
            r = ratios[key]
            best = speed["ratios_best_of"][key]
            # Conservative: other load on the machine slows the anchors' medians more than ours,
            # so the target must hold on both the medians and the best-of-N times.
            ok = judged(min(r["median"], best["median"]) >= goal)
            verdicts[key] = ok
            print(
                f"   {_verdict(ok)} {text}: median per-tool ratio {r['median']:.1f}x "
                f"(p5 {r['p5']:.1f}x, corpus total {r['total_ratio']:.1f}x, "
                f"{r['tools_meeting_goal']}/{r['tools']} tools >= {goal:g}x)"
            )
            print(
                f"        best-of-{speed['reps']} times instead of medians: median {best['median']:.1f}x, "
                f"p5 {best['p5']:.1f}x, {best['tools_meeting_goal']}/{best['tools']} tools"
            )
        for key, text in (
            ("bind_vs_composio_convert", "ours.bind (load + convert_to_openai_tool)"),
            ("convert_vs_composio_convert", "ours.convert (json_schema_to_model + llm_schema)"),
            ("first_invoke_vs_composio_convert", "ours.first_invoke (load + tool.invoke)"),
        ):
            r, best = ratios[key], speed["ratios_best_of"][key]
            print(
                f"   info: composio.convert / {text}: median {r['median']:.1f}x, "
                f"p5 {r['p5']:.1f}x; best-of: median {best['median']:.1f}x, p5 {best['p5']:.1f}x"
            )
    else:
        print("   ---- load and first-call ratios need composio-langchain (run scripts/bench.sh)")
    cached = speed["cached_same_object"]["p95_us"]
    verdicts["cached"] = judged(cached < CACHED_US)
    print(
        f"   {_verdict(verdicts['cached'])} cached build < {CACHED_US:g} us: p95 over tools "
        f"{cached:.2f} us (equal copy from another session: p95 "
        f"{speed['cached_equal_copy']['p95_us']:.1f} us)"
    )
    sbs = speed["side_by_side"]
    for key, goal, text in _THOUSAND_TARGETS:
        r = sbs["ratios"].get(key)
        if r is None:
            print(f"   ---- {text.format(count=sbs['tools'], goal=goal)}: needs {_ANCHOR[key]}")
            continue
        cpu = r["cpu"]["median"]
        ok = judged(cpu >= goal if key == "load_vs_composio" else cpu <= goal)
        verdicts[f"thousand_{key}"] = ok
        print(
            f"   {_verdict(ok)} {text.format(count=sbs['tools'], goal=goal)}: {_per_round_text(r)}"
        )
    for key, text in _THOUSAND_INFO:
        if key in sbs["ratios"]:
            print(
                f"   info: {text} ({sbs['ratios'][key]['of']}): {_per_round_text(sbs['ratios'][key])}"
            )

    print(
        f"\n== quality ({corpus['with_calls']} tools with generated calls; "
        f"{corpus['skipped']} skipped by the oracle/generator; "
        f"{corpus['mapped']} with BFCL type names mapped for the oracle)"
    )
    header = f"   {'':34s}" + "".join(f"{c.label:>26s}" for c in converters)
    print(header)

    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> None:
        print(f"   {label:34s}" + "".join(f"{cell(quality[c.key]):>26s}" for c in converters))

    row("schemas built", lambda q: f"{q['built']}/{corpus['tools']}")
    row("valid calls accepted", lambda q: f"{q['accepted_pct']:.1f}% of {q['valid_calls']}")
    row("  calls naming only declared keys", lambda q: f"{q['accepted_declared_keys_pct']:.1f}%")
    row(
        "  calls with other keys (open obj.)",
        lambda q: (
            f"{q['accepted_undeclared_keys_pct']:.1f}% of {q['valid_calls_with_undeclared_keys']}"
        ),
    )
    row("valid calls sent exactly", lambda q: f"{q['exact_pct']:.1f}%")
    row(
        "invalid calls rejected (excl. format)",
        lambda q: f"{q['rejected_pct']:.1f}% of {q['invalid_calls']}",
    )
    row("  of which crashed (not clean)", lambda q: str(q["crashed"]))
    row("invalid calls sent", lambda q: str(q["sent_invalid"]))
    row("  of which 'repaired' to valid", lambda q: str(q["repaired"]))
    classes = sorted({k for c in converters for k in quality[c.key]["rejected_by_class_pct"]})
    for kind in classes:
        row(
            f"  rejected: {kind}",
            lambda q, k=kind: f"{q['rejected_by_class_pct'].get(k, float('nan')):.1f}%",
        )
    for kind in FACT_KINDS:
        row(f"model-facing {kind}s kept", lambda q, k=kind: f"{q['facts_kept_pct'][k]:.1f}%")
    for conv in converters:
        q = quality[conv.key]
        if q["inexact_reasons"]:
            print(
                f"   {conv.label}: not exact because "
                + ", ".join(
                    f"{k} x{v}"
                    for k, v in sorted(q["inexact_reasons"].items(), key=lambda kv: -kv[1])
                )
            )
        for tid, why in q["build_failures"].items():
            print(f"   {conv.label}: build failed for {tid}: {why[:120]}")
    ours = quality[converters[0].key]
    if ours["problems"]:
        print("\n== langchain-toolrouter: tools with a quality problem (first examples)")
        for tid, items in ours["problems"].items():
            for item in items[:2]:
                print(f"   {tid}: {item[:160]}")
    return verdicts


def markdown_tables(doc: dict[str, Any]) -> str:
    """The figures as the Markdown tables docs/benchmarks.md shows."""
    machine, speed, quality = doc["machine"], doc["speed"], doc["quality"]
    keys = list(quality)
    labels = doc["labels"]
    lines = [
        f"Run of {machine['date_utc']} ({doc['mode']}, {doc['seconds']:.0f} s): Python "
        f"{machine['python']}, {machine['cpu_count']} CPUs ({machine['platform']}), load average "
        f"{machine['load_avg_1m']:.1f} at the start; "
        + ", ".join(f"{k} {v}" for k, v in machine["versions"].items())
        + ".",
        "",
        "| first build per tool | median | p95 | whole corpus | failures |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for measure, row in speed["per_tool"].items():
        lines.append(
            f"| `{measure}` | {_fmt_us(row['median_us'])} | {_fmt_us(row['p95_us'])} | "
            f"{row['total_ms']:.1f} ms | {len(row['failures'])} |"
        )
    for label, key in (("same object", "cached_same_object"), ("equal copy", "cached_equal_copy")):
        row = speed[key]
        lines.append(
            f"| `ours.cached` ({label}) | {_fmt_us(row['median_us'])} | "
            f"{_fmt_us(row['p95_us'])} | | |"
        )
    thousand = speed["thousand_tools_ms"]
    count = speed["thousand_tools_count"]
    lines += [
        "",
        f"{count:,} distinct tools: loaded in {thousand['load']:.1f} ms, loaded and bound "
        f"(+ convert_to_openai_tool) in {thousand['bind']:.1f} ms, converted (json_schema_to_model"
        f" + llm_schema) in {thousand['convert']:.1f} ms; loaded with no object shared between "
        f"tools (each schema a separate JSON parse) in {thousand['unshared']:.1f} ms (medians).",
        "",
        "| target | measured | verdict |",
        "| --- | --- | --- |",
    ]
    ratios = speed["ratios"]
    targets = doc["targets"]
    if ratios:
        r = ratios["load_vs_composio_convert"]
        lines.append(
            f"| loading a tool >= 10x faster than composio-langchain's conversion | median "
            f"{r['median']:.1f}x per tool (p5 {r['p5']:.1f}x; {r['tools_meeting_goal']}/{r['tools']} "
            f"tools >= 10x) | {_verdict(targets['load_vs_composio_convert'])} |"
        )
        best = speed["ratios_best_of"]["load_vs_composio_convert"]
        lines.append(
            f"| ... the same from best-of-{speed['reps']} times | median {best['median']:.1f}x "
            f"(p5 {best['p5']:.1f}x; {best['tools_meeting_goal']}/{best['tools']} tools >= 10x) | |"
        )
        r = ratios["bind_vs_composio_convert"]
        lines.append(
            f"| ... the same with LangChain's convert_to_openai_tool (`ours.bind`) | median "
            f"{r['median']:.1f}x (p5 {r['p5']:.1f}x; {r['tools_meeting_goal']}/{r['tools']} tools "
            ">= 10x) | info |"
        )
        r = ratios["first_call_vs_composio_convert"]
        lines.append(
            f"| first call (validator incl.) no slower than composio's conversion | median "
            f"{r['median']:.1f}x per tool (p5 {r['p5']:.1f}x; {r['tools_meeting_goal']}/{r['tools']} "
            f"tools >= 1x) | {_verdict(targets['first_call_vs_composio_convert'])} |"
        )
        r = ratios["first_invoke_vs_composio_convert"]
        lines.append(
            f"| ... the first call as an agent makes it (`ours.first_invoke`: load + `tool.invoke`) | "
            f"median {r['median']:.1f}x (p5 {r['p5']:.1f}x) | info |"
        )
    lines.append(
        f"| cached build < 10 us | p95 {speed['cached_same_object']['p95_us']:.2f} us "
        f"(equal copy: p95 {speed['cached_equal_copy']['p95_us']:.1f} us) | "
        f"{_verdict(targets['cached'])} |"
    )
    sbs = speed["side_by_side"]
    for key, goal, text in _THOUSAND_TARGETS:
        r = sbs["ratios"].get(key)
        measured = _per_round_text(r) if r else f"needs {_ANCHOR[key]}"
        verdict = _verdict(targets[f"thousand_{key}"]) if r else "-"
        lines.append(f"| {text.format(count=sbs['tools'], goal=goal)} | {measured} | {verdict} |")
    for key, text in _THOUSAND_INFO:
        if key in sbs["ratios"]:
            r = sbs["ratios"][key]
            lines.append(f"| ... {text} (`{r['of']}`) | {_per_round_text(r)} | info |")
    lines += [
        "",
        f"{sbs['tools']:,} distinct tools side by side ({sbs['corpus_tools']} corpus tools every "
        "contender builds and binds, replicated; one worker process per contender, lanes "
        "interleaved; 1-minute load average "
        f"{_load_range(sbs['load_avg_1m'])} over the rounds):",
        "",
        "| lane | median | p90 | fastest | CPU time, median |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for lane, row in sbs["lanes"].items():
        lines.append(
            f"| `{lane}` | {row['median_ms']:.1f} ms | {row['p90_ms']:.1f} ms | "
            f"{row['fastest_ms']:.1f} ms | {row['cpu_median_ms']:.1f} ms |"
        )
    if sbs["checkouts"]:
        lines += [
            "",
            "Checkouts: "
            + ", ".join(f"`{tag}.*` {c['commit']}" for tag, c in sbs["checkouts"].items())
            + ".",
        ]
    corpus = doc["corpus"]
    lines += [
        "",
        f"Quality: {corpus['valid_calls']} valid and {corpus['invalid_calls']} invalid calls "
        f"generated for {corpus['with_calls']} tools ({corpus['skipped']} skipped by the "
        f"generator; BFCL type names mapped for the oracle on {corpus['mapped']}).",
        "",
        "| | " + " | ".join(labels[k] for k in keys) + " |",
        "| --- |" + " ---: |" * len(keys),
    ]

    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(quality[k]) for k in keys) + " |")

    row("schemas built", lambda q: f"{q['built']}/{corpus['tools']}")
    row("valid calls accepted", lambda q: f"{q['accepted_pct']:.1f}%")
    row("... naming only declared keys", lambda q: f"{q['accepted_declared_keys_pct']:.1f}%")
    row(
        "... with other keys (open objects, maps)",
        lambda q: f"{q['accepted_undeclared_keys_pct']:.1f}%",
    )
    row("valid calls sent exactly", lambda q: f"{q['exact_pct']:.1f}%")
    row("invalid calls rejected (format aside)", lambda q: f"{q['rejected_pct']:.1f}%")
    row(
        "invalid calls sent (of which repaired)", lambda q: f"{q['sent_invalid']} ({q['repaired']})"
    )
    row(
        "format-only violations rejected",
        lambda q: f"{q['rejected_by_class_pct'].get(FORMAT_CLASS, float('nan')):.1f}%",
    )
    for kind in FACT_KINDS:
        row(f"model-facing {kind}s kept", lambda q, k=kind: f"{q['facts_kept_pct'][k]:.1f}%")
    stress = doc.get("name_stress", {})
    for tool_name, cells in stress.items():
        lines.append(f"| synthetic `{tool_name}` | " + " | ".join(cells[k] for k in keys) + " |")
    return "\n".join(lines) + "\n"


def profile_ours(ours: Converter, tools: list[Tool]) -> None:
    """Print where loading 1,000 distinct tools spends its time (cold cache, cProfile)."""
    import cProfile
    import pstats

    thousand = replicate(tools, 1000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for tool in thousand[:64]:
            ours.load(tool)  # warm-up: imports and first-use setup
        ours.clear()
        profiler = cProfile.Profile()
        profiler.enable()
        for tool in thousand:
            ours.load(tool)
        profiler.disable()
    ours.clear()
    stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
    stats.sort_stats("cumulative").print_stats(30)
    stats.sort_stats("tottime").print_stats(20)


def _smoke_schema_dir(arg: str | None) -> Path:
    """The corpus a smoke run uses: as for a normal run, else (no corpus found and none asked
    for) the few schemas in ``smoke_schemas/``, so the smoke run works on a fresh clone."""
    try:
        return find_schema_dir(arg)
    except SystemExit as exc:
        if arg or os.environ.get(SCHEMAS_ENV):
            raise
        print(f"!! {exc}; the smoke run uses {SMOKE_SCHEMAS} instead")
        return SMOKE_SCHEMAS


def _smoke_pick(tools: list[Tool]) -> list[Tool]:
    """SMOKE_TOOLS tools spread evenly over the corpus (file then line order): deterministic,
    and from different sources."""
    if len(tools) <= SMOKE_TOOLS:
        return tools
    return [tools[i * len(tools) // SMOKE_TOOLS] for i in range(SMOKE_TOOLS)]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 0 whatever the verdicts (it measures, it does not gate)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="fewer repetitions and calls (~2 min)")
    size.add_argument(
        "--smoke",
        action="store_true",
        help=f"a few seconds: {SMOKE_TOOLS} tools, 1 repetition, every code path; "
        "the speed targets are not judged",
    )
    parser.add_argument("--json", metavar="PATH", help="also write every figure to this JSON file")
    parser.add_argument("--schemas", metavar="DIR", help="the corpus folder (*.jsonl)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="only profile ours: cProfile of loading 1,000 distinct tools from a cold cache",
    )
    parser.add_argument(
        "--markdown", metavar="PATH", help="also write the result tables for docs/benchmarks.md"
    )
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        type=Path,
        help="another checkout of langchain-toolrouter (e.g. an older commit's worktree): its "
        "1,000-tool load and bind run in a worker process beside this checkout's, in the same "
        "rounds",
    )
    args = parser.parse_args(argv)
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    settings = {"smoke": SMOKE, "quick": QUICK, "full": FULL}[mode]
    started = time.perf_counter()

    if args.smoke:
        schema_dir = _smoke_schema_dir(args.schemas)
        tools = _smoke_pick(load_corpus(schema_dir))
    else:
        schema_dir = find_schema_dir(args.schemas)
        tools = load_corpus(schema_dir)
    converters, missing = available_converters()
    if args.profile:
        profile_ours(converters[0], tools)
        return 0
    machine = _machine()

    print(
        f"generating calls ({settings.valid_calls} valid, up to {settings.invalid_calls} invalid per tool)...",
        flush=True,
    )
    try:
        import hypothesis_jsonschema  # noqa: F401
        import jsonschema  # noqa: F401
    except ImportError as exc:
        # Timings still run (first calls use {}); the quality figures then cover no call.
        print(f"!! no generated calls: {exc} (pip install -e '.[test]' or run scripts/bench.sh)")
        calls = {_tool_id(i, t): Calls(skipped=str(exc)) for i, t in enumerate(tools)}
    else:
        calls = {
            _tool_id(i, t): generate_calls(t, settings.valid_calls, settings.invalid_calls)
            for i, t in enumerate(tools)
        }
    print(f"  done in {time.perf_counter() - started:.0f}s; timing...", flush=True)
    if args.baseline is not None and not (args.baseline / "langchain_toolrouter").is_dir():
        parser.error(f"--baseline {args.baseline}: no langchain_toolrouter package in it")
    speed = run_speed(tools, converters, calls, settings, args.baseline)
    print(f"  done in {time.perf_counter() - started:.0f}s; quality...", flush=True)
    quality = run_quality(tools, converters, calls)
    stress = run_name_stress(converters)
    corpus = {
        "dir": str(schema_dir),
        "tools": len(tools),
        "with_calls": sum(1 for c in calls.values() if c.valid),
        "skipped": sum(1 for c in calls.values() if not c.valid),
        "skipped_why": {t: c.skipped for t, c in calls.items() if c.skipped},
        "mapped": sum(1 for c in calls.values() if c.mapped_types and c.valid),
        "valid_calls": sum(len(c.valid) for c in calls.values()),
        "invalid_calls": sum(len(c.invalid) for c in calls.values()),
    }
    verdicts = print_report(
        machine, converters, missing, speed, quality, corpus, judge=not args.smoke
    )
    print(
        f"\n== name stress (synthetic; {len(STRESS_NAMES)} awkward property names, see STRESS_NAMES)"
    )
    for tool_name, row in stress.items():
        for conv in converters:
            print(f"   {tool_name:20s} {conv.label:26s} {row[conv.key]}")
    elapsed = time.perf_counter() - started
    print(f"\n(run took {elapsed:.0f}s, {mode})")
    document = {
        "machine": machine,
        "mode": mode,
        "settings": settings.__dict__,
        "seconds": elapsed,
        "corpus": corpus,
        "missing": missing,
        "labels": {c.key: c.label for c in converters},
        "speed": speed,
        "quality": quality,
        "name_stress": stress,
        "targets": verdicts,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(document, indent=2, default=str), encoding="utf-8")
        print(f"wrote {args.json}")
    if args.markdown:
        Path(args.markdown).write_text(markdown_tables(document), encoding="utf-8")
        print(f"wrote {args.markdown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
