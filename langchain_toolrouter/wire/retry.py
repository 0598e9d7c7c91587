"""Retry policy as pure functions: what may be retried, and how long to wait.

No sleeping and no I/O here: the clients drive tenacity with these functions.

The rules (see :class:`~langchain_toolrouter.wire.operations.RetryClass`):

* SAFE operations retry on connection errors, timeouts, connections lost, 429 and 5xx.
* UNSAFE operations (execute, execute_meta, proxy_execute, create_session, create_link,
  update_session) retry only when the request provably did not run: the connection was never
  made (connect error or connect/pool timeout) or the service answered 429.
* An answer over ``max_response_bytes`` (:class:`ResponseTooLargeError`) or one that cannot be
  decoded or does not fit its model (:class:`ResponseValidationError`) is never retried: the
  request ran, and the same request would get the same answer. An answer that outlasted
  ``attempt_deadline`` is a timeout like a read timeout (retried for SAFE operations only).
* A retried ``delete_session`` that meets a 404 after an attempt that may have run reports
  the delete done (the clients settle it; the first attempt deleted the session).
* The wait is the service's ``Retry-After`` (``retry-after-ms``, seconds, or an HTTP date) when a
  429 or a 5xx gives one, else exponential backoff with jitter. A ``Retry-After`` beyond
  :attr:`RetryPolicy.max_retry_after` is not waited out: the :class:`RateLimitError` (or
  :class:`ServerError`) is raised so the caller can decide.
* Attempts and total time are both bounded; a wait that would cross the time budget is not taken.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

from langchain_toolrouter._exceptions import (
    RateLimitError,
    ResponseTooLargeError,
    ResponseValidationError,
    ServerError,
    ToolRouterError,
    TransportError,
)
from langchain_toolrouter.wire.operations import RetryClass

__all__ = [
    "RetryPolicy",
    "backoff_delay",
    "is_retryable",
    "may_have_run",
    "next_delay",
    "retry_after_seconds",
    "set_waits_enabled",
    "should_stop",
    "waits_enabled",
]


@dataclass(frozen=True)
class RetryPolicy:
    """How many times, and how patiently, a failed call is repeated.

    Attributes:
        max_attempts: attempts in total, the first included (1 disables retries).
        max_elapsed: seconds from the first attempt after which no new attempt starts.
        initial_backoff: first backoff wait, in seconds; doubled on each retry.
        max_backoff: cap of one backoff wait.
        jitter: fraction of a backoff wait that is randomised (0.25: wait in [75 %, 100 %]).
        max_retry_after: longest ``Retry-After`` honoured; a longer one ends the retries.
        wait: ``False`` retries without sleeping (tests); see also :func:`set_waits_enabled`.
    """

    max_attempts: int = 3
    max_elapsed: float = 60.0
    initial_backoff: float = 0.5
    max_backoff: float = 8.0
    jitter: float = 0.25
    max_retry_after: float = 60.0
    wait: bool = True

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1; got {self.max_attempts}")
        for name in ("max_elapsed", "initial_backoff", "max_backoff", "max_retry_after"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative; got {getattr(self, name)}")
        if not 0 <= self.jitter <= 1:
            raise ValueError(f"jitter must be between 0 and 1; got {self.jitter}")

    @classmethod
    def disabled(cls) -> RetryPolicy:
        """One attempt, no retries."""
        return cls(max_attempts=1)


_waits_enabled = True


def set_waits_enabled(enabled: bool) -> None:
    """Turn every retry wait on or off process-wide (tests switch them off; retries still run)."""
    global _waits_enabled  # noqa: PLW0603 (a deliberate process-wide test switch)
    _waits_enabled = enabled


def waits_enabled(policy: RetryPolicy) -> bool:
    """Whether a client with ``policy`` should really sleep between attempts."""
    return policy.wait and _waits_enabled


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds the service asked us to wait: ``retry-after-ms``, then ``retry-after``.

    ``retry-after`` may be seconds or an HTTP date. Unparseable or negative values give None.
    """
    lowered = {key.lower(): value for key, value in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000.0
        except ValueError:
            value = -1.0
        if value >= 0:
            return value
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
        return max(seconds, 0.0)
    return seconds if seconds >= 0 else None


def is_retryable(retry_class: RetryClass, exc: BaseException, policy: RetryPolicy) -> bool:
    """Whether ``exc`` from an attempt of an operation of ``retry_class`` may be retried."""
    if not isinstance(exc, ToolRouterError) or isinstance(
        exc, ResponseTooLargeError | ResponseValidationError
    ):
        return False
    if isinstance(exc, RateLimitError | ServerError) and not _within_cap(exc, policy):
        return False
    if isinstance(exc, RateLimitError):
        return True
    if retry_class is RetryClass.UNSAFE:
        return isinstance(exc, TransportError) and not exc.request_sent
    return isinstance(exc, TransportError | ServerError)


def may_have_run(exc: BaseException) -> bool:
    """Whether a failed attempt may have reached the service and done its work (a 5xx, a
    timeout or a lost connection); a 429 or a connection never made did not."""
    if isinstance(exc, TransportError):
        return exc.request_sent
    return isinstance(exc, ServerError)


def _within_cap(exc: RateLimitError | ServerError, policy: RetryPolicy) -> bool:
    return exc.retry_after is None or exc.retry_after <= policy.max_retry_after


def backoff_delay(
    policy: RetryPolicy, retries_done: int, rng: random.Random | None = None
) -> float:
    """Exponential backoff before retry number ``retries_done + 1``, with jitter."""
    base = min(policy.max_backoff, policy.initial_backoff * (2.0**retries_done))
    draw: float = (rng or random).random()  # jitter, not cryptography
    factor = 1.0 - policy.jitter * draw
    return base * factor


def next_delay(
    policy: RetryPolicy,
    retries_done: int,
    exc: BaseException | None,
    rng: random.Random | None = None,
) -> float:
    """The wait before the next attempt: ``Retry-After`` if the service gave one, else backoff."""
    if isinstance(exc, RateLimitError | ServerError) and exc.retry_after is not None:
        return min(exc.retry_after, policy.max_retry_after)
    return backoff_delay(policy, retries_done, rng)


def should_stop(policy: RetryPolicy, attempts_done: int, elapsed: float, upcoming: float) -> bool:
    """Stop when attempts are spent or the next attempt would start after ``max_elapsed``."""
    return attempts_done >= policy.max_attempts or elapsed + upcoming > policy.max_elapsed
