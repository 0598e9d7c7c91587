"""`ToolRouterTool`: one Tool Router tool (or any JSON-schema tool) as a LangChain tool.

The model-facing parameters are the schema layer's `llm_schema`, a JSON Schema dict that keeps
every original property name (`from`, `first name`, `config`, ...). LangChain's own
`tool_call_schema` would drop pydantic fields whose names are not identifiers, and `BaseTool.run`
strips or injects arguments named `config`, `callbacks` and `run_manager` when `_run` declares
them; so `args_schema` is that dict, `_run`/`_arun` take only `**kwargs` (they never ask
LangChain to inject anything), and validation is done here with `Conversion.validate`, which
returns exactly the payload to send.

Who runs the call is an executor: the session's (the service, or a local custom tool), or
any callable given to `ToolRouterTool.from_schema`.

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

import inspect
import re
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from types import FunctionType, MethodType
from typing import Annotated, Any, Literal, Protocol, cast, get_type_hints

from langchain_core.messages import ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import run_in_executor
from langchain_core.tools import BaseTool, ToolException
from pydantic import BaseModel as PydanticBaseModel
from pydantic import ConfigDict, Field, PrivateAttr, SkipValidation

from langchain_toolrouter._results import (
    DEFAULT_MAX_CONTENT_CHARS,
    ToolOutcome,
    cut_text,
    render_content,
)
from langchain_toolrouter._tool_errors import (
    ToolArgumentsError,
    ToolExecutionError,
    ToolNotConnectedError,
    ToolRateLimitError,
    ToolRouterToolError,
    ToolServiceError,
    ToolTransportError,
    error_artifact,
)
from langchain_toolrouter.schema import (
    ArgsValidationError,
    Conversion,
    ConversionOptions,
    json_schema_to_model,
)

__all__ = [
    "NameStyle",
    "ToolArgumentsError",
    "ToolExecutionError",
    "ToolExecutor",
    "ToolNotConnectedError",
    "ToolRateLimitError",
    "ToolRouterTool",
    "ToolRouterToolError",
    "ToolServiceError",
    "ToolTransportError",
    "tool_name_for",
]

_TOOL_CALL_ID: ContextVar[str | None] = ContextVar("toolrouter_tool_call_id", default=None)
"""The id of the tool call being run (set by `run`/`arun`, read when answering an error)."""

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
        """Call the sync callable; an async-only executor cannot be run from sync code."""
        if self._func is None:
            msg = (
                "this tool has only an async executor: call it with ainvoke()/arun(), "
                "or pass a sync executor as well"
            )
            raise NotImplementedError(msg)
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
        options = kwargs.get("schema_options")
        conversion = json_schema_to_model(
            schema, name=str(kwargs.get("slug") or kwargs.get("name")), options=options
        )
        kwargs.setdefault("args_schema", conversion.llm_schema)
        if type(self) is ToolRouterTool and _fast_init(self, kwargs, conversion):
            return
        super().__init__(**kwargs)
        self.__pydantic_private__["_conversion"] = conversion  # type: ignore[index]

    @property
    def _injected_args_keys(self) -> frozenset[str]:
        """No argument is ever injected: `_run`/`_arun` take only `**kwargs`.

        LangChain computes this per tool instance (on the first call) from the type hints of
        `_run`, a few hundred us each; with our own `_run`/`_arun` the answer is always
        empty. A subclass that overrides either gets LangChain's inspection.
        """
        cls = type(self)
        if cls._run is ToolRouterTool._run and cls._arun is ToolRouterTool._arun:
            return _NO_INJECTED_ARGS
        return BaseTool._injected_args_keys.func(self)  # type: ignore[attr-defined,no-any-return]

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
        if (
            cls is ToolRouterTool
            and type(name) is str
            and type(input_schema) is dict
            and type(description) is str
            and type(max_content_chars) is int
            and max_content_chars > 0
            and (plan := _PLAN or _init_plan()).usable
            and _STR_ONLY.issuperset(map(type, input_schema))  # keys exactly `str`
            and (
                metadata is None
                or (type(metadata) is dict and _STR_ONLY.issuperset(map(type, metadata)))
            )
        ):
            # What `cls(...)` below gives, built directly: the arguments are all of
            # `_FAST_ARGS` and each is a value validation keeps as is (see `_fast_init`).
            conversion = json_schema_to_model(
                input_schema, name=name or tool_name, options=schema_options
            )
            args_schema = conversion.llm_schema
            if type(args_schema) is dict:
                tool = object.__new__(ToolRouterTool)
                values = plan.defaults.copy()  # field order
                values["name"] = tool_name
                values["description"] = description
                values["args_schema"] = args_schema
                values["metadata"] = None if metadata is None else dict(metadata)
                values["handle_tool_error"] = not raise_errors
                values["slug"] = name
                values["input_json_schema"] = dict(input_schema)
                values["executor"] = resolved
                values["schema_options"] = schema_options
                values["max_content_chars"] = max_content_chars
                _install_state(tool, values, set(_FAST_ARGS), plan, conversion)
                return tool
        return cls(
            name=tool_name,
            slug=name,
            description=description,
            input_json_schema=input_schema,
            executor=resolved,
            metadata=metadata,
            schema_options=schema_options,
            max_content_chars=max_content_chars,
            handle_tool_error=not raise_errors,
        )

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
        malformed = self._malformed_call(input)
        if malformed is not None:
            return malformed
        return super().invoke(input, config, **kwargs)

    async def ainvoke(
        self,
        input: str | dict[str, Any] | ToolCall,
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> Any:
        """Async twin of `invoke`."""
        malformed = self._malformed_call(input)
        if malformed is not None:
            return malformed
        return await super().ainvoke(input, config, **kwargs)

    def _malformed_call(self, input: object) -> ToolMessage | None:
        """The error answer to a tool call whose `args` is not a JSON object, else `None`."""
        if not (
            isinstance(input, dict)
            and input.get("type") == "tool_call"
            and "args" in input
            and not isinstance(input["args"], dict)
        ):
            return None
        exc = ToolArgumentsError(
            tool=self.name,
            errors=[
                {
                    "path": "",
                    "message": f"the tool call's args is {type(input['args']).__name__}",
                    "expected": "an object of named arguments",
                }
            ],
            detail="",
        )
        token = _TOOL_CALL_ID.set(input.get("id"))
        try:
            answer = self._error_message(exc)
        finally:
            _TOOL_CALL_ID.reset(token)
        if answer is not None:
            return answer[0]
        flag = self.handle_tool_error
        if not flag:
            raise exc
        content = flag if isinstance(flag, str) else flag(exc) if callable(flag) else str(exc)
        return ToolMessage(
            content=content, tool_call_id=input.get("id") or "", name=self.name, status="error"
        )

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """LangChain's `run`, remembering the tool call's id so that errors answered to the
        model carry an artifact too (see `_error_message`)."""
        token = _TOOL_CALL_ID.set(kwargs.get("tool_call_id"))
        try:
            return super().run(*args, **kwargs)
        finally:
            _TOOL_CALL_ID.reset(token)

    async def arun(self, *args: Any, **kwargs: Any) -> Any:
        """Async twin of `run`."""
        token = _TOOL_CALL_ID.set(kwargs.get("tool_call_id"))
        try:
            return await super().arun(*args, **kwargs)
        finally:
            _TOOL_CALL_ID.reset(token)

    def _run(self, /, *args: Any, **kwargs: Any) -> Any:
        try:
            payload = self.validate_arguments(_only_kwargs(self.name, args, kwargs))
            return self._respond(self.executor.execute(payload))
        except ToolException as exc:
            answer = self._error_message(exc)
            if answer is None:
                raise
            return answer

    async def _arun(self, /, *args: Any, **kwargs: Any) -> Any:
        try:
            payload = self.validate_arguments(_only_kwargs(self.name, args, kwargs))
            return self._respond(await self.executor.aexecute(payload))
        except ToolException as exc:
            answer = self._error_message(exc)
            if answer is None:
                raise
            return answer

    def _error_message(self, exc: ToolException) -> tuple[ToolMessage, None] | None:
        """The error `ToolMessage` with an artifact, or `None` to let LangChain handle `exc`.

        LangChain's own error handling only sets the text; with a tool call (so a message is
        answered) and `content_and_artifact`, the message is built here instead, with
        `status="error"` and `error_artifact(exc)` (e.g. the connect link, the `log_id`).
        `handle_tool_error` keeps its meaning: falsy raises, a string or callable sets the text.
        """
        call_id = _TOOL_CALL_ID.get()
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


_NO_INJECTED_ARGS: frozenset[str] = frozenset()


def _resolve_run_introspection() -> None:
    """Give `_run`/`_arun` their resolved annotations and signature, once.

    At every call LangChain's `run`/`arun` looks at the signature of `_run` (or `_arun`)
    for `run_manager` and at its type hints for a `RunnableConfig` parameter. Under
    `from __future__ import annotations` the hints are strings compiled and evaluated anew
    each time, and the bound method is a new object, so nothing is cached: about half of
    a call's overhead. The answers (no such parameter) stay the same; only the work goes.
    """
    for method in (ToolRouterTool._run, ToolRouterTool._arun):
        target = cast("Any", method)
        target.__annotations__ = get_type_hints(method)
        target.__signature__ = inspect.signature(method)


_resolve_run_introspection()

_FAST_ARGS = frozenset(
    {
        *("name", "slug", "description", "input_json_schema", "args_schema", "executor"),
        *("schema_options", "metadata", "max_content_chars", "handle_tool_error"),
    }
)
"""The arguments `from_schema` and sessions give: the only ones `_fast_init` takes."""


class _InitPlan:
    """What `_fast_init` needs to know about `ToolRouterTool`'s pydantic fields, once."""

    def __init__(self) -> None:
        self.usable = False
        post_init = getattr(ToolRouterTool.model_post_init, "__qualname__", None)
        if post_init != "init_private_attributes" or ToolRouterTool.model_config.get(
            "extra", "ignore"
        ) not in ("ignore", None):
            return  # an own model_post_init, or extra fields pydantic would keep
        decorators = ToolRouterTool.__pydantic_decorators__
        if any(
            (
                *(decorators.validators, decorators.field_validators),
                *(decorators.root_validators, decorators.model_validators),
                decorators.computed_fields,
            )
        ):
            return
        # Field order with each default; the fields without a usable one must be given.
        self.defaults: dict[str, Any] = {}
        required = set()
        for name, info in ToolRouterTool.model_fields.items():
            if info.alias is not None or info.validation_alias is not None:
                return
            if info.is_required() or info.default_factory is not None:
                required.add(name)
                self.defaults[name] = None
            elif info.default is None or type(info.default) in (bool, int, str):
                self.defaults[name] = info.default
            else:  # a mutable default pydantic would copy
                return
        self.required = frozenset(required)
        if not required.issubset(_FAST_ARGS) or not _FAST_ARGS.issubset(self.defaults):
            return
        self.private: dict[str, Any] = {}
        for name, attr in ToolRouterTool.__private_attributes__.items():
            default = attr.get_default()
            if default is not None:
                return
            self.private[name] = None
        self.usable = True


