"""Connection handling options, the user of a run, and answers that need a connection
(no service: the flows run against scripted answers)."""

from __future__ import annotations

import logging
import math
from typing import Any

import pytest
from langchain_core.runnables.config import var_child_runnable_config

from langchain_toolrouter import ToolRouter
from langchain_toolrouter._session import calls as calls_module
from langchain_toolrouter._session.flows import ClientCall, Interrupt, Notify
from langchain_toolrouter._session.per_user import user_of_run
from langchain_toolrouter._session.runtime import ConnectionPolicy, connection_policy
from langchain_toolrouter.errors import ConfigurationError, ToolNotConnectedError
from langchain_toolrouter.types import ConnectionRequest, ToolOutcome
from langchain_toolrouter.wire.models import ToolkitItem

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
        ({"configurable": {"langgraph_auth_user": {"identity": ""}}}, None),
        ({"configurable": {}}, None),
        (None, None),
    ],
)
def test_the_user_of_a_run(config: Any, user: str | None) -> None:
    token = var_child_runnable_config.set(config)
    try:
        assert user_of_run() == user
    finally:
        var_child_runnable_config.reset(token)


@pytest.mark.parametrize("bad", ["", "  ", 42, ["u1"]])
def test_a_user_id_that_is_not_a_non_empty_str_is_named_not_passed_over(bad: Any) -> None:
    token = var_child_runnable_config.set(
        {"configurable": {"user_id": bad, "langgraph_auth_user": {"identity": "someone-else"}}}
    )
    try:
        with pytest.raises(ValueError, match=r"\['user_id'\] is .*a user id is a non-empty str"):
            user_of_run()
    finally:
        var_child_runnable_config.reset(token)


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
    needs = calls_module._items_needing_connection
    assert needs(multi(("A", False, NEEDS), ("B", False, NEEDS))) == (["github"], False)
    assert needs(multi(("A", True, None), ("B", False, NEEDS))) == (["github"], True)
    assert needs(multi(("A", False, "boom"), ("B", False, NEEDS))) == (["github"], True)
    assert needs(multi(("A", True, None))) == ([], True)
    assert needs(ToolOutcome(successful=True, data="text")) == ([], False)


def test_links_are_added_to_the_items_that_need_them() -> None:
    linked = calls_module._with_links(
        multi(("A", True, None), ("B", False, NEEDS)), {"github": "https://link"}
    )
    assert linked.data["connect_links"] == {"github": "https://link"}
    assert "open https://link to connect github" in linked.data["results"][1]["error"]
    assert "error" not in linked.data["results"][0]


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
    assert calls_module._initiated_links(outcome) == {"github": "https://gh"}


def test_the_default_on_link_logs_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    request = ConnectionRequest.of("T", {"github": "https://gh"}, user_id="u", session_id="s")
    with caplog.at_level(logging.WARNING, "langchain_toolrouter"):
        calls_module._log_request(request)
    assert caplog.records[-1].getMessage() == (
        "Connect github to continue (T): open github: https://gh (user u)"
    )
    assert request.as_payload()["type"] == "connection_required"


def wait_flow(mode: str, answer: Any) -> tuple[list[Any], BaseException | ToolOutcome]:
    """`connect_then` of a session in `mode`, driven by hand: the effects it asked for, and
    what it ended with."""
    with ToolRouter(
        api_key="ak_x", base_url="https://api.example.test", on_connection_required=mode
    ) as router:
        session_calls = calls_module.SessionCalls(
            router._rt, "trs_1", "u", calls_module.CustomRegistry()
        )

        def retry() -> Any:
            yield ClientCall(lambda: None, (), {})
            return ToolOutcome(successful=True, data="ran")

        flow = session_calls.connect_then("T", {"github": "https://gh"}, retry())
        effects: list[Any] = [flow.send(None)]
        active = [
            ToolkitItem.model_validate(
                {
                    "slug": "github",
                    "name": "GitHub",
                    "connected_account": {"id": "ca", "status": "ACTIVE"},
                }
            )
        ]
        try:
            effects.append(flow.send(answer))
            while True:
                effects.append(flow.send(active if isinstance(effects[-1], ClientCall) else None))
        except StopIteration as stop:
            return effects, stop.value
        except ToolNotConnectedError as exc:
            return effects, exc


def test_interrupt_then_waits_then_runs_once() -> None:
    pytest.importorskip("langgraph", reason="the interrupt mode needs the langgraph extra")
    effects, ended = wait_flow("interrupt", True)
    assert isinstance(effects[0], Interrupt)
    assert effects[0].value["redirect_urls"] == {"github": "https://gh"}
    assert isinstance(ended, ToolOutcome)
    assert ended.data == "ran"


@pytest.mark.parametrize("declined", [False, None, 0, {"connected": False}])
def test_a_declined_interrupt_runs_nothing(declined: Any) -> None:
    pytest.importorskip("langgraph", reason="the interrupt mode needs the langgraph extra")
    effects, ended = wait_flow("interrupt", declined)
    assert len(effects) == 1
    assert isinstance(ended, ToolNotConnectedError)
    assert "the user did not connect github" in str(ended)
    assert ended.redirect_url == "https://gh"


def test_wait_hands_the_request_to_on_link_first() -> None:
    effects, ended = wait_flow("wait", None)
    assert isinstance(effects[0], Notify)
    assert effects[0].value.toolkits == ("github",)
    assert isinstance(ended, ToolOutcome)
