"""`ToolRouterMiddleware` on a 5,000-tool catalog: what the model receives, what the service is
asked, what a turn costs, and whether the right tool is among those the model sees.

The emulator runs in a process of its own (`EmulatorServer`, one per catalog, in one child
process that also answers "what did you see" from its request log). The catalogs:

- **apps**: 25 generated apps of 200 tools each (`_app_catalog.py`: Slack, Jira, Stripe, ...,
  20 kinds of object x 10 actions, names, descriptions and parameters in the service's style),
  plus the emulator's own GitHub, Gmail, calendar and notes toolkits (20 tools);
- **built-in**: the emulator's own catalog alone;
- **bfcl**: BFCL v4's functions (`_bfcl.py`, from `pip install --no-deps bfcl-eval`), in one
  toolkit, and again in one toolkit per BFCL category (the search benchmark cuts these further,
  into toolkits of at most 100); a tool's slug is its function's name.

Measured, in one run:

1. **Schema bytes per model call**, in the JSON that `bind_tools` sends: each bound tool
   converted with `convert_to_openai_tool`, the list serialized as compact UTF-8 JSON. Three
   setups: the 5,000 app tools bound as the library's typed tools (a session preloading them
   all), the meta tools only (a session without preload), and the middleware (`top_k=8`), per
   model call of real turns (its first message, and the largest call of a thread whose kept
   tools have grown). Goal: the middleware's at most 1% of binding all.
2. **Service requests per user message**, from the emulator's request log: one thread of
   messages whose scripted model makes 2, 3 or 5 model calls each (1, 2 or 4 tool calls).
   Goal: 1 search plus the calls, whatever the number of model calls.
3. **Overhead of a turn**: a `create_agent` agent with the middleware against a bare
   `create_agent` whose tools are the same selected tools, already registered (the library's
   session tools), same scripted model and calls, on a session cache hit, interleaved rounds.
   The search is excluded by starting each middleware turn from a state where the user message
   is already searched (`toolrouter_searched` is its id, `toolrouter_tools` the tools found):
   what the middleware does on a turn's every model call and tool call. A turn with its search
   (a new message) and the search request alone are timed in the same rounds, for reference,
   and so is a bare agent with a middleware whose hooks (before the model, around model and
   tool calls) pass straight through: what LangGraph charges any such middleware. Sync and
   async. Goal: at most 1.10x (the median of the per-round ratios). The Python function calls
   of a turn (cProfile), which the machine's load does not move, are counted too.
4. **The selection**: for labelled requests, the share whose right tool is among the tools the
   model sees on its first call (through the agent), beside a plain Okapi BM25 (k1 1.5,
   b 0.75, lower-cased words, no stemming or stopwords) over the same catalog's tool text
   (slug, name, toolkit, description), its top 8. Sets: the everyday requests of
   `search_everyday.jsonl` (GitHub, Gmail, calendar, notes; any listed tool is right) over
   the built-in catalog and among the 5,000 generated tools; BFCL v4 (every function the
   request calls must be there; "by name": a tool of the same function name counts).

The scripted model's `bind_tools` converts and serializes every tool, as a provider's chat
model does on each call. Load average before and after; `--json` writes every figure as a flat
record.

    python benchmarks/bench_middleware.py                  # ~3-6 min
    python benchmarks/bench_middleware.py --quick          # fewer rounds and requests
    python benchmarks/bench_middleware.py --smoke --json out.json   # seconds, nothing judged
    bash scripts/bench.sh middleware
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))

import _bfcl  # noqa: E402
from _app_catalog import APPS, GeneratedTool, app_catalog, generated_tools, plural  # noqa: E402
from _machine import run_facts  # noqa: E402

EVERYDAY = HERE / "search_everyday.jsonl"
USER = "bench-user"
TOP_K = 8
BUILT_IN = ("github", "gmail", "googlecalendar", "notes")
SELECTIONS = (
    "everyday built-in",
    "everyday among the 5,000",
    "bfcl",
    "bfcl, a toolkit per category",
)
GOALS = {"bytes_share_pct": 1.0, "turn_ratio": 1.10}


@dataclass(frozen=True)
class Settings:
    """How much work a run does."""

    mode: str
    apps: int  # generated apps of 200 tools
    messages: int  # user messages in the request-count thread (per face)
    rounds: int
    repeats: int  # turns per contender per round (a round times one request)
    requests: int  # different requests timed
    everyday: int  # everyday requests scored (0: all)
    bfcl: int  # BFCL requests per category (0: all)
    judged: bool = True


FULL = Settings("full", apps=25, messages=9, rounds=240, repeats=1, requests=4, everyday=0, bfcl=0)
QUICK = Settings(
    "quick", apps=25, messages=6, rounds=60, repeats=1, requests=4, everyday=0, bfcl=25
)
SMOKE = Settings(
    "smoke", apps=2, messages=3, rounds=4, repeats=1, requests=2, everyday=8, bfcl=2, judged=False
)


# --------------------------------------------------------------------------- the emulator


def serve(catalogs: list[str]) -> None:
    """The child process: one `EmulatorServer` per catalog; answers `log NAME` on stdin with
    the requests that server saw since the last `log` (operation and status), then forgets
    them; stops when stdin closes."""
    from langchain_toolrouter.emulator import EmulatorServer, create_app
    from langchain_toolrouter.emulator.catalog import default_catalog

    servers: dict[str, Any] = {}
    for spec in catalogs:
        name, _, argument = spec.partition(":")
        if name == "apps":
            catalog = app_catalog(int(argument))
        elif name == "built-in":
            catalog = default_catalog()
        else:
            data, _, limit = argument.rpartition(":")
            dataset = _bfcl.load(Path(data), int(limit))
            catalog = bfcl_served(dataset, by_category=name == "bfcl-kits").catalog
        app = create_app(catalog=catalog, log_size=100_000)
        servers[name] = EmulatorServer(app=app).start()
        print(f"READY {name} {servers[name].base_url} {servers[name].api_key}", flush=True)
    print("SERVING", flush=True)
    for line in sys.stdin:
        command, _, name = line.strip().partition(" ")
        if command == "log":
            log = servers[name].log
            seen = [[r.operation, r.status] for r in log.records]
            log.clear()
            print(json.dumps(seen), flush=True)
    for server in servers.values():
        server.stop()


class Emulators:
    """The child process serving the catalogs; `base_url[name]`, `requests(name)`."""

    def __init__(self, catalogs: list[str]) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", *catalogs],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._proc.stdout is not None
        self.base_url: dict[str, str] = {}
        self.api_key = ""
        while (line := self._proc.stdout.readline().split()) != ["SERVING"]:
            if not line or line[0] != "READY":
                self.close()
                raise RuntimeError(f"the emulator process did not start: {line}")
            self.base_url[line[1]], self.api_key = line[2], line[3]

    def requests(self, name: str) -> list[tuple[str, int | None]]:
        """The requests the `name` server saw since the last call (operation, status)."""
        assert self._proc.stdin is not None
        assert self._proc.stdout is not None
        self._proc.stdin.write(f"log {name}\n")
        self._proc.stdin.flush()
        return [(op, status) for op, status in json.loads(self._proc.stdout.readline())]

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()


# --------------------------------------------------------------------------- the model


def schema_bytes(tools: Sequence[Any]) -> int:
    """Bytes of the `tools` list a provider's request carries for these tools."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    converted = [convert_to_openai_tool(tool) for tool in tools]
    return len(json.dumps(converted, separators=(",", ":"), ensure_ascii=False).encode())


