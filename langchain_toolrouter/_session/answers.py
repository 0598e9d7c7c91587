"""What the model reads when a call fails: client errors turned into `ToolRouterToolError`s.

`translate_error` maps a client error the model can act on (a refusal, a rate limit, no
answer) to its tool error (`langchain_toolrouter.errors`); the program's own problems (a bad
key, a deleted session) map to `None` and propagate.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import ToolException

from langchain_toolrouter.errors import (
    APIError,
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ToolRateLimitError,
    ToolRouterError,
    ToolRouterToolError,
    ToolServiceError,
    ToolTransportError,
    TransportError,
)

__all__ = [
    "NO_ACTIVE_CONNECTION",
    "SESSION_NOT_FOUND",
    "error_artifact",
    "is_no_connection",
    "translate_error",
    "transport_failure_text",
]


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


NO_ACTIVE_CONNECTION = "ToolRouterV2_NoActiveConnection"
"""The service's slug for "the toolkit has no active connected account"."""

SESSION_NOT_FOUND = "ToolRouterV2_SessionNotFound"
"""The service's slug for "no such session" (deleted, expired or never made)."""


def is_no_connection(exc: APIError) -> bool:
    """True for the service's "no active connection" error."""
    return exc.slug == NO_ACTIVE_CONNECTION or exc.code == 4302


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
