"""How friendly client arguments become wire payloads (shared by both clients)."""

from __future__ import annotations

from typing import Any

import pytest

from langchain_toolrouter import _client_calls as calls
from langchain_toolrouter import errors
from langchain_toolrouter.wire import models as m
from langchain_toolrouter.wire import operations as ops
from tests.unit_tests.wire._fakes import FakeService, call, reply
from tests.unit_tests.wire._samples import SESSION


def test_payload_leaves_out_what_was_not_given() -> None:
    body = calls.payload(ops.EXECUTE, tool_slug="T", arguments=None, account=None)
    assert isinstance(body, m.ExecuteRequest)
    assert body.to_wire() == {"tool_slug": "T"}


def test_payload_errors_name_the_field() -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        calls.payload(ops.CREATE_LINK, toolkit="")
    assert caught.value.operation == "create_link"
    assert caught.value.errors[0].startswith("toolkit:")
    assert "nothing was sent" in str(caught.value)


def test_merge_payload_passes_a_model_through_untouched() -> None:
    request = m.SessionCreateRequest(user_id="u")
    assert calls.merge_payload(ops.CREATE_SESSION, request, {}) is request


def test_merge_payload_lets_keywords_win_and_keeps_explicit_none() -> None:
    base = m.SessionUpdateRequest.model_validate(
        {"toolkits": {"enable": ["a"]}, "tags": ["readOnlyHint"]}
    )
    merged = calls.merge_payload(ops.UPDATE_SESSION, base, {"toolkits": ["b"], "tools": None})
    assert merged.model_dump(by_alias=True, exclude_unset=True) == {
        "toolkits": {"enable": ["b"]},
        "tags": ["readOnlyHint"],
        "tools": None,
    }
    from_mapping = calls.merge_payload(ops.CREATE_SESSION, {"user_id": "a"}, {"user_id": "b"})
    assert isinstance(from_mapping, m.SessionCreateRequest)
    assert from_mapping.user_id == "b"


def test_merge_payload_refuses_other_types() -> None:
    with pytest.raises(errors.RequestValidationError, match="mapping or a model"):
        calls.merge_payload(ops.CREATE_SESSION, ["user_id"], {})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("send mail", [{"use_case": "send mail"}]),
        (
            ["a", {"use_case": "b", "known_fields": "to:x"}],
            [{"use_case": "a"}, {"use_case": "b", "known_fields": "to:x"}],
        ),
        ({"use_case": "c"}, [{"use_case": "c"}]),
    ],
)
def test_search_queries(given: Any, expected: list[dict[str, str]]) -> None:
    assert calls.search_queries(given) == expected


def test_search_query_model_is_kept() -> None:
    query = m.SearchQuery(use_case="x")
    assert calls.search_queries(query) == [query]


@pytest.mark.parametrize(
    ("prefix", "sent"), [(None, None), ("", None), ("/", None), ("/a/b", "a/b"), ("a", "a")]
)
def test_mount_prefix(prefix: str | None, sent: str | None) -> None:
    assert calls.mount_prefix(prefix) == sent


@pytest.mark.parametrize("prefix", [5, b"a/", ["a"]])
def test_a_mount_prefix_that_is_not_text_is_refused(prefix: object) -> None:
    # It failed as "'int' object has no attribute 'lstrip'".
    with pytest.raises(errors.RequestValidationError, match="prefix must be a str") as caught:
        calls.mount_prefix(prefix)  # type: ignore[arg-type]
    assert type(prefix).__name__ in str(caught.value)


def test_inline_customs() -> None:
    assert calls.inline_customs(None, None) is None
    assert calls.inline_customs([], None) == {"custom_tools": []}


def test_cursor_tracker_stops_on_empty_and_on_a_loop() -> None:
    tracker = calls.CursorTracker(ops.LIST_TOOLS)
    assert tracker.next("a") == "a"
    assert tracker.next("b") == "b"
    assert tracker.next("") is None
    assert tracker.next(None) is None
    with pytest.raises(errors.ResponseValidationError, match="loop"):
        tracker.next("a")


async def test_create_session_accepts_a_model_a_mapping_or_keywords(
    client: Any, service: FakeService
) -> None:
    service.on("POST", "/api/v3/tool_router/session", reply(201, SESSION))
    await call(client, "create_session", m.SessionCreateRequest(user_id="m"))
    await call(client, "create_session", {"user_id": "d", "search": {"enable": False}})
    await call(client, "create_session", {"user_id": "d"}, user_id="k")
    assert [service.body(i) for i in range(3)] == [
        {"user_id": "m"},
        {"user_id": "d", "search": {"enable": False}},
        {"user_id": "k"},
    ]
