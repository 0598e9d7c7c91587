"""1,000 distinct tools loaded side by side: ours, composio-langchain's conversion and
langchain-mcp-adapters', each with and without ``convert_to_openai_tool``, as ratios in one run.

A lane is one converter's pass over the batch. In a round every lane makes one pass, and the
passes are interleaved finely: the batch is cut into :data:`CHUNKS` slices, and each slice goes
through every lane, in a new order each time, before the next slice. A slow spell of the shared
machine (seconds long) then falls on every lane alike, and the round's ratios compare like with
like. Rounds are spread over the benchmark's repetitions; the figures are per-round ratios, of
wall times and, beside them, of the thread's CPU times (which leave out the time other
processes held the CPU).

A lane can also run in a worker process that imports another checkout of langchain-toolrouter
(``--baseline DIR``), to compare code before and after a change in the same run: two checkouts
cannot share a process (the package imports itself by its absolute name). The parent sends one
command per slice and the worker answers with its time, measured by the same :class:`Lane`.

Run as a script, this module is that worker: ``python _lanes.py ROOT`` (ROOT first on
``sys.path``), reading JSON commands on stdin and answering one JSON line each on stdout.
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
from typing import Any, Protocol

from _corpus import Tool, replicate

__all__ = [
    "CHUNKS",
    "WARM_TOOLS",
    "Lane",
    "SideBySide",
    "TreeWorker",
    "common_tools",
    "per_round",
    "quantile",
]

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


class Timed(Protocol):
    """What a round drives: an in-process :class:`Lane` or one lane of a :class:`TreeWorker`."""

    def begin(self) -> None: ...

    def chunk(self, start: int, stop: int) -> tuple[float, float]: ...

    def end(self) -> None: ...


class Lane:
    """``fn`` over a batch, one slice at a time, each from cleared caches (``clear``)."""

    def __init__(
        self, fn: Callable[[Any], Any], clear: Callable[[], None], batch: list[Any]
    ) -> None:
        self._fn = fn
        self._clear = clear
        self._batch = batch

    def begin(self) -> None:
        """Convert the first :data:`WARM_TOOLS` tools untimed."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for tool in self._batch[:WARM_TOOLS]:
                self._fn(tool)

    def chunk(self, start: int, stop: int) -> tuple[float, float]:
        """Wall and CPU milliseconds for ``batch[start:stop]``. The batch holds tools every
        contender builds; one that raises anyway raises here."""
        self._clear()
        fn = self._fn
        tools = self._batch[start:stop]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cpu = time.thread_time_ns()
            begun = time.perf_counter_ns()
            for tool in tools:
                fn(tool)
            wall = time.perf_counter_ns() - begun
            cpu = time.thread_time_ns() - cpu
        return wall / 1e6, cpu / 1e6

    def end(self) -> None:
        self._clear()


