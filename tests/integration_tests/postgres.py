"""A throwaway PostgreSQL server for the tests that need a real one (a store shared by worker
processes, a checkpointer that outlives a process).

`postgres_dsn` starts a cluster in a temporary folder on a free loopback port (as the
`postgres` user when the tests run as root: initdb refuses root), and removes it at the end.
Without the server programs, the tests that use it are skipped, saying so. `kept` and
`persistence` give a test the checkpointer and store a restarted process opens, in memory and in
Postgres.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """The DSN of a fresh PostgreSQL server on loopback (user `tester`, trust auth)."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
    root = Path(tempfile.mkdtemp(prefix="toolrouter-pg-"))
    data = root / "data"
    as_postgres: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        as_postgres = ["runuser", "-u", "postgres", "--"]
        root.chmod(0o755)
        shutil.chown(root, "postgres")
    port = _free_port()
    run = [*as_postgres]
    subprocess.run(
        [*run, initdb, "-D", str(data), "-A", "trust", "-U", "tester", "-E", "UTF8", "--no-sync"],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -h 127.0.0.1 -k {root} -c fsync=off -c max_connections=50"
    subprocess.run(
        [*run, pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://tester@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*run, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True
        )
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def persistence(kind: str, dsn: str | None) -> Iterator[tuple[Any, Any]]:
    """A checkpointer and a store as one process opens them: in memory (kept by the test), or
    new connections to a real Postgres."""
    if kind == "memory":
        yield MEMORY
        return
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.store.postgres import PostgresStore

    assert dsn is not None
    with PostgresSaver.from_conn_string(dsn) as saver, PostgresStore.from_conn_string(dsn) as store:
        saver.setup()
        store.setup()
        yield saver, store


MEMORY = (InMemorySaver(), InMemoryStore())


@pytest.fixture(params=["memory", "postgres"])
def kept(request: pytest.FixtureRequest) -> tuple[str, str | None]:
    """What `persistence` opens: in memory, then a real Postgres (a test runs once with each)."""
    if request.param == "memory":
        return "memory", None
    return "postgres", request.getfixturevalue("postgres_dsn")
