"""The public API as users write it. Type-checked by mypy --strict (never run)."""

from __future__ import annotations

from langchain_core.tools import BaseTool

from langchain_toolrouter import (
    AsyncToolRouterClient,
    ToolRouter,
    ToolRouterClient,
    ToolRouterSession,
    ToolRouterToolkit,
    ToolSearch,
    custom_tool,
)
from langchain_toolrouter.errors import (
    APIError,
    ArgsValidationError,
    DeadlineExceededError,
    NotFoundError,
    ResponseTooLargeError,
    ToolRouterError,
)
from langchain_toolrouter.schema import json_schema_to_model


@custom_tool
def triage(title: str) -> dict[str, str]:
    """Suggest a label for an issue title."""
    return {"label": "bug" if "crash" in title else "question"}


def sync_use(router: ToolRouter) -> list[BaseTool]:
    session: ToolRouterSession = router.create_session(
        "alice", toolkits=["github"], custom_tools=[triage]
    )
    tools: list[BaseTool] = list(session.get_tools())
    tools.extend(session.search_tools("create a github issue"))
    search = ToolSearch(session)
    found: list[BaseTool] = search.invoke("send an email")
    toolkit = ToolRouterToolkit(session=session)
    return [*tools, *found, *toolkit.get_tools()]


async def async_use(router: ToolRouter) -> None:
    session = await router.acreate_session("bob", toolkits=["notes"])
    tools = await session.aget_tools()
    for tool in tools:
        assert isinstance(tool, BaseTool)


def client_use() -> str:
    with ToolRouterClient(api_key="ak_x", base_url="http://127.0.0.1:8000") as client:
        try:
            session = client.create_session(user_id="u1", toolkits={"enable": ["github"]})
            result = client.execute(session.session_id, "NOTES_CREATE_NOTE", {"title": "t"})
            return "ok" if result.successful else str(result.error)
        except NotFoundError as exc:
            return exc.message or ""
        except APIError as exc:
            return f"{exc.status} {exc.slug}"
        except ToolRouterError as exc:
            return str(exc)


def limits_use() -> str:
    with ToolRouterClient(
        api_key="ak_x", max_response_bytes=1 << 20, attempt_deadline=30
    ) as client:
        try:
            return str(client.execute("trs_1", "NOTES_KV_GET", {"key": "k"}).data)
        except ResponseTooLargeError as exc:
            return f"over {exc.limit} bytes; may have run: {exc.request_sent}"
        except DeadlineExceededError as exc:
            return f"still arriving after {exc.deadline} s"


def router_limits() -> ToolRouter:
    return ToolRouter(max_response_bytes=None, attempt_deadline=None)


async def async_client_use() -> int:
    async with AsyncToolRouterClient(api_key="ak_x") as client:
        count = 0
        async for _tool in client.iter_tools("trs_1"):
            count += 1
        return count


def schema_use() -> dict[str, object]:
    conversion = json_schema_to_model({"type": "object"}, name="t")
    try:
        return dict(conversion.validate({"a": 1}))
    except ArgsValidationError as exc:
        return {"errors": exc.errors}
