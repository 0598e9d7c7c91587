"""LangGraph, as the library meets it: its control flow, its pause, and the facts of a run.

LangGraph is an optional extra (`[langgraph]`). A process that never imported it cannot be inside
a graph, so nothing here imports it unless a graph already did (`is_graph_signal`,
`run_context`), or the caller asked to pause a run (`interrupt`).
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["NotInGraphRunError", "interrupt", "is_graph_signal", "run_context"]


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


def interrupt(value: Any) -> Any:
    """Pause the LangGraph run with `value` (`langgraph.types.interrupt`); returns the value
    the run is resumed with. LangGraph re-runs the interrupted task from its start on resume,
    and the same call then returns at once with the resume value.

    Raises:
        ImportError: langgraph is not installed.
        NotInGraphRunError: not inside a LangGraph run.
    """
    from langgraph.types import interrupt as pause

    try:
        return pause(value)
    except (RuntimeError, KeyError) as exc:  # no LangGraph run: no config, or no scratchpad
        raise NotInGraphRunError(str(exc)) from exc


def run_context() -> Any:
    """The LangGraph runtime context of the running graph, if any (`None` outside a graph)."""
    if "langgraph.runtime" not in sys.modules:
        return None
    from langgraph.runtime import get_runtime

    try:
        runtime = get_runtime()
    except (RuntimeError, KeyError):
        return None
    return getattr(runtime, "context", None)
