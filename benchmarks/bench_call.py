"""Call benchmark: one cheap tool call through each layer, against two floors, in one run.

The emulator's app runs under uvicorn in a process of its own (a child this script starts),
so its latency is the same for every contender and does not share this process's interpreter.
Every contender calls ``NOTES_KV_GET`` on one session, in interleaved rounds (each round runs a
batch of every contender, the order rotated from round to round), and the report gives the median
and p90 of one call per contender, the ratios the targets are stated in (the median of the
per-round ratios of a contender to its floor, so load that comes and goes during the run weighs
on both sides alike), and the load average.

Contenders, each against the floor beside it:

- ``ToolRouterClient.execute`` / ``AsyncToolRouterClient.execute`` vs a raw
  ``httpx.Client.post`` / ``httpx.AsyncClient.post`` of the same execute request (same URL,
  headers and body; the answer decoded with ``response.json()``);
- a session tool's ``invoke`` / ``ainvoke`` (``ToolRouter(...).create_session(...).tool(...)``,
  public API only, called with a ToolCall as an agent does) vs a bare LangChain
  ``StructuredTool`` whose function is that same raw POST;
- 8 threads calling our tool vs 8 threads calling the bare ``StructuredTool`` (throughput);
- composio-langchain 0.30's tool for the same call (``Composio(provider=LangchainProvider())``,
  a session preloading the tool, telemetry off), when ``composio`` and ``composio_langchain``
  import (``scripts/bench.sh`` installs them beside the environment).

Usage: ``python benchmarks/bench_call.py [--quick | --smoke] [--json out.json]``.
``--smoke`` runs every code path with a handful of calls; its ratios are not judged.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

import httpx
from _converters import bench_packages_dir
from _machine import run_facts
from langchain_core.tools import BaseTool, StructuredTool

from langchain_toolrouter import AsyncToolRouterClient, ToolRouter, ToolRouterClient

API_KEY = "ak_bench_call"
SLUG = "NOTES_KV_GET"
ARGS = {"key": "bench"}

# The targets of the call path: (what, contender, floor, bound, "max" or "min").
TARGETS = (
    ("client.execute vs raw httpx", "client", "raw", 1.10, "max"),
    ("aclient.execute vs raw httpx (async)", "aclient", "araw", 1.10, "max"),
    ("tool.invoke vs bare StructuredTool", "tool", "bare", 1.05, "max"),
    ("tool.ainvoke vs bare StructuredTool", "atool", "abare", 1.05, "max"),
    ("8-thread throughput vs bare StructuredTool", "tool_x8", "bare_x8", 0.95, "min"),
)


@dataclass(frozen=True)
class Settings:
    """How much work a run does."""

    rounds: int
    batch: int  # calls per contender per round
    thread_calls: int  # calls per thread per round in the 8-thread section
    warmup: int  # untimed calls per contender before the first round
    judged: bool = True


# Short batches, many rounds: each round measures every contender under nearly the same load, so
# the ratio of a round (contender / its floor) holds on a busy machine; the targets use the
# median of those per-round ratios.
FULL = Settings(rounds=100, batch=20, thread_calls=20, warmup=50)
QUICK = Settings(rounds=30, batch=15, thread_calls=10, warmup=30)
SMOKE = Settings(rounds=2, batch=3, thread_calls=2, warmup=2, judged=False)
THREADS = 8


# -- the emulator in its own process -----------------------------------------------------------


# The child: the emulator's app under uvicorn (h11, as EmulatorServer serves it) on a socket
# bound here and handed over, so the port is known before it is printed. The socket is made with
# IPPROTO_TCP: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and without it
# every answer on a kept-alive connection waits ~40 ms for a delayed ACK (Nagle).
_SERVE = """
import socket, sys, uvicorn
from langchain_toolrouter.emulator import create_app
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", 0))
app = create_app(api_keys=[sys.argv[1]])
config = uvicorn.Config(app, log_level="warning", http="h11", ws="none", lifespan="off")
print("port", sock.getsockname()[1], flush=True)
uvicorn.Server(config).run(sockets=[sock])
"""


class EmulatorProcess:
    """The emulator served by uvicorn in a child process of its own, on a free loopback port."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _SERVE, API_KEY],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self._proc.stdout is not None
        first = self._proc.stdout.readline().split()
        if len(first) != 2 or first[0] != "port":
            self.stop()
            raise RuntimeError(f"the emulator did not start: {first!r} {self._errors()}")
        self.base_url = f"http://127.0.0.1:{first[1]}"
        self._wait_until_serving()

    def _wait_until_serving(self) -> None:
        deadline = time.monotonic() + 30
        while not self._answers():
            if time.monotonic() > deadline or self._proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"the emulator did not answer: {self._errors()}")
            time.sleep(0.05)

    def _answers(self) -> bool:
        """Whether the server answers HTTP yet (any status will do)."""
        try:
            httpx.get(f"{self.base_url}/", timeout=1)
        except httpx.TransportError:
            return False
        return True

    def _errors(self) -> str:
        if self._proc.poll() is None or self._proc.stderr is None:
            return ""
        return self._proc.stderr.read()[-2000:]

    def stop(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()


# -- contenders --------------------------------------------------------------------------------


SyncCall = Callable[[], Any]
AsyncCall = Callable[[], Awaitable[Any]]


def _tool_call(name: str, number: int) -> dict[str, Any]:
    return {"name": name, "args": dict(ARGS), "id": f"call_{number}", "type": "tool_call"}


class Contenders:
    """Everything that makes the call, built once against one session."""

    def __init__(self, base_url: str) -> None:
        self.router = ToolRouter(api_key=API_KEY, base_url=base_url)
        session = self.router.create_session("bench-user", toolkits=["notes"])
        self.session_id = session.session_id
        self.tool: BaseTool = session.tool(SLUG)
        self.client = ToolRouterClient(api_key=API_KEY, base_url=base_url)
        self.aclient: AsyncToolRouterClient | None = None  # opened on the benchmark's loop
        self.client.execute(self.session_id, "NOTES_KV_SET", {"key": "bench", "value": "v"})

        self.url = f"{base_url}/api/v3/tool_router/session/{self.session_id}/execute"
        self.body = {"tool_slug": SLUG, "arguments": ARGS}
        self.headers = {"x-api-key": API_KEY}
        self.http = httpx.Client()
        self.ahttp: httpx.AsyncClient | None = None
        self.bare = StructuredTool.from_function(
            func=self._bare_post,
            coroutine=self._bare_apost,
            name=SLUG,
            description="Reads the JSON value stored under a key.",
        )
        self.composio: BaseTool | None = None
        self.composio_missing: str | None = None
        self._calls = 0

    # The raw POST: the floor, and the bare StructuredTool's function.
    def raw(self) -> Any:
        return self.http.post(self.url, json=self.body, headers=self.headers).json()

    async def araw(self) -> Any:
        assert self.ahttp is not None
        return (await self.ahttp.post(self.url, json=self.body, headers=self.headers)).json()

    def _bare_post(self, key: str) -> Any:
        body = {"tool_slug": SLUG, "arguments": {"key": key}}
        return self.http.post(self.url, json=body, headers=self.headers).json()

    async def _bare_apost(self, key: str) -> Any:
        assert self.ahttp is not None
        body = {"tool_slug": SLUG, "arguments": {"key": key}}
        return (await self.ahttp.post(self.url, json=body, headers=self.headers)).json()

    def _next(self) -> int:
        self._calls += 1
        return self._calls

    def sync_calls(self) -> dict[str, SyncCall]:
        calls: dict[str, SyncCall] = {
            "raw": self.raw,
            "client": lambda: self.client.execute(self.session_id, SLUG, ARGS),
            "bare": lambda: self.bare.invoke(_tool_call(SLUG, self._next())),
            "tool": lambda: self.tool.invoke(_tool_call(SLUG, self._next())),
        }
        if self.composio is not None:
            composio = self.composio
            calls["composio"] = lambda: composio.invoke(_tool_call(SLUG, self._next()))
        return calls

    def async_calls(self) -> dict[str, AsyncCall]:
        assert self.aclient is not None
        aclient = self.aclient
        calls: dict[str, AsyncCall] = {
            "araw": self.araw,
            "aclient": lambda: aclient.execute(self.session_id, SLUG, ARGS),
            "abare": lambda: self.bare.ainvoke(_tool_call(SLUG, self._next())),
            "atool": lambda: self.tool.ainvoke(_tool_call(SLUG, self._next())),
        }
        if self.composio is not None:
            composio = self.composio
            calls["acomposio"] = lambda: composio.ainvoke(_tool_call(SLUG, self._next()))
        return calls

    def threaded_calls(self) -> dict[str, SyncCall]:
        calls = {
            "bare_x8": lambda: self.bare.invoke(_tool_call(SLUG, 0)),
            "tool_x8": lambda: self.tool.invoke(_tool_call(SLUG, 0)),
        }
        if self.composio is not None:
            composio = self.composio
            calls["composio_x8"] = lambda: composio.invoke(_tool_call(SLUG, 0))
        return calls

    async def open_async(self) -> None:
        self.ahttp = httpx.AsyncClient()
        self.aclient = AsyncToolRouterClient(
            api_key=API_KEY, base_url=self.client.settings.base_url
        )

    async def close_async(self) -> None:
        if self.ahttp is not None:
            await self.ahttp.aclose()
        if self.aclient is not None:
            await self.aclient.aclose()
        await self.router.aclose()

    def close(self) -> None:
        self.http.close()
        self.client.close()
        self.router.close()

    def add_composio(self, base_url: str) -> None:
        """composio-langchain's tool for the same call, or why it is not there."""
        extra = bench_packages_dir()
        if extra.is_dir() and str(extra) not in sys.path:
            sys.path.insert(0, str(extra))
        os.environ.setdefault("COMPOSIO_LOGGING_LEVEL", "error")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from composio import Composio
                from composio_langchain import LangchainProvider
        except ImportError as exc:
            self.composio_missing = f"not installed ({exc}); bash scripts/bench.sh installs it"
            return
        sdk = Composio(
            provider=LangchainProvider(),
            api_key=API_KEY,
            base_url=base_url,
            allow_tracking=False,  # no telemetry: nothing may leave this machine
        )
        session = sdk.create(user_id="bench-user", toolkits=["notes"], preload={"tools": [SLUG]})
        found = [tool for tool in session.tools() if tool.name == SLUG]
        if not found:
            self.composio_missing = f"its session listed no {SLUG}"
            return
        self.composio = found[0]


# -- timing ------------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _rotate(names: list[str], by: int) -> list[str]:
    by %= len(names)
    return names[by:] + names[:by]


def _time_sync(call: SyncCall, n: int, out: list[float]) -> None:
    clock = time.perf_counter
    for _ in range(n):
        start = clock()
        call()
        out.append(clock() - start)


async def _time_async(call: AsyncCall, n: int, out: list[float]) -> None:
    clock = time.perf_counter
    for _ in range(n):
        start = clock()
        await call()
        out.append(clock() - start)


def _time_threads(pool: ThreadPoolExecutor, call: SyncCall, per_thread: int) -> float:
    """Seconds per call with THREADS threads calling at once (wall time / calls)."""
    barrier = threading.Barrier(THREADS + 1)

    def worker() -> None:
        barrier.wait()
        for _ in range(per_thread):
            call()

    futures = [pool.submit(worker) for _ in range(THREADS)]
    barrier.wait()
    start = time.perf_counter()
    for future in futures:
        future.result()
    return (time.perf_counter() - start) / (THREADS * per_thread)


def run(settings: Settings, with_composio: bool) -> dict[str, Any]:
    load_before = os.getloadavg() if hasattr(os, "getloadavg") else None
    server = EmulatorProcess()
    loop = asyncio.new_event_loop()
    contenders = Contenders(server.base_url)
    try:
        if with_composio:
            contenders.add_composio(server.base_url)
        else:
            contenders.composio_missing = "left out (--no-composio)"
        loop.run_until_complete(contenders.open_async())
        sync_calls = contenders.sync_calls()
        async_calls = contenders.async_calls()
        threaded = contenders.threaded_calls()
        names = [*sync_calls, *async_calls, *threaded]
        samples: dict[str, list[list[float]]] = {name: [] for name in names}  # per round

        for call in sync_calls.values():
            _time_sync(call, settings.warmup, [])
        for acall in async_calls.values():
            loop.run_until_complete(_time_async(acall, settings.warmup, []))

        order = [*sync_calls, *async_calls]
        with ThreadPoolExecutor(THREADS) as pool:
            for call in threaded.values():
                _time_threads(pool, call, 1)
            for round_no in range(settings.rounds):
                for name in _rotate(order, round_no):
                    batch: list[float] = []
                    if name in sync_calls:
                        _time_sync(sync_calls[name], settings.batch, batch)
                    else:
                        loop.run_until_complete(
                            _time_async(async_calls[name], settings.batch, batch)
                        )
                    samples[name].append(batch)
                for name in _rotate(list(threaded), round_no):
                    per_call = _time_threads(pool, threaded[name], settings.thread_calls)
                    samples[name].append([per_call])
        loop.run_until_complete(contenders.close_async())
    finally:
        contenders.close()
        loop.close()
        server.stop()
    load_after = os.getloadavg() if hasattr(os, "getloadavg") else None
    return _report_data(settings, samples, contenders.composio_missing, load_before, load_after)


def _round_ratios(rounds: list[list[float]], floor: list[list[float]]) -> list[float]:
    """Contender / floor, round by round (the medians of the two batches of each round)."""
    return [
        statistics.median(ours) / statistics.median(base)
        for ours, base in zip(rounds, floor, strict=True)
    ]


def _report_data(
    settings: Settings,
    samples: dict[str, list[list[float]]],
    composio_missing: str | None,
    load_before: tuple[float, float, float] | None,
    load_after: tuple[float, float, float] | None,
) -> dict[str, Any]:
    stats: dict[str, dict[str, Any]] = {}
    for name, rounds in samples.items():
        values = [value for batch in rounds for value in batch]
        if not values:
            continue
        stats[name] = {
            "median_us": statistics.median(values) * 1e6,
            "p90_us": _pct(values, 0.9) * 1e6,
            "samples": len(values),
        }
        floor = _floor_of(name)
        if floor is not None and samples.get(floor):
            ratios = _round_ratios(rounds, samples[floor])
            stats[name]["vs_floor"] = {
                "floor": floor,
                "median": statistics.median(ratios),
                "p10": _pct(ratios, 0.1),
                "p90": _pct(ratios, 0.9),
            }
    targets = []
    for label, ours, floor, bound, kind in TARGETS:
        ratios = _round_ratios(samples[ours], samples[floor])
        ratio, low, high = statistics.median(ratios), _pct(ratios, 0.1), _pct(ratios, 0.9)
        if kind == "min":  # throughput: the inverse of the time ratio (higher is better)
            ratio, low, high = 1 / ratio, 1 / high, 1 / low
        passed = ratio <= bound if kind == "max" else ratio >= bound
        targets.append(
            {
                "target": label,
                "ratio": ratio,
                "p10": low,
                "p90": high,
                "bound": f"{'<=' if kind == 'max' else '>='} {bound:.2f}x",
                "verdict": ("PASS" if passed else "FAIL") if settings.judged else None,
            }
        )
    return {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "mode": "full" if settings is FULL else "quick" if settings is QUICK else "smoke",
        "settings": settings.__dict__,
        "python": platform.python_version(),
        "machine": run_facts(),
        "versions": _versions(),
        "load_avg_before": load_before,
        "load_avg_after": load_after,
        "stats": stats,
        "targets": targets,
        "composio_missing": composio_missing,
    }


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _versions() -> dict[str, str]:
    packages = ("langchain-toolrouter", "langchain-core", "httpx", "composio-langchain")
    return {name: found for name in packages if (found := _version(name)) is not None}


# -- report ------------------------------------------------------------------------------------

_LABELS = {
    "raw": "raw httpx.Client.post",
    "client": "ToolRouterClient.execute",
    "bare": "bare StructuredTool.invoke",
    "tool": "our tool.invoke",
    "composio": "composio-langchain invoke",
    "araw": "raw httpx.AsyncClient.post",
    "aclient": "AsyncToolRouterClient.execute",
    "abare": "bare StructuredTool.ainvoke",
    "atool": "our tool.ainvoke",
    "acomposio": "composio-langchain ainvoke",
    "bare_x8": f"bare StructuredTool, {THREADS} threads",
    "tool_x8": f"our tool, {THREADS} threads",
    "composio_x8": f"composio-langchain, {THREADS} threads",
}


def _floor_of(name: str) -> str | None:
    return {
        "client": "raw",
        "bare": "raw",
        "tool": "bare",
        "composio": "bare",
        "aclient": "araw",
        "abare": "araw",
        "atool": "abare",
        "acomposio": "abare",
        "tool_x8": "bare_x8",
        "composio_x8": "bare_x8",
    }.get(name)


def print_report(data: dict[str, Any]) -> None:
    s = data["settings"]
    before, after = data["load_avg_before"], data["load_avg_after"]
    print(f"== call benchmark ({data['mode']}): {SLUG}, emulator in its own process")
    print(
        f"   {s['rounds']} interleaved rounds x {s['batch']} calls per contender; "
        f"{THREADS} threads x {s['thread_calls']} calls per round for throughput"
    )
    print(
        f"   python {data['python']}; " + ", ".join(f"{k} {v}" for k, v in data["versions"].items())
    )
    if before is not None and after is not None:
        shown = " ".join(f"{v:.2f}" for v in before), " ".join(f"{v:.2f}" for v in after)
        print(f"   load average (1/5/15 min): before {shown[0]}, after {shown[1]}")
    if data["composio_missing"]:
        print(f"   !! composio-langchain not benchmarked: {data['composio_missing']}")
    stats = data["stats"]
    print(f"\n   {'contender':40s} {'median':>9s} {'p90':>9s}  vs its floor (per-round ratios)")
    for name, label in _LABELS.items():
        if name not in stats:
            continue
        row = stats[name]
        versus = ""
        if "vs_floor" in row:
            against = row["vs_floor"]
            floor_label = _LABELS[against["floor"]]
            if name.endswith("_x8"):  # wall time per call: throughput is the inverse
                versus = f"throughput {1 / against['median']:.3f}x {floor_label}"
            else:
                versus = (
                    f"{against['median']:.3f}x {floor_label} "
                    f"(p10-p90 {against['p10']:.2f}-{against['p90']:.2f})"
                )
        print(f"   {label:40s} {row['median_us']:7.0f}us {row['p90_us']:7.0f}us  {versus}")
    print(
        f"   (the {THREADS}-thread rows are wall time / calls of a round: "
        f"{1e6 / stats['tool_x8']['median_us']:.0f} calls/s for our tool)"
    )
    print("\n   target (median of the per-round ratios)       ratio   p10-p90     bound  verdict")
    for row in data["targets"]:
        verdict = row["verdict"] or "not judged (smoke run)"
        print(
            f"   {row['target']:44s} {row['ratio']:6.3f}x {row['p10']:4.2f}-{row['p90']:4.2f}"
            f"  {row['bound']:>9s}  {verdict}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="fewer rounds (about a minute)")
    mode.add_argument("--smoke", action="store_true", help="every code path, nothing judged")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--no-composio", action="store_true", help="leave composio-langchain out even if installed"
    )
    args = parser.parse_args(argv)
    settings = SMOKE if args.smoke else QUICK if args.quick else FULL
    data = run(settings, with_composio=not args.no_composio)
    print_report(data)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
