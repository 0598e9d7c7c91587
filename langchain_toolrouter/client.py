"""Low-level clients of the Tool Router session API: one method per operation, sync and async.

:class:`_BaseClient` holds the settings and makes every decision (request building through the
shared codec, retry rules); :class:`ToolRouterClient` and :class:`AsyncToolRouterClient` only send.
Their methods have the same names in the same order, so the two can be read side by side.

Every method takes two keyword-only extras:

* ``timeout``: per-call override (seconds, ``httpx.Timeout``, or None for no timeout); left out,
  the client's default applies (the longer execute timeout for execute-type calls).
* ``request_id``: the ``x-request-id`` of this call (default: a fresh uuid4 hex), the same on
  every retry.

Calls with a JSON body also take ``extra_body``: top-level fields sent as given, for a field the
service has and our models do not know yet. Unknown fields anywhere else (a keyword such as
``create_session(toolkit=...)``, a key of a mapping) are refused with a
:class:`~langchain_toolrouter.errors.RequestValidationError` naming the field and the known
ones, so a typo never goes out silently. A request model instance you built is sent as is.

Mount operations take ``mount_id`` as a keyword (default ``"files"``, the only mount the
official SDK knows).

Answers are read as they arrive, within two limits of the client: ``max_response_bytes``
(decoded bytes; :class:`~langchain_toolrouter.errors.ResponseTooLargeError`) and
``attempt_deadline`` (seconds from sending to the last byte;
:class:`~langchain_toolrouter.errors.DeadlineExceededError`), so a broken or hostile server
(an endless body, a compression bomb, a body trickled a few bytes a second) ends a call with an
error instead of exhausting memory or hanging.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from enum import Enum
from types import TracebackType
from typing import Any, TypeVar

import httpx
import tenacity
from pydantic import BaseModel, SecretStr
from typing_extensions import Self

from langchain_toolrouter import _client_calls as calls
from langchain_toolrouter._config import (
    UNSET,
    TimeoutTypes,
    ToolRouterSettings,
    Unset,
    logger,
)
from langchain_toolrouter._exceptions import ConfigurationError, NotFoundError
from langchain_toolrouter.wire import models as m
from langchain_toolrouter.wire import operations as ops
from langchain_toolrouter.wire.body import BodyReader
from langchain_toolrouter.wire.codec import (
    REQUEST_ID_HEADER,
    RequestBuilder,
    map_transport_error,
    new_request_id,
    parse_error,
    parse_response,
)
from langchain_toolrouter.wire.operations import Operation
from langchain_toolrouter.wire.retry import (
    RetryPolicy,
    is_retryable,
    may_have_run,
    next_delay,
    should_stop,
    waits_enabled,
)

__all__ = ["AsyncToolRouterClient", "RetryPolicy", "ToolRouterClient"]

ResponseT = TypeVar("ResponseT", bound=BaseModel)
_Params = Mapping[str, Any]
_DEFAULT_MOUNT = "files"
DEPRECATED_TOOLKITS_HEADER = "composio-deprecated-toolkits"
_warned_deprecated: set[str] = set()


class ClientState(Enum):
    """Lifecycle of a client: usable until closed, never reopened."""

    OPEN = "open"
    CLOSED = "closed"


def _check_http_client(
    given: object,
    expected: type[httpx.Client | httpx.AsyncClient],
    name: str = "http_client",
) -> None:
    """Refuse anything but an httpx client of the expected kind (None: one is made)."""
    if given is not None and not isinstance(given, expected):
        raise TypeError(
            f"{name} must be an httpx.{expected.__name__} (or None to let the client make "
            f"one); got {type(given).__module__}.{type(given).__qualname__}. To run the "
            "emulator in-process, use httpx.Client(transport=emulator.sync_transport(app)) or "
            "httpx.AsyncClient(transport=emulator.async_transport(app)) (Starlette's TestClient "
            "is not an httpx.Client here)."
        )


def _check_retry(given: object) -> RetryPolicy:
    """The retry policy to use: the given one, or the default for None."""
    if given is None:
        return RetryPolicy()
    if not isinstance(given, RetryPolicy):
        raise ConfigurationError(
            f"retry must be a RetryPolicy (or None for the default: 3 attempts within 60 s); "
            f"got {given!r} ({type(given).__name__}). For n attempts pass "
            "RetryPolicy(max_attempts=n); for none, RetryPolicy.disabled()."
        )
    return given


def _hook_status_error(op: Operation[Any], exc: httpx.HTTPStatusError) -> Exception:
    """The typed error for a status a caller's response hook raised on (``raise_for_status``).

    httpx closes the response before the hook's exception leaves ``send``, so the body is only
    available when it had already been read; otherwise the error carries the status alone.
    """
    original = exc.response
    try:
        content = original.content
    except httpx.ResponseNotRead:
        content = b""
    headers = [
        (name, value)
        for name, value in original.headers.multi_items()
        if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    copy = httpx.Response(
        original.status_code, headers=headers, content=content, request=original.request
    )
    return parse_error(op, copy)


def _send_failure(op: Operation[Any], exc: httpx.HTTPError, request: httpx.Request) -> Exception:
    """Our error for an httpx failure, chained to a cause that holds no API key.

    httpx's exceptions keep the request, whose headers carry the key; an error reporter that
    walks ``__cause__`` would find it. The cause is a copy with the type and message only, and
    the httpx exception is not kept as the context either.
    """
    if isinstance(exc, httpx.HTTPStatusError):  # a caller's event hook raised for the status
        error = _hook_status_error(op, exc)  # (its status and body are in our error)
        error.__cause__, error.__suppress_context__ = None, True
        return error
    error = map_transport_error(op, exc, request.headers.get(REQUEST_ID_HEADER), request)
    try:
        cause: BaseException = type(exc)(str(exc))
    except Exception:  # a subclass with another signature
        cause = RuntimeError(f"{type(exc).__name__}: {exc}")
    error.__cause__, error.__suppress_context__ = cause, True
    return error


class _CallLog:
    """What the earlier attempts of one call did, for :meth:`_BaseClient._settle_not_found`."""

    __slots__ = ("may_have_run",)

    def __init__(self) -> None:
        self.may_have_run = False


class _FirstFailure:
    """The error of a call's first attempt, made before tenacity took over.

    A call's first attempt runs outside tenacity, so one that succeeds at once never sets up a
    retry loop. When it fails, tenacity starts with an attempt that raises this error again
    (:meth:`replay`, nothing is sent), so its hooks judge the first attempt as they judge every
    later one: the same rules, attempt numbers, waits and log lines as when tenacity ran it.
    """

    __slots__ = ("_error",)

    def __init__(self, error: Exception) -> None:
        self._error: Exception | None = error

    def replay(self) -> None:
        """Raise the first attempt's error the first time; do nothing after that."""
        error, self._error = self._error, None
        if error is not None:
            raise error


