"""The one exception the emulator's handlers raise, rendered as the service's error body.

Handlers never build error responses themselves: they raise `EmulatorError` and the app's
exception handler turns it into `{"error": {message, code, slug, status, request_id,
suggested_fix, errors}}`, as the service's errors are.

Which slugs and codes are the service's, and which are made up here:

* documented (slug and code): `ToolRouterV2_BadRequest` 4300, `ToolRouterV2_NoActiveConnection`
  4302, `ToolRouterV2_ToolkitsIsNoAuth` 4326, `ToolRouterV2_InternalServerError` 4340;
* documented slug, **emulator-chosen code** (the service's number is unknown):
  `ToolRouterV2_SessionNotFound` (4304), `ToolRouterV2_ToolNotFound`,
  `ToolRouterV2_InvalidConnectedAccountIds`, `ExternalProxy_SSRFBlocked`;
* **emulator-only** slugs and codes: every other `ToolRouterV2_*` (`FileNotFound`,
  `ConfigVersionConflict`, `Unauthorized`, `RouteNotFound`, `PayloadTooLarge` 4130, ...), the
  project endpoints' `ConnectedAccount_NotFound` 1800 and `Toolkit_NotFound` 1900, and every
  `Emulator_*` slug (`Emulator_PresignedUrlRejected` 4303, `Emulator_McpNotRunning` 5030,
  `Emulator_InjectedFault` and `RateLimited` for an injected 429, whose codes are the status
  times ten).

Code meant to run against the real service should branch on the HTTP status (the error class)
and, at most, on the documented slugs; never on the emulator's numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["EmulatorError", "bad_request", "error_body", "session_not_found"]


class EmulatorError(Exception):
    """A refused request: HTTP status plus the service's slug, numeric code and fix."""

    def __init__(
        self,
        status: int,
        slug: str,
        code: int,
        message: str,
        *,
        suggested_fix: str = "",
        errors: Sequence[str] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.slug = slug
        self.code = code
        self.message = message
        self.suggested_fix = suggested_fix
        self.errors = list(errors)
        self.headers = dict(headers or {})


def error_body(error: EmulatorError, request_id: str) -> dict[str, Any]:
    """The service's error body for `error`: `{"error": {message, code, slug, ...}}`."""
    return {
        "error": {
            "message": error.message,
            "code": error.code,
            "slug": error.slug,
            "status": error.status,
            "request_id": request_id,
            "suggested_fix": error.suggested_fix,
            "errors": error.errors,
        }
    }


def bad_request(message: str, *, suggested_fix: str, errors: Sequence[str] = ()) -> EmulatorError:
    """The service's generic validation failure (`ToolRouterV2_BadRequest`, 4300)."""
    return EmulatorError(
        400,
        "ToolRouterV2_BadRequest",
        4300,
        message,
        suggested_fix=suggested_fix,
        errors=errors,
    )


def session_not_found(session_id: str) -> EmulatorError:
    """A session that does not exist, was deleted, or belongs to another project."""
    return EmulatorError(
        404,
        "ToolRouterV2_SessionNotFound",
        4304,
        f"Tool router session {session_id!r} was not found.",
        suggested_fix=(
            "Create a session with POST /tool_router/session and use the session_id it "
            "returns; sessions of another project's API key are not visible."
        ),
    )
