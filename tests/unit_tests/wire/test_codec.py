"""The codec alone: requests built and responses parsed without any I/O."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import SecretStr

from langchain_toolrouter import errors
from langchain_toolrouter._config import ToolRouterSettings
from langchain_toolrouter.wire import models as m
from langchain_toolrouter.wire import operations as ops
from langchain_toolrouter.wire.codec import (
    RequestBuilder,
    build_request,
    check_origin,
    encode_query,
    map_transport_error,
    parse_error,
    parse_response,
)
from tests.unit_tests.wire import _samples as s

SETTINGS = ToolRouterSettings.resolve(api_key="ak_codec", base_url="https://svc.test/prefix/")


def _response(
    status: int, body: Any = None, headers: dict[str, str] | None = None, text: str | None = None
) -> httpx.Response:
    request = httpx.Request(
        "GET", "https://svc.test/x", headers={"x-api-key": "ak_codec", "x-request-id": "rid"}
    )
    if text is not None:
        return httpx.Response(status, content=text.encode(), headers=headers, request=request)
    return httpx.Response(status, json=body, headers=headers, request=request)


def test_build_request_for_a_body_operation() -> None:
    body = m.ExecuteRequest(tool_slug="T", arguments={"a": 1})
    request = build_request(ops.EXECUTE, SETTINGS, {"session_id": "trs_1"}, body, request_id="abc")
    assert request.method == "POST"
    assert str(request.url) == "https://svc.test/prefix/api/v3/tool_router/session/trs_1/execute"
    assert request.headers["x-api-key"] == "ak_codec"
    assert request.headers["x-request-id"] == "abc"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"].startswith("langchain-toolrouter/")
    assert json.loads(request.content) == {"tool_slug": "T", "arguments": {"a": 1}}
    assert request.extensions["timeout"]["read"] == 180.0


def test_build_request_for_a_query_operation() -> None:
    query = m.ListToolkitsQuery(toolkits=["gmail", "slack"], is_connected=False, limit=5)
    request = build_request(ops.LIST_TOOLKITS, SETTINGS, {"session_id": "s"}, query, request_id="r")
    assert request.url.params["toolkits"] == "gmail,slack"
    assert request.url.params["is_connected"] == "false"
    assert request.url.params["limit"] == "5"
    assert "cursor" not in request.url.params
    assert request.content == b""
    assert "content-type" not in request.headers


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        ("trs_abc", "trs_abc"),
        ("trs_AZaz09_-", "trs_AZaz09_-"),  # what the service hands out: sent unchanged
        ("a b?c#d", "a%20b%3Fc%23d"),
        ("a%2Fb", "a%252Fb"),
    ],
)
def test_path_segments_are_encoded(value: str, encoded: str) -> None:
    request = build_request(
        ops.DELETE_MOUNT_ITEM,
        SETTINGS,
        {"session_id": value, "mount_id": value},
        m.MountPathRequest(mount_relative_path="f"),
        request_id="r",
    )
    assert request.url.raw_path.decode().endswith(f"/session/{encoded}/mounts/{encoded}/delete")
    assert request.url.host == "svc.test"


@pytest.mark.parametrize("value", ["a/b", "../x", "trs_1/tools", "a\\b"])
def test_a_slash_in_a_path_parameter_is_refused(value: str) -> None:
    for params in (
        {"session_id": value, "mount_id": "files"},
        {"session_id": "s", "mount_id": value},
    ):
        with pytest.raises(errors.RequestValidationError, match="one segment") as caught:
            build_request(
                ops.DELETE_MOUNT_ITEM,
                SETTINGS,
                params,
                m.MountPathRequest(mount_relative_path="f"),
                request_id="r",
            )
        name = "session_id" if params["session_id"] == value else "mount_id"
        assert f"{name} {value!r}" in str(caught.value)


def test_path_parameters_are_checked() -> None:
    with pytest.raises(errors.RequestValidationError, match="missing"):
        build_request(ops.GET_SESSION, SETTINGS, {}, request_id="r")
    for blank in ("", " "):
        with pytest.raises(errors.RequestValidationError, match=r"non-empty.*create_session"):
            build_request(ops.GET_SESSION, SETTINGS, {"session_id": blank}, request_id="r")
    with pytest.raises(errors.RequestValidationError, match="ExecuteRequest"):
        build_request(
            ops.EXECUTE, SETTINGS, {"session_id": "s"}, m.LinkRequest(toolkit="g"), request_id="r"
        )


def test_encode_query_drops_unset_and_none() -> None:
    assert encode_query(m.ListToolsQuery()) == {}
    assert encode_query(m.ListMountItemsQuery(cursor="c", mount_relative_prefix=None)) == {
        "cursor": "c"
    }


def test_operation_table_matches_the_spec() -> None:
    assert len(ops.SPEC_OPERATIONS) == 13
    rows = {(op.method, op.path) for op in ops.SPEC_OPERATIONS}
    assert ("GET", "/tool_router/session/{session_id}") in rows
    assert ("POST", "/tool_router/session/{session_id}/mounts/{mount_id}/delete") in rows
    unsafe = {op.name for op in ops.ALL_OPERATIONS if op.retry is ops.RetryClass.UNSAFE}
    assert unsafe == {
        "execute",
        "execute_meta",
        "proxy_execute",
        "create_session",
        "create_link",
        "update_session",
    }
    assert ops.CREATE_SESSION.success_status == ops.CREATE_LINK.success_status == 201
    assert ops.OPERATIONS["list_mount_items"].path_params == ("session_id", "mount_id")


def test_parse_response_accepts_any_2xx() -> None:
    session = parse_response(ops.CREATE_SESSION, _response(200, s.SESSION))
    assert session.session_id == s.SESSION_ID


def test_parse_response_names_a_nested_bad_field() -> None:
    body = {"items": [{"slug": "ok"}, {"name": "no slug"}], "next_cursor": None}
    with pytest.raises(errors.ResponseValidationError) as caught:
        parse_response(ops.LIST_TOOLKITS, _response(200, body))
    exc = caught.value
    assert (exc.operation, exc.field, exc.status) == ("list_toolkits", "items.1.slug", 200)
    assert json.loads(exc.body) == body
    assert "list_toolkits" in str(exc)
    assert "items.1.slug" in str(exc)


def test_an_empty_2xx_body_is_a_validation_error_except_for_a_mount_delete() -> None:
    with pytest.raises(errors.ResponseValidationError):
        parse_response(ops.DELETE_SESSION, _response(204, text=""))
    # Every field of an execute or search result is optional, but an empty answer must never
    # read as a successful run (a broken proxy's empty 200).
    for op in (ops.EXECUTE, ops.EXECUTE_META, ops.SEARCH, ops.PROXY_EXECUTE):
        with pytest.raises(errors.ResponseValidationError):
            parse_response(op, _response(200, text=""))
    assert [op.name for op in ops.ALL_OPERATIONS if op.empty_ok] == ["delete_mount_item"]
    # The reference: "accept any 2xx" for the mount operations; nothing here is required.
    done = parse_response(ops.DELETE_MOUNT_ITEM, _response(204, text=""))
    assert done == m.MountDeleteResult()
    with pytest.raises(errors.ResponseValidationError):
        parse_response(ops.DELETE_MOUNT_ITEM, _response(200, text="null"))


@pytest.mark.parametrize(
    "arguments",
    [
        {"amount": float("inf")},
        {"fee": float("nan")},
        {"nested": [1, {"x": float("-inf")}]},
        {"raw": b"\xff\x00"},
        {"thing": object()},
    ],
)
def test_values_json_cannot_carry_are_refused_not_sent_as_null(arguments: dict[str, Any]) -> None:
    payload = m.ExecuteRequest(tool_slug="T", arguments=arguments)
    with pytest.raises(errors.RequestValidationError, match="JSON") as caught:
        build_request(ops.EXECUTE, SETTINGS, {"session_id": "trs_1"}, payload, request_id="r")
    assert "nothing was sent" in str(caught.value)


@pytest.mark.parametrize(
    ("body", "text", "expected"),
    [
        (
            {
                "error": {
                    "message": "gone",
                    "code": 4301.0,
                    "slug": "ToolRouterV2_SessionNotFound",
                    "status": 404,
                    "request_id": "req_9",
                    "suggested_fix": "create one",
                    "errors": ["a", "b"],
                }
            },
            None,
            {
                "message": "gone",
                "code": 4301,
                "slug": "ToolRouterV2_SessionNotFound",
                "request_id": "req_9",
                "suggested_fix": "create one",
                "errors": ["a", "b"],
            },
        ),
        (
            {
                "error": {
                    "message": "Validation error while processing request",
                    "error_code": 10400,
                }
            },
            None,
            {
                "message": "Validation error while processing request",
                "code": 10400,
                "request_id": "rid",
            },
        ),
        ({"error": "plain text error"}, None, {"message": "plain text error", "code": None}),
        (
            {"message": "top level", "code": "12", "slug": "S"},
            None,
            {"message": "top level", "code": 12, "slug": "S"},
        ),
        ({"detail": "fastapi style"}, None, {"message": "fastapi style"}),
        ({"error": {}}, None, {"message": "Not Found"}),
        (None, "<html>oops</html>", {"message": "<html>oops</html>", "body": "<html>oops</html>"}),
        (None, "", {"message": "Not Found", "body": None}),
        (
            {"error": {"message": "m", "errors": [{"loc": "x"}, None, 3]}},
            None,
            {"errors": ['{"loc": "x"}', "3"]},
        ),
    ],
)
def test_error_bodies_are_read_defensively(
    body: Any, text: str | None, expected: dict[str, Any]
) -> None:
    exc = parse_error(ops.GET_SESSION, _response(404, body, text=text))
    assert isinstance(exc, errors.NotFoundError)
    assert exc.status == 404
    assert exc.operation == "get_session"
    for name, value in expected.items():
        assert getattr(exc, name) == value, name


def test_error_message_reads_well() -> None:
    exc = parse_error(
        ops.EXECUTE,
        _response(
            400,
            s.error_body(
                400,
                "No active connection for gmail",
                code=4302,
                slug="ToolRouterV2_NoActiveConnection",
                request_id="req_1",
                suggested_fix="Connect gmail via create_link",
            ),
        ),
    )
    assert str(exc) == (
        "HTTP 400 from execute: No active connection for gmail "
        "[ToolRouterV2_NoActiveConnection, code 4302]. Suggested fix: Connect gmail via "
        "create_link (request id: req_1)"
    )


@pytest.mark.parametrize(
    ("headers", "retry_after"),
    [
        ({"Retry-After": "3"}, 3.0),
        ({"retry-after-ms": "250"}, 0.25),
        ({}, None),
        ({"Retry-After": "soon"}, None),
    ],
)
def test_rate_limit_errors_carry_retry_after(
    headers: dict[str, str], retry_after: float | None
) -> None:
    exc = parse_error(ops.SEARCH, _response(429, s.error_body(429, "slow"), headers))
    assert isinstance(exc, errors.RateLimitError)
    assert exc.retry_after == retry_after


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (500, errors.ServerError),
        (503, errors.ServerError),
        (599, errors.ServerError),
        (402, errors.APIError),
    ],
)
def test_status_families(status: int, cls: type[errors.APIError]) -> None:
    assert type(parse_error(ops.GET_SESSION, _response(status, {}))) is cls


@pytest.mark.parametrize(
    ("exc", "cls", "sent"),
    [
        (httpx.ConnectError("refused"), errors.ConnectError, False),
        (httpx.ConnectTimeout("slow"), errors.RequestTimeoutError, False),
        (httpx.PoolTimeout("busy"), errors.RequestTimeoutError, False),
        (httpx.ReadTimeout("slow"), errors.RequestTimeoutError, True),
        (httpx.WriteTimeout("slow"), errors.RequestTimeoutError, True),
        (httpx.ReadError("reset"), errors.ConnectionLostError, True),
        (httpx.WriteError("reset"), errors.ConnectionLostError, True),
        (httpx.RemoteProtocolError("closed"), errors.ConnectionLostError, True),
        (httpx.ProxyError("proxy down"), errors.ConnectError, False),
        (httpx.DecodingError("bad gzip"), errors.TransportError, True),
    ],
)
def test_transport_errors_say_whether_the_request_may_have_run(
    exc: httpx.HTTPError, cls: type[errors.TransportError], sent: bool
) -> None:
    mapped = map_transport_error(ops.EXECUTE, exc, "rid")
    assert type(mapped) is cls
    assert isinstance(mapped, errors.TransportError)
    assert mapped.request_sent is sent
    assert mapped.request_id == "rid"
    assert "execute" in str(mapped)
    # The message says it too, for whoever reads only the text (a log, session.execute).
    assert ("it may have run" in str(mapped)) is sent
    assert ("nothing was sent" in str(mapped)) is not sent


def test_the_key_is_only_sent_to_the_configured_origin() -> None:
    request = build_request(ops.GET_SESSION, SETTINGS, {"session_id": "s"}, request_id="r")
    request.url = httpx.URL("https://other.test/api/v3/tool_router/session/s")
    with pytest.raises(errors.ConfigurationError, match="refusing to send the API key"):
        check_origin(request, SETTINGS)


def test_a_builder_checks_its_origin_once_when_made() -> None:
    # Settings built by hand, past resolve()'s checks: "https:/" + "/api/v3" reads as the host
    # "api". The builder refuses it before any request exists.
    odd = ToolRouterSettings(api_key=SecretStr("ak_codec"), base_url="https:/")
    with pytest.raises(errors.ConfigurationError, match="refusing to send the API key to"):
        RequestBuilder(odd)


def test_a_builder_parses_each_url_once_and_reuses_it() -> None:
    builder = RequestBuilder(SETTINGS)
    url = builder.url(ops.EXECUTE, {"session_id": "trs_1"})
    assert builder.url(ops.EXECUTE, {"session_id": "trs_1"}) is url, "parsed once, then reused"
    first = builder.build(ops.EXECUTE, {"session_id": "trs_1"}, request_id="r1")
    again = builder.build(ops.EXECUTE, {"session_id": "trs_1"}, request_id="r2")
    assert first.url == again.url == url
    assert first.headers["x-request-id"] == "r1"
    assert again.headers["x-request-id"] == "r2"
    other = builder.build(ops.EXECUTE, {"session_id": "trs_2"}, request_id="r3")
    assert str(other.url).endswith("/session/trs_2/execute")
    # Bad parameters are refused every time, not remembered as good.
    for _ in range(2):
        with pytest.raises(errors.RequestValidationError, match="one segment"):
            builder.build(ops.EXECUTE, {"session_id": "a/b"}, request_id="r")
    for _ in range(2):
        with pytest.raises(errors.RequestValidationError, match="non-empty"):
            builder.build(ops.EXECUTE, {"session_id": ["trs_1"]}, request_id="r")  # type: ignore[dict-item]


def test_the_url_store_stays_bounded() -> None:
    builder = RequestBuilder(SETTINGS)
    for number in range(RequestBuilder._MAX_URLS * 2 + 3):
        url = builder.url(ops.GET_SESSION, {"session_id": f"trs_{number}"})
        assert str(url).endswith(f"/session/trs_{number}")
    assert 0 < len(builder._urls) <= RequestBuilder._MAX_URLS


@settings(max_examples=300, deadline=None)
@given(
    session_id=st.text(min_size=1, max_size=40),
    mount_id=st.text(min_size=1, max_size=10) | st.sampled_from(["@evil.test", "//evil.test"]),
    base_url=st.sampled_from(
        ["https://svc.test", "https://svc.test/prefix", "http://127.0.0.1:8765", "https://[::1]:9"]
    ),
)
def test_whatever_the_ids_requests_only_go_to_the_configured_origin(
    session_id: str, mount_id: str, base_url: str
) -> None:
    settings_ = ToolRouterSettings.resolve(api_key="ak_codec", base_url=base_url)
    builder = RequestBuilder(settings_)
    home = httpx.URL(base_url)
    for op, params in (
        (ops.GET_SESSION, {"session_id": session_id}),
        (ops.EXECUTE, {"session_id": session_id}),
        (ops.LIST_MOUNT_ITEMS, {"session_id": session_id, "mount_id": mount_id}),
    ):
        for _ in range(2):  # built, then taken from the builder's store
            try:
                request = builder.build(op, params, request_id="r")
            except errors.RequestValidationError:
                continue
            assert (request.url.scheme, request.url.host, request.url.port) == (
                home.scheme,
                home.host,
                home.port,
            )
            assert request.url.path.startswith(f"{home.path.rstrip('/')}/api/v3/tool_router/")


def test_extra_body_is_merged_unchecked_and_only_where_there_is_a_json_body() -> None:
    body = ops.EXECUTE.request_model.model_validate({"tool_slug": "T"})  # type: ignore[union-attr]
    request = build_request(
        ops.EXECUTE,
        SETTINGS,
        {"session_id": "s"},
        body,
        request_id="r",
        extra_body={"tool_slug": "OVERRIDE", "new": [1]},
    )
    assert json.loads(request.content) == {"tool_slug": "OVERRIDE", "new": [1]}
    with pytest.raises(errors.RequestValidationError, match="no JSON body"):
        build_request(
            ops.GET_SESSION, SETTINGS, {"session_id": "s"}, request_id="r", extra_body={"x": 1}
        )
    with pytest.raises(errors.RequestValidationError, match="not JSON"):
        build_request(
            ops.EXECUTE,
            SETTINGS,
            {"session_id": "s"},
            body,
            request_id="r",
            extra_body={"x": object()},
        )
    with pytest.raises(errors.RequestValidationError, match="not JSON"):
        build_request(
            ops.EXECUTE,
            SETTINGS,
            {"session_id": "s"},
            body,
            request_id="r",
            extra_body={"x": float("nan")},
        )


def test_a_path_parameter_with_spaces_around_it_is_refused() -> None:
    with pytest.raises(errors.RequestValidationError, match="has spaces around it; pass 'trs_1'"):
        build_request(
            ops.DELETE_MOUNT_ITEM,
            SETTINGS,
            {"session_id": " trs_1 ", "mount_id": "files"},
            m.MountPathRequest(mount_relative_path="f"),
            request_id="r",
        )
