"""Pausing a LangGraph run for the user, once per task, and reading the answer once.

A call pauses the run (`interrupt`) when it needs the user: an account to connect
(`connections`), an answer the service asked for (`inputs`). LangGraph matches the answers of a
task's pauses to them by their order, which the calls of one task (a plain `ToolNode` runs a
model turn's calls in one) do not keep. So the calls of a task that need the user pause
together, once, with one value that holds every request (`requests`, shaped as LangChain's MCP
elicitation requests), and on resume the first call to ask reads the answer and shares it.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from langchain_toolrouter._exceptions import ConfigurationError
from langchain_toolrouter._langgraph import NotInGraphRunError, interrupt, run_facts
from langchain_toolrouter._session.faces import Face
from langchain_toolrouter._session.runs import RUNNING, RunCall

__all__ = ["NEEDS_LANGGRAPH", "NOT_IN_GRAPH", "ROUNDS", "check_can_pause", "merged", "pause"]

NOT_IN_GRAPH = (
    "on_connection_required='interrupt' pauses a LangGraph run, and this tool call is not "
    "inside one (create_agent, a ToolNode or a graph node, run with a checkpointer). Outside "
    "LangGraph use on_connection_required='wait' (the call waits for the account, the link "
    "going to on_link) or 'message' (the model gets the link)."
)
NEEDS_LANGGRAPH = (
    "on_connection_required='interrupt' needs langgraph: "
    "pip install 'langchain-toolrouter[langgraph]'"
)


def pause(payload: Mapping[str, Any]) -> Any:
    """Pause the LangGraph run with `payload`; the value it is resumed with."""
    try:
        return interrupt(payload)
    except ImportError as exc:  # pragma: no cover - checked when the option is given
        raise ConfigurationError(NEEDS_LANGGRAPH) from exc
    except NotInGraphRunError as exc:
        raise ConfigurationError(NOT_IN_GRAPH) from exc


def check_can_pause() -> None:
    """Refuse, before anything is sent, a call that may have to pause a run that could never
    be resumed: outside a LangGraph run, or in one without a checkpointer.

    Raises:
        ConfigurationError: saying what to do instead.
    """
    facts = run_facts()
    if facts is None:
        raise ConfigurationError(NOT_IN_GRAPH)
    if facts.thread_id is None:
        raise ConfigurationError(
            "on_connection_required='interrupt' pauses the LangGraph run, and this graph has "
            "no checkpointer, so a paused run could never be resumed (the user would be shown "
            "a link for nothing). Compile the graph with a checkpointer, e.g. "
            "create_agent(..., checkpointer=InMemorySaver()) or graph.compile(checkpointer="
            "...), and run it with a thread_id; or use on_connection_required='wait' or "
            "'message'."
        )


@dataclass
class _Round:
    """The one pause of a task: its value (every link of the task's calls that need one)
    and, once a resumed call has read it, the answer."""

    id: str
    payload: dict[str, Any]
    raised: bool = False
    claimed: bool = False
    answer: Future[Any] = field(default_factory=Future)


@dataclass(frozen=True)
class _Joined:
    round: _Round
    late: bool


class _Rounds:
    """The pauses of LangGraph tasks in this process (one round a task, bounded).

    A plain `ToolNode` runs the calls of a model turn in one task, and LangGraph matches the
    answers of a task's pauses to them by their order, which threads and tasks do not keep.
    So the calls of a task that need accounts pause together, once: the first call's pause
    value is shared, and each call that joins adds its links to it (a sync `ToolNode` raises
    only when every call has ended, so the value holds every link; a call of an async task
    that joins after the pause was raised is `late`: its link may not have been shown). When
    the run is resumed, the first call to ask reads the answer with `interrupt()` and the
    others share it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: OrderedDict[tuple[str, str], _Round] = OrderedDict()
        self._by_id: OrderedDict[str, _Round] = OrderedDict()

    def join(
        self, task: tuple[str, str], payload: Mapping[str, Any], *, late_possible: bool
    ) -> _Joined | None:
        """The task's round with `payload` in it; `None` when the task paused once already
        (a second pause would take the first one's answer)."""
        with self._lock:
            found = self._open.get(task)
            if found is not None and found.answer.done():
                return None
            if found is None:
                found = _Round(id=uuid.uuid4().hex, payload=dict(payload))
                self._keep(task, found)
            else:
                found.payload.update(merged(found.payload, payload))
            return _Joined(found, late_possible and found.raised)

    async def answer(self, face: Face, round_id: str, payload: Mapping[str, Any]) -> Any:
        """The value the run was resumed with, for a call of the round `round_id`: read once
        (by the first call to ask) and shared.

        Raises:
            GraphInterrupt: the run was not resumed with a value: it pauses again.
        """
        with self._lock:
            found = self._by_id.get(round_id)
            if found is None:  # a restart since the pause: the round lives on in the records
                found = _Round(id=round_id, payload=dict(payload), raised=True)
                self._by_id[round_id] = found
            first = not found.claimed
            found.claimed = True
        if not first:
            return await face.wait(found.answer)
        try:
            value = pause(found.payload)
        except BaseException as exc:
            found.answer.set_exception(exc)
            raise
        found.answer.set_result(value)
        return value

    def _keep(self, task: tuple[str, str], found: _Round) -> None:
        self._open[task] = found
        self._by_id[found.id] = found
        while len(self._open) > KEPT_ROUNDS:
            self._open.popitem(last=False)
        while len(self._by_id) > KEPT_ROUNDS:
            self._by_id.popitem(last=False)


KEPT_ROUNDS = 10_000
ROUNDS = _Rounds()


def merged(payload: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
    """One pause value for two calls of a task: every request of both (each key once), the
    links of both connection requests, and both messages."""
    keys = {entry.get("key") for entry in payload.get("requests", [])}
    requests = [
        *payload.get("requests", []),
        *(entry for entry in other.get("requests", []) if entry.get("key") not in keys),
    ]
    tools = [*str(payload.get("tool", "")).split(", "), str(other.get("tool", ""))]
    result = {
        **payload,
        "tool": ", ".join(dict.fromkeys(tool for tool in tools if tool)),
        "requests": requests,
        "message": "; ".join(
            dict.fromkeys(str(p.get("message", "")) for p in (payload, other) if p.get("message"))
        ),
    }
    if other.get("type") == payload.get("type") == "connection_required":
        urls = {**payload.get("redirect_urls", {}), **other.get("redirect_urls", {})}
        result["redirect_urls"] = urls
        result["toolkits"] = list(urls)
    elif other.get("type") != payload.get("type"):
        result["type"] = "several"
    return result


class _AlreadyPaused:
    """The task paused once already: the call answers the model instead of pausing again."""


ALREADY_PAUSED = _AlreadyPaused()


async def pause_task(
    face: Face, run: RunCall, payload: dict[str, Any], **facts: Any
) -> Any | _AlreadyPaused:
    """Pause the run for this call, in its task's one round, and return the user's answer.

    The pause goes into the run's ledger first (with `facts`), so the call, replayed on resume,
    reads the answer instead of asking again. The calls of an async task wait for one another
    to reach their pauses, so all join the one interrupt the first raises.
    """
    joined = ROUNDS.join(run.task_key, payload, late_possible=face.loop is not None)
    if joined is None:
        return ALREADY_PAUSED
    record = {"state": "paused", **facts, "round": joined.round.id, "late": joined.late}
    await run.write(face, {**record, "request": payload})
    RUNNING.settle(run)
    if face.loop is not None:
        await RUNNING.quiet(run)
    joined.round.raised = True
    return pause(joined.round.payload)  # pauses the run (the first time)
