"""Building a `ToolRouterTool` without pydantic's validation (`model_construct`, for values
already in the form validation keeps): the state it gets is exactly what validation gives,
values validation would change or refuse still go through it, and LangChain's introspection
of `_run` finds nothing to inject."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
from collections.abc import Iterator
from types import MappingProxyType
from typing import Annotated, Any, get_type_hints

import pytest
from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, InjectedToolArg
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ValidationError

from langchain_toolrouter import tools as tools_module
from langchain_toolrouter.schema import ConversionOptions
from langchain_toolrouter.tools import CallableExecutor, ToolRouterTool
from langchain_toolrouter.types import ToolOutcome

SCHEMA = {
    "type": "object",
    "properties": {"q": {"type": "string"}, "from": {"type": "integer"}},
    "required": ["q"],
}


def echo(payload: dict[str, Any]) -> Any:
    return payload


async def aecho(payload: dict[str, Any]) -> Any:
    return payload


EXECUTOR = CallableExecutor(func=echo)


def _session_kwargs() -> dict[str, Any]:
    return {
        "name": "GITHUB_STAR",
        "slug": "GITHUB_STAR",
        "description": "Star a repository.",
        "input_json_schema": dict(SCHEMA),
        "executor": EXECUTOR,
        "metadata": {"slug": "GITHUB_STAR", "toolkit": "github", "tags": ["x"]},
        "schema_options": ConversionOptions(strict_provider="openai"),
        "max_content_chars": 500,
        "handle_tool_error": False,
    }


def _state(tool: ToolRouterTool) -> dict[str, Any]:
    private = dict(tool.__pydantic_private__ or {})
    return {
        "dict": dict(tool.__dict__),
        "order": list(tool.__dict__),
        "fields_set": set(tool.__pydantic_fields_set__),
        "extra": tool.__pydantic_extra__,
        "private": sorted(private),
        "memo": private.get("_tool_call_schema_memo"),
        "repr_args": list(tool.__repr_args__()),
        "dump": tool.model_dump(),
    }


KWARGS = [
    pytest.param(_session_kwargs, id="session"),
    pytest.param(
        lambda: {k: v for k, v in _session_kwargs().items() if k != "metadata"}, id="no-metadata"
    ),
    pytest.param(lambda: {**_session_kwargs(), "metadata": None, "description": ""}, id="empty"),
]


@pytest.mark.parametrize("make", KWARGS)
def test_construction_without_validation_is_the_validated_state(make: Any) -> None:
    kwargs = {"metadata": None, **make()}
    fast = ToolRouterTool._construct(**kwargs)
    slow = ToolRouterTool(**kwargs)
    assert _state(fast) == _state(slow)
    assert fast.conversion is slow.conversion  # the same schema: one cached conversion
    assert fast.tool_call_schema == slow.tool_call_schema


def test_construction_copies_dicts_as_validation_does() -> None:
    kwargs = _session_kwargs()
    tool = ToolRouterTool._construct(**kwargs)
    assert tool.input_json_schema == kwargs["input_json_schema"]
    assert tool.input_json_schema is not kwargs["input_json_schema"]
    assert tool.metadata == kwargs["metadata"]
    assert tool.metadata is not kwargs["metadata"]
    kwargs["metadata"]["toolkit"] = "changed"
    assert tool.metadata == {"slug": "GITHUB_STAR", "toolkit": "github", "tags": ["x"]}


@contextlib.contextmanager
def _validated() -> Iterator[None]:
    """A context in which `from_schema` builds every tool through pydantic's validation."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tools_module, "_plain", lambda _: False)
        yield


