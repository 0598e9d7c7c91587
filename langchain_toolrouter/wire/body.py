"""One answer's body, decoded and counted as it arrives, within a size limit and a deadline.

No I/O: a client reads the raw bytes from httpx (``iter_raw``/``aiter_raw``) and hands each
piece to :meth:`BodyReader.feed`; :meth:`BodyReader.body` gives the decoded bytes at the end.

* The size is counted on the decoded bytes. A compressed body (gzip, deflate) is inflated in
  steps of at most :data:`STEP` bytes, so a small body that expands to gigabytes stops at the
  limit, having held little more than the limit. An answer that announces a larger size
  (``Content-Length``) is refused before any of it is read.
* The deadline is checked as each piece arrives: a body trickled a few bytes at a time ends
  at the first piece after it.
* A body nobody can decode (a broken gzip stream, stacked encodings) is a
  :class:`ResponseValidationError`. Encodings this client does not know are taken as
  identity, as httpx takes them (the client asks for none).
"""

from __future__ import annotations

import time
import zlib

import httpx

from langchain_toolrouter._exceptions import (
    DeadlineExceededError,
    ResponseTooLargeError,
    ResponseValidationError,
)

__all__ = ["STEP", "BodyReader"]

STEP = 64 * 1024
"""Most bytes one inflate step produces."""

_WBITS = {
    "gzip": zlib.MAX_WBITS | 16,
    "x-gzip": zlib.MAX_WBITS | 16,
    "deflate": zlib.MAX_WBITS,  # zlib-wrapped; raw deflate is detected on the first piece
}
_REQUEST_ID_HEADER = "x-request-id"
_OPTIONS = "ToolRouter(...) or the client's"


