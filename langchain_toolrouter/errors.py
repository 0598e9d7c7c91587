"""Every exception langchain_toolrouter raises, in one place.

Catch a class, read its fields; never match on message text. No exception carries the API
key: messages, reprs and attributes hold none. The tree::

    Exception
    ├── ToolRouterError                 base of the errors a program handles
    │   ├── ConfigurationError          bad or missing settings (e.g. no COMPOSIO_API_KEY); ValueError
    │   ├── RequestValidationError      a request you built is invalid; nothing was sent; ValueError
    │   ├── APIError                    the service answered with an error status
    │   │   ├── BadRequestError             400
    │   │   ├── AuthenticationError         401
    │   │   ├── PermissionDeniedError       403
    │   │   ├── NotFoundError               404
    │   │   ├── ConflictError               409 (e.g. a stale expected_config_version)
    │   │   ├── UnprocessableEntityError    422
    │   │   ├── RateLimitError              429 (retry_after)
    │   │   └── ServerError                 5xx
    │   ├── TransportError              no usable HTTP answer (request_sent says if it may have run)
    │   │   ├── ConnectError                the connection was never made; nothing was sent
    │   │   ├── RequestTimeoutError         connect, write, read or pool timeout
    │   │   │   └── DeadlineExceededError       the answer outlasted attempt_deadline
    │   │   ├── ConnectionLostError         connection dropped after the request was sent
    │   │   ├── ResponseTooLargeError       the answer outgrew max_response_bytes (not retried)
    │   │   └── ResponseValidationError     an answer that cannot be decoded, or a 2xx body that
    │   │                                   does not fit the expected model (not retried)
    │   ├── ToolSearchError             the service's tool search failed for the query
    │   ├── ConnectionTimeoutError      wait_for_connection gave up; TimeoutError
    │   ├── ConnectionFailedError       the account ended FAILED or EXPIRED; its link is dead
    │   └── FileTransferError           a presigned upload or download failed
    ├── ToolRouterToolError             answered to the model as an error ToolMessage
    │   │                               (LangChain's ToolException; raise_errors=True raises it)
    │   ├── ToolArgumentsError          the call's arguments do not fit the tool's schema
    │   ├── ToolExecutionError          the tool ran and reported a failure (in-band)
    │   ├── ToolNotConnectedError       the toolkit has no active connection; carries the link
    │   ├── ToolRateLimitError          the service kept answering 429 after the retries
    │   ├── ToolServiceError            the service refused or failed the request (4xx/5xx)
    │   └── ToolTransportError          no answer after the retries; request_sent says
    │                                   whether the call may have run
    ├── SchemaConversionError           a tool's input schema is not an object schema; ValueError
    ├── ArgsValidationError             arguments break a tool's schema (.errors); ValueError
    ├── CustomSlugError                 a custom tool or toolkit slug the service would refuse; ValueError
    └── AmbiguousSlugError              a bare slug names several custom tools; LookupError

The schema errors are defined in `langchain_toolrouter.schema.errors` (the schema layer is pure
and imports nothing from here) and re-exported. A tool that ran and failed is not an exception
for the low-level client: ``ExecuteResult.successful`` says so; a LangChain tool answers the
model with a `ToolExecutionError` message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.tools import ToolException

from langchain_toolrouter.schema.errors import ArgsValidationError, SchemaConversionError

__all__ = [
    "APIError",
    "AmbiguousSlugError",
    "ArgsValidationError",
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
    "SchemaConversionError",
    "ServerError",
    "ToolArgumentsError",
    "ToolExecutionError",
    "ToolNotConnectedError",
    "ToolRateLimitError",
    "ToolRouterError",
    "ToolRouterToolError",
    "ToolSearchError",
    "ToolServiceError",
    "ToolTransportError",
    "TransportError",
    "UnprocessableEntityError",
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
    """

    request_sent: bool = True

    def __init__(
        self,
        message: str,
        *,
        operation: str | None = None,
        request_id: str | None = None,
        request_sent: bool | None = None,
    ) -> None:
        self.operation = operation
        self.request_id = request_id
        if request_sent is not None:
            self.request_sent = request_sent
        where = f"{operation}: " if operation else ""
        suffix = f" (request id: {request_id})" if request_id else ""
        super().__init__(f"{where}{message}{suffix}")


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


# --------------------------------------------------------------------------- tool answers


