"""Connection handling options, the user of a run, and answers that need a connection
(no service: the flows run against a scripted face)."""

from __future__ import annotations

import logging
import math
from typing import Any

import pytest
from langchain_core.runnables.config import var_child_runnable_config

from langchain_toolrouter import ToolRouter
from langchain_toolrouter._session import connections as connections_module
from langchain_toolrouter._session.connections import (
    ConnectionPolicy,
    Connections,
    connection_policy,
)
from langchain_toolrouter._session.faces import run_sync
from langchain_toolrouter._session.sessions import user_of_run
from langchain_toolrouter.errors import ConfigurationError, ToolNotConnectedError, UserMismatchError
from langchain_toolrouter.types import ConnectionRequest, ToolOutcome
from langchain_toolrouter.wire.models import ToolkitItem

from .scripted_face import ScriptedFace

BASE = ConnectionPolicy()


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"on_connection_required": "pause"}, "must be 'message'"),
        ({"connection_timeout": -1}, "connection_timeout"),
        ({"connection_timeout": "5"}, "connection_timeout"),
        ({"on_link": "print"}, "on_link must be a callable"),
    ],
)
def test_bad_options_are_named(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ConfigurationError, match=fragment):
        connection_policy(BASE, **options)
    with pytest.raises(ConfigurationError, match=fragment):
        ToolRouter(api_key="ak_x", base_url="https://api.example.test", **options)


def test_options_override_the_routers_and_keep_the_rest() -> None:
    router_wide = connection_policy(BASE, on_connection_required="wait", connection_timeout=7)
    session = connection_policy(router_wide, on_link=print)
    assert (session.mode, session.timeout, session.on_link) == ("wait", 7, print)
    assert connection_policy(router_wide, connection_timeout=math.inf).timeout == math.inf


def test_interrupt_without_langgraph_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(
        ConfigurationError, match=r"pip install 'langchain-toolrouter\[langgraph\]'"
    ):
        connection_policy(BASE, on_connection_required="interrupt")


@pytest.mark.parametrize(
    ("config", "user"),
    [
        ({"configurable": {"user_id": "u1"}}, "u1"),
        ({"configurable": {"langgraph_auth_user": {"identity": "u2"}}}, "u2"),
        ({"configurable": {"langgraph_auth_user": type("U", (), {"identity": "u3"})()}}, "u3"),
        ({"configurable": {"user_id": "u4", "langgraph_auth_user": {"identity": "u4"}}}, "u4"),
    ],
)
def test_the_user_of_a_run(config: Any, user: str) -> None:
    token = var_child_runnable_config.set(config)
    try:
        assert user_of_run() == user
    finally:
        var_child_runnable_config.reset(token)


@pytest.mark.parametrize(
    "config",
    [{"configurable": {"langgraph_auth_user": {"identity": ""}}}, {"configurable": {}}, None],
)
def test_a_run_that_names_no_user_is_the_programs_mistake(config: Any) -> None:
    token = var_child_runnable_config.set(config)
    try:
        with pytest.raises(ConfigurationError, match="names no user: looked in") as caught:
            user_of_run()
    finally:
        var_child_runnable_config.reset(token)
    for place in ("['user_id']", "runtime context", "langgraph_auth_user", "server_info.user"):
        assert place in str(caught.value)


@pytest.mark.parametrize("bad", ["", "  ", 42, ["u1"]])
def test_a_user_id_that_is_not_a_non_empty_str_is_named(bad: Any) -> None:
    token = var_child_runnable_config.set({"configurable": {"user_id": bad}})
    try:
        with pytest.raises(
            ConfigurationError, match=r"\['user_id'\] is .*a user id is a non-empty str"
        ):
            user_of_run()
    finally:
        var_child_runnable_config.reset(token)


def test_an_authenticated_user_cannot_be_changed_by_the_client() -> None:
    """On a LangGraph server with auth, config and context come from the client: a user id
    there that is not the authenticated one is refused, naming both."""
    token = var_child_runnable_config.set(
        {"configurable": {"user_id": "alice", "langgraph_auth_user": {"identity": "dave"}}}
    )
    try:
        with pytest.raises(UserMismatchError, match=r"'alice'.*authenticated.*'dave'") as caught:
            user_of_run()
    finally:
        var_child_runnable_config.reset(token)
    assert caught.value.authenticated == "dave"
    assert caught.value.claimed == ("config['configurable']['user_id']", "alice")


def multi(*items: tuple[str, bool, str | None]) -> ToolOutcome:
    results = [
        {
            "tool_slug": slug,
            "response": {"successful": ok, "data": {}, "error": error},
            **({"error": error} if error else {}),
        }
        for slug, ok, error in items
    ]
    return ToolOutcome(successful=False, data={"results": results})


NEEDS = "No active connection for toolkit 'github' for user 'u'."


def test_which_items_need_a_connection_and_whether_any_ran() -> None:
    needs = connections_module.items_needing_connection
    assert needs(multi(("A", False, NEEDS), ("B", False, NEEDS))) == (["github"], False)
    assert needs(multi(("A", True, None), ("B", False, NEEDS))) == (["github"], True)
    assert needs(multi(("A", False, "boom"), ("B", False, NEEDS))) == (["github"], True)
    assert needs(multi(("A", True, None))) == ([], True)
    assert needs(ToolOutcome(successful=True, data="text")) == ([], False)


