"""The exceptions of the library that need no LangChain: settings, requests, the service's answers.

`langchain_toolrouter.errors` is the public door (with the tree drawn in its docstring); this
module is where the classes live, below the wire layer, which raises them, so that `wire/` and
the clients load no LangChain. The errors a tool answers the model with (LangChain's
`ToolException` family) live with the texts the model reads, in `_answers`.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "APIError",
    "AmbiguousSlugError",
    "AuthenticationError",
    "BadRequestError",
    "ConfigurationError",
    "ConflictError",
    "ConnectError",
    "ConnectionFailedError",
    "ConnectionLostError",
    "ConnectionTimeoutError",
    "CustomSlugError",
    "DeadlineExceededError",
    "FileTransferError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RequestTimeoutError",
    "RequestValidationError",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "ServerError",
    "ToolRouterError",
    "ToolSearchError",
    "TransportError",
    "UnprocessableEntityError",
    "UserMismatchError",
    "error_class_for_status",
]


def _restore(cls: type[ToolRouterError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    exc = cls.__new__(cls, *args)
    exc.args = args
    exc.__dict__.update(state)
    return exc


class ToolRouterError(Exception):
    """Base of every error this package raises."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy with every field (the constructors take keyword-only fields)."""
        return (_restore, (type(self), self.args, dict(self.__dict__)))


class ConfigurationError(ToolRouterError, ValueError):
    """Settings are missing or invalid (raised at client construction, before any request).

    Also a ``ValueError``, as a bad argument value is (the router's checks of
    ``max_content_chars`` and ``name_style`` raised ``ValueError`` before they raised this).
    """


class UserMismatchError(ConfigurationError):
    """A run names a user other than the one the LangGraph server authenticated (in its
    config or its context); nothing was sent. On a server with auth, the authenticated
    identity is the user: pass no other `user_id`, or the same one.

    Attributes:
        authenticated: The identity the server authenticated.
        claimed: The other user id, and where it was found.
    """

    def __init__(self, message: str, *, authenticated: str, claimed: tuple[str, str]) -> None:
        super().__init__(message)
        self.authenticated = authenticated
        self.claimed = claimed


class RequestValidationError(ToolRouterError, ValueError):
    """The arguments of a call do not form a valid request; nothing was sent.

    Attributes:
        operation: the operation being prepared.
        errors: one line per problem, each naming the field.
    """

    def __init__(self, operation: str, errors: list[str]) -> None:
        self.operation = operation
        self.errors = errors
        joined = "; ".join(errors)
        super().__init__(f"invalid {operation} request (nothing was sent): {joined}")


