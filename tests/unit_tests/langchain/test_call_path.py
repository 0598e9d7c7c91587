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


WING = ("session", "tools", "custom_tools", "files", "search", "toolkit", "types")


def _unit(module: str) -> str | None:
    """The unit of the session wing a module belongs to (`_session/` is one unit)."""
    parts = module.split(".")
    if parts[0] != OURS or len(parts) < 2:
        return None
    if parts[1] == "_session":
        return "_session"
    return parts[1] if parts[1] in WING else None


def test_creating_a_session_goes_down_and_comes_back_twice() -> None:
    """`ToolRouter.create_session`, call by call over the session wing's units: it enters the
    units below it in turn and comes back to a unit it left only twice, each for a reason
    docs/concepts/call-path.md gives (the service's answer names the custom tools' final
    slugs; the public session wraps what was opened)."""
    visited: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        unit = _unit(frame.f_globals.get("__name__", ""))
        if event == "call" and unit is not None and (not visited or visited[-1] != unit):
            visited.append(unit)

    with ToolRouter(
        api_key="ak_path",
        base_url="https://api.example.test",
        http_client=httpx.Client(transport=service([])),
    ) as router:
        router.create_session("warm-up")  # imports and caches: not part of the path
        sys.setprofile(profile)
        try:
            router.create_session("u1", toolkits=["notes"])
        finally:
            sys.setprofile(None)
    assert visited == ["session", "custom_tools", "_session", "custom_tools", "session", "files"]
    assert sum(unit in visited[:i] for i, unit in enumerate(visited)) == 2


def test_at_the_connect_link_request_the_deciding_code_is_on_the_stack() -> None:
    """A call refused for want of an account: when the link is requested, the code that
    decided to make it is on the stack, under at most two frames of flow machinery."""
    stacks: list[list[str]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/tools"):
            return httpx.Response(200, json=TOOLS)
        if path.endswith("/execute"):
            return httpx.Response(
                400,
                json={
                    "error": {
                        "message": "No active connection for toolkit 'notes'",
                        "slug": "ToolRouterV2_NoActiveConnection",
                        "status": 400,
                    }
                },
            )
        if path.endswith("/link"):
            stacks.append(ours(sys._getframe()))
            return httpx.Response(
                201,
                json={
                    "link_token": "lt_1",
                    "redirect_url": "https://connect.example.test/lt_1",
                    "connected_account_id": "ca_1",
                },
            )
        return httpx.Response(201, json=SESSION)

    with ToolRouter(
        api_key="ak_path",
        base_url="https://api.example.test",
        http_client=httpx.Client(transport=httpx.MockTransport(answer)),
    ) as router:
        tool = router.create_session("u1").get_tools()["NOTES_KV_GET"]
        reply = tool.invoke(
            {"type": "tool_call", "id": "c1", "name": tool.name, "args": {"key": "k"}}
        )
    assert "https://connect.example.test/lt_1" in reply.content
    names = short(stacks[0])
    assert "Connections.link" in names  # it found no link for the toolkit and makes one
    machinery = [name for name in names if name.split(".")[0] in ("run_sync", "SyncFace")]
    assert machinery == ["run_sync", "SyncFace.call"]
    assert names[-4:] == [
        "Connections.link",
        "SyncFace.call",
        "ToolRouterClient.create_link",
        "ToolRouterClient._send",
    ]
