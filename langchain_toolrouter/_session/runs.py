"""The calls of a LangGraph run: each runs once, and a paused one reads its answer first.

LangGraph re-runs a task from its start when a run resumes after a pause, and a plain
`ToolNode` runs every call of a model turn in one task: without a record, the calls that had
finished would run again, and the call that paused would send its request before anything read
the user's answer. So, inside a LangGraph run that has a thread (a checkpointer), each call of a
session's tool keeps a record, keyed by the thread, the task and the tool call's id:

* `ran`: the answer the model got; a call with this record is answered from it, not run again;
* `paused`: the connection request the run paused with; the call reads the resume value
  before anything is sent for it (`Connections.resumed`).

The records live in the graph's store when it has one (`create_agent(..., store=...)`,
`compile(store=...)`): they survive what the checkpoint survives, a restart or another worker
included. Without a store they live in this process (bounded), and hold for a resume in the
same process only.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from langchain_toolrouter._answers import (
    ToolNotConnectedError,
    ToolRateLimitError,
    ToolRouterToolError,
    ToolServiceError,
    ToolTransportError,
)
from langchain_toolrouter._langgraph import RunFacts, run_facts
from langchain_toolrouter._session.faces import Face
from langchain_toolrouter.tools import CALL_ID
from langchain_toolrouter.types import ToolOutcome

__all__ = [
    "NAMESPACE",
    "RUNNING",
    "RunCall",
    "RunningCalls",
    "current_call",
    "replayed",
    "took_effect",
]

NAMESPACE = ("langchain_toolrouter", "calls")
"""The store namespace of the records (a digest of the thread is appended)."""

TTL_MINUTES = 14 * 24 * 60.0
"""How long a store that supports TTLs keeps a record (a pause may wait days for its user)."""

_KEPT = 10_000
_memory: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
_memory_lock = threading.Lock()

_ERRORS: dict[str, type[ToolRouterToolError]] = {
    cls.__name__: cls
    for cls in (ToolNotConnectedError, ToolRateLimitError, ToolServiceError, ToolTransportError)
}


@dataclass(frozen=True)
class RunCall:
    """One tool call of a LangGraph run with a thread: where its record is kept.

    Attributes:
        facts: The run's facts (thread, task, store, context, authenticated user).
        call_id: The tool call's id.
    """

    facts: RunFacts
    call_id: str

    @property
    def namespace(self) -> tuple[str, ...]:
        digest = hashlib.sha256(str(self.facts.thread_id).encode()).hexdigest()[:32]
        return (*NAMESPACE, digest)

    @property
    def key(self) -> str:
        return hashlib.sha256(f"{self.facts.task}\x00{self.call_id}".encode()).hexdigest()

    @property
    def task_key(self) -> tuple[str, str]:
        """The task's identity, shared by the calls of one model turn in a plain ToolNode."""
        return (str(self.facts.thread_id), self.facts.task)

    async def read(self, face: Face) -> dict[str, Any] | None:
        """The call's record, if it has one."""
        store = self.facts.store
        if store is None:
            with _memory_lock:
                found = _memory.get((self.namespace[-1], self.key))
            return None if found is None else dict(found)
        item = await face.run(store.get, store.aget, self.namespace, self.key)
        return None if item is None else dict(item.value)

    async def write(self, face: Face, record: dict[str, Any]) -> None:
        """Keep the call's record (it replaces the one before)."""
        store = self.facts.store
        if store is None:
            with _memory_lock:
                _memory[(self.namespace[-1], self.key)] = record
                _memory.move_to_end((self.namespace[-1], self.key))
                while len(_memory) > _KEPT:
                    _memory.popitem(last=False)
            return
        options: dict[str, Any] = {"index": False}
        if getattr(store, "supports_ttl", False):
            options["ttl"] = TTL_MINUTES
        await face.run(store.put, store.aput, self.namespace, self.key, record, **options)

    async def ran(self, face: Face, answer: ToolOutcome | ToolRouterToolError) -> None:
        """Record the answer the model gets (an outcome, or a tool error about a request that
        was sent)."""
        if isinstance(answer, ToolOutcome):
            await self.write(face, {"state": "ran", "outcome": answer.as_dict()})
        else:
            error = {"type": type(answer).__name__, "artifact": answer.artifact()}
            await self.write(face, {"state": "ran", "error": error, "tool": answer.tool})