class BodyReader:
    """The decoded body of one response, read piece by piece.

    Args:
        response: the response whose body is read (its headers say the encoding and length).
        operation: the operation, named in errors.
        limit: most decoded bytes accepted (``max_response_bytes``); None for no limit.
        deadline: seconds the attempt may take in all (``attempt_deadline``); None for none.
        started: ``time.monotonic()`` when the attempt started.

    Raises:
        ResponseTooLargeError: (when made) the answer announces more than ``limit`` bytes.
    """

    __slots__ = (
        "_buffer",
        "_deadline",
        "_first",
        "_inflate",
        "_limit",
        "_operation",
        "_refused",
        "_response",
        "_size",
        "_stop_at",
        "_wbits",
    )

    def __init__(
        self,
        response: httpx.Response,
        *,
        operation: str,
        limit: int | None,
        deadline: float | None,
        started: float,
    ) -> None:
        self._response = response
        self._operation = operation
        self._limit = limit
        self._deadline = deadline
        self._stop_at = None if deadline is None else started + deadline
        self._size = 0
        self._first: bytes | None = None
        self._buffer: bytearray | None = None
        self._inflate: zlib._Decompress | None = None
        self._wbits = 0
        self._refused: str | None = None
        headers = response.headers
        encoding = headers.get("content-encoding")
        if encoding:
            self._choose_decoder(encoding)
        if self._inflate is None and limit is not None:
            announced = headers.get("content-length", "")
            if announced.isdigit() and int(announced) > limit:
                raise self._too_large(int(announced), f"it announced {int(announced):,} bytes")

    def feed(self, chunk: bytes) -> None:
        """Take the next raw piece of the body.

        Raises:
            DeadlineExceededError: the piece arrived after the deadline.
            ResponseTooLargeError: the decoded body passed the limit.
            ResponseValidationError: the piece cannot be decoded.
        """
        if self._stop_at is not None and time.monotonic() > self._stop_at:
            raise self._late()
        if self._refused is not None:
            raise self._undecodable(self._refused)
        if self._inflate is None:
            self._take(chunk)
        else:
            self._inflated(chunk)

    def whole(self, content: bytes) -> bytes:
        """The body someone else already read and decoded (a transport that answers with its
        body in memory, an event hook that read it), held to the same limit."""
        if self._limit is not None and len(content) > self._limit:
            raise self._too_large(len(content), f"{len(content):,} bytes had been read")
        return content

    def body(self) -> bytes | bytearray:
        """The decoded body, once the last piece was fed.

        Raises:
            ResponseTooLargeError: the last decoded bytes passed the limit.
            ResponseValidationError: the compressed stream cannot be finished.
        """
        if self._inflate is not None:
            try:
                rest = self._inflate.flush()
            except zlib.error as exc:
                raise self._undecodable(f"the compressed body is broken ({exc})") from None
            self._take(rest)
        if self._buffer is not None:
            return self._buffer
        return self._first if self._first is not None else b""

    # -- decoding ----------------------------------------------------------------------------

    def _choose_decoder(self, header: str) -> None:
        codings = [
            name
            for part in header.split(",")
            if (name := part.strip().lower()) and name != "identity" and name in _WBITS
        ]
        if len(codings) > 1:  # refused when the body is read (a transport may have decoded it)
            self._refused = f"stacked content-encodings ({header!r}) are not read"
        elif codings:
            self._wbits = _WBITS[codings[0]]
            self._inflate = zlib.decompressobj(self._wbits)

    def _inflated(self, data: bytes) -> None:
        """Inflate one piece, STEP bytes at a time, each step counted before the next."""
        while data:
            inflate = self._inflate
            assert inflate is not None
            try:
                out = inflate.decompress(data, STEP)
            except zlib.error as exc:
                if self._raw_deflate():
                    continue
                raise self._undecodable(f"the compressed body is broken ({exc})") from None
            self._take(out)
            if inflate.eof:  # bytes after the end of the stream are ignored, as httpx does
                return
            rest = inflate.unconsumed_tail
            if not out and len(rest) == len(data):
                return  # no progress (cannot happen with a step > 0; never loop on it)
            data = rest

    def _raw_deflate(self) -> bool:
        """Switch to raw deflate (no zlib header, as some servers send "deflate") when the
        zlib-wrapped reading failed before producing anything."""
        if self._wbits != zlib.MAX_WBITS or self._size:
            return False
        self._wbits = -zlib.MAX_WBITS
        self._inflate = zlib.decompressobj(self._wbits)
        return True

    def _take(self, data: bytes) -> None:
        if not data:
            return
        size = self._size + len(data)
        if self._limit is not None and size > self._limit:
            raise self._too_large(size, f"{size:,} decoded bytes had arrived")
        self._size = size
        if self._first is None:
            self._first = data
        elif self._buffer is None:
            self._buffer = bytearray(self._first)
            self._buffer += data
        else:
            self._buffer += data

    # -- errors ------------------------------------------------------------------------------

    def _request_id(self) -> str | None:
        try:
            value: str | None = self._response.request.headers.get(_REQUEST_ID_HEADER)
        except RuntimeError:  # a response built without a request
            return None
        return value

    def _too_large(self, received: int, how: str) -> ResponseTooLargeError:
        limit = self._limit
        assert limit is not None
        return ResponseTooLargeError(
            f"the answer is larger than max_response_bytes ({limit:,} bytes): {how}, and "
            "reading stopped there. The request was sent, so it may have run. If answers "
            f"this large are expected, raise max_response_bytes ({_OPTIONS}), or pass None "
            "for no limit",
            limit=limit,
            received=received,
            operation=self._operation,
            request_id=self._request_id(),
        )

    def _late(self) -> DeadlineExceededError:
        deadline = self._deadline
        assert deadline is not None
        return DeadlineExceededError(
            f"the answer was still arriving when attempt_deadline ({deadline:g} s) passed "
            f"({self._size:,} bytes had arrived). The request was sent, so it may have run. "
            f"If calls this slow are expected, raise attempt_deadline ({_OPTIONS}), or pass "
            "None for no deadline",
            deadline=deadline,
            operation=self._operation,
            request_id=self._request_id(),
        )

    def _undecodable(self, problem: str) -> ResponseValidationError:
        return ResponseValidationError(
            self._operation,
            field="",
            errors=[problem],
            body="",
            status=self._response.status_code,
            request_id=self._request_id(),
        )