_PLAN: _InitPlan | None = None


def _init_plan() -> _InitPlan:
    """`_PLAN`, computed on first use (the class must exist)."""
    global _PLAN  # noqa: PLW0603
    _PLAN = _InitPlan()
    return _PLAN


_STR_ONLY = frozenset((str,))


def _fast_init(tool: ToolRouterTool, kwargs: dict[str, Any], conversion: Conversion) -> bool:
    """Set up `tool` as pydantic's `__init__` would from `kwargs`, without running its
    validator (most of the cost of building a tool). Returns `False`, having done nothing,
    unless every argument is one `from_schema` and sessions give, each with a value that
    validation keeps as is: exact `str`s, a positive `int`, dicts with `str` keys (which
    validation copies, as done here); `executor`, `schema_options` and `handle_tool_error`
    are not validated at all.

    The instance state is what pydantic builds: `__dict__` in field order with the defaults,
    `__pydantic_fields_set__`, no extra, private attributes at their defaults plus the
    conversion. `tests/unit_tests/langchain/test_tool_construction.py` compares both paths.
    """
    plan = _PLAN or _init_plan()
    keys = kwargs.keys()
    if not plan.usable or not (keys <= _FAST_ARGS and keys >= plan.required):
        return False
    schema = kwargs["input_json_schema"]
    metadata = kwargs.get("metadata")
    size = kwargs.get("max_content_chars", 1)
    if not (
        type(kwargs.get("name")) is str
        and type(kwargs.get("slug")) is str
        and type(kwargs.get("description", "")) is str
        and type(kwargs.get("args_schema")) is dict
        and type(schema) is dict
        and _STR_ONLY.issuperset(map(type, schema))  # keys exactly `str`
        and (
            metadata is None
            or (type(metadata) is dict and _STR_ONLY.issuperset(map(type, metadata)))
        )
        and type(size) is int
        and size > 0
    ):
        return False
    values = plan.defaults.copy()
    values.update(kwargs)  # existing keys keep their place: field order
    values["input_json_schema"] = dict(schema)
    if metadata is not None:
        values["metadata"] = dict(metadata)
    _install_state(tool, values, set(keys), plan, conversion)
    return True


# pydantic's `BaseModel` slots, set through their descriptors: `object.__setattr__` costs
# ~2x more per slot on a class with as deep an MRO as a LangChain tool.
_SET_DICT = PydanticBaseModel.__dict__["__dict__"].__set__
_SET_FIELDS_SET = PydanticBaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = PydanticBaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = PydanticBaseModel.__dict__["__pydantic_private__"].__set__


def _install_state(
    tool: ToolRouterTool,
    values: dict[str, Any],
    fields_set: set[str],
    plan: _InitPlan,
    conversion: Conversion,
) -> None:
    """The instance state pydantic's `__init__` builds: `__dict__` (`values`, in field order),
    the fields set, no extra, the private attributes at their defaults plus the conversion."""
    _SET_DICT(tool, values)
    _SET_FIELDS_SET(tool, fields_set)
    _SET_EXTRA(tool, None)
    private = plan.private.copy()
    private["_conversion"] = conversion
    _SET_PRIVATE(tool, private)


def _only_kwargs(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    if args:
        msg = (
            f"{name} takes its arguments as a dict (JSON object) matching its schema, "
            f"got {len(args)} positional value(s)"
        )
        raise TypeError(msg)
    return kwargs


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
