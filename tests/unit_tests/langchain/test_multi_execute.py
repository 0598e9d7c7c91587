"""Splitting a multi-execute call between local custom tools and the service, and merging back."""

from __future__ import annotations

from typing import Any

import pytest

from langchain_toolrouter.custom_tools import custom_tool
from langchain_toolrouter.custom_tools._multi_execute import hint_unknown_local, merge, plan
from langchain_toolrouter.custom_tools._registry import CustomRegistry
from langchain_toolrouter.types import ToolOutcome


@custom_tool
def shout(text: str) -> dict[str, str]:
    """Upper-case."""
    return {"text": text.upper()}


@custom_tool(slug="shout", extends_toolkit="gmail")
def shout_mail(text: str) -> dict[str, str]:
    """Upper-case mail."""
    return {"text": text.upper()}


REGISTRY = CustomRegistry([shout])


def item(slug: str, **arguments: Any) -> dict[str, Any]:
    return {"tool_slug": slug, "arguments": arguments}


def remote_result(*entries: tuple[str, bool]) -> ToolOutcome:
    results = [
        {
            "tool_slug": slug,
            "index": i,
            "response": {"successful": ok, "data": {"i": i}, "error": None if ok else "bad"},
            **({} if ok else {"error": "bad"}),
        }
        for i, (slug, ok) in enumerate(entries)
    ]
    errors = sum(1 for _, ok in entries if not ok)
    return ToolOutcome(
        successful=errors == 0,
        data={"results": results, "total_count": 9, "success_count": 9, "error_count": 9, "x": 1},
        error=f"{errors} out of {len(entries)} tools failed" if errors else None,
        log_id="log_r",
    )


def test_no_local_items_means_send_unchanged() -> None:
    assert plan({"tools": [item("A"), item("B")]}, REGISTRY.resolve) is None
    assert plan({"tools": "nonsense"}, REGISTRY.resolve) is None


def test_split_keeps_other_fields_and_order() -> None:
    arguments = {
        "tools": [item("A", a=1), item("LOCAL_SHOUT", text="hi"), item("B")],
        "thought": "t",
        "sync_response_to_workbench": False,
    }
    split = plan(arguments, REGISTRY.resolve)
    assert split is not None
    assert [(i.index, i.tool.final_slug, i.arguments) for i in split.local] == [
        (1, "LOCAL_SHOUT", {"text": "hi"})
    ]
    assert split.remote_indices == [0, 2]
    assert split.remote_arguments == {
        "tools": [item("A", a=1), item("B")],
        "thought": "t",
        "sync_response_to_workbench": False,
    }


def test_merge_puts_results_back_in_order_and_recounts() -> None:
    split = plan({"tools": [item("A"), item("shout", text="x"), item("B")]}, REGISTRY.resolve)
    assert split is not None
    local = {1: ToolOutcome(successful=True, data={"text": "X"})}
    merged = merge(split, local, remote_result(("A", True), ("B", False)))
    results = merged.data["results"]
    assert [(r["tool_slug"], r["index"]) for r in results] == [
        ("A", 0),
        ("LOCAL_SHOUT", 1),
        ("B", 2),
    ]
    assert results[1]["response"] == {"successful": True, "data": {"text": "X"}, "error": None}
    assert (merged.data["total_count"], merged.data["success_count"]) == (3, 2)
    assert merged.data["error_count"] == 1
    assert merged.data["x"] == 1  # other data fields of the service answer are kept
    assert merged.error == "1 out of 3 tools failed"
    assert not merged.successful
    assert merged.log_id == "log_r"


def test_single_local_item_comes_back_unwrapped() -> None:
    split = plan({"tools": [item("LOCAL_SHOUT", text="x")]}, REGISTRY.resolve)
    assert split is not None
    outcome = ToolOutcome(successful=True, data={"text": "X"})
    assert merge(split, {0: outcome}) is outcome


def test_whole_remote_failure_fails_each_remote_item_and_keeps_local() -> None:
    split = plan({"tools": [item("A"), item("LOCAL_SHOUT", text="x")]}, REGISTRY.resolve)
    assert split is not None
    merged = merge(split, {1: ToolOutcome(successful=True, data={})}, remote_error="HTTP 503: down")
    first, second = merged.data["results"]
    assert first == {
        "tool_slug": "A",
        "index": 0,
        "response": {"successful": False, "data": {}, "error": "HTTP 503: down"},
        "error": "HTTP 503: down",
    }
    assert second["response"]["successful"] is True
    assert merged.error == "1 out of 2 tools failed"


def test_ambiguous_bare_slug_is_a_failed_item() -> None:
    registry = CustomRegistry([shout, shout_mail])
    split = plan({"tools": [item("shout", text="x"), item("A")]}, registry.resolve)
    assert split is not None
    merged = merge(split, {}, remote_result(("A", True)))
    failed = merged.data["results"][0]
    assert failed["tool_slug"] == "shout"
    assert "several custom tools" in failed["error"]


@pytest.mark.parametrize("count", [1, 3])
def test_missing_remote_results_are_reported_not_dropped(count: int) -> None:
    tools = [item("LOCAL_SHOUT", text="x")] + [item(f"R{i}") for i in range(count)]
    split = plan({"tools": tools}, REGISTRY.resolve)
    assert split is not None
    empty = ToolOutcome(successful=True, data={"results": []})
    merged = merge(split, {0: ToolOutcome(successful=True, data={})}, empty)
    assert len(merged.data["results"]) == count + 1
    assert merged.data["error_count"] == count