class _BaseClient:
    """Settings, request preparation and retry rules shared by both clients (no I/O)."""

    def __init__(
        self,
        *,
        api_key: str | SecretStr | None,
        base_url: str | None,
        api_version: str | None,
        timeout: TimeoutTypes | Unset,
        execute_timeout: TimeoutTypes | Unset,
        retry: RetryPolicy | None,
        max_response_bytes: int | Unset | None,
        attempt_deadline: float | Unset | None,
    ) -> None:
        self._settings = ToolRouterSettings.resolve(
            api_key=api_key,
            base_url=base_url,
            api_version=api_version,
            timeout=timeout,
            execute_timeout=execute_timeout,
            max_response_bytes=max_response_bytes,
            attempt_deadline=attempt_deadline,
        )
        self._retry = _check_retry(retry)
        self._requests = RequestBuilder(self._settings)
        self._state = ClientState.OPEN

    @property
    def settings(self) -> ToolRouterSettings:
        """The resolved settings (the key inside is a ``SecretStr``)."""
        return self._settings

    @property
    def retry_policy(self) -> RetryPolicy:
        """How failed calls are retried."""
        return self._retry

    @property
    def is_closed(self) -> bool:
        """True once :meth:`close` (or ``aclose``) ran."""
        return self._state is ClientState.CLOSED

    def __repr__(self) -> str:
        s = self._settings
        return (
            f"{type(self).__name__}(base_url={s.base_url!r}, api_version={s.api_version!r}, "
            f"state={self._state.value!r})"
        )

    def _check_open(self) -> None:
        if self._state is ClientState.CLOSED:
            raise RuntimeError(
                f"{type(self).__name__} is closed (by its own close(), or by the ToolRouter "
                "that made it); create a new one to send more requests"
            )

    def _prepare(
        self,
        op: Operation[Any],
        path_params: _Params,
        payload: BaseModel | None,
        timeout: TimeoutTypes | Unset,
        request_id: str | None,
        *,
        extra_body: Mapping[str, Any] | None,
    ) -> httpx.Request:
        self._check_open()
        return self._requests.build(
            op,
            path_params,
            payload,
            request_id=calls.check_request_id(request_id, op.name) or new_request_id(),
            timeout=timeout,
            extra_body=extra_body,
        )

    def _body_reader(
        self, op: Operation[Any], response: httpx.Response, started: float
    ) -> BodyReader:
        """The reader of one attempt's answer, holding it to this client's limits."""
        return BodyReader(
            response,
            operation=op.name,
            limit=self._settings.max_response_bytes,
            deadline=self._requests.deadline(response.request),
            started=started,
        )

    def _retry_options(
        self,
        op: Operation[Any],
        request: httpx.Request,
        log: _CallLog,
        *,
        spent_before: float = 0.0,
    ) -> dict[str, Any]:
        """tenacity's stop/wait/retry hooks, built from the pure policy in ``wire.retry``.

        ``spent_before``: seconds the call ran before tenacity took over (the first attempt,
        made without it; see :class:`_FirstFailure`), counted in the time budget.
        """
        policy = self._retry
        request_id = request.headers.get(REQUEST_ID_HEADER)

        def failure(state: tenacity.RetryCallState) -> BaseException | None:
            outcome = state.outcome
            return outcome.exception() if outcome is not None and outcome.failed else None

        def retry(state: tenacity.RetryCallState) -> bool:
            exc = failure(state)
            if exc is None or not is_retryable(op.retry, exc, policy):
                return False
            log.may_have_run = log.may_have_run or may_have_run(exc)
            return True

        planned: dict[int, float] = {}

        def wait(state: tenacity.RetryCallState) -> float:
            # Drawn once per attempt (jitter), whichever of wait and stop tenacity calls first:
            # before 8.3 it ran stop first, with upcoming_sleep not yet set.
            if state.attempt_number not in planned:
                delay = next_delay(policy, state.attempt_number - 1, failure(state))
                planned[state.attempt_number] = delay
            return planned[state.attempt_number]

        def stop(state: tenacity.RetryCallState) -> bool:
            # Planned waits count even when they are not slept (tests), so the budget holds.
            elapsed = max((state.seconds_since_start or 0.0) + spent_before, state.idle_for)
            return should_stop(policy, state.attempt_number, elapsed, wait(state))

        def before_sleep(state: tenacity.RetryCallState) -> None:
            logger.info(
                "%s attempt %d failed (%s); retrying in %.2fs (request id %s)",
                op.name,
                state.attempt_number,
                failure(state),
                planned.get(state.attempt_number, 0.0),  # (upcoming_sleep: tenacity 8.3+)
                request_id,
            )

        return {
            "retry": retry,
            "wait": wait,
            "stop": stop,
            "before_sleep": before_sleep,
            "reraise": True,
        }

    @staticmethod
    def _settle_not_found(
        op: Operation[ResponseT], path_params: _Params, log: _CallLog, exc: NotFoundError
    ) -> ResponseT:
        """Re-raise ``exc``, except for a retried delete whose earlier attempt may have run.

        A DELETE whose answer was lost (a timeout, a dropped connection, a 5xx) is retried,
        and the retry finds the session already gone: that 404 is the first delete's success.
        """
        if op is not ops.DELETE_SESSION or not log.may_have_run:
            raise exc
        session_id = str(path_params["session_id"])
        logger.info(
            "delete_session: the retry found %s gone; an earlier attempt deleted it", session_id
        )
        done: ResponseT = op.response_model.model_validate(
            {"session_id": session_id, "deleted": True}
        )
        return done

    @staticmethod
    def _log_response(op: Operation[Any], response: httpx.Response) -> None:
        """Debug-log the exchange (URL and status, never headers) and warn once per toolkit
        version the service reports as deprecated (``Composio-Deprecated-Toolkits``)."""
        deprecated = response.headers.get(DEPRECATED_TOOLKITS_HEADER)
        for name in (part.strip() for part in (deprecated or "").split(",")):
            if name and name not in _warned_deprecated:
                _warned_deprecated.add(name)
                logger.warning("the service reports toolkit %s as deprecated", name)
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug(
                "%s %s %s -> %d (request id %s)",
                op.name,
                response.request.method,
                response.request.url,
                response.status_code,
                response.request.headers.get(REQUEST_ID_HEADER),
            )


