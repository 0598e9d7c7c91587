"""In-process emulator fixtures: the library talks to `create_app()` with no socket.

The sync client runs over Starlette's `TestClient`, the async one over `httpx.ASGITransport`,
and the presigned-URL transfers over key-less clients of the same app.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, create_app
from langchain_toolrouter.session import ToolRouter

API_KEY = "ak_unit_test_key"
BASE_URL = "http://testserver"


@pytest.fixture
def app(tmp_path: Path) -> Starlette:
    return create_app(api_keys=[API_KEY], data_dir=tmp_path / "mounts", seed=11)


@pytest.fixture
def emulator(app: Starlette) -> EmulatorState:
    state: EmulatorState = app.state.emulator
    return state


@pytest.fixture
def browser(app: Starlette) -> Iterator[TestClient]:
    """A key-less client, as the user's browser opening a connect link."""
    with TestClient(app) as client:
        yield client


def make_router(
    app: Starlette, http: TestClient, storage: TestClient, **options: object
) -> ToolRouter:
    return ToolRouter(
        api_key=API_KEY,
        base_url=BASE_URL,
        api_version=str(options.pop("api_version", "v3.1")),
        http_client=http,
        async_http_client=httpx.AsyncClient(transport=httpx.ASGITransport(app=app)),
        storage_client=storage,
        astorage_client=httpx.AsyncClient(transport=httpx.ASGITransport(app=app)),
        **options,  # type: ignore[arg-type]
    )


@pytest.fixture
def router(app: Starlette) -> Iterator[ToolRouter]:
    with TestClient(app) as http, TestClient(app) as storage:
        yield make_router(app, http, storage)
