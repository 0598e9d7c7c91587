"""The listing benchmark's harness still runs: ``bench_listing.py --smoke`` end to end.

A 200-tool session against an emulator in its own process, every contender once; its times
are not judged, only that every figure is there (the real run is in docs/benchmarks.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_listing.py"


def test_listing_benchmark_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "listing.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--smoke", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(out.read_text())
    assert figures["listed"] == 206  # 200 app tools and the six meta tools
    assert set(figures["results"]) == {
        "raw httpx walk",
        "raw httpx, unparsed",
        "client.iter_tools",
        "session.get_tools()",
        "raw httpx create",
        "create_session",
    }
    assert all(stat["median_s"] > 0 for stat in figures["results"].values())
    assert "vs floor" in proc.stdout
