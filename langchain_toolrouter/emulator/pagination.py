"""Cursor pagination as the service does it: opaque `cursor`, `limit` capped per endpoint.

A cursor is base64 of `page:limit` (the docs describe the real one the same way); clients must
pass `next_cursor` back unchanged, and its page size wins over a `limit` sent with it. A limit
above an endpoint's maximum is capped to it.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from langchain_toolrouter.emulator.errors import bad_request

__all__ = ["Page", "paginate"]

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page and the counters the service returns with it."""

    items: list[T]
    current_page: int
    total_items: int
    total_pages: int
    next_cursor: str | None


def _encode(page: int, limit: int) -> str:
    return base64.urlsafe_b64encode(f"{page}:{limit}".encode()).decode()


def _decode(cursor: str) -> tuple[int, int]:
    try:
        page_text, limit_text = base64.urlsafe_b64decode(cursor.encode()).decode().split(":")
        page, limit = int(page_text), int(limit_text)
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise bad_request(
            f"cursor {cursor!r} is not a cursor this service issued.",
            suggested_fix="Pass the next_cursor of the previous page unchanged, or omit cursor "
            "for the first page.",
            errors=["cursor: invalid"],
        ) from exc
    if page < 1 or limit < 1:
        raise bad_request(
            f"cursor {cursor!r} is not a cursor this service issued.",
            suggested_fix="Pass the next_cursor of the previous page unchanged.",
            errors=["cursor: invalid"],
        )
    return page, limit


def paginate(
    items: Sequence[T],
    *,
    cursor: str | None,
    limit: int | None,
    default_limit: int,
    max_limit: int,
) -> Page[T]:
    """Slice `items` for the requested page; `limit` is capped.

    A cursor carries its page *and* page size, and both win over the query: a page number
    only means something with the size it was counted in, so a `limit` changed between pages
    would skip or repeat items.
    """
    page = 1
    if cursor:
        page, limit = _decode(cursor)
    size = min(limit or default_limit, max_limit)
    total = len(items)
    total_pages = max(1, -(-total // size))
    start = (page - 1) * size
    chunk = list(items[start : start + size])
    next_cursor = _encode(page + 1, size) if start + size < total else None
    return Page(chunk, page, total, total_pages, next_cursor)
