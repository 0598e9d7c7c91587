"""Fixtures shared by every test: a clean environment for each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

_ENV_VARS = (
    "COMPOSIO_API_KEY",
    "COMPOSIO_BASE_URL",
    "COMPOSIO_API_VERSION",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests never inherit a real key, base URL or proxy from the machine."""
    for name in _ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    yield
