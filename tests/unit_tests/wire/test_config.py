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
        # the client adds /api/<version> itself: the request would go to /api/v3/api/v3/...
        ("https://backend.composio.dev/api/v3", "already has the API path '/api/v3'"),
        ("http://127.0.0.1:8000/api/v3.1/tool_router", "such as 'http://127.0.0.1:8000'"),
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


@pytest.mark.parametrize(
    "value",
    [
        float("nan"),
        float("inf"),
        -0.5,
        httpx.Timeout(-1),
        httpx.Timeout(5.0, read=float("nan")),
        httpx.Timeout(5.0, pool=-0.1),
        0,
    ],
)
def test_timeouts_that_are_not_finite_and_positive_are_refused(value: object) -> None:
    # NaN and httpx.Timeout(-1) were accepted, and failed as a socket ValueError at the first
    # request.
    with pytest.raises(ConfigurationError, match="positive, finite number of seconds"):
        to_timeout(value)  # type: ignore[arg-type]


def test_a_timeout_phase_of_none_is_no_limit_on_that_phase() -> None:
    assert to_timeout(httpx.Timeout(None, connect=5.0)) == httpx.Timeout(None, connect=5.0)


def test_an_infinite_timeout_points_to_none() -> None:
    with pytest.raises(ConfigurationError, match="for no timeout pass None"):
        to_timeout(float("inf"))


def test_the_execute_timeout_is_named_in_its_error() -> None:
    with pytest.raises(ConfigurationError) as caught:
        ToolRouterSettings.resolve(api_key="ak_1", execute_timeout=-5)
    assert str(caught.value).startswith("execute_timeout must be")
    assert "got -5" in str(caught.value)
    with pytest.raises(ConfigurationError, match=r"^timeout must be"):
        ToolRouterSettings.resolve(api_key="ak_1", timeout=float("nan"))


@pytest.mark.parametrize("name", ["api_key", "base_url", "api_version"])
@pytest.mark.parametrize("value", [123, 3.1, b"x", ["x"]])
def test_settings_that_are_not_strings_are_refused_by_name(name: str, value: object) -> None:
    # They failed as "'int' object has no attribute 'strip'" inside resolve.
    arguments: dict[str, object] = {"api_key": "ak_1", name: value}
    with pytest.raises(ConfigurationError) as caught:
        ToolRouterSettings.resolve(**arguments)  # type: ignore[arg-type]
    message = str(caught.value)
    assert message.startswith(f"{name} must be a string")
    assert type(value).__name__ in message


def test_a_key_of_the_wrong_type_is_not_echoed() -> None:
    with pytest.raises(ConfigurationError) as caught:
        ToolRouterSettings.resolve(api_key=98765432101)  # type: ignore[arg-type]
    assert "98765432101" not in str(caught.value)
    assert "int" in str(caught.value)


@pytest.mark.parametrize("base_url", ["", "   "])
def test_an_explicit_empty_base_url_is_refused_not_read_as_not_given(
    base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "" fell back to COMPOSIO_BASE_URL (or production) without a word.
    monkeypatch.setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:1")
    with pytest.raises(ConfigurationError, match="base_url is empty") as caught:
        ToolRouterSettings.resolve(api_key="ak_1", base_url=base_url)
    assert "COMPOSIO_BASE_URL" in str(caught.value)
    assert ToolRouterSettings.resolve(api_key="ak_1").base_url == "http://127.0.0.1:1"


def test_an_explicit_empty_api_version_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPOSIO_API_VERSION", "v3.1")
    with pytest.raises(ConfigurationError, match=r"v3, v3\.1; got ''"):
        ToolRouterSettings.resolve(api_key="ak_1", api_version="")


def test_a_configuration_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="timeout"):
        to_timeout(-1)


def test_a_gateway_path_is_a_fine_base_url_and_a_pool_of_zero_a_fine_timeout() -> None:
    # Only a trailing Tool Router API path doubles the request path; a gateway's own is kept.
    settings = ToolRouterSettings.resolve(
        api_key="ak_1", base_url="https://gw.corp.example/api/v1/composio"
    )
    assert settings.base_url == "https://gw.corp.example/api/v1/composio"
    # httpx reads pool=0 as "do not wait for a free connection".
    assert to_timeout(httpx.Timeout(5.0, pool=0)).pool == 0
