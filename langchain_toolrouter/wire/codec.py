"""Requests built and responses parsed once, for both clients. No I/O: nothing here sends or sleeps.

* :class:`RequestBuilder` (and :func:`build_request`) turns an operation, settings and a request
  model into an ``httpx.Request`` (absolute URL under the configured origin only, ``x-api-key``,
  ``x-request-id``, timeout).
* :func:`parse_response` turns an ``httpx.Response`` (and its body, read by
  :class:`~langchain_toolrouter.wire.body.BodyReader`) into the operation's response model, or
  raises the typed error for its status (:mod:`langchain_toolrouter.errors`). Every way a body
  can fail to decode (not JSON, not UTF-8, nested too deep, a number too long) is a
  :class:`ResponseValidationError`.
* :func:`map_transport_error` is the one place httpx exceptions become ours.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError, from_json

from langchain_toolrouter._config import (
    DEFAULT_DEADLINE_FACTOR,
    UNSET,
    TimeoutTypes,
    ToolRouterSettings,
    Unset,
    to_timeout,
)
from langchain_toolrouter._exceptions import (
    APIError,
    ConfigurationError,
    ConnectError,
    ConnectionLostError,
    RateLimitError,
    RequestTimeoutError,
    RequestValidationError,
    ResponseValidationError,
    ServerError,
    TransportError,
    error_class_for_status,
)
from langchain_toolrouter._version import __version__
from langchain_toolrouter.wire.operations import Operation, TimeoutClass
from langchain_toolrouter.wire.retry import retry_after_seconds

__all__ = [
    "REQUEST_ID_HEADER",
    "USER_AGENT",
    "RequestBuilder",
    "build_request",
    "check_origin",
    "encode_query",
    "map_transport_error",
    "new_request_id",
    "parse_error",
    "parse_response",
    "validation_problems",
]

ResponseT = TypeVar("ResponseT", bound=BaseModel)

REQUEST_ID_HEADER = "x-request-id"
API_KEY_HEADER = "x-api-key"
USER_AGENT = f"langchain-toolrouter/{__version__}"
_REDACTED = "[redacted]"
_MAX_URL_CHARS = 65_536


def new_request_id() -> str:
    """A fresh request id (uuid4 hex), sent once per logical call and reused by its retries."""
    return uuid.uuid4().hex


def validation_problems(exc: ValidationError) -> tuple[str, list[str]]:
    """(dotted path of the first bad field, one line per problem) from a pydantic error."""
    lines: list[str] = []
    first = ""
    for index, error in enumerate(exc.errors(include_url=False)):
        loc = ".".join(str(part) for part in error["loc"])
        if index == 0:
            first = loc
        lines.append(f"{loc or '<body>'}: {error['msg']}")
    return first, lines


def encode_query(model: BaseModel, operation: str = "request") -> dict[str, str]:
    """Query parameters: lists comma-joined, booleans ``true``/``false``, unset fields left out."""
    params: dict[str, str] = {}
    for key, value in _wire_dict(model, operation).items():
        if value is None:
            continue
        if isinstance(value, bool):
            params[key] = "true" if value else "false"
        elif isinstance(value, list):
            params[key] = ",".join(str(item) for item in value)
        else:
            params[key] = str(value)
    return params


def _wire_dict(model: BaseModel, operation: str) -> dict[str, Any]:
    """Wire spellings, only the fields that were set (an explicit None is sent as null).

    Raises:
        RequestValidationError: a value JSON cannot carry (an arbitrary object, bytes that
            are not UTF-8), naming it; nothing is sent.
    """
    try:
        return model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    except (PydanticSerializationError, ValueError, TypeError) as exc:
        raise RequestValidationError(
            operation,
            [
                f"a value is not JSON ({exc}); send only str, int, float, bool, None, lists and dicts"
            ],
        ) from None


class RequestBuilder:
    """Builds the requests of one client from its settings (the clients keep one each).

    The API root is parsed, and its origin checked, once, when the builder is made. The URL of
    each (path, path parameters) is rendered, parsed and checked against that origin the first
    time it is needed and then reused, so a call does not parse its URL again: a session's
    execute URL is the same on every call.
    """

    __slots__ = ("_origin", "_timeouts", "_urls", "settings")

    _MAX_URLS = 512
    """URLs kept; when full, the store is emptied and refilled by the calls that follow."""

    def __init__(self, settings: ToolRouterSettings) -> None:
        self.settings = settings
        self._origin = settings.origin
        _refuse_other_origin(httpx.URL(settings.api_root), self._origin, settings.base_url)
        deadline = settings.attempt_deadline
        self._timeouts = {
            TimeoutClass.DEFAULT: _within(settings.timeout.as_dict(), deadline),
            TimeoutClass.EXECUTE: _within(settings.execute_timeout.as_dict(), deadline),
        }
        self._urls: dict[tuple[str, tuple[tuple[str, Any], ...]], httpx.URL] = {}

    def deadline(self, request: httpx.Request) -> float | None:
        """Seconds an attempt of ``request`` may take in all: the ``attempt_deadline`` setting,
        else twice the request's read timeout (None when neither bounds it)."""
        given = self.settings.attempt_deadline
        if not isinstance(given, Unset):
            return given
        read = request.extensions.get("timeout", {}).get("read")
        return None if read is None else DEFAULT_DEADLINE_FACTOR * read

    def url(self, op: Operation[Any], path_params: Mapping[str, str]) -> httpx.URL:
        """The absolute URL of ``op`` for these path parameters, under the configured origin.

        Raises:
            RequestValidationError: a path parameter is missing, unexpected or unusable (too
                long for a URL, say).
            ConfigurationError: the URL would leave the configured origin.
        """
        key = (op.path, tuple(path_params.items()))
        url = self._urls.get(key) if all(type(v) is str for _, v in key[1]) else None
        if url is None:
            try:
                path = op.render_path(dict(path_params))
            except ValueError as exc:
                raise RequestValidationError(op.name, [str(exc)]) from None
            try:
                url = httpx.URL(self.settings.api_root + path)
            except httpx.InvalidURL:
                raise _url_too_long(op, path_params) from None
            _refuse_other_origin(url, self._origin, self.settings.base_url)
            if len(self._urls) >= self._MAX_URLS:
                self._urls.clear()
            self._urls[key] = url
        return url

    def build(
        self,
        op: Operation[Any],
        path_params: Mapping[str, str],
        payload: BaseModel | None = None,
        *,
        request_id: str,
        timeout: TimeoutTypes | Unset = UNSET,
        extra_body: Mapping[str, Any] | None = None,
    ) -> httpx.Request:
        """The HTTP request for one attempt of ``op`` (the same object is re-sent on retries).

        Args:
            op: the operation row.
            path_params: values for the path template; each is URL-encoded as one segment.
            payload: an instance of ``op.request_model`` (body or query), or None when it has
                none.
            request_id: the ``x-request-id`` of this logical call.
            timeout: per-call override; UNSET takes the client's timeout for the operation's
                class.
            extra_body: top-level JSON fields merged over the body as given, unchecked: the
                way to send a field the service gained before this library's models know it.

        Raises:
            RequestValidationError: bad path parameters, a payload of the wrong type, a query
                too long for a URL, or an ``extra_body`` on an operation without a JSON body or
                that is not JSON.
        """
        url = self.url(op, path_params)
        if op.request_model is None:
            if payload is not None:
                raise RequestValidationError(op.name, [f"{op.name} takes no request body or query"])
        elif payload is not None and not isinstance(payload, op.request_model):
            raise RequestValidationError(
                op.name,
                [f"payload must be a {op.request_model.__name__}; got {type(payload).__name__}"],
            )
        headers = {
            API_KEY_HEADER: self.settings.api_key.get_secret_value(),
            REQUEST_ID_HEADER: request_id,
            "accept": "application/json",
            "user-agent": USER_AGENT,
        }
        params: dict[str, str] | None = None
        content: bytes | None = None
        if payload is not None and op.request_in == "query":
            params = encode_query(payload, op.name)
        if extra_body and op.request_in != "body":
            raise RequestValidationError(op.name, [f"{op.name} has no JSON body for extra_body"])
        if op.request_in == "body":
            body = {} if payload is None else _wire_dict(payload, op.name)
            body.update(extra_body or {})
            try:
                content = json.dumps(body, separators=(",", ":"), allow_nan=False).encode()
            except (TypeError, ValueError) as exc:
                raise RequestValidationError(
                    op.name, [f"body is not JSON: {exc} (NaN and infinities have no JSON form)"]
                ) from None
            headers["content-type"] = "application/json"
        timeouts = (
            dict(self._timeouts[op.timeout])
            if isinstance(timeout, Unset)
            else _within(to_timeout(timeout).as_dict(), self.settings.attempt_deadline)
        )
        try:
            return httpx.Request(
                op.method,
                url,
                params=params,
                headers=headers,
                content=content,
                extensions={"timeout": timeouts},
            )
        except httpx.InvalidURL:
            raise _url_too_long(op, params or {}) from None


