"""One session per user across worker processes that share a real store, and stored entries
that are not a usable session never lock a user out.

Two worker processes (not threads) share a PostgreSQL `PostgresStore` and serve 20 users whose
first calls come at the same moment in both; the emulator runs in this process, on loopback.
"""

# ruff: noqa: F811 - the fixtures are imported by name and then requested by name

from __future__ import annotations

import multiprocessing
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_toolrouter import ToolRouter
from langchain_toolrouter.emulator import EmulatorServer
from tests.integration_tests.postgres import postgres_dsn  # noqa: F401 - fixture
from tests.unit_tests.langchain.loopback import make_router, server  # noqa: F401 - fixture

KV_SET, KV_GET = "NOTES_KV_SET", "NOTES_KV_GET"
OPTIONS: dict[str, Any] = {"toolkits": ["notes"], "preload": [KV_SET, KV_GET]}
USERS = 20


def as_user(user: str) -> dict[str, Any]:
    return {"configurable": {"user_id": user}}


def worker(
    dsn: str, base_url: str, api_key: str, users: list[str], start: Any, answers: Any
) -> None:
    """A worker process: its own router and tools over the shared store; each user's first
    call at the moment both workers pass `start`, then a second call each."""
    from langgraph.store.postgres import PostgresStore
    from psycopg_pool import ConnectionPool

    with ConnectionPool(dsn, max_size=USERS, kwargs={"autocommit": True}) as pool:
        store = PostgresStore(pool)
        with ToolRouter(api_key=api_key, base_url=base_url) as router:
            tools = router.per_user_tools(session_store=store, **OPTIONS)

            def first(user: str) -> str:
                return str(tools[KV_SET].invoke({"key": "k", "value": 1}, config=as_user(user)))

            def second(user: str) -> str:
                return str(tools[KV_GET].invoke({"key": "k"}, config=as_user(user)))

            with ThreadPoolExecutor(max_workers=USERS) as threads:
                start.wait(60)
                firsts = list(threads.map(first, users))
                seconds = list(threads.map(second, users))
            answers.put((firsts, seconds))


def test_two_processes_sharing_a_postgres_store_keep_one_session_per_user(
    server: EmulatorServer, postgres_dsn: str
) -> None:
    from langgraph.store.postgres import PostgresStore

    with PostgresStore.from_conn_string(postgres_dsn) as store:
        store.setup()
    users = [f"pg-{uuid.uuid4().hex[:8]}" for _ in range(USERS)]
    spawn = multiprocessing.get_context("spawn")
    start, answers = spawn.Barrier(2), spawn.Queue()
    processes = [
        spawn.Process(
            target=worker,
            args=(postgres_dsn, server.base_url, server.api_key, users, start, answers),
        )
        for _ in range(2)
    ]
    for process in processes:
        process.start()
    results = [answers.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(30)
        assert process.exitcode == 0
    for firsts, seconds in results:
        assert all('"key":"k"' in answer for answer in firsts), firsts
        assert all('"value":1' in answer for answer in seconds), seconds
    alive = [r for r in server.store.sessions.values() if r.user_id in users]
    assert sorted(r.user_id for r in alive) == sorted(users)  # one session left per user
    alive_ids = {r.id for r in alive}
    executed = {
        match.group(1)
        for record in server.log
        if record.operation == "execute" and record.status == 200
        for match in [re.search(r"/session/([^/]+)/", record.path)]
        if match
    }
    deleted = {
        match.group(1)
        for record in server.log
        if record.operation == "delete_session"
        for match in [re.search(r"/session/([^/?]+)", record.path)]
        if match
    }
    assert not (executed & deleted)  # no call ran in a session made in the race
    assert all(sum(1 for r in alive if r.user_id == user) == 1 for user in users), (
        "a user with two sessions"
    )
    assert alive_ids


@pytest.mark.parametrize(
    "stored",
    ["", "a/../b", " x ", "..", "trs_\ud800", "trs_" + "x" * 100_000, "trs_deleted", "other"],
    ids=["empty", "path", "spaces", "dots", "surrogate", "huge", "deleted", "another-users"],
)
def test_an_unusable_stored_session_is_replaced_once(server: EmulatorServer, stored: str) -> None:
    """An entry of the store that is not a usable session of this user (malformed, over-long,
    deleted, another user's) is replaced: the user's next call succeeds, and so do the ones
    after it, with one entry left."""
    store = InMemoryStore()
    user = f"tampered-{uuid.uuid4().hex[:6]}"
    first = make_router(server)
    try:
        tools = first.per_user_tools(session_store=store, **OPTIONS)
        tools[KV_SET].invoke({"key": "k", "value": 1}, config=as_user(user))
        (entry,) = store.search(("langchain_toolrouter", "sessions"), filter={"user_id": user})
        if stored == "other":
            someone = first.create_session(f"someone-{uuid.uuid4().hex[:6]}", **OPTIONS)
            stored = someone.session_id
        elif stored == "trs_deleted":
            first.client.delete_session(entry.value["session_id"])
            stored = entry.value["session_id"]
        store.put(entry.namespace, entry.key, {**entry.value, "session_id": stored})
    finally:
        first.close()
    fresh = make_router(server)  # a new worker: nothing kept in its memory
    try:
        tools = fresh.per_user_tools(session_store=store, **OPTIONS)
        for _ in range(2):
            answer = tools[KV_GET].invoke(
                {"type": "tool_call", "id": "t", "name": KV_GET, "args": {"key": "k"}},
                config=as_user(user),
            )
            assert answer.status == "success", answer.content
        kept = store.search(("langchain_toolrouter", "sessions"), filter={"user_id": user})
        assert len(kept) == 1
        assert kept[0].value["session_id"] != stored
    finally:
        fresh.close()
