"""The body reader alone: decoded bytes counted as they arrive, bounded inflation, the deadline."""

from __future__ import annotations

import gzip
import zlib

import httpx
import pytest

from langchain_toolrouter import errors
from langchain_toolrouter.wire.body import STEP, BodyReader

REQUEST = httpx.Request("POST", "https://svc.test/x", headers={"x-request-id": "rid-1"})


def _reader(
    headers: dict[str, str] | None = None,
    *,
    limit: int | None = 1000,
    deadline: float | None = None,
    started: float = 0.0,
    status: int = 200,
) -> BodyReader:
    response = httpx.Response(status, headers=headers, request=REQUEST)
    return BodyReader(
        response, operation="execute", limit=limit, deadline=deadline, started=started
    )


def _feed(reader: BodyReader, data: bytes, piece: int = 100) -> bytes:
    for start in range(0, len(data), piece):
        reader.feed(data[start : start + piece])
    return bytes(reader.body())


def test_identity_pieces_are_joined() -> None:
    assert _feed(_reader(), b"x" * 999, piece=7) == b"x" * 999
    assert bytes(_reader().body()) == b""


def test_a_body_over_the_limit_stops_as_soon_as_it_passes() -> None:
    reader = _reader(limit=100)
    reader.feed(b"x" * 60)
    with pytest.raises(errors.ResponseTooLargeError) as caught:
        reader.feed(b"x" * 60)
    exc = caught.value
    assert (exc.limit, exc.received, exc.request_sent) == (100, 120, True)
    assert (exc.operation, exc.request_id) == ("execute", "rid-1")
    assert "max_response_bytes" in str(exc)
    assert "may have run" in str(exc)
    assert isinstance(exc, errors.TransportError)


def test_an_announced_size_over_the_limit_is_refused_before_reading() -> None:
    with pytest.raises(errors.ResponseTooLargeError) as caught:
        _reader({"content-length": "314572800"}, limit=1000)
    assert caught.value.received == 314_572_800
    assert "announced 314,572,800 bytes" in str(caught.value)
    _reader({"content-length": "1000"}, limit=1000)  # at the limit: read


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: _raw_deflate(data)),
        ("GZip, identity", gzip.compress),
    ],
)
def test_compressed_bodies_are_decoded(encoding: str, compress: object) -> None:
    data = b'{"data": "' + b"abc" * 300 + b'"}'
    assert callable(compress)
    encoded = compress(data)
    assert _feed(_reader({"content-encoding": encoding}, limit=None), encoded, 10) == data


def test_a_compression_bomb_stops_at_the_limit_having_inflated_little_more() -> None:
    bomb = gzip.compress(b"\0" * (50 * 1024 * 1024))  # 50 MiB in about 50 KB
    assert len(bomb) < 100_000
    reader = _reader({"content-encoding": "gzip"}, limit=1_000_000)
    with pytest.raises(errors.ResponseTooLargeError) as caught:
        reader.feed(bomb)  # one piece holding the whole bomb
    assert caught.value.received <= 1_000_000 + STEP
    assert "decoded bytes" in str(caught.value)


def test_a_limit_of_none_reads_everything() -> None:
    data = b"y" * 5000
    assert _feed(_reader(limit=None), data, 1000) == data


@pytest.mark.parametrize(
    ("headers", "body", "problem"),
    [
        ({"content-encoding": "gzip"}, b"not gzip at all", "compressed body is broken"),
        ({"content-encoding": "gzip, deflate"}, b"x", "stacked content-encodings"),
    ],
)
def test_an_undecodable_body_is_a_validation_error(
    headers: dict[str, str], body: bytes, problem: str
) -> None:
    with pytest.raises(errors.ResponseValidationError) as caught:
        _feed(_reader(headers, status=502), body)
    assert problem in str(caught.value)
    assert caught.value.status == 502
    assert caught.value.request_sent is True


def test_an_unknown_encoding_is_read_as_identity_as_httpx_does() -> None:
    assert _feed(_reader({"content-encoding": "utf-8"}), b"plain") == b"plain"


def test_a_piece_after_the_deadline_ends_the_read() -> None:
    reader = _reader(deadline=5.0, started=-100.0)  # the attempt started long ago
    with pytest.raises(errors.DeadlineExceededError) as caught:
        reader.feed(b"x")
    exc = caught.value
    assert (exc.deadline, exc.phase, exc.request_sent) == (5.0, "deadline", True)
    assert isinstance(exc, errors.RequestTimeoutError)
    assert "attempt_deadline (5 s)" in str(exc)


def test_no_deadline_never_ends_a_read() -> None:
    reader = _reader(deadline=None, started=-1e9)
    reader.feed(b"x")
    assert bytes(reader.body()) == b"x"


def test_a_body_read_by_someone_else_is_held_to_the_limit() -> None:
    assert _reader(limit=3).whole(b"abc") == b"abc"
    with pytest.raises(errors.ResponseTooLargeError):
        _reader(limit=3).whole(b"abcd")
    stacked = _reader({"content-encoding": "gzip, deflate"})  # decoded by whoever read it
    assert stacked.whole(b"plain") == b"plain"


def _raw_deflate(data: bytes) -> bytes:
    """Deflate without the zlib header (some servers send it so); `zlib.compress` takes
    `wbits` only from Python 3.11."""
    packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()
