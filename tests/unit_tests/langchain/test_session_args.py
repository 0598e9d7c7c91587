"""Friendly create_session arguments become the wire request shapes."""

from __future__ import annotations

import pytest

from langchain_toolrouter._session.sessions import session_request
from langchain_toolrouter.wire.models import SessionCreateRequest


def test_friendly_shapes() -> None:
    body = session_request(
        "u1",
        toolkits=["github", "gmail"],
        tools={"github": ["GITHUB_CREATE_AN_ISSUE"], "gmail": {"disable": ["GMAIL_SEND"]}},
        tags=["readOnlyHint"],
        auth_configs={"github": "ac_1"},
        connected_accounts={"github": "ca_1", "gmail": ["ca_2", "ca_3"]},
        manage_connections=True,
        workbench=False,
        preload=["GITHUB_CREATE_AN_ISSUE"],
        search=True,
        multi_execute=False,
    )
    assert body == {
        "user_id": "u1",
        "toolkits": {"enable": ["github", "gmail"]},
        "tools": {
            "github": {"enable": ["GITHUB_CREATE_AN_ISSUE"]},
            "gmail": {"disable": ["GMAIL_SEND"]},
        },
        "tags": ["readOnlyHint"],
        "auth_configs": {"github": "ac_1"},
        "connected_accounts": {"github": ["ca_1"], "gmail": ["ca_2", "ca_3"]},
        "manage_connections": {"enable": True},
        "workbench": {"enable": False},
        "preload": {"tools": ["GITHUB_CREATE_AN_ISSUE"]},
        "search": {"enable": True},
        "execute": {"enable_multi_execute": False},
    }
    SessionCreateRequest.model_validate(body)  # the wire model accepts it as is


def test_request_forms_pass_through_and_none_is_not_sent() -> None:
    body = session_request(
        "u1",
        toolkits={"disable": ["gmail"]},
        manage_connections={"enable": True, "callback_url": "https://app/cb"},
        preload="all",
    )
    assert body == {
        "user_id": "u1",
        "toolkits": {"disable": ["gmail"]},
        "manage_connections": {"enable": True, "callback_url": "https://app/cb"},
        "preload": {"tools": "all"},
    }
    assert session_request("u1") == {"user_id": "u1"}


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"toolkits": 3}, TypeError, "toolkits: expected a list of slugs"),
        ({"tools": ["GITHUB_X"]}, TypeError, "tools: expected a mapping"),
        ({"connected_accounts": {"github": 1}}, TypeError, "connected_accounts\\['github'\\]"),
        ({"manage_connections": "yes"}, TypeError, "manage_connections: expected True/False"),
        ({"preload": ["LOCAL_X"]}, ValueError, "custom_tool\\(preload=True\\)"),
        ({"multi_account": ["github"]}, TypeError, "multi_account: expected True/False"),
        ({"experimental": [1]}, TypeError, "experimental: expected a mapping"),
    ],
)
def test_wrong_kinds_are_named(kwargs: dict[str, object], error: type, fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        session_request("u1", **kwargs)  # type: ignore[arg-type]


def test_multi_account_takes_a_flag() -> None:
    assert session_request("u1", multi_account=True)["multi_account"] == {"enable": True}
    body = session_request("u1", multi_account={"enable": True, "max_accounts_per_toolkit": 2})
    assert SessionCreateRequest.model_validate(body).multi_account is not None


def test_user_id_is_required() -> None:
    with pytest.raises(ValueError, match="user_id"):
        session_request("")
