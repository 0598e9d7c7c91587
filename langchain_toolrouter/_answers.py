"""What the model reads: the errors a tool answers with, the texts of failures, the result's text.

Every path that runs a tool ends in a `ToolOutcome`; the tool renders it as compact text capped
in size (`render_content`; the artifact keeps the whole result), and answers a failure the
model can act on as an error `ToolMessage` built from one of the `ToolRouterToolError`s below
(LangChain's `ToolException` family). `translate_error` maps a client error to that answer (a
refusal, a rate limit, no answer); the program's own problems (a bad key, a deleted session)
map to `None` and propagate. The texts of connections (a link to open, a declined pause) live
with connections (`_session/connections`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.tools import ToolException

from langchain_toolrouter._exceptions import (
    APIError,
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ToolRouterError,
    TransportError,
)

__all__ = [
    "DEFAULT_MAX_CONTENT_CHARS",
    "SESSION_NOT_FOUND",
    "ToolArgumentsError",
    "ToolExecutionError",
    "ToolNotConnectedError",
    "ToolRateLimitError",
    "ToolRouterToolError",
    "ToolServiceError",
    "ToolTransportError",
    "arguments_error_text",
    "compact_json",
    "cut_text",
    "error_artifact",
    "no_session_error",
    "render_content",
    "translate_error",
    "transport_failure_text",
]

# --------------------------------------------------------------------------- the errors


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


NotConnectedReason = Literal["needs_connection", "declined", "timed_out", "failed", "other_user"]


class ToolNotConnectedError(ToolRouterToolError):
    """The user has no active connection for the toolkit; `redirect_url` is where to connect.

    `reason` says why nothing ran, so an app can tell the cases apart without reading text:
    `"needs_connection"` (the user has yet to connect: show the link), `"declined"` (the user
    said no to a pause), `"timed_out"` (not connected within the wait), `"failed"` (the account
    ended FAILED or EXPIRED; the next call brings a new link), `"other_user"` (a paused run was
    resumed as another user).
    """

    def __init__(
        self,
        message: str,
        *,
        tool: str,
        toolkit: str | None,
        redirect_url: str | None,
        connected_account_id: str | None,
        reason: NotConnectedReason = "needs_connection",
    ) -> None:
        super().__init__(message, tool=tool)
        self.toolkit = toolkit
        self.redirect_url = redirect_url
        self.connected_account_id = connected_account_id
        self.reason: NotConnectedReason = reason

    def _facts(self) -> dict[str, Any]:
        return {
            "toolkit": self.toolkit,
            "redirect_url": self.redirect_url,
            "connected_account_id": self.connected_account_id,
            "reason": self.reason,
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


# --------------------------------------------------------------------------- failures


def error_artifact(exc: ToolException) -> dict[str, Any]:
    """The artifact of an error tool message, for our errors and any other `ToolException`."""
    if isinstance(exc, ToolRouterToolError):
        return exc.artifact()
    text = str(exc.args[0]) if exc.args else type(exc).__name__
    return {
        "successful": False,
        "data": None,
        "error": text,
        "log_id": "",
        "error_type": type(exc).__name__,
    }


def transport_failure_text(exc: TransportError, tool: str) -> str:
    """What the model reads when a call got no usable answer (none, one too large or too
    slow, one that cannot be read): whether it may have run, and so whether calling again is
    safe (docs/concepts/retries.md)."""
    if exc.request_sent:
        return (
            f"{tool} MAY HAVE RUN: its request was sent to the Tool Router service but no "
            f"usable answer came back ({exc}). Do not call it again blindly: first check whether "
            "it took effect (for example list or search for what it would have created, sent or "
            "changed), and call it again only if it did not."
        )
    return (
        f"{tool} did not run: the Tool Router service could not be reached and the request "
        f"was never sent ({exc}). It is safe to call it again later."
    )


def _sentence(text: str) -> str:
    """``text`` ending as a sentence, so the next one can follow it."""
    return text if text.endswith((".", "!", "?")) else text + "."


SESSION_NOT_FOUND = "ToolRouterV2_SessionNotFound"
"""The service's slug for "no such session" (deleted, expired or never made)."""


