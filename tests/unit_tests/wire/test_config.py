"""Settings resolution: argument, then environment, then defaults; the key stays secret."""

from __future__ import annotations

import logging

import httpx
import pytest

from langchain_toolrouter import _config
from langchain_toolrouter._config import ToolRouterSettings, to_timeout
from langchain_toolrouter.errors import ConfigurationError


def test_defaults() -> None:
    settings = ToolRouterSettings.resolve(api_key="ak_1")
    assert settings.base_url == "https://backend.composio.dev"
    assert settings.api_version == "v3"
    assert settings.api_root == "https://backend.composio.dev/api/v3"
    assert settings.timeout == httpx.Timeout(30.0, connect=5.0)
    assert settings.execute_timeout == httpx.Timeout(180.0, connect=5.0)


def test_environment_fills_in_and_arguments_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPOSIO_API_KEY", "ak_env")
    monkeypatch.setenv("COMPOSIO_BASE_URL", "https://staging-backend.composio.dev/")
    monkeypatch.setenv("COMPOSIO_API_VERSION", "v3.1")
    from_env = ToolRouterSettings.resolve()
    assert from_env.api_key.get_secret_value() == "ak_env"
    assert from_env.base_url == "https://staging-backend.composio.dev"
    assert from_env.api_version == "v3.1"
    explicit = ToolRouterSettings.resolve(
        api_key="ak_arg", base_url="https://b.test", api_version="v3"
    )
    assert explicit.api_key.get_secret_value() == "ak_arg"
    assert explicit.base_url == "https://b.test"
    assert explicit.api_version == "v3"


def test_missing_key_names_the_variable_and_the_fix() -> None:
    with pytest.raises(ConfigurationError) as caught:
        ToolRouterSettings.resolve()
    assert "COMPOSIO_API_KEY" in str(caught.value)
    assert "api_key=" in str(caught.value)


@pytest.mark.parametrize(
    ("base_url", "match"),
    [
        ("backend.composio.dev", "absolute http"),
        ("ftp://x.test", "absolute http"),
        ("https://user:pw@x.test", "credentials"),
        ("https://x.test/?a=1", "query"),
        # malformed: these escaped as ValueError or httpx.InvalidURL at the first request
        ("http://[::1", "malformed .*Invalid IPv6 URL"),
        ("http://example.com:abc", "malformed"),
        ("http://example.com:99999", "malformed"),
    ],
)
def test_bad_base_urls_are_refused(base_url: str, match: str) -> None:
    with pytest.raises(ConfigurationError, match=match):
        ToolRouterSettings.resolve(api_key="ak_1", base_url=base_url)


def test_unknown_api_version_is_refused() -> None:
    with pytest.raises(ConfigurationError, match=r"v3, v3\.1"):
        ToolRouterSettings.resolve(api_key="ak_1", api_version="v4")


def test_plain_http_to_a_remote_host_warns_once(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_config, "_warned_http_hosts", set())
    caplog.set_level(logging.WARNING, logger="langchain_toolrouter")
    for _ in range(3):
        ToolRouterSettings.resolve(api_key="ak_1", base_url="http://api.example.test")
    for url in ("http://127.0.0.1:8000", "http://localhost:9", "http://[::1]:80"):
        ToolRouterSettings.resolve(api_key="ak_1", base_url=url)
    warnings = [r for r in caplog.records if r.name == "langchain_toolrouter"]
    assert len(warnings) == 1
    assert "plain http" in warnings[0].getMessage()
    assert "ak_1" not in warnings[0].getMessage()


def test_the_key_is_hidden_in_reprs() -> None:
    settings = ToolRouterSettings.resolve(api_key="ak_very_secret")
    assert "ak_very_secret" not in repr(settings)
    assert "ak_very_secret" not in str(settings)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (10, httpx.Timeout(10.0, connect=5.0)),
        (2.5, httpx.Timeout(2.5, connect=2.5)),
        (None, httpx.Timeout(None)),
        (httpx.Timeout(1.0, read=9.0), httpx.Timeout(1.0, read=9.0)),
    ],
)
def test_timeouts(value: float | httpx.Timeout | None, expected: httpx.Timeout) -> None:
    assert to_timeout(value) == expected


@pytest.mark.parametrize("value", [0, -1, True, "10"])
def test_bad_timeouts_are_refused(value: object) -> None:
    with pytest.raises(ConfigurationError, match="timeout"):
        to_timeout(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["ak_sécret_1", "ak_x\nInjected: 1", "ak x", "ak_\x00"])
def test_a_key_that_cannot_be_a_header_is_refused_without_echoing_it(key: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        ToolRouterSettings.resolve(api_key=key)
    assert key not in repr(caught.value)
    assert "sécret" not in str(caught.value)
    assert "COMPOSIO_API_KEY" in str(caught.value)
