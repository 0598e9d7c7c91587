"""The middleware benchmark's harness still runs: ``bench_middleware.py --smoke`` end to end.

Two generated apps (400 tools) and the emulator's own catalog, in an emulator process of its
own; the three schema-byte setups, a thread whose messages make 2, 3 and 5 model calls, a few
interleaved rounds of turns, and the selection over the everyday requests and over a BFCL-shaped
data folder written here (CI does not install ``bfcl-eval``), read by ``benchmarks/_bfcl.py`` as
the search benchmark reads it. Nothing is timed or judged: every figure must be there, and the
counts that do not depend on the machine must hold. An audit hook refuses any connection off
loopback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests._no_network import run_benchmark

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_middleware.py"

WEATHER = {
    "name": "get_current_weather",
    "description": "Retrieves the current weather conditions for a specified city.",
    "parameters": {
        "type": "dict",
        "required": ["location"],
        "properties": {
            "location": {"type": "string", "description": "The city, e.g. 'Berkeley, CA'."},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
        },
    },
}
AREA = {
    "name": "geometry.area_circle",
    "description": "Calculate the area of a circle given the radius.",
    "parameters": {
        "type": "dict",
        "required": ["radius"],
        "properties": {"radius": {"type": "float", "description": "The radius of the circle."}},
    },
}


def bfcl_folder(root: Path) -> Path:
    """A BFCL v4 data folder of two categories, three requests each (the smoke run reads two of
    each); the area function is offered in both."""
    (root / "possible_answer").mkdir(parents=True)
    rows = {
        "simple_python": [
            ("simple_python_0", "What is the area of a circle of radius 3?", [AREA], AREA),
            ("simple_python_1", "How much space does a 10 cm radius disc cover?", [AREA], AREA),
            ("simple_python_2", "Area of a round table 80 cm across?", [AREA], AREA),
        ],
        "live_multiple": [
            ("live_multiple_0", "Is it raining in Paris right now?", [WEATHER, AREA], WEATHER),
            ("live_multiple_1", "circle area for radius 2", [WEATHER, AREA], AREA),
            ("live_multiple_2", "How cold is it in Oslo?", [WEATHER, AREA], WEATHER),
        ],
    }
    for category, items in rows.items():
        questions = [
            {"id": i, "question": [[{"role": "user", "content": text}]], "function": functions}
            for i, text, functions, _ in items
        ]
        answers = [{"id": i, "ground_truth": [{right["name"]: {}}]} for i, _, _, right in items]
        name = f"BFCL_v4_{category}.json"
        (root / name).write_text("\n".join(json.dumps(q) for q in questions) + "\n")
        (root / "possible_answer" / name).write_text("\n".join(map(json.dumps, answers)) + "\n")
    return root


def test_middleware_benchmark_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "middleware.json"
    args = ["--smoke", "--json", str(out), "--bfcl-data", str(bfcl_folder(tmp_path / "bfcl"))]
    proc = run_benchmark(BENCH, *args, cwd=tmp_path)

    doc: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert doc["benchmark"] == "middleware"
    assert doc["mode"] == "smoke"
    assert {"date", "machine_cpus", "load_avg_before", "load_avg_after"} <= set(doc)
    figures = {(row["section"], row["figure"]): row for row in doc["figures"]}
    assert all(row["verdict"] is None for row in doc["figures"])  # a smoke run judges nothing

    def value(section: str, figure: str) -> Any:
        return figures[section, figure]["value"]

    assert value("schema bytes", "all app tools bound: tools") == 400
    assert value("schema bytes", "meta tools only: tools") == 6
    assert value("schema bytes", "middleware, a thread's first model call: tools") == 8
    assert 0 < value("schema bytes", "middleware first model call / all bound") < 100
    assert value("requests per message", "searches per message (max)") == 1
    for section in (
        "selection: everyday built-in",
        "selection: everyday among the 5,000",
        "selection: bfcl",
        "selection: bfcl, a toolkit per category",
    ):
        assert value(section, "requests") > 0
        assert 0 <= value(section, "right tool seen: middleware") <= 100
        assert 0 <= value(section, "right tool seen: bm25") <= 100
    for section in ("selection: bfcl", "selection: bfcl, a toolkit per category"):
        assert value(section, "requests") == 4  # two of each category's three
        assert value(section, "tools in catalog") == 2  # one tool per distinct function
    calls = "Python function calls per turn (cProfile)"
    assert value("turn overhead", f"bare: {calls}") < value("turn overhead", f"middleware: {calls}")
    for row in doc["figures"]:
        if row["section"] == "turn overhead" and row["unit"] in ("x", "ms"):
            assert row["value"] > 0, row
    assert "load average" in proc.stdout
    assert "not judged (smoke run)" in proc.stdout
