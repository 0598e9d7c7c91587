"""One tool list for many users: each call in its user's session, made once, shared by workers."""

# ruff: noqa: F811 - the loopback fixtures are imported by name and then requested by name

from __future__ import annotations

import asyncio
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_toolrouter import ToolRouter
from langchain_toolrouter.emulator import EmulatorServer, FaultRule
from tests.integration_tests.agents import creates
from tests.unit_tests.langchain.loopback import make_router, server  # noqa: F401 - fixture

KV_SET, KV_GET = "NOTES_KV_SET", "NOTES_KV_GET"
OPTIONS: dict[str, Any] = {"toolkits": ["notes"], "preload": [KV_SET, KV_GET]}
USERS, CALLS = 200, 5


def as_user(user: str) -> dict[str, Any]:
    return {"configurable": {"user_id": user}}


def check_isolation(router: ToolRouter, users: list[str]) -> None:
    """Each user's notes hold that user's writes and nobody else's."""
    for user in users[:: len(users) // 10]:
        session = router.create_session(user, **OPTIONS)
        for n in range(CALLS):
            assert session.execute(KV_GET, {"key": f"k{n}"}).data["value"] == f"{user}:{n}"


async def test_many_users_at_once_asyncio(server: EmulatorServer) -> None:
    router = make_router(server)
    try:
        tools = await router.aper_user_tools(**OPTIONS)
        users = [f"async-{uuid.uuid4().hex[:6]}-{i}" for i in range(USERS)]
        before = creates(server)

        async def write(user: str, n: int) -> Any:
            args = {"key": f"k{n}", "value": f"{user}:{n}"}
            return await tools[KV_SET].ainvoke(args, config=as_user(user))

        answers = await asyncio.gather(*(write(u, n) for u in users for n in range(CALLS)))
        assert all('"previous":null' in a for a in answers)
        assert creates(server) - before == USERS  # one session per user, not one per call
        check_isolation(router, users)
    finally:
        await router.aclose()


def test_many_users_at_once_eight_threads(server: EmulatorServer) -> None:
    router = make_router(server)
    try:
        tools = router.per_user_tools(**OPTIONS)
        users = [f"thread-{uuid.uuid4().hex[:6]}-{i}" for i in range(USERS)]
        before = creates(server)

        def write(job: tuple[str, int]) -> Any:
            user, n = job
            args = {"key": f"k{n}", "value": f"{user}:{n}"}
            return tools[KV_SET].invoke(args, config=as_user(user))

        jobs = [(u, n) for n in range(CALLS) for u in users]  # each user's calls at once
        with ThreadPoolExecutor(max_workers=8) as pool:
            answers = list(pool.map(write, jobs))
        assert all('"previous":null' in a for a in answers)
        assert creates(server) - before == USERS
        check_isolation(router, users)
    finally:
        router.close()


def test_threads_each_running_asyncio_and_sync_calls_make_one_session_per_user(
    server: EmulatorServer,
) -> None:
    """A threaded server calling its async agent through `asyncio.run` per request, beside
    sync calls: every event loop and both faces share each user's first creation."""
    router = make_router(server)
    try:
        tools = router.per_user_tools(**OPTIONS)
        users = [f"mixed-{uuid.uuid4().hex[:6]}-{i}" for i in range(20)]
        before = creates(server)

        def write(job: tuple[str, int]) -> Any:
            user, n = job
            args = {"key": f"k{n}", "value": f"{user}:{n}"}
            if n % 2:
                return tools[KV_SET].invoke(args, config=as_user(user))
            return asyncio.run(tools[KV_SET].ainvoke(args, config=as_user(user)))

        jobs = [(u, n) for n in range(CALLS) for u in users]
        with ThreadPoolExecutor(max_workers=8) as pool:
            answers = list(pool.map(write, jobs))
        assert all('"previous":null' in a for a in answers)
        assert creates(server) - before == len(users)
        check_isolation(router, users)
    finally:
        router.close()


def test_workers_sharing_a_store_reuse_a_users_session(server: EmulatorServer) -> None:
    store = InMemoryStore()
    workers = [make_router(server) for _ in range(2)]
    try:
        first, second = (w.per_user_tools(session_store=store, **OPTIONS) for w in workers)
        user = f"shared-{uuid.uuid4().hex[:6]}"
        before = creates(server)
        first[KV_SET].invoke({"key": "k", "value": 1}, config=as_user(user))
        answer = second[KV_GET].invoke({"key": "k"}, config=as_user(user))
        assert creates(server) - before == 1  # the second worker resumed the first's session
        assert '"value":1' in answer
        kept = store.search(("langchain_toolrouter", "sessions"))
        assert [item.value["user_id"] for item in kept] == [user]  # one entry: one session
        other = f"other-{uuid.uuid4().hex[:6]}"
        assert (
            "not set"
            in second[KV_GET]
            .invoke(
                {"type": "tool_call", "id": "x", "name": KV_GET, "args": {"key": "k"}},
                config=as_user(other),
            )
            .content
        )  # another user never gets the first user's session
    finally:
        for worker in workers:
            worker.close()


def test_two_projects_sharing_a_store_keep_their_own_sessions() -> None:
    """A store shared by two projects (two keys) never hands one project's session id to the
    other: each would fail to find it and make a new one on every call."""
    store = InMemoryStore()
    with EmulatorServer(api_keys=["ak_one", "ak_two"]) as two_projects:
        routers = [
            ToolRouter(api_key=key, base_url=two_projects.base_url) for key in ("ak_one", "ak_two")
        ]
        try:
            lists = [
                r.per_user_tools(session_store=store, session_max_age=0, **OPTIONS) for r in routers
            ]
            for _ in range(2):
                for tools in lists:
                    tools[KV_SET].invoke({"key": "k", "value": 1}, config=as_user("shared-name"))
            items = store.search(("langchain_toolrouter", "sessions"))
            assert len(items) == 2
            assert len({item.namespace for item in items}) == 2
            assert creates(two_projects) == 2 + 2  # a schema session and a user session each
        finally:
            for router in routers:
                router.close()


def test_a_deleted_session_in_the_store_is_replaced(server: EmulatorServer) -> None:
    store = InMemoryStore()
    router = make_router(server)
    try:
        tools = router.per_user_tools(session_store=store, session_max_age=0, **OPTIONS)
        user = f"gone-{uuid.uuid4().hex[:6]}"
        tools[KV_SET].invoke({"key": "k", "value": 1}, config=as_user(user))
        (item,) = store.search(("langchain_toolrouter", "sessions"))
        router.get_session(item.value["session_id"]).delete()
        tools[KV_SET].invoke({"key": "k", "value": 2}, config=as_user(user))
        (again,) = store.search(("langchain_toolrouter", "sessions"))
        assert again.value["session_id"] != item.value["session_id"]
    finally:
        router.close()


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_a_kept_session_the_service_lost_is_replaced_once(
    server: EmulatorServer, face: str
) -> None:
    """Deleted or expired at the service while this process keeps it: the service refuses
    the call (nothing ran), so the user gets a new session and the call runs in it."""
    router = make_router(server)
    try:
        tools = router.per_user_tools(**OPTIONS)
        user = f"lost-{face}-{uuid.uuid4().hex[:6]}"

        async def write(value: int) -> Any:
            args = {"key": "k", "value": value}
            if face == "sync":
                return tools[KV_SET].invoke(args, config=as_user(user))
            return await tools[KV_SET].ainvoke(args, config=as_user(user))

        await write(1)
        before = creates(server)
        for session_id in list(server.store.sessions):
            if server.store.sessions[session_id].user_id == user:
                router.get_session(session_id).delete()
        answer = await write(2)
        assert '"previous":1' in answer
        assert creates(server) - before == 1
    finally:
        await router.aclose()


@pytest.mark.parametrize("face", ["sync", "async"])
async def test_a_session_that_cannot_be_made_is_an_answer_saying_nothing_ran(
    server: EmulatorServer, face: str
) -> None:
    router = make_router(server)
    try:
        tools = router.per_user_tools(**OPTIONS)
        server.faults.add(FaultRule(operation="create_session", status=503, times=10))
        call = {
            "type": "tool_call",
            "id": "c1",
            "name": KV_SET,
            "args": {"key": "k", "value": 1},
        }
        user = as_user(f"down-{uuid.uuid4().hex[:6]}")
        if face == "sync":
            answer = tools[KV_SET].invoke(call, config=user)
        else:
            answer = await tools[KV_SET].ainvoke(call, config=user)
        assert answer.status == "error"
        assert "was not run: the user's Tool Router session could not be made: HTTP 503" in (
            answer.content
        )
    finally:
        server.faults.clear()
        await router.aclose()


@pytest.mark.parametrize("bad", [0, -1, "10", 2.5])
def test_bad_limits_are_named(server: EmulatorServer, bad: Any) -> None:
    router = make_router(server)
    try:
        with pytest.raises((TypeError, ValueError), match="max_sessions"):
            router.per_user_tools(max_sessions=bad, **OPTIONS)
    finally:
        router.close()
