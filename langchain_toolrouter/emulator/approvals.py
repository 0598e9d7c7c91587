"""Approvals: tools a session asks the user to approve before they run.

A session created with `require_approval` lists (the shape the official SDK 0.30 sends:
`toolkits={"enable": [...], "require_approval": ["gmail"]}`, `tools={"gmail":
{"require_approval": ["GMAIL_SEND_EMAIL"]}}`, `tags={"require_approval": ["destructiveHint"]}`)
answers a call of such a tool with `result_type: "input_required"`: one form request (approve or
not) and an opaque `request_state`. The same call sent again with `input_responses` answering it
and that `request_state` runs (accepted) or is refused (declined, cancelled); a state is used
once, and only for the call it was made for.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from langchain_toolrouter.emulator.definitions import CatalogTool
from langchain_toolrouter.emulator.errors import bad_request
from langchain_toolrouter.emulator.store import SessionRecord, Store
from langchain_toolrouter.wire.models import SessionConfig

__all__ = ["APPROVAL", "approval", "needs_approval"]

APPROVAL = "approval"
"""The key of the approval request in `input_requests` (and of its answer)."""

_KEPT = 10_000

_SCHEMA = {
    "type": "object",
    "properties": {"approve": {"type": "boolean", "title": "Approve", "default": True}},
}


def needs_approval(config: SessionConfig, tool: CatalogTool) -> bool:
    """Whether the session asks the user to approve `tool` before it runs."""
    toolkits = config.toolkits.require_approval if config.toolkits else None
    if toolkits and tool.toolkit.lower() in {slug.lower() for slug in toolkits}:
        return True
    per_toolkit = (config.tools or {}).get(tool.toolkit)
    listed = per_toolkit.require_approval if per_toolkit else None
    if listed and tool.slug.upper() in {slug.upper() for slug in listed}:
        return True
    tags = config.tags.require_approval if config.tags else None
    return bool(tags and set(tool.tags) & set(tags))


def approval(
    store: Store,
    record: SessionRecord,
    tool: CatalogTool,
    arguments: dict[str, Any],
    *,
    input_responses: dict[str, Any] | None,
    request_state: Any,
) -> dict[str, Any] | str | None:
    """What an approval-needing call gets: `None` to run it (approved); the text of a refusal
    (declined, cancelled); or the `input_required` fields to answer with (not answered yet).

    Raises:
        EmulatorError: 400 for a `request_state` that is unknown, used, or another call's.
    """
    if request_state is None and not input_responses:
        state = store.new_id("rs_", 24)
        with store.lock:
            pending = _pending(store)
            pending[state] = _digest(record.id, tool.slug, arguments)
            while len(pending) > _KEPT:
                pending.popitem(last=False)
        return {
            "input_requests": {
                APPROVAL: {
                    "type": "elicitation",
                    "mode": "form",
                    "message": f"Approve running {tool.name} ({tool.slug})?",
                    "requested_schema": _SCHEMA,
                }
            },
            "request_state": state,
        }
    with store.lock:
        expected = (
            _pending(store).pop(request_state, None) if isinstance(request_state, str) else None
        )
    if expected is None or expected != _digest(record.id, tool.slug, arguments):
        raise bad_request(
            "request_state is not one this session gave for this call (unknown, already used, "
            "or another call's).",
            suggested_fix="Send the call again without input_responses to get a new request, "
            "then answer it with its request_state and the same arguments.",
            errors=["request_state: not a pending request of this call"],
        )
    answer = (input_responses or {}).get(APPROVAL)
    action = answer.get("action") if isinstance(answer, dict) else None
    content = answer.get("content") if isinstance(answer, dict) else None
    refused = isinstance(content, dict) and content.get("approve") is False
    if action == "accept" and not refused:
        return None
    why = "cancelled" if action == "cancel" else "declined"
    return f"{tool.slug} was not run: the user {why} to approve it."


def _pending(store: Store) -> OrderedDict[str, str]:
    return store.approvals


def _digest(session_id: str, slug: str, arguments: dict[str, Any]) -> str:
    text = json.dumps([session_id, slug.upper(), arguments], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()
