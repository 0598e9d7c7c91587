"""The retry policy as pure functions: what is retried, and how long to wait."""

from __future__ import annotations

import random
from email.utils import formatdate

import pytest

from langchain_toolrouter import errors
from langchain_toolrouter.wire.operations import RetryClass
from langchain_toolrouter.wire.retry import (
    RetryPolicy,
    backoff_delay,
    is_retryable,
    next_delay,
    retry_after_seconds,
    set_waits_enabled,
    should_stop,
    waits_enabled,
)

POLICY = RetryPolicy()
SAFE, UNSAFE = RetryClass.SAFE, RetryClass.UNSAFE


def _api(cls: type[errors.APIError], status: int) -> errors.APIError:
    return cls("m", status=status)


CASES = [
    (errors.ConnectError("no"), True, True),
    (errors.RequestTimeoutError("t", phase="connect"), True, True),
    (errors.RequestTimeoutError("t", phase="pool"), True, True),
    (errors.RequestTimeoutError("t", phase="read"), True, False),
    (errors.RequestTimeoutError("t", phase="write"), True, False),
    (errors.ConnectionLostError("lost"), True, False),
    (errors.TransportError("other"), True, False),
    (errors.RateLimitError("slow", status=429), True, True),
    (errors.RateLimitError("slow", status=429, retry_after=5), True, True),
    (_api(errors.ServerError, 500), True, False),
    (_api(errors.ServerError, 503), True, False),
    (_api(errors.BadRequestError, 400), False, False),
    (_api(errors.AuthenticationError, 401), False, False),
    (_api(errors.NotFoundError, 404), False, False),
    (_api(errors.ConflictError, 409), False, False),
    (errors.ResponseValidationError("op", field="f", errors=[], body="", status=200), False, False),
    (ValueError("a bug"), False, False),
    (KeyboardInterrupt(), False, False),
]


@pytest.mark.parametrize(("exc", "safe", "unsafe"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_what_is_retried(exc: BaseException, safe: bool, unsafe: bool) -> None:
    assert is_retryable(SAFE, exc, POLICY) is safe
    assert is_retryable(UNSAFE, exc, POLICY) is unsafe


def test_a_retry_after_beyond_the_cap_is_not_retried() -> None:
    exc = errors.RateLimitError("slow", status=429, retry_after=61)
    assert not is_retryable(SAFE, exc, POLICY)
    assert is_retryable(SAFE, exc, RetryPolicy(max_retry_after=120))


def test_backoff_doubles_up_to_the_cap_with_bounded_jitter() -> None:
    rng = random.Random(7)
    policy = RetryPolicy(initial_backoff=0.5, max_backoff=4.0, jitter=0.25)
    for retries, base in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (10, 4.0)]:
        delay = backoff_delay(policy, retries, rng)
        assert base * 0.75 <= delay <= base
    assert backoff_delay(RetryPolicy(jitter=0), 1) == 1.0


def test_next_delay_prefers_retry_after() -> None:
    limited = errors.RateLimitError("slow", status=429, retry_after=7)
    assert next_delay(POLICY, 0, limited) == 7
    assert next_delay(RetryPolicy(jitter=0), 2, errors.ConnectError("x")) == 2.0


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"Retry-After": "0.5"}, 0.5),
        ({"retry-after-ms": "1200", "Retry-After": "9"}, 1.2),
        ({"retry-after-ms": "junk", "Retry-After": "9"}, 9.0),
        ({"Retry-After": "-1"}, None),
        ({"Retry-After": "tomorrow"}, None),
        ({}, None),
    ],
)
def test_retry_after_parsing(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_seconds(headers) == expected


def test_retry_after_as_an_http_date() -> None:
    now = 1_800_000_000.0
    assert retry_after_seconds({"Retry-After": formatdate(now + 30, usegmt=True)}, now=now) == 30.0
    assert retry_after_seconds({"Retry-After": formatdate(now - 30, usegmt=True)}, now=now) == 0.0


def test_should_stop_bounds_attempts_and_time() -> None:
    policy = RetryPolicy(max_attempts=3, max_elapsed=10)
    assert not should_stop(policy, 1, 0.0, 1.0)
    assert should_stop(policy, 3, 0.0, 1.0)
    assert should_stop(policy, 1, 9.5, 1.0)
    assert not should_stop(policy, 2, 8.0, 2.0)


@pytest.mark.parametrize(
    "kwargs",
    [{"max_attempts": 0}, {"max_elapsed": -1}, {"jitter": 1.5}, {"initial_backoff": -0.1}],
)
def test_bad_policies_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        RetryPolicy(**kwargs)  # type: ignore[arg-type]


def test_disabled_policy_and_the_global_wait_switch() -> None:
    assert RetryPolicy.disabled().max_attempts == 1
    assert waits_enabled(POLICY)
    assert not waits_enabled(RetryPolicy(wait=False))
    set_waits_enabled(False)
    try:
        assert not waits_enabled(POLICY)
    finally:
        set_waits_enabled(True)
    assert waits_enabled(POLICY)


def test_a_5xx_retry_after_is_used_and_capped_like_a_429s() -> None:
    soon = errors.ServerError("busy", status=503, retry_after=2)
    late = errors.ServerError("busy", status=503, retry_after=61)
    assert next_delay(POLICY, 0, soon) == 2
    assert is_retryable(SAFE, soon, POLICY)
    assert not is_retryable(SAFE, late, POLICY)
    assert not is_retryable(UNSAFE, soon, POLICY), "a 5xx may have run: never resent"
