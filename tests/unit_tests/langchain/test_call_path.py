"""The path of a tool call is what docs/concepts/call-path.md says: the functions of this
library on the stack when the request is sent, in order, sync and async."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import httpx

from langchain_toolrouter import ToolRouter

DOC = Path(__file__).resolve().parents[3] / "docs" / "concepts" / "call-path.md"
OURS = "langchain_toolrouter"
SESSION = {
    "session_id": "trs_path",
    "mcp": {"type": "http", "url": "https://api.example.test/mcp"},
    "config": {"user_id": "u1"},
}
TOOLS = {
    "items": [
        {
            "slug": "NOTES_KV_GET",
            "name": "Get",
            "description": "Read a key.",
            "input_parameters": {
                "type": "object",
                "properties": {"key": {"type": "string"}},
                "required": ["key"],
            },
            "toolkit": {"slug": "notes", "name": "Notes"},
        }
    ],
    "next_cursor": None,
}


def documented() -> list[str]:
    """The numbered list of the doc: `Class.method` of each step."""
    return re.findall(r"(?m)^\d+\. `([\w.]+)`", DOC.read_text(encoding="utf-8"))


def ours(frame: FrameType | None) -> list[str]:
    """Our functions on the stack, outermost first, as `Class.method`."""
    names: list[str] = []
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith(OURS) and not module.startswith(f"{OURS}.emulator"):
            names.append(_qualified(frame))
        frame = frame.f_back
    return names[::-1]


def _qualified(frame: FrameType) -> str:
    code = frame.f_code
    if sys.version_info >= (3, 11):
        return code.co_qualname
    owner = frame.f_locals.get("self")  # 3.10 has no co_qualname: the method's own class
    return f"{type(owner).__name__}.{code.co_name}" if owner is not None else code.co_name


def service(stacks: list[list[str]]) -> httpx.MockTransport:
    """A service that answers the session, its tools and executes, and records our stack at
    each execute."""

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/tools"):
            return httpx.Response(200, json=TOOLS)
        if request.url.path.endswith("/execute"):
            stacks.append(ours(sys._getframe()))
            return httpx.Response(200, json={"data": {"value": 1}, "error": None, "log_id": "l"})
        return httpx.Response(201, json=SESSION)

    return httpx.MockTransport(answer)


def short(stack: list[str]) -> list[str]:
    """`Class.method` of each qualified name."""
    return [".".join(name.split(".")[-2:]) for name in stack]


def test_the_sync_path_is_the_documented_one() -> None:
    stacks: list[list[str]] = []
    with ToolRouter(
        api_key="ak_path",
        base_url="https://api.example.test",
        http_client=httpx.Client(transport=service(stacks)),
    ) as router:
        tool = router.create_session("u1").get_tools()["NOTES_KV_GET"]
        tool.invoke({"type": "tool_call", "id": "c1", "name": tool.name, "args": {"key": "k"}})
    assert short(stacks[0]) == documented()


def test_the_async_path_mirrors_it() -> None:
    stacks: list[list[str]] = []

    async def main() -> Any:
        async with ToolRouter(
            api_key="ak_path",
            base_url="https://api.example.test",
            async_http_client=httpx.AsyncClient(transport=service(stacks)),
        ) as router:
            session = await router.acreate_session("u1")
            tool = (await session.aget_tools())["NOTES_KV_GET"]
            await tool.ainvoke(
                {"type": "tool_call", "id": "c1", "name": tool.name, "args": {"key": "k"}}
            )

    asyncio.run(main())
    names = short(stacks[0])
    # LangChain runs `_arun` as a task of its own (Python 3.11+), so the stack starts there.
    expected = ["ToolRouterTool._arun", "ToolCall.aexecute"]
    expected += ["AsyncToolRouterClient.execute", "AsyncToolRouterClient._send"]
    assert names[-4:] == expected
    assert names[0] in ("ToolRouterTool.ainvoke", "ToolRouterTool._arun")
