"""Presigned uploads far over their limit are refused as they stream, in bounded memory, and a
client that leaves mid-body is logged as what it is.

A small-scale copy of the reliability run's probe (four 600 MB chunked uploads against the
100 MB limit took the emulator to 3.6 GB and stalled other clients for 1.6 s): three 40 MB
uploads against a 4 MB limit, sent by a process of its own. Each is answered 413, the server
never holds more than a fraction of the limit (traced with tracemalloc), and other clients are
answered meanwhile. The full-size figures: `benchmarks/bench_emulator_limits.py`.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from langchain_toolrouter.emulator import EmulatorServer
from tests.reliability.conftest import wait_for_record

LIMIT = 4 * 1024 * 1024
UPLOAD = 40 * 1024 * 1024
UPLOADS = 3
V3 = "/api/v3/tool_router"

#: Sends the uploads, in a process of its own (the benchmark's full-size run uses it too).
UPLOAD_FLOOD = Path(__file__).resolve().parents[2] / "benchmarks" / "_upload_flood.py"


@pytest.fixture
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer() as emulator:
        emulator.state.mounts.max_upload_bytes = LIMIT
        yield emulator


def _upload_urls(client: httpx.Client, count: int) -> list[str]:
    session_id = client.post(f"{V3}/session", json={"user_id": "uploader"}).json()["session_id"]
    return [
        client.post(
            f"{V3}/session/{session_id}/mounts/files/upload_url",
            json={"mount_relative_path": f"big-{i}.bin"},
        ).json()["upload_url"]
        for i in range(count)
    ]


def test_uploads_over_the_limit_are_refused_in_bounded_memory(server: EmulatorServer) -> None:
    with httpx.Client(base_url=server.base_url, headers={"x-api-key": server.api_key}) as client:
        urls = _upload_urls(client, UPLOADS)
        tracemalloc.start()
        try:
            uploader = subprocess.Popen(
                [sys.executable, str(UPLOAD_FLOOD), str(UPLOAD), *urls],
                stdout=subprocess.PIPE,
                text=True,
            )
            served = 0
            while uploader.poll() is None:  # other clients meanwhile
                assert client.get(f"{V3}/session/trs_none").status_code == 404
                served += 1
            outcomes = uploader.communicate()[0].split()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    records = wait_for_record(server, "presigned_upload", UPLOADS)
    assert [r.status for r in records] == [413] * UPLOADS
    assert all(o in ("413", "BrokenPipeError", "ConnectionResetError") for o in outcomes), outcomes
    # The whole body was read before the limit was checked: 40 MB per upload, at least.
    assert peak < LIMIT, f"the server held {peak / 2**20:.1f} MiB at its peak"
    assert served > 0
    assert not [p for p in server.data_dir.rglob("*") if p.is_file()]


def test_a_client_that_leaves_mid_body_is_logged_as_499_without_a_traceback(
    server: EmulatorServer, capfd: pytest.CaptureFixture[str]
) -> None:
    # It was logged as a 500, processed, with a 53-line traceback each time.
    parts = urlsplit(server.base_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as raw:
        raw.sendall(
            f"POST {V3}/session HTTP/1.1\r\nhost: {parts.netloc}\r\n"
            f"x-api-key: {server.api_key}\r\ncontent-type: application/json\r\n"
            "content-length: 1000\r\n\r\n".encode()
            + b'{"user_id": "'
        )
    [record] = wait_for_record(server, "create_session")
    assert (record.status, record.processed) == (499, False)
    assert server.store.sessions == {}
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert "Exception" not in out + err
