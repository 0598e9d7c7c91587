"""Input the service asks the user for (an approval, a form), answered through a pause.

A call the service answers `result_type: "input_required"` did not run: it asks the user
(`input_requests`, each a form with a JSON Schema) and hands an opaque `request_state`. With
`on_connection_required="interrupt"` (a LangGraph run that can pause), the run pauses with the
requests (`type: "input_required"`, `requests` in the shape of LangChain's MCP elicitation
requests: `{key, message, mode: "form", requested_schema}`); the resume answers them, and the
call is sent once more with `input_responses` and the `request_state`, once. Otherwise the model
reads that the call needs the user's input, and nothing ran.

The resume value: `{"responses": {key: {"action": "accept" | "decline" | "cancel", "content":
...}}}` (LangChain's MCP elicitation answers), `HumanInTheLoopMiddleware`'s `{"decisions":
[{"type": "approve" | "reject"}]}`, or `True` (accept every request with its form's defaults) /
`False` (decline them all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langchain_toolrouter._answers import ToolRouterToolError
from langchain_toolrouter._session.faces import Face, Flow
from langchain_toolrouter._session.pauses import (
    ALREADY_PAUSED,
    ROUNDS,
    check_can_pause,
    pause,
    pause_task,
)
from langchain_toolrouter._session.runs import RunCall
from langchain_toolrouter.types import ToolOutcome

__all__ = ["Answered", "asked", "input_payload", "resumed"]

Answered = Callable[[dict[str, Any], Any], Flow[ToolOutcome]]
"""Sends the call once more with `input_responses` and the `request_state`."""


def input_payload(
    tool: str,
    requests: Mapping[str, Any],
    *,
    user_id: str,
    session_id: str,
    prefix: str = "",
) -> dict[str, Any]:
    """The pause value of an `input_required` answer (its request ids prefixed with `prefix`,
    so the requests of several calls paused together keep distinct keys)."""
    entries: list[dict[str, Any]] = [
        {
            "key": f"{prefix}{key}",
            "message": str(request.get("message") or f"{tool} needs your input"),
            "mode": "form",
            "requested_schema": dict(request.get("requested_schema") or {"type": "object"}),
        }
        for key, request in requests.items()
        if isinstance(request, Mapping)
    ]
    asks = "; ".join(str(entry["message"]) for entry in entries) or f"{tool} needs your input"
    return {
        "type": "input_required",
        "user_id": user_id,
        "session_id": session_id,
        "tool": tool,
        "message": asks,
        "requests": entries,
    }


async def asked(
    face: Face,
    outcome: ToolOutcome,
    *,
    tool: str,
    user_id: str,
    session_id: str,
    pausing: bool,
    answered: Answered,
    run: RunCall | None,
) -> ToolOutcome:
    """Answer an `input_required` outcome: pause for the user's answers and send the call once
    more with them (`pausing`: the policy pauses runs), or the outcome itself for the model."""
    requests = outcome.extra.get("input_requests")
    state = outcome.extra.get("request_state")
    if not pausing or not isinstance(requests, Mapping) or not requests:
        return outcome
    prefix = f"{run.call_id}:" if run is not None else ""
    payload = input_payload(tool, requests, user_id=user_id, session_id=session_id, prefix=prefix)
    if run is None:
        check_can_pause()
        return await answered(responses(pause(payload), payload, prefix), state)
    answer = await pause_task(face, run, payload, kind="input", prefix=prefix, request_state=state)
    if answer is ALREADY_PAUSED:  # the model reads what is asked
        return outcome
    return await answered(responses(answer, payload, prefix), state)


async def resumed(
    face: Face,
    run: RunCall,
    record: Mapping[str, Any],
    *,
    user_id: str,
    answered: Answered,
) -> ToolOutcome:
    """The call of a run paused for input, resumed: the answers are read before anything is
    sent, then the call goes once more with them. A resume as another user, or a request the
    user was never shown, sends nothing.

    Raises:
        ToolRouterToolError: nothing was sent, and why.
    """
    payload = dict(record["request"])
    answer = await ROUNDS.answer(face, str(record.get("round")), payload)
    tool = str(payload.get("tool", ""))
    if payload.get("user_id") != user_id:
        raise ToolRouterToolError(
            f"{tool} was not run: the run was resumed as user {user_id!r}, and the question "
            f"was for {payload.get('user_id')!r}.",
            tool=tool,
        )
    if record.get("late"):
        raise ToolRouterToolError(
            f"{tool} was not run: it needs the user's input ({payload.get('message')}). "
            f"Call it again to ask.",
            tool=tool,
        )
    prefix = str(record.get("prefix") or "")
    return await answered(responses(answer, payload, prefix), record.get("request_state"))


def responses(answer: Any, payload: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    """The `input_responses` for the service: one per request of `payload` (keys without
    `prefix`), from the value the run was resumed with."""
    entries = [e for e in payload.get("requests", []) if isinstance(e, Mapping)]
    given = answer.get("responses") if isinstance(answer, Mapping) else None
    decisions = answer.get("decisions") if isinstance(answer, Mapping) else None
    if isinstance(decisions, list) and decisions and isinstance(decisions[0], Mapping):
        kind = decisions[0].get("type")
        answer = kind in ("approve", "edit")
    result: dict[str, Any] = {}
    for entry in entries:
        key = str(entry.get("key"))
        own = key.removeprefix(prefix)
        if isinstance(given, Mapping):
            chosen = given.get(key, given.get(own))
            result[own] = dict(chosen) if isinstance(chosen, Mapping) else {"action": "decline"}
        elif answer and not (isinstance(answer, Mapping) and answer.get("connected") is False):
            result[own] = {"action": "accept", "content": _defaults(entry.get("requested_schema"))}
        else:
            result[own] = {"action": "decline"}
    return result


def _defaults(schema: Any) -> dict[str, Any]:
    """The answer a bare "yes" gives a form: each property's default."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return {}
    return {
        name: spec["default"]
        for name, spec in properties.items()
        if isinstance(spec, Mapping) and "default" in spec
    }