def _within(
    timeouts: dict[str, float | None], deadline: float | Unset | None
) -> dict[str, float | None]:
    """Per-phase timeouts no longer than an explicit deadline: no single wait outlasts it."""
    if deadline is None or isinstance(deadline, Unset):
        return timeouts
    return {
        phase: deadline if value is None else min(value, deadline)
        for phase, value in timeouts.items()
    }


def _url_too_long(op: Operation[Any], values: Mapping[str, Any]) -> RequestValidationError:
    """httpx refuses a URL (or a part of one) over 64 KiB: name the longest value that made it."""
    name, value = max(values.items(), key=lambda item: len(str(item[1])), default=("", ""))
    where = f"{name} is {len(str(value)):,} characters" if name else "a value is too long"
    return RequestValidationError(
        op.name,
        [
            f"{where}: the request's URL would be over the {_MAX_URL_CHARS:,} characters httpx "
            "sends; shorten it"
        ],
    )


def build_request(
    op: Operation[Any],
    settings: ToolRouterSettings,
    path_params: Mapping[str, str],
    payload: BaseModel | None = None,
    *,
    request_id: str,
    timeout: TimeoutTypes | Unset = UNSET,
    extra_body: Mapping[str, Any] | None = None,
) -> httpx.Request:
    """One request built from ``settings`` (see :meth:`RequestBuilder.build`; a client keeps
    a :class:`RequestBuilder`, which parses its API root once rather than per request)."""
    return RequestBuilder(settings).build(
        op, path_params, payload, request_id=request_id, timeout=timeout, extra_body=extra_body
    )


