"""ToolRouterTool built from a schema: exact names, validation, errors as messages, sync/async."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import ToolException
from langchain_core.utils.function_calling import convert_to_openai_tool

from langchain_toolrouter.errors import (
    ToolArgumentsError,
    ToolExecutionError,
)
from langchain_toolrouter.schema import ConversionOptions
from langchain_toolrouter.tools import (
    ToolRouterTool,
    tool_name_for,
)
from langchain_toolrouter.types import ToolOutcome

RESERVED = {
    "type": "object",
    "properties": {
        "config": {"type": "string"},
        "callbacks": {"type": "integer"},
        "run_manager": {"type": "boolean"},
        "from": {"type": "string"},
        "first name": {"type": "string"},
        "self": {"type": "string"},
    },
    "required": ["config"],
}


def tool_call(tool: ToolRouterTool, args: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    return {"type": "tool_call", "id": call_id, "name": tool.name, "args": args}


class Recorder:
    def __init__(self, result: Any = None) -> None:
        self.payloads: list[dict[str, Any]] = []
        self.result = result

    def __call__(self, payload: dict[str, Any]) -> Any:
        self.payloads.append(payload)
        return self.result if self.result is not None else {"echo": payload}


def test_model_sees_every_original_name() -> None:
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, Recorder())
    parameters = convert_to_openai_tool(tool)["function"]["parameters"]
    assert set(parameters["properties"]) == set(RESERVED["properties"])
    assert parameters["required"] == ["config"]


def test_langchain_run_argument_names_reach_the_executor_unchanged() -> None:
    recorder = Recorder()
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, recorder)
    args = {
        "config": "c",
        "callbacks": 3,
        "run_manager": True,
        "from": "x",
        "first name": "Ada",
        "self": "s",
    }
    message = tool.invoke(tool_call(tool, args))
    assert isinstance(message, ToolMessage)
    assert message.status == "success"
    assert recorder.payloads == [args]
    assert message.artifact["data"] == {"echo": args}


async def test_async_invoke_reaches_the_async_executor() -> None:
    seen: list[dict[str, Any]] = []

    async def executor(payload: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        seen.append(payload)
        return {"ok": True}

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, executor)
    message = await tool.ainvoke(tool_call(tool, {"config": "c", "run_manager": False}))
    assert message.content == '{"ok":true}'
    assert seen == [{"config": "c", "run_manager": False}]


def test_async_only_executor_runs_from_sync_code() -> None:
    """The one rule for async work called sync (as for an async custom tool): it runs on an
    event loop of its own, here and inside a running loop."""

    async def executor(payload: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"got": payload["config"]}

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, executor)
    assert tool.invoke({"config": "c"}) == '{"got":"c"}'

    async def inside_a_loop() -> Any:
        return tool.invoke({"config": "d"})

    assert asyncio.run(inside_a_loop()) == '{"got":"d"}'


async def test_sync_executor_also_serves_ainvoke() -> None:
    recorder = Recorder({"n": 1})
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, recorder)
    assert await tool.ainvoke({"config": "c"}) == '{"n":1}'


def test_validation_error_is_an_error_message_naming_path_and_expectation() -> None:
    recorder = Recorder()
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, recorder)
    message = tool.invoke(tool_call(tool, {"callbacks": "three"}))
    assert message.status == "error"
    assert "/config" in message.content
    assert "/callbacks" in message.content
    assert "integer" in message.content
    assert recorder.payloads == []  # nothing was sent


def test_raise_errors_gives_the_typed_exception() -> None:
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, Recorder(), raise_errors=True)
    with pytest.raises(ToolArgumentsError) as info:
        tool.invoke(tool_call(tool, {}))
    assert info.value.errors[0]["path"] == "/config"


def test_failed_outcome_is_an_error_message_with_the_tool_error() -> None:
    def executor(payload: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(successful=False, data={"partial": 1}, error="quota", log_id="log_1")

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, executor)
    message = tool.invoke(tool_call(tool, {"config": "c"}))
    assert message.status == "error"
    assert "quota" in message.content
    assert "log_1" in message.content
    assert '"partial":1' in message.content

    strict = ToolRouterTool.from_schema("T", "d", RESERVED, executor, raise_errors=True)
    with pytest.raises(ToolExecutionError) as info:
        strict.invoke({"config": "c"})
    assert info.value.result["log_id"] == "log_1"


def test_error_messages_carry_an_artifact() -> None:
    def failed(payload: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(successful=False, data={"partial": 1}, error="quota", log_id="log_1")

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, failed)
    message = tool.invoke(tool_call(tool, {"config": "c"}))
    assert (message.status, message.tool_call_id, message.name) == ("error", "c1", "T")
    assert message.artifact["log_id"] == "log_1"
    assert message.artifact["data"] == {"partial": 1}
    assert message.artifact["error_type"] == "ToolExecutionError"

    invalid = asyncio.run(tool.ainvoke(tool_call(tool, {}, "c2")))
    assert (invalid.status, invalid.tool_call_id) == ("error", "c2")
    assert invalid.artifact["errors"][0]["path"] == "/config"


def test_error_handler_text_is_kept_and_plain_invoke_gets_text() -> None:
    def executor(payload: dict[str, Any]) -> None:
        raise ToolException("no")

    fixed = ToolRouterTool.from_schema("T", "d", RESERVED, executor)
    fixed.handle_tool_error = "try later"
    message = fixed.invoke(tool_call(fixed, {"config": "c"}))
    assert (message.status, message.content) == ("error", "try later")
    assert message.artifact["error"] == "no"
    fixed.handle_tool_error = lambda exc: f"handled: {exc}"
    assert fixed.invoke(tool_call(fixed, {"config": "c"})).content == "handled: no"
    assert fixed.invoke({"config": "c"}) == "handled: no"  # no tool call: text only


def test_multi_execute_with_some_successes_is_a_normal_answer() -> None:
    results: list[dict[str, Any]] = [
        {"tool_slug": "A", "index": 0, "response": {"successful": True, "data": {"a": 1}}},
        {"tool_slug": "B", "index": 1, "response": {"successful": False, "error": "x"}},
    ]

    def partly(payload: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(
            successful=False, data={"results": results}, error="1 out of 2 tools failed"
        )

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, partly)
    message = tool.invoke(tool_call(tool, {"config": "c"}))
    assert message.status == "success"
    assert message.content.startswith("1 out of 2 tools failed; the others succeeded.\n")
    assert message.artifact["successful"] is False

    results[0]["response"]["successful"] = False
    assert tool.invoke(tool_call(tool, {"config": "c"})).status == "error"


def test_tool_exception_from_the_executor_is_handled() -> None:
    def executor(payload: dict[str, Any]) -> None:
        raise ToolException("upstream said no")

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, executor)
    message = tool.invoke(tool_call(tool, {"config": "c"}))
    assert (message.status, message.content) == ("error", "upstream said no")


def test_programming_errors_are_not_swallowed() -> None:
    def executor(payload: dict[str, Any]) -> None:
        raise KeyError("bug")

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, executor)
    with pytest.raises(KeyError):
        tool.invoke(tool_call(tool, {"config": "c"}))


def test_content_is_capped_and_artifact_keeps_everything() -> None:
    big = {"text": "x" * 5000}
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, Recorder(big), max_content_chars=100)
    message = tool.invoke(tool_call(tool, {"config": "c"}))
    assert message.content.startswith('{"text":"xxx')
    assert len(message.content) <= 100
    assert " of 5011 characters" in message.content
    assert message.artifact["data"] == big


def test_a_failures_text_is_capped_too() -> None:
    # A huge error (an upstream HTML page in an exception) must not flood the model either.
    def failing(payload: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(successful=False, error="<html>" + "x" * 50_000, data={"n": 1})

    tool = ToolRouterTool.from_schema("T", "d", RESERVED, failing, max_content_chars=300)
    message = tool.invoke(tool_call(tool, {"config": "c"}))
    assert message.status == "error"
    assert message.content.startswith("T failed: <html>xxx")
    assert "of 50006 characters" in message.content
    assert len(message.content) < 600, len(message.content)


def test_content_only_response_format() -> None:
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, Recorder({"n": 1}))
    tool.response_format = "content"
    message = tool.invoke(tool_call(tool, {"config": "c"}))
    assert (message.content, message.artifact) == ('{"n":1}', None)


def test_get_input_schema_is_the_lazy_pydantic_model() -> None:
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, Recorder())
    model = tool.get_input_schema()
    assert model(**{"config": "c", "first name": "Ada"})


def test_strict_provider_schema_and_exact_payload() -> None:
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string"}, "n": {"type": "integer"}},
        "required": ["q"],
    }
    recorder = Recorder()
    tool = ToolRouterTool.from_schema(
        "T", "d", schema, recorder, schema_options=ConversionOptions(strict_provider="openai")
    )
    parameters = convert_to_openai_tool(tool)["function"]["parameters"]
    assert set(parameters["required"]) == {"q", "n"}
    tool.invoke({"q": "hi"})
    assert recorder.payloads == [{"q": "hi"}]


def test_positional_or_string_input_is_refused() -> None:
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, Recorder())
    with pytest.raises(ValueError, match="String tool inputs"):
        tool.invoke("just text")


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("GITHUB_CREATE_ISSUE", "GITHUB_CREATE_ISSUE"),
        ("my.tool name", "my_tool_name"),
        ("9lives", "_9lives"),
    ],
)
def test_safe_names(slug: str, expected: str) -> None:
    assert tool_name_for(slug, "safe") == expected
    assert tool_name_for(slug, "exact") == slug


def test_safe_names_shorten_long_slugs_distinctly() -> None:
    a = tool_name_for("A" * 70 + "x", "safe")
    b = tool_name_for("A" * 70 + "y", "safe")
    assert len(a) <= 64
    assert a != b


def test_safe_name_tool_still_calls_its_slug() -> None:
    calls: list[str] = []

    class Executor:
        def execute(self, payload: dict[str, Any]) -> ToolOutcome:
            calls.append("sync")
            return ToolOutcome(successful=True, data=payload)

        async def aexecute(self, payload: dict[str, Any]) -> ToolOutcome:
            calls.append("async")
            return ToolOutcome(successful=True, data=payload)

    tool = ToolRouterTool.from_schema("my.tool", "d", RESERVED, Executor(), name_style="safe")
    assert (tool.name, tool.slug) == ("my_tool", "my.tool")
    tool.invoke({"config": "c"})
    asyncio.run(tool.ainvoke({"config": "c"}))
    assert calls == ["sync", "async"]


def test_bad_inputs_are_named() -> None:
    with pytest.raises(ValueError, match="name_style"):
        tool_name_for("x", "weird")
    with pytest.raises(TypeError, match="executor must be a callable"):
        ToolRouterTool.from_schema("T", "d", RESERVED, 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="input_json_schema"):
        ToolRouterTool(name="T", slug="T", description="d", executor=Recorder())


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({1: "x"}, "1"),
        ({"config": "c", ("a", "b"): 1}, "('a', 'b')"),
        ({"config": "\ud800"}, "surrogate"),
    ],
    ids=["int-key", "tuple-key", "lone-surrogate"],
)
def test_keys_that_are_not_strings_and_lone_surrogates_are_invalid_arguments(
    args: dict[Any, Any], fragment: str
) -> None:
    sent: list[Any] = []
    tool = ToolRouterTool.from_schema("T", "d", RESERVED, sent.append)
    for answer in (
        tool.invoke({"type": "tool_call", "id": "c1", "name": "T", "args": args}),
        asyncio.run(tool.ainvoke({"type": "tool_call", "id": "c2", "name": "T", "args": args})),
    ):
        assert isinstance(answer, ToolMessage)
        assert answer.status == "error"
        assert "Invalid arguments for T" in answer.content
        assert fragment in answer.content
    assert sent == []  # nothing was sent