def translate_error(exc: ToolRouterError, *, tool: str) -> ToolRouterToolError | None:
    """The model-facing error for a client error, or `None` when the caller must see it.

    Bad keys (401), missing permissions (403) and a missing session are the program's
    problem, not the model's: they return `None` and propagate. "No active connection" is
    handled by the caller, which first fetches a link.
    """
    if isinstance(exc, RateLimitError):
        wait = f" Wait {exc.retry_after:g}s and call again." if exc.retry_after else ""
        return ToolRateLimitError(
            f"{tool} was rate limited by the Tool Router service (HTTP 429) after retries.{wait}",
            tool=tool,
            retry_after=exc.retry_after,
        )
    if isinstance(exc, AuthenticationError | PermissionDeniedError):
        return None
    if isinstance(exc, NotFoundError) and exc.slug in (SESSION_NOT_FOUND, None):
        return None
    if isinstance(exc, APIError):
        failed = exc.status >= 500
        if failed:  # the service failed mid-way: like a lost answer, the call may have run
            text = f"{tool} failed at the Tool Router service (HTTP {exc.status}): {exc.message}"
        else:
            text = f"{tool} was refused by the Tool Router service: {exc.message}"
        if exc.errors:
            text = _sentence(text) + f" Details: {'; '.join(exc.errors)}."
        if exc.suggested_fix:
            text = _sentence(text) + f" Suggested fix: {exc.suggested_fix}"
        if failed:
            text = _sentence(text) + (
                " It MAY HAVE RUN before the failure: check whether it took effect before "
                "calling it again."
            )
        return ToolServiceError(
            text, tool=tool, status=exc.status, slug=exc.slug, suggested_fix=exc.suggested_fix
        )
    if isinstance(exc, TransportError):
        return ToolTransportError(
            transport_failure_text(exc, tool), tool=tool, request_sent=exc.request_sent
        )
    return None


def no_session_error(tool: str, exc: APIError | TransportError) -> Exception:
    """The answer when a per-user call's session could not be made or found: the call did
    not run. A bad key or a missing permission is the program's problem: `exc` itself."""
    if isinstance(exc, AuthenticationError | PermissionDeniedError):
        return exc
    why = f"{tool} was not run: the user's Tool Router session could not be made"
    if isinstance(exc, TransportError):
        return ToolTransportError(
            f"{why}: {_sentence(str(exc))} Call it again.", tool=tool, request_sent=False
        )
    if isinstance(exc, RateLimitError):
        wait = f" Wait {exc.retry_after:g}s and call again." if exc.retry_after else ""
        return ToolRateLimitError(
            f"{why}: rate limited (HTTP 429).{wait}", tool=tool, retry_after=exc.retry_after
        )
    text = f"{why}: HTTP {exc.status}, {_sentence(exc.message)}"
    if exc.suggested_fix:
        text += f" Suggested fix: {_sentence(exc.suggested_fix)}"
    if exc.status >= 500:
        text += " Call it again later."
    else:  # the service refused to make it: the same call would be refused again
        text += " Calling it again will not help; tell the user it cannot be done now."
    return ToolServiceError(
        text, tool=tool, status=exc.status, slug=exc.slug, suggested_fix=exc.suggested_fix
    )


# --------------------------------------------------------------------------- results


DEFAULT_MAX_CONTENT_CHARS = 20_000
"""Default cap on the text a model reads per tool call (the service's own offload threshold)."""


def compact_json(value: Any) -> str:
    """JSON without spaces or ASCII escapes; values JSON cannot hold are shown with `str`."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def render_content(value: Any, max_chars: int = DEFAULT_MAX_CONTENT_CHARS) -> str:
    """Compact text for the model, cut to `max_chars` with a note saying what was cut."""
    return cut_text(compact_json(value), max_chars)


def cut_text(text: str, max_chars: int) -> str:
    """`text`, or its start and a note saying what was cut, in at most `max_chars` characters
    (the note alone when the cap is shorter than it)."""
    if len(text) <= max_chars:
        return text

    def note(shown: int) -> str:
        return (
            f"\n[truncated: {shown} of {len(text)} characters shown; full result in the artifact]"
        )

    shown = max(max_chars - len(note(max_chars)), 0)
    return text[:shown] + note(shown)


# Shown under their public door in tracebacks and reprs (see `_exceptions`).
for _name in __all__:
    _value = globals()[_name]
    if isinstance(_value, type):
        _value.__module__ = "langchain_toolrouter.errors"