class Executor:
    def execute(self, payload: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(successful=True, data=payload)

    async def aexecute(self, payload: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome(successful=True, data=payload)


FROM_SCHEMA = [
    pytest.param(("T", "d", SCHEMA, echo), {"metadata": {"a": 1}}, id="metadata"),
    pytest.param(("T", "d", SCHEMA, echo), {}, id="plain"),
    pytest.param(("T", "", SCHEMA, aecho), {"raise_errors": True}, id="async-empty-description"),
    pytest.param(
        ("my tool/1", "d", SCHEMA, echo),
        {
            "aexecutor": aecho,
            "name_style": "safe",
            "schema_options": ConversionOptions(strict_provider="openai"),
            "max_content_chars": 9,
        },
        id="safe-name-options",
    ),
    pytest.param(("", "d", SCHEMA, Executor()), {"name_style": "safe"}, id="empty-name"),
    pytest.param(("T", "d", {}, echo), {"metadata": {}}, id="empty-schema"),
]


@pytest.mark.parametrize(("args", "kwargs"), FROM_SCHEMA)
def test_from_schema_builds_the_same_tool_either_way(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    taken: list[Any] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ToolRouterTool, "__init__", lambda *a, **k: taken.append(a))
        fast = ToolRouterTool.from_schema(*args, **kwargs)
    assert taken == []  # built by model_construct, not through __init__
    with _validated():
        slow = ToolRouterTool.from_schema(*args, **kwargs)
    slow_state, fast_state = _state(slow), _state(fast)
    assert type(slow.executor) is type(fast.executor)
    if type(fast.executor) is CallableExecutor:  # two CallableExecutors of the same callables
        assert (fast.executor._func, fast.executor._afunc) == (
            slow.executor._func,
            slow.executor._afunc,
        )
        for state in (slow_state, fast_state):
            del state["dict"]["executor"]
            state["repr_args"] = [(k, v) for k, v in state["repr_args"] if k != "executor"]
    assert fast_state == slow_state
    assert fast.conversion is slow.conversion
    assert fast.tool_call_schema == slow.tool_call_schema
    assert fast.input_json_schema is not args[2]  # copied, as validation does
    if kwargs.get("metadata") is not None:
        assert fast.metadata is not kwargs["metadata"]
    call = {"q": "hi"} if args[2] else {}
    assert asyncio.run(fast.ainvoke(call)) == asyncio.run(slow.ainvoke(call))


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"max_content_chars": 0}, "greater than 0"),
        ({"max_content_chars": "many"}, "valid integer"),
        ({"description": None}, "valid string"),
        ({"metadata": {1: "x"}}, "valid string"),
        ({"metadata": ["not", "a", "dict"]}, "valid dictionary"),
    ],
)
def test_from_schema_values_validation_refuses_are_still_refused(
    change: dict[str, Any], error: str
) -> None:
    args = {"name": "T", "description": "d", "input_schema": SCHEMA, "executor": echo}
    with pytest.raises(ValidationError, match=error):
        ToolRouterTool.from_schema(**{**args, **change})


def test_from_schema_values_validation_converts_are_still_converted() -> None:
    class Name(str):
        pass

    size: Any = 7.0
    tool = ToolRouterTool.from_schema(
        Name("N"), "d", MappingProxyType(SCHEMA), echo, max_content_chars=size, metadata={}
    )
    assert (type(tool.name), type(tool.slug), type(tool.max_content_chars)) == (str, str, int)
    assert (tool.name, tool.slug, tool.max_content_chars) == ("N", "N", 7)
    assert type(tool.input_json_schema) is dict
    assert tool.input_json_schema == SCHEMA
    assert "max_content_chars" in tool.model_fields_set


