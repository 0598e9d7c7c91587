"""A hostile HTTP server on loopback: the service's session endpoints answered normally, and
every execute answered in one of the ways a broken proxy, gateway or attacker could.

A raw asyncio server in a thread of its own (bytes written by hand, so nothing tidies them up),
sending without holding its answers in memory: a 300 MB body is one 64 KiB block written
again and again as the client reads. Use it as a context manager; set ``answer`` to one of
:data:`ANSWERS` before each call.
"""

from __future__ import annotations

import asyncio
import json
import struct
import threading
import zlib
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

from tests.unit_tests.langchain.test_call_path import SESSION, TOOLS

__all__ = ["ANSWERS", "SESSION", "TOOL_SLUG", "HostileServer", "gzip_bomb"]

TOOL_SLUG = "NOTES_KV_GET"
BLOCK = b" " * 65536
MB300 = 300 * 1024 * 1024
TRICKLE_GAP = 0.25  # one byte every quarter second: 4 bytes/s


def gzip_bomb(mib: int = 300) -> bytes:
    """A valid gzip body of about 300 KB that expands to ``mib`` MiB of zeros.

    Built in a fraction of a second: after a full flush, each further MiB of zeros compresses
    to the same bytes, so that unit is repeated; the trailer's CRC is computed as for the
    whole.
    """
    block = bytes(1 << 20)
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    first = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    unit = packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(block, crc)
    last = b"\x03\x00"  # an empty final block
    return first + unit * (mib - 1) + last + struct.pack("<II", crc, (mib << 20) & 0xFFFFFFFF)


def _head(status: str = "200 OK", **headers: str | int) -> bytes:
    lines = [f"HTTP/1.1 {status}", "content-type: application/json", "connection: close"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


Writer = asyncio.StreamWriter
Answer = Callable[[Writer], Awaitable[None]]


async def _send(writer: Writer, data: bytes) -> None:
    writer.write(data)
    await writer.drain()


async def _json(writer: Writer, body: bytes, status: str = "200 OK") -> None:
    await _send(writer, _head(status, content_length=len(body)) + body)


def _result(value: bytes) -> bytes:
    return b'{"data": {"v": ' + value + b'}, "error": null, "log_id": "l", "successful": true}'


async def endless_chunked(writer: Writer) -> None:
    await _send(writer, _head(transfer_encoding="chunked"))
    while True:
        await _send(writer, b"10000\r\n" + BLOCK + b"\r\n")


async def announced_300mb(writer: Writer) -> None:
    await _send(writer, _head(content_length=MB300))
    for _ in range(MB300 // len(BLOCK)):
        await _send(writer, BLOCK)


async def unannounced_300mb(writer: Writer) -> None:
    await _send(writer, _head())  # no length: the body ends when the connection closes
    for _ in range(MB300 // len(BLOCK)):
        await _send(writer, BLOCK)


_BOMB: list[bytes] = []


async def bomb(writer: Writer) -> None:
    if not _BOMB:
        _BOMB.append(gzip_bomb())
    body = _BOMB[0]
    await _send(writer, _head(content_length=len(body), content_encoding="gzip"))
    for start in range(0, len(body), 16384):
        await _send(writer, body[start : start + 16384])


async def trickle(writer: Writer) -> None:
    body = _result(b'"' + b"t" * 74 + b'"')  # 150 bytes
    await _send(writer, _head(content_length=len(body)))
    for index in range(len(body)):
        await _send(writer, body[index : index + 1])
        await asyncio.sleep(TRICKLE_GAP)


async def digits(writer: Writer) -> None:
    await _json(writer, _result(b"7" * 5000))


async def deep(writer: Writer) -> None:
    await _json(writer, _result(b"[" * 100_000 + b"]" * 100_000))


ANSWERS: dict[str, Answer] = {
    "endless chunked body": endless_chunked,
    "300 MB body (Content-Length)": announced_300mb,
    "300 MB body (until close)": unannounced_300mb,
    "gzip bomb (300 KB to 300 MiB)": bomb,
    "body at 4 bytes/s": trickle,
    "5,000-digit integer": digits,
    "100k-deep nesting": deep,
}


class HostileServer:
    """The server, in a thread with its own event loop, on a free loopback port."""

    def __init__(self) -> None:
        self.answer = "5,000-digit integer"
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hostile-server", daemon=True)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._server: asyncio.Server | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> HostileServer:
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError("the hostile server did not start")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0)
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        for task in self._tasks:
            task.cancel()
        self._loop.run_until_complete(asyncio.gather(*self._tasks, return_exceptions=True))
        self._server.close()
        self._loop.run_until_complete(self._server.wait_closed())
        self._loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: Writer) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            path = head.split(b" ", 2)[1].split(b"?")[0]
            if path.endswith(b"/execute"):
                await ANSWERS[self.answer](writer)
            elif path.endswith(b"/tools"):
                await _json(writer, json.dumps(TOOLS).encode())
            else:
                await _json(writer, json.dumps(SESSION).encode(), "201 Created")
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # the client hung up: what it should do with most of these answers
        finally:
            writer.close()
            self._tasks.discard(task)