def sample_value(schema: dict[str, Any]) -> Any:
    """A valid value for a (simple) JSON Schema: what the scripted model fills in."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return False
    if kind == "array":
        return [sample_value(schema.get("items") or {})] * int(schema.get("minItems", 0))
    if kind == "object":
        return sample_args(schema)
    formats = {
        "email": "dana@example.com",
        "date": "2026-12-01",
        "uri": "https://example.com",
        "date-time": "2026-12-01T09:00:00Z",
    }
    if "pattern" in schema:
        return "#1f883d"
    return formats.get(schema.get("format", ""), "4821")


def sample_args(parameters: dict[str, Any]) -> dict[str, Any]:
    """Arguments for every required parameter."""
    properties = parameters.get("properties") or {}
    return {
        name: sample_value(properties.get(name) or {}) for name in parameters.get("required", [])
    }


class BindLog:
    """What each `bind_tools` of the scripted model received: tool count, bytes, names."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, list[str]]] = []

    def take(self) -> list[tuple[int, int, list[str]]]:
        taken, self.calls = self.calls, []
        return taken


def planner(log: BindLog, plan: dict[str, tuple[str, int]]) -> Any:
    """A scripted chat model. For a user message whose `plan` is `(tool, n)` it makes `n` tool
    calls, one per model call (`tool` first when it was bound, then the other tools in the
    order bound, with arguments for their required parameters), then answers; for any other
    message it answers at once. Its `bind_tools` converts and serializes the tools as a
    provider's chat model does, and logs them."""
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import ConfigDict, Field

    class Planner(BaseChatModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        bound: list[dict[str, Any]] = Field(default_factory=list)

        @property
        def _llm_type(self) -> str:
            return "planner"

        def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
            converted = [convert_to_openai_tool(tool)["function"] for tool in tools]
            size = len(
                json.dumps(
                    [{"type": "function", "function": f} for f in converted],
                    separators=(",", ":"),
                    ensure_ascii=False,
                ).encode()
            )
            log.calls.append((len(converted), size, [f["name"] for f in converted]))
            return self.model_copy(update={"bound": converted})

        def _reply(self, messages: list[Any]) -> AIMessage:
            start = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
            done = sum(1 for m in messages[start:] if isinstance(m, AIMessage) and m.tool_calls)
            first, calls = plan.get(str(messages[start].content), ("", 0))
            if done >= calls or not self.bound:
                return AIMessage(content="done")
            order = sorted(self.bound, key=lambda f: f["name"] != first)
            function = order[done % len(order)]
            call = {
                "name": function["name"],
                "args": sample_args(function.get("parameters") or {}),
                "id": f"call_{uuid.uuid4().hex[:12]}",
                "type": "tool_call",
            }
            return AIMessage(content="", tool_calls=[call])

        def _generate(self, messages: list[Any], stop: Any = None, **kwargs: Any) -> ChatResult:
            return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

        async def _agenerate(
            self, messages: list[Any], stop: Any = None, **kwargs: Any
        ) -> ChatResult:
            return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    return Planner()


# --------------------------------------------------------------------------- requests


_ASK = {
    "create": "create a new {thing} in {app} named launch plan",
    "get": "get the details of {app} {thing} 4821",
    "list": "list my {app} {things}",
    "update": "update the {app} {thing} 4821 and rename it to final",
    "delete": "delete the {thing} 4821 from {app}",
    "search": "search my {app} {things} for the quarterly report",
    "archive": "archive the old {thing} 4821 in {app}",
    "share": "share the {app} {thing} 4821 with dana@example.com",
    "export": "export all my {app} {things} as a csv file",
    "activity": "who changed the {app} {thing} 4821 recently",
}


def ask(tool: GeneratedTool) -> str:
    """A user's request for `tool`."""
    app = APPS[tool.toolkit][0]
    return _ASK[tool.action].format(app=app, thing=tool.thing, things=plural(tool.thing))


def spread(tools: list[GeneratedTool], count: int) -> list[GeneratedTool]:
    """`count` tools spread over apps, objects and actions (the same every run)."""
    step = max(1, len(tools) // count + 7)
    return [tools[(i * step) % len(tools)] for i in range(count)]


# --------------------------------------------------------------------------- 1 and 2


def config(user: str, thread: str | None = None) -> dict[str, Any]:
    given = {"user_id": user, **({"thread_id": thread} if thread else {})}
    return {"configurable": given}


def ainvoke(agent: Any, given: Any, run: dict[str, Any]) -> Any:
    """`agent.ainvoke` with the run's user in the context too: on Python 3.10 LangGraph hands
    an async middleware hook no config. Every async contender is run so, alike."""
    return agent.ainvoke(given, run, context={"user_id": run["configurable"]["user_id"]})


def turns_and_requests(
    emulators: Emulators, settings: Settings, router: Any, apps: list[str]
) -> dict[str, Any]:
    """Schema bytes of the three setups, and the service requests of each user message."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from langchain_toolrouter import ToolRouterMiddleware

    every = router.create_session(USER, toolkits=apps, preload="all")
    app_tools = [t for t in every.get_tools() if (t.metadata or {}).get("kind") == "app"]
    meta_tools = router.create_session(USER, toolkits=apps).get_tools()
    figures: dict[str, Any] = {
        "tools_all": len(app_tools),
        "bytes_all": schema_bytes(app_tools),
        "tools_meta": len(meta_tools),
        "bytes_meta": schema_bytes(meta_tools),
    }
    emulators.requests("apps")

    tools = spread(generated_tools(settings.apps), settings.messages)
    plan = {ask(tool): (tool.slug, (1, 2, 4)[number % 3]) for number, tool in enumerate(tools)}
    log = BindLog()
    agent = create_agent(
        planner(log, plan),
        middleware=[ToolRouterMiddleware(router, toolkits=apps, top_k=TOP_K)],
        checkpointer=InMemorySaver(),
    )
    per_message: list[dict[str, Any]] = []
    for face in ("sync", "async"):
        run = config(f"{USER}-{face}", f"thread-{face}")
        for number, tool in enumerate(tools):
            n = plan[ask(tool)][1]
            message = {"messages": [("user", ask(tool))]}
            if face == "sync":
                agent.invoke(message, run)
            else:
                asyncio.run(ainvoke(agent, message, run))
            seen = Counter(op for op, _ in emulators.requests("apps"))
            binds = log.take()
            per_message.append(
                {
                    "face": face,
                    "message": number + 1,
                    "model_calls": len(binds),
                    "tool_calls": n,
                    "wanted_seen": tool.slug in binds[0][2],
                    "tools_per_call": [count for count, _, _ in binds],
                    "bytes_per_call": [size for _, size, _ in binds],
                    "requests": dict(seen),
                }
            )
    figures["messages"] = per_message
    first = [m for m in per_message if m["message"] == 1]
    figures["first_call_tools"] = max(m["tools_per_call"][0] for m in first)
    figures["first_call_bytes"] = max(m["bytes_per_call"][0] for m in first)
    calls = [
        (t, b)
        for m in per_message
        for t, b in zip(m["tools_per_call"], m["bytes_per_call"], strict=True)
    ]
    figures["mean_call_bytes"] = statistics.mean(b for _, b in calls)
    figures["largest_call_tools"], figures["largest_call_bytes"] = max(calls)
    return figures


# --------------------------------------------------------------------------- 3


def noop_hooks() -> Any:
    """A middleware with the middleware's hooks (around the model call and around each tool
    call), each passing straight through: what LangGraph charges any such middleware, the floor
    of ours."""
    from langchain.agents.middleware import AgentMiddleware

    class Hooks(AgentMiddleware[Any, Any]):
        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            return handler(request)

        async def awrap_model_call(self, request: Any, handler: Any) -> Any:
            return await handler(request)

        def wrap_tool_call(self, request: Any, handler: Any) -> Any:
            return handler(request)

        async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
            return await handler(request)

    return Hooks()


def overhead(
    emulators: Emulators, settings: Settings, router: Any, apps: list[str]
) -> dict[str, Any]:
    """Turns through the middleware against a bare agent with the same tools, interleaved."""
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage

    from langchain_toolrouter import ToolRouterClient, ToolRouterMiddleware

    tools = spread(generated_tools(settings.apps), settings.requests)
    texts = [ask(tool) for tool in tools]
    log = BindLog()
    model = planner(log, {ask(tool): (tool.slug, 2) for tool in tools})
    agent = create_agent(
        model, middleware=[ToolRouterMiddleware(router, toolkits=apps, top_k=TOP_K)]
    )
    run = config(USER)
    selected = {}
    for text in texts:  # what the middleware selects; its session and tools are made here
        state = agent.invoke({"messages": [("user", text)]}, run)
        selected[text] = list(state["toolrouter_tools"])
    session = router.create_session(USER, toolkits=apps)
    registered = {text: [session.tool(s) for s in selected[text]] for text in texts}
    bare = {text: create_agent(model, tools=registered[text]) for text in texts}
    hooked = {
        text: create_agent(model, tools=registered[text], middleware=[noop_hooks()])
        for text in texts
    }
    for text in texts:
        got = bare[text].invoke({"messages": [("user", text)]}, run)
        assert got["messages"][-1].content == "done", got["messages"][-1]
    client = ToolRouterClient(api_key=emulators.api_key, base_url=emulators.base_url["apps"])

    def searched(text: str) -> dict[str, Any]:
        mid = f"m-{uuid.uuid4().hex[:8]}"
        return {
            "messages": [HumanMessage(text, id=mid)],
            "toolrouter_searched": mid,
            "toolrouter_tools": selected[text],
        }

    sync: dict[str, Callable[[str], Any]] = {
        "bare": lambda text: bare[text].invoke({"messages": [("user", text)]}, run),
        "bare + no-op hooks": lambda text: hooked[text].invoke({"messages": [("user", text)]}, run),
        "middleware": lambda text: agent.invoke(searched(text), run),
        "middleware with its search": lambda text: agent.invoke(
            {"messages": [("user", text)]}, run
        ),
        "search request": lambda text: client.search(session.session_id, text),
    }
    asyncs: dict[str, Callable[[str], Any]] = {
        "bare (async)": lambda text: ainvoke(bare[text], {"messages": [("user", text)]}, run),
        "bare + no-op hooks (async)": lambda text: ainvoke(
            hooked[text], {"messages": [("user", text)]}, run
        ),
        "middleware (async)": lambda text: ainvoke(agent, searched(text), run),
        "middleware with its search (async)": lambda text: ainvoke(
            agent, {"messages": [("user", text)]}, run
        ),
    }
    names = [*sync, *asyncs]
    assert names == list(TIMED)
    rounds: dict[str, list[float]] = {name: [] for name in names}  # seconds per turn, per round
    cpu: dict[str, list[float]] = {name: [] for name in names}  # this process's CPU seconds
    loop = asyncio.new_event_loop()

    def once(name: str, text: str) -> tuple[float, float]:
        """Seconds per turn of `repeats` turns of `text` by contender `name`: wall time and
        this process's CPU time (every thread; the emulator's is in its own process)."""
        started, used = time.perf_counter(), time.process_time()
        for _ in range(settings.repeats):
            if name in sync:
                sync[name](text)
            else:
                loop.run_until_complete(asyncs[name](text))
        wall, spent = time.perf_counter() - started, time.process_time() - used
        return wall / settings.repeats, spent / settings.repeats

    def every_text(name: str) -> None:
        for text in texts:
            once(name, text)

    try:
        for name in names:  # warm up
            every_text(name)
        log.take()
        emulators.requests("apps")
        for number in range(settings.rounds):  # short rounds: one request, every contender
            text, shift = texts[number % len(texts)], number % len(names)
            for name in names[shift:] + names[:shift]:
                wall, spent = once(name, text)
                rounds[name].append(wall)
                cpu[name].append(spent)
            log.take()
        seen = emulators.requests("apps")
        counted = {
            name: python_calls(lambda name=name: every_text(name)) / len(texts) for name in COUNTED
        }
        log.take()
    finally:
        loop.close()
        client.close()
    failed = [(op, status) for op, status in seen if status != 200]
    result: dict[str, Any] = {
        "requests": texts,
        "selected": selected,
        "failed_requests": len(failed),
        "requests_seen": dict(Counter(op for op, _ in seen)),
        "searching_turns": 2 * settings.rounds * settings.repeats,
        "python_calls_per_turn": counted,
    }
    for name, times in rounds.items():
        result[name] = {
            "median_ms": statistics.median(times) * 1e3,
            "p90_ms": _p90(times) * 1e3,
            "cpu_median_ms": statistics.median(cpu[name]) * 1e3,
        }
    for name, floor in PAIRS:
        result[f"{name} / {floor}"] = {}
        for kind, seconds in (("wall", rounds), ("cpu", cpu)):
            ratios = [a / b for a, b in zip(seconds[name], seconds[floor], strict=True) if b > 0]
            result[f"{name} / {floor}"][kind] = {
                "median": statistics.median(ratios),
                "p90": _p90(ratios),
            }
    return result


#: (contender, floor): the per-round ratios reported; the judged ones are in GOALS' rows.
PAIRS = (
    ("middleware", "bare"),
    ("middleware (async)", "bare (async)"),
    ("bare + no-op hooks", "bare"),
    ("bare + no-op hooks (async)", "bare (async)"),
    ("middleware", "bare + no-op hooks"),
    ("middleware (async)", "bare + no-op hooks (async)"),
    ("middleware with its search", "bare"),
    ("middleware with its search (async)", "bare (async)"),
)
TIMED = (
    "bare",
    "bare + no-op hooks",
    "middleware",
    "middleware with its search",
    "search request",
    "bare (async)",
    "bare + no-op hooks (async)",
    "middleware (async)",
    "middleware with its search (async)",
)
JUDGED = ("middleware / bare", "middleware (async) / bare (async)")


#: The contenders whose Python function calls per turn are counted (a measure the machine's
#: load does not move).
COUNTED = ("bare", "bare + no-op hooks", "middleware")


def python_calls(run: Callable[[], Any]) -> int:
    """The Python function calls `run()` makes (cProfile's count; C functions included)."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.enable()
    run()
    profile.disable()
    return sum(entry[1] for entry in pstats.Stats(profile).stats.values())  # type: ignore[attr-defined]


def _p90(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]


# --------------------------------------------------------------------------- 4


_PLAIN = re.compile(r"\w+")


class PlainBM25:
    """Okapi BM25 (k1 1.5, b 0.75) over lower-cased words; nothing else."""

    def __init__(self, documents: dict[str, str], k1: float = 1.5, b: float = 0.75) -> None:
        self.keys = list(documents)
        self.docs = [Counter(_PLAIN.findall(documents[key].lower())) for key in self.keys]
        self.lengths = [sum(doc.values()) for doc in self.docs]
        self.average = sum(self.lengths) / max(1, len(self.docs))
        frequency = Counter(word for doc in self.docs for word in doc)
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in frequency.items()}
        self.k1, self.b = k1, b

    def top(self, query: str, k: int) -> list[str]:
        words = [w for w in _PLAIN.findall(query.lower()) if w in self.idf]
        scored = []
        for key, doc, length in zip(self.keys, self.docs, self.lengths, strict=True):
            score = 0.0
            for word in words:
                tf = doc.get(word, 0)
                if tf:
                    norm = self.k1 * (1 - self.b + self.b * length / self.average)
                    score += self.idf[word] * tf * (self.k1 + 1) / (tf + norm)
            if score > 0:
                scored.append((score, key))
        scored.sort(key=lambda item: -item[0])
        return [key for _, key in scored[:k]]


