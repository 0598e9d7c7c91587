"""The BM25 search engine and the pagination helper, on their own."""

from __future__ import annotations

import logging

import pytest

from langchain_toolrouter.emulator.errors import EmulatorError
from langchain_toolrouter.emulator.pagination import paginate
from langchain_toolrouter.emulator.search import SearchDocument, ToolSearch, tokenize

DOCS = [
    SearchDocument("CRM_FIND", "crm", "Find customer", "Look up a customer record by email"),
    SearchDocument("CRM_DELETE", "crm", "Delete customer", "Remove a customer record permanently"),
    SearchDocument("WEATHER_NOW", "weather", "Current weather", "Temperature and wind for a city"),
]


def test_tokenize_splits_slugs_drops_stopwords_and_folds_inflections() -> None:
    assert tokenize("GITHUB_CREATE_AN_ISSUE") == ["github", "creat", "issu"]
    assert tokenize("Creates issues") == tokenize("created issue") == ["creat", "issu"]
    assert tokenize("the and of") == []


@pytest.mark.parametrize(
    ("query", "best"),
    [
        ("look up customer by email", "CRM_FIND"),
        ("remove a customer", "CRM_DELETE"),
        ("wind in Paris", "WEATHER_NOW"),
    ],
)
def test_best_match_first(query: str, best: str) -> None:
    hits = ToolSearch().search(DOCS, query)
    assert hits[0].document.slug == best
    assert hits == sorted(hits, key=lambda h: -h.score)


def test_unrelated_query_finds_nothing() -> None:
    assert ToolSearch().search(DOCS, "quantum chromodynamics") == []
    assert ToolSearch().search(DOCS, "the of and") == []
    assert ToolSearch().search([], "customer") == []


def test_index_is_reused_for_the_same_documents() -> None:
    engine = ToolSearch(cache_size=1)
    engine.search(DOCS, "customer")
    index = engine._index(list(reversed(DOCS)))
    assert engine._index(DOCS) is index


def test_paginate_counters_and_cap() -> None:
    page = paginate(list(range(7)), cursor=None, limit=3, default_limit=10, max_limit=5)
    assert (page.items, page.current_page, page.total_items, page.total_pages) == (
        [0, 1, 2],
        1,
        7,
        3,
    )
    assert page.next_cursor is not None
    last = paginate(
        list(range(7)),
        cursor=paginate(
            list(range(7)), cursor=page.next_cursor, limit=None, default_limit=10, max_limit=5
        ).next_cursor,
        limit=None,
        default_limit=10,
        max_limit=5,
    )
    assert (last.items, last.current_page, last.next_cursor) == ([6], 3, None)
    capped = paginate(list(range(7)), cursor=None, limit=100, default_limit=10, max_limit=5)
    assert len(capped.items) == 5
    empty = paginate(list[int](), cursor=None, limit=None, default_limit=10, max_limit=5)
    assert (empty.items, empty.total_pages, empty.next_cursor) == ([], 1, None)


@pytest.mark.parametrize("cursor", ["!!!", "bm90LWEtY3Vyc29y", "MDow"])
def test_paginate_rejects_foreign_cursors(cursor: str) -> None:
    with pytest.raises(EmulatorError) as raised:
        paginate([1], cursor=cursor, limit=None, default_limit=10, max_limit=5)
    assert raised.value.status == 400


def test_bm25s_logs_at_the_configured_level(caplog: pytest.LogCaptureFixture) -> None:
    """bm25s sets its own logger to DEBUG on import; the emulator gives the level back, so a
    root logger at WARNING (a script's basicConfig) gets no index-building lines."""
    with caplog.at_level(logging.WARNING):
        assert not logging.getLogger("bm25s").isEnabledFor(logging.DEBUG)
