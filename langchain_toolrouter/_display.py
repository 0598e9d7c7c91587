"""HTML tables for Jupyter (`_repr_html_`) and plain-text tables for everything else.

Sessions, tool lists, search results and toolkit lists render through these two functions, so
a notebook shows a readable table and a terminal a clean aligned one. Every value is escaped;
long descriptions are shortened (the objects themselves keep everything).
"""

from __future__ import annotations

import difflib
import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from langchain_core.tools import BaseTool

__all__ = [
    "html_table",
    "not_found",
    "text_table",
    "tool_rows",
    "tools_html",
    "tools_text",
]

_MAX_CELL = 90
_T = TypeVar("_T")


def _short(value: Any, limit: int = _MAX_CELL) -> str:
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def html_table(
    headers: Sequence[str], rows: Iterable[Sequence[Any]], *, caption: str | None = None
) -> str:
    """An escaped HTML table (the caption and every cell are escaped)."""
    parts = ["<table>"]
    if caption:
        parts.append(f"<caption style='text-align:left'>{html.escape(caption)}</caption>")
    parts.append("<thead><tr>")
    parts.extend(f"<th style='text-align:left'>{html.escape(h)}</th>" for h in headers)
    parts.append("</tr></thead><tbody>")
    for row in rows:
        parts.append("<tr>")
        parts.extend(
            f"<td style='text-align:left'>{html.escape(_short(cell))}</td>" for cell in row
        )
        parts.append("</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def text_table(
    headers: Sequence[str], rows: Iterable[Sequence[Any]], *, caption: str | None = None
) -> str:
    """A plain table with aligned columns."""
    cells = [[_short(cell, 60) for cell in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    lines = [caption] if caption else []
    lines.append("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    lines.extend(
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    )
    return "\n".join(lines)


TOOL_HEADERS = ("name", "toolkit", "kind", "description")


def tool_rows(tools: Iterable[BaseTool]) -> list[tuple[str, str, str, str]]:
    """One row per tool: name, toolkit, kind (meta/app/custom/other) and description."""
    rows = []
    for tool in tools:
        meta: Mapping[str, Any] = tool.metadata or {}
        rows.append(
            (
                tool.name,
                str(meta.get("toolkit") or ""),
                str(meta.get("kind") or "other"),
                tool.description,
            )
        )
    return rows


def not_found(kind: str, key: str, names: Sequence[str]) -> KeyError:
    """The `KeyError` for a name a list does not hold: what it holds, and the closest name."""
    if not names:
        return KeyError(f"no {kind} {key!r}: the list is empty")
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6) or difflib.get_close_matches(
        key.upper(), [n.upper() for n in names], n=1, cutoff=0.6
    )
    hint = "."
    if close:
        match = next(n for n in names if n.upper() == close[0].upper())
        hint = f"; did you mean {match!r}?"
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} in all)" if len(names) > 20 else "")
    return KeyError(f"no {kind} {key!r} in this list{hint} It has: {shown}")


def tools_html(tools: Iterable[BaseTool], *, caption: str | None = None) -> str:
    """A tool list as an HTML table."""
    return html_table(TOOL_HEADERS, tool_rows(tools), caption=caption)


def tools_text(tools: Iterable[BaseTool], *, caption: str | None = None) -> str:
    """A tool list as a text table."""
    return text_table(TOOL_HEADERS, tool_rows(tools), caption=caption)
