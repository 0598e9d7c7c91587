"""Readers of an agent run's state and of the emulator's request log, for agent tests."""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.messages import ToolMessage

from langchain_toolrouter.emulator import EmulatorServer


def tool_messages(result: dict[str, Any]) -> list[ToolMessage]:
    """The tool messages of an agent run's state."""
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


def executes(server: EmulatorServer, session_id: str) -> list[int | None]:
    """The statuses of the execute requests of one session, in order."""
    return [
        record.status
        for record in server.log
        if record.operation == "execute" and session_id in record.path
    ]


def creates(server: EmulatorServer) -> int:
    """How many sessions were created so far."""
    return sum(1 for record in server.log if record.operation == "create_session")


def new_user() -> str:
    """A user id no other test uses."""
    return f"user-{uuid.uuid4().hex[:8]}"


def thread(user: str | None = None, **configurable: Any) -> dict[str, Any]:
    """A run config on a new thread, naming `user` (when given) and any other `configurable`."""
    given = {"thread_id": f"t-{uuid.uuid4().hex[:8]}", **configurable}
    if user is not None:
        given["user_id"] = user
    return {"configurable": given}
