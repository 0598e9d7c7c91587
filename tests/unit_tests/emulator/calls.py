"""Request helpers and constants shared by the emulator unit tests."""

from __future__ import annotations

import subprocess
import sys
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


def search(client: TestClient, session_id: str, *use_cases: str) -> Any:
    """POST search with one query per use case and return the decoded answer."""
    queries = [{"use_case": use_case} for use_case in use_cases]
    response = client.post(f"{V31}/session/{session_id}/search", json={"queries": queries})
    assert response.status_code == 200, response.text
    return response.json()


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`code` run by this interpreter in a process of its own (output captured)."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=timeout
    )


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