def catalog_text(catalog: Any, toolkits: Sequence[str]) -> dict[str, str]:
    """Each tool's searchable text (slug, name, toolkit, description), for the plain BM25."""
    return {
        tool.slug: f"{tool.slug.replace('_', ' ')} {tool.name} {tool.toolkit} {tool.description}"
        for tool in catalog.tools.values()
        if tool.toolkit in toolkits
    }


@dataclass(frozen=True)
class Labelled:
    """A labelled request: its text, the tools of which it needs `need` ("any" or "all")."""

    text: str
    tools: tuple[str, ...]
    need: str
    names: tuple[str, ...] = ()
    tag: str = ""


def selection(
    router: Any,
    catalog: Any,
    toolkits: Sequence[str],
    labelled: Sequence[Labelled],
    names_of: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The share of `labelled` whose right tool the model sees (middleware, through the agent)
    and the share a plain BM25's top 8 holds."""
    from langchain.agents import create_agent

    from langchain_toolrouter import ToolRouterMiddleware

    log = BindLog()
    agent = create_agent(
        planner(log, {}),
        middleware=[ToolRouterMiddleware(router, toolkits=list(toolkits), top_k=TOP_K)],
    )
    bm25 = PlainBM25(catalog_text(catalog, toolkits))
    run = config(USER)
    hits = {"middleware": 0, "bm25": 0, "middleware by name": 0, "bm25 by name": 0}
    seen_counts: list[int] = []
    misses: list[dict[str, Any]] = []
    by_tag: dict[str, Counter[str]] = {}
    failures: Counter[str] = Counter()
    for item in labelled:
        try:
            agent.invoke({"messages": [("user", item.text)]}, run)
        except Exception as exc:  # the run failed: the model saw nothing; counted and shown
            failures[f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"] += 1
        binds = log.take()  # no bind_tools at all when the middleware found nothing
        seen = set(binds[0][2]) if binds else set()
        seen_counts.append(len(seen))
        top = set(bm25.top(item.text, TOP_K))
        judge = all if item.need == "all" else any
        got = {
            "middleware": judge(t in seen for t in item.tools),
            "bm25": judge(t in top for t in item.tools),
        }
        if names_of is not None:
            seen_names = {names_of.get(s) for s in seen}
            top_names = {names_of.get(s) for s in top}
            got["middleware by name"] = judge(n in seen_names for n in item.names)
            got["bm25 by name"] = judge(n in top_names for n in item.names)
        tally = by_tag.setdefault(item.tag, Counter())
        tally["requests"] += 1
        for name, hit in got.items():
            hits[name] += hit
            tally[name] += hit
        if not got["middleware"] and len(misses) < 12:
            misses.append(
                {
                    "request": item.text[:120],
                    "wanted": list(item.tools),
                    "seen": sorted(seen)[:TOP_K],
                }
            )
    count = len(labelled)
    result: dict[str, Any] = {
        "requests": count,
        "tools_in_catalog": len(catalog_text(catalog, toolkits)),
        "tools_seen_mean": statistics.mean(seen_counts) if seen_counts else 0.0,
        "failed_runs": sum(failures.values()),
        "failures": dict(failures),
        "misses": misses,
    }
    for name, hit in hits.items():
        if names_of is not None or "by name" not in name:
            result[f"{name} pct"] = 100.0 * hit / count if count else 0.0
    if len(by_tag) > 1:
        result["by_tag"] = {
            tag: {
                name: round(100.0 * tally[name] / tally["requests"], 1)
                for name in hits
                if name in tally or "by name" not in name
            }
            | {"requests": tally["requests"]}
            for tag, tally in by_tag.items()
        }
    return result


def everyday_requests(limit: int) -> list[Labelled]:
    rows = [json.loads(line) for line in EVERYDAY.read_text().splitlines() if line.strip()]
    if limit:
        rows = rows[:: max(1, len(rows) // limit)][:limit]
    return [Labelled(row["request"], tuple(row["tools"]), "any") for row in rows]


def bfcl_served(dataset: _bfcl.Dataset, *, by_category: bool) -> _bfcl.Served:
    """BFCL's functions in one toolkit, or in one toolkit per category; slugs without a prefix."""
    groups = _bfcl.toolkits(dataset.functions, size=None) if by_category else [dataset.functions]
    return _bfcl.serve(groups, prefixed=False)


def bfcl_requests(dataset: _bfcl.Dataset, served: _bfcl.Served) -> list[Labelled]:
    """Every request needs all the functions its answer calls (by slug, or by function name)."""
    by_key = dataset.by_key()
    return [
        Labelled(
            q.text,
            served.slugs(q),
            "all",
            tuple(by_key[key].name for key in q.functions),
            "live" if q.live else "non-live",
        )
        for q in dataset.queries
    ]


# --------------------------------------------------------------------------- the run


def machine() -> dict[str, Any]:
    return {
        "arch": platform.machine(),
        "cpus": os.cpu_count(),
        "system": platform.platform(terse=True),
        "python": platform.python_version(),
    }


@contextmanager
def routers(emulators: Emulators, names: Sequence[str]) -> Iterator[dict[str, Any]]:
    from langchain_toolrouter import ToolRouter

    made = {
        name: ToolRouter(api_key=emulators.api_key, base_url=emulators.base_url[name])
        for name in names
    }
    try:
        yield made
    finally:
        for router in made.values():
            router.close()


def measure(settings: Settings, bfcl_dir: Path | None) -> dict[str, Any]:
    from langchain_toolrouter.emulator.catalog import default_catalog

    load_before = os.getloadavg()
    started = datetime.now(timezone.utc)
    catalogs = [f"apps:{settings.apps}", "built-in"]
    if bfcl_dir is not None:
        catalogs += [f"bfcl:{bfcl_dir}:{settings.bfcl}", f"bfcl-kits:{bfcl_dir}:{settings.bfcl}"]
    emulators = Emulators(catalogs)
    figures: dict[str, Any] = {}
    try:
        with routers(emulators, [c.split(":")[0] for c in catalogs]) as made:
            apps = list(APPS)[: settings.apps]
            figures["turns"] = turns_and_requests(emulators, settings, made["apps"], apps)
            figures["overhead"] = overhead(emulators, settings, made["apps"], apps)
            everyday = everyday_requests(settings.everyday)
            figures["everyday built-in"] = selection(
                made["built-in"], default_catalog(), BUILT_IN, everyday
            )
            figures["everyday among the 5,000"] = selection(
                made["apps"], app_catalog(settings.apps), [*BUILT_IN, *apps], everyday
            )
            if bfcl_dir is not None:
                dataset = _bfcl.load(bfcl_dir, settings.bfcl)
                figures["bfcl categories"] = dataset.categories
                for section, by_category in (
                    ("bfcl", False),
                    ("bfcl, a toolkit per category", True),
                ):
                    served = bfcl_served(dataset, by_category=by_category)
                    figures[section] = selection(
                        made["bfcl-kits" if by_category else "bfcl"],
                        served.catalog,
                        sorted(served.catalog.toolkits),
                        bfcl_requests(dataset, served),
                        {slug: function.name for slug, function in served.function_of.items()},
                    )
    finally:
        emulators.close()
    figures["load_before"] = load_before
    figures["load_after"] = os.getloadavg()
    figures["started"] = started.isoformat(timespec="seconds")
    figures["seconds"] = (datetime.now(timezone.utc) - started).total_seconds()
    return figures


def records(settings: Settings, figures: dict[str, Any]) -> list[dict[str, Any]]:
    """Every figure as one flat record: section, figure, value, unit, goal, verdict."""
    out: list[dict[str, Any]] = []

    def add(
        section: str, figure: str, value: Any, unit: str, goal: str = "", passed: bool | None = None
    ) -> None:
        verdict = None
        if passed is not None and settings.judged:
            verdict = "PASS" if passed else "FAIL"
        out.append(
            {
                "section": section,
                "figure": figure,
                "value": value,
                "unit": unit,
                "goal": goal,
                "verdict": verdict,
            }
        )

    turns = figures["turns"]
    add("schema bytes", "all app tools bound", turns["bytes_all"], "bytes")
    add("schema bytes", "all app tools bound: tools", turns["tools_all"], "tools")
    add("schema bytes", "meta tools only", turns["bytes_meta"], "bytes")
    add("schema bytes", "meta tools only: tools", turns["tools_meta"], "tools")
    add(
        "schema bytes",
        "middleware, a thread's first model call",
        turns["first_call_bytes"],
        "bytes",
    )
    add(
        "schema bytes",
        "middleware, a thread's first model call: tools",
        turns["first_call_tools"],
        "tools",
    )
    add(
        "schema bytes", "middleware, mean model call of a thread", turns["mean_call_bytes"], "bytes"
    )
    add(
        "schema bytes",
        "middleware, largest model call of a thread (kept tools)",
        turns["largest_call_bytes"],
        "bytes",
    )
    add(
        "schema bytes",
        "middleware, largest model call: tools",
        turns["largest_call_tools"],
        "tools",
    )
    goal = f"<= {GOALS['bytes_share_pct']:.0f}%"
    for label, key in (
        ("first", "first_call_bytes"),
        ("mean", "mean_call_bytes"),
        ("largest", "largest_call_bytes"),
    ):
        share = 100.0 * turns[key] / turns["bytes_all"]
        add(
            "schema bytes",
            f"middleware {label} model call / all bound",
            share,
            "%",
            goal,
            share <= GOALS["bytes_share_pct"],
        )

    messages = turns["messages"]
    later = [m for m in messages if m["message"] > 1]
    searches = [m["requests"].get("search", 0) for m in messages]
    extra = [
        sum(v for op, v in m["requests"].items() if op not in ("search", "execute")) for m in later
    ]
    add(
        "requests per message",
        "searches per message (max)",
        max(searches),
        "requests",
        "1",
        max(searches) == 1,
    )
    # A search answers with the schemas of its primary tools only: the first time a process
    # meets one of its related tools, one COMPOSIO_GET_TOOL_SCHEMAS request fetches them. The
    # goal is judged on the turns whose tools are all known (the figure after the selection).
    add(
        "requests per message",
        "other requests beyond search and calls (max, after the first)",
        max(extra, default=0),
        "requests",
        "1 the first time a related tool is met, else 0",
    )
    add(
        "requests per message",
        "messages with exactly 1 search + the calls (after the first)",
        sum(
            1
            for m in later
            if m["requests"].get("search", 0) == 1
            and m["requests"].get("execute", 0) == m["tool_calls"]
            and set(m["requests"]) <= {"search", "execute"}
        ),
        "messages",
        f"of {len(later)}; the others met new related tools",
    )

    over = figures["overhead"]
    for name, floor in PAIRS:
        pair = f"{name} / {floor}"
        wall, spent = over[pair]["wall"], over[pair]["cpu"]
        judged = pair in JUDGED
        goal = f"<= {GOALS['turn_ratio']:.2f}x" if judged else ""
        passed = wall["median"] <= GOALS["turn_ratio"] if judged else None
        add(
            "turn overhead",
            f"{pair}: median of per-round ratios",
            wall["median"],
            "x",
            goal,
            passed,
        )
        add("turn overhead", f"{pair}: p90 of per-round ratios", wall["p90"], "x")
        add("turn overhead", f"{pair}: CPU time, median of per-round ratios", spent["median"], "x")
    for name in TIMED:
        add("turn overhead", f"{name}: median CPU time per turn", over[name]["cpu_median_ms"], "ms")
    for name in TIMED:
        add("turn overhead", f"{name}: median turn", over[name]["median_ms"], "ms")
        add("turn overhead", f"{name}: p90 turn", over[name]["p90_ms"], "ms")
    counted = over["python_calls_per_turn"]
    for name in COUNTED:
        add(
            "turn overhead",
            f"{name}: Python function calls per turn (cProfile)",
            round(counted[name]),
            "calls",
        )
    for name in COUNTED[1:]:
        add(
            "turn overhead",
            f"{name} / bare: Python function calls per turn",
            counted[name] / counted["bare"],
            "x",
        )
    fetches = over["requests_seen"].get("execute_meta", 0)
    add(
        "turn overhead",
        "schema fetches (COMPOSIO_GET_TOOL_SCHEMAS) per turn with its search, every tool "
        "found already known",
        fetches / over["searching_turns"],
        "requests",
        "0",
        fetches == 0,
    )

    for section in SELECTIONS:
        if section not in figures:
            continue
        got = figures[section]
        add(f"selection: {section}", "requests", got["requests"], "requests")
        add(f"selection: {section}", "tools in catalog", got["tools_in_catalog"], "tools")
        add(f"selection: {section}", "tools the model sees (mean)", got["tools_seen_mean"], "tools")
        failed = got["failed_runs"]
        add(
            f"selection: {section}",
            "agent runs that failed (misses)",
            failed,
            "runs",
            "0",
            failed == 0,
        )
        for key, value in got.items():
            if key.endswith(" pct"):
                add(f"selection: {section}", f"right tool seen: {key[:-4]}", value, "%")
        for tag, shares in (got.get("by_tag") or {}).items():
            for key, value in shares.items():
                if key != "requests":
                    add(f"selection: {section}", f"right tool seen: {key}, {tag}", value, "%")
    return out


def report(settings: Settings, figures: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    over = figures["overhead"]
    lines = [
        f"== middleware benchmark ({settings.mode}): {figures['turns']['tools_all']} app tools, "
        f"top_k={TOP_K}; emulator in its own process",
        "   load average (1/5/15 min): before "
        + " ".join(f"{v:.2f}" for v in figures["load_before"])
        + ", after "
        + " ".join(f"{v:.2f}" for v in figures["load_after"]),
        f"   turn overhead: {settings.rounds} interleaved rounds (each: one of "
        f"{len(over['requests'])} requests, {settings.repeats} turn(s) per contender, the order "
        "rotated); a turn is 3 model calls and 2 tool calls; the search is excluded by "
        "starting the middleware's turns from a state where the message is already searched",
    ]
    if "bfcl categories" in figures:
        lines.append(f"   BFCL v4 categories: {', '.join(figures['bfcl categories'])}")
    lines.append("")
    section = ""
    for row in rows:
        if row["section"] != section:
            section = row["section"]
            lines.append(f"-- {section}")
        value = row["value"]
        shown = f"{value:,.3f}" if isinstance(value, float) else f"{value:,}"
        goal = f"  goal {row['goal']}" if row["goal"] else ""
        verdict = row["verdict"] or (
            "not judged (smoke run)" if row["goal"] and not settings.judged else ""
        )
        lines.append(f"   {row['figure']:84s} {shown:>12s} {row['unit']:8s}{goal} {verdict}")
    for section in SELECTIONS:
        for failure, count in ((figures.get(section) or {}).get("failures") or {}).items():
            lines.append(f"!! {section}: {count} agent runs failed: {failure}")
        misses = (figures.get(section) or {}).get("misses") or []
        if misses:
            lines.append(f"-- {section}: first misses of the middleware")
            lines.extend(f"   {m['request']!r}: wanted {m['wanted']}" for m in misses[:6])
    messages = figures["turns"]["messages"]
    lines.append("-- requests of each message (face, message, model calls, tool calls: requests)")
    lines.extend(
        f"   {m['face']:5s} {m['message']:2d} {m['model_calls']} {m['tool_calls']}: "
        + ", ".join(f"{op} {n}" for op, n in sorted(m["requests"].items()))
        + f"  (tools bound per model call: {m['tools_per_call']})"
        for m in messages
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="fewer rounds and BFCL requests")
    mode.add_argument("--smoke", action="store_true", help="every code path; nothing judged")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--bfcl-data", type=Path, help="BFCL v4 data folder (default: bfcl-eval's)")
    parser.add_argument("--serve", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve)
        return 0
    settings = SMOKE if args.smoke else QUICK if args.quick else FULL
    bfcl_dir = args.bfcl_data or _bfcl.data_dir()
    if bfcl_dir is None:
        print("!! BFCL left out: pip install --no-deps bfcl-eval (or give --bfcl-data DIR)")
    figures = measure(settings, bfcl_dir)
    rows = records(settings, figures)
    print(report(settings, figures, rows))
    if args.json:
        document = {
            "benchmark": "middleware",
            "date": figures["started"],
            "mode": settings.mode,
            **{f"machine_{k}": v for k, v in machine().items()},
            "machine": run_facts(),
            "load_avg_before": figures["load_before"],
            "load_avg_after": figures["load_after"],
            "seconds": figures["seconds"],
            "settings": asdict(settings),
            "figures": rows,
            "details": {k: v for k, v in figures.items() if k not in ("load_before", "load_after")},
        }
        args.json.write_text(json.dumps(document, indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
