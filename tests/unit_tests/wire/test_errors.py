"""The error tree: fields, readable messages, status mapping, and errors that survive pickling."""

from __future__ import annotations

import copy
import pickle

import pytest

from langchain_toolrouter import errors


def test_the_tree() -> None:
    for cls in (
        errors.BadRequestError,
        errors.AuthenticationError,
        errors.PermissionDeniedError,
        errors.NotFoundError,
        errors.ConflictError,
        errors.UnprocessableEntityError,
        errors.RateLimitError,
        errors.ServerError,
    ):
        assert issubclass(cls, errors.APIError)
    for cls in (errors.ConnectError, errors.RequestTimeoutError, errors.ConnectionLostError):
        assert issubclass(cls, errors.TransportError)
    for cls in (
        errors.ConfigurationError,
        errors.APIError,
        errors.TransportError,
        errors.ResponseValidationError,
        errors.RequestValidationError,
    ):
        assert issubclass(cls, errors.ToolRouterError)
    assert issubclass(errors.RequestValidationError, ValueError)
    assert not issubclass(errors.ConnectError, ConnectionError), "builtins are not shadowed"


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, errors.BadRequestError),
        (401, errors.AuthenticationError),
        (403, errors.PermissionDeniedError),
        (404, errors.NotFoundError),
        (409, errors.ConflictError),
        (422, errors.UnprocessableEntityError),
        (429, errors.RateLimitError),
        (500, errors.ServerError),
        (504, errors.ServerError),
        (405, errors.APIError),
        (302, errors.APIError),
    ],
)
def test_error_class_for_status(status: int, cls: type[errors.APIError]) -> None:
    assert errors.error_class_for_status(status) is cls


def test_minimal_api_error_message() -> None:
    exc = errors.NotFoundError("Session trs_1 not found", status=404)
    assert str(exc) == "HTTP 404: Session trs_1 not found"
    assert exc.errors == []
    assert "NotFoundError(status=404" in repr(exc)


def test_rate_limit_message_says_when_to_retry() -> None:
    exc = errors.RateLimitError("slow down", status=429, retry_after=2.5, operation="search")
    assert str(exc) == "HTTP 429 from search: slow down (retry after 2.5s)"


def test_timeouts_know_whether_the_request_went_out() -> None:
    assert errors.RequestTimeoutError("t", phase="connect").request_sent is False
    assert errors.RequestTimeoutError("t", phase="read").request_sent is True
    assert errors.ConnectError("c").request_sent is False
    assert errors.ConnectionLostError("l").request_sent is True


@pytest.mark.parametrize(
    "exc",
    [
        errors.ServerError("boom", status=503, code=1, slug="S", request_id="r", errors=["e"]),
        errors.RateLimitError("slow", status=429, retry_after=3),
        errors.RequestTimeoutError("t", phase="read", operation="execute", request_id="r"),
        errors.ConnectError("no", operation="get_session"),
        errors.RequestValidationError("create_session", ["user_id: Field required"]),
        errors.ResponseValidationError(
            "get_session", field="mcp", errors=["mcp: x"], body="{}", status=200
        ),
        errors.ConfigurationError("no key"),
    ],
    ids=lambda exc: type(exc).__name__,
)
def test_errors_survive_pickling_and_copying(exc: errors.ToolRouterError) -> None:
    for again in (pickle.loads(pickle.dumps(exc)), copy.deepcopy(exc), copy.copy(exc)):
        assert type(again) is type(exc)
        assert str(again) == str(exc)
        assert vars(again) == vars(exc)


def test_a_refused_connection_names_where_it_tried_and_never_the_key() -> None:
    """The first hour's most common mistake (the emulator not started, COMPOSIO_BASE_URL not
    exported): the error names the method and the URL it tried, and says what sets it."""
    import httpx

    from langchain_toolrouter import ToolRouterClient
    from langchain_toolrouter.errors import ConnectError

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("Connection refused", request=request)

    with ToolRouterClient(
        api_key="ak_never_shown",
        base_url="http://127.0.0.1:8765",
        http_client=httpx.Client(transport=httpx.MockTransport(refuse)),
    ) as client:
        try:
            client.get_session("trs_1")
        except ConnectError as exc:
            error = exc
    assert error.target == "GET http://127.0.0.1:8765/api/v3/tool_router/session/trs_1"
    assert error.target in str(error)
    assert "COMPOSIO_BASE_URL" in str(error)
    assert "ak_never_shown" not in str(error) + repr(error) + repr(vars(error))
