"""LangGraph's control flow, recognised without importing LangGraph.

`interrupt()` pauses a graph by raising an exception (a `GraphBubbleUp`) through the code that
called it. A custom tool's failures are answers for the model, but this one is not a failure:
it must reach LangGraph. LangGraph is an optional extra, and a process that never imported it
cannot be inside a graph, so nothing is imported here.
"""

from __future__ import annotations

import sys

__all__ = ["is_graph_signal"]


def is_graph_signal(exc: BaseException) -> bool:
    """Whether `exc` is LangGraph's own control flow (an interrupt), which must propagate."""
    errors = sys.modules.get("langgraph.errors")
    return errors is not None and isinstance(exc, errors.GraphBubbleUp)
