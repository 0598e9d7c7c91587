"""A session id is one segment of the URL path: one that would reach another endpoint is
refused before anything is sent, and the ids the service hands out go out unchanged."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from langchain_toolrouter.emulator import (
    DEFAULT_API_KEY,
    create_app,
    sync_transport,
)
from langchain_toolrouter.errors import RequestValidationError
from langchain_toolrouter.session import ToolRouter, ToolRouterSession

BASE_URL = "http://127.0.0.1"


@pytest.fixture
def sent() -> list[httpx.Request]:
    return []


@pytest.fixture
def router(sent: list[httpx.Request]) -> Iterator[ToolRouter]:
    app = create_app()
    hooks = {"request": [sent.append]}
    with (
        httpx.Client(transport=sync_transport(app), event_hooks=hooks) as http,  # type: ignore[arg-type]
        ToolRouter(api_key=DEFAULT_API_KEY, base_url=BASE_URL, http_client=http) as router,
    ):
        yield router


@pytest.fixture
def session(router: ToolRouter) -> ToolRouterSession:
    return router.create_session("ids-user", toolkits=["notes"])


@pytest.mark.parametrize("suffix", ["/tools", "/../other", "\\tools"])
def test_an_id_with_a_slash_is_refused_not_sent_to_another_endpoint(
    router: ToolRouter, session: ToolRouterSession, sent: list[httpx.Request], suffix: str
) -> None:
    # get_session(sid + "/tools") answered with the session's tool list (a confusing
    # ResponseValidationError); "../../x" reached other routes.
    sent.clear()
    with pytest.raises(RequestValidationError) as caught:
        router.get_session(session.session_id + suffix)
    message = str(caught.value)
    assert "session_id" in message
    assert "nothing was sent" in message
    assert "create_session returned" in message
    assert sent == []


@pytest.mark.parametrize("session_id", ["", "  "])
def test_an_empty_session_id_is_refused(
    router: ToolRouter, sent: list[httpx.Request], session_id: str
) -> None:
    with pytest.raises(RequestValidationError, match="session_id must be a non-empty string"):
        router.get_session(session_id)
    assert sent == []


async def test_the_async_twin_refuses_the_same() -> None:
    # Refused before any connection: no service is needed.
    async with ToolRouter(api_key="ak_test", base_url="http://127.0.0.1:9") as router:
        with pytest.raises(RequestValidationError, match="session_id"):
            await router.aget_session("trs_1/tools")
        with pytest.raises(RequestValidationError, match="non-empty"):
            await router.aget_session("")


def test_a_service_id_goes_out_unchanged(
    router: ToolRouter, session: ToolRouterSession, sent: list[httpx.Request]
) -> None:
    sent.clear()
    assert router.get_session(session.session_id).session_id == session.session_id
    assert sent[0].url.raw_path.decode().endswith(f"/session/{session.session_id}")
