"""The emulator under hostile load, at full size: what tests/reliability checks at small scale.

Each emulator is the CLI (`toolrouter-emulator --quiet`) in a process of its own, so its memory
is its own (resident set size, sampled every 20 ms from /proc). Two measurements:

* **Uploads**: `--uploads` concurrent chunked uploads of `--size-mb` MB each to presigned URLs
  (limit 100 MB), sent by another process; meanwhile one client times sequential keep-alive
  `GET .../session/{id}` requests. Printed: each upload's outcome, the server's RSS before and
  at its peak, and the other client's latency (median, p90, p99, max).
* **Per-request cost** (with `--baseline`): MCP `tools/call` and REST `execute` of a small
  `NOTES_KV_SET`, on this checkout's emulator and on the baseline's, interleaved in rounds;
  medians, p90 and the ratio this/baseline, with the load average before and after.

    python benchmarks/bench_emulator_limits.py                        # ~1 min
    python benchmarks/bench_emulator_limits.py --baseline ../old     # also an older checkout
    python benchmarks/bench_emulator_limits.py --smoke                # seconds, nothing judged

`--baseline DIR` is a checkout (or `git archive` export) of an older version; its emulator runs
from that directory's sources with this environment's packages.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
V3 = "/api/v3/tool_router"
KEY = "ak_emulator_local"
MCP_HEADERS = {
    "x-api-key": KEY,
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
}

#: Sends the uploads, in a process of its own.
UPLOAD_FLOOD = Path(__file__).with_name("_upload_flood.py")


@contextmanager
def emulator(source: Path, *, quiet: bool = True) -> Iterator[Emulator]:
    """The CLI of the checkout at `source`, in a process of its own (run from that directory,
    so that its sources are the ones imported)."""
    env = {**os.environ, "PYTHONPATH": str(source), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "langchain_toolrouter.emulator", "--port", "0"]
    helped = subprocess.run(
        [*command, "--help"], capture_output=True, text=True, env=env, cwd=source, check=True
    )
    logs = "--quiet" in helped.stdout  # it prints access lines (this version or later)
    if quiet and logs:
        command.append("--quiet")
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=source
    )
    assert process.stdout is not None
    base_url = process.stdout.readline().split(" on ", 1)[1].strip()
    lines: list[str] = []
    # Drained in a thread: a full pipe would stop the server.
    reader = threading.Thread(target=lambda: lines.extend(process.stdout or ()), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(base_url + "/", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield Emulator(process, base_url, lines if logs and not quiet else None)
    finally:
        process.terminate()
        process.wait(timeout=30)
        reader.join(timeout=10)


@dataclass
class Emulator:
    process: subprocess.Popen[str]
    base_url: str
    lines: list[str] | None
    """Its access lines so far (None when it prints none)."""


def rss_mb(pid: int) -> float:
    """The process's resident set size, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class PeakRss:
    """Samples a process's RSS every 20 ms in a thread; `peak` is the largest seen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss_mb(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_mb(self.pid))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def uploads(source: Path, count: int, size_mb: int) -> dict[str, Any]:
    """Concurrent oversized uploads, the server's memory and another client's latency."""
    with (
        emulator(source, quiet=False) as served,
        # A long timeout: a stalled answer is measured, not cut short.
        httpx.Client(base_url=served.base_url, headers={"x-api-key": KEY}, timeout=120) as client,
    ):
        process = served.process
        session_id = client.post(f"{V3}/session", json={"user_id": "u"}).json()["session_id"]
        urls = [
            client.post(
                f"{V3}/session/{session_id}/mounts/files/upload_url",
                json={"mount_relative_path": f"big-{i}.bin"},
            ).json()["upload_url"]
            for i in range(count)
        ]
        path = f"{V3}/session/{session_id}"
        for _ in range(50):  # warm: the first requests build what later ones reuse
            client.get(path)
        start = rss_mb(process.pid)
        latencies: list[float] = []
        started = time.monotonic()
        with PeakRss(process.pid) as peak:
            uploader = subprocess.Popen(
                [sys.executable, str(UPLOAD_FLOOD), str(size_mb * 1_000_000), *urls],
                stdout=subprocess.PIPE,
                text=True,
            )
            while uploader.poll() is None:
                sent = time.perf_counter()
                assert client.get(path).status_code == 200
                latencies.append(time.perf_counter() - sent)
            outcomes = uploader.communicate()[0].split()
        if served.lines is not None:  # what the server answered, whatever the client saw
            time.sleep(0.5)
            outcomes = [line.split()[3] for line in served.lines if " PUT " in line]
        return {
            "outcomes": outcomes,
            "seconds": time.monotonic() - started,
            "rss_start_mb": start,
            "rss_peak_mb": peak.peak,
            "requests": len(latencies),
            "p50_ms": 1000 * statistics.median(latencies),
            "p90_ms": 1000 * percentile(latencies, 0.9),
            "p99_ms": 1000 * percentile(latencies, 0.99),
            "max_ms": 1000 * max(latencies),
        }


def _mcp_call(client: httpx.Client, url: str, index: int) -> None:
    arguments = {"key": f"k{index % 50}", "value": {"text": "é" * 20, "n": [1, 2.5, None]}}
    body = {
        "jsonrpc": "2.0",
        "id": index,
        "method": "tools/call",
        "params": {"name": "NOTES_KV_SET", "arguments": arguments},
    }
    answer = client.post(url, json=body, headers=MCP_HEADERS).json()
    assert answer["result"]["isError"] is False, answer


def _rest_call(client: httpx.Client, path: str, index: int) -> None:
    arguments = {"key": f"k{index % 50}", "value": {"text": "é" * 20, "n": [1, 2.5, None]}}
    body = {"tool_slug": "NOTES_KV_SET", "arguments": arguments}
    assert client.post(path, json=body).json()["error"] is None


def per_request(sources: dict[str, Path], rounds: int, per_round: int) -> dict[str, Any]:
    """MCP and REST calls on each checkout's emulator, interleaved: times in ms."""
    times: dict[tuple[str, str], list[float]] = {}
    with ExitStack() as stack:
        targets: dict[str, tuple[httpx.Client, str, str]] = {}
        for name, source in sources.items():
            served = stack.enter_context(emulator(source))
            client = stack.enter_context(
                httpx.Client(base_url=served.base_url, headers={"x-api-key": KEY})
            )
            created = client.post(f"{V3}/session", json={"user_id": "u"}).json()
            execute = f"{V3}/session/{created['session_id']}/execute"
            targets[name] = (client, created["mcp"]["url"], execute)
            for i in range(20):  # warm
                _mcp_call(client, created["mcp"]["url"], i)
                _rest_call(client, execute, i)
        for round_ in range(rounds):
            names = list(targets) if round_ % 2 == 0 else list(reversed(targets))
            for name in names:
                client, mcp_url, execute = targets[name]
                for kind, call, target in (
                    ("mcp", _mcp_call, mcp_url),
                    ("rest", _rest_call, execute),
                ):
                    for i in range(per_round):
                        sent = time.perf_counter()
                        call(client, target, i)
                        times.setdefault((name, kind), []).append(
                            1000 * (time.perf_counter() - sent)
                        )
    return {
        f"{name} {kind}": {
            "median_ms": statistics.median(values),
            "p90_ms": percentile(values, 0.9),
            "n": len(values),
        }
        for (name, kind), values in times.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="an older checkout to compare with")
    parser.add_argument("--uploads", type=int, default=4)
    parser.add_argument("--size-mb", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="small sizes, nothing judged")
    args = parser.parse_args()
    if args.smoke:
        args.uploads, args.size_mb, args.rounds, args.per_round = 1, 120, 2, 5
    sources = {"this": ROOT}
    if args.baseline is not None:
        sources["baseline"] = args.baseline.resolve()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name, source in sources.items():
        result = uploads(source, args.uploads, args.size_mb)
        print(
            f"{name}: {args.uploads} x {args.size_mb} MB chunked uploads -> {result['outcomes']} "
            f"in {result['seconds']:.1f} s; server RSS {result['rss_start_mb']:.0f} MB -> peak "
            f"{result['rss_peak_mb']:.0f} MB (+{result['rss_peak_mb'] - result['rss_start_mb']:.0f}"
            f" MB); another client's {result['requests']} GETs meanwhile: median "
            f"{result['p50_ms']:.1f} ms, p90 {result['p90_ms']:.1f} ms, p99 {result['p99_ms']:.1f}"
            f" ms, max {result['max_ms']:.1f} ms"
        )
        if name == "this" and not args.smoke:
            grew = result["rss_peak_mb"] - result["rss_start_mb"]
            verdict = "PASS" if grew < 100 and result["p99_ms"] < 100 else "FAIL"
            print(f"  goal: RSS growth < 100 MB and p99 < 100 ms: {verdict}")
    if len(sources) > 1:
        figures = per_request(sources, args.rounds, args.per_round)
        for label, figure in sorted(figures.items()):
            print(
                f"{label}: median {figure['median_ms']:.3f} ms, p90 {figure['p90_ms']:.3f} ms "
                f"(n={figure['n']})"
            )
        for kind in ("mcp", "rest"):
            this, base = figures[f"this {kind}"], figures[f"baseline {kind}"]
            print(
                f"{kind}: this/baseline median {this['median_ms'] / base['median_ms']:.3f}, "
                f"p90 {this['p90_ms'] / base['p90_ms']:.3f}"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
