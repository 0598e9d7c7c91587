"""Tool search quality and latency, through the library, beside a plain BM25 in the same run.

BFCL v4 (the `bfcl-eval` package's data, see `_bfcl.py`) is served by the emulator as a catalog:
each distinct function one tool, in 30 toolkits by source category. A session enabling every
toolkit answers each labelled request through the library (`session.search_tools(request)`), and
the tools of its answer, primary then related, are scored against the functions the request
should call:

- R@1, R@5, R@8 (share of the wanted functions among the first k tools) and MRR, for the exact
  function and for its class (same name and parameters), over all requests and over the live
  ones (requests from real users; the ranking was tuned on the others only);
- the same for a plain Okapi BM25 (k1 1.5, b 0.75; lower-cased Unicode words, no stemming, no
  stopwords) over the same tools' text (name, slug, toolkit, description, parameters), ranked in
  this process: the floor;
- p50 and p95 of `search_tools` with the 30 toolkits and with the same tools regrouped into 200
  toolkits (all enabled), and the load average;
- the requests in a non-Latin script, and how many got an empty answer;
- the everyday requests of `search_everyday.jsonl` (what a user asks of GitHub, Gmail, a calendar
  and notes) over the emulator's own catalog: R@3, and each miss.

The emulator runs in this process (`EmulatorServer`, loopback), as the demo and the notebooks
embed it. Targets: live class R@5 at least 5 points above the floor's and live class R@1 above
it; p95 with 200 toolkits at most 20 ms; R@3 of the everyday requests at least 95%; no empty
answer for an everyday request in a non-Latin script (they name the tool or the app).

    pip install --no-deps bfcl-eval
    python benchmarks/bench_search.py                  # ~2-4 min
    python benchmarks/bench_search.py --json out.json
    python benchmarks/bench_search.py --direct         # ranking only, in-process (for tuning)
    python benchmarks/bench_search.py --smoke          # seconds, the sample in search_sample/

Without `bfcl-eval` the full run stops and says how to install it; `--smoke` uses the small
sample committed in `benchmarks/search_sample/` (its own figures, no target judged).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bfcl
from _machine import run_facts

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "search_sample"
EVERYDAY = HERE / "search_everyday.jsonl"
USER = "bench-user"
KS = (1, 5, 8)
WIDE = 200  # toolkits of the latency run
SMOKE_WIDE = 20
GOALS = {"live_r5_points": 5.0, "p95_ms": 20.0, "everyday_r3": 95.0}
NON_LATIN = re.compile(r"[^\x00-\u024f\u1e00-\u1eff\u2000-\u2bff\s]")


# --------------------------------------------------------------------------- the floor


def plain_tokens(text: str) -> list[str]:
    """Lower-cased Unicode words, split at anything else (`_` too)."""
    return re.findall(r"[^\W_]+", text.lower())


class PlainBM25:
    """Okapi BM25 (k1 1.5, b 0.75) over one text per document."""

    def __init__(self, texts: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        docs = [Counter(plain_tokens(t)) for t in texts]
        lengths = [sum(d.values()) for d in docs]
        average = max(sum(lengths) / max(len(docs), 1), 1.0)
        df: Counter[str] = Counter(term for d in docs for term in d)
        n = len(docs)
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, (doc, length) in enumerate(zip(docs, lengths, strict=True)):
            norm = k1 * (1 - b + b * length / average)
            for term, tf in doc.items():
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                self.postings.setdefault(term, []).append((i, idf * tf * (k1 + 1) / (tf + norm)))

    def rank(self, query: str, k: int) -> list[int]:
        scores: dict[int, float] = {}
        for term in plain_tokens(query):
            for i, weight in self.postings.get(term, ()):
                scores[i] = scores.get(i, 0.0) + weight
        return [i for i, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def floor_rankings(served: _bfcl.Served, queries: Sequence[_bfcl.Query]) -> list[list[str]]:
    """The floor's top 8 slugs per query."""
    from langchain_toolrouter.emulator.search import ToolSearch

    documents = ToolSearch().catalog_documents(served.catalog)
    engine = PlainBM25([" ".join(d.fields()) for d in documents])
    return [[documents[i].slug for i in engine.rank(q.use_case, max(KS))] for q in queries]


# --------------------------------------------------------------------------- our search


