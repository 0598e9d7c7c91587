"""Tools of a real session built in-process (no socket), for tests that only construct tools.

The async client talks to `create_app()` through `httpx.ASGITransport`; the session's tools are
built once per test run and cached.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import httpx

from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.emulator import create_app
from langchain_toolrouter.session import ToolRouter
from langchain_toolrouter.tools import ToolRouterTool

API_KEY = "ak_inprocess"


@custom_tool(preload=True)
def shout(text: str) -> dict[str, Any]:
    """Upper-case a text so it can be read from afar."""
    return {"text": text.upper()}


@functools.cache
def session_tools() -> dict[str, ToolRouterTool]:
    """Meta tools, a preloaded app tool and a custom tool of one in-process session."""
    app = create_app(api_keys=[API_KEY])

    async def build() -> dict[str, ToolRouterTool]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport) as http:
            router = ToolRouter(
                api_key=API_KEY,
                base_url="http://127.0.0.1",
                api_version="v3.1",
                async_http_client=http,
            )
            session = await router.acreate_session(
                "standard-tests",
                toolkits=["github", "notes"],
                preload=["NOTES_CREATE_NOTE"],
                custom_tools=[shout],
            )
            tools = await session.aget_tools()
            await router.aclose()
        return {tool.name: tool for tool in tools if isinstance(tool, ToolRouterTool)}

    return asyncio.run(build())
