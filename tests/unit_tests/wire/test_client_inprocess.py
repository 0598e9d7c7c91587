"""The clients over the emulator's ASGI app in-process: no socket, the caller's own http client."""

from __future__ import annotations

import ast
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from langchain_toolrouter import AsyncToolRouterClient, ToolRouterClient, errors
from langchain_toolrouter.emulator import DEFAULT_API_KEY, create_app

BASE_URL = "http://localhost"


def test_a_foreign_http_client_is_refused_clearly() -> None:
    # Starlette's TestClient is built on httpx2 here, not httpx: it cannot send httpx requests.
    with TestClient(create_app()) as foreign, pytest.raises(TypeError, match=r"httpx\.Client"):
        ToolRouterClient(api_key=DEFAULT_API_KEY, http_client=foreign)  # type: ignore[arg-type]
    with httpx.Client() as sync_http, pytest.raises(TypeError, match=r"httpx\.AsyncClient"):
        AsyncToolRouterClient(api_key=DEFAULT_API_KEY, http_client=sync_http)  # type: ignore[arg-type]


async def test_async_client_over_asgi_transport() -> None:
    app = create_app()
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app))
    async with AsyncToolRouterClient(
        api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=http
    ) as client:
        session = await client.create_session(user_id="inproc", toolkits=["notes"])
        result = await client.execute(session.session_id, "NOTES_CREATE_NOTE", {"title": "t"})
        assert result.successful
        tools = [tool.slug async for tool in client.iter_tools(session.session_id, limit=2)]
        assert "COMPOSIO_SEARCH_TOOLS" in tools
        with pytest.raises(errors.NotFoundError) as caught:
            await client.get_session("trs_missing")
        assert caught.value.slug
        assert caught.value.request_id
    assert not http.is_closed, "the caller's client is theirs to close"
    await http.aclose()


WIRE = Path(__file__).resolve().parents[3] / "langchain_toolrouter" / "wire"


@pytest.mark.parametrize("module", sorted(WIRE.glob("*.py")), ids=lambda p: p.name)
def test_the_wire_package_stays_free_of_langchain_io_and_the_emulator(module: Path) -> None:
    imported: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    forbidden = ("langchain_core", "langchain_toolrouter.emulator", "tenacity", "asyncio")
    assert not [name for name in imported if name.startswith(forbidden)]