class ToolRouterToolError(ToolException):
    """Base of the errors a tool reports to the model instead of crashing the agent.

    Each derives from LangChain's `ToolException`, so a tool with `handle_tool_error` set
    (the default) answers the model with an error `ToolMessage` (`status="error"`) whose text
    says what went wrong and how to fix it, and whose artifact is `artifact()` (the same facts
    as data, e.g. the connect link). With `raise_errors=True` they propagate to the caller,
    carrying the same facts as attributes. Anything else raised in a tool (a bad API key, a
    deleted session, a bug) is not one of these and always propagates.
    """

    def __init__(self, message: str, *, tool: str) -> None:
        super().__init__(message)
        self.message = message
        self.tool = tool

    def __str__(self) -> str:
        return self.message

    def artifact(self) -> dict[str, Any]:
        """The error as data for the tool message's artifact (same keys as a result, plus
        `error_type` and the error's own facts)."""
        return {
            "successful": False,
            "data": None,
            "error": self.message,
            "log_id": "",
            "error_type": type(self).__name__,
            **self._facts(),
        }

    def _facts(self) -> dict[str, Any]:
        return {}


class ToolArgumentsError(ToolRouterToolError):
    """The arguments do not match the tool's input schema; nothing was sent.

    `errors` holds one `{path, message, expected}` entry per problem.
    """

    def __init__(self, *, tool: str, errors: Sequence[Mapping[str, Any]], detail: str) -> None:
        super().__init__(arguments_error_text(tool, errors, detail), tool=tool)
        self.errors = [dict(item) for item in errors]

    def _facts(self) -> dict[str, Any]:
        return {"errors": self.errors}


def arguments_error_text(tool: str, errors: Sequence[Mapping[str, Any]], detail: str = "") -> str:
    """What the model reads about arguments that do not fit a tool: one line per problem.

    The one text for every path: a direct tool call (`ToolArgumentsError`), and a custom tool
    run by multi-execute or `session.execute` (its failed result's `error`).
    """
    lines = [f"Invalid arguments for {tool}; the call was not sent. Fix these and call again:"]
    for item in errors:
        path = item.get("path") or "(root)"
        expected = item.get("expected")
        line = f"- {path}: {item.get('message', 'invalid value')}"
        if expected:
            line += f" (expected {expected})"
        lines.append(line)
    if not errors:
        lines.append(f"- {detail}")
    return "\n".join(lines)


class ToolExecutionError(ToolRouterToolError):
    """The tool ran and failed; `result` is the full outcome (`successful`, `data`, `error`)."""

    def __init__(self, message: str, *, tool: str, result: Mapping[str, Any]) -> None:
        super().__init__(message, tool=tool)
        self.result = dict(result)

    def artifact(self) -> dict[str, Any]:
        """The tool's full result (`successful`, `data`, `error`, `log_id`, ...)."""
        return {**self.result, "error_type": type(self).__name__}


class ToolNotConnectedError(ToolRouterToolError):
    """The user has no active connection for the toolkit; `redirect_url` is where to connect."""

    def __init__(
        self,
        message: str,
        *,
        tool: str,
        toolkit: str | None,
        redirect_url: str | None,
        connected_account_id: str | None,
    ) -> None:
        super().__init__(message, tool=tool)
        self.toolkit = toolkit
        self.redirect_url = redirect_url
        self.connected_account_id = connected_account_id

    def _facts(self) -> dict[str, Any]:
        return {
            "toolkit": self.toolkit,
            "redirect_url": self.redirect_url,
            "connected_account_id": self.connected_account_id,
        }


class ToolRateLimitError(ToolRouterToolError):
    """The service is rate limiting; `retry_after` (seconds) is its hint when it gave one."""

    def __init__(self, message: str, *, tool: str, retry_after: float | None) -> None:
        super().__init__(message, tool=tool)
        self.retry_after = retry_after

    def _facts(self) -> dict[str, Any]:
        return {"retry_after": self.retry_after}


class ToolServiceError(ToolRouterToolError):
    """The service refused or failed the call; `status`, `slug` and `suggested_fix` say why."""

    def __init__(
        self,
        message: str,
        *,
        tool: str,
        status: int | None,
        slug: str | None,
        suggested_fix: str | None,
    ) -> None:
        super().__init__(message, tool=tool)
        self.status = status
        self.slug = slug
        self.suggested_fix = suggested_fix

    def _facts(self) -> dict[str, Any]:
        return {"status": self.status, "slug": self.slug, "suggested_fix": self.suggested_fix}


class ToolTransportError(ToolRouterToolError):
    """No answer came from the service (connection or timeout) after the client's retries.

    `request_sent` is False only when the request provably never left (the call did not run
    and may be made again); when True the call may have run, and the text tells the model to
    check its effect before calling again.
    """

    def __init__(self, message: str, *, tool: str, request_sent: bool = True) -> None:
        super().__init__(message, tool=tool)
        self.request_sent = request_sent

    def _facts(self) -> dict[str, Any]:
        return {"request_sent": self.request_sent}
