"""A real LangGraph API server (`langgraph dev`, in-memory runtime) with custom bearer-token
auth, serving a per-user agent, driven by the LangGraph SDK as two users.

What it holds: the server's authenticated identity is the user; a client logged in as dave who
sends alice's id (in the config or the context) is refused and nothing is done as alice; each
user's run pauses for their own link and resumes, running the call once.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from langchain_toolrouter.emulator import EmulatorServer
from tests.integration_tests.agents import executes

pytest.importorskip(
    "langgraph_api", reason="the LangGraph server: pip install 'langgraph-cli[inmem]'"
)
langgraph_sdk = pytest.importorskip("langgraph_sdk")

ROOT = Path(__file__).resolve().parents[2]
TOKENS = {"token-dave": "dave", "token-alice": "alice"}  # examples/langgraph-server/auth.py's

GRAPH = """
from langchain.agents import create_agent
from langchain_toolrouter import ToolRouter
from tests.chat_models import Reactive, calls, requests_by_text

REPO = "GITHUB_CREATE_A_REPOSITORY_FOR_THE_AUTHENTICATED_USER"
TURNS = {
    "save my name": calls(("NOTES_KV_SET", {"key": "name", "value": "me"}, "c-save")),
    "make a repository": calls((REPO, {"name": "served"}, "c-repo")),
}
router = ToolRouter(on_connection_required="interrupt", connection_timeout=10)
tools = router.per_user_tools(toolkits=["github", "notes"], preload=[REPO, "NOTES_KV_SET"])
graph = create_agent(Reactive(reply=requests_by_text(TURNS)), tools)
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(seed=7) as running:
        yield running


EXAMPLE = ROOT / "examples" / "langgraph-server"


def _serve(app: Path, emulator: EmulatorServer, tmp_path: Path) -> Iterator[str]:
    """`langgraph dev` serving the app folder `app`, against the emulator; its URL."""
    cli = shutil.which("langgraph", path=str(Path(sys.executable).parent)) or shutil.which(
        "langgraph"
    )
    if cli is None:
        pytest.skip("the langgraph CLI is not installed: pip install 'langgraph-cli[inmem]'")
    port = _free_port()
    env = {
        **os.environ,
        "COMPOSIO_BASE_URL": emulator.base_url,
        "COMPOSIO_API_KEY": emulator.api_key,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(app)]),
        # Nothing may reach the internet: no analytics, no tracing, no studio.
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "LANGSMITH_API_KEY": "",
        "DO_NOT_TRACK": "1",
    }
    env.pop("AGENT_MODEL", None)
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [cli, "dev", "--no-browser", "--no-reload", "--port", str(port), "--host", "127.0.0.1"],
        cwd=app,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                said = (tmp_path / "server.log").read_text(errors="replace")[-3000:]
                pytest.fail(f"langgraph dev exited ({process.returncode}):\n{said}")
            try:
                if httpx.get(f"{url}/ok", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("langgraph dev did not start within 90 s")
            time.sleep(0.25)  # the server process gives no other signal of being ready
        yield url
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        log.close()


@pytest.fixture(scope="module")
def langgraph_server(
    server: EmulatorServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The test app above, served (one server for the module: it takes seconds to start)."""
    app = tmp_path_factory.mktemp("langgraph-app")
    (app / "agent_graph.py").write_text(GRAPH)
    shutil.copy(EXAMPLE / "auth.py", app / "agent_auth.py")  # the example's bearer tokens
    config = {
        "dependencies": ["."],
        "graphs": {"agent": "./agent_graph.py:graph"},
        "auth": {"path": "./agent_auth.py:auth"},
    }
    (app / "langgraph.json").write_text(json.dumps(config))
    yield from _serve(app, server, tmp_path_factory.mktemp("served"))


@pytest.fixture(scope="module")
def example_server(
    server: EmulatorServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The repository's example app (examples/langgraph-server), served as it is from a copy
    (`langgraph dev` keeps its state in the folder it serves)."""
    app = tmp_path_factory.mktemp("example") / "app"
    shutil.copytree(EXAMPLE, app, ignore=shutil.ignore_patterns(".langgraph_api", "__pycache__"))
    yield from _serve(app, server, tmp_path_factory.mktemp("example-log"))


def test_the_example_app_serves_each_user_and_refuses_another_id(
    example_server: str, server: EmulatorServer
) -> None:
    with client_as(example_server, "token-alice") as alice:
        thread = alice.threads.create()["thread_id"]
        done = run(alice, thread, "save my name")
        assert done["messages"][-1]["content"] == "Saved.", done
        assert done["toolrouter_tools"]  # the middleware's tools, loaded in the thread
        other = alice.threads.create()["thread_id"]
        with pytest.raises(Exception, match=r"UserMismatchError"):
            run(alice, other, "save my name", config={"configurable": {"user_id": "dave"}})
    assert "alice" in {r.user_id for r in server.store.sessions.values()}
    assert "dave" not in {r.user_id for r in server.store.sessions.values()}


def client_as(url: str, token: str) -> Any:
    return langgraph_sdk.get_sync_client(url=url, headers={"Authorization": f"Bearer {token}"})


def run(client: Any, thread: str, text: str | None, **options: Any) -> dict[str, Any]:
    payload = {"messages": [{"role": "user", "content": text}]} if text else None
    result: dict[str, Any] = client.runs.wait(thread, "agent", input=payload, **options)
    return result


def test_a_served_agent_acts_only_as_its_authenticated_user(
    langgraph_server: str, server: EmulatorServer
) -> None:
    with client_as(langgraph_server, "token-dave") as dave:
        acts_only_as_dave(dave, server)


def acts_only_as_dave(dave: Any, server: EmulatorServer) -> None:
    thread = dave.threads.create()["thread_id"]
    saved = run(dave, thread, "save my name")
    assert "done" in saved["messages"][-1]["content"]
    sessions = {r.user_id: r.id for r in server.store.sessions.values()}
    assert "dave" in sessions

    before = len(server.log)
    for options in (
        {"config": {"configurable": {"user_id": "alice"}}},
        {"context": {"user_id": "alice"}},
    ):
        other = dave.threads.create()["thread_id"]
        with pytest.raises(Exception, match=r"UserMismatchError: .*'alice'.*'dave'"):
            run(dave, other, "save my name", **options)
    assert [
        r for r in list(server.log)[before:] if r.operation in ("execute", "create_session")
    ] == []


def test_a_served_run_pauses_for_its_users_link_and_resumes_once(
    langgraph_server: str, server: EmulatorServer
) -> None:
    with client_as(langgraph_server, "token-alice") as alice:
        pauses_and_resumes(alice, server)


def pauses_and_resumes(alice: Any, server: EmulatorServer) -> None:
    thread = alice.threads.create()["thread_id"]
    paused = run(alice, thread, "make a repository")
    interrupts = paused.get("__interrupt__") or []
    assert interrupts, paused
    request = interrupts[0]["value"]
    assert request["user_id"] == "alice"
    httpx.get(request["redirect_urls"]["github"])
    done = run(alice, thread, None, command={"resume": True})
    assert "done" in done["messages"][-1]["content"], done
    assert executes(server, request["session_id"]) == [400, 200]
    assert uuid.UUID(thread)
