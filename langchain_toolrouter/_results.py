"""What a tool call produced, and the compact text a chat model reads about it.

Every path that runs a tool (the service's `execute`, a local custom tool, a merged
multi-execute, a user executor) ends in one `ToolOutcome`. The tool turns it into a
`(content, artifact)` pair: the content is compact JSON capped in size, because a model's
context is small and expensive; the artifact is the whole result, `log_id` included, for
the program around the model.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEFAULT_MAX_CONTENT_CHARS", "ToolOutcome", "compact_json", "render_content"]

DEFAULT_MAX_CONTENT_CHARS = 20_000
"""Default cap on the text a model reads per tool call (the service's own offload threshold)."""


@dataclass(frozen=True)
class ToolOutcome:
    """The result of one tool call, whoever ran it.

    Attributes:
        successful: Whether the tool did what was asked.
        data: The tool's output (any JSON value; usually an object).
        error: The failure text when `successful` is false.
        log_id: The service's execution log id (`""` for calls run locally).
        extra: Further fields of the service's answer (e.g. `result_type`), kept as given.
    """

    successful: bool
    data: Any = None
    error: str | None = None
    log_id: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_wire(cls, body: Mapping[str, Any]) -> ToolOutcome:
        """Read an execute-shaped answer: `{data, error, log_id, result_type?, ...}`.

        Success is `result_type == "completed"` when the service sends a result type, and
        otherwise the absence of an error (wire reference section 3.5).
        """
        result_type = body.get("result_type")
        error = body.get("error") or None
        if result_type is not None:
            successful = result_type == "completed"
        elif "successful" in body:
            successful = bool(body["successful"])
        else:
            successful = error is None
        if not successful and error is None:
            error = _incomplete_reason(body)
        known = {"data", "error", "log_id", "successful"}
        return cls(
            successful=successful,
            data=body.get("data"),
            error=None if successful else str(error),
            log_id=str(body.get("log_id") or ""),
            extra={k: v for k, v in body.items() if k not in known},
        )

    def as_dict(self) -> dict[str, Any]:
        """The full result as plain data: `{successful, data, error, log_id, ...extra}`."""
        return {
            "successful": self.successful,
            "data": self.data,
            "error": self.error,
            "log_id": self.log_id,
            **self.extra,
        }


def _incomplete_reason(body: Mapping[str, Any]) -> str:
    """Why a run without an error text did not complete (blocked, needs input, ...)."""
    result_type = body.get("result_type")
    if result_type == "blocked":
        return f"the call was blocked: {body.get('message') or body.get('reason') or 'no reason given'}"
    if result_type == "input_required":
        requests = body.get("input_requests")
        asks = (
            [str(r.get("message")) for r in requests.values() if isinstance(r, Mapping)]
            if isinstance(requests, Mapping)
            else []
        )
        detail = "; ".join(a for a in asks if a and a != "None") or "no details given"
        return f"the tool needs more input from the user: {detail}"
    return f"the tool did not complete (result_type={result_type!r})"


def compact_json(value: Any) -> str:
    """JSON without spaces or ASCII escapes; values JSON cannot hold are shown with `str`."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def render_content(value: Any, max_chars: int = DEFAULT_MAX_CONTENT_CHARS) -> str:
    """Compact text for the model, cut to `max_chars` with a note saying what was cut."""
    return cut_text(compact_json(value), max_chars)


def cut_text(text: str, max_chars: int) -> str:
    """`text`, or its start and a note saying what was cut, in at most `max_chars` characters
    (the note alone when the cap is shorter than it)."""
    if len(text) <= max_chars:
        return text

    def note(shown: int) -> str:
        return (
            f"\n[truncated: {shown} of {len(text)} characters shown; full result in the artifact]"
        )

    shown = max(max_chars - len(note(max_chars)), 0)
    return text[:shown] + note(shown)
