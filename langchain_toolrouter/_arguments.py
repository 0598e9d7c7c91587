"""Checks of what callers pass to our LangChain classes, each failing with the fix in its text.

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
    "model_arguments",
    "require_number",
    "require_session",
    "require_text",
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


def require_text(what: str, value: object, *, example: str) -> str:
    """``value`` when it is a non-blank string.

    Raises:
        TypeError: not a string; ValueError: blank. Each naming ``what`` and an ``example``.
    """
    if not isinstance(value, str):
        msg = f"{what} must be a string such as {example!r}, got {type(value).__name__}"
        raise TypeError(msg)
    if not value.strip():
        msg = f"{what} is empty: pass a string such as {example!r}"
        raise ValueError(msg)
    return value


def require_number(
    what: str, value: object, *, minimum: float, strict: bool = False, infinite: bool = False
) -> float:
    """``value`` when it is a number ``>= minimum`` (``> minimum`` when ``strict``), finite
    unless ``infinite`` (``math.inf`` as "no limit") is allowed.

    Raises:
        TypeError: not a number (a bool is not one here); ValueError: NaN, or out of range.
    """
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        msg = f"{what} must be a number, got {type(value).__name__} {value!r}"
        raise TypeError(msg)
    if math.isnan(value) or (not infinite and math.isinf(value)):
        msg = f"{what} must be a finite number, got {value!r}"
        raise ValueError(msg)
    if value < minimum or (strict and value == minimum):
        bound = f"> {minimum:g}" if strict else f">= {minimum:g}"
        msg = f"{what} must be {bound}, got {value!r}"
        raise ValueError(msg)
    return float(value)
