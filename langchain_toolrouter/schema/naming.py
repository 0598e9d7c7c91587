"""Python field names for JSON property names; the original name always stays the alias.

A property called ``first name``, ``from``, ``$vectorSearch``, ``model_config``, ``json`` or
``callbacks`` cannot be a pydantic field of that name (not an identifier, a keyword, a
``BaseModel`` attribute, pydantic's reserved ``model_`` namespace, a private ``_`` name, or a
LangChain run argument that ``BaseTool`` would swallow). Such a property gets a safe Python
attribute name and keeps its exact original name as the field's alias, so the wire payload and
the model-facing schema never see the Python name.
"""

from __future__ import annotations

import keyword
import re
import unicodedata
from collections.abc import Iterable

from pydantic import BaseModel

__all__ = ["field_names"]

# Names a property must not take as its Python attribute, beyond keywords and ``model_*``: a
# model class's attributes, its metaclass's included (``mro``, ``register``: pydantic warns that
# a field would shadow them).
_RESERVED = (
    frozenset(dir(BaseModel))
    | frozenset(dir(type(BaseModel)))
    | {
        "config",  # LangChain run arguments: BaseTool.run/invoke intercept these
        "callbacks",
        "run_manager",
        "tool_call_id",
        "self",
        "cls",
        "wire_payload",  # ArgsModel's own method
    }
)
_NOT_IDENT = re.compile(r"\W")


def _why_unsafe(name: str) -> str | None:
    if not name.isidentifier():
        return "is not a Python identifier"
    if not name.isascii():
        return "is not ASCII"
    if keyword.iskeyword(name):
        return "is a Python keyword"
    if name.startswith("_"):
        return "starts with '_' (pydantic treats it as private)"
    if name.startswith("model_"):
        return "is in pydantic's reserved 'model_' namespace"
    if name in _RESERVED:
        return "clashes with a BaseModel attribute or a LangChain run argument"
    return None


def _safe(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    base = _NOT_IDENT.sub("_", ascii_name).strip("_") or "field"
    if base[0].isdigit():
        base = "f_" + base
    if base.startswith("model_"):
        base = "m_" + base[len("model_") :]
    while _why_unsafe(base) is not None:
        base += "_"
    return base


def field_names(names: Iterable[str]) -> dict[str, tuple[str, str | None]]:
    """Map each property name to ``(python_name, reason_or_None)``; Python names are unique.

    ``reason`` is None when the property keeps its own name as the attribute.
    """
    names = list(names)
    taken = {n for n in names if _why_unsafe(n) is None}
    # The next suffix to try per candidate: many names that clean up alike ("a b", "a-b",
    # "a.b"...) then cost one probe each, not one per name already given that candidate.
    next_suffix: dict[str, int] = {}
    out: dict[str, tuple[str, str | None]] = {}
    for name in names:
        why = _why_unsafe(name)
        if why is None:
            out[name] = (name, None)
            continue
        candidate = _safe(name)
        n = next_suffix.get(candidate, 2)
        unique = candidate
        while unique in taken:
            unique = f"{candidate}_{n}"
            n += 1
        next_suffix[candidate] = n
        taken.add(unique)
        out[name] = (unique, why)
    return out
