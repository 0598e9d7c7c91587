"""langchain-mcp-adapters uses a session's MCP endpoint on the emulator, through the session's
`mcp_connection()`: tools loaded over MCP, then search, multi-execute, connect and a GitHub tool."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.client import MultiServerMCPClient
from mcp.shared.exceptions import McpError

from langchain_toolrouter import ToolRouter, ToolRouterSession
from langchain_toolrouter.emulator import EmulatorServer

GITHUB_REPOS = "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER"


@pytest.fixture
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer() as running:
        yield running


@pytest.fixture
def session(server: EmulatorServer) -> Iterator[ToolRouterSession]:
    with ToolRouter(api_key=server.api_key, base_url=server.base_url) as router:
        yield router.create_session(
            "mcp-user", toolkits=["github", "notes"], preload=[GITHUB_REPOS]
        )


def _answer(output: Any) -> dict[str, Any]:
    """The JSON of a tool's text answer (the adapters give a list of content blocks)."""
    blocks = output if isinstance(output, list) else [{"type": "text", "text": output}]
    answer: dict[str, Any] = json.loads(blocks[0]["text"])
    return answer


async def test_an_agent_s_tools_over_mcp(session: ToolRouterSession) -> None:
    connection = session.mcp_connection()
    assert connection["transport"] == "streamable_http"
    assert connection["url"] == session.mcp.url
    client = MultiServerMCPClient({"toolrouter": connection})  # type: ignore[dict-item]
    tools: dict[str, BaseTool] = {tool.name: tool for tool in await client.get_tools()}
    listed = [tool.name for tool in session.get_tools()]
    assert list(tools) == listed  # the same tools as GET .../tools

    found = _answer(
        await tools["COMPOSIO_SEARCH_TOOLS"].ainvoke(
            {"queries": [{"use_case": "save a value under a key"}]}
        )
    )
    assert found["data"]["results"][0]["primary_tool_slugs"][0] in ("NOTES_KV_SET", "NOTES_KV_GET")

    ran = _answer(
        await tools["COMPOSIO_MULTI_EXECUTE_TOOL"].ainvoke(
            {
                "tools": [
                    {"tool_slug": "NOTES_KV_SET", "arguments": {"key": "plan", "value": "ship"}},
                    {"tool_slug": "NOTES_KV_GET", "arguments": {"key": "plan"}},
                ],
                "sync_response_to_workbench": False,
            }
        )
    )
    assert ran["data"]["results"][1]["response"]["data"]["value"] == "ship"

    refused = _answer(await tools[GITHUB_REPOS].ainvoke({}))
    assert refused["error"]["slug"] == "ToolRouterV2_NoActiveConnection"
    link = _answer(await tools["COMPOSIO_MANAGE_CONNECTIONS"].ainvoke({"toolkits": ["github"]}))
    redirect = link["data"]["results"]["github"]["redirect_url"]
    async with httpx.AsyncClient() as browser:
        assert (await browser.get(redirect)).status_code == 200  # the user opens the link

    repos = _answer(await tools[GITHUB_REPOS].ainvoke({}))
    assert repos["result_type"] == "completed"
    assert [r["name"] for r in repos["data"]["repositories"]] == ["hello-world"]


def _causes(exc: BaseException) -> list[BaseException]:
    """The errors inside an MCP client's failure (it comes in exception groups)."""
    inner = [*getattr(exc, "exceptions", ()), exc.__cause__]
    nested = [cause for found in inner if found is not None for cause in _causes(found)]
    return nested or [exc]


async def _load_fails(connection: dict[str, Any]) -> list[BaseException]:
    try:
        await MultiServerMCPClient({"toolrouter": connection}).get_tools()  # type: ignore[dict-item]
    except Exception as exc:  # the client wraps its error in exception groups
        return _causes(exc)
    raise AssertionError("the tools loaded")


async def test_a_wrong_key_is_401(session: ToolRouterSession) -> None:
    connection = {**session.mcp_connection(), "headers": {"x-api-key": "ak_wrong"}}
    causes = await _load_fails(connection)
    assert [c.response.status_code for c in causes if isinstance(c, httpx.HTTPStatusError)] == [401]


async def test_a_deleted_session_is_404(session: ToolRouterSession) -> None:
    connection = session.mcp_connection()
    session.delete()
    # MCP clients read a 404 as "session terminated" (the transport's word for it).
    causes = await _load_fails(connection)
    assert [str(c) for c in causes if isinstance(c, McpError)] == ["Session terminated"]
    async with httpx.AsyncClient() as http:
        answer = await http.post(
            connection["url"],
            headers={**connection["headers"], "accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        )
    assert answer.status_code == 404
    assert answer.json()["error"]["slug"] == "ToolRouterV2_SessionNotFound"
