"""A 5,000-tool session against the emulator: create it, list every page, load it as tools.

The emulator runs in a process of its own (``EmulatorServer`` over a catalog of 50 toolkits of
100 tools, each with a plain JSON Schema of its own), so its work is not mixed with the client's.
Each round times every contender once, in a shuffled order (seeded), after a garbage
collection, so none pays for another's garbage or always runs first; rounds are repeated:

- ``raw httpx walk``: ``httpx.Client.get`` of every page of ``GET .../tools`` (limit 500),
  each answer parsed with ``.json()``: the floor of a listing;
- ``raw httpx, unparsed``: the same requests (cursors taken from a first walk), bodies read
  but not parsed: what the emulator and the transport take, without the client's JSON parsing;
- ``client.iter_tools``: the same pages through our low-level client (parsed into the wire
  models);
- ``session.get_tools()``: the same pages made into LangChain tools by the library;
- ``raw httpx create`` and ``create_session``: creating a session that preloads every tool,
  raw and through the library.

It prints medians and p90s, each contender's median as a ratio of its raw floor, and the load
average before and after. Absolute times move with the machine's load; the ratios, measured
side by side, are what to compare between runs.

Usage: ``python benchmarks/bench_listing.py [--tools 5000] [--rounds 7] [--json out.json]``;
``--smoke`` is a seconds-long run of every code path on 200 tools (``tests/test_benchmark_smoke``
runs it).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from _machine import run_facts

PER_TOOLKIT = 100
PAGE = 500
USER = "bench-user"


# --------------------------------------------------------------------------- the catalog


def _property(rng: random.Random, index: int, depth: int) -> dict[str, Any]:
    kind = rng.choice(["string", "string", "integer", "boolean", "enum", "array", "object"])
    description = f"Parameter {index}: " + " ".join(
        rng.choice(["the", "id", "name", "of", "record", "filter", "page", "owner", "date"])
        for _ in range(rng.randint(4, 12))
    )
    if kind == "string":
        schema: dict[str, Any] = {"type": "string", "maxLength": rng.choice([64, 256, 1024])}
        if rng.random() < 0.3:
            schema["format"] = rng.choice(["date-time", "email", "uri"])
    elif kind == "integer":
        schema = {"type": "integer", "minimum": 0, "maximum": rng.choice([100, 1000, 10**6])}
    elif kind == "boolean":
        schema = {"type": "boolean", "default": False}
    elif kind == "enum":
        schema = {"type": "string", "enum": [f"v{i}" for i in range(rng.randint(2, 6))]}
    elif kind == "array":
        schema = {"type": "array", "items": {"type": "string"}, "maxItems": 50}
    elif depth < 2:
        props = {f"f{i}": _property(rng, i, depth + 1) for i in range(rng.randint(2, 4))}
        schema = {"type": "object", "properties": props, "required": [next(iter(props))]}
    else:
        schema = {"type": "string"}
    return {**schema, "title": f"P{index}", "description": description}


def tool_schema(rng: random.Random) -> dict[str, Any]:
    """A tool input schema of 4-14 parameters, about 1-2 KB of JSON."""
    props = {f"param_{i}": _property(rng, i, 0) for i in range(rng.randint(4, 14))}
    required = sorted(rng.sample(sorted(props), k=rng.randint(1, min(3, len(props)))))
    return {"type": "object", "properties": props, "required": required}


def toolkit_slugs(tools: int) -> list[str]:
    """The toolkits of a catalog of `tools` tools."""
    return [f"bench{k:02d}" for k in range(-(-tools // PER_TOOLKIT))]


def big_catalog(tools: int) -> Any:
    """`tools` tools in toolkits of 100, each tool with its own JSON Schema."""
    from langchain_toolrouter.emulator.catalog import Catalog, CatalogTool, Toolkit

    def run(ctx: Any, args: dict[str, Any]) -> dict[str, Any]:
        return {"echo": args}

    rng = random.Random(5000)
    toolkits = []
    for k, slug in enumerate(toolkit_slugs(tools)):
        count = min(PER_TOOLKIT, tools - k * PER_TOOLKIT)
        kit_tools = tuple(
            CatalogTool(
                slug=f"{slug.upper()}_ACTION_{i:03d}",
                name=f"Action {i} of {slug}",
                description=f"Runs action {i} of the {slug} benchmark toolkit on a record.",
                toolkit=slug,
                run=run,
                input_schema=tool_schema(rng),
            )
            for i in range(count)
        )
        toolkits.append(
            Toolkit(
                slug=slug,
                name=f"Bench {k}",
                description=f"Benchmark toolkit {k}.",
                no_auth=True,
                upstream=f"https://{slug}.emulator.example",
                tools=kit_tools,
                init_state=lambda user_id: {},
                auth_scheme="NO_AUTH",
            )
        )
    return Catalog(toolkits)


def serve(tools: int) -> None:
    """The server process: an EmulatorServer over the big catalog until stdin closes."""
    from langchain_toolrouter.emulator import EmulatorServer, create_app

    with EmulatorServer(app=create_app(catalog=big_catalog(tools))) as server:
        print(f"READY {server.base_url} {server.api_key}", flush=True)
        sys.stdin.read()


# --------------------------------------------------------------------------- the run


def _timed(run: Callable[[], Any]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def _stats(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return {"median_s": statistics.median(ordered), "p90_s": p90, "runs": len(ordered)}


def measure(tools: int, rounds: int) -> dict[str, Any]:
    """Start the server process, run the rounds, stop it; the figures as a dict."""
    import httpx

    from langchain_toolrouter import ToolRouter, ToolRouterClient

    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(tools)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        ready = child.stdout.readline().split()
        if not ready or ready[0] != "READY":
            raise RuntimeError(f"the emulator process did not start: {ready}")
        base_url, api_key = ready[1], ready[2]
        headers = {"x-api-key": api_key}
        load_before = os.getloadavg()
        with (
            httpx.Client(base_url=base_url, headers=headers, timeout=60) as http,
            ToolRouterClient(api_key=api_key, base_url=base_url) as client,
            ToolRouter(api_key=api_key, base_url=base_url) as router,
        ):
            kits = toolkit_slugs(tools)
            config = {"user_id": USER, "toolkits": {"enable": kits}, "preload": {"tools": "all"}}
            session_id = http.post("/api/v3/tool_router/session", json=config).json()["session_id"]
            session = router.get_session(session_id)
            path = f"/api/v3/tool_router/session/{session_id}/tools"

            def raw_walk() -> int:
                count, cursor = 0, None
                while True:
                    params: dict[str, Any] = {"limit": PAGE}
                    if cursor:
                        params["cursor"] = cursor
                    page = http.get(path, params=params).json()
                    count += len(page["items"])
                    cursor = page.get("next_cursor")
                    if not cursor:
                        return count

            listed = raw_walk()
            cursors: list[str | None] = [None]
            while True:
                params = {"limit": PAGE, **({"cursor": cursors[-1]} if cursors[-1] else {})}
                following = http.get(path, params=params).json().get("next_cursor")
                if not following:
                    break
                cursors.append(following)

            def unparsed_walk() -> int:
                size = 0
                for cursor in cursors:
                    params = {"limit": PAGE, **({"cursor": cursor} if cursor else {})}
                    size += len(http.get(path, params=params).content)
                return size

            assert listed == len(session.raw.tool_router_tools), listed
            contenders: dict[str, Callable[[], Any]] = {
                "raw httpx walk": raw_walk,
                "raw httpx, unparsed": unparsed_walk,
                "client.iter_tools": lambda: list(client.iter_tools(session_id, limit=PAGE)),
                "session.get_tools()": session.get_tools,
                "raw httpx create": lambda: http.post("/api/v3/tool_router/session", json=config),
                "create_session": lambda: router.create_session(USER, toolkits=kits, preload="all"),
            }
            for run in contenders.values():  # warm up: imports, pools, caches
                run()
            times: dict[str, list[float]] = {name: [] for name in contenders}
            order = list(contenders)
            shuffle = random.Random(7).shuffle
            for _ in range(rounds):
                shuffle(order)
                for name in order:
                    gc.collect()
                    times[name].append(_timed(contenders[name]))
            page_bytes = len(http.get(path, params={"limit": PAGE}).content)
        load_after = os.getloadavg()
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait(timeout=30)
    stats = {name: _stats(values) for name, values in times.items()}
    floors = {
        "raw httpx, unparsed": "raw httpx walk",
        "client.iter_tools": "raw httpx walk",
        "session.get_tools()": "raw httpx walk",
        "create_session": "raw httpx create",
    }
    for name, floor in floors.items():
        stats[name]["ratio"] = stats[name]["median_s"] / stats[floor]["median_s"]
    return {
        "tools": tools,
        "listed": listed,
        "pages": -(-listed // PAGE),
        "page_bytes": page_bytes,
        "rounds": rounds,
        "load_before": load_before,
        "load_after": load_after,
        "python": platform.python_version(),
        "machine": run_facts(),
        "results": stats,
    }


def report(figures: dict[str, Any]) -> str:
    lines = [
        f"{figures['listed']} tools listed in {figures['pages']} pages of up to {PAGE} "
        f"(a full page is {figures['page_bytes'] / 1e6:.2f} MB); {figures['rounds']} rounds, "
        f"Python {figures['python']}",
        f"load average before {figures['load_before'][0]:.2f}, after "
        f"{figures['load_after'][0]:.2f}",
        "",
        f"{'contender':<22}{'median':>10}{'p90':>10}{'vs floor':>10}",
    ]
    for name, stat in figures["results"].items():
        ratio = f"{stat['ratio']:.2f}x" if "ratio" in stat else "floor"
        lines.append(
            f"{name:<22}{stat['median_s'] * 1000:>8.0f}ms{stat['p90_s'] * 1000:>8.0f}ms{ratio:>10}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=5000, help="app tools in the session")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--smoke", action="store_true", help="200 tools, 1 round: nothing judged")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve)
        return 0
    tools, rounds = (200, 1) if args.smoke else (args.tools, args.rounds)
    figures = {"mode": "smoke" if args.smoke else "full", **measure(tools, rounds)}
    print(report(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
