"""Errors raised by the schema layer.

::

    ValueError
    ├── SchemaConversionError   the tool schema is not an object schema at all (.pointer)
    └── ArgsValidationError     a call's arguments break the tool schema (.errors)

Both are ``ValueError`` subclasses so callers that only know "bad value" still catch them; the
context travels as attributes, never only inside the message.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ArgsValidationError", "SchemaConversionError"]


class SchemaConversionError(ValueError):
    """The schema cannot describe tool arguments (it is not an object schema).

    Attributes:
        pointer: JSON pointer to the offending part of the schema ("" is the root).
    """

    def __init__(self, message: str, *, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer


class ArgsValidationError(ValueError):
    """A tool call's arguments do not satisfy the tool's JSON Schema.

    Attributes:
        errors: one dict per problem: ``path`` (JSON pointer into the arguments, "" is the
            root), ``message`` (what is wrong) and ``expected`` (what would be accepted).
        tool: the tool name the arguments were meant for.
    """

    def __init__(self, errors: list[dict[str, Any]], *, tool: str = "") -> None:
        self.errors = errors
        self.tool = tool
        super().__init__(self._render())

    def _render(self) -> str:
        head = f"Invalid arguments for tool {self.tool!r}" if self.tool else "Invalid arguments"
        lines = [f"{head} ({len(self.errors)} problem{'s' if len(self.errors) != 1 else ''}):"]
        for err in self.errors:
            where = err["path"] or "(root)"
            lines.append(f"- at {where}: {err['message']}; expected {err['expected']}")
        lines.append("Fix the arguments listed above and call the tool again.")
        return "\n".join(lines)