class APIError(ToolRouterError):
    """The service answered with a non-2xx status.

    Attributes:
        status: HTTP status code.
        message: the service's message (or the HTTP reason when the body has none).
        code: numeric error code, when given (``code`` or ``error_code`` in the body).
        slug: short error identifier such as ``ToolRouterV2_SessionNotFound``.
        request_id: the service's request id, else the ``x-request-id`` we sent.
        suggested_fix: the service's hint, when given.
        errors: further details, one string each.
        body: the parsed JSON body, or the raw text when it was not JSON.
        operation: the operation that failed (``get_session``, ``execute``...).
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: int | None = None,
        slug: str | None = None,
        request_id: str | None = None,
        suggested_fix: str | None = None,
        errors: list[str] | None = None,
        body: Any = None,
        operation: str | None = None,
    ) -> None:
        self.status = status
        self.message = message
        self.code = code
        self.slug = slug
        self.request_id = request_id
        self.suggested_fix = suggested_fix
        self.errors = list(errors or [])
        self.body = body
        self.operation = operation
        super().__init__(self._render())

    def _render(self) -> str:
        where = f" from {self.operation}" if self.operation else ""
        text = f"HTTP {self.status}{where}: {self.message}"
        tags = [part for part in (self.slug, f"code {self.code}" if self.code else None) if part]
        if tags:
            text += f" [{', '.join(tags)}]"
        if self.errors:
            text += f". Details: {'; '.join(self.errors)}"
        if self.suggested_fix:
            text += f". Suggested fix: {self.suggested_fix}"
        if self.request_id:
            text += f" (request id: {self.request_id})"
        return text

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status!r}, slug={self.slug!r}, "
            f"code={self.code!r}, message={self.message!r}, request_id={self.request_id!r})"
        )


class BadRequestError(APIError):
    """400: the service refused the request as invalid (see ``slug`` and ``errors``)."""


class AuthenticationError(APIError):
    """401: the API key is missing, wrong or revoked."""


class PermissionDeniedError(APIError):
    """403: the key lacks permission, or Tool Router is not enabled for the account."""


class NotFoundError(APIError):
    """404: the session (or another resource) does not exist or was deleted."""


class ConflictError(APIError):
    """409: the request conflicts with the current state (e.g. a stale config version)."""


class UnprocessableEntityError(APIError):
    """422: the body was well formed but semantically invalid."""


class RateLimitError(APIError):
    """429: the organization's request budget is spent.

    Attributes:
        retry_after: seconds the service asked us to wait, when it said.
    """

    def __init__(self, message: str, *, retry_after: float | None = None, **fields: Any) -> None:
        self.retry_after = retry_after
        super().__init__(message, **fields)

    def _render(self) -> str:
        text = super()._render()
        if self.retry_after is not None:
            text += f" (retry after {self.retry_after:g}s)"
        return text


class ServerError(APIError):
    """5xx: the service failed; safe operations are retried before this is raised.

    Attributes:
        retry_after: seconds a 503 (or other 5xx) asked us to wait, when it said; honoured
            like a 429's between retries of safe operations.
    """

    def __init__(self, message: str, *, retry_after: float | None = None, **fields: Any) -> None:
        self.retry_after = retry_after
        super().__init__(message, **fields)


_STATUS_CLASSES: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def error_class_for_status(status: int) -> type[APIError]:
    """The exception class for an HTTP error status (``APIError`` for unlisted ones)."""
    if status >= 500:
        return ServerError
    return _STATUS_CLASSES.get(status, APIError)


class TransportError(ToolRouterError):
    """No usable HTTP answer arrived.

    Attributes:
        operation: the operation being sent.
        request_id: the ``x-request-id`` sent with it.
        request_sent: ``False`` only when the request provably never reached the service
            (so a non-idempotent call may safely be sent again).
        target: the method and the URL it was sent to (origin and path: never the query,
            never the key), e.g. ``"POST http://127.0.0.1:8765/api/v3/..."``.
    """

    request_sent: bool = True

    def __init__(
        self,
        message: str,
        *,
        operation: str | None = None,
        request_id: str | None = None,
        request_sent: bool | None = None,
        target: str | None = None,
    ) -> None:
        self.operation = operation
        self.request_id = request_id
        self.target = target
        if request_sent is not None:
            self.request_sent = request_sent
        where = f"{operation}: " if operation else ""
        sent = f" ({target})" if target else ""
        suffix = f" (request id: {request_id})" if request_id else ""
        super().__init__(f"{where}{message}{sent}{suffix}")


class ConnectError(TransportError):
    """The connection to the service could not be made; the request was never sent."""

    request_sent = False


class RequestTimeoutError(TransportError):
    """A timeout expired. ``phase`` is ``connect``, ``pool``, ``write``, ``read`` or
    ``deadline`` (:class:`DeadlineExceededError`).

    Connect and pool timeouts happen before anything is sent (``request_sent`` is False).
    """

    def __init__(self, message: str, *, phase: str, **fields: Any) -> None:
        self.phase = phase
        fields.setdefault("request_sent", phase not in ("connect", "pool"))
        super().__init__(message, **fields)


class ConnectionLostError(TransportError):
    """The connection broke after the request was sent: it may or may not have run."""


class DeadlineExceededError(RequestTimeoutError):
    """An attempt was still receiving its answer when the client's ``attempt_deadline`` passed.

    The per-read timeouts bound each wait; this bounds the whole attempt, so an answer that
    trickles in a few bytes at a time ends too. The request went out: it may have run (an
    execute is not resent; a read is retried like a read timeout).

    Attributes:
        deadline: the deadline in seconds (``attempt_deadline``, or its default: twice the
            call's read timeout).
    """

    def __init__(self, message: str, *, deadline: float, **fields: Any) -> None:
        self.deadline = deadline
        super().__init__(message, phase="deadline", **fields)


class ResponseTooLargeError(TransportError):
    """The answer was larger than the client's ``max_response_bytes``; reading stopped there.

    Counted on the decoded bytes as they arrive, so a compressed answer that expands without
    end stops at the limit too. The request went out: it may have run, and it is not resent
    (the same request would get the same answer).

    Attributes:
        limit: the limit in bytes (``max_response_bytes``).
        received: decoded bytes read before stopping, or the size the answer announced
            (``Content-Length``) when it was refused before reading.
    """

    def __init__(self, message: str, *, limit: int, received: int, **fields: Any) -> None:
        self.limit = limit
        self.received = received
        super().__init__(message, **fields)


class ResponseValidationError(TransportError):
    """An answer this client cannot use: a body it cannot decode (a broken compression, text
    that is not UTF-8, JSON too deep or with a number too long to read), or a 2xx body that is
    not JSON or does not fit the operation's response model.

    A :class:`TransportError` because no usable answer arrived: the request went out and the
    service answered, so it ran (``request_sent`` is True); it is not resent.

    Attributes:
        operation: the operation whose answer was wrong.
        field: dotted path of the first offending field (``""`` for the whole body).
        errors: one line per problem.
        body: the raw response text.
        status: the HTTP status.
    """

    def __init__(
        self,
        operation: str,
        *,
        field: str,
        errors: list[str],
        body: str,
        status: int,
        model: str | None = None,
        request_id: str | None = None,
    ) -> None:
        self.field = field
        self.errors = errors
        self.body = body
        self.status = status
        target = f" {model}" if model else ""
        shown = body if len(body) <= 300 else body[:300] + "..."
        super().__init__(
            f"HTTP {status} response does not fit{target} (field {field or '<body>'!r}): "
            f"{'; '.join(errors)}. Raw body: {shown}",
            operation=operation,
            request_id=request_id,
        )


# --------------------------------------------------------------------------- session layer


class ToolSearchError(ToolRouterError):
    """The service's search failed for the query (its message is kept)."""


class ConnectionTimeoutError(ToolRouterError, TimeoutError):
    """`wait_for_connection` gave up: the user did not finish connecting in time."""

    def __init__(self, toolkit: str, timeout: float, status: str | None) -> None:
        self.toolkit = toolkit
        self.timeout = timeout
        self.status = status
        super().__init__(
            f"{toolkit} was not connected within {timeout:g}s (status: {status or 'none'}); "
            "open the link from authorize() and finish connecting, then wait again"
        )


class ConnectionFailedError(ToolRouterError):
    """`wait_for_connection` stopped: the account ended in a state no waiting can change
    (`FAILED`, `EXPIRED`); its link is dead."""

    def __init__(self, toolkit: str, status: str) -> None:
        self.toolkit = toolkit
        self.status = status
        super().__init__(
            f"connecting {toolkit} ended with status {status}: that link can no longer be "
            f"used; call authorize({toolkit!r}) for a new link, then wait again"
        )


class FileTransferError(ToolRouterError):
    """An upload to or download from a presigned URL failed.

    Attributes:
        url_host: The storage host (the URL itself is not kept: it is a bearer credential).
        status: The HTTP status, when the storage answered.
    """

    def __init__(self, message: str, *, url_host: str, status: int | None = None) -> None:
        super().__init__(message)
        self.url_host = url_host
        self.status = status


class CustomSlugError(ValueError):
    """A custom tool or toolkit slug the service would refuse (checked when it is defined)."""


class AmbiguousSlugError(LookupError):
    """A bare slug names several custom tools; the model must use the `LOCAL_...` slug."""


# Shown under their public door in tracebacks and reprs, as httpx shows its own (`httpx.ConnectError`).
for _name in __all__:
    _value = globals()[_name]
    if isinstance(_value, type):
        _value.__module__ = "langchain_toolrouter.errors"
