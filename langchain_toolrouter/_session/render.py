"""What a tool call produced, and the compact text a chat model reads about it.

Every path that runs a tool (the service's `execute`, a local custom tool, a merged
multi-execute, a user executor) ends in one `ToolOutcome`. The tool turns it into a
`(content, artifact)` pair: the content is compact JSON capped in size, because a model's
context is small and expensive; the artifact is the whole result, `log_id` included, for
the program around the model.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["DEFAULT_MAX_CONTENT_CHARS", "compact_json", "render_content"]

DEFAULT_MAX_CONTENT_CHARS = 20_000
"""Default cap on the text a model reads per tool call (the service's own offload threshold)."""


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
