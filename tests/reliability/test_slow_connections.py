"""Slow and idle connections are closed by the server within its configured timeouts.

A reliability run held 500 slow-header, 500 slow-body and 1,000 idle connections open for
30 s: none was closed, and with a lower open-file limit the emulator would have stopped
accepting. Here, with timeouts of half a second: connections that never send anything, that
send their head a byte at a time, that send their body a byte at a time, and that stay idle
after an answer. Each must be closed by the server (its socket reads end) well before the
client's own 15 s timeout (a slow body shows in the request log as a 408). The server keeps
serving throughout.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import httpx
import pytest

from langchain_toolrouter.emulator import EmulatorServer

TIMEOUT = 0.5
#: How long a client waits for the server to close before calling it a failure.
CLIENT_PATIENCE = 15.0
EACH = 40  # connections of each kind
V3 = "/api/v3/tool_router"


@pytest.fixture
async def server() -> AsyncIterator[EmulatorServer]:
    emulator = EmulatorServer(
        header_timeout=TIMEOUT, body_timeout=TIMEOUT, keep_alive_timeout=TIMEOUT
    )
    await asyncio.to_thread(emulator.start)
    try:
        yield emulator
    finally:
        await asyncio.to_thread(emulator.stop)


async def _until_closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    try:
        while chunk := await reader.read(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


async def _trickle(writer: asyncio.StreamWriter, data: bytes) -> None:
    """Send `data` a byte every tenth of a second, until it is sent or the server closes."""
    for byte in data:
        if writer.is_closing():
            return
        try:
            writer.write(bytes([byte]))
            await writer.drain()
        except ConnectionError:
            return
        await asyncio.sleep(0.1)


async def _probe(server: EmulatorServer, kind: str) -> tuple[str, float, bytes]:
    """Open one connection of `kind`; how long the server took to close it, what it said."""
    parts = urlsplit(server.base_url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    started = time.monotonic()
    head = f"POST {V3}/session HTTP/1.1\r\nhost: {parts.netloc}\r\nx-api-key: {server.api_key}\r\n"
    trickle = None
    if kind == "slow head":
        trickle = asyncio.create_task(_trickle(writer, head.encode() * 10))
    elif kind == "slow body":
        writer.write(
            f"{head}content-type: application/json\r\ncontent-length: 600\r\n\r\n".encode()
        )
        trickle = asyncio.create_task(_trickle(writer, b'{"user_id": "' + b"u" * 590))
    elif kind == "idle after an answer":
        body = b'{"user_id": "u"}'
        writer.write(f"{head}content-length: {len(body)}\r\n\r\n".encode() + body)
        await writer.drain()
        started = time.monotonic()  # the keep-alive wait starts once the answer is out
    try:
        received = await asyncio.wait_for(_until_closed(reader), CLIENT_PATIENCE)
    finally:
        if trickle is not None:
            trickle.cancel()
        writer.close()
    return kind, time.monotonic() - started, received


async def test_slow_and_idle_connections_are_closed(server: EmulatorServer) -> None:
    kinds = ["idle", "slow head", "slow body", "idle after an answer"]
    probes = [_probe(server, kind) for kind in kinds for _ in range(EACH)]
    results = await asyncio.gather(*probes)
    for kind, seconds, received in results:
        # Closed by the server, not by the client's patience running out.
        assert seconds < CLIENT_PATIENCE, (kind, seconds)
        if kind in ("idle", "slow head", "slow body"):
            assert received == b"", kind  # nothing to answer: closed
        else:
            assert received.startswith(b"HTTP/1.1 201 "), received[:200]
    # The server still answers, and logged each slow body as what it was.
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        assert (await client.get("/openapi.json")).status_code == 200
    slow = [r.status for r in server.log.filter("create_session") if r.status == 408]
    assert len(slow) == EACH
