"""The benchmarks' charts: drawn from the committed JSON, each saying its run, and regenerable.

`scripts/charts.py` turns `benchmarks/results/*.json` into `docs/assets/charts/*.svg`. These
tests draw them into a temporary folder (matplotlib, from the docs extra), and hold the docs to
charts that exist and have the JSON they are drawn from.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "charts.py"
RESULTS = ROOT / "benchmarks" / "results"
CHARTS = ROOT / "docs" / "assets" / "charts"
# chart -> the JSON it is drawn from (scripts/charts.py's CHARTS)
SOURCES = {
    "call": "call.json",
    "load": "schema.json",
    "listing": "listing.json",
    "search": "search.json",
    "middleware": "middleware.json",
}


def charts_script(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def shown_in_docs() -> set[str]:
    """The charts the docs' pages show (`![...](.../charts/NAME.svg)`)."""
    shown = set()
    for page in (ROOT / "docs").rglob("*.md"):
        shown |= set(re.findall(r"assets/charts/([\w-]+)\.svg", page.read_text(encoding="utf-8")))
    return shown


def test_every_chart_the_docs_show_is_committed_with_the_json_it_is_drawn_from() -> None:
    shown = shown_in_docs()
    assert shown, "docs/benchmarks.md shows no chart"
    for name in shown:
        assert name in SOURCES, f"docs show {name}.svg, which scripts/charts.py does not draw"
        assert (CHARTS / f"{name}.svg").is_file(), f"run `make charts`: no {name}.svg"
        assert (RESULTS / SOURCES[name]).is_file(), f"{name}.svg has no {SOURCES[name]}"


def test_each_committed_json_names_its_date_machine_and_load() -> None:
    for source in {SOURCES[name] for name in shown_in_docs()}:
        machine = json.loads((RESULTS / source).read_text(encoding="utf-8"))["machine"]
        assert machine["date_utc"], source
        assert machine["cpu_count"], source
        assert machine["load_avg"], source


def test_the_charts_are_drawn_from_the_committed_json(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    done = charts_script("--out", tmp_path)
    assert done.returncode == 0, done.stderr
    for name in shown_in_docs():
        svg = (tmp_path / f"{name}.svg").read_text(encoding="utf-8")
        machine = json.loads((RESULTS / SOURCES[name]).read_text(encoding="utf-8"))["machine"]
        assert machine["date_utc"] in svg, f"{name}.svg does not say its run's date"
        assert f"{machine['cpu_count']} cores" in svg
        assert "load average" in svg


def test_a_chart_drawn_again_from_the_same_json_is_the_same_file(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    for out in ("first", "second"):
        done = charts_script("listing", "--out", tmp_path / out)
        assert done.returncode == 0, done.stderr
    first, second = (tmp_path / out / "listing.svg" for out in ("first", "second"))
    assert first.read_bytes() == second.read_bytes()


def test_a_missing_json_skips_its_chart_with_the_command_that_writes_it(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    done = charts_script("search", "--results", tmp_path, "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "skipped search.svg" in done.stdout
    assert "bench_search.py --json" in done.stdout
    assert not (tmp_path / "out" / "search.svg").exists()


def test_a_json_without_what_the_chart_draws_is_refused_by_name(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    (tmp_path / "listing.json").write_text('{"results": {}}', encoding="utf-8")
    done = charts_script("listing", "--results", tmp_path, "--out", tmp_path)
    assert done.returncode != 0
    assert "'results.raw httpx, unparsed'" in done.stderr
    assert "listing.svg" in done.stderr


def test_an_unknown_chart_is_refused_with_the_known_ones() -> None:
    done = charts_script("nope")
    assert done.returncode == 2
    assert "call, load, listing, search, middleware" in done.stderr


def test_the_search_and_middleware_charts_draw_from_the_shapes_they_read(tmp_path: Path) -> None:
    """The hooks for `bench_search.py` and `bench_middleware.py`: the keys they read."""
    pytest.importorskip("matplotlib")
    machine = {"date_utc": "2026-11-28 06:00 UTC", "cpu": "AMD EPYC", "cpu_count": 2}
    scores = {"R@1": 40.0, "R@5": 70.0, "R@8": 80.0, "MRR": 50.0}
    search = {
        "mode": "full",
        "machine": {**machine, "load_avg": [1.0, 1.0, 1.0]},
        "load_before": [1.0, 1.0, 1.0],
        "load_after": [2.0, 1.0, 1.0],
        "bfcl": {
            "queries": 100,
            "toolkits": 30,
            **{who: {"class live": scores} for who in ("floor", "lexical", "ours")},
        },
    }
    turns = {
        "bytes_all": 812_000,
        "tools_all": 1_000,
        "bytes_meta": 30_000,
        "tools_meta": 6,
        "first_call_bytes": 9_100,
        "first_call_tools": 8,
        "mean_call_bytes": 12_000,
        "largest_call_bytes": 20_000,
        "largest_call_tools": 16,
    }
    middleware = {
        "machine": {**machine, "load_avg": [1.0, 1.0, 1.0]},
        "details": {"turns": turns},
    }
    (tmp_path / "search.json").write_text(json.dumps(search), encoding="utf-8")
    (tmp_path / "middleware.json").write_text(json.dumps(middleware), encoding="utf-8")
    done = charts_script("search", "middleware", "--results", tmp_path, "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "plain BM25 (the floor)" in (tmp_path / "search.svg").read_text(encoding="utf-8")
    assert "1.12% of all" in (tmp_path / "middleware.svg").read_text(encoding="utf-8")