def test_results_in_completion_order_are_placed_by_their_index() -> None:
    split = plan({"tools": [item("A"), item("shout", text="x"), item("B")]}, REGISTRY.resolve)
    assert split is not None
    answered = remote_result(("A", True), ("B", True))
    answered.data["results"].reverse()  # B (index 1) first, then A (index 0)
    merged = merge(split, {1: ToolOutcome(successful=True, data={})}, answered)
    assert [(r["tool_slug"], r["index"]) for r in merged.data["results"]] == [
        ("A", 0),
        ("LOCAL_SHOUT", 1),
        ("B", 2),
    ]


def test_a_result_without_a_response_counts_as_failed() -> None:
    split = plan({"tools": [item("A"), item("shout", text="x")]}, REGISTRY.resolve)
    assert split is not None
    answered = ToolOutcome(successful=False, data={"results": [{"tool_slug": "A", "error": "x"}]})
    merged = merge(split, {1: ToolOutcome(successful=True, data={})}, answered)
    assert (merged.successful, merged.data["error_count"]) == (False, 1)


def test_over_fifty_items_with_local_ones_run_nothing() -> None:
    # The service refuses a call of more than 50 items as a whole: the local items must not
    # have run by then.
    tools = [item("A")] * 55 + [item("LOCAL_SHOUT", text="x")]
    split = plan({"tools": tools}, REGISTRY.resolve)
    assert split is not None
    assert (split.local, split.remote_arguments) == ([], None)
    merged = merge(split, {})
    assert (merged.successful, merged.data["error_count"]) == (False, 56)
    assert "at most 50 tools, not 56: nothing was run" in merged.data["results"][55]["error"]


@pytest.mark.parametrize("arguments", ["abc", 5, ["text", "x"]])
def test_a_custom_items_arguments_that_are_not_an_object_fail_that_item(arguments: Any) -> None:
    tools = [{"tool_slug": "LOCAL_SHOUT", "arguments": arguments}, item("A")]
    split = plan({"tools": tools}, REGISTRY.resolve)
    assert split is not None
    assert split.local == []
    merged = merge(split, {}, remote_result(("A", True)))
    failed = merged.data["results"][0]
    assert failed["tool_slug"] == "LOCAL_SHOUT"
    assert "arguments must be an object of LOCAL_SHOUT's parameters" in failed["error"]


def test_failed_items_naming_a_custom_tool_without_a_function_say_how_to_pass_it() -> None:
    # A session resumed without its custom tools: the service cannot run LOCAL_GONE, and
    # only this process knows the fix.
    answered = ToolOutcome(
        successful=False,
        data={
            "results": [
                {
                    "tool_slug": "LOCAL_GONE",
                    "index": 0,
                    "response": {"successful": False, "data": {}, "error": "Unknown."},
                    "error": "Unknown.",
                },
                {"tool_slug": "A", "index": 1, "response": {"successful": False, "error": "x"}},
                {"tool_slug": "LOCAL_SHOUT", "index": 2, "response": {"successful": False}},
            ],
            "total_count": 3,
        },
        error="3 out of 3 tools failed",
        log_id="log_r",
    )
    hinted = hint_unknown_local(answered, REGISTRY.missing_hint)
    # This session has other custom tools: a made-up or mistyped slug is as likely.
    fix = (
        "LOCAL_GONE is not one of this session's custom tools (LOCAL_SHOUT). If the session "
        "was created with it, pass it when resuming: "
        "router.get_session(session_id, custom_tools=[...])."
    )
    gone, app, known = hinted.data["results"]
    assert gone["error"] == f"Unknown. {fix}"
    assert gone["response"] == {"successful": False, "data": {}, "error": f"Unknown. {fix}"}
    assert (app, known) == tuple(answered.data["results"][1:])  # no hint: not theirs to fix
    assert (hinted.error, hinted.log_id, hinted.data["total_count"]) == (
        "3 out of 3 tools failed",
        "log_r",
        3,
    )
    succeeded = ToolOutcome(
        successful=True,
        data={"results": [{"tool_slug": "LOCAL_GONE", "response": {"successful": True}}]},
    )
    assert hint_unknown_local(succeeded, REGISTRY.missing_hint) is succeeded


def test_the_missing_custom_tool_hint_fits_the_session() -> None:
    resumed = CustomRegistry([])  # no custom tools passed: most likely resumed without them
    assert resumed.missing_hint("LOCAL_PING") == (
        "LOCAL_PING is a custom tool and this session has no function for it: pass the "
        "session's custom tools when resuming it, "
        "router.get_session(session_id, custom_tools=[...])."
    )
    typo = REGISTRY.missing_hint("LOCAL_SHOUTT")
    assert typo is not None
    assert typo.startswith("LOCAL_SHOUTT is not one of this session's custom tools")
    assert "Did you mean LOCAL_SHOUT?" in typo
    assert REGISTRY.missing_hint("LOCAL_SHOUT") is None
    assert REGISTRY.missing_hint("GITHUB_X") is None
