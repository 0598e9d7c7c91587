"""The search benchmark's harness still runs: ``bench_search.py --smoke`` end to end.

CI has no ``bfcl-eval``: the smoke run reads the small BFCL sample committed in
``benchmarks/search_sample/`` (40 labelled requests), serves it as a catalog, searches it through
the library against an emulator on loopback, ranks the plain BM25 floor beside it, and runs every
everyday request over the emulator's own catalog. An audit hook refuses any connection off
loopback (the embeddings ship in their package: nothing is downloaded). Times are reported,
never judged; the everyday requests' quality is deterministic, so its target is held here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests._no_network import LOOPBACK, run_script

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_search.py"


def test_search_benchmark_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "search.json"
    proc = run_script(BENCH, "--smoke", "--json", str(out), cwd=tmp_path, allowed=LOOPBACK)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr}"

    doc: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert doc["mode"] == "smoke"
    assert doc["bfcl_source"] == "sample"
    bfcl = doc["bfcl"]
    assert bfcl["queries"] == 40
    assert bfcl["live_queries"] == 16
    for who in ("ours", "lexical", "floor"):
        for subset in ("class all", "class live", "exact all", "exact live", "class non-live"):
            row = bfcl[who][subset]
            assert set(row) == {"R@1", "R@5", "R@8", "MRR", "queries"}, (who, subset)
            assert 0 <= row["R@1"] <= row["R@5"] <= row["R@8"] <= 100, (who, subset, row)
    assert bfcl["latency"]["samples"] == 40
    assert bfcl["wide"]["toolkits"] == 20
    assert bfcl["wide"]["latency"]["samples"] == 40

    everyday = doc["everyday"]
    assert everyday["requests"] >= 100
    assert everyday["R@3"] >= 95.0, everyday["misses"]
    assert everyday["non_latin"] > 0
    assert everyday["non_latin_empty"] == []

    # Too few requests and no quiet machine: every target is reported, none judged.
    assert all(row["verdict"] is None for row in doc["targets"])
    assert proc.stdout.count("not judged (smoke run)") == len(doc["targets"])
    assert "load average" in proc.stdout
