"""The official composio SDK (0.30, pinned) runs a session's connect flow against the emulator.

composio 0.30 pins composio-client 2.0.0rc19, which cannot share an environment with the
composio-client 1.43.0 the contract tests pin, so this module runs in an environment of its own:
``bash scripts/check_composio_sdk.sh`` (CI runs it). Elsewhere it is skipped.

The SDK runs with ``allow_tracking=False`` (otherwise a telemetry thread tries to reach the
internet), and an audit hook refuses, and fails the test for, any connection or name lookup
that is not this machine's loopback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from langchain_toolrouter.emulator import EmulatorServer

composio = pytest.importorskip(
    "composio", reason="the official SDK runs in its own environment: scripts/check_composio_sdk.sh"
)

_LOOPBACK = ("127.0.0.1", "::1", "localhost")
_attempts: list[str] = []
_guarding = False


def _offline(event: str, args: tuple[Any, ...]) -> None:
    if not _guarding:
        return
    if event == "socket.connect":
        address = args[1]
        host = address[0] if isinstance(address, tuple) else None
    elif event == "socket.getaddrinfo":
        host = args[0]
    else:
        return
    if host is not None and (host.decode() if isinstance(host, bytes) else host) not in _LOOPBACK:
        _attempts.append(f"{event} {host!r}")
        raise OSError(f"the composio SDK test reached for {host!r}; it must stay offline")


sys.addaudithook(_offline)  # hooks cannot be removed: it acts only while _guarding is set


@pytest.fixture
def offline() -> Iterator[None]:
    global _guarding
    _attempts.clear()
    _guarding = True
    try:
        yield
    finally:
        _guarding = False
    assert not _attempts, f"network access outside this machine: {_attempts}"


@pytest.mark.usefixtures("offline")
def test_the_sdk_authorizes_github_and_wait_for_connection_returns_active() -> None:
    # Our own pool, handed to the SDK and closed here (the SDK leaves its own open).
    with EmulatorServer() as server, httpx.Client() as http:
        sdk = composio.Composio(
            api_key=server.api_key,
            base_url=server.base_url,
            allow_tracking=False,
            http_client=http,
        )
        session = sdk.create(user_id="sdk-user", toolkits=["github", "notes"])
        names = [tool["function"]["name"] for tool in session.tools()]
        assert "COMPOSIO_MANAGE_CONNECTIONS" in names
        request = session.authorize("github")
        assert request.redirect_url.startswith(server.base_url)
        assert http.get(request.redirect_url).status_code == 200  # the user opens the link
        account = request.wait_for_connection(timeout=10)
        assert account.status == "ACTIVE"
        assert account.toolkit.slug == "github"
        assert sdk.toolkits.get("github").slug == "github"
        ran = session.execute("GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER", arguments={})
        assert ran.error is None
        assert [r["name"] for r in ran.data["repositories"]] == ["hello-world"]
        paths = {
            record.path.split("/")[3] for record in server.log if record.path.startswith("/api/")
        }
    assert paths == {"tool_router", "connected_accounts", "toolkits"}
