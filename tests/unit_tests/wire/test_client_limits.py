"""Both clients against answers that break the rules: too large, too slow, undecodable, and
requests whose URL would be too long. One test body per case, sync and async."""

from __future__ import annotations

import gzip
import json
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

from langchain_toolrouter import AsyncToolRouterClient, ToolRouter, ToolRouterClient, errors
from langchain_toolrouter.wire import body as body_module
from langchain_toolrouter.wire.retry import RetryPolicy
from tests.unit_tests.wire import _samples as s
from tests.unit_tests.wire._fakes import AnyClient, FakeService, call, make_client, reply
from tests.unit_tests.wire.test_client import SUCCESS_CASES

SID = s.SESSION_ID
ROOT = "/api/v3/tool_router/session"
EXECUTE = ("POST", f"{ROOT}/{SID}/execute")
TOOLS = ("GET", f"{ROOT}/{SID}/tools")


class Pieces(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body sent piece by piece, for both clients; counts the pieces taken."""

    def __init__(self, pieces: Callable[[], Iterator[bytes]]) -> None:
        self._pieces = pieces
        self.taken = 0

    def __iter__(self) -> Iterator[bytes]:
        for piece in self._pieces():
            self.taken += 1
            yield piece

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self._pieces():
            self.taken += 1
            yield piece


def endless() -> Iterator[bytes]:
    while True:
        yield b"x" * 1024


def streamed(stream: Pieces, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(200, stream=stream, headers=headers)


async def test_an_endless_answer_stops_at_the_limit_and_execute_may_have_run(
    flavor: str, service: FakeService
) -> None:
    stream = Pieces(endless)
    service.on(*EXECUTE, lambda request: streamed(stream))
    client = make_client(flavor, service, max_response_bytes=10_000)
    with pytest.raises(errors.ResponseTooLargeError) as caught:
        await call(client, "execute", SID, "GMAIL_SEND_EMAIL", {})
    exc = caught.value
    assert (exc.limit, exc.operation, exc.request_sent) == (10_000, "execute", True)
    assert stream.taken == 10  # the tenth KiB passed the limit: nothing more was read
    assert len(service.requests) == 1  # may have run: never resent


async def test_a_read_over_the_limit_is_not_retried_either(
    flavor: str, service: FakeService
) -> None:
    service.on(*TOOLS, lambda request: streamed(Pieces(endless)))
    client = make_client(flavor, service, max_response_bytes=4096, retry=RetryPolicy(wait=False))
    with pytest.raises(errors.ResponseTooLargeError):
        await call(client, "list_tools", SID)
    assert len(service.requests) == 1  # the same request would get the same answer


async def test_an_announced_size_over_the_limit_is_refused_unread(
    flavor: str, service: FakeService
) -> None:
    stream = Pieces(endless)
    service.on(*EXECUTE, lambda request: streamed(stream, {"content-length": "314572800"}))
    client = make_client(flavor, service, max_response_bytes=1_000_000)
    with pytest.raises(errors.ResponseTooLargeError, match="announced 314,572,800 bytes"):
        await call(client, "execute", SID, "T")
    assert stream.taken == 0


async def test_a_gzip_bomb_stops_at_the_limit(flavor: str, service: FakeService) -> None:
    bomb = gzip.compress(b"[" * (20 * 1024 * 1024))
    stream = Pieces(lambda: iter([bomb[i : i + 4096] for i in range(0, len(bomb), 4096)]))
    service.on(*EXECUTE, lambda request: streamed(stream, {"content-encoding": "gzip"}))
    client = make_client(flavor, service, max_response_bytes=100_000)
    with pytest.raises(errors.ResponseTooLargeError) as caught:
        await call(client, "execute", SID, "T")
    assert caught.value.received <= 100_000 + body_module.STEP
    assert stream.taken == 1


async def test_a_compressed_answer_within_the_limit_is_read(
    flavor: str, service: FakeService
) -> None:
    packed = gzip.compress(json.dumps(s.EXECUTE_OK).encode())
    service.on(
        *EXECUTE,
        lambda request: streamed(Pieces(lambda: iter([packed])), {"content-encoding": "gzip"}),
    )
    client = make_client(flavor, service)
    result = await call(client, "execute", SID, "T")
    assert result.log_id == "log_abc"


async def test_no_limit_reads_a_large_answer(flavor: str, service: FakeService) -> None:
    big = json.dumps({**s.EXECUTE_OK, "data": {"text": "z" * 200_000}}).encode()
    service.on(*EXECUTE, lambda request: streamed(Pieces(lambda: iter([big[:1000], big[1000:]]))))
    client = make_client(flavor, service, max_response_bytes=None)
    result = await call(client, "execute", SID, "T")
    assert len(result.data["text"]) == 200_000


class SteppedClock:
    """``time`` for the body reader: the real clock plus whatever the answer made pass."""

    def __init__(self) -> None:
        self.passed = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.passed


async def test_an_answer_still_arriving_after_the_deadline_ends_the_attempt(
    flavor: str, service: FakeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = SteppedClock()
    monkeypatch.setattr(body_module, "time", clock)

    def trickle() -> Iterator[bytes]:
        while True:  # four bytes, then a second passes
            yield b'{"da'
            clock.passed += 1.0

    stream = Pieces(trickle)
    service.on(*EXECUTE, lambda request: streamed(stream))
    client = make_client(flavor, service, attempt_deadline=5.0)
    with pytest.raises(errors.DeadlineExceededError) as caught:
        await call(client, "execute", SID, "T")
    exc = caught.value
    assert (exc.deadline, exc.phase, exc.request_sent) == (5.0, "deadline", True)
    assert stream.taken in (6, 7)  # the piece after the fifth second ends it
    assert len(service.requests) == 1


async def test_reads_retry_a_missed_deadline_like_a_read_timeout(
    flavor: str, service: FakeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = SteppedClock()
    monkeypatch.setattr(body_module, "time", clock)

    def late() -> Iterator[bytes]:
        clock.passed = 100.0
        yield b"{}"

    def prompt() -> Iterator[bytes]:
        clock.passed = 0.0
        yield json.dumps(s.TOOL_PAGE).encode()

    service.on(*TOOLS, lambda request: streamed(Pieces(late)), lambda r: streamed(Pieces(prompt)))
    client = make_client(flavor, service, attempt_deadline=10.0)
    assert (await call(client, "list_tools", SID)).items
    assert len(service.requests) == 2


async def _three_calls(flavor: str, service: FakeService, **options: Any) -> AnyClient:
    """A read, an execute and a read with no timeout, through a client made with ``options``."""
    service.on("GET", f"{ROOT}/{SID}", reply(200, s.SESSION))
    service.on(*EXECUTE, reply(200, s.EXECUTE_OK))
    made = make_client(flavor, service, **options)
    await call(made, "get_session", SID)
    await call(made, "execute", SID, "T")
    await call(made, "get_session", SID, timeout=None)
    return made


async def test_the_default_deadline_is_twice_the_read_timeout(
    flavor: str, service: FakeService
) -> None:
    made = await _three_calls(flavor, service, timeout=7.0)
    deadlines = [made._requests.deadline(request) for request in service.requests]
    assert deadlines == [14.0, 360.0, None]
    assert service.requests[0].extensions["timeout"]["read"] == 7.0  # not clamped


async def test_an_explicit_deadline_bounds_every_phase_of_the_timeout(
    flavor: str, service: FakeService
) -> None:
    made = await _three_calls(flavor, service, attempt_deadline=20.0)
    got = [request.extensions["timeout"] for request in service.requests]
    assert got[0] == {"connect": 5.0, "read": 20.0, "write": 20.0, "pool": 20.0}
    assert got[1]["read"] == 20.0
    assert got[2] == {"connect": 20.0, "read": 20.0, "write": 20.0, "pool": 20.0}
    assert made._requests.deadline(service.requests[1]) == 20.0


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b'{"data": {"n": ' + b"7" * 5000 + b"}}", "4,300 digits"),
        (b'{"data": {"v": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}", "200 levels"),
        (b'{"data": {"v": ' + b"[" * 300 + b"]" * 300 + b"}}", "200 levels"),
        (b'{"data": {"v": "caf\xe9"}}', "not UTF-8"),
        (b'{"data": {"v": "\\ud83d!"}}', "surrogate"),
        (b'\xef\xbb\xbf{"data": {}}', "not JSON"),
        (b'{"data": {"v": NaN', "not JSON"),
    ],
    ids=["5000-digits", "100k-deep", "300-deep", "latin-1", "lone-surrogate", "bom", "truncated"],
)
async def test_every_decode_failure_is_a_validation_error(
    client: AnyClient, service: FakeService, body: bytes, problem: str
) -> None:
    service.on(*EXECUTE, reply(200, body))
    with pytest.raises(errors.ResponseValidationError) as caught:
        await call(client, "execute", SID, "T")
    exc = caught.value
    assert problem in str(exc)
    assert (exc.operation, exc.status, exc.request_sent) == ("execute", 200, True)
    assert exc.request_id == service.requests[0].headers["x-request-id"]
    assert len(service.requests) == 1


async def test_an_error_answer_nested_too_deep_is_still_its_status_error(
    client: AnyClient, service: FakeService
) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    service.on("GET", f"{ROOT}/{SID}", reply(404, deep))
    with pytest.raises(errors.NotFoundError) as caught:
        await call(client, "get_session", SID)
    assert caught.value.status == 404


LONG = "s" * 70_000


@pytest.mark.parametrize(
    ("method", "args", "kwargs"),
    [
        pytest.param(case[0], (LONG, *case[1][1:]), case[2], id=f"{case[0]}-session_id")
        for case in SUCCESS_CASES
        if case[1][:1] == (SID,)
    ]
    + [
        pytest.param("list_toolkits", (SID,), {"search": LONG}, id="list_toolkits-search"),
        pytest.param(
            "list_toolkits", (SID,), {"toolkits": ["gmail"] * 12_000}, id="list_toolkits-toolkits"
        ),
        pytest.param("list_tools", (SID,), {"cursor": LONG}, id="list_tools-cursor"),
        pytest.param("list_mount_items", (SID,), {"prefix": LONG}, id="list_mount_items-prefix"),
        pytest.param(
            "list_mount_items", (SID,), {"mount_id": LONG}, id="list_mount_items-mount_id"
        ),
        pytest.param(
            "list_config_history", (SID,), {"cursor": LONG}, id="list_config_history-cursor"
        ),
    ],
)
async def test_a_value_too_long_for_a_url_is_an_argument_error_before_sending(
    client: AnyClient, service: FakeService, method: str, args: tuple[Any, ...], kwargs: Any
) -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        await call(client, method, *args, **kwargs)
    message = str(caught.value)
    assert "nothing was sent" in message
    assert re.search(
        r"\w+ is [\d,]{6} characters: the request's URL would be over the 65,536", message
    )
    assert service.requests == []


def test_every_method_with_a_path_is_covered_by_the_url_test() -> None:
    methods = {case[0] for case in SUCCESS_CASES if case[1][:1] == (SID,)}
    assert len(methods) == len(SUCCESS_CASES) - 1  # all but create_session (no path, no query)


@pytest.mark.parametrize("cls", [ToolRouterClient, AsyncToolRouterClient, ToolRouter])
@pytest.mark.parametrize(
    ("option", "value", "match"),
    [
        ("max_response_bytes", 0, "max_response_bytes must be a positive int"),
        ("max_response_bytes", -5, "max_response_bytes must be a positive int"),
        ("max_response_bytes", 1.5, "max_response_bytes must be a positive int"),
        ("max_response_bytes", True, "max_response_bytes must be a positive int"),
        ("max_response_bytes", "10MB", "max_response_bytes must be a positive int"),
        ("attempt_deadline", 0, "attempt_deadline must be a positive"),
        ("attempt_deadline", float("nan"), "attempt_deadline must be a positive"),
        ("attempt_deadline", float("inf"), "for no deadline pass None"),
        ("attempt_deadline", "30s", "attempt_deadline must be a positive"),
    ],
)
def test_unusable_limits_are_refused_by_name(
    cls: type[Any], option: str, value: object, match: str
) -> None:
    with pytest.raises(errors.ConfigurationError, match=match):
        cls(api_key="ak_x", **{option: value})


async def test_the_router_hands_its_limits_to_both_clients() -> None:
    async with ToolRouter(api_key="ak_x", max_response_bytes=123, attempt_deadline=4.5) as router:
        for made in (router.client, router.aclient):
            assert made.settings.max_response_bytes == 123
            assert made.settings.attempt_deadline == 4.5


def test_the_defaults() -> None:
    settings = ToolRouterClient(api_key="ak_x").settings
    assert settings.max_response_bytes == 64 * 1024 * 1024
    assert repr(settings.attempt_deadline) == "UNSET"
    none = ToolRouterClient(api_key="ak_x", max_response_bytes=None, attempt_deadline=None)
    assert (none.settings.max_response_bytes, none.settings.attempt_deadline) == (None, None)
