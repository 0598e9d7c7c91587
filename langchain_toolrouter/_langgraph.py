"""LangGraph, as the library meets it: its control flow, its pause, and the facts of a run.

LangGraph is an optional extra (`[langgraph]`). A process that never imported it cannot be inside
a graph, so nothing here imports it unless a graph already did (`is_graph_signal`,
`run_context`), or the caller asked to pause a run (`interrupt`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from langchain_core.runnables.config import var_child_runnable_config

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

__all__ = [
    "NotInGraphRunError",
    "RunFacts",
    "facts_of",
    "interrupt",
    "is_graph_signal",
    "run_context",
    "run_facts",
]


class NotInGraphRunError(RuntimeError):
    """`interrupt` was called outside a LangGraph run (no graph, or no checkpointer scratchpad)."""


def is_graph_signal(exc: BaseException) -> bool:
    """Whether `exc` is LangGraph's own control flow (an interrupt), which must propagate.

    `interrupt()` pauses a graph by raising an exception (a `GraphBubbleUp`) through the code
    that called it; a custom tool's failures are answers for the model, but this one is not a
    failure: it must reach LangGraph.
    """
    errors = sys.modules.get("langgraph.errors")
    return errors is not None and isinstance(exc, errors.GraphBubbleUp)


def interrupt(value: Any, config: Mapping[str, Any] | None = None) -> Any:
    """Pause the LangGraph run with `value` (`langgraph.types.interrupt`); returns the value
    the run is resumed with. LangGraph re-runs the interrupted task from its start on resume,
    and the same call then returns at once with the resume value.

    `config` is the run's config when the caller was handed it (a middleware hook's
    `ToolRuntime`): on Python 3.10 an async node has no other way to reach it.

    Raises:
        ImportError: langgraph is not installed.
        NotInGraphRunError: not inside a LangGraph run.
    """
    from langgraph.types import interrupt as pause

    token = None
    if config is not None and var_child_runnable_config.get() is None:
        token = var_child_runnable_config.set(cast("RunnableConfig", dict(config)))
    try:
        return pause(value)
    except (RuntimeError, KeyError) as exc:  # no LangGraph run: no config, or no scratchpad
        raise NotInGraphRunError(str(exc)) from exc
    finally:
        if token is not None:
            var_child_runnable_config.reset(token)


@dataclass(frozen=True)
class RunFacts:
    """What the running LangGraph task says about itself (`run_facts`).

    Attributes:
        thread_id: The run's thread; `None` when the graph has no checkpointer (a pause could
            never be resumed).
        task: The task's checkpoint namespace (`"tools:<task id>"`): one node run, re-run from
            its start when it is resumed.
        store: The graph's store, or `None`.
        context: The run's runtime context (`create_agent(context_schema=...)`), or `None`.
        server_user: The identity LangGraph server authenticated for the run, or `None`
            (open-source LangGraph, or no auth).
    """

    thread_id: str | None
    task: str
    store: Any
    context: Any
    server_user: str | None


def run_facts() -> RunFacts | None:
    """The facts of the LangGraph task this code runs in; `None` outside a graph."""
    if "langgraph.runtime" not in sys.modules:
        return None
    from langgraph.runtime import get_runtime

    try:
        runtime: Any = get_runtime()  # None in a runnable that is not a graph's
    except (RuntimeError, KeyError):
        return None
    if runtime is None:
        return None
    return facts_of(runtime, var_child_runnable_config.get())


def facts_of(runtime: Any, config: Mapping[str, Any] | None) -> RunFacts:
    """The facts of a run from the LangGraph runtime and config a caller was handed.

    LangGraph hands both to middleware hooks; on Python 3.10 an async node has no other way
    to reach them (asyncio there copies no context into the node's task).
    """
    configurable = (config or {}).get("configurable") or {}
    info = getattr(runtime, "execution_info", None)
    server = getattr(runtime, "server_info", None)
    user = identity(server.user) if server is not None else None
    thread = info.thread_id if info is not None else configurable.get("thread_id")
    # LangGraph says nowhere public whether the graph has a checkpointer (a thread_id in the
    # config is taken without one); its own config entry tells, and when a later release
    # drops that entry the graph is taken to have one.
    if configurable.get("__pregel_checkpointer", True) is None:
        thread = None
    return RunFacts(
        thread_id=thread,
        task=info.checkpoint_ns if info is not None else str(configurable.get("checkpoint_ns", "")),
        store=getattr(runtime, "store", None),
        context=getattr(runtime, "context", None),
        server_user=user or identity(configurable.get("langgraph_auth_user")),
    )


def run_context() -> Any:
    """The LangGraph runtime context of the running graph, if any (`None` outside a graph)."""
    facts = run_facts()
    return None if facts is None else facts.context


def identity(user: Any) -> str | None:
    """The `identity` of a LangGraph server user (a `BaseUser`, or the dict the server puts in
    the config); `None` for none, or an anonymous user (no identity)."""
    if user is None:
        return None
    found = user.get("identity") if isinstance(user, Mapping) else getattr(user, "identity", None)
    return found if isinstance(found, str) and found else None
