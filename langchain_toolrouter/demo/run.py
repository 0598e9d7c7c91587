"""The demo itself: a small agent does a realistic task through a Tool Router session.

Run it with ``python -m langchain_toolrouter demo``. Without ``COMPOSIO_API_KEY`` it starts the
embedded emulator (the optional ``emulator`` extra) and says so; with the key it talks to the real
service through the same code. Without ``--model`` the agent's chat model is `ScriptedChatModel`;
with ``--model provider:name`` it is the real model from ``init_chat_model``.

The agent loop is written with langchain-core alone (``bind_tools`` and a loop that runs each tool
call), so the demo needs nothing beyond the ``emulator`` extra. Each step prints the
tool, its arguments, its result and the time it took; the links to connect accounts are shown
all at once, then opened for the user on the emulator (a GET, as a browser would) or left to the
user otherwise, and the demo waits until every account is connected.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool

from langchain_toolrouter._config import DEFAULT_BASE_URL
from langchain_toolrouter.errors import (
    AuthenticationError,
    ConfigurationError,
    PermissionDeniedError,
    ToolRouterError,
    TransportError,
)
from langchain_toolrouter.testing import Intent, ScriptedChatModel

__all__ = ["DemoError", "DemoReport", "Printer", "build_scripted_model", "run_demo"]

USER_ID = "demo-user"
TEAM = "web"
TASK = (
    "Find the open issues in my GitHub repository, look up this week's on-call engineer for "
    f"the {TEAM} team, and email them a short summary of those issues."
)
SYSTEM_PROMPT = (
    "You are a helpful assistant with Composio Tool Router tools. Search for the tools you need "
    "with COMPOSIO_SEARCH_TOOLS, connect accounts with COMPOSIO_MANAGE_CONNECTIONS when search "
    "says they are not connected, and run tools with COMPOSIO_MULTI_EXECUTE_TOOL. If a call "
    "fails, read the error, fix the call and try again. Finish with a short summary."
)

# The team's on-call roster: data only this process has, hence a custom (local) tool.
ONCALL_ROSTER: dict[str, dict[str, str]] = {
    "web": {"name": "Dana Rivera", "email": "dana.rivera@example.com", "until": "Sunday 18:00"},
    "api": {"name": "Sam Okafor", "email": "sam.okafor@example.com", "until": "Monday 09:00"},
}


def get_oncall_engineer(team: str) -> dict[str, str]:
    """Look up who is on call this week for an engineering team (web or api).

    Args:
        team: The team's short name, e.g. "web".
    """
    entry = ONCALL_ROSTER.get(team.strip().lower())
    if entry is None:
        known = ", ".join(sorted(ONCALL_ROSTER))
        raise ValueError(f"unknown team {team!r}; known teams: {known}")
    return {"team": team.lower(), **entry}


class DemoError(Exception):
    """The demo cannot run; the message says what is missing and how to fix it."""


# -- the scripted model's plan for the task -------------------------------------------------------


def _items(data: Any, key: str) -> list[dict[str, Any]]:
    """The list under `key` in a tool's data (or the first list of objects found)."""
    if isinstance(data, dict):
        if isinstance(data.get(key), list):
            return [x for x in data[key] if isinstance(x, dict)]
        for value in data.values():
            found = _items(value, key)
            if found:
                return found
    if isinstance(data, list):
        return [x for x in data if isinstance(x, dict)]
    return []


def _first_repo(results: Mapping[str, Any]) -> dict[str, Any]:
    repos = _items(results["repos"], "repositories")
    if not repos:
        return {"owner": {"login": "?"}, "name": "?", "full_name": "?"}
    return repos[0]


def _owner(results: Mapping[str, Any]) -> str:
    owner = _first_repo(results).get("owner")
    return str(owner.get("login") if isinstance(owner, dict) else owner)


def _issue_lines(results: Mapping[str, Any]) -> list[str]:
    issues = _items(results["issues"], "issues")
    return [f"#{i.get('number')} {i.get('title')}" for i in issues] or ["(no open issues)"]


def _oncall(results: Mapping[str, Any]) -> dict[str, Any]:
    data = results["oncall"]
    return data if isinstance(data, dict) else {}


def _email_body(results: Mapping[str, Any]) -> str:
    repo = _first_repo(results).get("full_name", "?")
    name = _oncall(results).get("name", "there")
    lines = "\n".join(f"- {line}" for line in _issue_lines(results))
    return f"Hi {name},\n\nOpen issues in {repo} this week:\n{lines}\n\nThanks!"


