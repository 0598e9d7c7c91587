"""Fixtures: an in-process emulator app and a TestClient that sends the API key."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, create_app
from tests.unit_tests.emulator.calls import API_KEY, OTHER_KEY, V31


@pytest.fixture
def app(tmp_path: Path) -> Starlette:
    return create_app(
        api_keys={API_KEY: "project-a", OTHER_KEY: "project-b"},
        data_dir=tmp_path / "mounts",
        seed=7,
    )


@pytest.fixture
def state(app: Starlette) -> EmulatorState:
    emulator: EmulatorState = app.state.emulator
    return emulator


@pytest.fixture
def client(app: Starlette) -> Iterator[TestClient]:
    with TestClient(app, headers={"x-api-key": API_KEY}) as test_client:
        yield test_client


SessionFactory = Callable[..., str]


@pytest.fixture
def new_session(client: TestClient) -> SessionFactory:
    """Create a session (v3.1 by default) and return its id."""

    def make(user_id: str = "alice", prefix: str = V31, **config: Any) -> str:
        response = client.post(f"{prefix}/session", json={"user_id": user_id, **config})
        assert response.status_code == 201, response.text
        session_id: str = response.json()["session_id"]
        return session_id

    return make