class Library:
    """An emulator serving `catalog` in this process, and a session of the library enabling
    every toolkit of it."""

    def __init__(self, catalog: Any) -> None:
        from langchain_toolrouter import ToolRouter
        from langchain_toolrouter.emulator import EmulatorServer, create_app

        self.server = EmulatorServer(app=create_app(catalog=catalog)).__enter__()
        self.router = ToolRouter(api_key=self.server.api_key, base_url=self.server.base_url)
        self.session = self.router.create_session(USER, toolkits=sorted(catalog.toolkits))

    def search(self, text: str) -> tuple[list[str], float]:
        """The answer's slugs (primary, then related) and the seconds `search_tools` took."""
        started = time.perf_counter()
        found = self.session.search_tools(text)
        elapsed = time.perf_counter() - started
        assert found.response is not None
        result = found.response.results[0]
        return list(dict.fromkeys(result.primary_tool_slugs + result.related_tool_slugs)), elapsed

    def close(self) -> None:
        self.router.close()
        self.server.__exit__(None, None, None)


def direct_search(
    catalog: Any, *, semantic: bool = True
) -> Callable[[str], tuple[list[str], float]]:
    """The emulator's ranking called in-process, without HTTP or the library (for tuning);
    without `semantic`, its BM25F alone."""
    from langchain_toolrouter.emulator.meta import PRIMARY_LIMIT, RELATED_LIMIT
    from langchain_toolrouter.emulator.search import ToolSearch, match_use_case

    engine = ToolSearch() if semantic else ToolSearch(embed=None)
    index = engine.index([], base=engine.catalog_documents(catalog))
    allowed = set(catalog.tools)
    kits = set(catalog.toolkits)
    names = {slug: kit.name for slug, kit in catalog.toolkits.items()}

    def search(text: str) -> tuple[list[str], float]:
        started = time.perf_counter()
        match = match_use_case(
            index,
            text,
            allowed=allowed,
            toolkits=kits,
            toolkit_names=names,
            primary_limit=PRIMARY_LIMIT,
            related_limit=RELATED_LIMIT,
        )
        elapsed = time.perf_counter() - started
        return [d.slug for d in match.primary + match.related], elapsed

    return search


def run_queries(
    search: Callable[[str], tuple[list[str], float]], texts: Iterable[str]
) -> tuple[list[list[str]], list[float]]:
    rankings, times = [], []
    for text in texts:
        ranking, elapsed = search(text)
        rankings.append(ranking)
        times.append(elapsed)
    return rankings, times


def searched(
    catalog: Any, texts: Sequence[str], *, direct: bool
) -> tuple[list[list[str]], list[float]]:
    """Each text's answer (slugs) and time, through the library (or in-process with
    `direct`), after one warm-up search."""
    library = None if direct else Library(catalog)
    search = direct_search(catalog) if library is None else library.search
    try:
        search("warm up")
        return run_queries(search, texts)
    finally:
        if library is not None:
            library.close()


# --------------------------------------------------------------------------- scoring


def score(
    rankings: Sequence[Sequence[str]],
    wanted: Sequence[Sequence[str]],
    label: Callable[[str], str | None],
) -> dict[str, float]:
    """R@k (share of the wanted labels among the first k answers, averaged) and MRR (over the
    whole answer), in percent."""
    sums = dict.fromkeys([*(f"R@{k}" for k in KS), "MRR"], 0.0)
    for ranking, targets in zip(rankings, wanted, strict=True):
        goal = set(targets)
        labels = [label(slug) for slug in ranking]
        for k in KS:
            sums[f"R@{k}"] += len(goal & set(labels[:k])) / len(goal)
        first = next((i for i, lab in enumerate(labels, start=1) if lab in goal), None)
        sums["MRR"] += 1 / first if first else 0.0
    n = max(len(rankings), 1)
    return {name: round(100 * total / n, 1) for name, total in sums.items()}


def bfcl_scores(
    served: _bfcl.Served, queries: Sequence[_bfcl.Query], rankings: Sequence[Sequence[str]]
) -> dict[str, dict[str, float]]:
    """Exact and class scores over all, live and non-live queries."""
    by_key = {f.key: f for f in served.function_of.values()}

    def exact(slug: str) -> str | None:
        function = served.function_of.get(slug)
        return function.key if function else None

    def klass(slug: str) -> str | None:
        function = served.function_of.get(slug)
        return function.klass if function else None

    out: dict[str, dict[str, float]] = {}
    for subset, keep in (
        ("all", lambda q: True),
        ("live", lambda q: q.live),
        ("non-live", lambda q: not q.live),
    ):
        picked = [(q, r) for q, r in zip(queries, rankings, strict=True) if keep(q)]
        ranks = [r for _, r in picked]
        out[f"exact {subset}"] = score(ranks, [q.functions for q, _ in picked], exact)
        out[f"class {subset}"] = score(
            ranks, [[by_key[k].klass for k in q.functions] for q, _ in picked], klass
        )
        out[f"exact {subset}"]["queries"] = len(picked)
        out[f"class {subset}"]["queries"] = len(picked)
    return out