def _answer(results: Mapping[str, Any]) -> str:
    oncall = _oncall(results)
    repo = _first_repo(results).get("full_name", "?")
    issues = _issue_lines(results)
    return (
        f"Done. {oncall.get('name')} ({oncall.get('email')}) is on call for the {TEAM} team; "
        f"I emailed them a summary of {len(issues)} open issue(s) in {repo}: "
        + "; ".join(issues)
        + "."
    )


def build_scripted_model() -> ScriptedChatModel:
    """The scripted model for the demo task (slugs come from search, not from this plan)."""
    return ScriptedChatModel(
        stages=[
            [
                Intent("repos", "list the repositories of the authenticated GitHub user"),
                Intent("oncall", "look up this week's on-call engineer for a team", {"team": TEAM}),
            ],
            [
                Intent(
                    "issues",
                    "list open issues in a GitHub repository",
                    {
                        "owner": _owner,
                        "repo": lambda r: _first_repo(r).get("name"),
                        "state": "open",
                    },
                )
            ],
            [
                Intent(
                    "email",
                    "send an email with gmail",
                    {
                        "to": lambda r: _oncall(r).get("email"),
                        "subject": "Open issues this week",
                        "body": _email_body,
                    },
                    guess_first=True,
                )
            ],
        ],
        answer=_answer,
    )


# -- printing -------------------------------------------------------------------------------------


def _short(value: Any, limit: int = 400) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Printer:
    """Readable steps on a stream, and progress for steps that take a while.

    On a terminal a spinner line shows elapsed time; elsewhere (CI logs) a line is printed every
    few seconds, so long steps are visible without flooding the log.
    """

    def __init__(self, stream: IO[str] | None = None, *, width: int = 110) -> None:
        self.stream = stream or sys.stdout
        self.width = width
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def line(self, text: str = "") -> None:
        """Print one line and flush (the demo is watched live)."""
        print(text, file=self.stream, flush=True)

    def heading(self, text: str) -> None:
        """A section heading."""
        self.line()
        self.line(f"== {text}")

    def step(self, number: int, name: str, seconds: float, lines: Sequence[str]) -> None:
        """One tool call: its name and time, then what it was asked and what came back."""
        self.line(f"[{number}] {name}  ({seconds:.2f}s)")
        for text in lines:
            cut = text if len(text) <= self.width else text[: self.width - 1] + "…"
            self.line(f"    {cut}")

    @contextlib.contextmanager
    def progress(self, label: str, *, after: float = 1.0, every: float = 5.0) -> Iterator[None]:
        """Show that `label` is still running once it has taken longer than `after` seconds."""
        done = threading.Event()
        start = time.monotonic()

        def tick() -> None:
            frames = "|/-\\"
            count = 0
            if done.wait(after):
                return
            while not done.is_set():
                elapsed = time.monotonic() - start
                if self.tty:
                    frame = frames[count % len(frames)]
                    self.stream.write(f"\r    {frame} {label} … {elapsed:.0f}s")
                    self.stream.flush()
                    done.wait(0.2)
                else:
                    self.line(f"    … {label} ({elapsed:.0f}s)")
                    done.wait(every)
                count += 1
            if self.tty:
                self.stream.write("\r" + " " * (len(label) + 20) + "\r")
                self.stream.flush()

        thread = threading.Thread(target=tick, name="demo-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()


# -- running ----------------------------------------------------------------------------------------


@dataclass
class DemoReport:
    """What happened, for the summary (and for tests)."""

    service: str = ""
    model: str = ""
    session_id: str = ""
    steps: int = 0
    seconds: float = 0.0
    calls: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    connected: list[str] = field(default_factory=list)
    app_tools: list[str] = field(default_factory=list)
    custom_tools: list[str] = field(default_factory=list)
    searched: bool = False
    answer: str = ""
    finished: bool = False

    @property
    def recovered(self) -> bool:
        """A call failed and the agent still finished the task."""
        return bool(self.failures) and self.finished

    def note_tool(self, slug: str) -> None:
        """Record an app or custom tool the agent ran (directly or inside multi-execute)."""
        target = self.custom_tools if slug.startswith("LOCAL_") else self.app_tools
        if slug not in target:
            target.append(slug)


def _executed_slugs(name: str, args: Mapping[str, Any]) -> list[str]:
    if name == "COMPOSIO_MULTI_EXECUTE_TOOL":
        return [str(i.get("tool_slug")) for i in args.get("tools", []) if isinstance(i, dict)]
    if name.startswith("COMPOSIO_"):
        return []
    return [name]


def _links(value: Any) -> list[tuple[str, str]]:
    """(toolkit, redirect_url) pairs anywhere in a tool result."""
    found: list[tuple[str, str]] = []

    def walk(node: Any, toolkit: str) -> None:
        if isinstance(node, dict):
            here = str(node.get("toolkit") or node.get("toolkit_slug") or toolkit)
            url = node.get("redirect_url")
            if isinstance(url, str) and url.startswith("http"):
                found.append((here, url))
            for key, child in node.items():
                walk(child, key if isinstance(child, dict) and key.islower() else here)
        elif isinstance(node, list):
            for child in node:
                walk(child, toolkit)

    walk(value, "")
    return list(dict.fromkeys(found))


def _result_text(message: ToolMessage) -> str:
    content = message.content
    return content if isinstance(content, str) else json.dumps(content, default=str)


def _result_data(message: ToolMessage) -> Any:
    """The tool's `data`: from the artifact, the JSON text, or an error's embedded result."""
    if isinstance(message.artifact, dict):
        return message.artifact.get("data", message.artifact)
    text = _result_text(message)
    start = text.find("{", text.find("Result: ") if "Result: " in text else 0)
    if start >= 0:
        with contextlib.suppress(ValueError):
            value, _ = json.JSONDecoder().raw_decode(text[start:])
            return value.get("data", value) if "Result: " not in text else value
    return None


def _error_line(message: ToolMessage) -> str:
    return _result_text(message).split("\nResult: ", 1)[0]


def _multi_rows(name: str, args: Mapping[str, Any], data: Any) -> list[tuple[str, Any, bool, Any]]:
    """(slug, arguments, ok, data-or-error) per multi-execute item, in the order sent."""
    sent = [i for i in args.get("tools", []) if isinstance(i, dict)]
    results = data.get("results") if isinstance(data, dict) else None
    if name != "COMPOSIO_MULTI_EXECUTE_TOOL" or not isinstance(results, list):
        return []
    rows = []
    for position, item in enumerate(results):
        if not isinstance(item, dict):
            continue
        response = item["response"] if isinstance(item.get("response"), dict) else {}
        error = item.get("error") or response.get("error")
        ok = not error and response.get("successful") is not False
        index = int(item.get("index", position))
        arguments = sent[index].get("arguments", {}) if index < len(sent) else {}
        rows.append(
            (str(item.get("tool_slug")), arguments, ok, response.get("data") if ok else error)
        )
    return rows


def _connection_lines(data: Any) -> list[str]:
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, dict):
        return []
    states = [
        f"{slug} {info.get('status')}" for slug, info in results.items() if isinstance(info, dict)
    ]
    return ["ok     " + ", ".join(states)] if states else []