class ToolRouterClient(_BaseClient):
    """Synchronous client of the Tool Router session API.

    Args:
        api_key: project API key; default ``COMPOSIO_API_KEY``. Required.
        base_url: service root; default ``COMPOSIO_BASE_URL``, then ``https://backend.composio.dev``.
        api_version: ``"v3"`` (default) or ``"v3.1"`` (the official client's); env
            ``COMPOSIO_API_VERSION``.
        timeout: default timeout (30 s read, 5 s connect); None for no timeout.
        execute_timeout: timeout of execute, execute_meta and proxy_execute (default 180 s).
        retry: a :class:`RetryPolicy` (default: 3 attempts within 60 s).
        max_response_bytes: largest answer read, counted on the decoded bytes as they arrive
            (default 64 MiB); a larger one raises :class:`ResponseTooLargeError` and is not
            retried. None: no limit.
        attempt_deadline: seconds one attempt may take, from sending the request to the last
            byte of its answer (default: twice the call's read timeout, 60 s for most calls and
            360 s for tool runs); past it, :class:`DeadlineExceededError`. None: no deadline.
        http_client: your own ``httpx.Client`` (pooling, proxies, ``httpx.MockTransport``, or
            ``langchain_toolrouter.emulator.sync_transport(app)`` to run the emulator
            in-process; Starlette's ``TestClient`` does not fit); it is used as is and not
            closed by :meth:`close`. Requests are built whole by this
            client, so its base URL and default headers are not used, and redirects are never
            followed (the key must not travel to another origin).

    Raises:
        ConfigurationError: no API key, or an unusable key, base URL, version, timeout, retry
            policy, size limit or deadline (each named, with what was given and what is
            accepted).
        TypeError: an ``http_client`` that is not an ``httpx.Client``.
    """

    def __init__(
        self,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        api_version: str | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        execute_timeout: TimeoutTypes | Unset = UNSET,
        retry: RetryPolicy | None = None,
        max_response_bytes: int | Unset | None = UNSET,
        attempt_deadline: float | Unset | None = UNSET,
        http_client: httpx.Client | None = None,
    ) -> None:
        super().__init__(
            api_key=api_key,
            base_url=base_url,
            api_version=api_version,
            timeout=timeout,
            execute_timeout=execute_timeout,
            retry=retry,
            max_response_bytes=max_response_bytes,
            attempt_deadline=attempt_deadline,
        )
        _check_http_client(http_client, httpx.Client)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client()

    def close(self) -> None:
        """Close the connection pool this client opened (a caller's ``http_client`` stays open)."""
        if self._state is not ClientState.CLOSED:
            self._state = ClientState.CLOSED
            if self._owns_http:
                self._http.close()

    def __enter__(self) -> Self:
        self._check_open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- sending -----------------------------------------------------------------------------

    def _send(
        self,
        op: Operation[ResponseT],
        path_params: _Params,
        payload: BaseModel | None,
        timeout: TimeoutTypes | Unset,
        request_id: str | None,
        *,
        extra_body: Mapping[str, Any] | None = None,
    ) -> ResponseT:
        request = self._prepare(
            op, path_params, payload, timeout, request_id, extra_body=extra_body
        )
        started = time.monotonic()
        try:  # the first attempt, made here: a call goes from here to httpx directly
            response = self._http.send(request, stream=True, follow_redirects=False)
        except httpx.HTTPError as exc:
            first = _FirstFailure(_send_failure(op, exc, request))
        else:
            try:
                return self._answer(op, response, started)
            except Exception as exc:  # tenacity judges it (and re-raises it) with the same hooks
                first = _FirstFailure(exc)
        log = _CallLog()
        options = self._retry_options(op, request, log, spent_before=time.monotonic() - started)
        retrying = tenacity.Retrying(sleep=self._sleep, **options)
        try:
            result: ResponseT = retrying(self._retry_attempt, op, request, first)
        except NotFoundError as exc:
            return self._settle_not_found(op, path_params, log, exc)
        return result

    def _attempt(self, op: Operation[ResponseT], request: httpx.Request) -> ResponseT:
        """One more attempt (a retry)."""
        self._check_open()
        started = time.monotonic()
        try:
            response = self._http.send(request, stream=True, follow_redirects=False)
        except httpx.HTTPError as exc:
            error = _send_failure(op, exc, request)
        else:
            return self._answer(op, response, started)
        raise error  # outside the handler, so httpx's request (and key) is not chained

    def _answer(
        self, op: Operation[ResponseT], response: httpx.Response, started: float
    ) -> ResponseT:
        """The operation's answer from a response (closed here), or its typed error."""
        try:
            self._log_response(op, response)
            return parse_response(op, response, self._read(op, response, started))
        finally:
            response.close()

    def _read(
        self, op: Operation[Any], response: httpx.Response, started: float
    ) -> bytes | bytearray:
        """The decoded body, read piece by piece within the size limit and the deadline."""
        reader = self._body_reader(op, response, started)
        if response.is_stream_consumed:  # read already (an in-memory transport, an event hook)
            return reader.whole(response.content)
        try:
            for chunk in response.iter_raw():
                reader.feed(chunk)
        except httpx.HTTPError as exc:
            error = _send_failure(op, exc, response.request)
        else:
            return reader.body()
        raise error  # outside the handler, so httpx's request (and key) is not chained

    def _retry_attempt(
        self, op: Operation[ResponseT], request: httpx.Request, first: _FirstFailure
    ) -> ResponseT:
        first.replay()
        return self._attempt(op, request)

    def _sleep(self, seconds: float) -> None:
        if waits_enabled(self._retry):
            time.sleep(seconds)

    # -- sessions ----------------------------------------------------------------------------

    def create_session(
        self,
        request: m.SessionCreateRequest | Mapping[str, Any] | None = None,
        /,
        *,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
        **fields: Any,
    ) -> m.Session:
        """Create a session (``POST /tool_router/session``).

        Give a :class:`SessionCreateRequest`, a mapping, keyword fields, or a mix (keywords win):
        ``client.create_session(user_id="u1", toolkits=["gmail"])``. A field the models do not
        know (``toolkit=``) is refused with :class:`RequestValidationError`; send a newer service
        field with ``extra_body={...}`` or a model you built. Resent only when it provably never
        ran (no connection, or 429): a retry could leave an extra session behind.
        """
        body = calls.merge_payload(ops.CREATE_SESSION, request, fields)
        return self._send(ops.CREATE_SESSION, {}, body, timeout, request_id, extra_body=extra_body)

    def get_session(
        self,
        session_id: str,
        *,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.Session:
        """Read a session back (``GET /tool_router/session/{session_id}``)."""
        return self._send(ops.GET_SESSION, {"session_id": session_id}, None, timeout, request_id)

    def update_session(
        self,
        session_id: str,
        request: m.SessionUpdateRequest | Mapping[str, Any] | None = None,
        /,
        *,
        expected_config_version: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
        **fields: Any,
    ) -> m.Session:
        """Change a session's config (``PATCH``); a block set to None is removed.

        With ``expected_config_version`` the change applies only if the stored version matches;
        otherwise :class:`ConflictError` (409), which is never retried. A PATCH is resent only
        when it provably never reached the service (no connection was made, or a 429): then
        resending cannot apply the change twice.
        """
        if expected_config_version is not None:
            fields["expected_config_version"] = expected_config_version
        body = calls.merge_payload(ops.UPDATE_SESSION, request, fields)
        return self._send(
            ops.UPDATE_SESSION,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    def delete_session(
        self,
        session_id: str,
        *,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.SessionDeleteResult:
        """Delete a session now; later calls on it get :class:`NotFoundError`.

        A retry that finds the session gone (an earlier attempt deleted it, but its answer was
        lost) returns ``deleted=True`` rather than raising.
        """
        return self._send(ops.DELETE_SESSION, {"session_id": session_id}, None, timeout, request_id)

    def attach(
        self,
        session_id: str,
        *,
        custom_tools: Sequence[m.CustomToolDefinition | Mapping[str, Any]] | None = None,
        custom_toolkits: Sequence[m.CustomToolkitDefinition | Mapping[str, Any]] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.Session:
        """Resume a session with inline custom definitions; the answer maps their final slugs."""
        body = calls.payload(
            ops.ATTACH, experimental=calls.inline_customs(custom_tools, custom_toolkits)
        )
        return self._send(
            ops.ATTACH, {"session_id": session_id}, body, timeout, request_id, extra_body=extra_body
        )

    def list_config_history(
        self,
        session_id: str,
        *,
        cursor: str | None = None,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ConfigHistoryPage:
        """One page of the session's config versions, newest first (``limit`` at most 100)."""
        query = calls.payload(ops.LIST_CONFIG_HISTORY, cursor=cursor, limit=limit)
        params = {"session_id": session_id}
        return self._send(ops.LIST_CONFIG_HISTORY, params, query, timeout, request_id)

    # -- execution ---------------------------------------------------------------------------

    def execute(
        self,
        session_id: str,
        tool_slug: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        account: str | None = None,
        experimental: m.InlineCustomTools | Mapping[str, Any] | None = None,
        enable_auto_workbench_offload: bool | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: Any = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ExecuteResult:
        """Run a tool. A tool that ran and failed returns ``successful=False``, not an error.

        Retried only when the request provably never ran (no connection, or 429).
        """
        body = calls.payload(
            ops.EXECUTE,
            tool_slug=tool_slug,
            arguments=arguments,
            account=account,
            experimental=experimental,
            enable_auto_workbench_offload=enable_auto_workbench_offload,
            input_responses=input_responses,
            request_state=request_state,
        )
        return self._send(
            ops.EXECUTE,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    def execute_meta(
        self,
        session_id: str,
        slug: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        experimental: m.InlineCustomTools | Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: Any = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ExecuteResult:
        """Run a ``COMPOSIO_*`` meta tool; same result and retry rules as :meth:`execute`."""
        body = calls.payload(
            ops.EXECUTE_META,
            slug=slug,
            arguments=arguments,
            experimental=experimental,
            input_responses=input_responses,
            request_state=request_state,
        )
        return self._send(
            ops.EXECUTE_META,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    def create_link(
        self,
        session_id: str,
        toolkit: str,
        *,
        callback_url: str | None = None,
        alias: str | None = None,
        experimental: m.LinkExperimental | Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.LinkResponse:
        """Start connecting an account for ``toolkit``; send the user to ``redirect_url``."""
        body = calls.payload(
            ops.CREATE_LINK,
            toolkit=toolkit,
            callback_url=callback_url,
            alias=alias,
            experimental=experimental,
        )
        return self._send(
            ops.CREATE_LINK,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    def proxy_execute(
        self,
        session_id: str,
        toolkit_slug: str,
        endpoint: str,
        method: str = "GET",
        *,
        body: Any = None,
        binary_body: m.BinaryBody | Mapping[str, Any] | None = None,
        parameters: Sequence[m.ProxyParameter | Mapping[str, Any]] | None = None,
        custom_connection_data: Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ProxyResult:
        """Call the toolkit's API through the session's connection (body None: none sent)."""
        payload = calls.payload(
            ops.PROXY_EXECUTE,
            toolkit_slug=toolkit_slug,
            endpoint=endpoint,
            method=method,
            body=body,
            binary_body=binary_body,
            parameters=parameters,
            custom_connection_data=custom_connection_data,
        )
        return self._send(
            ops.PROXY_EXECUTE,
            {"session_id": session_id},
            payload,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    # -- listing and search ------------------------------------------------------------------

    def list_toolkits(
        self,
        session_id: str,
        *,
        cursor: str | None = None,
        limit: int | None = None,
        is_connected: bool | None = None,
        search: str | None = None,
        toolkits: Sequence[str] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ToolkitPage:
        """One page of the session's toolkits (``limit`` at most 50 on v3.1)."""
        query = calls.payload(
            ops.LIST_TOOLKITS,
            cursor=cursor,
            limit=limit,
            is_connected=is_connected,
            search=search,
            toolkits=toolkits,
        )
        return self._send(ops.LIST_TOOLKITS, {"session_id": session_id}, query, timeout, request_id)

    def list_tools(
        self,
        session_id: str,
        *,
        cursor: str | None = None,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ToolPage:
        """One page of the session's tools with their schemas (``limit`` at most 500)."""
        query = calls.payload(ops.LIST_TOOLS, cursor=cursor, limit=limit)
        return self._send(ops.LIST_TOOLS, {"session_id": session_id}, query, timeout, request_id)

    def search(
        self,
        session_id: str,
        queries: calls.QueriesInput,
        *,
        model: str | None = None,
        experimental: m.InlineCustomTools | Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.SearchResponse:
        """Search tools for one use case (a string) or several; one result per query."""
        body = calls.payload(
            ops.SEARCH,
            queries=calls.search_queries(queries),
            model=model,
            experimental=experimental,
        )
        return self._send(
            ops.SEARCH, {"session_id": session_id}, body, timeout, request_id, extra_body=extra_body
        )

    # -- mounts ------------------------------------------------------------------------------

    def list_mount_items(
        self,
        session_id: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        cursor: str | None = None,
        limit: int | None = None,
        prefix: str | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.MountItemPage:
        """One page of files in a mount; ``prefix`` filters by path (``""``/``"/"``: all)."""
        query = calls.payload(
            ops.LIST_MOUNT_ITEMS,
            cursor=cursor,
            limit=limit,
            mount_relative_prefix=calls.mount_prefix(prefix),
        )
        params = {"session_id": session_id, "mount_id": mount_id}
        return self._send(ops.LIST_MOUNT_ITEMS, params, query, timeout, request_id)

    def create_download_url(
        self,
        session_id: str,
        mount_relative_path: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.DownloadUrl:
        """A presigned URL to download one mount file (fetch it without the API key)."""
        body = calls.payload(ops.CREATE_DOWNLOAD_URL, mount_relative_path=mount_relative_path)
        params = {"session_id": session_id, "mount_id": mount_id}
        return self._send(
            ops.CREATE_DOWNLOAD_URL, params, body, timeout, request_id, extra_body=extra_body
        )

    def create_upload_url(
        self,
        session_id: str,
        mount_relative_path: str,
        *,
        mimetype: str | None = None,
        mount_id: str = _DEFAULT_MOUNT,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.UploadUrl:
        """A presigned URL to PUT one mount file's bytes to (without the API key)."""
        body = calls.payload(
            ops.CREATE_UPLOAD_URL, mount_relative_path=mount_relative_path, mimetype=mimetype
        )
        params = {"session_id": session_id, "mount_id": mount_id}
        return self._send(
            ops.CREATE_UPLOAD_URL, params, body, timeout, request_id, extra_body=extra_body
        )

    def delete_mount_item(
        self,
        session_id: str,
        mount_relative_path: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.MountDeleteResult:
        """Delete one mount file; deleting a missing file also succeeds."""
        body = calls.payload(ops.DELETE_MOUNT_ITEM, mount_relative_path=mount_relative_path)
        params = {"session_id": session_id, "mount_id": mount_id}
        return self._send(
            ops.DELETE_MOUNT_ITEM, params, body, timeout, request_id, extra_body=extra_body
        )

    # -- every page --------------------------------------------------------------------------

    def iter_toolkits(
        self,
        session_id: str,
        *,
        limit: int | None = None,
        is_connected: bool | None = None,
        search: str | None = None,
        toolkits: Sequence[str] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> Iterator[m.ToolkitItem]:
        """Every toolkit of the session, page after page."""
        return calls.walk_pages(
            ops.LIST_TOOLKITS,
            lambda cursor: self.list_toolkits(
                session_id,
                cursor=cursor,
                limit=limit,
                is_connected=is_connected,
                search=search,
                toolkits=toolkits,
                timeout=timeout,
            ),
        )

    def iter_tools(
        self,
        session_id: str,
        *,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> Iterator[m.ToolSchema]:
        """Every tool of the session, page after page."""
        return calls.walk_pages(
            ops.LIST_TOOLS,
            lambda cursor: self.list_tools(session_id, cursor=cursor, limit=limit, timeout=timeout),
        )

    def iter_mount_items(
        self,
        session_id: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        limit: int | None = None,
        prefix: str | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> Iterator[m.MountItem]:
        """Every file of a mount, page after page."""
        return calls.walk_pages(
            ops.LIST_MOUNT_ITEMS,
            lambda cursor: self.list_mount_items(
                session_id,
                mount_id=mount_id,
                cursor=cursor,
                limit=limit,
                prefix=prefix,
                timeout=timeout,
            ),
        )

    def iter_config_history(
        self,
        session_id: str,
        *,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> Iterator[m.ConfigHistoryEntry]:
        """Every stored config version, newest first, page after page."""
        return calls.walk_pages(
            ops.LIST_CONFIG_HISTORY,
            lambda cursor: self.list_config_history(
                session_id, cursor=cursor, limit=limit, timeout=timeout
            ),
        )


class AsyncToolRouterClient(_BaseClient):
    """Asynchronous client of the Tool Router session API: :class:`ToolRouterClient`, awaitable.

    Same arguments as the sync client; ``http_client`` is an ``httpx.AsyncClient`` (e.g. one
    over ``httpx.ASGITransport`` or ``langchain_toolrouter.emulator.async_transport(app)``),
    used as is and not closed by :meth:`aclose`.
    """

    def __init__(
        self,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        api_version: str | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        execute_timeout: TimeoutTypes | Unset = UNSET,
        retry: RetryPolicy | None = None,
        max_response_bytes: int | Unset | None = UNSET,
        attempt_deadline: float | Unset | None = UNSET,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(
            api_key=api_key,
            base_url=base_url,
            api_version=api_version,
            timeout=timeout,
            execute_timeout=execute_timeout,
            retry=retry,
            max_response_bytes=max_response_bytes,
            attempt_deadline=attempt_deadline,
        )
        _check_http_client(http_client, httpx.AsyncClient)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient()
        self._closing: asyncio.Future[None] | None = None

    async def aclose(self) -> None:
        """Close the connection pool this client opened (a caller's ``http_client`` stays open)."""
        if self._state is not ClientState.CLOSED:
            self._state = ClientState.CLOSED
            if self._owns_http:
                self._closing = asyncio.ensure_future(self._http.aclose())
        closing = self._closing
        if closing is not None and closing.get_loop() is asyncio.get_running_loop():
            # Shielded, and awaited again by a later aclose(): a close cancelled half-way
            # would otherwise leave pooled connections open for good.
            await asyncio.shield(closing)

    async def __aenter__(self) -> Self:
        self._check_open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # -- sending -----------------------------------------------------------------------------

    async def _send(
        self,
        op: Operation[ResponseT],
        path_params: _Params,
        payload: BaseModel | None,
        timeout: TimeoutTypes | Unset,
        request_id: str | None,
        *,
        extra_body: Mapping[str, Any] | None = None,
    ) -> ResponseT:
        request = self._prepare(
            op, path_params, payload, timeout, request_id, extra_body=extra_body
        )
        started = time.monotonic()
        try:  # the first attempt, made here: a call goes from here to httpx directly
            response = await self._http.send(request, stream=True, follow_redirects=False)
        except httpx.HTTPError as exc:
            first = _FirstFailure(_send_failure(op, exc, request))
        else:
            try:
                return await self._answer(op, response, started)
            except Exception as exc:  # tenacity judges it (and re-raises it) with the same hooks
                first = _FirstFailure(exc)
        log = _CallLog()
        options = self._retry_options(op, request, log, spent_before=time.monotonic() - started)
        retrying = tenacity.AsyncRetrying(sleep=self._sleep, **options)
        try:
            result: ResponseT = await retrying(self._retry_attempt, op, request, first)
        except NotFoundError as exc:
            return self._settle_not_found(op, path_params, log, exc)
        return result

    async def _attempt(self, op: Operation[ResponseT], request: httpx.Request) -> ResponseT:
        """One more attempt (a retry)."""
        self._check_open()
        started = time.monotonic()
        try:
            response = await self._http.send(request, stream=True, follow_redirects=False)
        except httpx.HTTPError as exc:
            error = _send_failure(op, exc, request)
        else:
            return await self._answer(op, response, started)
        raise error  # outside the handler, so httpx's request (and key) is not chained

    async def _answer(
        self, op: Operation[ResponseT], response: httpx.Response, started: float
    ) -> ResponseT:
        """The operation's answer from a response (closed here), or its typed error."""
        try:
            self._log_response(op, response)
            return parse_response(op, response, await self._read(op, response, started))
        finally:
            await response.aclose()

    async def _read(
        self, op: Operation[Any], response: httpx.Response, started: float
    ) -> bytes | bytearray:
        """The decoded body, read piece by piece within the size limit and the deadline."""
        reader = self._body_reader(op, response, started)
        if response.is_stream_consumed:  # read already (an in-memory transport, an event hook)
            return reader.whole(response.content)
        try:
            async for chunk in response.aiter_raw():
                reader.feed(chunk)
        except httpx.HTTPError as exc:
            error = _send_failure(op, exc, response.request)
        else:
            return reader.body()
        raise error  # outside the handler, so httpx's request (and key) is not chained

    async def _retry_attempt(
        self, op: Operation[ResponseT], request: httpx.Request, first: _FirstFailure
    ) -> ResponseT:
        first.replay()
        return await self._attempt(op, request)

    async def _sleep(self, seconds: float) -> None:
        if waits_enabled(self._retry):
            await asyncio.sleep(seconds)

    # -- sessions ----------------------------------------------------------------------------

    async def create_session(
        self,
        request: m.SessionCreateRequest | Mapping[str, Any] | None = None,
        /,
        *,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
        **fields: Any,
    ) -> m.Session:
        """Create a session; see :meth:`ToolRouterClient.create_session`."""
        body = calls.merge_payload(ops.CREATE_SESSION, request, fields)
        return await self._send(
            ops.CREATE_SESSION, {}, body, timeout, request_id, extra_body=extra_body
        )

    async def get_session(
        self,
        session_id: str,
        *,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.Session:
        """Read a session back."""
        return await self._send(
            ops.GET_SESSION, {"session_id": session_id}, None, timeout, request_id
        )

    async def update_session(
        self,
        session_id: str,
        request: m.SessionUpdateRequest | Mapping[str, Any] | None = None,
        /,
        *,
        expected_config_version: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
        **fields: Any,
    ) -> m.Session:
        """Change a session's config; see :meth:`ToolRouterClient.update_session`."""
        if expected_config_version is not None:
            fields["expected_config_version"] = expected_config_version
        body = calls.merge_payload(ops.UPDATE_SESSION, request, fields)
        return await self._send(
            ops.UPDATE_SESSION,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    async def delete_session(
        self,
        session_id: str,
        *,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.SessionDeleteResult:
        """Delete a session now (see :meth:`ToolRouterClient.delete_session`)."""
        return await self._send(
            ops.DELETE_SESSION, {"session_id": session_id}, None, timeout, request_id
        )

    async def attach(
        self,
        session_id: str,
        *,
        custom_tools: Sequence[m.CustomToolDefinition | Mapping[str, Any]] | None = None,
        custom_toolkits: Sequence[m.CustomToolkitDefinition | Mapping[str, Any]] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.Session:
        """Resume a session with inline custom definitions."""
        body = calls.payload(
            ops.ATTACH, experimental=calls.inline_customs(custom_tools, custom_toolkits)
        )
        return await self._send(
            ops.ATTACH, {"session_id": session_id}, body, timeout, request_id, extra_body=extra_body
        )

    async def list_config_history(
        self,
        session_id: str,
        *,
        cursor: str | None = None,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ConfigHistoryPage:
        """One page of the session's config versions, newest first."""
        query = calls.payload(ops.LIST_CONFIG_HISTORY, cursor=cursor, limit=limit)
        params = {"session_id": session_id}
        return await self._send(ops.LIST_CONFIG_HISTORY, params, query, timeout, request_id)

    # -- execution ---------------------------------------------------------------------------

    async def execute(
        self,
        session_id: str,
        tool_slug: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        account: str | None = None,
        experimental: m.InlineCustomTools | Mapping[str, Any] | None = None,
        enable_auto_workbench_offload: bool | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: Any = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ExecuteResult:
        """Run a tool; see :meth:`ToolRouterClient.execute`."""
        body = calls.payload(
            ops.EXECUTE,
            tool_slug=tool_slug,
            arguments=arguments,
            account=account,
            experimental=experimental,
            enable_auto_workbench_offload=enable_auto_workbench_offload,
            input_responses=input_responses,
            request_state=request_state,
        )
        return await self._send(
            ops.EXECUTE,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    async def execute_meta(
        self,
        session_id: str,
        slug: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        experimental: m.InlineCustomTools | Mapping[str, Any] | None = None,
        input_responses: Mapping[str, Any] | None = None,
        request_state: Any = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ExecuteResult:
        """Run a ``COMPOSIO_*`` meta tool."""
        body = calls.payload(
            ops.EXECUTE_META,
            slug=slug,
            arguments=arguments,
            experimental=experimental,
            input_responses=input_responses,
            request_state=request_state,
        )
        return await self._send(
            ops.EXECUTE_META,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    async def create_link(
        self,
        session_id: str,
        toolkit: str,
        *,
        callback_url: str | None = None,
        alias: str | None = None,
        experimental: m.LinkExperimental | Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.LinkResponse:
        """Start connecting an account for ``toolkit``."""
        body = calls.payload(
            ops.CREATE_LINK,
            toolkit=toolkit,
            callback_url=callback_url,
            alias=alias,
            experimental=experimental,
        )
        return await self._send(
            ops.CREATE_LINK,
            {"session_id": session_id},
            body,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    async def proxy_execute(
        self,
        session_id: str,
        toolkit_slug: str,
        endpoint: str,
        method: str = "GET",
        *,
        body: Any = None,
        binary_body: m.BinaryBody | Mapping[str, Any] | None = None,
        parameters: Sequence[m.ProxyParameter | Mapping[str, Any]] | None = None,
        custom_connection_data: Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ProxyResult:
        """Call the toolkit's API through the session's connection."""
        payload = calls.payload(
            ops.PROXY_EXECUTE,
            toolkit_slug=toolkit_slug,
            endpoint=endpoint,
            method=method,
            body=body,
            binary_body=binary_body,
            parameters=parameters,
            custom_connection_data=custom_connection_data,
        )
        return await self._send(
            ops.PROXY_EXECUTE,
            {"session_id": session_id},
            payload,
            timeout,
            request_id,
            extra_body=extra_body,
        )

    # -- listing and search ------------------------------------------------------------------

    async def list_toolkits(
        self,
        session_id: str,
        *,
        cursor: str | None = None,
        limit: int | None = None,
        is_connected: bool | None = None,
        search: str | None = None,
        toolkits: Sequence[str] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ToolkitPage:
        """One page of the session's toolkits."""
        query = calls.payload(
            ops.LIST_TOOLKITS,
            cursor=cursor,
            limit=limit,
            is_connected=is_connected,
            search=search,
            toolkits=toolkits,
        )
        return await self._send(
            ops.LIST_TOOLKITS, {"session_id": session_id}, query, timeout, request_id
        )

    async def list_tools(
        self,
        session_id: str,
        *,
        cursor: str | None = None,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.ToolPage:
        """One page of the session's tools with their schemas."""
        query = calls.payload(ops.LIST_TOOLS, cursor=cursor, limit=limit)
        return await self._send(
            ops.LIST_TOOLS, {"session_id": session_id}, query, timeout, request_id
        )

    async def search(
        self,
        session_id: str,
        queries: calls.QueriesInput,
        *,
        model: str | None = None,
        experimental: m.InlineCustomTools | Mapping[str, Any] | None = None,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.SearchResponse:
        """Search tools for one use case or several."""
        body = calls.payload(
            ops.SEARCH,
            queries=calls.search_queries(queries),
            model=model,
            experimental=experimental,
        )
        return await self._send(
            ops.SEARCH, {"session_id": session_id}, body, timeout, request_id, extra_body=extra_body
        )

    # -- mounts ------------------------------------------------------------------------------

    async def list_mount_items(
        self,
        session_id: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        cursor: str | None = None,
        limit: int | None = None,
        prefix: str | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.MountItemPage:
        """One page of files in a mount."""
        query = calls.payload(
            ops.LIST_MOUNT_ITEMS,
            cursor=cursor,
            limit=limit,
            mount_relative_prefix=calls.mount_prefix(prefix),
        )
        params = {"session_id": session_id, "mount_id": mount_id}
        return await self._send(ops.LIST_MOUNT_ITEMS, params, query, timeout, request_id)

    async def create_download_url(
        self,
        session_id: str,
        mount_relative_path: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.DownloadUrl:
        """A presigned URL to download one mount file."""
        body = calls.payload(ops.CREATE_DOWNLOAD_URL, mount_relative_path=mount_relative_path)
        params = {"session_id": session_id, "mount_id": mount_id}
        return await self._send(
            ops.CREATE_DOWNLOAD_URL, params, body, timeout, request_id, extra_body=extra_body
        )

    async def create_upload_url(
        self,
        session_id: str,
        mount_relative_path: str,
        *,
        mimetype: str | None = None,
        mount_id: str = _DEFAULT_MOUNT,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.UploadUrl:
        """A presigned URL to PUT one mount file's bytes to."""
        body = calls.payload(
            ops.CREATE_UPLOAD_URL, mount_relative_path=mount_relative_path, mimetype=mimetype
        )
        params = {"session_id": session_id, "mount_id": mount_id}
        return await self._send(
            ops.CREATE_UPLOAD_URL, params, body, timeout, request_id, extra_body=extra_body
        )

    async def delete_mount_item(
        self,
        session_id: str,
        mount_relative_path: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        extra_body: Mapping[str, Any] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
        request_id: str | None = None,
    ) -> m.MountDeleteResult:
        """Delete one mount file."""
        body = calls.payload(ops.DELETE_MOUNT_ITEM, mount_relative_path=mount_relative_path)
        params = {"session_id": session_id, "mount_id": mount_id}
        return await self._send(
            ops.DELETE_MOUNT_ITEM, params, body, timeout, request_id, extra_body=extra_body
        )

    # -- every page --------------------------------------------------------------------------

    def iter_toolkits(
        self,
        session_id: str,
        *,
        limit: int | None = None,
        is_connected: bool | None = None,
        search: str | None = None,
        toolkits: Sequence[str] | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> AsyncIterator[m.ToolkitItem]:
        """Every toolkit of the session, page after page."""
        return calls.awalk_pages(
            ops.LIST_TOOLKITS,
            lambda cursor: self.list_toolkits(
                session_id,
                cursor=cursor,
                limit=limit,
                is_connected=is_connected,
                search=search,
                toolkits=toolkits,
                timeout=timeout,
            ),
        )

    def iter_tools(
        self,
        session_id: str,
        *,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> AsyncIterator[m.ToolSchema]:
        """Every tool of the session, page after page."""
        return calls.awalk_pages(
            ops.LIST_TOOLS,
            lambda cursor: self.list_tools(session_id, cursor=cursor, limit=limit, timeout=timeout),
        )

    def iter_mount_items(
        self,
        session_id: str,
        *,
        mount_id: str = _DEFAULT_MOUNT,
        limit: int | None = None,
        prefix: str | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> AsyncIterator[m.MountItem]:
        """Every file of a mount, page after page."""
        return calls.awalk_pages(
            ops.LIST_MOUNT_ITEMS,
            lambda cursor: self.list_mount_items(
                session_id,
                mount_id=mount_id,
                cursor=cursor,
                limit=limit,
                prefix=prefix,
                timeout=timeout,
            ),
        )

    def iter_config_history(
        self,
        session_id: str,
        *,
        limit: int | None = None,
        timeout: TimeoutTypes | Unset = UNSET,
    ) -> AsyncIterator[m.ConfigHistoryEntry]:
        """Every stored config version, newest first, page after page."""
        return calls.awalk_pages(
            ops.LIST_CONFIG_HISTORY,
            lambda cursor: self.list_config_history(
                session_id, cursor=cursor, limit=limit, timeout=timeout
            ),
        )
