"""`connect_links`: from whatever a session's tool gave back to the links the user must open."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from langchain_toolrouter import connect_links
from langchain_toolrouter.errors import ToolNotConnectedError
from langchain_toolrouter.types import ConnectionRequest

GH = "https://connect.example.test/gh"
GM = "https://connect.example.test/gm"


def not_connected() -> ToolNotConnectedError:
    return ToolNotConnectedError(
        "connect github first",
        tool="T",
        toolkit="github",
        redirect_url=GH,
        connected_account_id="ca",
    )


def test_a_refused_call_in_each_of_its_forms() -> None:
    error = not_connected()
    message = ToolMessage(content=str(error), artifact=error.artifact(), tool_call_id="c1")
    for answer in (error, error.artifact(), message, [AIMessage(content="hi"), message]):
        assert connect_links(answer) == {"github": GH}


def test_a_pause_and_its_payload() -> None:
    request = ConnectionRequest.of("T", {"github": GH, "gmail": GM}, user_id="u", session_id="s")
    assert connect_links(request) == {"github": GH, "gmail": GM}
    assert connect_links(request.as_payload()) == {"github": GH, "gmail": GM}


def test_in_band_answers_of_the_meta_tools() -> None:
    manage = {
        "successful": True,
        "data": {
            "results": {
                "github": {"toolkit": "github", "has_active_connection": False, "redirect_url": GH},
                "gmail": {"toolkit": "gmail", "has_active_connection": True, "redirect_url": GM},
            }
        },
    }
    assert connect_links(manage) == {"github": GH}  # an active account needs nothing
    multi = {"successful": False, "data": {"results": [], "connect_links": {"gmail": GM}}}
    assert connect_links(ToolMessage(content="x", artifact=multi, tool_call_id="c")) == {
        "gmail": GM
    }


@pytest.mark.parametrize(
    "answer",
    [
        None,
        "text",
        ToolMessage(
            content="done", artifact={"successful": True, "data": {"n": 1}}, tool_call_id="c"
        ),
        ToolMessage(content="no artifact", tool_call_id="c"),
        {"redirect_url": GH},  # no toolkit: not a link to show for one
        {"toolkit": "github", "redirect_url": 5},
    ],
)
def test_answers_that_ask_for_nothing(answer: Any) -> None:
    assert connect_links(answer) == {}


def test_deep_or_circular_data_ends() -> None:
    loop: dict[str, Any] = {"toolkit": "github", "redirect_url": GH}
    loop["self"] = loop
    assert connect_links(loop) == {"github": GH}
