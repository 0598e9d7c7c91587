"""Both clients end to end over ``httpx.MockTransport``: one test body per case, sync and async."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest

from langchain_toolrouter import AsyncToolRouterClient, ToolRouterClient, errors
from langchain_toolrouter.wire import models as m
from langchain_toolrouter.wire.retry import RetryPolicy
from tests.unit_tests.wire import _samples as s
from tests.unit_tests.wire._fakes import (
    API_KEY,
    BASE_URL,
    AnyClient,
    FakeService,
    call,
    collect,
    make_client,
    raises,
    reply,
)

SID = s.SESSION_ID
ROOT = "/api/v3/tool_router/session"

# (method, args, kwargs, HTTP method, path, status, response body, expected request body/query)
SUCCESS_CASES: list[tuple[str, tuple[Any, ...], dict[str, Any], str, str, int, Any, Any]] = [
    (
        "create_session",
        (),
        {"user_id": "user-1", "toolkits": ["gmail"], "manage_connections": {"enable": True}},
        "POST",
        ROOT,
        201,
        s.SESSION,
        {
            "user_id": "user-1",
            "toolkits": {"enable": ["gmail"]},
            "manage_connections": {"enable": True},
        },
    ),
    ("get_session", (SID,), {}, "GET", f"{ROOT}/{SID}", 200, s.SESSION, None),
    (
        "update_session",
        (SID,),
        {"expected_config_version": 1, "tools": None},
        "PATCH",
        f"{ROOT}/{SID}",
        200,
        {**s.SESSION, "config_version": 2},
        {"tools": None, "expected_config_version": 1},
    ),
    ("delete_session", (SID,), {}, "DELETE", f"{ROOT}/{SID}", 200, s.SESSION_DELETE, None),
    (
        "attach",
        (SID,),
        {
            "custom_tools": [
                {
                    "slug": "FIND",
                    "name": "Find",
                    "description": "Find a customer",
                    "input_schema": {"type": "object", "properties": {}},
                }
            ]
        },
        "POST",
        f"{ROOT}/{SID}/attach",
        200,
        s.SESSION,
        {
            "experimental": {
                "custom_tools": [
                    {
                        "slug": "FIND",
                        "name": "Find",
                        "description": "Find a customer",
                        "input_schema": {"type": "object", "properties": {}},
                    }
                ]
            }
        },
    ),
    (
        "list_config_history",
        (SID,),
        {"limit": 100},
        "GET",
        f"{ROOT}/{SID}/config_history",
        200,
        s.CONFIG_HISTORY,
        {"limit": "100"},
    ),
    (
        "execute",
        (SID, "GMAIL_FETCH_EMAILS", {"max_results": 2}),
        {"account": "work"},
        "POST",
        f"{ROOT}/{SID}/execute",
        200,
        s.EXECUTE_OK,
        {"tool_slug": "GMAIL_FETCH_EMAILS", "arguments": {"max_results": 2}, "account": "work"},
    ),
    (
        "execute_meta",
        (SID, "COMPOSIO_SEARCH_TOOLS", {"queries": []}),
        {},
        "POST",
        f"{ROOT}/{SID}/execute_meta",
        200,
        s.EXECUTE_OK,
        {"slug": "COMPOSIO_SEARCH_TOOLS", "arguments": {"queries": []}},
    ),
    (
        "create_link",
        (SID, "github"),
        {"callback_url": "https://app.test/done"},
        "POST",
        f"{ROOT}/{SID}/link",
        201,
        s.LINK,
        {"toolkit": "github", "callback_url": "https://app.test/done"},
    ),
    (
        "proxy_execute",
        (SID, "github", "/user", "get"),
        {"parameters": [{"name": "x-a", "value": "1"}]},
        "POST",
        f"{ROOT}/{SID}/proxy_execute",
        200,
        s.PROXY,
        {
            "toolkit_slug": "github",
            "endpoint": "/user",
            "method": "GET",
            "parameters": [{"name": "x-a", "value": "1"}],
        },
    ),
    (
        "list_toolkits",
        (SID,),
        {"limit": 20, "is_connected": True, "toolkits": ["gmail", "slack"]},
        "GET",
        f"{ROOT}/{SID}/toolkits",
        200,
        s.TOOLKIT_PAGE,
        {"limit": "20", "is_connected": "true", "toolkits": "gmail,slack"},
    ),
    (
        "list_tools",
        (SID,),
        {"limit": 500},
        "GET",
        f"{ROOT}/{SID}/tools",
        200,
        s.TOOL_PAGE,
        {"limit": "500"},
    ),
    (
        "search",
        (SID, "send an email"),
        {"model": "gpt-4o"},
        "POST",
        f"{ROOT}/{SID}/search",
        200,
        s.SEARCH,
        {"queries": [{"use_case": "send an email"}], "model": "gpt-4o"},
    ),
    (
        "list_mount_items",
        (SID,),
        {"prefix": "/reports", "limit": 10},
        "GET",
        f"{ROOT}/{SID}/mounts/files/items",
        200,
        s.MOUNT_PAGE,
        {"limit": "10", "mount_relative_prefix": "reports"},
    ),
    (
        "create_download_url",
        (SID, "a.txt"),
        {},
        "POST",
        f"{ROOT}/{SID}/mounts/files/download_url",
        200,
        s.DOWNLOAD,
        {"mount_relative_path": "a.txt"},
    ),
    (
        "create_upload_url",
        (SID, "data/out.csv"),
        {"mimetype": "text/csv"},
        "POST",
        f"{ROOT}/{SID}/mounts/files/upload_url",
        200,
        s.UPLOAD,
        {"mount_relative_path": "data/out.csv", "mimetype": "text/csv"},
    ),
    (
        "delete_mount_item",
        (SID, "a.txt"),
        {"mount_id": "other"},
        "POST",
        f"{ROOT}/{SID}/mounts/other/delete",
        200,
        s.MOUNT_DELETE,
        {"mount_relative_path": "a.txt"},
    ),
]

EXPECTED_TYPES = {
    "create_session": m.Session,
    "get_session": m.Session,
    "update_session": m.Session,
    "delete_session": m.SessionDeleteResult,
    "attach": m.Session,
    "list_config_history": m.ConfigHistoryPage,
    "execute": m.ExecuteResult,
    "execute_meta": m.ExecuteResult,
    "create_link": m.LinkResponse,
    "proxy_execute": m.ProxyResult,
    "list_toolkits": m.ToolkitPage,
    "list_tools": m.ToolPage,
    "search": m.SearchResponse,
    "list_mount_items": m.MountItemPage,
    "create_download_url": m.DownloadUrl,
    "create_upload_url": m.UploadUrl,
    "delete_mount_item": m.MountDeleteResult,
}


@pytest.mark.parametrize(
    ("method", "args", "kwargs", "http_method", "path", "status", "answer", "sent"),
    SUCCESS_CASES,
    ids=[case[0] for case in SUCCESS_CASES],
)
async def test_every_operation_sends_the_documented_request_and_parses_the_answer(
    client: AnyClient,
    service: FakeService,
    method: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    http_method: str,
    path: str,
    status: int,
    answer: Any,
    sent: Any,
) -> None:
    service.on(http_method, path, reply(status, answer))
    result = await call(client, method, *args, **kwargs)
    assert isinstance(result, EXPECTED_TYPES[method])
    [request] = service.requests
    assert request.method == http_method
    assert request.url.path == path
    assert request.headers["x-api-key"] == API_KEY
    assert request.headers["accept"] == "application/json"
    if http_method == "GET" or http_method == "DELETE":
        assert request.content == b""
        assert dict(request.url.params) == (sent or {})
    else:
        assert request.headers["content-type"] == "application/json"
        assert json.loads(request.content) == sent


def test_both_clients_offer_the_same_methods_in_the_same_order() -> None:
    def public(cls: type) -> list[str]:
        return [name for name in vars(cls) if not name.startswith("_")]

    sync_names = [n for n in public(ToolRouterClient) if n != "close"]
    async_names = [n for n in public(AsyncToolRouterClient) if n != "aclose"]
    assert sync_names == async_names
    assert set(EXPECTED_TYPES) <= set(sync_names)


async def test_results_are_the_parsed_models(client: AnyClient, service: FakeService) -> None:
    service.on(
        "POST",
        f"{ROOT}/{SID}/execute",
        reply(200, {"data": {}, "error": "bad input", "log_id": "l"}),
    )
    result = await call(client, "execute", SID, "X")
    assert result.successful is False
    assert result.error == "bad input"
    service.on("POST", f"{ROOT}/{SID}/proxy_execute", reply(200, s.PROXY))
    proxy = await call(client, "proxy_execute", SID, "github", "/user")
    assert proxy.status == 200
    assert isinstance(proxy.status, int)


async def test_session_ids_are_encoded_as_one_path_segment(
    client: AnyClient, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/a%3Fb%20c%23d", reply(200, s.SESSION))
    await call(client, "get_session", "a?b c#d")
    assert service.requests[0].url.raw_path == f"{ROOT}/a%3Fb%20c%23d".encode()


@pytest.mark.parametrize("session_id", ["trs_1/tools", "../../x", "a\\b"])
async def test_ids_with_a_slash_are_refused_not_routed_to_another_endpoint(
    client: AnyClient, service: FakeService, session_id: str
) -> None:
    # Sent as %2F, a slash is still decoded by many servers before routing:
    # "trs_1/tools" reached GET .../session/trs_1/tools (the tool list) on the emulator.
    with pytest.raises(errors.RequestValidationError) as caught:
        await call(client, "get_session", session_id)
    message = str(caught.value)
    assert "session_id" in message
    assert "one segment" in message
    assert "create_session returned" in message  # the fix
    assert service.requests == []


@pytest.mark.parametrize("session_id", ["", "   "])
async def test_an_empty_session_id_is_refused_with_the_fix(
    client: AnyClient, service: FakeService, session_id: str
) -> None:
    with pytest.raises(errors.RequestValidationError, match="non-empty") as caught:
        await call(client, "get_session", session_id)
    assert "create_session returned" in str(caught.value)
    assert service.requests == []


@pytest.mark.parametrize("session_id", [".", ".."])
async def test_dot_segment_ids_are_refused_not_normalised_into_another_endpoint(
    client: AnyClient, service: FakeService, session_id: str
) -> None:
    # "/session/../execute" would be normalised to "/tool_router/execute" and sent there.
    with pytest.raises(errors.RequestValidationError, match="session_id"):
        await call(client, "execute", session_id, "X")
    with pytest.raises(errors.RequestValidationError, match="mount_id"):
        await call(client, "list_mount_items", SID, mount_id=session_id)
    assert service.requests == []


async def test_percent_and_dots_inside_an_id_stay_literal(
    client: AnyClient, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/%252e%252e", reply(200, s.SESSION))
    await call(client, "get_session", "%2e%2e")
    assert service.requests[0].url.raw_path == f"{ROOT}/%252e%252e".encode()


async def test_api_version_selects_the_path_prefix(flavor: str, service: FakeService) -> None:
    made = make_client(flavor, service, api_version="v3.1")
    service.on("GET", f"/api/v3.1/tool_router/session/{SID}", reply(200, s.SESSION))
    await call(made, "get_session", SID)
    assert service.requests[0].url.path.startswith("/api/v3.1/")


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("status", "error_class"),
    [
        (400, errors.BadRequestError),
        (401, errors.AuthenticationError),
        (403, errors.PermissionDeniedError),
        (404, errors.NotFoundError),
        (409, errors.ConflictError),
        (422, errors.UnprocessableEntityError),
        (418, errors.APIError),
    ],
)
async def test_each_error_status_raises_its_class_with_the_body_fields(
    client: AnyClient, service: FakeService, status: int, error_class: type[errors.APIError]
) -> None:
    body = s.error_body(
        status,
        "Session not usable",
        code=4302,
        slug="ToolRouterV2_Something",
        request_id="req_1",
        suggested_fix="Connect the account first",
        errors=["toolkit gmail"],
    )
    service.on("GET", f"{ROOT}/{SID}", reply(status, body))
    with pytest.raises(error_class) as caught:
        await call(client, "get_session", SID)
    exc = caught.value
    assert type(exc) is error_class
    assert (exc.status, exc.code, exc.slug, exc.request_id) == (
        status,
        4302,
        "ToolRouterV2_Something",
        "req_1",
    )
    assert exc.suggested_fix == "Connect the account first"
    assert exc.errors == ["toolkit gmail"]
    assert exc.operation == "get_session"
    assert "Suggested fix: Connect the account first" in str(exc)
    assert len(service.requests) == 1, "4xx errors are never retried"


async def test_server_errors_raise_after_the_retries_run_out(
    client: AnyClient, service: FakeService, sleeps: list[float]
) -> None:
    service.on("GET", f"{ROOT}/{SID}", reply(502, "<html>bad gateway</html>"))
    with pytest.raises(errors.ServerError) as caught:
        await call(client, "get_session", SID)
    assert caught.value.status == 502
    assert "bad gateway" in caught.value.message
    assert len(service.requests) == 4
    assert len(sleeps) == 3


async def test_a_2xx_body_that_does_not_fit_names_the_operation_and_field(
    client: AnyClient, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/{SID}", reply(200, {"session_id": SID, "config": {"user_id": "u"}}))
    with pytest.raises(errors.ResponseValidationError) as caught:
        await call(client, "get_session", SID)
    assert caught.value.operation == "get_session"
    assert caught.value.field == "mcp"
    assert '"session_id"' in caught.value.body
    assert len(service.requests) == 1


async def test_a_non_json_2xx_body_is_a_validation_error(
    client: AnyClient, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/{SID}/tools", reply(200, "not json"))
    with pytest.raises(errors.ResponseValidationError, match="not JSON"):
        await call(client, "list_tools", SID)


async def test_bad_arguments_fail_before_anything_is_sent(
    client: AnyClient, service: FakeService
) -> None:
    with pytest.raises(errors.RequestValidationError, match="user_id"):
        await call(client, "create_session", toolkits=["gmail"])
    with pytest.raises(errors.RequestValidationError, match="session_id"):
        await call(client, "get_session", "")
    with pytest.raises(errors.RequestValidationError, match="method"):
        await call(client, "proxy_execute", SID, "github", "/x", "TRACE")
    assert service.requests == []


async def test_unknown_fields_are_refused_naming_the_field_and_the_known_ones(
    client: AnyClient, service: FakeService
) -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        await call(client, "create_session", user_id="u", toolkit=["github"])
    assert caught.value.errors[0].startswith("toolkit: unknown field; did you mean 'toolkits'?")
    assert "user_id" in caught.value.errors[0]
    assert "extra_body" in str(caught.value)
    with pytest.raises(errors.RequestValidationError, match=r"tools\.github\.enabel"):
        await call(client, "create_session", {"user_id": "u", "tools": {"github": {"enabel": []}}})
    with pytest.raises(errors.RequestValidationError, match=r"manage_connections\.callbak_url"):
        await call(client, "update_session", SID, manage_connections={"callbak_url": "x"})
    with pytest.raises(errors.RequestValidationError, match=r"custom_tools\.0\.extends"):
        await call(
            client,
            "execute",
            SID,
            "X",
            experimental={"custom_tools": [{**CUSTOM, "extends": "github"}]},
        )
    assert service.requests == []


CUSTOM = {
    "slug": "ping",
    "name": "Ping",
    "description": "d",
    "input_schema": {"type": "object", "properties": {}},
}


async def test_new_service_fields_go_out_through_extra_body_or_a_model(
    client: AnyClient, service: FakeService
) -> None:
    service.on("POST", "/api/v3/tool_router/session", reply(201, s.SESSION))
    await call(client, "create_session", user_id="u", extra_body={"future_block": {"on": True}})
    assert service.body() == {"user_id": "u", "future_block": {"on": True}}
    built = m.SessionCreateRequest(user_id="u", future_block=1, tools={"gh": {"new_key": 1}})
    await call(client, "create_session", built)
    assert service.body() == {"user_id": "u", "future_block": 1, "tools": {"gh": {"new_key": 1}}}
    await call(client, "create_session", built, toolkits=["github"])  # keywords merged in
    assert service.body()["future_block"] == 1
    nested = m.CustomToolDefinition.model_validate({**CUSTOM, "future": 1})
    service.on("POST", f"{ROOT}/{SID}/execute", reply(200, {"data": {}, "log_id": "l"}))
    await call(client, "execute", SID, "X", experimental={"custom_tools": [nested]})
    assert service.body()["experimental"]["custom_tools"][0]["future"] == 1


async def test_documented_newer_fields_are_known(client: AnyClient, service: FakeService) -> None:
    service.on("POST", "/api/v3/tool_router/session", reply(201, s.SESSION))
    await call(
        client,
        "create_session",
        user_id="u",
        toolkits={"enable": ["github"], "require_approval": ["github"]},
        proxy_execute={"enable": True},
        experimental={"no_elicitation_support_fallback": "deny"},
    )
    assert service.body()["proxy_execute"] == {"enable": True}


# --------------------------------------------------------------------------- pagination


async def test_iterators_walk_every_page(client: AnyClient, service: FakeService) -> None:
    pages = [
        {"items": [s.tool("A"), s.tool("B")], "next_cursor": "c1", "total_pages": 3.0},
        {"items": [s.tool("C")], "next_cursor": "c2"},
        {"items": [s.tool("D")], "next_cursor": ""},
    ]
    service.on("GET", f"{ROOT}/{SID}/tools", *(reply(200, page) for page in pages))
    tools = await collect(client, "iter_tools", SID, limit=2)
    assert [tool.slug for tool in tools] == ["A", "B", "C", "D"]
    cursors = [request.url.params.get("cursor") for request in service.requests]
    assert cursors == [None, "c1", "c2"]
    assert {request.url.params["limit"] for request in service.requests} == {"2"}


async def test_toolkit_and_mount_iterators_stop_when_the_cursor_is_absent(
    client: AnyClient, service: FakeService
) -> None:
    service.on(
        "GET",
        f"{ROOT}/{SID}/toolkits",
        reply(200, {"items": [s.toolkit("gmail")], "next_cursor": "n"}),
        reply(200, {"items": [s.toolkit("slack")]}),
    )
    service.on(
        "GET",
        f"{ROOT}/{SID}/mounts/files/items",
        reply(200, {"items": [s.mount_item("a")], "next_cursor": "n"}),
        reply(200, {"items": [s.mount_item("b")], "next_cursor": None}),
    )
    toolkits = await collect(client, "iter_toolkits", SID, is_connected=False)
    items = await collect(client, "iter_mount_items", SID, prefix="/")
    assert [t.slug for t in toolkits] == ["gmail", "slack"]
    assert [i.mount_relative_path for i in items] == ["a", "b"]
    assert all("mount_relative_prefix" not in r.url.params for r in service.requests[2:])


async def test_a_repeated_cursor_stops_the_iterator(
    client: AnyClient, service: FakeService
) -> None:
    service.on(
        "GET", f"{ROOT}/{SID}/tools", reply(200, {"items": [s.tool("A")], "next_cursor": "same"})
    )
    with pytest.raises(errors.ResponseValidationError, match="loop"):
        await collect(client, "iter_tools", SID)
    assert len(service.requests) == 2


# --------------------------------------------------------------------------- retries


async def test_rate_limit_waits_for_retry_after(
    client: AnyClient, service: FakeService, sleeps: list[float]
) -> None:
    service.on(
        "POST",
        f"{ROOT}/{SID}/execute",
        reply(429, s.error_body(429, "slow down"), {"Retry-After": "2"}),
        reply(429, s.error_body(429, "slow down"), {"retry-after-ms": "1500"}),
        reply(200, s.EXECUTE_OK),
    )
    result = await call(client, "execute", SID, "GMAIL_SEND_EMAIL", {"to": "a@b.c"})
    assert result.successful
    assert sleeps == [2.0, 1.5]
    assert len(set(service.request_ids())) == 1
    assert len(service.requests) == 3


async def test_a_retry_after_beyond_the_cap_is_raised_not_waited(
    client: AnyClient, service: FakeService, sleeps: list[float]
) -> None:
    service.on(
        "GET", f"{ROOT}/{SID}", reply(429, s.error_body(429, "later"), {"Retry-After": "3600"})
    )
    with pytest.raises(errors.RateLimitError) as caught:
        await call(client, "get_session", SID)
    assert caught.value.retry_after == 3600
    assert sleeps == []
    assert len(service.requests) == 1


async def test_reads_retry_through_a_503_burst_with_one_request_id(
    client: AnyClient, service: FakeService, sleeps: list[float]
) -> None:
    busy = reply(503, s.error_body(503, "unavailable"))
    service.on("GET", f"{ROOT}/{SID}/toolkits", busy, busy, busy, reply(200, s.TOOLKIT_PAGE))
    page = await call(client, "list_toolkits", SID)
    assert page.items[0].slug == "gmail"
    assert len(service.requests) == 4
    ids = service.request_ids()
    assert len(set(ids)) == 1
    assert ids[0] is not None
    assert len(ids[0]) == 32
    assert len(sleeps) == 3
    assert all(0 < wait <= 8 for wait in sleeps)
    assert sleeps[0] < sleeps[2], "backoff grows"


@pytest.mark.parametrize(
    "method",
    ["execute", "execute_meta", "proxy_execute", "create_session", "create_link", "update_session"],
)
async def test_unsafe_operations_are_not_retried_on_5xx(
    client: AnyClient, service: FakeService, method: str
) -> None:
    service.on("POST", f"{ROOT}/{SID}/execute", reply(503, s.error_body(503, "x")))
    service.on("POST", f"{ROOT}/{SID}/execute_meta", reply(503, s.error_body(503, "x")))
    service.on("POST", f"{ROOT}/{SID}/proxy_execute", reply(503, s.error_body(503, "x")))
    service.on("POST", ROOT, reply(503, s.error_body(503, "x")))
    service.on("POST", f"{ROOT}/{SID}/link", reply(503, s.error_body(503, "x")))
    service.on("PATCH", f"{ROOT}/{SID}", reply(503, s.error_body(503, "x")))
    arguments: dict[str, tuple[Any, ...]] = {
        "execute": (SID, "T"),
        "execute_meta": (SID, "COMPOSIO_SEARCH_TOOLS"),
        "proxy_execute": (SID, "github", "/user"),
        "create_session": (),
        "create_link": (SID, "github"),
        "update_session": (SID,),
    }
    extra = {"user_id": "u"} if method == "create_session" else {}
    with pytest.raises(errors.ServerError):
        await call(client, method, *arguments[method], **extra)
    assert len(service.requests) == 1


UNSAFE_CALLS: dict[str, tuple[str, str, tuple[Any, ...], dict[str, Any], Any]] = {
    "execute": ("POST", f"{ROOT}/{SID}/execute", (SID, "T"), {}, s.EXECUTE_OK),
    "execute_meta": ("POST", f"{ROOT}/{SID}/execute_meta", (SID, "M"), {}, s.EXECUTE_OK),
    "proxy_execute": ("POST", f"{ROOT}/{SID}/proxy_execute", (SID, "gh", "/u"), {}, s.PROXY),
    "create_session": ("POST", ROOT, (), {"user_id": "u"}, s.SESSION),
    "create_link": (
        "POST",
        f"{ROOT}/{SID}/link",
        (SID, "github"),
        {},
        {"connected_account_id": "ca_1", "link_token": "lt_1", "redirect_url": "https://x"},
    ),
    "update_session": ("PATCH", f"{ROOT}/{SID}", (SID,), {"search": {"enable": False}}, s.SESSION),
}


@pytest.mark.parametrize("method", sorted(UNSAFE_CALLS))
@pytest.mark.parametrize(
    ("first", "resent"),
    [
        (lambda: raises(httpx.ConnectError), True),
        (lambda: reply(429, {"error": {"message": "slow"}}, {"retry-after": "0"}), True),
        (lambda: raises(httpx.RemoteProtocolError), False),
        (lambda: raises(httpx.ReadTimeout), False),
        (lambda: reply(409, {"error": {"message": "stale"}}), False),
        (lambda: reply(502, {"error": {"message": "bad gateway"}}), False),
    ],
    ids=["connect-error", "429", "lost", "read-timeout", "409", "502"],
)
async def test_side_effecting_calls_are_resent_only_when_they_provably_never_ran(
    client: AnyClient, service: FakeService, method: str, first: Any, resent: bool
) -> None:
    http_method, path, args, kwargs, ok = UNSAFE_CALLS[method]
    service.on(http_method, path, first(), reply(201, ok))
    if resent:
        await call(client, method, *args, **kwargs)
        assert len(service.requests) == 2
        assert len(set(service.request_ids())) == 1, "one x-request-id for the logical call"
    else:
        with pytest.raises(errors.ToolRouterError):
            await call(client, method, *args, **kwargs)
        assert len(service.requests) == 1


@pytest.mark.parametrize(
    "lost", [httpx.RemoteProtocolError, httpx.ReadError, httpx.ReadTimeout, httpx.WriteError]
)
async def test_execute_is_not_resent_when_the_response_is_lost(
    client: AnyClient, service: FakeService, lost: type[httpx.TransportError]
) -> None:
    service.on(
        "POST", f"{ROOT}/{SID}/execute", raises(lost, "peer closed"), reply(200, s.EXECUTE_OK)
    )
    with pytest.raises(errors.TransportError) as caught:
        await call(client, "execute", SID, "GMAIL_SEND_EMAIL")
    assert caught.value.request_sent is True
    assert isinstance(caught.value, errors.ConnectionLostError | errors.RequestTimeoutError)
    assert len(service.requests) == 1


def _chain(exc: BaseException | None) -> list[BaseException]:
    seen: list[BaseException] = []
    while exc is not None and exc not in seen:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


@pytest.mark.parametrize("failure", [httpx.ReadTimeout, httpx.ConnectError, httpx.ReadError])
async def test_no_exception_in_the_chain_carries_the_key(
    client: AnyClient, service: FakeService, failure: type[httpx.TransportError]
) -> None:
    service.on("POST", f"{ROOT}/{SID}/execute", raises(failure, "peer closed"))
    with pytest.raises(errors.TransportError) as caught:
        await call(client, "execute", SID, "GMAIL_SEND_EMAIL")
    chain = _chain(caught.value)
    assert [type(e) for e in chain[1:]] == [failure], "httpx's error kept as the cause"
    assert str(chain[1]) == "peer closed"
    with pytest.raises(RuntimeError):  # httpx's copy has no request, so no headers
        chain[1].request  # type: ignore[attr-defined]  # noqa: B018
    for exc in chain:
        assert API_KEY not in repr(vars(exc)) + str(exc)


@pytest.mark.parametrize(
    "never_sent", [httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout]
)
async def test_execute_is_retried_when_the_connection_was_never_made(
    client: AnyClient, service: FakeService, never_sent: type[httpx.TransportError]
) -> None:
    service.on("POST", f"{ROOT}/{SID}/execute", raises(never_sent), reply(200, s.EXECUTE_OK))
    result = await call(client, "execute", SID, "GMAIL_SEND_EMAIL")
    assert result.successful
    assert len(service.requests) == 2
    assert len(set(service.request_ids())) == 1


async def test_reads_are_retried_after_a_lost_response(
    client: AnyClient, service: FakeService
) -> None:
    service.on(
        "GET",
        f"{ROOT}/{SID}",
        raises(httpx.RemoteProtocolError),
        raises(httpx.ReadTimeout),
        reply(200, s.SESSION),
    )
    session = await call(client, "get_session", SID)
    assert session.session_id == SID
    assert len(service.requests) == 3


async def test_transport_errors_propagate_typed_when_attempts_run_out(
    client: AnyClient, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/{SID}", raises(httpx.ConnectError, "refused"))
    with pytest.raises(errors.ConnectError) as caught:
        await call(client, "get_session", SID, request_id="my-id-1")
    assert caught.value.request_id == "my-id-1"
    assert caught.value.operation == "get_session"
    assert len(service.requests) == 4
    assert service.request_ids() == ["my-id-1"] * 4


async def test_disabled_retries_send_once(flavor: str, service: FakeService) -> None:
    made = make_client(flavor, service, retry=RetryPolicy.disabled())
    service.on("GET", f"{ROOT}/{SID}", reply(503, s.error_body(503, "x")), reply(200, s.SESSION))
    with pytest.raises(errors.ServerError):
        await call(made, "get_session", SID)
    assert len(service.requests) == 1


async def test_the_time_budget_bounds_retries(flavor: str, service: FakeService) -> None:
    sleeps: list[float] = []
    made = make_client(flavor, service, sleeps, retry=RetryPolicy(max_attempts=10, max_elapsed=3.0))
    service.on("GET", f"{ROOT}/{SID}", reply(429, s.error_body(429, "x"), {"Retry-After": "2"}))
    with pytest.raises(errors.RateLimitError):
        await call(made, "get_session", SID)
    assert sleeps == [2.0], "a second 2 s wait would cross the 3 s budget"


# --------------------------------------------------------------------------- timeouts and ids


async def test_timeouts_default_per_class_and_override_per_call(
    client: AnyClient, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/{SID}", reply(200, s.SESSION))
    service.on("POST", f"{ROOT}/{SID}/execute", reply(200, s.EXECUTE_OK))
    await call(client, "get_session", SID)
    await call(client, "execute", SID, "T")
    await call(client, "execute", SID, "T", timeout=7)
    await call(client, "get_session", SID, timeout=None)
    got = [request.extensions["timeout"] for request in service.requests]
    assert got[0] == {"connect": 5.0, "read": 30.0, "write": 30.0, "pool": 30.0}
    assert got[1]["read"] == 180.0
    assert got[2] == {"connect": 5.0, "read": 7.0, "write": 7.0, "pool": 7.0}
    assert got[3] == {"connect": None, "read": None, "write": None, "pool": None}


async def test_client_level_timeouts(flavor: str, service: FakeService) -> None:
    made = make_client(flavor, service, timeout=httpx.Timeout(2.0), execute_timeout=None)
    service.on("GET", f"{ROOT}/{SID}", reply(200, s.SESSION))
    service.on("POST", f"{ROOT}/{SID}/execute", reply(200, s.EXECUTE_OK))
    await call(made, "get_session", SID)
    await call(made, "execute", SID, "T")
    assert service.requests[0].extensions["timeout"]["read"] == 2.0
    assert service.requests[1].extensions["timeout"]["read"] is None


async def test_each_logical_call_gets_a_fresh_request_id(
    client: AnyClient, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/{SID}", reply(200, s.SESSION))
    await call(client, "get_session", SID)
    await call(client, "get_session", SID)
    first, second = service.request_ids()
    assert first != second


async def test_a_bad_request_id_override_is_refused(
    client: AnyClient, service: FakeService
) -> None:
    with pytest.raises(errors.RequestValidationError, match="request_id") as caught:
        await call(client, "get_session", SID, request_id="has space")
    assert caught.value.operation == "get_session"
    assert service.requests == []


# --------------------------------------------------------------------------- security


async def test_the_key_never_appears_in_reprs_logs_or_errors(
    flavor: str, service: FakeService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    made = make_client(flavor, service, retry=RetryPolicy(max_attempts=2, wait=False))
    echo = s.error_body(401, f"invalid key {API_KEY}", suggested_fix=f"replace {API_KEY}")
    service.on("GET", f"{ROOT}/{SID}", reply(503, "busy"), reply(401, echo))
    service.on("POST", f"{ROOT}/{SID}/execute", raises(httpx.ConnectError, "refused"))
    service.on("GET", f"{ROOT}/{SID}/tools", reply(200, f'{{"items": "{API_KEY}"}}'))
    seen: list[str] = [repr(made), str(made.settings), repr(made.settings)]
    for method, args in [("get_session", (SID,)), ("execute", (SID, "T")), ("list_tools", (SID,))]:
        with pytest.raises(errors.ToolRouterError) as caught:
            await call(made, method, *args)
        exc = caught.value
        seen += [str(exc), repr(exc), repr(vars(exc))]
    seen += [record.getMessage() for record in caplog.records]
    assert any("retrying" in text for text in seen), "the retry was logged"
    for text in seen:
        assert API_KEY not in text
    assert "[redacted]" in seen[3]


async def test_redirects_are_not_followed_so_the_key_stays_home(
    flavor: str, service: FakeService
) -> None:
    service.on("GET", f"{ROOT}/{SID}", reply(302, "", {"location": "https://evil.test/steal"}))
    transport = httpx.MockTransport(service)
    made: AnyClient
    if flavor == "sync":
        made = ToolRouterClient(
            api_key=API_KEY,
            base_url=BASE_URL,
            http_client=httpx.Client(transport=transport, follow_redirects=True),
        )
    else:
        made = AsyncToolRouterClient(
            api_key=API_KEY,
            base_url=BASE_URL,
            http_client=httpx.AsyncClient(transport=transport, follow_redirects=True),
        )
    with pytest.raises(errors.APIError) as caught:
        await call(made, "get_session", SID)
    assert caught.value.status == 302
    assert [request.url.host for request in service.requests] == ["toolrouter.test"]


# --------------------------------------------------------------------------- lifecycle


def test_sync_client_closes_what_it_opened() -> None:
    with ToolRouterClient(api_key=API_KEY) as made:
        http = made._http
    assert made.is_closed
    assert http.is_closed
    with pytest.raises(RuntimeError, match="closed"):
        made.get_session(SID)


async def test_async_client_closes_what_it_opened() -> None:
    async with AsyncToolRouterClient(api_key=API_KEY) as made:
        http = made._http
    assert made.is_closed
    assert http.is_closed
    with pytest.raises(RuntimeError, match="closed"):
        await made.get_session(SID)


def test_a_callers_http_client_is_left_open() -> None:
    own = httpx.Client(transport=httpx.MockTransport(FakeService()))
    with ToolRouterClient(api_key=API_KEY, http_client=own):
        pass
    assert not own.is_closed
    own.close()


def test_missing_key_fails_at_construction() -> None:
    with pytest.raises(errors.ConfigurationError, match="COMPOSIO_API_KEY"):
        ToolRouterClient()
    with pytest.raises(errors.ConfigurationError, match="COMPOSIO_API_KEY"):
        AsyncToolRouterClient(api_key="  ")


@pytest.mark.parametrize("cls", [ToolRouterClient, AsyncToolRouterClient])
@pytest.mark.parametrize("retry", [3, "x", False, {"max_attempts": 2}])
def test_a_retry_that_is_not_a_policy_fails_at_construction(cls: type[Any], retry: object) -> None:
    # retry=3 was kept, and failed at the first retry as "'int' object has no attribute
    # 'max_backoff'".
    with pytest.raises(errors.ConfigurationError) as caught:
        cls(api_key=API_KEY, retry=retry)
    message = str(caught.value)
    assert message.startswith("retry must be a RetryPolicy")
    assert f"got {retry!r}" in message
    assert "RetryPolicy(max_attempts=n)" in message
    assert "RetryPolicy.disabled()" in message


def test_a_retry_policy_or_none_is_accepted() -> None:
    with ToolRouterClient(api_key=API_KEY, retry=None) as made:
        assert made.retry_policy == RetryPolicy()
    with ToolRouterClient(api_key=API_KEY, retry=RetryPolicy.disabled()) as made:
        assert made.retry_policy.max_attempts == 1


@pytest.mark.parametrize("cls", [ToolRouterClient, AsyncToolRouterClient])
@pytest.mark.parametrize(
    ("arguments", "start"),
    [
        ({"timeout": float("nan")}, "timeout must be"),
        ({"timeout": httpx.Timeout(-1)}, "timeout must be"),
        ({"execute_timeout": -5}, "execute_timeout must be"),
        ({"base_url": ""}, "base_url is empty"),
        ({"base_url": 123}, "base_url must be a string"),
        ({"api_version": 3}, "api_version must be a string"),
    ],
)
def test_both_clients_refuse_bad_settings_by_name(
    cls: type[Any], arguments: dict[str, Any], start: str
) -> None:
    with pytest.raises(errors.ConfigurationError) as caught:
        cls(api_key=API_KEY, **arguments)
    assert str(caught.value).startswith(start)


async def test_deprecated_toolkits_are_warned_once(
    client: AnyClient, service: FakeService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="langchain_toolrouter")
    headers = {"Composio-Deprecated-Toolkits": f"oldkit-{id(client)}@1, oldkit-{id(client)}@2"}
    service.on("GET", f"{ROOT}/{SID}", reply(200, s.SESSION, headers))
    await call(client, "get_session", SID)
    await call(client, "get_session", SID)
    warned = [r.getMessage() for r in caplog.records if "deprecated" in r.getMessage()]
    assert len(warned) == 2
    assert f"oldkit-{id(client)}@1" in warned[0]


async def test_a_callers_raise_for_status_hook_still_gives_typed_errors(
    flavor: str, service: FakeService
) -> None:
    service.on(
        "GET",
        f"{ROOT}/{SID}",
        reply(404, s.error_body(404, "gone", slug="ToolRouterV2_SessionNotFound")),
    )
    transport = httpx.MockTransport(service)
    made: AnyClient
    if flavor == "sync":
        hooks: dict[str, Any] = {"response": [lambda response: response.raise_for_status()]}
        made = ToolRouterClient(
            api_key=API_KEY,
            base_url=BASE_URL,
            http_client=httpx.Client(transport=transport, event_hooks=hooks),
        )
    else:

        async def raise_for_status(response: httpx.Response) -> None:
            response.raise_for_status()

        made = AsyncToolRouterClient(
            api_key=API_KEY,
            base_url=BASE_URL,
            http_client=httpx.AsyncClient(
                transport=transport, event_hooks={"response": [raise_for_status]}
            ),
        )
    with pytest.raises(errors.NotFoundError) as caught:
        await call(made, "get_session", SID)
    assert caught.value.slug == "ToolRouterV2_SessionNotFound"
    assert len(service.requests) == 1, "a 404 is not retried as if the network had failed"


def test_the_time_budget_holds_whichever_hook_tenacity_calls_first() -> None:
    # tenacity < 8.3 calls stop before wait, when upcoming_sleep is still 0.
    import tenacity

    from langchain_toolrouter._config import UNSET
    from langchain_toolrouter.client import _CallLog
    from langchain_toolrouter.wire import operations as ops

    made = ToolRouterClient(
        api_key=API_KEY, base_url=BASE_URL, retry=RetryPolicy(max_attempts=10, max_elapsed=3.0)
    )
    request = made._prepare(
        ops.GET_SESSION, {"session_id": SID}, None, UNSET, None, extra_body=None
    )
    hooks = made._retry_options(ops.GET_SESSION, request, _CallLog())
    state = tenacity.RetryCallState(tenacity.Retrying(), fn=None, args=(), kwargs={})
    state.attempt_number = 2
    state.idle_for = 2.0
    limited = errors.RateLimitError("slow", status=429, retry_after=2)
    state.set_exception((type(limited), limited, None))
    assert hooks["stop"](state) is True, "2 s spent + 2 s planned crosses the 3 s budget"
    assert hooks["wait"](state) == 2.0
    made.close()


async def test_a_503_retry_after_is_honoured_and_capped(
    client: AnyClient, service: FakeService, sleeps: list[float]
) -> None:
    busy = s.error_body(503, "maintenance")
    service.on(
        "GET", f"{ROOT}/{SID}", reply(503, busy, {"Retry-After": "2"}), reply(200, s.SESSION)
    )
    await call(client, "get_session", SID)
    assert sleeps == [2.0]
    service.on("GET", f"{ROOT}/{SID}/tools", reply(503, busy, {"Retry-After": "3600"}))
    with pytest.raises(errors.ServerError) as caught:
        await call(client, "list_tools", SID)
    assert caught.value.retry_after == 3600
    assert len(service.requests) == 3, "an hour-long Retry-After is raised, not waited out"


async def test_a_call_that_succeeds_at_once_sets_up_no_retry_loop(
    client: AnyClient, service: FakeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tenacity

    made: list[str] = []

    class Counted(tenacity.Retrying):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            made.append("sync")
            super().__init__(*args, **kwargs)

    class CountedAsync(tenacity.AsyncRetrying):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            made.append("async")
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(tenacity, "Retrying", Counted)
    monkeypatch.setattr(tenacity, "AsyncRetrying", CountedAsync)
    service.on("POST", f"{ROOT}/{SID}/execute", reply(200, s.EXECUTE_OK))
    for _ in range(3):
        assert (await call(client, "execute", SID, "T")).successful
    assert made == []
    # A failed first attempt hands over to tenacity, once per call, with the same rules.
    service.on(
        "POST",
        f"{ROOT}/{SID}/execute",
        raises(httpx.ConnectError),
        raises(httpx.ReadError),
        reply(200, s.EXECUTE_OK),
    )
    with pytest.raises(errors.ConnectionLostError):
        await call(client, "execute", SID, "T")
    assert len(made) == 1
    assert len(service.requests) == 5, "3 calls, then one resent after a connect error"


def test_the_time_budget_counts_the_first_attempt_made_before_tenacity() -> None:
    import tenacity

    from langchain_toolrouter._config import UNSET
    from langchain_toolrouter.client import _CallLog
    from langchain_toolrouter.wire import operations as ops

    made = ToolRouterClient(
        api_key=API_KEY, base_url=BASE_URL, retry=RetryPolicy(max_attempts=10, max_elapsed=3.0)
    )
    request = made._prepare(
        ops.GET_SESSION, {"session_id": SID}, None, UNSET, None, extra_body=None
    )
    limited = errors.RateLimitError("slow", status=429, retry_after=1)
    for spent, stops in ((1.5, False), (2.5, True)):
        hooks = made._retry_options(ops.GET_SESSION, request, _CallLog(), spent_before=spent)
        state = tenacity.RetryCallState(tenacity.Retrying(), fn=None, args=(), kwargs={})
        state.attempt_number = 1
        state.set_exception((type(limited), limited, None))
        assert hooks["stop"](state) is stops, f"{spent} s spent + 1 s planned vs a 3 s budget"
    made.close()