def test_from_schema_in_a_subclass_runs_its_init() -> None:
    seen: list[dict[str, Any]] = []

    class Sub(ToolRouterTool):
        def __init__(self, **kwargs: Any) -> None:
            seen.append(kwargs)
            super().__init__(**kwargs)

    tool = Sub.from_schema("T", "d", SCHEMA, echo)
    assert type(tool) is Sub
    assert seen[0]["slug"] == "T"


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"max_content_chars": 0}, "greater than 0"),
        ({"max_content_chars": "many"}, "valid integer"),
        ({"name": 7}, "valid string"),
        ({"description": None}, "valid string"),
        ({"metadata": {1: "x"}}, "valid string"),
        ({"metadata": ["not", "a", "dict"]}, "valid dictionary"),
    ],
)
def test_values_validation_refuses_are_still_refused(change: dict[str, Any], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        ToolRouterTool(**{**_session_kwargs(), **change})


def test_values_validation_converts_are_still_converted() -> None:
    class Name(str):
        pass

    tool = ToolRouterTool(**{**_session_kwargs(), "name": Name("N"), "max_content_chars": 7.0})
    assert type(tool.name) is str
    assert tool.name == "N"
    assert type(tool.max_content_chars) is int
    assert tool.max_content_chars == 7


def test_other_arguments_and_subclasses_are_validated() -> None:
    tool = ToolRouterTool(**_session_kwargs(), tags=["a"], return_direct=True)
    assert (tool.tags, tool.return_direct) == (["a"], True)
    assert {"tags", "return_direct"} <= tool.model_fields_set

    class Sub(ToolRouterTool):
        extra_field: int = 3

    sub = Sub(**_session_kwargs())
    assert sub.extra_field == 3
    assert sub.invoke({"q": "hi"}) == '{"q":"hi"}'


def test_a_constructed_tool_tracks_reassignment_like_any_tool() -> None:
    tool = ToolRouterTool._construct(**_session_kwargs())
    first = tool.tool_call_schema
    tool.description = "Something else."
    assert first != tool.tool_call_schema
    assert tool.tool_call_schema == {**tool.conversion.llm_schema, "description": "Something else."}
    copy = tool.model_copy(update={"name": "OTHER"})
    assert (copy.name, copy.conversion) == ("OTHER", tool.conversion)


# -- LangChain's introspection ------------------------------------------------------------


def test_langchain_finds_no_injected_args() -> None:
    tool = ToolRouterTool.from_schema("T", "d", SCHEMA, echo)
    if hasattr(BaseTool, "_injected_args_keys"):
        assert tool._injected_args_keys == frozenset()


class WithInjectedArg(ToolRouterTool):
    def _run(self, /, *args: Any, user: Annotated[str, InjectedToolArg] = "", **kwargs: Any) -> Any:
        return super()._run(*args, **kwargs)


def test_a_subclass_run_with_injected_args_gets_langchains_answer() -> None:
    if not hasattr(BaseTool, "_injected_args_keys"):
        pytest.skip("langchain-core before 1.1 has no _injected_args_keys to answer")
    tool = WithInjectedArg(
        name="T",
        slug="T",
        description="d",
        input_json_schema=SCHEMA,
        executor=CallableExecutor(echo),
    )
    assert tool._injected_args_keys == frozenset({"user"})


# -- executors ------------------------------------------------------------------------------


class Holder:
    def sync(self, payload: dict[str, Any]) -> Any:
        return payload

    async def asynchronous(self, payload: dict[str, Any]) -> Any:
        return payload


class AsyncCall:
    async def __call__(self, payload: dict[str, Any]) -> Any:
        return payload


class SyncCall:
    def __call__(self, payload: dict[str, Any]) -> Any:
        return payload


def _inspected(obj: Any) -> bool:
    """What `_is_async_callable` answered before its shortcut (and still must)."""
    return inspect.iscoroutinefunction(obj) or inspect.iscoroutinefunction(
        getattr(obj, "__call__", None)  # noqa: B004
    )


CALLABLES = [
    echo,
    aecho,
    Holder().sync,
    Holder().asynchronous,
    AsyncCall(),
    SyncCall(),
    functools.partial(aecho),
    functools.partial(echo),
    lambda payload: payload,
    print,
    staticmethod(aecho).__func__,
]


@pytest.mark.parametrize("obj", CALLABLES)
def test_async_detection_is_inspects(obj: Any) -> None:
    assert tools_module._is_async_callable(obj) is _inspected(obj)


@pytest.mark.parametrize("obj", CALLABLES)
@pytest.mark.parametrize("aexecutor", [None, aecho])
def test_resolved_executors_are_as_before(obj: Any, aexecutor: Any) -> None:
    """`_resolve_executor` reads functions itself; the answer is `_is_async_callable`'s."""
    if _inspected(obj) and aexecutor is not None:
        with pytest.raises(ValueError, match="already async"):
            tools_module._resolve_executor(obj, aexecutor)
        return
    resolved: Any = tools_module._resolve_executor(obj, aexecutor)
    assert type(resolved) is CallableExecutor
    if _inspected(obj):
        assert (resolved._func, resolved._afunc) == (None, obj)
    else:
        assert (resolved._func, resolved._afunc) == (obj, aexecutor)


def test_objects_with_execute_and_aexecute_are_executors() -> None:
    executor = Executor()
    assert tools_module._resolve_executor(executor, None) is executor
    with pytest.raises(TypeError, match="must be a callable or a ToolExecutor, got int"):
        tools_module._resolve_executor(3, None)


@pytest.mark.skipif(not hasattr(inspect, "markcoroutinefunction"), reason="Python 3.12+")
def test_marked_coroutine_functions_are_async() -> None:
    def marked(payload: dict[str, Any]) -> Any:
        return aecho(payload)

    inspect.markcoroutinefunction(marked)  # type: ignore[attr-defined,unused-ignore]
    assert tools_module._is_async_callable(marked) is True
    resolved: Any = tools_module._resolve_executor(marked, None)
    assert (resolved._func, resolved._afunc) == (None, marked)
    assert tools_module._is_async_callable(Holder().sync) is False


def test_a_function_with_execute_and_aexecute_is_an_executor_as_before() -> None:
    def odd(payload: dict[str, Any]) -> Any:
        return payload

    odd.execute = echo  # type: ignore[attr-defined]
    odd.aexecute = aecho  # type: ignore[attr-defined]
    resolved: Any = tools_module._resolve_executor(odd, None)
    assert resolved is odd
    assert tools_module._resolve_executor(Holder().sync, None) is not None
    Holder.sync.execute = echo  # type: ignore[attr-defined]
    Holder.sync.aexecute = aecho  # type: ignore[attr-defined]
    try:
        method: Any = Holder().sync
        assert tools_module._resolve_executor(method, None) is method
    finally:
        del Holder.sync.execute, Holder.sync.aexecute  # type: ignore[attr-defined]
    assert isinstance(tools_module._resolve_executor(echo, None), CallableExecutor)
    with pytest.raises(ValueError, match="already async"):
        tools_module._resolve_executor(Holder().asynchronous, aecho)


def test_run_introspection_answers_are_langchains() -> None:
    """LangChain finds no `run_manager` and no `RunnableConfig` parameter in `_run`/`_arun`
    (they take the tool call's id and the call's arguments), and a subclass declaring them
    still gets them."""
    from langchain_core.tools.base import _get_runnable_config_param

    signature = pytest.importorskip(
        "langchain_core.utils._signature", reason="langchain-core without _signature_parameters"
    )
    _signature_parameters = signature._signature_parameters

    tool = ToolRouterTool.from_schema("T", "d", SCHEMA, echo)
    for method in (tool._run, tool._arun):
        parameters = _signature_parameters(method)
        assert [(p.name, p.kind) for p in parameters.values()] == [
            ("tool_call_id", inspect.Parameter.POSITIONAL_ONLY),
            ("arguments", inspect.Parameter.POSITIONAL_ONLY),
            ("args", inspect.Parameter.VAR_POSITIONAL),
            ("kwargs", inspect.Parameter.VAR_KEYWORD),
        ]
        assert _get_runnable_config_param(method) is None
        assert RunnableConfig not in get_type_hints(method).values()

    seen: list[Any] = []

    class WithRunArgs(ToolRouterTool):
        def _run(
            self,
            /,
            *args: Any,
            run_manager: CallbackManagerForToolRun | None = None,
            config: RunnableConfig,
            **kwargs: Any,
        ) -> Any:
            seen.append((run_manager, config))
            return super()._run(*args, **kwargs)

    sub = WithRunArgs(
        name="T",
        slug="T",
        description="d",
        input_json_schema=SCHEMA,
        executor=CallableExecutor(echo),
    )
    assert sub.invoke({"q": "hi"}) == '{"q":"hi"}'
    assert isinstance(seen[0][0], CallbackManagerForToolRun)
    assert isinstance(seen[0][1], dict)  # the RunnableConfig


def test_run_and_arun_with_config_and_tool_call() -> None:
    tool = ToolRouterTool.from_schema("T", "d", SCHEMA, echo, aexecutor=aecho)
    call = {"type": "tool_call", "id": "c1", "name": "T", "args": {"q": "hi", "from": 1}}
    message = tool.invoke(call, config={"tags": ["t"]})
    amessage = asyncio.run(tool.ainvoke(call, config={"tags": ["t"]}))
    assert message.content == amessage.content == '{"q":"hi","from":1}'


# -- a property named `$ref` ----------------------------------------------------------------

DOLLAR_REF = {
    "type": "object",
    "properties": {
        "$ref": {"type": "string"},
        "inner": {"type": "object", "properties": {"$ref": {"type": "integer"}}},
    },
    "required": ["$ref"],
}


def test_a_property_named_dollar_ref_is_kept_and_sent_exactly() -> None:
    sent: list[dict[str, Any]] = []

    def record(payload: dict[str, Any]) -> Any:
        sent.append(payload)
        return {}

    tool = ToolRouterTool.from_schema("T", "d", DOLLAR_REF, record)
    schema = tool.tool_call_schema
    assert isinstance(schema, dict)
    assert list(schema["properties"]) == ["$ref", "inner"]
    assert "$ref" in schema["properties"]["inner"]["properties"]
    assert schema["required"] == ["$ref"]
    tool.invoke({"$ref": "main", "inner": {"$ref": 3}})
    assert sent == [{"$ref": "main", "inner": {"$ref": 3}}]


def test_the_openai_format_workaround_keeps_dollar_ref() -> None:
    """What tools.py's docstring gives for LangChain's `$ref` limitation."""
    tool = ToolRouterTool.from_schema("T", "d", DOLLAR_REF, echo)
    formatted = {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.tool_call_schema,
        },
    }
    parameters = convert_to_openai_tool(formatted)["function"]["parameters"]
    assert parameters == tool.tool_call_schema


@pytest.mark.xfail(
    strict=True,
    raises=TypeError,
    reason="langchain-core's dereference_refs reads a property named $ref as a reference "
    "(unhashable type: 'dict'); see tools.py's docstring",
)
def test_langchain_converts_a_property_named_dollar_ref() -> None:
    tool = ToolRouterTool.from_schema("T", "d", DOLLAR_REF, echo)
    parameters = convert_to_openai_tool(tool)["function"]["parameters"]
    assert list(parameters["properties"]) == ["$ref", "inner"]
