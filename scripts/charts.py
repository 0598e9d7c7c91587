"""The benchmarks' charts, drawn from the JSON their runs wrote.

    python scripts/charts.py                 # every chart whose JSON is there (make charts)
    python scripts/charts.py --out DIR       # into DIR instead of docs/assets/charts/
    python scripts/charts.py call listing    # only these charts

Each chart reads one file of `benchmarks/results/` (written by a benchmark's `--json`; the
commands are in docs/benchmarks.md) and writes an SVG into `docs/assets/charts/`, which
docs/benchmarks.md shows. A chart whose JSON is absent is skipped with a note: the docs build
(strict) fails only where a page shows a chart that was never drawn. Every chart says the run's
date, machine and load, and whether it was a quick run. The SVGs keep their text as text and
carry no date of their own, so drawing them again from the same JSON changes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
OUT = ROOT / "docs" / "assets" / "charts"

# Colours: the floors grey, ours blue, the peers orange (and a second peer purple).
FLOOR, OURS, PEER, PEER2 = "#9e9e9e", "#1f6feb", "#e8710a", "#8250df"


class ChartDataError(Exception):
    """A benchmark JSON that lacks what its chart draws (names the file and the key)."""


@dataclass(frozen=True)
class Chart:
    """One chart: its SVG, the JSON it is drawn from, the command that writes that JSON."""

    name: str
    source: str
    command: str
    draw: Callable[[Any, Mapping[str, Any]], None]


# ------------------------------------------------------------------------------ the run's facts


def stamp(doc: Mapping[str, Any], load: str | None = None) -> str:
    """One line: the run's date, machine, load and kind (quick, smoke, full); `load` says the
    load in the chart's own words when its JSON has a better figure than before/after."""
    machine = doc.get("machine") if isinstance(doc.get("machine"), Mapping) else {}
    date = machine.get("date_utc") or doc.get("when") or "date not recorded"
    cores = machine.get("cpu_count")
    cpu = machine.get("cpu")
    where = ", ".join(
        part
        for part in (f"{cores} cores" if cores else None, _short_cpu(cpu) if cpu else None)
        if part
    )
    python = machine.get("python") or doc.get("python")
    before = doc.get("load_avg_before") or doc.get("load_before")
    after = doc.get("load_avg_after") or doc.get("load_after") or machine.get("load_avg")
    if load is not None:
        pass
    elif before and after:
        load = f"load average {before[0]:.1f} before, {after[0]:.1f} after"
    elif after:
        load = f"load average {after[0]:.1f}"
    else:
        load = "load not recorded"
    mode = doc.get("mode")
    kind = f"{mode} run" if mode else "full run"
    parts = [str(date), where or "machine not recorded", f"Python {python}" if python else "", load]
    return " · ".join(part for part in parts if part) + f" · {kind}"


def _short_cpu(cpu: str) -> str:
    for noise in ("(R)", "(TM)", " CPU", " Processor", " 64-Core", " 32-Core", " 16-Core"):
        cpu = cpu.replace(noise, "")
    return cpu.split(" @ ")[0].strip()


def need(doc: Mapping[str, Any], *path: str) -> Any:
    """`doc[path[0]][path[1]]...`, or a `ChartDataError` naming the missing key."""
    value: Any = doc
    for index, key in enumerate(path):
        if not isinstance(value, Mapping) or key not in value:
            raise ChartDataError(f"no {'.'.join(path[: index + 1])!r}")
        value = value[key]
    return value


# ---------------------------------------------------------------------------------- drawing


def _figure(
    plt: Any,
    rows: int,
    *,
    title: str,
    subtitle: str,
    doc: Mapping[str, Any],
    height: float,
    **facts: str,
) -> Any:
    """A figure of `rows` panels: the title and what it shows above, the run's facts below."""
    fig, axes = plt.subplots(rows, 1, figsize=(9, height), squeeze=False)
    lines = textwrap.wrap(subtitle, 135)
    fig.text(0.01, 0.985, title, fontsize=13, fontweight="bold", ha="left", va="top")
    fig.text(
        0.01,
        0.985 - 0.34 / height,
        "\n".join(lines),
        fontsize=8.5,
        color="#444444",
        ha="left",
        va="top",
        linespacing=1.4,
    )
    fig.text(0.01, 0.01, stamp(doc, **facts), fontsize=8, color="#555555", ha="left", va="bottom")
    fig.set_label(str(len(lines)))  # read by _layout
    return fig, [row[0] for row in axes]


def _layout(fig: Any) -> None:
    """The panels laid out below the title's lines and above the run's facts."""
    height = fig.get_size_inches()[1]
    header = 0.5 + 0.17 * int(fig.get_label() or 1)
    fig.tight_layout(rect=(0, 0.3 / height, 1, 1 - header / height))


