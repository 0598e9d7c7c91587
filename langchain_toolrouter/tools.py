"""`ToolRouterTool`: one Tool Router tool (or any JSON-schema tool) as a LangChain tool.

The model-facing parameters are the schema layer's `llm_schema`, a JSON Schema dict that keeps
every original property name (`from`, `first name`, `config`, ...). LangChain's own
`tool_call_schema` would drop pydantic fields whose names are not identifiers, and `BaseTool.run`
strips or injects arguments named `config`, `callbacks` and `run_manager` when `_run` declares
them; so `args_schema` is that dict, `_run`/`_arun` take the tool call's id and then only
`**kwargs` (they never ask LangChain to inject anything; `_to_args_and_kwargs` hands them the
id, so that an error answer carries its artifact), and validation is done here with
`Conversion.validate`, which returns exactly the payload to send.

Who runs the call is an executor: a session's `ToolCall` (the service, or a local custom
tool), or any callable given to `ToolRouterTool.from_schema`. Sessions and `from_schema`
build tools with pydantic's `model_construct` from values already in the form validation
keeps (`_construct`); anything else goes through validation.

LangChain limitation (langchain-core 1.7, `convert_to_openai_tool`, which `bind_tools` of
most chat models uses): it passes the tool's `tool_call_schema` through
`langchain_core.utils.json_schema.dereference_refs`, which takes EVERY dict that has a
`"$ref"` key for a JSON Schema reference, whatever its position. So:

* a property literally named `$ref` (at any depth: `{"properties": {"$ref": {...}}}`) makes
  it read the property's schema as the reference and fail with
  `TypeError: unhashable type: 'dict'` (`ref_path in processed_refs`);
* a `default`/`const`/`enum`/`examples` value that is an object with a `"$ref"` key fails
  with `KeyError: "Reference '...' not found."`, or is replaced by what the pointer names;
* a recursive schema (our `llm_schema` keeps `$defs` and `$ref` there) is inlined until a
  reference would repeat, and that one becomes `{}` (anything); `$defs` are dropped.

The tool itself is right in all three cases (`tool_call_schema` keeps every name, calls are
validated and sent exactly); only LangChain's conversion is wrong, and a tool cannot avoid
it without changing the names the model sees (dict views that hide the key from `in` would
break that key's lookups for every other reader). Workaround: bind the tool already in
OpenAI's format, which `convert_to_openai_tool` passes through unchanged:
`{"type": "function", "function": {"name": tool.name, "description": tool.description,
"parameters": tool.tool_call_schema}}`. `test_tool_construction.py` pins both the failure
(a strict xfail, so a LangChain fix shows) and the workaround.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import re
from collections.abc import Awaitable, Callable, Mapping
from types import FunctionType, MethodType
from typing import Annotated, Any, Literal, Protocol, cast

from langchain_core.messages import ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import run_in_executor
from langchain_core.tools import BaseTool, ToolException
from pydantic import BaseModel as PydanticBaseModel
from pydantic import ConfigDict, Field, PrivateAttr, SkipValidation

from langchain_toolrouter._answers import (
    DEFAULT_MAX_CONTENT_CHARS,
    ToolArgumentsError,
    ToolExecutionError,
    cut_text,
    error_artifact,
    render_content,
)
from langchain_toolrouter._blocking import run_coroutine_sync
from langchain_toolrouter.schema import (
    ArgsValidationError,
    Conversion,
    ConversionOptions,
    json_schema_to_model,
)
from langchain_toolrouter.types import ToolOutcome

__all__ = ["CALL_ID", "NameStyle", "ToolExecutor", "ToolRouterTool", "tool_name_for"]

CALL_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "langchain_toolrouter_call_id", default=None
)
"""The id of the tool call a `ToolRouterTool` is running (for its executor: a LangGraph run
keeps a record of each call, `_session.runs`)."""

NameStyle = Literal["exact", "safe"]
"""How a slug becomes a tool name: `"exact"` keeps it; `"safe"` fits every major provider."""

_CO_COROUTINE = inspect.CO_COROUTINE

_SAFE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
_UNSAFE_CHARS = re.compile(r"[^A-Za-z0-9_-]")


def tool_name_for(slug: str, style: NameStyle | str = "exact") -> str:
    """The tool name the model sees for `slug`.

    `"safe"` replaces characters outside `[A-Za-z0-9_-]` with `_`, prefixes `_` when the
    name does not start with a letter or `_` (Gemini's rule), and shortens names over 64
    characters (OpenAI's limit) keeping a stable hash suffix so two long slugs stay distinct.
    """
    if style == "exact":
        return slug
    if style != "safe":
        msg = f"name_style must be 'exact' or 'safe', got {style!r}"
        raise ValueError(msg)
    if _SAFE_NAME.match(slug):
        return slug
    name = _UNSAFE_CHARS.sub("_", slug) or "_"
    if not (name[0].isalpha() or name[0] == "_"):
        name = "_" + name
    if len(name) > 64:
        import hashlib

        digest = hashlib.sha256(slug.encode()).hexdigest()[:8]
        name = f"{name[:55]}_{digest}"
    return name


class ToolExecutor(Protocol):
    """Runs one tool call with exactly the validated payload; the sync and async paths are native."""

    def execute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Run the call on the current thread."""
        ...

    async def aexecute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Run the call on the running event loop."""
        ...


SyncExecutorFn = Callable[[dict[str, Any]], Any]
AsyncExecutorFn = Callable[[dict[str, Any]], Awaitable[Any]]


class CallableExecutor:
    """Adapts plain callables (sync, async, or one of each) to `ToolExecutor`.

    A callable's return value is the tool's data; a `ToolOutcome` is taken as is; raising a
    `ToolException` reports an error to the model; any other exception propagates.
    """

    __slots__ = ("_afunc", "_func")

    def __init__(
        self, func: SyncExecutorFn | None = None, afunc: AsyncExecutorFn | None = None
    ) -> None:
        if func is None and afunc is None:
            msg = "give an executor: a sync callable, an async callable, or both"
            raise ValueError(msg)
        self._func = func
        self._afunc = afunc

    def execute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Call the sync callable; an async-only executor runs to completion on an event loop
        of its own (as an async custom tool does: `_blocking`)."""
        if self._func is None:
            afunc = cast("AsyncExecutorFn", self._afunc)
            return _as_outcome(run_coroutine_sync(lambda: _awaited(afunc(payload))))
        return _as_outcome(self._func(payload))

    async def aexecute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Await the async callable, or run the sync one in the default executor."""
        if self._afunc is not None:
            return _as_outcome(await self._afunc(payload))
        func = cast("SyncExecutorFn", self._func)
        return _as_outcome(await run_in_executor(None, func, payload))


def _resolve_executor(executor: Any, aexecutor: AsyncExecutorFn | None) -> ToolExecutor:
    """A `ToolExecutor` from what `from_schema` was given."""
    func = executor.__func__ if type(executor) is MethodType else executor
    if type(func) is FunctionType:
        # What `hasattr` and `_is_async_callable` would read, read once: a function's
        # attributes are its `__dict__` (a bound method's are its function's), nearly
        # always empty; async is the code flag or `inspect.markcoroutinefunction`'s marker.
        attrs = func.__dict__
        is_async = bool(func.__code__.co_flags & _CO_COROUTINE)
        if attrs:  # rare: a plain function's attributes are empty
            if "execute" in attrs and "aexecute" in attrs:
                return executor  # type: ignore[no-any-return]
            is_async = is_async or (
                "_is_coroutine_marker" in attrs and inspect.iscoroutinefunction(func)
            )
    elif hasattr(executor, "execute") and hasattr(executor, "aexecute"):
        return executor  # type: ignore[no-any-return]
    else:
        is_async = _is_async_callable(executor)
    if is_async:
        if aexecutor is not None:
            msg = "executor is already async; pass a sync callable as executor with aexecutor"
            raise ValueError(msg)
        return CallableExecutor(afunc=executor)
    if callable(executor):
        return CallableExecutor(executor, aexecutor)
    msg = f"executor must be a callable or a ToolExecutor, got {type(executor).__name__}"
    raise TypeError(msg)


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


def _as_outcome(value: Any) -> ToolOutcome:
    if isinstance(value, ToolOutcome):
        return value
    return ToolOutcome(successful=True, data=value)


def _is_async_callable(obj: Any) -> bool:
    # A plain function, or a bound method of one: read what `inspect.iscoroutinefunction`
    # reads (the code flag, or the marker `inspect.markcoroutinefunction` puts in the
    # function's `__dict__`) without its generic unwrapping, a few us per tool; their
    # `__call__` is a method-wrapper, never async.
    func = obj.__func__ if type(obj) is MethodType else obj
    if type(func) is FunctionType:
        return bool(func.__code__.co_flags & _CO_COROUTINE) or (
            "_is_coroutine_marker" in func.__dict__ and inspect.iscoroutinefunction(func)
        )
    return inspect.iscoroutinefunction(obj) or inspect.iscoroutinefunction(
        getattr(obj, "__call__", None)  # noqa: B004 - looking for an async __call__
    )


class ToolRouterTool(BaseTool):
    """A Composio Tool Router tool (or any JSON-schema tool) for LangChain agents.

    Setup:
        Install `langchain-toolrouter` and set `COMPOSIO_API_KEY` (or run the emulator).

        ```bash
        pip install -U langchain-toolrouter
        ```

    Instantiation:
        Tools normally come from a session; `from_schema` wraps any JSON-schema tool.

        ```python
        from langchain_toolrouter import ToolRouter, ToolRouterTool

        with ToolRouter() as router:
            session = router.create_session("user-1", toolkits=["github"])
            tools = session.get_tools()

        echo = ToolRouterTool.from_schema(
            "echo",
            "Repeat a text.",
            {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            lambda payload: {"echo": payload["text"]},
        )
        ```

    Invocation with args:
        ```python
        echo.invoke({"text": "hi"})
        # '{"echo":"hi"}'
        ```

    Invocation with ToolCall:
        ```python
        echo.invoke({"args": {"text": "hi"}, "id": "1", "name": echo.name, "type": "tool_call"})
        # ToolMessage(content='{"echo":"hi"}', name='echo', tool_call_id='1',
        #             artifact={'successful': True, 'data': {'echo': 'hi'}, ...})
        ```

    Errors the model can act on (bad arguments, a failed tool, a missing connection, rate
    limits, an unreachable service) come back as an error `ToolMessage` whose artifact holds
    the same facts as data (`error_type`, `log_id`, `redirect_url`, ...); a multi-execute in
    which only some items failed is a normal answer listing each item's outcome. Set
    `handle_tool_error=False` (or `raise_errors=True` where tools are built) to get the
    `ToolRouterToolError` instead.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    slug: str
    """The tool's slug at the service (the name the executor is called with)."""
    input_json_schema: dict[str, Any] = Field(default_factory=dict)
    """The tool's original input JSON Schema (as the service or the caller gave it)."""
    executor: Annotated[Any, SkipValidation()] = Field(exclude=True)
    """The `ToolExecutor` that runs calls."""
    schema_options: Annotated[Any, SkipValidation()] = Field(default=None, exclude=True)
    """`ConversionOptions` for the model-facing schema (e.g. a strict provider)."""
    max_content_chars: int = Field(default=DEFAULT_MAX_CONTENT_CHARS, gt=0)
    """Cap on the text the model reads per call; the artifact always holds everything."""
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    """The model reads compact text; the artifact is the full result (with `log_id`)."""
    handle_tool_error: Any = True
    """Errors the model can act on become error `ToolMessage`s (False: they are raised)."""

    _conversion: Conversion | None = PrivateAttr(default=None)

    def __init__(self, **kwargs: Any) -> None:
        schema = kwargs.get("input_json_schema")
        if type(schema) is not dict and not isinstance(schema, Mapping):
            msg = (
                "ToolRouterTool needs input_json_schema, the tool's input JSON Schema as a dict, "
                f"got {type(schema).__name__}"
            )
            raise TypeError(msg)
        conversion = json_schema_to_model(
            schema,
            name=str(kwargs.get("slug") or kwargs.get("name")),
            options=kwargs.get("schema_options"),
        )
        kwargs.setdefault("args_schema", conversion.llm_schema)
        super().__init__(**kwargs)
        self._conversion = conversion

    @classmethod
    def _construct(
        cls,
        *,
        name: str,
        slug: str,
        description: str,
        input_json_schema: Mapping[str, Any],
        executor: ToolExecutor,
        metadata: dict[str, Any] | None,
        schema_options: ConversionOptions | None,
        max_content_chars: int,
        handle_tool_error: bool,
    ) -> ToolRouterTool:
        """What `cls(...)` builds from these, without pydantic's validation (most of the cost
        of a tool), for values that are already what validation would keep: sessions and
        `from_schema` give exact `str`s, dicts with `str` keys and a positive `int`. The tool
        is a `model_copy` of a prototype made once with `model_construct`: every other field
        keeps its default, which is immutable (`None`, a bool, a str), so copies share nothing
        they could change.

        Raises:
            SchemaConversionError: the schema is not an object schema.
        """
        conversion = json_schema_to_model(
            input_json_schema, name=slug or name, options=schema_options
        )
        tool: ToolRouterTool = _prototype(cls).model_copy(
            update={
                "name": name,
                "slug": slug,
                "description": description,
                "args_schema": conversion.llm_schema,
                "input_json_schema": dict(input_json_schema),
                "executor": executor,
                "metadata": None if metadata is None else dict(metadata),
                "schema_options": schema_options,
                "max_content_chars": max_content_chars,
                "handle_tool_error": handle_tool_error,
            }
        )
        tool._conversion = conversion
        return tool

    @classmethod
    def from_schema(
        cls,
        name: str,
        description: str,
        input_schema: Mapping[str, Any],
        executor: SyncExecutorFn | AsyncExecutorFn | ToolExecutor,
        *,
        aexecutor: AsyncExecutorFn | None = None,
        metadata: dict[str, Any] | None = None,
        name_style: NameStyle = "exact",
        schema_options: ConversionOptions | None = None,
        max_content_chars: int = DEFAULT_MAX_CONTENT_CHARS,
        raise_errors: bool = False,
    ) -> ToolRouterTool:
        """Build a tool from any `(name, description, input_schema)` and an executor.

        Args:
            name: The tool's name (also its slug); see `name_style`.
            description: What the model reads about the tool.
            input_schema: The input JSON Schema (an object schema).
            executor: Receives exactly the validated payload (a dict with the original
                property names). A sync or async callable, or a `ToolExecutor`. Its return
                value is the tool's data; raise `ToolException` to report an error.
            aexecutor: An async callable used by `ainvoke` when `executor` is sync.
            metadata: LangChain metadata for the tool.
            name_style: `"exact"` (default) or `"safe"` for providers that reject characters.
            schema_options: `ConversionOptions`, e.g. `ConversionOptions(strict_provider="openai")`.
            max_content_chars: Cap on the text the model reads per call.
            raise_errors: Raise `ToolRouterToolError` instead of answering the model.
        """
        resolved = _resolve_executor(executor, aexecutor)
        tool_name = tool_name_for(name, name_style)
        arguments: dict[str, Any] = {
            "name": tool_name,
            "slug": name,
            "description": description,
            "input_json_schema": input_schema,
            "executor": resolved,
            "metadata": metadata,
            "schema_options": schema_options,
            "max_content_chars": max_content_chars,
            "handle_tool_error": not raise_errors,
        }
        if cls is ToolRouterTool and _plain(arguments):
            return cls._construct(**arguments)
        return cls(**arguments)

    @property
    def conversion(self) -> Conversion:
        """The schema layer's conversion of `input_json_schema` (model built lazily)."""
        if self._conversion is None:  # a copy made without __init__
            self._conversion = json_schema_to_model(
                self.input_json_schema, name=self.slug, options=self.schema_options
            )
        return self._conversion

    def get_input_schema(self, config: RunnableConfig | None = None) -> type[PydanticBaseModel]:
        """The pydantic args model from the schema layer (built on first use)."""
        return self.conversion.model

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Check `arguments` against the schema; return exactly the payload that will be sent.

        Raises:
            ToolArgumentsError: naming each bad field path and what was expected.
        """
        # An executor with rules of its own (a session's custom tool: arguments only the
        # application may set, a function's parameter types) applies them too; when both
        # refuse, its text wins, so the model reads one error whichever way the call is made.
        check = getattr(self.executor, "check_arguments", None)
        try:
            payload = self.conversion.validate(dict(arguments))
        except ArgsValidationError as exc:
            if check is not None:
                check(dict(arguments), schema_checked=False)
            raise ToolArgumentsError(tool=self.name, errors=exc.errors, detail=str(exc)) from exc
        if check is not None:
            check(payload, schema_checked=True)  # the payload strict-mode nulls were taken from
        return payload

    def invoke(
        self,
        input: str | dict[str, Any] | ToolCall,
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> Any:
        """LangChain's `invoke`; a tool call whose `args` is not an object is answered as
        invalid arguments (LangChain itself fails on it with an `AttributeError`)."""
        if _is_malformed_call(input):
            return self._malformed(input)
        return super().invoke(input, config, **kwargs)

    async def ainvoke(
        self,
        input: str | dict[str, Any] | ToolCall,
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> Any:
        """Async twin of `invoke`."""
        if _is_malformed_call(input):
            return self._malformed(input)
        return await super().ainvoke(input, config, **kwargs)

    def _malformed(self, call: Any) -> ToolMessage:
        """The error answer to a tool call whose `args` is not a JSON object."""
        exc = ToolArgumentsError(
            tool=self.name,
            errors=[
                {
                    "path": "",
                    "message": f"the tool call's args is {type(call['args']).__name__}",
                    "expected": "an object of named arguments",
                }
            ],
            detail="",
        )
        answer = self._error_message(exc, call.get("id"))
        if answer is not None:
            return answer[0]
        flag = self.handle_tool_error
        if not flag:
            raise exc
        content = flag if isinstance(flag, str) else flag(exc) if callable(flag) else str(exc)
        return ToolMessage(
            content=content, tool_call_id=call.get("id") or "", name=self.name, status="error"
        )

    def _to_args_and_kwargs(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """`_run`'s arguments: the tool call's id (so that an error answer carries its
        artifact), then the call's arguments as one dict, as given (validated in `_run` by the
        schema layer, which names a key that is not a string; spread as keywords, such a key
        would fail before our code sees it). A string input is refused as LangChain refuses it
        for a JSON-schema tool."""
        if not isinstance(tool_input, dict):
            return super()._to_args_and_kwargs(tool_input, tool_call_id)
        return (tool_call_id, dict(tool_input)), {}

    def _run(
        self,
        tool_call_id: str | None = None,
        arguments: dict[str, Any] | None = None,
        /,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        token = CALL_ID.set(tool_call_id)
        try:
            payload = self.validate_arguments(_arguments(self.name, arguments, args, kwargs))
            return self._respond(self.executor.execute(payload))
        except ToolException as exc:
            answer = self._error_message(exc, tool_call_id)
            if answer is None:
                raise
            return answer
        finally:
            CALL_ID.reset(token)

    async def _arun(
        self,
        tool_call_id: str | None = None,
        arguments: dict[str, Any] | None = None,
        /,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        token = CALL_ID.set(tool_call_id)
        try:
            payload = self.validate_arguments(_arguments(self.name, arguments, args, kwargs))
            return self._respond(await self.executor.aexecute(payload))
        except ToolException as exc:
            answer = self._error_message(exc, tool_call_id)
            if answer is None:
                raise
            return answer
        finally:
            CALL_ID.reset(token)

    def _error_message(
        self, exc: ToolException, call_id: str | None
    ) -> tuple[ToolMessage, None] | None:
        """The error `ToolMessage` with an artifact, or `None` to let LangChain handle `exc`.

        LangChain's own error handling only sets the text; with a tool call (so a message is
        answered) and `content_and_artifact`, the message is built here instead, with
        `status="error"` and `error_artifact(exc)` (e.g. the connect link, the `log_id`).
        `handle_tool_error` keeps its meaning: falsy raises, a string or callable sets the text.
        """
        flag = self.handle_tool_error
        if not flag or call_id is None or self.response_format != "content_and_artifact":
            return None
        if isinstance(flag, str):
            content: Any = flag
        elif callable(flag):
            content = flag(exc)
        else:
            content = exc.args[0] if exc.args else "Tool execution error"
        message = ToolMessage(
            content=content,
            artifact=error_artifact(exc),
            tool_call_id=call_id,
            name=self.name,
            status="error",
        )
        return message, None

    def _respond(self, outcome: ToolOutcome) -> str | tuple[str, dict[str, Any]]:
        """The compact text (and, by default, the full result as the artifact).

        A failed outcome is an error, except a multi-execute in which some items succeeded:
        the model reads every item's result (with a line saying which failed) and can act on
        the successes, so it is a normal answer; the artifact still says `successful: false`.
        """
        if not outcome.successful and not _partly_successful(outcome.data):
            raise ToolExecutionError(
                _failure_text(self.name, outcome, self.max_content_chars),
                tool=self.name,
                result=outcome.as_dict(),
            )
        content = render_content(outcome.data, self.max_content_chars)
        if not outcome.successful:
            content = f"{outcome.error or 'some tools failed'}; the others succeeded.\n{content}"
        if self.response_format == "content":
            return content
        return content, outcome.as_dict()

    def __repr__(self) -> str:
        return f"ToolRouterTool(name={self.name!r}, slug={self.slug!r})"

    def _repr_html_(self) -> str:
        from langchain_toolrouter._display import tools_html

        return tools_html([self])


@functools.cache
def _prototype(cls: type[ToolRouterTool]) -> ToolRouterTool:
    """A tool of `cls` with every field `_construct` sets, never used itself (its private
    state, such as LangChain's schema memo, stays empty for the copies)."""
    return cls.model_construct(
        name="",
        slug="",
        description="",
        args_schema={},
        input_json_schema={},
        executor=None,
        metadata=None,
        schema_options=None,
        max_content_chars=DEFAULT_MAX_CONTENT_CHARS,
        handle_tool_error=True,
    )


def _plain(arguments: Mapping[str, Any]) -> bool:
    """Whether `from_schema`'s values are already what validation would keep (exact `str`s,
    dicts with `str` keys, a positive `int`), so the tool can be built without it."""
    schema, metadata, size = (
        arguments["input_json_schema"],
        arguments["metadata"],
        arguments["max_content_chars"],
    )
    return (
        type(arguments["name"]) is str
        and type(arguments["slug"]) is str
        and type(arguments["description"]) is str
        and type(schema) is dict
        and all(type(key) is str for key in schema)
        and (metadata is None or (type(metadata) is dict and all(type(k) is str for k in metadata)))
        and type(size) is int
        and size > 0
        and (
            arguments["schema_options"] is None
            or isinstance(arguments["schema_options"], ConversionOptions)
        )
    )


def _is_malformed_call(input: object) -> bool:
    """A tool call whose `args` is not a JSON object (LangChain cannot even start it)."""
    return (
        isinstance(input, dict)
        and input.get("type") == "tool_call"
        and "args" in input
        and not isinstance(input["args"], dict)
    )


def _arguments(
    name: str, arguments: dict[str, Any] | None, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any]:
    """The call's arguments: the dict `_to_args_and_kwargs` passed, or the keywords of a
    direct `_run(**arguments)` call."""
    if args:
        msg = (
            f"{name} takes its arguments as a dict (JSON object) matching its schema, "
            f"got {len(args)} more positional value(s)"
        )
        raise TypeError(msg)
    if arguments is None:
        return kwargs
    return {**arguments, **kwargs} if kwargs else arguments


def _partly_successful(data: Any) -> bool:
    """True for a multi-execute answer (`{results: [{response: {successful}}]}`) in which at
    least one item succeeded."""
    results = data.get("results") if isinstance(data, Mapping) else None
    if not isinstance(results, list):
        return False
    return any(
        isinstance(item, Mapping)
        and isinstance(item.get("response"), Mapping)
        and item["response"].get("successful") is True
        for item in results
    )


def _failure_text(name: str, outcome: ToolOutcome, max_chars: int) -> str:
    """What the model reads of a failure, within `max_chars` like a result: the error first,
    then as much of the failed call's data as still fits."""
    text = f"{name} failed: " + cut_text(outcome.error or "unknown error", max_chars)
    if outcome.data not in (None, {}, [], ""):
        left = max(max_chars - len(text), 0)
        text += "\nResult: " + render_content(outcome.data, left)
    if outcome.log_id:
        text += f"\n(log_id: {outcome.log_id})"
    return text