def _search_lines(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return []
    lines = []
    for result in data.get("results") or []:
        slugs = list(result.get("primary_tool_slugs") or [])
        found = f"{slugs[0]} (+{len(slugs) - 1} more)" if len(slugs) > 1 else "".join(slugs)
        lines.append(f"found  {result.get('use_case')!r} → {found or '(nothing)'}")
    unconnected = [
        str(s.get("toolkit"))
        for s in data.get("toolkit_connection_statuses") or []
        if isinstance(s, dict) and s.get("has_active_connection") is False
    ]
    if unconnected:
        lines.append("needs  a connection: " + ", ".join(unconnected))
    return lines


class Demo:
    """One run: the agent loop over a session's tools, printing as it goes."""

    def __init__(
        self,
        session: Any,
        model: BaseChatModel,
        printer: Printer,
        report: DemoReport,
        *,
        on_emulator: bool,
        max_steps: int = 20,
        connect_timeout: float = 300.0,
    ) -> None:
        self.session = session
        self.model = model
        self.printer = printer
        self.report = report
        self.on_emulator = on_emulator
        self.max_steps = max_steps
        self.connect_timeout = connect_timeout

    def run(self, tools: Sequence[BaseTool]) -> None:
        """Let the model call tools until it answers without one (or runs out of turns)."""
        by_name = {tool.name: tool for tool in tools}
        bound = self.model.bind_tools(list(tools))
        messages: list[BaseMessage] = [SystemMessage(SYSTEM_PROMPT), HumanMessage(TASK)]
        self.printer.heading(f"Task: {TASK}")
        for _turn in range(self.max_steps):
            with self.printer.progress("the model is thinking"):
                reply = bound.invoke(messages)
            assert isinstance(reply, AIMessage)
            messages.append(reply)
            if reply.tool_calls and isinstance(reply.content, str) and reply.content.strip():
                self.printer.line(f"model: {_short(reply.content, self.printer.width)}")
            if not reply.tool_calls:
                self.report.answer = str(reply.content)
                self.report.finished = reply.response_metadata.get("outcome") != "gave_up"
                return
            messages.extend(self._run_call(call, by_name) for call in reply.tool_calls)
        self.report.answer = f"(stopped after {self.max_steps} model turns without an answer)"

    def _run_call(self, call: Any, by_name: Mapping[str, BaseTool]) -> ToolMessage:
        name, args = str(call["name"]), dict(call["args"])
        self.report.steps += 1
        number = self.report.steps
        self.report.calls[name] += 1
        started = time.perf_counter()
        tool = by_name.get(name)
        if tool is None:
            message = ToolMessage(
                content=f"There is no tool named {name}. Use one of: {', '.join(sorted(by_name))}.",
                tool_call_id=str(call["id"]),
                name=name,
                status="error",
            )
        else:
            with self.printer.progress(f"running {name}"):
                result = tool.invoke(call)
            assert isinstance(result, ToolMessage)
            message = result
        seconds = time.perf_counter() - started
        ok = message.status != "error"
        data = _result_data(message)
        items = _multi_rows(name, args, data)
        if name == "COMPOSIO_SEARCH_TOOLS":
            self.report.searched = True
        for slug in _executed_slugs(name, args):
            self.report.note_tool(slug)
        lines: list[str] = []
        if items:
            for slug, arguments, item_ok, outcome in items:
                where = "  (custom tool: ran in this process)" if slug.startswith("LOCAL_") else ""
                lines.append(f"▸ {slug} {_short(arguments)}{where}")
                lines.append(f"    {'ok ' if item_ok else 'ERR'} {_short(outcome)}")
                if not item_ok:
                    self.report.failures.append(f"{slug}: {_short(outcome, 100)}")
        else:
            lines.append(f"args   {_short(args)}")
            if not ok:
                lines.append(f"ERR    {_short(_error_line(message))}")
                self.report.failures.append(f"{name}: {_short(_error_line(message), 100)}")
            elif name == "COMPOSIO_SEARCH_TOOLS" and _search_lines(data):
                lines += _search_lines(data)
            elif name == "COMPOSIO_MANAGE_CONNECTIONS" and _connection_lines(data):
                lines += _connection_lines(data)
            else:
                lines.append(f"ok     {_short(_result_text(message))}")
        self.printer.step(number, name, seconds, lines)
        links = _links(data)
        if links:
            self._connect(links)
        return message

    def _connect(self, links: list[tuple[str, str]]) -> None:
        """Finish the connections the agent started: show every link at once (the user may
        open them in any order), open them on the emulator, then wait for each account."""
        labels = [toolkit or "the account" for toolkit, _ in links]
        if self.on_emulator:
            import httpx

            for label, (_, url) in zip(labels, links, strict=True):
                self.printer.line(f"    link   {label}: {url}")
            them = "them" if len(links) > 1 else "it"
            self.printer.line(
                f"           opening {them} for you, as a browser would (emulator only)"
            )
            for _, url in links:
                # A browser visit: no API key goes to the link.
                httpx.get(url, follow_redirects=True, timeout=10.0).raise_for_status()
        else:
            these = "these links" if len(links) > 1 else "this link"
            self.printer.line(
                f"    → open {these} in your browser to connect {' and '.join(labels)}:"
            )
            for label, (_, url) in zip(labels, links, strict=True):
                self.printer.line(f"      {label}: {url}")
        for label, (toolkit, _) in zip(labels, links, strict=True):
            if not toolkit:
                continue
            with self.printer.progress(f"waiting for {label} to be connected (Ctrl-C to stop)"):
                self.session.wait_for_connection(toolkit, timeout=self.connect_timeout)
            self.printer.line(f"           {label} connected")
            if toolkit not in self.report.connected:
                self.report.connected.append(toolkit)


def _print_summary(printer: Printer, report: DemoReport) -> None:
    printer.heading("Summary")
    calls = ", ".join(f"{name} ×{count}" for name, count in report.calls.items())
    rows = [
        ("service", report.service),
        ("model", report.model),
        ("session", report.session_id),
        ("tool calls", f"{report.steps} ({calls})"),
        ("tool search", "yes" if report.searched else "no"),
        ("connected", ", ".join(report.connected) or "none needed"),
        ("app tools", ", ".join(report.app_tools) or "none"),
        ("custom tools", ", ".join(report.custom_tools) or "none"),
        (
            "failures",
            (
                f"{len(report.failures)}, recovered"
                if report.recovered
                else str(len(report.failures))
            )
            if report.failures
            else "none",
        ),
        ("answer", report.answer),
        ("time", f"{report.seconds:.1f}s"),
        ("result", "task done" if report.finished else "task NOT done"),
    ]
    for key, value in rows:
        printer.line(f"  {key:<13}{value}")


def _chat_model(spec: str | None) -> tuple[BaseChatModel, str]:
    if not spec:
        return build_scripted_model(), (
            "scripted (deterministic, no chat-model key needed; pass --model provider:name "
            "to use a real model)"
        )
    if ":" not in spec:
        raise DemoError(
            f"--model must look like provider:name, e.g. openai:gpt-4o-mini; got {spec!r}"
        )
    try:
        init_chat_model = importlib.import_module("langchain.chat_models").init_chat_model
    except ImportError as exc:
        provider = spec.split(":", 1)[0]
        raise DemoError(
            f"--model {spec} needs the `langchain` package and the provider's package: "
            f"pip install langchain langchain-{provider.replace('_', '-')}"
        ) from exc
    try:
        model = init_chat_model(spec)
    except ImportError as exc:
        raise DemoError(f"--model {spec}: {exc}") from exc
    except Exception as exc:  # the provider says what is missing (usually its API key)
        raise DemoError(f"--model {spec} could not be created: {exc}") from exc
    return model, spec


def run_demo(
    *,
    model: str | None = None,
    user_id: str = USER_ID,
    max_steps: int = 20,
    emulator_latency: float = 0.0,
    printer: Printer | None = None,
) -> DemoReport:
    """Run the demo end to end and print it; returns the report.

    `emulator_latency` slows every emulator request by that many seconds (to watch progress
    output, or to try Ctrl-C); it has no effect against the real service.

    Raises:
        DemoError: the demo cannot run; the message says why and how to fix it (a wrong
            `COMPOSIO_API_KEY`, an unreachable `COMPOSIO_BASE_URL`, an unusable `--model`). A
            service error is its `__cause__`.
        TypeError, ValueError: an argument of the wrong type or out of range (before anything
            starts): `max_steps` < 1 would run no turn at all.
    """
    _check_arguments(model, user_id, max_steps, emulator_latency)
    printer = printer or Printer()
    report = DemoReport()
    chat_model, report.model = _chat_model(model)
    own_key = bool(os.environ.get("COMPOSIO_API_KEY"))
    url = os.environ.get("COMPOSIO_BASE_URL") or DEFAULT_BASE_URL
    try:
        return _run(
            chat_model,
            report,
            printer,
            user_id=user_id,
            max_steps=max_steps,
            emulator_latency=emulator_latency,
        )
    except ToolRouterError as exc:
        raise _service_failure(exc, url if own_key else "the embedded emulator", own_key) from exc


def _check_arguments(model: Any, user_id: Any, max_steps: Any, emulator_latency: Any) -> None:
    """Refuse arguments the demo cannot run with, naming the fix (the CLI checks them too)."""
    if model is not None and not isinstance(model, str):
        raise TypeError(f"run_demo(model=...) takes 'provider:name' or None, got {model!r}")
    if not isinstance(user_id, str) or not user_id.strip():
        raise ValueError(f"run_demo(user_id=...) must name a user, e.g. 'alice'; got {user_id!r}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(
            f"run_demo(max_steps=...) must be an int >= 1 (model turns), got {max_steps!r}"
        )
    if (
        isinstance(emulator_latency, bool)
        or not isinstance(emulator_latency, int | float)
        or not math.isfinite(emulator_latency)
        or emulator_latency < 0
    ):
        raise ValueError(
            "run_demo(emulator_latency=...) must be a number of seconds >= 0, got "
            f"{emulator_latency!r}"
        )


def _service_failure(exc: ToolRouterError, where: str, own_key: bool) -> DemoError:
    """The one-line error for a service the demo cannot use: what failed, and the fix."""
    emulator = " or unset COMPOSIO_API_KEY to run the demo on the embedded emulator"
    if not own_key:  # the embedded emulator failed: nothing the user set is to blame
        return DemoError(f"the embedded emulator failed: {exc}")
    if isinstance(exc, AuthenticationError):
        return DemoError(
            f"the Tool Router service at {where} refused COMPOSIO_API_KEY (HTTP 401: "
            f"{exc.message.rstrip('.')}). Check the key (Composio dashboard, API keys),{emulator}."
        )
    if isinstance(exc, PermissionDeniedError):
        return DemoError(
            f"the Tool Router service at {where} denied COMPOSIO_API_KEY (HTTP 403: "
            f"{exc.message.rstrip('.')}). Check the key's project and that Tool Router is "
            f"enabled for it,{emulator}."
        )
    if isinstance(exc, TransportError):
        what = "got no answer from" if exc.request_sent else "could not reach"
        return DemoError(
            f"{what} the Tool Router service at {where} ({exc}). Check COMPOSIO_BASE_URL "
            f"(unset it for {DEFAULT_BASE_URL}) and your network,{emulator}."
        )
    if isinstance(exc, ConfigurationError):
        return DemoError(f"{exc} (Or unset COMPOSIO_API_KEY to run on the embedded emulator.)")
    return DemoError(f"the Tool Router service at {where} failed: {exc}")


def _run(
    chat_model: BaseChatModel,
    report: DemoReport,
    printer: Printer,
    *,
    user_id: str,
    max_steps: int,
    emulator_latency: float,
) -> DemoReport:
    """The demo itself (`run_demo` turns service errors into a `DemoError`)."""
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        api_key = os.environ.get("COMPOSIO_API_KEY")
        base_url: str | None = None
        if api_key:
            base_url = os.environ.get("COMPOSIO_BASE_URL")
            url = base_url or DEFAULT_BASE_URL
            report.service = f"{url} (COMPOSIO_API_KEY is set)"
            printer.line(f"COMPOSIO_API_KEY is set: using the service at {url}.")
        else:
            server = stack.enter_context(_start_emulator(printer, emulator_latency))
            api_key, base_url = server.api_key, server.base_url
            report.service = f"embedded emulator at {base_url} (no COMPOSIO_API_KEY set)"
        printer.line(f"Chat model: {report.model}.")

        from langchain_toolrouter import ToolRouter

        router = ToolRouter(api_key=api_key, base_url=base_url)
        with printer.progress("creating the session"):
            session = router.create_session(
                user_id,
                toolkits=["github", "gmail"],
                custom_tools=[get_oncall_engineer],
                manage_connections=True,
                workbench=False,
            )
        report.session_id = session.session_id
        stack.callback(_delete_session, session, printer)
        printer.line(f"Session {session.session_id} for user {user_id!r}.")
        with printer.progress("loading the session's tools"):
            tools = session.get_tools()
        printer.line(f"Tools given to the agent: {', '.join(t.name for t in tools)}.")

        Demo(
            session,
            chat_model,
            printer,
            report,
            on_emulator=not os.environ.get("COMPOSIO_API_KEY"),
            max_steps=max_steps,
        ).run(tools)
        report.seconds = time.perf_counter() - started
        _print_summary(printer, report)
    return report


def _delete_session(session: Any, printer: Printer) -> None:
    with contextlib.suppress(Exception):
        session.delete()
        printer.line(f"(session {session.session_id} deleted)")


@contextlib.contextmanager
def _start_emulator(printer: Printer, latency: float) -> Iterator[Any]:
    try:
        from langchain_toolrouter.emulator import EmulatorServer, FaultRule
    except ImportError as exc:
        raise DemoError(
            "No COMPOSIO_API_KEY is set and the emulator's packages are missing: "
            'pip install "langchain-toolrouter[emulator]" for the offline emulator, or set '
            "COMPOSIO_API_KEY to use the real service."
        ) from exc
    printer.line("No COMPOSIO_API_KEY set: starting the embedded Tool Router emulator (offline).")
    with printer.progress("starting the emulator"):
        faults = [FaultRule(operation="*", latency=latency)] if latency > 0 else []
        server = EmulatorServer(faults=faults).start()
    try:
        printer.line(f"Emulator ready at {server.base_url}.")
        yield server
    finally:
        server.stop()
        printer.line("Emulator stopped.")
