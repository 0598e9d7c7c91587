"""JSON values as JSON Schema sees them: kinds, equality, hashable keys and exact copies.

Python's own ``==`` says ``True == 1`` and ``hash(1) == hash(True)``; JSON Schema says a boolean
is never a number, while ``1`` and ``1.0`` are the same number. These helpers encode the JSON
Schema view, and :func:`json_copy` refuses anything that is not plain JSON, so a payload never
carries a Python object (a datetime, a tuple, a NaN) to the service.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["NotJSONError", "describe", "freeze", "json_copy", "json_equal", "kind_of"]


class NotJSONError(ValueError):
    """A value that has no JSON representation; ``path`` says where it sits."""

    def __init__(self, path: tuple[str | int, ...], detail: str) -> None:
        super().__init__(detail)
        self.path = path
        self.detail = detail


def kind_of(value: Any) -> str:
    """The JSON type name of a value ("integer" only for ints), or its Python type name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def describe(value: Any) -> str:
    """A short description of a value for error messages: its JSON type and a preview."""
    kind = kind_of(value)
    if isinstance(value, (dict, list)) or value is None:
        return kind  # "null" says it all: no "null null"
    text = repr(value) if not isinstance(value, str) else '"' + value + '"'
    if isinstance(value, bool):
        text = "true" if value else "false"
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{kind} {text}"


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema's ``enum``/``const``/``uniqueItems`` define it."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return a is None and b is None


def freeze(value: Any) -> Any:
    """A hashable key such that ``freeze(a) == freeze(b)`` iff ``json_equal(a, b)``."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("a", tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        return ("o", frozenset((k, freeze(v)) for k, v in value.items()))
    return ("z", None)


# Deeper payloads are refused (as invalid arguments) before any recursive walk could exhaust
# Python's stack; no real tool call nests this deep.
MAX_DEPTH = 100


def json_copy(value: Any, path: tuple[str | int, ...] = ()) -> Any:
    """A deep copy of a JSON value; raises NotJSONError for anything JSON cannot carry: a
    Python object, a non-finite float, a key that is not a string, a string (or key) holding a
    lone surrogate (not Unicode text: no encoder can send it as UTF-8), and values nested
    deeper than ``MAX_DEPTH`` arrays/objects."""
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode()  # the quickest test for a surrogate, which UTF-8 cannot carry
            except UnicodeEncodeError as exc:
                raise _not_unicode("the string", value, exc.start, path) from None
        return value
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJSONError(path, f"{value!r} is not a JSON number")
        return value
    if len(path) >= MAX_DEPTH and isinstance(value, (dict, list)):
        raise NotJSONError(path, f"the value is nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise NotJSONError(path, f"object key {k!r} is not a string")
            if not k.isascii():
                try:
                    k.encode()
                except UnicodeEncodeError as exc:
                    raise _not_unicode(f"object key {k!r}", k, exc.start, path) from None
            out[k] = json_copy(v, (*path, k))
        return out
    if isinstance(value, list):
        return [json_copy(v, (*path, i)) for i, v in enumerate(value)]
    raise NotJSONError(path, f"a Python {type(value).__name__} is not a JSON value")


def _not_unicode(what: str, text: str, index: int, path: tuple[str | int, ...]) -> NotJSONError:
    return NotJSONError(
        path,
        f"{what} holds a lone surrogate (U+{ord(text[index]):04X} at index {index}), which is "
        "not Unicode text (JSON is Unicode); remove or replace it",
    )