def check_origin(request: httpx.Request, settings: ToolRouterSettings) -> None:
    """Refuse to send the key anywhere but the configured base URL's origin."""
    _refuse_other_origin(request.url, settings.origin, settings.base_url)


def _refuse_other_origin(
    url: httpx.URL, origin: tuple[str, str, int | None], base_url: str
) -> None:
    if (url.scheme, url.host, url.port) != origin:
        raise ConfigurationError(
            f"refusing to send the API key to {url.scheme}://{url.host}: requests go only to "
            f"the configured base URL {base_url}"
        )


# --------------------------------------------------------------------------- responses


def _redact(text: str, response: httpx.Response) -> str:
    """Remove the API key from text the service echoed back (it must never reach a message)."""
    try:
        key = response.request.headers.get(API_KEY_HEADER)
    except RuntimeError:  # a response built without a request
        return text
    if key and key in text:
        return text.replace(key, _REDACTED)
    return text


def _text(response: httpx.Response, body: bytes | bytearray) -> str:
    """The body as text for a message (undecodable bytes replaced), the API key removed."""
    try:
        text = body.decode(response.charset_encoding or "utf-8", errors="replace")
    except LookupError:  # a charset Python does not know
        text = body.decode("utf-8", errors="replace")
    return _redact(text, response)


def _sent_request_id(response: httpx.Response) -> str | None:
    try:
        value: str | None = response.request.headers.get(REQUEST_ID_HEADER)
    except RuntimeError:
        return None
    return value


_DECODE_HINTS = (
    ("recursion limit exceeded", "nested deeper than the 200 levels this client reads"),
    ("number out of range", "a number longer than the 4,300 digits this client reads"),
    ("invalid unicode code point", "text that is not UTF-8"),
    ("surrogate", "a \\u escape of half a surrogate pair, which no text encoding can carry"),
    ("hex escape", "a broken \\u escape (such as half a surrogate pair)"),
)


def _not_json(exc: ValueError) -> str:
    """What is wrong with a body the JSON parser refused, in words."""
    detail = str(exc)
    for marker, meaning in _DECODE_HINTS:
        if marker in detail:
            return f"body is not JSON this client reads: {meaning} ({detail})"
    return f"body is not JSON ({detail})"


def parse_response(
    op: Operation[ResponseT], response: httpx.Response, body: bytes | bytearray | None = None
) -> ResponseT:
    """The response model of a 2xx answer; otherwise raise the typed error for the status.

    Args:
        op: the operation answered.
        response: its response.
        body: the decoded body, as the client read it; None takes ``response.content`` (the
            response must have been read).

    The body is parsed by pydantic's JSON parser, which refuses what Python's ``json`` would
    turn into trouble later: nesting deeper than 200 levels (a model dump fails past 255), a
    number over 4,300 digits (Python cannot print it), text that is not UTF-8 and halves of
    surrogate pairs (no encoder takes them).

    Raises:
        APIError: a subclass matching the status (see :func:`parse_error`).
        ResponseValidationError: a 2xx body that is not JSON or does not fit the model.
    """
    raw = response.content if body is None else body
    if not response.is_success:
        raise parse_error(op, response, raw)
    data: Any = None
    if raw and not raw.isspace():
        try:
            data = from_json(raw)
        except ValueError as exc:
            raise _unfit(op, response, raw, "", [_not_json(exc)]) from None
    elif op.empty_ok:
        data = {}  # an empty 2xx (e.g. 204) where the operation allows one
    try:
        return op.response_model.model_validate(data)
    except ValidationError as exc:
        field, problems = validation_problems(exc)
        raise _unfit(op, response, raw, field, problems) from None


