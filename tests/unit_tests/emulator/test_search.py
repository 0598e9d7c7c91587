"""The search engine (BM25F and static embeddings) and the pagination helper, on their own."""

from __future__ import annotations

import logging

import pytest

from langchain_toolrouter.emulator.catalog import default_catalog
from langchain_toolrouter.emulator.errors import EmulatorError
from langchain_toolrouter.emulator.pagination import paginate
from langchain_toolrouter.emulator.search import (
    SearchDocument,
    ToolSearch,
    match_use_case,
    parameter_text,
    tokenize,
    tool_document,
)
from tests.unit_tests.emulator.calls import run_python

DOCS = [
    SearchDocument("CRM_FIND", "crm", "Find customer", "Look up a customer record by email"),
    SearchDocument("CRM_DELETE", "crm", "Delete customer", "Remove a customer record permanently"),
    SearchDocument("WEATHER_NOW", "weather", "Current weather", "Temperature and wind for a city"),
]
LEXICAL = ToolSearch(embed=None)


def test_tokenize_splits_slugs_drops_stopwords_and_folds_inflections() -> None:
    assert tokenize("GITHUB_CREATE_AN_ISSUE") == ["github", "creat", "issu"]
    assert tokenize("Creates issues") == tokenize("created issue") == ["creat", "issu"]
    assert tokenize("saving") == tokenize("saved") == tokenize("saves") == tokenize("save")
    assert tokenize("labelled") == tokenize("labels")
    assert tokenize("recently") == tokenize("recent")
    assert tokenize("the and of") == []


def test_tokenize_splits_camel_case_dots_and_drops_bare_numbers() -> None:
    assert tokenize("getCurrentWeather") == ["get", "current", "weath"]
    assert tokenize("uber.eat.order") == ["uber", "eat", "order"]
    assert tokenize("HTTPServer") == ["http", "server"]
    assert tokenize("issue 42 in 2024, plan p4") == ["issu", "plan", "p4"]


def test_tokenize_gives_character_pairs_for_scripts_without_spaces() -> None:
    assert tokenize("查询天气") == ["查询", "询天", "天气"]
    assert tokenize("에어컨을 켜") == ["에어", "어컨", "컨을", "켜"]
    assert tokenize("ส่งอีเมล") == ["ส่", "่ง", "งอ", "อี", "ีเ", "เม", "มล"]
    # Latin words inside such text stay words.
    assert tokenize("用GMAIL_SEND_EMAIL发邮件") == ["用", "gmail", "send", "email", "发邮", "邮件"]


def test_parameter_text_reads_names_descriptions_and_enums_at_any_depth() -> None:
    schema = {
        "type": "object",
        "properties": {
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "where": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "The town's name"}},
            },
            "tags": {
                "type": "array",
                "items": {"type": "object", "properties": {"label": {"title": "Tag label"}}},
            },
        },
    }
    assert parameter_text(schema).split() == (
        [
            "unit",
            "celsius",
            "fahrenheit",
            "where",
            "city",
            "The",
            "town's",
            "name",
            "tags",
            "label",
            "Tag",
            "label",
        ]
    )


@pytest.mark.parametrize(
    ("query", "best"),
    [
        ("look up customer by email", "CRM_FIND"),
        ("remove a customer", "CRM_DELETE"),
        ("wind in Paris", "WEATHER_NOW"),
    ],
)
@pytest.mark.parametrize("engine", [LEXICAL, ToolSearch()], ids=["lexical", "hybrid"])
def test_best_match_first(engine: ToolSearch, query: str, best: str) -> None:
    hits = engine.search(DOCS, query)
    assert hits[0].document.slug == best
    assert hits == sorted(hits, key=lambda h: -h.score)


@pytest.mark.parametrize("engine", [LEXICAL, ToolSearch()], ids=["lexical", "hybrid"])
def test_unrelated_query_finds_nothing(engine: ToolSearch) -> None:
    assert engine.search(DOCS, "quantum chromodynamics") == []
    assert engine.search(DOCS, "the of and") == []
    assert engine.search([], "customer") == []


def test_a_tool_is_found_by_its_slug_and_its_parameters() -> None:
    """The slug and the parameters are indexed, not only the name and the description."""
    documents = [
        tool_document(
            "ACME_RUN", "acme", "Run", "Starts a job.", {"properties": {"cron": {"type": "string"}}}
        ),
        tool_document("ACME_QUOTA_CHECK", "acme", "Check", "Reads a number.", {"properties": {}}),
        SearchDocument("ACME_STOP", "acme", "Stop", "Stops a job."),
    ]
    assert LEXICAL.search(documents, "cron expression")[0].document.slug == "ACME_RUN"
    assert LEXICAL.search(documents, "quota")[0].document.slug == "ACME_QUOTA_CHECK"


