"""`ToolRouter(...)` refuses a bad setting when it is built, naming the argument, what was given
and what is accepted: none is kept to fail later, deep inside a call."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from langchain_toolrouter.emulator import DEFAULT_API_KEY, FaultRule, create_app, sync_transport
from langchain_toolrouter.errors import ConfigurationError
from langchain_toolrouter.schema import ConversionOptions
from langchain_toolrouter.session import ToolRouter
from langchain_toolrouter.wire.retry import RetryPolicy

BASE_URL = "http://127.0.0.1"


def make(**settings: Any) -> ToolRouter:
    return ToolRouter(**{"api_key": "ak_test", "base_url": "http://127.0.0.1:9", **settings})


@pytest.mark.parametrize(
    ("settings", "start", "given"),
    [
        # each of these was accepted, and failed at first use with an AttributeError or
        # TypeError far from the argument (or never: a truthy "no" raised errors)
        ({"retry": 3}, "retry must be a RetryPolicy", "got 3 (int)"),
        ({"retry": "x"}, "retry must be a RetryPolicy", "got 'x' (str)"),
        ({"timeout": float("nan")}, "timeout must be", "got nan"),
        ({"timeout": -1}, "timeout must be", "got -1"),
        ({"timeout": httpx.Timeout(-1)}, "timeout must be", "connect=-1"),
        ({"execute_timeout": -5}, "execute_timeout must be", "got -5"),
        ({"base_url": ""}, "base_url is empty", "COMPOSIO_BASE_URL"),
        ({"base_url": 123}, "base_url must be a string", "got 123 (int)"),
        ({"api_version": 3}, "api_version must be a string", "got 3 (int)"),
        ({"max_content_chars": "100"}, "max_content_chars must be a positive int", "'100' (str)"),
        ({"max_content_chars": None}, "max_content_chars must be a positive int", "None"),
        ({"max_content_chars": 1.5}, "max_content_chars must be a positive int", "1.5 (float)"),
        ({"max_content_chars": 0}, "max_content_chars must be a positive int", "got 0 (int)"),
        ({"max_content_chars": -1}, "max_content_chars must be a positive int", "got -1 (int)"),
        ({"max_content_chars": True}, "max_content_chars must be a positive int", "(bool)"),
        ({"raise_errors": "no"}, "raise_errors must be True or False", "got 'no' (str)"),
        ({"raise_errors": 1}, "raise_errors must be True or False", "got 1 (int)"),
        ({"name_style": "Safe"}, "name_style must be 'exact'", "got 'Safe'"),
        ({"schema_options": {"strict_provider": "openai"}}, "schema_options must be", "dict"),
    ],
)
def test_bad_settings_are_refused_at_construction(
    settings: dict[str, Any], start: str, given: str
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        make(**settings)
    message = str(caught.value)
    assert message.startswith(start)
    assert given in message


def test_an_api_key_of_the_wrong_type_is_named_but_not_shown() -> None:
    with pytest.raises(ConfigurationError, match="api_key must be a string") as caught:
        ToolRouter(api_key=123456789, base_url="http://127.0.0.1:9")  # type: ignore[arg-type]
    assert "123456789" not in str(caught.value)


def test_the_routers_own_checks_are_still_value_errors() -> None:
    with pytest.raises(ValueError, match="max_content_chars"):
        make(max_content_chars="many")


@pytest.mark.parametrize(
    ("settings", "start"),
    [
        ({"storage_client": "x"}, "storage_client must be an httpx.Client"),
        ({"async_http_client": httpx.Client()}, "async_http_client must be an httpx.AsyncClient"),
        ({"astorage_client": httpx.Client()}, "astorage_client must be an httpx.AsyncClient"),
        ({"http_client": httpx.AsyncClient()}, "http_client must be an httpx.Client"),
    ],
)
def test_http_clients_of_the_wrong_kind_are_refused_by_name(
    settings: dict[str, Any], start: str
) -> None:
    # storage_client="x" failed at the first upload ('str' object has no attribute 'headers'),
    # async_http_client=httpx.Client() at the first async call.
    with pytest.raises(TypeError) as caught:
        make(**settings)
    assert str(caught.value).startswith(start)
    assert "None to let the client make one" in str(caught.value)


def test_accepted_settings_are_kept() -> None:
    options = ConversionOptions(strict_provider="openai")
    with make(
        retry=RetryPolicy.disabled(),
        timeout=httpx.Timeout(10.0, pool=None),
        execute_timeout=None,
        max_content_chars=1,
        raise_errors=True,
        name_style="safe",
        schema_options=options,
    ) as router:
        assert router.client.retry_policy.max_attempts == 1
        assert router.client.settings.execute_timeout == httpx.Timeout(None)
        assert (router.max_content_chars, router.raise_errors) == (1, True)
        assert (router.name_style, router.schema_options) == ("safe", options)


@pytest.fixture
def flaky_router() -> Iterator[ToolRouter]:
    app = create_app(faults=[FaultRule(operation="get_session", status=503, times=1)])
    with (
        httpx.Client(transport=sync_transport(app)) as http,  # type: ignore[arg-type]
        ToolRouter(
            api_key=DEFAULT_API_KEY,
            base_url=BASE_URL,
            http_client=http,
            retry=RetryPolicy(max_attempts=2, wait=False),
        ) as router,
    ):
        yield router


def test_a_retry_policy_retries_a_503(flaky_router: ToolRouter) -> None:
    """What `retry=3` meant to do, spelt as the policy it takes."""
    session = flaky_router.create_session("settings-user", toolkits=["notes"])
    assert flaky_router.get_session(session.session_id).session_id == session.session_id
