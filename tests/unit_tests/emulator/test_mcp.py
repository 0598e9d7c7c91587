"""Each session's MCP endpoint, driven in-process by the official `mcp` client."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamablehttp_client
from starlette.applications import Starlette
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import FaultRule, async_transport, create_app, sync_transport
from tests.unit_tests.emulator.calls import API_KEY, OTHER_KEY, V3, V31, connect, execute
from tests.unit_tests.emulator.conftest import SessionFactory

BASE = "http://emulator"


@pytest.fixture
async def http(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    # Entered: the transport runs the app's lifespan, which runs the MCP session manager.
    async with httpx.AsyncClient(
        transport=async_transport(app), base_url=BASE, headers={"x-api-key": API_KEY}
    ) as client:
        yield client


async def _session(http: httpx.AsyncClient, prefix: str = V31, **config: Any) -> dict[str, Any]:
    response = await http.post(f"{prefix}/session", json={"user_id": "alice", **config})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


@asynccontextmanager
async def _mcp(app: Starlette, url: str, key: str = API_KEY) -> AsyncIterator[ClientSession]:
    def factory(
        headers: dict[str, str] | None = None,
        timeout: httpx.Timeout | None = None,
        auth: httpx.Auth | None = None,
    ) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=async_transport(app), headers=headers, timeout=timeout, auth=auth
        )

    async with (
        streamablehttp_client(url, headers={"x-api-key": key}, httpx_client_factory=factory) as (
            read,
            write,
            _,
        ),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def _text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


@pytest.mark.usefixtures("http")
async def test_tools_list_is_the_rest_listing(app: Starlette, http: httpx.AsyncClient) -> None:
    created = await _session(
        http, toolkits={"enable": ["notes", "github"]}, preload={"tools": ["NOTES_KV_GET"]}
    )
    rest = (await http.get(f"{V31}/session/{created['session_id']}/tools")).json()["items"]
    async with _mcp(app, created["mcp"]["url"]) as mcp:
        listed = (await mcp.list_tools()).tools
    assert [t.name for t in listed] == [item["slug"] for item in rest]
    for tool, item in zip(listed, rest, strict=True):
        assert tool.inputSchema == item["input_parameters"]
        assert tool.description == item["description"]
        assert tool.title == item["name"]
    kv_get = listed[-1]
    assert kv_get.annotations is not None
    assert kv_get.annotations.readOnlyHint is True


async def test_tools_call_runs_meta_and_app_tools_like_execute(
    app: Starlette, http: httpx.AsyncClient
) -> None:
    created = await _session(http, preload={"tools": ["NOTES_KV_GET"]})
    session_id = created["session_id"]
    async with _mcp(app, created["mcp"]["url"]) as mcp:
        multi = await mcp.call_tool(
            "COMPOSIO_MULTI_EXECUTE_TOOL",
            {
                "tools": [{"tool_slug": "NOTES_KV_SET", "arguments": {"key": "k", "value": [1]}}],
                "sync_response_to_workbench": False,
            },
        )
        read = await mcp.call_tool("NOTES_KV_GET", {"key": "k"})
        missing = await mcp.call_tool("NOTES_KV_GET", {"key": "nope"})
    assert multi.isError is False
    assert read.isError is False
    assert read.structuredContent is not None
    assert read.structuredContent["data"] == {"key": "k", "value": [1]}
    # The same store as REST: what MCP wrote, REST reads.
    rest = (
        await http.post(
            f"{V31}/session/{session_id}/execute",
            json={"tool_slug": "NOTES_KV_GET", "arguments": {"key": "k"}},
        )
    ).json()
    assert rest["data"] == {"key": "k", "value": [1]}
    # A tool that ran and failed: its execute answer, as the error result's text.
    assert missing.isError is True
    failed = json.loads(_text(missing))
    assert failed["result_type"] == "failed"
    assert "NOTES_KV_SET" in failed["error"]
    log = app.state.emulator.log
    assert log.count("execute") == 4  # three over MCP, one over REST
    assert log.count("mcp") >= 4


async def test_refused_calls_are_error_results_with_the_service_error_body(
    app: Starlette, http: httpx.AsyncClient
) -> None:
    created = await _session(http, toolkits={"enable": ["github", "notes"]})
    async with _mcp(app, created["mcp"]["url"]) as mcp:
        unconnected = await mcp.call_tool("GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER", {})
        unknown = await mcp.call_tool("NO_SUCH_TOOL", {})
        invalid = await mcp.call_tool("NOTES_KV_SET", {"key": 3})
    assert unconnected.isError is True
    assert json.loads(_text(unconnected))["error"]["slug"] == "ToolRouterV2_NoActiveConnection"
    assert json.loads(_text(unknown))["error"]["status"] == 404
    assert invalid.isError is True
    assert "Invalid arguments for NOTES_KV_SET" in json.loads(_text(invalid))["error"]


async def test_a_connected_account_is_used_over_mcp(app: Starlette) -> None:
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        created = client.post(f"{V31}/session", json={"user_id": "alice"}).json()
        connect(client, created["session_id"], "github")
        async with (
            httpx.AsyncClient(transport=async_transport(app), base_url=BASE),
            _mcp(app, created["mcp"]["url"]) as mcp,
        ):
            repos = await mcp.call_tool("GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER", {})
        assert repos.isError is False
        assert repos.structuredContent is not None
        assert repos.structuredContent["result_type"] == "completed"


async def test_fault_rules_on_execute_apply_to_tool_calls(
    app: Starlette, http: httpx.AsyncClient
) -> None:
    created = await _session(http)
    faults = app.state.emulator.faults
    call = {"tools": [{"tool_slug": "NOTES_KV_SET", "arguments": {"key": "k", "value": 1}}]}
    async with _mcp(app, created["mcp"]["url"]) as mcp:
        faults.add(FaultRule(operation="execute", status=503, times=1))
        unavailable = await mcp.call_tool("COMPOSIO_MULTI_EXECUTE_TOOL", call)
        faults.add(FaultRule(operation="execute", drop="after", times=1))
        cut = await mcp.call_tool("COMPOSIO_MULTI_EXECUTE_TOOL", call)
        fine = await mcp.call_tool("COMPOSIO_MULTI_EXECUTE_TOOL", call)
    assert json.loads(_text(unavailable))["error"]["status"] == 503
    assert cut.isError is True
    assert "may or may not have run" in _text(cut)
    assert fine.isError is False


async def test_the_key_and_the_session_are_checked_first(
    app: Starlette, http: httpx.AsyncClient
) -> None:
    created = await _session(http)
    url = created["mcp"]["url"]
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"accept": "application/json, text/event-stream"}
    for headers in ({}, {"x-api-key": "wrong"}):
        refused = await http.post(
            url, json=ping, headers={**accept, **headers, "x-api-key": headers.get("x-api-key", "")}
        )
        assert refused.status_code == 401
        assert refused.json()["error"]["slug"] == "ToolRouterV2_Unauthorized"
    # Another project's key does not see the session.
    hidden = await http.post(url, json=ping, headers={**accept, "x-api-key": OTHER_KEY})
    assert hidden.status_code == 404
    await http.delete(f"{V31}/session/{created['session_id']}")
    gone = await http.post(url, json=ping, headers=accept)
    assert gone.status_code == 404
    assert gone.json()["error"]["slug"] == "ToolRouterV2_SessionNotFound"
    unknown = await http.post(
        url.replace(created["session_id"], "trs_none"), json=ping, headers=accept
    )
    assert unknown.status_code == 404


async def test_get_and_delete_answer_405(app: Starlette, http: httpx.AsyncClient) -> None:
    url = (await _session(http))["mcp"]["url"]
    for method in ("GET", "DELETE"):
        response = await http.request(method, url)
        assert response.status_code == 405
        assert response.headers["allow"] == "POST"


async def test_without_the_lifespan_the_endpoint_says_how_to_start_it(app: Starlette) -> None:
    # Not entered: no lifespan, so no session manager; REST still works.
    client = httpx.AsyncClient(
        transport=async_transport(app), base_url=BASE, headers={"x-api-key": API_KEY}
    )
    try:
        created = await _session(client)
        response = await client.post(
            created["mcp"]["url"],
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers={"accept": "application/json, text/event-stream"},
        )
    finally:
        await client.aclose()
    assert response.status_code == 503
    assert "async with" in response.json()["error"]["suggested_fix"]


def test_the_sync_transport_runs_the_lifespan_too(app: Starlette) -> None:
    with httpx.Client(
        transport=sync_transport(app), base_url=BASE, headers={"x-api-key": API_KEY}
    ) as client:
        created = client.post(f"{V3}/session", json={"user_id": "sync"}).json()
        response = client.post(
            created["mcp"]["url"],
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"accept": "application/json, text/event-stream"},
        )
    assert response.status_code == 200, response.text
    names = [tool["name"] for tool in response.json()["result"]["tools"]]
    assert names[0] == "COMPOSIO_SEARCH_TOOLS"


def test_a_v3_session_runs_its_calls_on_the_v3_paths() -> None:
    # v3 keeps custom tools with the session: its MCP calls go to the v3 execute.
    app = create_app(api_keys=[API_KEY])
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        created = client.post(f"{V3}/session", json={"user_id": "v3user"}).json()
        response = client.post(
            created["mcp"]["url"],
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {
                    "name": "COMPOSIO_SEARCH_TOOLS",
                    "arguments": {"queries": [{"use_case": "create a note"}]},
                },
            },
            headers={"accept": "application/json, text/event-stream"},
        )
        assert response.status_code == 200, response.text
        result = response.json()["result"]
        assert result["isError"] is False
        assert result["structuredContent"]["data"]["results"][0]["primary_tool_slugs"][0] == (
            "NOTES_CREATE_NOTE"
        )
    executed = app.state.emulator.log.filter("execute")
    assert [record.path.startswith(f"{V3}/") for record in executed] == [True]


# --------------------------------------------------------------------------- the body's text

_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _kv_set(value: str) -> bytes:
    arguments = f'{{"key": "k", "value": {value}}}'
    params = f'{{"name": "NOTES_KV_SET", "arguments": {arguments}}}'
    return f'{{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {params}}}'.encode()


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (_kv_set("NaN"), "NaN is not a JSON number"),
        (_kv_set("-Infinity"), "-Infinity is not a JSON number"),
        (_kv_set("1e999"), "1e999 is out of the range of a JSON number"),
        (_kv_set("9" * 5000), "for integer string conversion: value has 5000 digits"),
        (_kv_set("[" * 129 + "]" * 129), "nested more than 128 levels deep"),
        (_kv_set("[" * 5000 + "]" * 5000), "nested more than 128 levels deep"),
        (_kv_set('"\\ud800"'), "lone UTF-16 surrogate"),
        (b'{"jsonrpc": "2.0", "id": "\\udc00", "method": "tools/list"}', "lone UTF-16 surrogate"),
        (_kv_set('"?"').replace(b"?", b"\xff"), "'utf-8' codec can't decode byte 0xff"),
        (b"\xef\xbb\xbf" + _kv_set("1"), "byte order mark"),
        (b"", "The request body is empty"),
        (_kv_set("1")[:-3], "Expecting"),
    ],
)
def test_a_body_the_rest_rules_refuse_is_a_json_rpc_parse_error(
    client: TestClient, new_session: SessionFactory, body: bytes, problem: str
) -> None:
    # These were answered 500, or stored as null with a success answer (NaN, 1e999).
    url = client.get(f"{V31}/session/{new_session()}").json()["mcp"]["url"]
    response = client.post(url, content=body, headers=_HEADERS)
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] == "server-error"
    assert answer["error"]["code"] == -32700
    assert problem in answer["error"]["message"]
    data = answer["error"]["data"]  # the service's error, as REST answers the same body
    assert data["slug"] == "ToolRouterV2_BadRequest"
    assert data["request_id"] == response.headers["x-request-id"]
    session_id = url.split("/")[-2]
    read = execute(client, session_id, "NOTES_KV_GET", {"key": "k"}).json()
    assert "not set" in read["error"]  # nothing was stored


def test_arguments_reach_execute_as_sent_not_encoded_again(tmp_path: Any) -> None:
    # Non-ASCII text took six bytes per character once encoded again as ASCII JSON: a body
    # within the limit became one over it, and the call was answered with the 413 text.
    app = create_app(api_keys=[API_KEY], data_dir=tmp_path, max_body_bytes=64 * 1024)
    value = "é" * 30_000  # 60 KB as UTF-8, 180 KB as ASCII escapes
    body = _kv_set(json.dumps(value, ensure_ascii=False))
    assert len(body) < 64 * 1024
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        session_id = client.post(f"{V31}/session", json={"user_id": "u"}).json()["session_id"]
        url = client.get(f"{V31}/session/{session_id}").json()["mcp"]["url"]
        response = client.post(url, content=body, headers=_HEADERS)
        assert response.status_code == 200, response.text[:300]
        assert response.json()["result"]["isError"] is False
        read = execute(client, session_id, "NOTES_KV_GET", {"key": "k"}).json()
    assert read["data"]["value"] == value


def test_calls_of_tools_not_listed_and_malformed_messages_log_no_warning(
    client: TestClient, new_session: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    url = client.get(f"{V31}/session/{new_session()}").json()["mcp"]["url"]
    caplog.set_level(logging.DEBUG, logger="root")
    # NOTES_KV_GET is not preloaded, so not in tools/list: each call logged a WARNING.
    called = client.post(url, content=_kv_set("1").replace(b"KV_SET", b"KV_GET"), headers=_HEADERS)
    assert called.json()["result"]["isError"] is True  # ran: "not set"
    # A well-formed message the MCP library cannot validate: a root WARNING of 20+ lines.
    bad = b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 5}}'
    assert client.post(url, content=bad, headers=_HEADERS).json()["error"]["code"] == -32602
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    failed = [r.getMessage() for r in caplog.records if "Failed to validate" in r.getMessage()]
    assert failed
    assert all("\n" not in message for message in failed)
