"""`langchain_toolrouter.testing`: a plan the scripted model cannot follow is refused with the fix."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel

from langchain_toolrouter.testing import Intent, ScriptedChatModel


def test_a_scripted_model_is_a_chat_model_and_binds_tools() -> None:
    model = ScriptedChatModel(stages=[[Intent("note", "create a note")]])
    assert isinstance(model, BaseChatModel)
    reply = model.invoke("hi")  # no tools bound: nothing matches, so it says it gave up
    assert reply.response_metadata["outcome"] == "gave_up"
    assert "could not find a tool to create a note" in str(reply.content)
    assert "no tools are bound (call model.bind_tools(tools)" in str(reply.content)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"key": "", "use_case": "x"}, ValueError, "Intent key must be a short non-empty name"),
        ({"key": "a:b", "use_case": "x"}, ValueError, "without ':' or ','"),
        ({"key": "a,b", "use_case": "x"}, ValueError, "without ':' or ','"),
        ({"key": 1, "use_case": "x"}, ValueError, "Intent key must be"),
        ({"key": "a", "use_case": " "}, ValueError, "use_case must say in words"),
        ({"key": "a", "use_case": "x", "values": [1]}, TypeError, "values must map argument"),
        ({"key": "a", "use_case": "x", "values": {1: 2}}, TypeError, "values must map argument"),
        ({"key": "a", "use_case": "x", "guess_first": "yes"}, TypeError, "True or False"),
    ],
)
def test_an_intent_refuses_what_the_model_could_not_use(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Intent(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"stages": [Intent("a", "x")]}, r"a list of stages, each a list of Intents"),
        ({"stages": [["a"]]}, r"a list of stages, each a list of Intents"),
        ({"stages": "a"}, r"a list of stages, each a list of Intents"),
        ({"stages": [[Intent("a", "x")], [Intent("a", "y")]]}, r"unique.*repeated: a"),
        ({"stages": [[Intent("a", "x")]], "answer": 3}, r"answer=\.\.\.\) takes the final reply"),
        ({"stages": [[Intent("a", "x")]], "max_attempts": 0}, r"max_attempts"),
    ],
)
def test_a_plan_the_model_could_not_follow_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        ScriptedChatModel(**kwargs)


def test_between_bound_tools_alike_in_words_the_model_picks_the_one_its_values_fit() -> None:
    def set_value(key: str, value: str) -> str:
        """Save a value in the notes."""
        return key

    def create_note(title: str, content: str) -> str:
        """Save a note in the notes."""
        return title

    for tools in ([set_value, create_note], [create_note, set_value]):
        model = ScriptedChatModel(
            stages=[[Intent("note", "save a note", {"title": "Plan", "content": "Start"})]]
        ).bind_tools(tools)
        (call,) = model.invoke("Save a note").tool_calls
        assert (call["name"], call["args"]) == (
            "create_note",
            {"title": "Plan", "content": "Start"},
        )