def _unfit(
    op: Operation[Any],
    response: httpx.Response,
    raw: bytes | bytearray,
    field: str,
    problems: list[str],
) -> ResponseValidationError:
    return ResponseValidationError(
        op.name,
        field=field,
        errors=problems,
        body=_text(response, raw),
        status=response.status_code,
        model=op.response_model.__name__,
        request_id=_sent_request_id(response),
    )


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def _as_str(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value or None
    return json.dumps(value) if isinstance(value, dict | list) else str(value)


def _details(value: Any) -> list[str]:
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [text for item in items if (text := _as_str(item))]


def parse_error(
    op: Operation[Any], response: httpx.Response, raw: bytes | bytearray | None = None
) -> APIError:
    """The typed error for a non-2xx answer, its fields read defensively from the body.

    Handles the documented ``{"error": {...}}`` body, ``error_code`` instead of ``code``,
    ``{"error": "text"}``, fields at the top level, and bodies that are not JSON at all (kept
    as text). ``raw`` is the decoded body; None takes ``response.content``.
    """
    status = response.status_code
    text = _text(response, response.content if raw is None else raw)
    body: Any
    try:
        body = from_json(text) if text.strip() else None
    except ValueError:
        body = text
    fields: dict[str, Any] = {}
    message: str | None = None
    if isinstance(body, dict):
        inner = body.get("error")
        if isinstance(inner, dict):
            fields = inner
        else:
            fields = body
            if isinstance(inner, str):
                message = inner
        message = _as_str(fields.get("message")) or message or _as_str(body.get("detail"))
    elif isinstance(body, str) and body.strip():
        message = body.strip()[:500]
    if not message:
        message = response.reason_phrase or "no error message in the response"
    code = _as_int(fields.get("code"))
    if code is None:
        code = _as_int(fields.get("error_code"))
    common: dict[str, Any] = {
        "status": status,
        "code": code,
        "slug": _as_str(fields.get("slug")),
        "request_id": _as_str(fields.get("request_id")) or _sent_request_id(response),
        "suggested_fix": _as_str(fields.get("suggested_fix")),
        "errors": _details(fields.get("errors")),
        "body": body,
        "operation": op.name,
    }
    cls = error_class_for_status(status)
    if cls is RateLimitError or cls is ServerError:
        return cls(message, retry_after=retry_after_seconds(response.headers), **common)
    return cls(message, **common)


# --------------------------------------------------------------------------- transport failures


def map_transport_error(
    op: Operation[Any],
    exc: httpx.HTTPError,
    request_id: str | None,
    request: httpx.Request | None = None,
) -> TransportError | ConfigurationError:
    """Translate an httpx failure into ours, recording whether the request may have run and
    where it went (the method, the origin and the path: the query may carry values, and the
    key is a header, never part of either).

    Only a refused connection and connect/pool timeouts prove the request was never sent.
    """
    target = None
    if request is not None:
        url = request.url
        target = (
            f"{request.method} {url.scheme}://{url.netloc.decode('ascii', 'replace')}{url.path}"
        )
    fields: dict[str, Any] = {"operation": op.name, "request_id": request_id, "target": target}
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.ConnectTimeout):
        return RequestTimeoutError(
            f"timed out connecting; nothing was sent: {detail}", phase="connect", **fields
        )
    if isinstance(exc, httpx.PoolTimeout):
        return RequestTimeoutError(
            f"timed out waiting for a free connection; nothing was sent: {detail}",
            phase="pool",
            **fields,
        )
    if isinstance(exc, httpx.WriteTimeout):
        return RequestTimeoutError(
            f"timed out sending the request; part of it went out, so it may have run: {detail}",
            phase="write",
            **fields,
        )
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeoutError(
            f"timed out waiting for the response; the request went out, it may have run: {detail}",
            phase="read",
            **fields,
        )
    if isinstance(exc, httpx.ConnectError | httpx.ProxyError):
        hint = ""
        if request is not None:
            origin = f"{request.url.scheme}://{request.url.netloc.decode('ascii', 'replace')}"
            hint = (
                f"; is the Tool Router service (or the emulator: toolrouter-emulator) running "
                f"at {origin}? base_url= or COMPOSIO_BASE_URL says where it is"
            )
        return ConnectError(f"could not connect; nothing was sent: {detail}{hint}", **fields)
    if isinstance(exc, httpx.ReadError | httpx.WriteError | httpx.RemoteProtocolError):
        return ConnectionLostError(
            f"connection lost after the request was sent; it may have run: {detail}", **fields
        )
    if isinstance(exc, httpx.UnsupportedProtocol):
        return ConfigurationError(f"{op.name}: unusable URL: {detail}")
    return TransportError(
        f"{type(exc).__name__} after the request was sent; it may have run: {detail}", **fields
    )
