"""Checks of what callers pass to our classes and functions (the emulator's too), each failing
with the fix in its text.

LangChain's pydantic-based classes (toolkits, retrievers) ignore keyword arguments they do not
know, so a typo such as ``exlude=[...]`` would silently leave a tool in that was meant to be
left out: ``unknown_arguments`` refuses them, naming the closest known one.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "check_integer",
    "check_number",
    "check_text",
    "describe",
    "model_arguments",
    "require_session",
    "unknown_arguments",
]


def unknown_arguments(owner: str, given: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse keys of ``given`` that are not ``known`` arguments of ``owner``.

    Raises:
        TypeError: naming each unknown argument, the closest known one, and what is known.
    """
    allowed = sorted(known)
    unknown = [key for key in given if key not in allowed]
    if not unknown:
        return
    hints = []
    for key in unknown:
        close = difflib.get_close_matches(str(key), allowed, n=1)
        hints.append(f"{key!r} (did you mean {close[0]!r}?)" if close else repr(key))
    msg = (
        f"{owner} got unknown argument{'s' if len(unknown) > 1 else ''} {', '.join(hints)}; "
        f"it takes: {', '.join(allowed)}"
    )
    raise TypeError(msg)


def require_session(owner: str, session: object, method: str) -> None:
    """Refuse a ``session`` that is not a Tool Router session (lacks ``method``).

    Raises:
        TypeError: naming what was given and where a session comes from.
    """
    if not callable(getattr(session, method, None)):
        msg = (
            f"{owner} needs session=<a ToolRouterSession>, from router.create_session(...) or "
            f"router.get_session(...); got {type(session).__name__}"
        )
        raise TypeError(msg)


def model_arguments(owner: str, data: object, known: Iterable[str], session_method: str) -> None:
    """What a session-backed LangChain model (toolkit, retriever) is built from, checked before
    pydantic reads it: no unknown argument, and a ``session`` that has ``session_method``.

    Raises:
        TypeError: see ``unknown_arguments`` and ``require_session``.
    """
    if isinstance(data, Mapping):
        unknown_arguments(owner, data, known)
        require_session(owner, data.get("session"), session_method)


def describe(value: Any) -> str:
    """`value` as an error message shows it: its repr (shortened) and type."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def check_number(
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    positive: bool = False,
    infinite: bool = False,
    hint: str = "",
) -> float:
    """A finite int or float (not a bool or a numeric string), `>= minimum` or `> 0`;
    `math.inf` too when `infinite` ("no limit").

    Raises:
        TypeError: not a number.
        ValueError: NaN, infinite (unless allowed), or out of range.
    """
    fix = f"; {hint}" if hint else ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, got {describe(value)}{fix}")
    if math.isnan(value) or (math.isinf(value) and not (infinite and value > 0)):
        raise ValueError(f"{name} must be a finite number, got {value}{fix}")
    if positive and value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}{fix}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum:g}, got {value}{fix}")
    return float(value)


def check_integer(
    name: str, value: Any, *, minimum: int | None = None, maximum: int | None = None, hint: str = ""
) -> int:
    """An int (not a bool, float or numeric string) within `[minimum, maximum]`.

    Raises:
        TypeError: not an int.
        ValueError: out of range.
    """
    fix = f"; {hint}" if hint else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {describe(value)}{fix}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "" if minimum is None else f"{minimum}"
        high = "" if maximum is None else f"{maximum}"
        span = f"within [{low}, {high}]" if low and high else f">= {low}" if low else f"<= {high}"
        raise ValueError(f"{name} must be {span}, got {value}{fix}")
    return value


def check_text(name: str, value: Any, *, hint: str = "") -> str:
    """A non-empty string.

    Raises:
        TypeError: not a string.
        ValueError: empty or only whitespace.
    """
    fix = f"; {hint}" if hint else ""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {describe(value)}{fix}")
    if not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}{fix}")
    return value
