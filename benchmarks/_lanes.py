"""1,000 distinct tools loaded side by side: ours, composio-langchain's conversion and
langchain-mcp-adapters', each with and without ``convert_to_openai_tool``, as ratios in one run.

A lane is one converter's pass over the batch. Each contender runs in a worker process of its
own, started fresh for this section: the main process has by then generated thousands of calls
and run four libraries, and a lane timed there ran 14-22% slower than the same lane in a fresh
process, a handicap that would fall unevenly on the contenders. With ``--baseline DIR``, one
more worker imports another checkout of langchain-toolrouter (two checkouts cannot share a
process: the package imports itself by its absolute name), to compare code before and after a
change in the same run.

In a round every lane makes one pass, interleaved finely: the batch is cut into :data:`CHUNKS`
slices, and each slice goes through every lane, in a new order each time, before the next
slice. A slow spell of the shared machine (seconds long) then falls on every lane alike. Rounds
are spread over the benchmark's repetitions; the figures are per-round ratios, of wall times
and, beside them, of each worker's CPU time (which leaves out the time other processes held
the CPU).

Run as a script, this module is a worker: ``python _lanes.py ROOT KEY`` (ROOT first on
``sys.path``, KEY a converter of ``_converters.CONVERTERS``), reading JSON commands on stdin
and answering one JSON line each on stdout.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _corpus import Tool, replicate

__all__ = ["CHUNKS", "WARM_TOOLS", "SideBySide", "common_tools", "per_round", "quantile"]

# Slices per round: each lane's pass is cut into this many, interleaved with the other lanes'.
CHUNKS = 10
# Tools converted untimed when a round begins, so first-use work (lazy imports, class set-up)
# is not charged to the first slice.
WARM_TOOLS = 32


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def per_round(numerator: list[float], denominator: list[float]) -> dict[str, Any]:
    """The ratio of two lanes round by round (both timed in the same round): median, p10, p90."""
    values = [a / b for a, b in zip(numerator, denominator, strict=True) if b > 0]
    return {
        "rounds": len(values),
        "median": quantile(values, 0.5),
        "p10": quantile(values, 0.1),
        "p90": quantile(values, 0.9),
    }


def common_tools(tools: list[Any], converters: list[Any]) -> tuple[list[Any], dict[str, str]]:
    """The tools every converter builds and binds (so each lane does the same work), and for
    each other tool the first converter that failed."""
    kept: list[Any] = []
    left_out: dict[str, str] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for tool in tools:
            for conv in converters:
                try:
                    conv.prepare([tool])
                    conv.bind(tool)
                except Exception as exc:  # noqa: PERF203 - once per tool and converter
                    left_out[tool.name] = f"{conv.label}: {type(exc).__name__}"
                    break
            else:
                kept.append(tool)
    for conv in converters:
        conv.clear()
    return kept, left_out


class _Lane:
    """``fn`` over a batch, one slice at a time, each from cleared caches (``clear``)."""

    def __init__(
        self, fn: Callable[[Any], Any], clear: Callable[[], None], batch: list[Any]
    ) -> None:
        self._fn = fn
        self._clear = clear
        self._batch = batch

    def begin(self) -> None:
        """Convert the first :data:`WARM_TOOLS` tools untimed."""
        for tool in self._batch[:WARM_TOOLS]:
            self._fn(tool)

    def chunk(self, start: int, stop: int) -> tuple[float, float]:
        """Wall and CPU milliseconds for ``batch[start:stop]``. The batch holds tools every
        contender builds; one that raises anyway raises here."""
        self._clear()
        fn = self._fn
        tools = self._batch[start:stop]
        cpu = time.thread_time_ns()
        begun = time.perf_counter_ns()
        for tool in tools:
            fn(tool)
        wall = time.perf_counter_ns() - begun
        cpu = time.thread_time_ns() - cpu
        return wall / 1e6, cpu / 1e6

    def end(self) -> None:
        self._clear()


class _Worker:
    """A worker process running converter ``key`` with the langchain-toolrouter checkout at
    ``root`` first on ``sys.path``, over ``count`` tools replicated from ``tools`` as
    :func:`replicate` does here."""

    def __init__(self, root: Path, key: str, tools: list[Tool], count: int) -> None:
        payload = [
            {
                "file": t.file,
                "source": t.source,
                "name": t.name,
                "description": t.description,
                "schema": t.schema,
            }
            for t in tools
        ]
        self.root = root
        self._proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), str(root), key],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._send({"tools": payload, "count": count})

    def ready(self) -> dict[str, Any]:
        """Wait for the set-up: the package imported, the lanes offered, the batch size."""
        return self.ask(None)

    def ask(self, command: dict[str, Any] | None) -> dict[str, Any]:
        """Send ``command`` (None: send nothing) and return the answer."""
        if command is not None:
            self._send(command)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker for {self.root} exited ({self._proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the worker for {self.root}: {answer['error']}")
        return answer

    def _send(self, command: dict[str, Any]) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(command) + "\n")
        self._proc.stdin.flush()

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=60)


def _git_commit(root: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return root.name
    return out.stdout.strip() or root.name


class SideBySide:
    """The 1,000-tool lanes, ``<tag>.<lane>``: ``ours.load``/``ours.bind`` and each other
    contender's ``convert``/``bind``, plus ``baseline.load``/``baseline.bind`` when a baseline
    checkout is given; one worker process per tag."""

    def __init__(
        self,
        sources: list[Tool],
        count: int,
        contenders: list[str],
        head: Path,
        baseline: Path | None,
    ) -> None:
        self.tools = len(replicate(sources, count))
        starts = [(key, head, key) for key in contenders]
        if baseline is not None:
            starts.append(("baseline", baseline, "ours"))
        # All start at once: each imports its libraries while the others do.
        self._workers = {tag: _Worker(root, key, sources, count) for tag, root, key in starts}
        self.checkouts: dict[str, dict[str, Any]] = {}
        self._lanes: list[tuple[str, str]] = []
        try:
            for tag, worker in self._workers.items():
                info = worker.ready()
                self._lanes += [(tag, lane) for lane in info.pop("lanes")]
                if tag in ("ours", "baseline"):
                    self.checkouts[tag] = {"commit": _git_commit(worker.root), **info}
        except BaseException:
            self.close()
            raise
        names = [f"{tag}.{lane}" for tag, lane in self._lanes]
        self.runs: dict[str, list[float]] = {name: [] for name in names}
        self.cpu_runs: dict[str, list[float]] = {name: [] for name in names}
        self.load_avg: list[float] = []
        self._rng = random.Random(1)

    def round(self) -> None:
        """Every lane over the whole batch once, slice by slice, in a new order per slice, with
        the workers' garbage collectors off from the first slice to the last."""
        lanes = list(self._lanes)
        step = max(1, -(-self.tools // CHUNKS))
        wall = dict.fromkeys(self.runs, 0.0)
        cpu = dict.fromkeys(self.runs, 0.0)
        if hasattr(os, "getloadavg"):
            self.load_avg.append(os.getloadavg()[0])
        for tag, lane in lanes:
            self._workers[tag].ask({"op": "begin", "lane": lane})
        for start in range(0, self.tools, step):
            self._rng.shuffle(lanes)
            for tag, lane in lanes:
                answer = self._workers[tag].ask(
                    {"op": "chunk", "lane": lane, "slice": [start, start + step]}
                )
                wall[f"{tag}.{lane}"] += answer["ms"]
                cpu[f"{tag}.{lane}"] += answer["cpu_ms"]
        for tag, lane in lanes:
            self._workers[tag].ask({"op": "end", "lane": lane})
        for name in self.runs:
            self.runs[name].append(wall[name])
            self.cpu_runs[name].append(cpu[name])

    def close(self) -> None:
        for worker in self._workers.values():
            worker.close()

    def lane_stats(self) -> dict[str, dict[str, Any]]:
        return {
            name: {
                "median_ms": quantile(runs, 0.5),
                "p90_ms": quantile(runs, 0.9),
                "fastest_ms": min(runs, default=float("nan")),
                "cpu_median_ms": quantile(self.cpu_runs[name], 0.5),
                "runs_ms": runs,
                "cpu_runs_ms": self.cpu_runs[name],
            }
            for name, runs in self.runs.items()
        }


def _serve(root: str, key: str) -> None:
    """The worker: set up from the first command, then answer one command per line."""
    sys.path.insert(1, root)
    from _converters import make_converter

    conv = make_converter(key)
    answer: dict[str, Any] = {}
    if key == "ours":
        import langchain_toolrouter

        package = Path(langchain_toolrouter.__file__).resolve().parent
        if not package.is_relative_to(Path(root).resolve()):
            print(json.dumps({"error": f"imported {package}, not the one in {root}"}), flush=True)
            return
        answer["package"] = str(package)
    warnings.simplefilter("ignore")
    lanes: dict[str, _Lane] = {}
    for line in sys.stdin:
        command = json.loads(line)
        if "tools" in command:
            batch = replicate([Tool(**row) for row in command["tools"]], command["count"])
            conv.prepare(batch)
            first = "load" if key == "ours" else "convert"
            lanes = {
                first: _Lane(getattr(conv, first), conv.clear, batch),
                "bind": _Lane(conv.bind, conv.clear, batch),
            }
            answer |= {"lanes": list(lanes), "tools": len(batch)}
        elif command["op"] == "begin":
            lanes[command["lane"]].begin()
            # Collected here, outside any slice; off until the round ends.
            gc.collect()
            gc.disable()
        elif command["op"] == "chunk":
            wall, cpu = lanes[command["lane"]].chunk(*command["slice"])
            answer = {"ms": wall, "cpu_ms": cpu}
        else:
            lanes[command["lane"]].end()
            gc.enable()
        print(json.dumps(answer), flush=True)
        answer = {}


if __name__ == "__main__":
    _serve(sys.argv[1], sys.argv[2])
