"""The schema benchmark's harness still runs: ``bench_schema.py --smoke`` end to end.

CI never runs the real benchmark (minutes, and it needs the comparison libraries), so this runs
the few-second smoke mode in a subprocess with the test environment's interpreter: every code
path (timing, cached builds, the 1,000-tools sections shrunk, in worker processes and with a
baseline checkout (this repository again), quality scoring, name stress, the report, ``--json``
and ``--markdown``) with whatever comparison converters are importable (none in CI).
An audit hook in the subprocess refuses any network access and fails the run if anything tried.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests._no_network import runner

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "bench_schema.py"


def _run_smoke(tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    out_json, out_md = tmp_path / "bench.json", tmp_path / "bench.md"
    args = ["--smoke", "--json", str(out_json), "--markdown", str(out_md), "--baseline", str(ROOT)]
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", runner(), str(BENCH), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc, time.perf_counter() - started


def test_benchmark_smoke_run(tmp_path: Path) -> None:
    proc, _ = _run_smoke(tmp_path)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr}"

    doc: dict[str, Any] = json.loads((tmp_path / "bench.json").read_text(encoding="utf-8"))
    assert doc["mode"] == "smoke"
    assert doc["corpus"]["tools"] == 6
    # Too few repetitions to mean anything: the speed targets are reported, never judged.
    assert doc["targets"], "no speed target reported"
    assert all(v is None for v in doc["targets"].values()), doc["targets"]
    assert proc.stdout.count("not judged (smoke run)") == len(doc["targets"])
    assert not re.search(r"^\s+(PASS|FAIL) ", proc.stdout, re.MULTILINE), proc.stdout
    for label in doc["missing"]:  # a comparison library not installed is said, then skipped
        assert f"!! {label} not benchmarked" in proc.stdout

    speed = doc["speed"]
    for measure in ("ours.load", "ours.bind", "ours.convert", "ours.first_call"):
        row = speed["per_tool"][measure]
        assert row["tools"] == 6, (measure, row)
        assert row["median_us"] > 0, (measure, row)
        assert not row["failures"], (measure, row["failures"])
    for key in ("cached_same_object", "cached_equal_copy"):
        assert speed[key]["tools"] == 6, (key, speed[key])
        assert speed[key]["median_us"] > 0, (key, speed[key])
    assert speed["thousand_tools_count"] == 50
    for what in ("load", "bind", "convert"):
        assert speed["thousand_tools_ms"][what] > 0, speed["thousand_tools_ms"]

    side = speed["side_by_side"]
    assert side["tools"] == 50
    assert side["corpus_tools"] + len(side["left_out"]) == 6, side["left_out"]
    for lane in ("ours.load", "ours.bind", "baseline.load", "baseline.bind"):
        assert len(side["lanes"][lane]["runs_ms"]) == 1, (lane, side["lanes"][lane])
        assert side["lanes"][lane]["median_ms"] > 0, (lane, side["lanes"][lane])
    assert side["ratios"]["load_vs_baseline"]["rounds"] == 1
    for tag in ("ours", "baseline"):
        assert side["checkouts"][tag]["package"] == str(ROOT / "langchain_toolrouter")
    assert len(side["load_avg_1m"]) == 1

    ours = doc["quality"]["ours"]
    assert ours["built"] == 6, ours["build_failures"]
    assert ours["valid_calls"] > 0
    assert ours["invalid_calls"] > 0
    assert ours["accepted_pct"] == 100.0, ours["problems"]
    assert ours["exact_pct"] == 100.0, ours["inexact_reasons"]
    assert ours["rejected_pct"] == 100.0, ours["problems"]

    markdown = (tmp_path / "bench.md").read_text(encoding="utf-8")
    assert "| `ours.load` |" in markdown
    assert "not judged (smoke run)" in markdown
    assert "50 distinct tools" in markdown
    assert "| `baseline.load` |" in markdown
