"""Request helpers and constants shared by the emulator unit tests."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

API_KEY = "ak_unit"
OTHER_KEY = "ak_other_project"
V3 = "/api/v3/tool_router"
V31 = "/api/v3.1/tool_router"


def connect(client: TestClient, session_id: str, toolkit: str, prefix: str = V31) -> str:
    """Run the whole connect flow for a toolkit; returns the connected account id."""
    link = client.post(f"{prefix}/session/{session_id}/link", json={"toolkit": toolkit})
    assert link.status_code == 201, link.text
    page = client.get(link.json()["redirect_url"])
    assert page.status_code == 200
    account_id: str = link.json()["connected_account_id"]
    return account_id


def execute(
    client: TestClient,
    session_id: str,
    slug: str,
    arguments: dict[str, Any] | None = None,
    **extra: Any,
) -> Any:
    """POST execute and return the response object."""
    body = {"tool_slug": slug, "arguments": arguments or {}, **extra}
    return client.post(f"{V31}/session/{session_id}/execute", json=body)


def asgi_get(path: str, *headers: tuple[bytes, bytes]) -> dict[str, Any]:
    """The ASGI scope of a GET of `path` (for driving the app without a client)."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [*headers, (b"host", b"emulator")],
        "client": ("127.0.0.1", 1),
        "server": ("emulator", 80),
    }


async def receive_nothing() -> dict[str, Any]:
    """An ASGI `receive` of an empty request body."""
    return {"type": "http.request", "body": b"", "more_body": False}