def current_call() -> RunCall | None:
    """The tool call this code runs for, when it runs in a LangGraph run with a thread."""
    call_id = CALL_ID.get()
    if call_id is None:
        return None
    facts = run_facts()
    if facts is None or facts.thread_id is None:
        return None
    return RunCall(facts, call_id)


def replayed(record: dict[str, Any]) -> ToolOutcome:
    """The answer a call that already ran got (raised again when it was a tool error).

    Raises:
        ToolRouterToolError: the recorded error, as it was answered.
    """
    error = record.get("error")
    if isinstance(error, dict):
        artifact = dict(error.get("artifact") or {})
        cls = _ERRORS.get(str(error.get("type")), ToolRouterToolError)
        message = str(artifact.pop("error", "") or "")
        facts = {
            key: value
            for key, value in artifact.items()
            if key not in ("successful", "data", "log_id", "error_type")
        }
        if cls is ToolRouterToolError:
            raise ToolRouterToolError(message, tool=str(record.get("tool")))
        raise cls(message, tool=str(record.get("tool")), **facts)
    return ToolOutcome.from_wire(record.get("outcome") or {})


def took_effect(answer: ToolRouterToolError) -> bool:
    """Whether a tool error answers a request that may have run (a failure at the service, a
    lost answer): such a call is answered from its record, never sent again. Refusals and
    missing accounts ran nothing, and a re-run may succeed."""
    if isinstance(answer, ToolTransportError):
        return answer.request_sent
    return isinstance(answer, ToolServiceError) and (answer.status or 0) >= 500


class _Task:
    """The calls of one task now running in this process, and who waits for them."""

    def __init__(self) -> None:
        self.running: set[str] = set()
        self.settled: set[str] = set()
        self.waiters: list[tuple[Any, Any]] = []  # (loop, asyncio.Event)


class RunningCalls:
    """Which calls of each task are running, so a call about to pause an async task can wait
    for its siblings to join the pause or end (a sync `ToolNode` waits for every call before
    it raises; an async one raises at the first pause, with the others still running)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tasks: dict[tuple[str, str], _Task] = {}

    def start(self, run: RunCall) -> bool:
        """Count the call as running; False when it already was (an inner layer of it)."""
        with self._lock:
            task = self._tasks.setdefault(run.task_key, _Task())
            if run.call_id in task.running:
                return False
            task.running.add(run.call_id)
            return True

    def settle(self, run: RunCall) -> None:
        """The call joined its task's pause: it will not pause or end otherwise."""
        self._change(run, settled=True)

    def finish(self, run: RunCall) -> None:
        """The call ended."""
        self._change(run, settled=False)

    def _change(self, run: RunCall, *, settled: bool) -> None:
        with self._lock:
            task = self._tasks.get(run.task_key)
            if task is None:
                return
            if settled:
                task.settled.add(run.call_id)
            else:
                task.running.discard(run.call_id)
                task.settled.discard(run.call_id)
                if not task.running:
                    del self._tasks[run.task_key]
            waiters, task.waiters = task.waiters, []
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    async def quiet(self, run: RunCall) -> None:
        """Wait (async) until every other running call of the task has joined a pause or
        ended."""
        while True:
            with self._lock:
                task = self._tasks.get(run.task_key)
                if task is None or task.running <= task.settled | {run.call_id}:
                    return
                event = asyncio.Event()
                task.waiters.append((asyncio.get_running_loop(), event))
            await event.wait()


RUNNING = RunningCalls()
"""The running calls of the tasks of this process."""
