"""The emulator-limits benchmark's harness still runs: ``bench_emulator_limits.py --smoke``.

One 120 MB upload against the CLI in its own process; its figures are not judged, only that
the upload was refused and every figure was printed (the real run is in docs/benchmarks.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_emulator_limits.py"


def test_emulator_limits_benchmark_smoke_run() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--smoke"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "1 x 120 MB chunked uploads -> ['413']" in proc.stdout
    assert "server RSS" in proc.stdout
    assert "p99" in proc.stdout