def percentiles(times: Sequence[float]) -> dict[str, float]:
    ordered = sorted(times)
    if not ordered:
        return {"p50_ms": 0.0, "p95_ms": 0.0, "samples": 0}
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(p95 * 1000, 2),
        "samples": len(ordered),
    }


# --------------------------------------------------------------------------- everyday requests


def load_everyday(path: Path = EVERYDAY) -> list[dict[str, Any]]:
    """The everyday requests: `{"request": ..., "tools": [acceptable slugs]}` per line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def everyday_run(direct: bool) -> dict[str, Any]:
    """R@3 of the everyday requests over the emulator's own catalog, and each miss; and the
    R@3 of the BM25F part alone."""
    from langchain_toolrouter.emulator.catalog import default_catalog

    requests = load_everyday()
    catalog = default_catalog()
    lexical = direct_search(catalog, semantic=False)
    lexical_hits = sum(
        bool(set(lexical(row["request"])[0][:3]) & set(row["tools"])) for row in requests
    )
    library = None if direct else Library(catalog)
    search = direct_search(catalog) if library is None else library.search
    try:
        search("warm up")
        misses, empty_non_latin, non_latin = [], [], 0
        hits = 0
        for row in requests:
            ranking, _ = search(row["request"])
            if set(ranking[:3]) & set(row["tools"]):
                hits += 1
            else:
                misses.append({"request": row["request"], "wanted": row["tools"], "got": ranking})
            if NON_LATIN.search(row["request"]):
                non_latin += 1
                if not ranking:
                    empty_non_latin.append(row["request"])
    finally:
        if library is not None:
            library.close()
    return {
        "requests": len(requests),
        "R@3": round(100 * hits / max(len(requests), 1), 1),
        "R@3 BM25F only": round(100 * lexical_hits / max(len(requests), 1), 1),
        "misses": misses,
        "non_latin": non_latin,
        "non_latin_empty": empty_non_latin,
    }


# --------------------------------------------------------------------------- the run


def bfcl_run(dataset: _bfcl.Dataset, *, direct: bool, wide: int) -> dict[str, Any]:
    """Scores, floor and latency over BFCL (30 toolkits), then latency with `wide` toolkits."""
    served = _bfcl.serve(_bfcl.toolkits(dataset.functions))
    queries = dataset.queries
    texts = [q.use_case for q in queries]
    figures: dict[str, Any] = {
        "functions": len(dataset.functions),
        "classes": len({f.klass for f in dataset.functions}),
        "queries": len(queries),
        "live_queries": sum(q.live for q in queries),
        "toolkits": len(served.catalog.toolkits),
    }
    started = time.perf_counter()
    floor = floor_rankings(served, queries)
    figures["floor_seconds"] = round(time.perf_counter() - started, 2)
    rankings, times = searched(served.catalog, texts, direct=direct)
    figures["ours"] = bfcl_scores(served, queries, rankings)
    figures["floor"] = bfcl_scores(served, queries, floor)
    lexical, _ = run_queries(direct_search(served.catalog, semantic=False), texts)
    figures["lexical"] = bfcl_scores(served, queries, lexical)
    figures["latency"] = percentiles(times)
    non_latin = [
        (q.id, q.use_case)
        for q, r in zip(queries, rankings, strict=True)
        if NON_LATIN.search(q.use_case)
    ]
    empty = [
        q.id
        for q, r in zip(queries, rankings, strict=True)
        if NON_LATIN.search(q.use_case) and not r
    ]
    figures["non_latin"] = {"queries": len(non_latin), "empty": empty}
    regrouped = _bfcl.serve(_bfcl.toolkits(dataset.functions, wide))
    wide_rankings, wide_times = searched(regrouped.catalog, texts, direct=direct)
    figures["wide"] = {
        "toolkits": len(regrouped.catalog.toolkits),
        "latency": percentiles(wide_times),
        "class live": bfcl_scores(regrouped, queries, wide_rankings)["class live"],
    }
    return figures


def targets(figures: dict[str, Any], judged: bool) -> list[dict[str, Any]]:
    """Each goal: the figure, the bar, and PASS/FAIL (None when not judged)."""
    rows: list[tuple[str, float, float]] = []
    bfcl = figures.get("bfcl")
    if bfcl:
        ours, floor = bfcl["ours"]["class live"], bfcl["floor"]["class live"]
        rows.append(("live class R@5 (floor + 5)", ours["R@5"], floor["R@5"] + 5))
        rows.append(("live class R@1 (above floor)", ours["R@1"], floor["R@1"] + 0.1))
        wide = bfcl["wide"]
        rows.append(
            (f"p95 ms, {wide['toolkits']} toolkits (at most)", -wide["latency"]["p95_ms"], -20.0)
        )
    everyday = figures["everyday"]
    rows.append(("everyday R@3 (at least)", everyday["R@3"], GOALS["everyday_r3"]))
    rows.append(("everyday non-Latin empty answers", -len(everyday["non_latin_empty"]), 0.0))
    return [
        {
            "target": name,
            "value": abs(value),
            "bar": abs(bar),
            "verdict": ("PASS" if value >= bar else "FAIL") if judged else None,
        }
        for name, value, bar in rows
    ]


def report(figures: dict[str, Any]) -> str:
    lines = [
        f"{figures['mode']} run, Python {figures['python']}, load average "
        f"{figures['load_before'][0]:.2f} before, {figures['load_after'][0]:.2f} after"
    ]
    bfcl = figures.get("bfcl")
    if bfcl is None:
        lines.append(f"!! BFCL not measured: {figures['bfcl_missing']}")
    else:
        lines += [
            f"BFCL ({figures['bfcl_source']}): {bfcl['queries']} queries ({bfcl['live_queries']}"
            f" live), {bfcl['functions']} functions ({bfcl['classes']} classes), "
            f"{bfcl['toolkits']} toolkits",
            "",
            f"{'':<34}{'R@1':>7}{'R@5':>7}{'R@8':>7}{'MRR':>7}",
        ]
        names = {"floor": "plain BM25", "lexical": "ours, BM25F only", "ours": "ours"}
        for subset in ("class all", "class live", "exact all", "exact live", "class non-live"):
            for who, label in names.items():
                row = bfcl[who][subset]
                name = f"{label}, {subset}"
                lines.append(
                    f"{name:<34}" + "".join(f"{row[m]:>7.1f}" for m in ("R@1", "R@5", "R@8", "MRR"))
                )
        wide = bfcl["wide"]
        lines += [
            "",
            f"search_tools latency, {bfcl['toolkits']} toolkits: p50 "
            f"{bfcl['latency']['p50_ms']} ms, p95 {bfcl['latency']['p95_ms']} ms",
            f"search_tools latency, {wide['toolkits']} toolkits: p50 "
            f"{wide['latency']['p50_ms']} ms, p95 {wide['latency']['p95_ms']} ms "
            f"(live class R@5 {wide['class live']['R@5']})",
            f"non-Latin queries: {bfcl['non_latin']['queries']}, empty answers: "
            f"{len(bfcl['non_latin']['empty'])} {bfcl['non_latin']['empty']}",
        ]
    everyday = figures["everyday"]
    lines += [
        "",
        f"everyday requests: {everyday['requests']}, R@3 {everyday['R@3']}% (BM25F only "
        f"{everyday['R@3 BM25F only']}%); non-Latin "
        f"{everyday['non_latin']}, empty {len(everyday['non_latin_empty'])}",
    ]
    for miss in everyday["misses"]:
        lines.append(f"  miss: {miss['request']!r} wanted {miss['wanted']} got {miss['got'][:3]}")
    lines.append("")
    for row in figures["targets"]:
        verdict = row["verdict"] or "not judged (smoke run)"
        lines.append(f"  {verdict:<4} {row['target']}: {row['value']:.1f} vs {row['bar']:.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="a BFCL data folder (default: bfcl-eval's)")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--smoke", action="store_true", help="the committed sample, not judged")
    parser.add_argument("--direct", action="store_true", help="rank in-process, no library")
    parser.add_argument("--wide", type=int, help=f"toolkits of the latency run ({WIDE})")
    parser.add_argument("--write-sample", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.write_sample:
        source = args.data or _bfcl.data_dir()
        if source is None:
            raise SystemExit("pip install --no-deps bfcl-eval first (or pass --data DIR)")
        _bfcl.write_sample(source, args.write_sample)
        return 0
    figures: dict[str, Any] = {
        "mode": "smoke" if args.smoke else ("direct" if args.direct else "full"),
        "python": platform.python_version(),
        "load_before": os.getloadavg(),
    }
    directory = SAMPLE if args.smoke else (args.data or _bfcl.data_dir())
    if directory is None:
        raise SystemExit(
            "BFCL v4 data not found: pip install --no-deps bfcl-eval (or pass --data DIR; "
            "--smoke uses the sample in benchmarks/search_sample/)"
        )
    dataset = _bfcl.load(directory)
    figures["bfcl_source"] = "sample" if args.smoke else str(directory)
    wide = args.wide or (SMOKE_WIDE if args.smoke else WIDE)
    figures["bfcl"] = bfcl_run(dataset, direct=args.direct, wide=wide)
    figures["everyday"] = everyday_run(args.direct)
    figures["load_after"] = os.getloadavg()
    figures["machine"] = run_facts()
    figures["targets"] = targets(figures, judged=not args.smoke)
    print(report(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
