"""Reading execute answers into outcomes, and the compact text the model reads."""

from __future__ import annotations

from langchain_toolrouter._answers import compact_json, render_content
from langchain_toolrouter.types import ToolOutcome


def test_success_rules() -> None:
    assert ToolOutcome.from_wire({"data": {"a": 1}, "log_id": "log_1"}).successful
    assert not ToolOutcome.from_wire({"data": {}, "error": "boom"}).successful
    completed = ToolOutcome.from_wire({"data": {}, "error": "ignored", "result_type": "completed"})
    assert (completed.successful, completed.error) == (True, None)
    failed = ToolOutcome.from_wire({"data": {}, "result_type": "failed"})
    assert failed.error == "the tool did not complete (result_type='failed')"
    assert not ToolOutcome.from_wire({"successful": False, "error": "x"}).successful


def test_blocked_and_input_required_say_why() -> None:
    blocked = ToolOutcome.from_wire(
        {"result_type": "blocked", "message": "hook refused", "reason": {"type": "request_blocked"}}
    )
    assert blocked.error == "the call was blocked: hook refused"
    needs = ToolOutcome.from_wire(
        {
            "result_type": "input_required",
            "input_requests": {"r1": {"message": "Which calendar?"}},
            "request_state": "opaque",
        }
    )
    assert needs.error == "the tool needs more input from the user: Which calendar?"
    assert needs.extra["request_state"] == "opaque"
    assert needs.as_dict()["result_type"] == "input_required"


def test_compact_text() -> None:
    assert compact_json({"a": [1, "é"]}) == '{"a":[1,"é"]}'
    assert compact_json("plain") == "plain"
    assert render_content({"a": 1}, 100) == '{"a":1}'
    cut = render_content("x" * 300, 200)  # the note counts against the cap
    assert len(cut) <= 200
    shown = 200 - len(cut.split("\n")[1]) - 1
    assert cut.startswith("x" * shown + f"\n[truncated: {shown} of 300 characters shown")
    tiny = render_content("x" * 30, 10)  # a cap shorter than the note: the note alone
    assert tiny.startswith("\n[truncated: 0 of 30 characters shown")
