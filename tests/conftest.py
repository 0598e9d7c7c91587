"""Fixtures shared by every test: a clean environment for each test."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# CI runs the property tests derandomized, so a red build is reproducible from its log.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

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
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never inherit a real key, base URL or proxy from the machine."""
    for name in _ENV_VARS:
        monkeypatch.delenv(name, raising=False)
