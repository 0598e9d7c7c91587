"""What choosing a user's session costs a per-user tool call, beside the call itself.

A per-user tool (`ToolRouter.per_user_tools`) finds the run's user and that user's session on
every call. This measures, in one run and interleaved:

* `resolve`: finding the user in the run's config and their kept session (a cache hit), alone;
* `session tool`: `invoke` of a session's own `NOTES_KV_GET` tool;
* `per-user tool`: `invoke` of the per-user list's `NOTES_KV_GET`, for a user whose session is
  kept (so it pays exactly one `resolve` more).

The emulator runs in its own process (uvicorn), so its latency is not measured as ours. Medians
and p90 per contender, the load average, and the goal (resolve < 20 us on a cache hit).

    python benchmarks/bench_per_user.py            # ~1 min
    python benchmarks/bench_per_user.py --smoke    # seconds: every path, nothing judged
    python benchmarks/bench_per_user.py --json out.json   # the figures in a file too
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.runnables.config import var_child_runnable_config

from langchain_toolrouter import ToolRouter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import run_facts

GOAL_US = 20.0
KEY = "NOTES_KV_GET"
OPTIONS: dict[str, Any] = {"toolkits": ["notes"], "preload": ["NOTES_KV_SET", KEY]}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def emulator() -> Iterator[str]:
    """The emulator app under uvicorn in a process of its own; yields its base URL."""
    port = free_port()
    code = (
        "import uvicorn\n"
        "from langchain_toolrouter.emulator import create_app\n"
        f"uvicorn.run(create_app(), host='127.0.0.1', port={port}, log_level='warning')\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the emulator did not start") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    """Microseconds per call of `fn`, `repeat` samples."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="interleaved rounds")
    parser.add_argument("--calls", type=int, default=50, help="calls per contender per round")
    parser.add_argument("--smoke", action="store_true", help="every path once; nothing judged")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    rounds, calls = (2, 3) if args.smoke else (args.rounds, args.calls)

    with emulator() as base_url:
        router = ToolRouter(api_key="ak_emulator_local", base_url=base_url)
        session = router.create_session("bench-session-user", **OPTIONS)
        session.execute("NOTES_KV_SET", {"key": "k", "value": 1})
        own = session.get_tools()[KEY]
        per_user = router.per_user_tools(**OPTIONS)
        shared = per_user[KEY]
        user_config: Any = {"configurable": {"user_id": "bench-user"}}
        shared.invoke({"key": "k"}, config=user_config)  # makes and keeps bench-user's session
        executor: Any = shared.executor

        def resolve() -> None:
            token = var_child_runnable_config.set(user_config)
            try:
                for _ in range(calls):
                    executor._sessions.session(executor._user())
            finally:
                var_child_runnable_config.reset(token)

        contenders: dict[str, Callable[[], Any]] = {
            "session tool": lambda: own.invoke({"key": "k"}),
            "per-user tool": lambda: shared.invoke({"key": "k"}, config=user_config),
        }
        results: dict[str, list[float]] = {"resolve": [], **{name: [] for name in contenders}}
        for _ in range(rounds):
            results["resolve"].extend(s / calls for s in timed(resolve, 1))
            for name, fn in contenders.items():
                results[name].extend(timed(fn, calls))
        router.close()

    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}  (2 cores shared)")
    print(f"{'contender':<16}{'median us':>12}{'p90 us':>12}")
    for name, values in results.items():
        print(f"{name:<16}{statistics.median(values):>12.1f}{p90(values):>12.1f}")
    hit = statistics.median(results["resolve"])
    call = statistics.median(results["session tool"])
    extra = statistics.median(results["per-user tool"]) - call
    print(
        f"\nresolve on a cache hit: {hit:.1f} us median = {hit / call:.2%} of a session tool "
        f"call ({call:.0f} us); per-user minus session tool: {extra:+.1f} us (noise included)"
    )
    verdict = None if args.smoke else "PASS" if hit < GOAL_US else "FAIL"
    print(f"goal: resolve < {GOAL_US:.0f} us on a cache hit: {verdict or 'not judged (smoke run)'}")
    if args.json:
        figures = {
            "mode": "smoke" if args.smoke else "full",
            "rounds": rounds,
            "calls": calls,
            "machine": run_facts(),
            "results": {
                name: {"median_us": statistics.median(values), "p90_us": p90(values)}
                for name, values in results.items()
            },
            "goal_us": GOAL_US,
            "verdict": verdict,
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