def test_links_are_added_to_the_items_that_need_them() -> None:
    linked = connections_module.with_links(
        multi(("A", True, None), ("B", False, NEEDS)), {"github": "https://link"}
    )
    assert linked.data["connect_links"] == {"github": "https://link"}
    said = connections_module.connect_sentence("B", "github", "https://link")
    assert linked.data["results"][1]["error"] == said  # the words of a direct call
    assert linked.data["results"][1]["response"]["error"] == said
    assert "error" not in linked.data["results"][0]


def test_an_item_and_a_direct_call_read_the_same() -> None:
    """A connection needed by a direct call and by an item of a multi-execute: one wording."""
    from langchain_toolrouter.errors import APIError
    from langchain_toolrouter.types import ConnectionLink

    link = ConnectionLink(toolkit="github", redirect_url="https://link", connected_account_id="c")
    direct = connections_module.not_connected_error(
        "B", "github", APIError("x", status=400), link, None
    )
    item = connections_module.with_links(multi(("B", False, NEEDS)), {"github": "https://link"})
    assert str(direct) == item.data["results"][0]["error"]


def test_links_manage_connections_started() -> None:
    outcome = ToolOutcome(
        successful=True,
        data={
            "results": {
                "github": {"has_active_connection": False, "redirect_url": "https://gh"},
                "notes": {"has_active_connection": True},
                "gmail": {"has_active_connection": False},  # no link: nothing to show
            }
        },
    )
    assert connections_module.initiated_links(outcome) == {"github": "https://gh"}


def test_the_default_on_link_logs_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    request = ConnectionRequest.of("T", {"github": "https://gh"}, user_id="u", session_id="s")
    with caplog.at_level(logging.WARNING, "langchain_toolrouter"):
        connections_module._log_request(request)
    assert caplog.records[-1].getMessage() == (
        "Connect github to continue (T): open github: https://gh (user u)"
    )
    assert request.as_payload()["type"] == "connection_required"


def wait_flow(
    mode: str, answer: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Any], BaseException | ToolOutcome]:
    """`connect_then` of a session in `mode`, on a scripted face: what it did (the pause, the
    link handed to `on_link`, the client calls), and what it ended with."""
    did: list[Any] = []
    monkeypatch.setattr(
        connections_module, "pause", lambda value: did.append(("pause", value)) or answer
    )
    monkeypatch.setattr(connections_module, "check_can_pause", lambda: None)  # no graph here
    active = [
        ToolkitItem.model_validate(
            {
                "slug": "github",
                "name": "GitHub",
                "connected_account": {"id": "ca", "status": "ACTIVE"},
            }
        )
    ]
    face = ScriptedFace(answers=[active])
    policy = connection_policy(
        ConnectionPolicy(), on_connection_required=mode, on_link=lambda r: did.append(("link", r))
    )

    async def retry() -> ToolOutcome:
        did.extend(call.name for call in face.calls)  # the waits made before the call
        did.append("retry")
        return ToolOutcome(successful=True, data="ran")

    connections = Connections("trs_1", "u", policy)
    try:
        ended: BaseException | ToolOutcome = run_sync(
            connections.connect_then(face, "T", {"github": "https://gh"}, retry)  # type: ignore[arg-type]
        )
    except ToolNotConnectedError as exc:
        ended = exc
    return did, ended


def test_interrupt_then_waits_then_runs_once(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("langgraph", reason="the interrupt mode needs the langgraph extra")
    did, ended = wait_flow("interrupt", True, monkeypatch)
    assert did[0][0] == "pause"
    assert did[0][1]["redirect_urls"] == {"github": "https://gh"}
    assert did[1:] == ["iter_toolkits", "retry"]
    assert isinstance(ended, ToolOutcome)
    assert ended.data == "ran"


@pytest.mark.parametrize("declined", [False, None, 0, {"connected": False}])
def test_a_declined_interrupt_runs_nothing(declined: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("langgraph", reason="the interrupt mode needs the langgraph extra")
    did, ended = wait_flow("interrupt", declined, monkeypatch)
    assert [step[0] for step in did] == ["pause"]
    assert isinstance(ended, ToolNotConnectedError)
    assert "the user did not connect github" in str(ended)
    assert ended.redirect_url == "https://gh"


def test_wait_hands_the_request_to_on_link_first(monkeypatch: pytest.MonkeyPatch) -> None:
    did, ended = wait_flow("wait", None, monkeypatch)
    assert did[0][0] == "link"
    assert did[0][1].toolkits == ("github",)
    assert isinstance(ended, ToolOutcome)


@pytest.mark.parametrize(
    ("answer", "yes"),
    [
        (True, True),
        ({"connected": True}, True),
        (False, False),
        (0, False),
        ({"connected": False}, False),
        ({"responses": {"connect:github": {"action": "accept"}}}, True),
        ({"responses": {"connect:github": {"action": "decline"}}}, False),
        ({"responses": {"connect:github": {"action": "cancel"}}}, False),
        ({"responses": {}}, False),
        ({"responses": "yes"}, False),
    ],
)
def test_the_answers_a_pause_takes(answer: Any, yes: bool) -> None:
    """Today's values and LangChain's MCP elicitation answers, keyed as the pause's requests."""
    assert connections_module.accepted(answer, ["github"]) is yes


def test_a_pause_lists_its_links_as_elicitation_requests() -> None:
    request = ConnectionRequest.of(
        "T", {"github": "https://gh", "gmail": "https://gm"}, user_id="u", session_id="s"
    )
    entries = request.as_payload()["requests"]
    assert [(e["key"], e["mode"], e["url"]) for e in entries] == [
        ("connect:github", "url", "https://gh"),
        ("connect:gmail", "url", "https://gm"),
    ]
    both = {"responses": {e["key"]: {"action": "accept"} for e in entries}}
    assert connections_module.accepted(both, request.toolkits)
