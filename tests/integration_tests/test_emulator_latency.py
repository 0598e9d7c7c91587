"""The emulator's own servers answer as fast as the same app bound by uvicorn itself.

Sequential keep-alive requests, the four contenders interleaved in rounds, compared as ratios
of medians in one run (no absolute time): `EmulatorServer` against uvicorn serving
`create_app()` on a socket it binds itself, both in this process; the CLI against
`uvicorn.run(create_app())`, both in a process of their own. A socket on which asyncio does not set `TCP_NODELAY` makes every
answer wait for the client's delayed ACK: about 20 times slower, far outside the bound.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn

from langchain_toolrouter.emulator import DEFAULT_API_KEY, EmulatorServer, create_app
from langchain_toolrouter.emulator.server import free_port

BOUND = 1.5
ROUNDS = 6
PER_ROUND = 25
ATTEMPTS = 3
PAIRS = (("EmulatorServer", "uvicorn (thread)"), ("CLI", "uvicorn.run"))

_UVICORN_RUN = (
    "import sys, uvicorn\n"
    "from langchain_toolrouter.emulator import create_app\n"
    "uvicorn.run(create_app(), host='127.0.0.1', port=int(sys.argv[1]), log_level='warning')\n"
)


@contextmanager
def _uvicorn_thread() -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def _processes(*servers: tuple[list[str], str | None]) -> Iterator[list[str]]:
    """Start servers in processes of their own (all at once), yield their base URLs once each
    answers; `(arguments, base_url)`, base_url None: read from the first line it prints."""
    children = [
        subprocess.Popen(
            [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for args, _ in servers
    ]
    try:
        bases = []
        for child, (_, base_url) in zip(children, servers, strict=True):
            if base_url is None:
                assert child.stdout is not None
                base_url = child.stdout.readline().split()[-1]  # "Tool Router emulator on URL"
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(base_url + "/", timeout=1)
                    break
                except httpx.TransportError:
                    assert child.poll() is None, child.communicate()
                    assert time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.05)
            bases.append(base_url)
        yield bases
    finally:
        for child in children:
            child.terminate()
        for child in children:
            child.communicate(timeout=10)  # and close the pipes


def _client(base_url: str) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=base_url, headers={"x-api-key": DEFAULT_API_KEY})
    created = client.post("/api/v3/tool_router/session", json={"user_id": "latency"})
    assert created.status_code == 201, created.text
    return client, f"/api/v3/tool_router/session/{created.json()['session_id']}"


def _medians(clients: dict[str, tuple[httpx.Client, str]]) -> dict[str, float]:
    """Per contender, the median of every request's time over interleaved rounds (the order
    of the contenders reversed every other round)."""
    samples: dict[str, list[float]] = {name: [] for name in clients}
    order = list(clients)
    for _ in range(ROUNDS):
        order.reverse()
        for name in order:
            client, path = clients[name]
            for _ in range(PER_ROUND):
                started = time.perf_counter()
                assert client.get(path).status_code == 200
                samples[name].append(time.perf_counter() - started)
    return {name: statistics.median(times) for name, times in samples.items()}


def test_emulator_server_and_cli_are_as_fast_as_uvicorn_binding_the_app_itself() -> None:
    port = free_port()
    cli = ["-m", "langchain_toolrouter.emulator", "--port", "0"]
    uvicorn_run = ["-c", _UVICORN_RUN, str(port)]
    # The processes start first: they import while the in-process servers start.
    with (
        _processes((cli, None), (uvicorn_run, f"http://127.0.0.1:{port}")) as (emulator, bound),
        EmulatorServer(api_key=DEFAULT_API_KEY) as server,
        _uvicorn_thread() as in_process,
    ):
        clients = {
            name: _client(base)
            for name, base in {
                "EmulatorServer": server.base_url,
                "uvicorn (thread)": in_process,
                "CLI": emulator,
                "uvicorn.run": bound,
            }.items()
        }
        try:
            # A shared machine has slow spells: a measurement may be repeated, never the bound
            # loosened (a missing TCP_NODELAY costs 20 times, in every measurement).
            for _ in range(ATTEMPTS):
                medians = _medians(clients)
                ratios = {ours: medians[ours] / medians[theirs] for ours, theirs in PAIRS}
                if all(ratio < BOUND for ratio in ratios.values()):
                    break
        finally:
            for client, _ in clients.values():
                client.close()
    assert all(ratio < BOUND for ratio in ratios.values()), (ratios, medians)
