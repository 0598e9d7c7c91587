"""Which client errors reach the model as error messages, and which reach the caller."""

from __future__ import annotations

import pytest

from langchain_toolrouter import ToolRouter
from langchain_toolrouter._tool_errors import (
    ToolRateLimitError,
    ToolServiceError,
    ToolTransportError,
    is_no_connection,
    translate_error,
)
from langchain_toolrouter.errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    ConnectError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
)


def test_model_actionable_errors_are_translated() -> None:
    limited = translate_error(RateLimitError("slow down", status=429, retry_after=2.0), tool="T")
    assert isinstance(limited, ToolRateLimitError)
    assert limited.retry_after == 2.0
    assert "Wait 2s" in str(limited)
    refused = translate_error(
        BadRequestError(
            "bad input",
            status=400,
            slug="ToolRouterV2_BadRequest",
            errors=["title: required"],
            suggested_fix="add a title",
        ),
        tool="T",
    )
    assert isinstance(refused, ToolServiceError)
    assert str(refused) == (
        "T was refused by the Tool Router service: bad input Details: title: required. "
        "Suggested fix: add a title"
    )
    assert isinstance(translate_error(ServerError("down", status=503), tool="T"), ToolServiceError)
    unknown_tool = NotFoundError("no such tool", status=404, slug="ToolRouterV2_ToolNotFound")
    assert isinstance(translate_error(unknown_tool, tool="T"), ToolServiceError)
    lost = translate_error(ConnectError("refused", operation="execute"), tool="T")
    assert isinstance(lost, ToolTransportError)


@pytest.mark.parametrize(
    "error",
    [
        AuthenticationError("bad key", status=401),
        PermissionDeniedError("no", status=403),
        NotFoundError("gone", status=404, slug="ToolRouterV2_SessionNotFound"),
    ],
)
def test_caller_problems_are_not_translated(error: APIError) -> None:
    assert translate_error(error, tool="T") is None


def test_no_connection_is_recognised_by_slug_or_code() -> None:
    assert is_no_connection(APIError("x", status=400, slug="ToolRouterV2_NoActiveConnection"))
    assert is_no_connection(APIError("x", status=400, code=4302))
    assert not is_no_connection(APIError("x", status=400, slug="Other"))


def test_router_needs_a_key_and_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigurationError, match="COMPOSIO_API_KEY"):
        ToolRouter()
    monkeypatch.setenv("COMPOSIO_API_KEY", "ak_env")
    monkeypatch.setenv("COMPOSIO_BASE_URL", "http://127.0.0.1:9")
    with ToolRouter(api_version="v3.1") as router:
        assert router.base_url == "http://127.0.0.1:9"
        assert router.api_version == "v3.1"
        assert "ak_env" not in repr(router)
    with ToolRouter(api_key="ak_secret_1", base_url="http://127.0.0.1:9") as router:
        assert "ak_secret_1" not in repr(vars(router))  # kept for later clients, as a secret
    with pytest.raises(ValueError, match="name_style"):
        ToolRouter(api_key="k", name_style="fancy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_content_chars"):
        ToolRouter(api_key="k", max_content_chars=0)
