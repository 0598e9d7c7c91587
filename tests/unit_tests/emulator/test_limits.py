"""What the emulator accepts and keeps is bounded, and odd input is a 4xx, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, create_app
from langchain_toolrouter.emulator.strict_json import _depth_exceeds
from langchain_toolrouter.wire.operations import ALL_OPERATIONS
from tests.unit_tests.emulator.calls import API_KEY, V31, asgi_get, execute, receive_nothing
from tests.unit_tests.emulator.conftest import SessionFactory

LIMIT = 1024


@pytest.fixture
def small(tmp_path: Any) -> Iterator[TestClient]:
    app = create_app(api_keys=[API_KEY], data_dir=tmp_path, max_body_bytes=LIMIT)
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        yield client


def _state(client: TestClient) -> EmulatorState:
    state: EmulatorState = client.app.state.emulator  # type: ignore[attr-defined]
    return state


def _too_large(response: Any) -> None:
    assert response.status_code == 413, response.text
    error = response.json()["error"]
    assert error["slug"] == "ToolRouterV2_PayloadTooLarge"
    assert f"{LIMIT} byte limit" in error["message"]
    assert "max_body_bytes" in error["suggested_fix"]
    assert error["request_id"] == response.headers["x-request-id"]


def test_a_declared_body_over_the_limit_is_413_before_it_is_read(small: TestClient) -> None:
    body = json.dumps({"user_id": "u", "padding": "x" * LIMIT})
    response = small.post(f"{V31}/session", content=body)
    _too_large(response)
    assert response.headers["connection"] == "close"
    assert _state(small).store.sessions == {}
    assert _state(small).log.filter("create_session")[0].status == 413


def test_a_streamed_body_is_counted_as_it_arrives(small: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"user_id": "u", "padding": "'
        for _ in range(8):
            yield b"x" * 256
        yield b'"}'

    response = small.post(f"{V31}/session", content=chunks())
    _too_large(response)
    assert _state(small).store.sessions == {}


def test_a_body_within_the_limit_is_served(small: TestClient) -> None:
    response = small.post(f"{V31}/session", json={"user_id": "u" * 100})
    assert response.status_code == 201


def test_the_limit_applies_to_the_mcp_endpoint_too(small: TestClient) -> None:
    created = small.post(f"{V31}/session", json={"user_id": "u"}).json()
    response = small.post(
        created["mcp"]["url"],
        content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "x": "y" * LIMIT}),
        headers={"accept": "application/json, text/event-stream"},
    )
    _too_large(response)


def test_presigned_uploads_keep_their_own_larger_limit(small: TestClient) -> None:
    created = small.post(f"{V31}/session", json={"user_id": "u"}).json()
    mount = f"{V31}/session/{created['session_id']}/mounts/files"
    url = small.post(f"{mount}/upload_url", json={"mount_relative_path": "big.bin"}).json()
    with TestClient(small.app) as anonymous:
        uploaded = anonymous.put(url["upload_url"], content=b"x" * (LIMIT * 4))
    assert uploaded.status_code == 200, uploaded.text


@pytest.mark.parametrize(("option", "value"), [("max_body_bytes", 0), ("log_size", 0)])
def test_limits_must_be_positive(option: str, value: int) -> None:
    with pytest.raises(ValueError, match=rf"create_app\({option}=...\) must be >= 1"):
        create_app(**{option: value})


def test_url_ttl_is_at_most_seven_days() -> None:
    with pytest.raises(ValueError, match="at most 604800 seconds"):
        create_app(url_ttl=10**12)


async def test_ten_thousand_requests_leave_the_log_at_its_bound() -> None:
    app = create_app(api_keys=[API_KEY], log_size=100)
    log = app.state.emulator.log
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            sent.append(message)

    for index in range(10_000):
        scope = asgi_get(
            "/api/v3.1/tool_router/session/trs_none",
            (b"x-api-key", API_KEY.encode()),
            (b"x-request-id", f"r{index}".encode()),
        )
        await app(scope, receive_nothing, send)
    assert len(sent) == 10_000
    assert {message["status"] for message in sent} == {404}
    assert len(log) == 100
    assert [record.request_id for record in log.records] == [f"r{i}" for i in range(9_900, 10_000)]


# --------------------------------------------------------------------------- odd text


def test_a_lone_surrogate_stored_by_kv_set_is_refused_not_a_500(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    body = '{"tool_slug": "NOTES_KV_SET", "arguments": {"key": "k", "value": "a\\ud800b"}}'
    refused = client.post(f"{V31}/session/{session_id}/execute", content=body)
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"]["errors"] == ["arguments.value: lone surrogate"]
    # Nothing was stored: a later read is the tool's "not set", not a 500.
    read = execute(client, session_id, "NOTES_KV_GET", {"key": "k"})
    assert read.status_code == 200
    assert "not set" in read.json()["error"]
    # A pair is a character, and round-trips.
    paired = '{"tool_slug": "NOTES_KV_SET", "arguments": {"key": "k", "value": "\\ud83d\\ude00"}}'
    assert client.post(f"{V31}/session/{session_id}/execute", content=paired).status_code == 200
    assert execute(client, session_id, "NOTES_KV_GET", {"key": "k"}).json()["data"]["value"] == (
        "\U0001f600"
    )


@pytest.mark.parametrize(
    "body",
    [
        b'{"user_id": "\\udc00"}',
        b'{"user_id": "u", "\\ud800": 1}',
        b'{"user_id": "u", "\\ud83d\\ude00\\udfff": 1}',  # a pair, then a lone one
        b'{"user_id": "\xed\xa0\x80"}',  # a surrogate encoded as UTF-8 bytes: not UTF-8
        b'{"user_id": "\xff"}',
        b'\xef\xbb\xbf{"user_id": "u"}',  # a byte order mark
    ],
)
def test_invalid_text_in_any_body_is_400(
    client: TestClient, new_session: SessionFactory, body: bytes
) -> None:
    session_id = new_session()
    for op in ALL_OPERATIONS:
        if op.request_in != "body":
            continue
        path = f"/api/v3.1{op.path}".format(session_id=session_id, mount_id="files")
        response = client.request(op.method, path, content=body)
        assert response.status_code == 400, (op.name, response.text)
        assert response.json()["error"]["slug"] == "ToolRouterV2_BadRequest"


def test_a_lone_surrogate_over_mcp_is_refused(
    client: TestClient, new_session: SessionFactory
) -> None:
    session_id = new_session()
    url = client.get(f"{V31}/session/{session_id}").json()["mcp"]["url"]
    body = (
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": '
        '"COMPOSIO_MULTI_EXECUTE_TOOL", "arguments": {"tools": [{"tool_slug": "NOTES_KV_SET", '
        '"arguments": {"key": "k", "value": "\\ud800"}}]}}}'
    )
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    response = client.post(url, content=body, headers=headers)
    # Refused before the MCP library reads it: a JSON-RPC parse error with the REST error.
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == -32700
    assert error["data"]["errors"] == ["params.arguments.tools.0.arguments.value: lone surrogate"]
    assert "not set" in execute(client, session_id, "NOTES_KV_GET", {"key": "k"}).json()["error"]


@pytest.mark.parametrize(
    ("expires", "signature"),
    [
        ("9" * 5000, "0" * 64),  # more digits than an int may be parsed from
        ("99999999999999", "0" * 64),
        (None, "é" * 64),  # non-ASCII: a mismatch, not a TypeError
        (None, "\U0001f600"),
        (None, ""),
        ("", None),
    ],
)
def test_every_presigned_url_failure_is_403(
    client: TestClient,
    new_session: SessionFactory,
    app: Starlette,
    expires: str | None,
    signature: str | None,
) -> None:
    session_id = new_session()
    mount = f"{V31}/session/{session_id}/mounts/files"
    url = client.post(f"{mount}/upload_url", json={"mount_relative_path": "a.txt"}).json()
    target, _, query = url["upload_url"].partition("?")
    params = dict(part.split("=", 1) for part in query.split("&"))
    if expires is not None:
        params["expires"] = expires
    if signature is not None:
        params["signature"] = signature
    with TestClient(app) as anonymous:
        response = anonymous.put(target, params=params, content=b"x")
        assert response.status_code == 403, response.text
        assert response.json()["error"]["slug"] == "Emulator_PresignedUrlRejected"


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


_TRICKY_TEXT = st.text(alphabet='[]{}"\\/ab\n\u00e9\U0001f600', max_size=8)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | _TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TRICKY_TEXT, inner, max_size=3),
    max_leaves=30,
)


@given(value=_JSON, limit=st.integers(min_value=0, max_value=8), ascii_only=st.booleans())
def test_the_nesting_read_off_the_text_is_the_nesting_of_the_value(
    value: Any, limit: int, ascii_only: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert _depth_exceeds(text, limit) == (_depth(value) > limit)


ODD_SEGMENTS = ["%00", "%ED%A0%80", "%FF", "%E2%80%AE", "x" * 3000, "%2F%2E%2E", "\u00e9"]


@pytest.mark.parametrize("segment", ODD_SEGMENTS)
def test_odd_path_segments_and_queries_are_4xx_on_every_route(
    client: TestClient, app: Starlette, segment: str
) -> None:
    for route in app.routes:
        if route.path == "/openapi.json":  # type: ignore[attr-defined]
            continue  # takes nothing: a 200 whatever is sent
        methods = getattr(route, "methods", None) or {"GET"}
        path = route.path.replace("{path:path}", segment)  # type: ignore[attr-defined]
        for name in ("session_id", "mount_id", "account_id", "toolkit_slug", "link_token"):
            path = path.replace("{" + name + "}", segment)
        for method in methods - {"HEAD"}:
            response = client.request(
                method,
                f"{path}?cursor={segment}&limit={segment}&toolkits={segment}&expires={segment}",
                content=b"\xff\xfe{",
                headers={
                    "content-type": "application/json",
                    "accept": "application/json, text/event-stream",
                },
            )
            assert 400 <= response.status_code < 500, (method, path, response.text)
