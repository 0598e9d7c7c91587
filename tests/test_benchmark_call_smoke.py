"""The call benchmark's harness still runs: ``bench_call.py --smoke`` end to end.

CI never runs the real benchmark (minutes of interleaved rounds on a quiet machine), so this
runs the smoke mode in a subprocess with the test environment's interpreter: the emulator in its
own process, every contender (composio-langchain too when it is importable, which it is not in
CI), the 8-thread section, the report and ``--json``. An audit hook in the benchmark's process
refuses any connection that is not to this machine's loopback and fails the run if one was tried.
No time is judged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests._no_network import run_benchmark

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_call.py"

CONTENDERS = ("raw", "client", "bare", "tool", "araw", "aclient", "abare", "atool")


def test_call_benchmark_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "calls.json"
    proc = run_benchmark(BENCH, "--smoke", "--json", str(out), cwd=tmp_path)

    doc: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert doc["mode"] == "smoke"
    assert "load_avg_before" in doc
    stats = doc["stats"]
    for name in (*CONTENDERS, "bare_x8", "tool_x8"):
        assert stats[name]["samples"] > 0, name
        assert stats[name]["median_us"] > 0, name
        assert stats[name]["p90_us"] >= stats[name]["median_us"], name
    # Too few calls to mean anything: every target is reported, none judged.
    assert len(doc["targets"]) == 5
    assert all(row["verdict"] is None and row["ratio"] > 0 for row in doc["targets"])
    assert proc.stdout.count("not judged (smoke run)") == 5
    assert "load average" in proc.stdout
    if doc["composio_missing"] is None:
        assert {"composio", "acomposio", "composio_x8"} <= set(stats)
    else:  # not installed: said, then left out
        assert "!! composio-langchain not benchmarked" in proc.stdout
        assert not {"composio", "acomposio", "composio_x8"} & set(stats)
