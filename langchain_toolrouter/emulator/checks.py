"""Checks of the emulator's constructor options, so a bad option fails where it is given.

Without them a wrong type is accepted and surfaces later: every request answers a 500
"emulator bug", or a background thread dies with a traceback. Each error names the option, what
it got and what to pass instead.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["check_integer", "check_number", "check_text", "describe"]


def describe(value: Any) -> str:
    """`value` as an error message shows it: its repr (shortened) and type."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def check_number(
    name: str, value: Any, *, minimum: float | None = None, positive: bool = False, hint: str = ""
) -> float:
    """A finite int or float (not a bool or a numeric string), `>= minimum` or `> 0`.

    Raises:
        TypeError: not a number.
        ValueError: not finite, or out of range.
    """
    fix = f"; {hint}" if hint else ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, got {describe(value)}{fix}")
    if not math.isfinite(value):
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