@pytest.mark.parametrize("use_case", ["publish a new codebase", "new project folder"])
def test_embeddings_rank_by_meaning_beside_the_words(use_case: str) -> None:
    """No word of these use cases names a repository; the words alone favour a note."""
    documents = [
        tool_document(t.slug, t.toolkit, t.name, t.description, t.input_schema)
        for t in default_catalog().tools.values()
    ]
    assert LEXICAL.search(documents, use_case)[0].document.slug == "NOTES_CREATE_NOTE"
    assert ToolSearch().search(documents, use_case)[0].document.slug == (
        "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER"
    )


def test_a_non_latin_query_naming_a_tool_finds_it() -> None:
    catalog = default_catalog()
    engine = ToolSearch()
    index = engine.index([], base=engine.catalog_documents(catalog))
    names = {slug: kit.name for slug, kit in catalog.toolkits.items()}
    for use_case, slug in [
        ("用 GMAIL_SEND_EMAIL 给安娜发一封邮件", "GMAIL_SEND_EMAIL"),
        ("NOTES_CREATE_NOTE로 메모를 만들어 줘", "NOTES_CREATE_NOTE"),
        ("ช่วยส่งอีเมลด้วย GMAIL_SEND_EMAIL", "GMAIL_SEND_EMAIL"),
        ("GOOGLECALENDAR_EVENTS_LIST で今週の予定を見せて", "GOOGLECALENDAR_EVENTS_LIST"),
    ]:
        found = match_use_case(
            index,
            use_case,
            allowed=frozenset(catalog.tools),
            toolkits=frozenset(catalog.toolkits),
            toolkit_names=names,
        )
        assert found.primary[0].slug == slug, use_case


def test_a_tool_described_in_another_script_is_found_in_it() -> None:
    documents = [
        SearchDocument("WEATHER_CN", "weather", "天气查询", "查询城市的天气预报"),
        SearchDocument("NEWS_KR", "news", "뉴스 검색", "최근 뉴스를 찾아 줍니다"),
    ]
    assert LEXICAL.search(documents, "北京明天的天气")[0].document.slug == "WEATHER_CN"
    assert LEXICAL.search(documents, "박지성 뉴스를 찾아줘")[0].document.slug == "NEWS_KR"


def test_use_case_naming_no_app_is_ranked_across_every_app() -> None:
    catalog = default_catalog()
    engine = ToolSearch()
    index = engine.index([], base=engine.catalog_documents(catalog))
    found = match_use_case(
        index,
        "delete something by its id",
        allowed=frozenset(catalog.tools),
        toolkits=frozenset(catalog.toolkits),
        toolkit_names={slug: kit.name for slug, kit in catalog.toolkits.items()},
    )
    assert [d.slug for d in found.primary[:2]] == [
        "GOOGLECALENDAR_DELETE_EVENT",
        "NOTES_DELETE_NOTE",
    ]


def test_search_keeps_only_allowed_tools() -> None:
    index = LEXICAL.index(DOCS)
    assert {h.document.slug for h in index.query("customer", 5)} == {"CRM_FIND", "CRM_DELETE"}
    allowed = frozenset({"CRM_DELETE", "WEATHER_NOW"})
    assert [h.document.slug for h in index.query("customer", 5, allowed=allowed)] == ["CRM_DELETE"]
    assert index.mask(allowed) is index.mask(allowed)  # a session's mask is built once


def test_index_is_reused_for_the_same_documents() -> None:
    engine = ToolSearch(cache_size=1, embed=None)
    engine.search(DOCS, "customer")
    index = engine.index(list(reversed(DOCS)))
    assert engine.index(DOCS) is index
    catalog = default_catalog()
    base = engine.catalog_documents(catalog)
    assert engine.catalog_documents(catalog) is base
    with_base = engine.index([], base=base)
    assert engine.index([], base=base) is with_base
    assert engine.index([DOCS[0]], base=base) is not with_base


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


def test_loading_the_embeddings_leaves_logging_alone() -> None:
    """wordllama calls `logging.basicConfig(level=INFO)` when imported; the emulator undoes it,
    so a process that configured no logging does not start printing every INFO line."""
    code = (
        "import logging\n"
        "from langchain_toolrouter.emulator.semantic import wordllama\n"
        "assert wordllama(['hello']).shape == (1, 256)\n"
        "root = logging.getLogger()\n"
        "print(root.level, len(root.handlers))\n"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(logging.WARNING), "0"], done.stderr
    assert done.stderr == ""