class TreeWorker:
    """A worker process loading tools with the langchain-toolrouter checkout at ``root``: the
    same ``count`` tools replicated from ``tools`` as in this process, through ``ours.load``
    and ``ours.bind`` (:meth:`lane`)."""

    def __init__(self, root: Path, tools: list[Tool], count: int) -> None:
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
            [sys.executable, str(Path(__file__).resolve()), str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._send({"tools": payload, "count": count})

    def ready(self) -> dict[str, Any]:
        """Wait for the worker's set-up: which package it imported, how many tools it holds."""
        return self._answer()

    def ask(self, command: dict[str, Any]) -> dict[str, Any]:
        self._send(command)
        return self._answer()

    def _send(self, command: dict[str, Any]) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(command) + "\n")
        self._proc.stdin.flush()

    def _answer(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker for {self.root} exited ({self._proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the worker for {self.root}: {answer['error']}")
        return answer

    def lane(self, what: str) -> _WorkerLane:
        """``"load"`` or ``"bind"``, driven from this process."""
        return _WorkerLane(self, what)

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=30)


class _WorkerLane:
    def __init__(self, worker: TreeWorker, what: str) -> None:
        self._worker = worker
        self._what = what

    def begin(self) -> None:
        self._worker.ask({"lane": self._what, "op": "begin"})

    def chunk(self, start: int, stop: int) -> tuple[float, float]:
        answer = self._worker.ask({"lane": self._what, "op": "chunk", "slice": [start, stop]})
        return float(answer["ms"]), float(answer["cpu_ms"])

    def end(self) -> None:
        self._worker.ask({"lane": self._what, "op": "end"})


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
    """The 1,000-tool lanes: ``ours.load``/``ours.bind`` and each anchor's ``convert``/``bind``
    over one batch, plus ``baseline.*`` and ``head.*`` worker lanes when a baseline checkout is
    given (``head`` is this checkout in a worker, so before/after compare like with like)."""

    def __init__(
        self,
        sources: list[Tool],
        count: int,
        converters: list[Any],
        baseline: Path | None,
        head: Path,
    ) -> None:
        batch = replicate(sources, count)
        self.batch = batch
        self.lanes: dict[str, Timed] = {}
        for conv in converters:
            conv.prepare(batch)
            if conv.key == "ours":
                self.lanes["ours.load"] = Lane(conv.load, conv.clear, batch)
            else:
                self.lanes[f"{conv.key}.convert"] = Lane(conv.convert, conv.clear, batch)
            self.lanes[f"{conv.key}.bind"] = Lane(conv.bind, conv.clear, batch)
        self.workers: dict[str, TreeWorker] = {}
        self.checkouts: dict[str, dict[str, Any]] = {}
        if baseline is not None:
            # Both start at once: each imports its checkout while the other does.
            self.workers = {
                tag: TreeWorker(root, sources, count)
                for tag, root in (("baseline", baseline), ("head", head))
            }
            for tag, worker in self.workers.items():
                self.checkouts[tag] = {
                    "root": str(worker.root),
                    "commit": _git_commit(worker.root),
                    **worker.ready(),
                }
                for what in ("load", "bind"):
                    self.lanes[f"{tag}.{what}"] = worker.lane(what)
        self.runs: dict[str, list[float]] = {name: [] for name in self.lanes}
        self.cpu_runs: dict[str, list[float]] = {name: [] for name in self.lanes}
        self.load_avg: list[float] = []
        self._rng = random.Random(1)

    def round(self) -> None:
        """Every lane over the whole batch once, slice by slice, in a new order per slice;
        garbage collector off (this process's and the workers') from the first slice to the
        last."""
        names = list(self.lanes)
        step = max(1, -(-len(self.batch) // CHUNKS))
        wall = dict.fromkeys(names, 0.0)
        cpu = dict.fromkeys(names, 0.0)
        if hasattr(os, "getloadavg"):
            self.load_avg.append(os.getloadavg()[0])
        for name in names:
            self.lanes[name].begin()
        gc.collect()
        gc.disable()
        try:
            for start in range(0, len(self.batch), step):
                self._rng.shuffle(names)
                for name in names:
                    took, used = self.lanes[name].chunk(start, start + step)
                    wall[name] += took
                    cpu[name] += used
        finally:
            gc.enable()
            for name in names:
                self.lanes[name].end()
        for name in self.lanes:
            self.runs[name].append(wall[name])
            self.cpu_runs[name].append(cpu[name])

    def close(self) -> None:
        for worker in self.workers.values():
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


def _serve(root: str) -> None:
    """The worker: set up from the first command, then answer one command per line."""
    sys.path.insert(1, root)
    from _converters import Ours

    import langchain_toolrouter

    loaded = Path(langchain_toolrouter.__file__).resolve()
    if not loaded.is_relative_to(Path(root).resolve()):
        print(json.dumps({"error": f"imported {loaded}, not the checkout at {root}"}), flush=True)
        return
    ours = Ours()
    lanes: dict[str, Lane] = {}
    for line in sys.stdin:
        command = json.loads(line)
        answer: dict[str, Any] = {}
        if "tools" in command:
            batch = replicate([Tool(**row) for row in command["tools"]], command["count"])
            lanes = {
                "load": Lane(ours.load, ours.clear, batch),
                "bind": Lane(ours.bind, ours.clear, batch),
            }
            answer = {"package": str(loaded.parent), "tools": len(batch)}
        elif command["op"] == "begin":
            lanes[command["lane"]].begin()
            # Off until the round ends, as in the parent (collected first, outside any slice).
            gc.collect()
            gc.disable()
        elif command["op"] == "chunk":
            wall, cpu = lanes[command["lane"]].chunk(*command["slice"])
            answer = {"ms": wall, "cpu_ms": cpu}
        else:
            lanes[command["lane"]].end()
            gc.enable()
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    _serve(sys.argv[1])