Bar = tuple[str, float, str, str]
"""One bar: its label, its value, its colour, the note written after it."""


def _bars(ax: Any, rows: Sequence[Bar], unit: str, *, log: bool = False) -> None:
    """Horizontal bars, the first row on top."""
    values = [row[1] for row in rows]
    positions = list(range(len(rows)))[::-1]
    ax.barh(positions, values, color=[row[2] for row in rows], height=0.62, zorder=2)
    for position, (_label, value, _colour, note) in zip(positions, rows, strict=True):
        ax.text(value, position, f"  {note}", va="center", ha="left", fontsize=8.5)
    ax.set_yticks(positions, [row[0] for row in rows], fontsize=9)
    if log:
        ax.set_xscale("log")
    ax.set_xlim(right=max(values) * (25 if log else 1.6))
    ax.set_xlabel(unit, fontsize=9)
    ax.grid(axis="x", color="#e6e6e6", zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    ax.tick_params(axis="x", labelsize=8)


def _legend(fig: Any, entries: Sequence[tuple[str, str]]) -> None:
    from matplotlib.patches import Patch

    fig.legend(
        handles=[Patch(color=colour, label=label) for label, colour in entries],
        loc="upper right",
        fontsize=8,
        frameon=False,
        ncol=len(entries),
        bbox_to_anchor=(0.995, 1.0),
    )


# ------------------------------------------------------------------------------- the charts


def draw_call(plt: Any, doc: Mapping[str, Any]) -> None:
    """One tool call through each layer, beside the floors and composio-langchain."""
    stats = need(doc, "stats")

    def row(key: str, label: str, colour: str) -> Bar | None:
        if key not in stats:
            return None
        median = need(doc, "stats", key, "median_us")
        p90 = need(doc, "stats", key, "p90_us")
        note = f"{median:,.0f} µs"
        against = stats[key].get("vs_floor")
        if against:
            note += f" · {against['median']:.2f}× {FLOOR_NAMES[against['floor']]}"
        return (label, median, colour, note + f"  (p90 {p90:,.0f})")

    height = 6.6
    fig, axes = _figure(
        plt,
        2,
        title="One tool call: how close to the floor",
        subtitle="NOTES_KV_GET on the emulator (its own process, loopback), median µs per call; "
        "× = the median of the per-round ratios to the floor named",
        doc=doc,
        height=height,
    )
    for ax, prefix, title in ((axes[0], "", "sync: invoke"), (axes[1], "a", "async: ainvoke")):
        rows = [
            row(f"{prefix}raw", "raw httpx POST (floor)", FLOOR),
            row(f"{prefix}client", "ToolRouterClient.execute", OURS),
            row(f"{prefix}bare", "bare StructuredTool (floor)", FLOOR),
            row(f"{prefix}tool", "our session tool", OURS),
            row(f"{prefix}composio", "composio-langchain tool", PEER),
        ]
        _bars(ax, [r for r in rows if r is not None], "µs per call (lower is better)")
        ax.set_title(title, loc="left", fontsize=10)
    _legend(fig, [("floor", FLOOR), ("ours", OURS), ("composio-langchain", PEER)])
    _layout(fig)


FLOOR_NAMES = {"raw": "raw httpx", "araw": "raw httpx", "bare": "bare tool", "abare": "bare tool"}


def draw_load(plt: Any, doc: Mapping[str, Any]) -> None:
    """1,000 distinct tools made ready for a model, by ours and by the peers (CPU time, as the
    targets are judged: it holds on a busy machine, where wall time waits for the cores)."""
    side = need(doc, "speed", "side_by_side")
    lanes = need(doc, "speed", "side_by_side", "lanes")
    ratios = side.get("ratios") or {}
    count = side.get("tools", 1000)
    # lane: (label, colour, its per-round ratio with ours, whether that ratio is ours / theirs)
    names = {
        "ours.load": ("ours: ToolRouterTool.from_schema", OURS, None, False),
        "ours.bind": ("ours + convert_to_openai_tool", OURS, None, False),
        "composio.convert": ("composio-langchain's conversion", PEER, "load_vs_composio", False),
        "composio.bind": (
            "composio-langchain + convert_to_openai_tool",
            PEER,
            "bind_vs_composio",
            False,
        ),
        "mcp.convert": ("langchain-mcp-adapters (checks nothing)", PEER2, "load_vs_mcp", True),
        "mcp.bind": ("langchain-mcp-adapters + convert_to_openai_tool", PEER2, "bind_vs_mcp", True),
    }
    rows: list[Bar] = []
    for key, (label, colour, pair, inverse) in names.items():
        if key not in lanes:
            continue
        cpu = float(
            lanes[key].get(
                "cpu_median_ms", need(doc, "speed", "side_by_side", "lanes", key, "median_ms")
            )
        )
        note = f"{cpu:,.0f} ms"
        against = ratios.get(pair, {}).get("cpu", {}).get("median") if pair else None
        if against:
            relative = 1 / against if inverse else against
            note += f" · {relative:.2g}× ours" if relative < 10 else f" · {relative:,.0f}× ours"
        rows.append((label, cpu, colour, note))
    loads = side.get("load_avg_1m") or []
    load = f"load average {min(loads):.1f}-{max(loads):.1f} over the rounds" if loads else None
    height = 4.4
    fig, axes = _figure(
        plt,
        1,
        title=f"{count:,} tools loaded: against the peers",
        subtitle=f"{count:,} distinct real tool schemas made into LangChain tools, each library in "
        "a worker process of its own, interleaved rounds; median CPU ms; × = the median per-round "
        "ratio to ours (a conversion to our load, a bind to our bind)",
        doc=doc,
        height=height,
        load=load,
    )
    _bars(axes[0], rows, "CPU ms for all of them (log scale; lower is better)", log=True)
    _legend(fig, [("ours", OURS), ("composio-langchain", PEER), ("langchain-mcp-adapters", PEER2)])
    _layout(fig)


def draw_listing(plt: Any, doc: Mapping[str, Any]) -> None:
    """A 5,000-tool session listed: raw floors, our client, LangChain tools."""
    results = need(doc, "results")
    order = [
        ("raw httpx, unparsed", "raw httpx, bytes only", FLOOR, False),
        ("raw httpx walk", "raw httpx + .json() (the parse floor)", FLOOR, False),
        ("client.iter_tools", "ToolRouterClient.iter_tools (typed)", OURS, True),
        ("session.get_tools()", "session.get_tools() (LangChain tools)", OURS, True),
    ]
    rows = []
    for key, label, colour, versus in order:
        median = float(need(doc, "results", key, "median_s")) * 1000
        p90 = float(need(doc, "results", key, "p90_s")) * 1000
        note = f"{median:,.0f} ms" + (
            f" · {results[key]['ratio']:.2f}× the floor" if versus else ""
        )
        rows.append((label, median, colour, note + f"  (p90 {p90:,.0f})"))
    height = 3.9
    fig, axes = _figure(
        plt,
        1,
        title=f"Listing {doc.get('listed', 0):,} tools: against the parse floor",
        subtitle=f"every page of GET .../tools ({doc.get('pages', '?')} pages) from the emulator in its "
        f"own process, {doc.get('rounds', '?')} interleaved rounds; median ms",
        doc=doc,
        height=height,
    )
    _bars(axes[0], rows, "ms for the whole listing (lower is better)")
    _legend(fig, [("floor", FLOOR), ("ours", OURS)])
    _layout(fig)


def draw_search(plt: Any, doc: Mapping[str, Any]) -> None:
    """Search recall on BFCL's held-out (live) requests: the library's search beside a plain
    BM25 ranked in the same run (`bench_search.py`)."""
    bfcl = need(doc, "bfcl")
    subset = "class live"
    who = [
        ("floor", "plain BM25 (the floor)", FLOOR),
        ("lexical", "ours, BM25F without embeddings", PEER2),
        ("ours", "ours", OURS),
    ]
    metrics = ("R@1", "R@5", "R@8", "MRR")
    queries = need(doc, "bfcl", "ours", subset).get("queries")
    counted = f"{queries:,} " if isinstance(queries, int) else ""
    height = 4.0
    fig, axes = _figure(
        plt,
        1,
        title="Tool search: against plain BM25",
        subtitle=f"BFCL v4's {counted}live (held-out) requests over "
        f"{bfcl.get('functions', 0):,} tools in {bfcl.get('toolkits', '?')} toolkits, searched "
        "through the library; the wanted function (name and parameters) among the first 1, 5, 8 "
        "answers, and MRR; %",
        doc=doc,
        height=height,
    )
    ax = axes[0]
    present = [(key, label, colour) for key, label, colour in who if key in bfcl]
    width = 0.8 / max(len(present), 1)
    for index, (key, label, colour) in enumerate(present):
        values = [float(need(doc, "bfcl", key, subset, metric)) for metric in metrics]
        xs = [m + index * width for m in range(len(metrics))]
        ax.bar(xs, values, width=width * 0.95, color=colour, label=label, zorder=2)
        for x, value in zip(xs, values, strict=True):
            ax.text(x, value + 0.8, f"{value:.1f}", ha="center", va="bottom", fontsize=7.5)
    ax.set_xticks([m + 0.4 - width / 2 for m in range(len(metrics))], metrics)
    ax.set_ylim(0, 105)
    ax.grid(axis="y", color="#e6e6e6", zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    _legend(fig, [(label, colour) for _key, label, colour in present])
    _layout(fig)


def draw_middleware(plt: Any, doc: Mapping[str, Any]) -> None:
    """What the model reads per call with the middleware, beside binding every tool and the
    meta tools (`bench_middleware.py --json`: `details.turns`)."""
    turns = need(doc, "details", "turns")
    everything = float(need(doc, "details", "turns", "bytes_all"))

    def row(key: str, label: str, colour: str, tools: str | None = None) -> Bar:
        value = float(need(doc, "details", "turns", key))
        if tools is not None:
            label += f" ({int(need(doc, 'details', 'turns', tools)):,} tools)"
        share = "" if key == "bytes_all" else f" · {value / everything:.2%} of all"
        return (label, value, colour, f"{value / 1000:,.1f} kB{share}")

    rows = [
        row("bytes_all", "every app tool bound", PEER, "tools_all"),
        row("bytes_meta", "the meta tools only", FLOOR, "tools_meta"),
        row("first_call_bytes", "middleware: a thread's first call", OURS, "first_call_tools"),
        row("mean_call_bytes", "middleware: the mean call of a thread", OURS),
        row("largest_call_bytes", "middleware: its largest call", OURS, "largest_call_tools"),
    ]
    height = 3.9
    fig, axes = _figure(
        plt,
        1,
        title="What the model reads per call",
        subtitle=f"bytes of the tool schemas bound to the model on one call, a catalog of "
        f"{int(turns.get('tools_all', 0)):,} app tools; the middleware's model calls over a thread "
        "of user messages, one search each (log scale)",
        doc=doc,
        height=height,
    )
    _bars(axes[0], rows, "bytes per model call (log scale; lower is better)", log=True)
    _legend(fig, [("binding every tool", PEER), ("meta tools", FLOOR), ("middleware", OURS)])
    _layout(fig)


CHARTS = (
    Chart(
        "call",
        "call.json",
        "bash scripts/bench.sh call --quick --json benchmarks/results/call.json",
        draw_call,
    ),
    Chart(
        "load",
        "schema.json",
        "bash scripts/bench.sh --quick --json benchmarks/results/schema.json",
        draw_load,
    ),
    Chart(
        "listing",
        "listing.json",
        "python benchmarks/bench_listing.py --json benchmarks/results/listing.json",
        draw_listing,
    ),
    Chart(
        "search",
        "search.json",
        "python benchmarks/bench_search.py --json benchmarks/results/search.json",
        draw_search,
    ),
    Chart(
        "middleware",
        "middleware.json",
        "python benchmarks/bench_middleware.py --json benchmarks/results/middleware.json",
        draw_middleware,
    ),
)


# ------------------------------------------------------------------------------------ main


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("scripts/charts.py needs matplotlib: pip install -e '.[docs]'") from None
    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    # Text stays text (small, searchable, no font embedded) and ids do not change between runs.
    plt.rcParams.update(
        {
            "svg.fonttype": "none",
            "svg.hashsalt": "langchain-toolrouter",
            "font.family": "DejaVu Sans",
        }
    )
    return plt


def draw(chart: Chart, results: Path, out: Path) -> str:
    """Draw `chart` from its JSON in `results` into `out`; a line saying what happened."""
    source = results / chart.source
    if not source.is_file():
        return f"skipped {chart.name}.svg: no {source.relative_to(ROOT) if source.is_relative_to(ROOT) else source} (run: {chart.command})"
    doc = json.loads(source.read_text(encoding="utf-8"))
    plt = _pyplot()
    try:
        chart.draw(plt, doc)
    except ChartDataError as exc:
        plt.close("all")
        raise SystemExit(
            f"{source}: {exc}; cannot draw {chart.name}.svg ({chart.draw.__name__})"
        ) from None
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{chart.name}.svg"
    plt.savefig(target, format="svg", metadata={"Date": None}, facecolor="white")
    plt.close("all")
    return f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "charts", nargs="*", help=f"only these ({', '.join(c.name for c in CHARTS)})"
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help="the benchmarks' JSON files")
    parser.add_argument("--out", type=Path, default=OUT, help="where the SVGs go")
    args = parser.parse_args(argv)
    known = {chart.name: chart for chart in CHARTS}
    unknown = [name for name in args.charts if name not in known]
    if unknown:
        parser.error(f"unknown chart {unknown[0]!r}; the charts: {', '.join(known)}")
    for chart in [known[name] for name in args.charts] or list(CHARTS):
        print(draw(chart, args.results, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
