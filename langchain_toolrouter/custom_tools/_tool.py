"""One custom tool: its definition for the service and the code that runs it here."""

from __future__ import annotations

import copy
import inspect
import logging
import re
import reprlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, overload

from langchain_core.runnables.config import run_in_executor
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from langchain_toolrouter._answers import arguments_error_text
from langchain_toolrouter._blocking import run_coroutine_sync
from langchain_toolrouter._exceptions import CustomSlugError
from langchain_toolrouter._langgraph import is_graph_signal
from langchain_toolrouter.custom_tools._signature import (
    SignatureModel,
    check_injected_fields,
    context_parameter,
    injected_fields,
    injected_parameters,
    signature_model,
)
from langchain_toolrouter.schema.convert import Conversion, json_schema_to_model
from langchain_toolrouter.schema.errors import ArgsValidationError
from langchain_toolrouter.schema.pointers import to_pointer
from langchain_toolrouter.schema.values import NotJSONError, json_copy
from langchain_toolrouter.types import ToolOutcome

if TYPE_CHECKING:
    from langchain_toolrouter.wire.models import (
        CustomToolDefinition,
        CustomToolkitDefinition,
        CustomToolkitToolDefinition,
        ProxyResult,
    )

__all__ = [
    "MAX_FINAL_SLUG_LENGTH",
    "CustomTool",
    "CustomToolContext",
    "CustomToolkit",
    "as_custom_tool",
    "custom_tool",
    "final_slug",
    "single_item",
    "validate_slug",
]

_log = logging.getLogger("langchain_toolrouter")

MAX_FINAL_SLUG_LENGTH = 60
"""The service's limit on a custom tool's final `LOCAL_...` slug."""

_SLUG = re.compile(r"^[A-Za-z0-9_-]+$")
_RESERVED_PREFIXES = ("LOCAL_", "COMPOSIO_")


def validate_slug(slug: str, *, what: str = "custom tool") -> str:
    """Check a user-chosen slug and return it unchanged.

    Raises:
        CustomSlugError: when the slug is empty, has characters outside `[A-Za-z0-9_-]`,
            or starts with `LOCAL_`/`COMPOSIO_` (any case).
    """
    if not isinstance(slug, str) or not _SLUG.match(slug):
        msg = (
            f"{what} slug {slug!r} is invalid: use only letters, digits, '_' and '-' "
            "(pattern ^[A-Za-z0-9_-]+$), e.g. 'find_customer'"
        )
        raise CustomSlugError(msg)
    upper = slug.upper()
    for prefix in _RESERVED_PREFIXES:
        if upper.startswith(prefix):
            msg = (
                f"{what} slug {slug!r} must not start with {prefix!r} (reserved by the "
                f"service; {'LOCAL_ is added for you' if prefix == 'LOCAL_' else 'it marks meta tools'}): "
                f"use {slug[len(prefix) :] or 'another name'!r}"
            )
            raise CustomSlugError(msg)
    return slug


def final_slug(slug: str, toolkit: str | None = None) -> str:
    """The slug the service gives a custom tool: `LOCAL_[<TOOLKIT>_]<SLUG>`, upper-case.

    Raises:
        CustomSlugError: when the result is longer than 60 characters.
    """
    parts = ["LOCAL", *([toolkit] if toolkit else []), slug]
    result = "_".join(parts).upper()
    if len(result) > MAX_FINAL_SLUG_LENGTH:
        msg = (
            f"custom tool slug {result!r} is {len(result)} characters; the service allows "
            f"{MAX_FINAL_SLUG_LENGTH}: shorten the tool slug {slug!r}"
            + (f" or the toolkit slug {toolkit!r}" if toolkit else "")
        )
        raise CustomSlugError(msg)
    return result


ProxyFn = Callable[..., "ProxyResult"]
AsyncProxyFn = Callable[..., Awaitable["ProxyResult"]]


@dataclass(frozen=True)
class CustomToolContext:
    """What a custom tool function may ask for: declare a parameter annotated with this type.

    Attributes:
        user_id: The session's user.
        session_id: The session's id.
        toolkit: The toolkit the tool extends (`extends_toolkit`), whose connection its
            `proxy_execute` calls use by default; `None` for other tools.
    """

    user_id: str
    session_id: str
    _execute: Callable[[str, dict[str, Any]], dict[str, Any]]
    _aexecute: Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
    toolkit: str | None = None
    _proxy: ProxyFn | None = None
    _aproxy: AsyncProxyFn | None = None

    def execute(self, slug: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Run another tool of the session (a sibling custom tool runs locally)."""
        return self._execute(slug, dict(arguments))

    async def aexecute(self, slug: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Async twin of `execute`."""
        return await self._aexecute(slug, dict(arguments))

    def proxy_execute(
        self, endpoint: str, method: str = "GET", *, toolkit: str | None = None, **options: Any
    ) -> ProxyResult:
        """Call a toolkit's own API with the user's connection (default: the extended toolkit).

        `options` are `session.proxy_execute`'s (`body`, `parameters`, ...). Service errors
        raise, e.g. `APIError` when the user has not connected the toolkit; the tool's call
        then fails with that message.
        """
        if self._proxy is None:
            msg = "proxy_execute needs a session: run the tool through its session"
            raise RuntimeError(msg)
        return self._proxy(self._toolkit(toolkit), endpoint, method, **options)

    async def aproxy_execute(
        self, endpoint: str, method: str = "GET", *, toolkit: str | None = None, **options: Any
    ) -> ProxyResult:
        """Async twin of `proxy_execute`."""
        if self._aproxy is None:
            msg = "aproxy_execute needs a session: run the tool through its session"
            raise RuntimeError(msg)
        return await self._aproxy(self._toolkit(toolkit), endpoint, method, **options)

    def _toolkit(self, toolkit: str | None) -> str:
        chosen = toolkit or self.toolkit
        if chosen is None:
            msg = "say which toolkit's API to call: proxy_execute(..., toolkit='github')"
            raise ValueError(msg)
        return chosen


class CustomTool:
    """One custom tool: its definition for the service and the code that runs it here.

    Build one with the `custom_tool` decorator or `CustomTool.from_tool(langchain_tool)`.
    A tool made from a function can still be called as that function (see `__call__`).
    Constructed directly, `hidden_arguments` names what the code gets from elsewhere (an
    injected argument, the context parameter): a call that sets one is refused.
    """

    __wrapped__: Callable[..., Any]
    """The decorated function (absent for a tool made from a LangChain tool)."""

    def __init__(
        self,
        *,
        slug: str,
        name: str,
        description: str,
        input_schema: Mapping[str, Any],
        func: Callable[..., Any] | None = None,
        coroutine: Callable[..., Awaitable[Any]] | None = None,
        tool: BaseTool | None = None,
        signature: SignatureModel | None = None,
        context_param: str | None = None,
        context_optional: bool = False,
        output_schema: Mapping[str, Any] | None = None,
        extends_toolkit: str | None = None,
        preload: bool = False,
        hidden_arguments: Iterable[str] = (),
    ) -> None:
        validate_slug(slug)
        given: dict[str, object] = {"name": name, "description": description}
        if not isinstance(given["name"], str) or not name.strip():
            msg = f"custom tool {slug!r}: name must be a non-empty string, got {name!r}"
            raise TypeError(msg)
        if not isinstance(given["description"], str):
            msg = (
                f"custom tool {slug!r}: description must be a string (what the model reads), "
                f"got {type(description).__name__}"
            )
            raise TypeError(msg)
        if not description or not description.strip():
            msg = (
                f"custom tool {slug!r} needs a description (the model and the service's "
                "search read it): add a docstring or pass description="
            )
            raise ValueError(msg)
        schemas: tuple[tuple[str, object], ...] = (
            ("input_schema", input_schema),
            ("output_schema", output_schema),
        )
        for what, schema in schemas:
            if schema is not None and not isinstance(schema, Mapping):
                msg = (
                    f"custom tool {slug!r}: {what} must be a JSON Schema object (a dict), got "
                    f"{type(schema).__name__}"
                )
                raise TypeError(msg)
        if input_schema.get("type") != "object" or not isinstance(
            input_schema.get("properties"), Mapping
        ):
            msg = (
                f"custom tool {slug!r}: input_schema must be a JSON Schema object with "
                "'type': 'object' and a 'properties' mapping (the service refuses others)"
            )
            raise ValueError(msg)
        toolkit: object = extends_toolkit
        if toolkit is not None and not isinstance(toolkit, str):
            msg = (
                f"custom tool {slug!r}: extends_toolkit must be a toolkit slug (a string, e.g. "
                f"'github'), got {type(extends_toolkit).__name__}"
            )
            raise TypeError(msg)
        if extends_toolkit is not None and not _SLUG.match(extends_toolkit):
            # A real toolkit's slug: only its characters are checked (the reserved prefixes
            # are for our own slugs; Composio has toolkits such as `composio_search`).
            msg = (
                f"extends_toolkit {extends_toolkit!r} is not a toolkit slug: use the "
                "toolkit's slug, e.g. 'github' (letters, digits, '_' and '-')"
            )
            raise CustomSlugError(msg)
        if func is None and coroutine is None and tool is None:
            msg = f"custom tool {slug!r} has nothing to run: give func, coroutine or tool"
            raise ValueError(msg)
        self.slug = slug
        self.name = name
        self.description = description.strip()
        self.input_schema: dict[str, Any] = _plain_schema(slug, "input_schema", input_schema)
        self.output_schema = (
            _plain_schema(slug, "output_schema", output_schema)
            if output_schema is not None
            else None
        )
        self.extends_toolkit = extends_toolkit
        self.preload = preload
        self.toolkit: str | None = None
        self._func = func
        self._coroutine = coroutine
        self._tool = tool
        self._signature = signature
        self._context_param = context_param
        self._context_optional = context_optional
        self._final_slug = final_slug(slug, extends_toolkit)
        # The schema layer's check of `input_schema`, the one a direct tool call uses (read
        # now, so a schema it cannot read at all is refused here, at definition).
        self._checks: Conversion = json_schema_to_model(self.input_schema, name=slug)
        # What the code gets from elsewhere and the model must not set (unless the schema
        # itself offers a property of that name).
        self._hidden = frozenset(hidden_arguments) - set(self.input_schema["properties"])
        function = func or coroutine
        if function is not None:
            self.__wrapped__ = function  # `inspect.signature(tool)` shows the function's

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the decorated function itself with these arguments, as if undecorated.

        Nothing is validated or wrapped: the function's own return value comes back (a
        coroutine for an `async def`), so code and unit tests that call the function keep
        working. The model's calls go through `run`/`arun` (validation, `{data, error,
        successful}`), as does `session.execute`.

        Raises:
            TypeError: the tool was made from a LangChain tool, which has no function here.
        """
        function = self._func or self._coroutine
        if function is None:
            msg = (
                f"{self.final_slug} wraps a LangChain tool and has no function to call: "
                "call the LangChain tool's invoke({...}), or run the custom tool with "
                ".run({...})"
            )
            raise TypeError(msg)
        return function(*args, **kwargs)

    @property
    def final_slug(self) -> str:
        """The `LOCAL_...` slug the model calls (the service's echo wins when it differs)."""
        return self._final_slug

    def _in_toolkit(self, toolkit: str) -> CustomTool:
        """A copy of this tool as a member of custom toolkit `toolkit` (this one is unchanged,
        so the same tool can also be used on its own or in another toolkit)."""
        if self.extends_toolkit is not None:
            msg = (
                f"custom tool {self.slug!r} extends toolkit {self.extends_toolkit!r} and "
                f"cannot also belong to custom toolkit {toolkit!r}: drop one of the two"
            )
            raise ValueError(msg)
        member = copy.copy(self)
        member.toolkit = toolkit
        member._final_slug = final_slug(self.slug, toolkit)
        return member

    def _set_final_slug(self, slug: str) -> None:
        self._final_slug = slug

    @property
    def is_async_only(self) -> bool:
        """True when the tool's code is only a coroutine (an `async def` function, or a
        LangChain tool with a coroutine and no function); `run` still runs it, on a loop
        of its own."""
        if self._tool is not None:
            tool = self._tool
            return (
                isinstance(tool, StructuredTool)
                and tool.func is None
                and tool.coroutine is not None
            )
        return self._func is None

    def definition(self) -> CustomToolDefinition:
        """The wire definition of a standalone tool (request form)."""
        from langchain_toolrouter.wire.models import CustomToolDefinition

        return CustomToolDefinition(
            **self._definition_fields(),
            **({"extends_toolkit": self.extends_toolkit} if self.extends_toolkit else {}),
        )

    def toolkit_definition(self) -> CustomToolkitToolDefinition:
        """The wire definition of this tool inside a custom toolkit."""
        from langchain_toolrouter.wire.models import CustomToolkitToolDefinition

        return CustomToolkitToolDefinition(**self._definition_fields())

    def _definition_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "slug": self.slug,
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
        }
        if self.output_schema is not None:
            fields["output_schema"] = self.output_schema
        if self.preload:
            fields["preload"] = True
        return fields

    # ------------------------------------------------------------------ running

    def run(
        self, arguments: Mapping[str, Any], context: CustomToolContext | None = None
    ) -> ToolOutcome:
        """Run the tool here and wait for it; failures come back as a failed outcome.

        An async tool runs to completion on an event loop of its own: `asyncio.run` on this
        thread, or on a worker thread when this thread already runs a loop (e.g. Jupyter).
        """
        if self.is_async_only:
            return run_coroutine_sync(lambda: self.arun(arguments, context))
        kwargs = self._call_kwargs(arguments, context)
        if isinstance(kwargs, ToolOutcome):
            return kwargs
        try:
            tool, func = self._tool, self._func
            value = tool.invoke(kwargs) if tool is not None else func(**kwargs)  # type: ignore[misc]
        except Exception as exc:
            if is_graph_signal(exc):  # the tool paused the graph (interrupt): not a failure
                raise
            return self._raised(exc)
        return self._returned(value)

    async def arun(
        self, arguments: Mapping[str, Any], context: CustomToolContext | None = None
    ) -> ToolOutcome:
        """Run the tool on the event loop (a sync function runs in the default executor)."""
        kwargs = self._call_kwargs(arguments, context)
        if isinstance(kwargs, ToolOutcome):
            return kwargs
        try:
            if self._tool is not None:
                value = await self._tool.ainvoke(kwargs)
            elif self._coroutine is not None:
                value = await self._coroutine(**kwargs)
            else:
                func = self._func
                assert func is not None
                value = await run_in_executor(None, lambda: func(**kwargs))
        except Exception as exc:
            if is_graph_signal(exc):
                raise
            return self._raised(exc)
        return self._returned(value)

    def _raised(self, exc: Exception) -> ToolOutcome:
        """The failed result of the user's code raising: the model reads it, as the service
        answers a tool that failed. An unexpected exception is one WARNING line in the log; its
        traceback is logged at DEBUG."""
        if not isinstance(exc, ValidationError | ToolException):
            _log.warning(
                "custom tool %s raised %s: %s (the model got this error; the traceback is "
                "logged at DEBUG)",
                self.final_slug,
                type(exc).__name__,
                exc,
            )
            _log.debug("custom tool %s: traceback", self.final_slug, exc_info=exc)
        return _failed(self.final_slug, exc)

    def _returned(self, value: Any) -> ToolOutcome:
        """The result of a returned value; one with no JSON form is a failed result that says
        so (not blamed on the tool's code raising)."""
        try:
            return _outcome(value)
        except Exception as exc:  # bytes not UTF-8, a cycle, a value whose repr raises
            error = (
                f"{self.final_slug} returned a value with no JSON form ({exc}): return str, "
                "numbers, bools, None, lists and dicts of them, dataclasses or pydantic models"
            )
            _log.warning("custom tool %s: %s", self.final_slug, error)
            return ToolOutcome(successful=False, data={}, error=error)

    def validate_arguments(
        self, arguments: Mapping[str, Any], *, schema_checked: bool = False
    ) -> dict[str, Any]:
        """Check a call's arguments as every call path does; return the keyword arguments
        the code receives (the context aside).

        First the names only the application sets; then the input schema's strict check, the
        one a direct tool call makes (`"5"` is not an integer, `5.0` is), unless
        `schema_checked` says the caller just made it; then, for a function, its signature's
        model, which turns the JSON into the parameters' types (a date string into a `date`).

        Raises:
            ArgsValidationError: naming each bad argument by JSON pointer, with what was
                expected (`arguments_error_text` renders it for the model).
        """
        problems = [
            {
                "path": to_pointer([name]),
                "message": f"{name!r} is supplied by the application; the model cannot set it",
                "expected": f"the arguments without {name!r}",
            }
            for name in sorted(self._hidden.intersection(arguments))
        ]
        checked = dict(arguments)
        if not schema_checked:
            try:
                # Hidden names are reported above, once (a closed schema would refuse them too).
                checked = self._checks.validate(
                    {k: v for k, v in arguments.items() if k not in self._hidden}
                    if problems
                    else arguments
                )
            except ArgsValidationError as exc:
                problems.extend(exc.errors)
        if problems:
            raise ArgsValidationError(problems, tool=self.final_slug)
        if self._signature is None:
            return checked
        try:
            instance = self._signature.model.model_validate(checked)
        except ValidationError as exc:
            problems = [
                {
                    "path": to_pointer(error["loc"]),
                    "message": error["msg"],
                    "expected": "a value the parameter's type accepts",
                }
                for error in exc.errors()
            ]
            raise ArgsValidationError(problems, tool=self.final_slug) from None
        return self._signature.call_kwargs(instance)

    def _call_kwargs(
        self, arguments: Mapping[str, Any], context: CustomToolContext | None
    ) -> dict[str, Any] | ToolOutcome:
        """The function's keyword arguments, or a failed outcome when they do not validate."""
        try:
            kwargs = self.validate_arguments(arguments)
        except ArgsValidationError as exc:
            error = arguments_error_text(self.final_slug, exc.errors)
            return ToolOutcome(successful=False, data={}, error=error)
        if self._context_param is not None and not (context is None and self._context_optional):
            if context is None:
                msg = (
                    f"custom tool {self.final_slug} needs a CustomToolContext; run it "
                    "through its session (session.execute or the session's tools)"
                )
                raise RuntimeError(msg)
            kwargs[self._context_param] = context
        return kwargs

    @classmethod
    def from_tool(
        cls,
        tool: BaseTool,
        *,
        slug: str | None = None,
        description: str | None = None,
        extends_toolkit: str | None = None,
        preload: bool = False,
    ) -> CustomTool:
        """Use an existing LangChain tool as a custom tool (its schema and its invoke/ainvoke).

        Its injected arguments are hidden from the model, as LangChain hides them, and a
        call that sets one is refused, naming it (the tool's default is what the code gets).

        Raises:
            TypeError: the tool has an injected argument without a default, or an
                `InjectedToolCallId` (custom tool calls carry no tool call id).
        """
        check_injected_fields(slug or tool.name, tool.args_schema)
        parameters = convert_to_openai_tool(tool)["function"].get("parameters") or {}
        schema = {"type": "object", "properties": {}, **parameters}
        return cls(
            slug=slug or tool.name,
            name=tool.name,
            description=description or tool.description,
            input_schema=schema,
            tool=tool,
            extends_toolkit=extends_toolkit,
            preload=preload,
            hidden_arguments=injected_fields(tool.args_schema),
        )

    def __repr__(self) -> str:
        return f"CustomTool(slug={self.slug!r}, final_slug={self.final_slug!r})"


_T = TypeVar("_T")


def _outcome(value: Any) -> ToolOutcome:
    """A successful outcome whose data is JSON-compatible all the way down (models,
    dataclasses, dates, ... at any depth); a non-dict value goes under `result`."""
    if isinstance(value, ToolOutcome):
        return value
    value = to_jsonable_python(value, by_alias=False, fallback=_unserialisable)
    if not isinstance(value, dict):
        value = {"result": value}
    return ToolOutcome(successful=True, data=value)


def _unserialisable(value: Any) -> str:
    """What the model reads for a value with no JSON form: its repr, and a log line saying
    how to fix it."""
    _log.warning(
        "custom tool returned a %s, which has no JSON form; the model reads its repr "
        "(return a dict, a dataclass or a pydantic model instead)",
        type(value).__name__,
    )
    return repr(value)


def _failed(slug: str, exc: BaseException) -> ToolOutcome:
    if isinstance(exc, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
            for err in exc.errors()
        )
        return ToolOutcome(successful=False, data={}, error=f"invalid arguments: {problems}")
    if isinstance(exc, ToolException):
        return ToolOutcome(successful=False, data={}, error=str(exc) or type(exc).__name__)
    return ToolOutcome(
        successful=False, data={}, error=f"{slug} raised {type(exc).__name__}: {exc}"
    )


class CustomToolkit:
    """A custom toolkit: several custom tools under one slug (no auth; tools run here)."""

    def __init__(
        self,
        slug: str,
        name: str,
        description: str,
        tools: Sequence[CustomTool | BaseTool | Callable[..., Any]],
        *,
        preload: bool = False,
    ) -> None:
        validate_slug(slug, what="custom toolkit")
        for what, value in (("name", name), ("description", description)):
            if not isinstance(value, str) or not value.strip():
                msg = (
                    f"custom toolkit {slug!r} needs a {what} (a non-empty string; the model and "
                    f"the service's search read it), got {value!r}"
                )
                raise (TypeError if not isinstance(value, str) else ValueError)(msg)
        if single_item(tools):
            msg = (
                f"custom toolkit {slug!r}: tools takes a list, got one "
                f"{type(tools).__name__}: pass tools=[...]"
            )
            raise TypeError(msg)
        if not tools:
            msg = f"custom toolkit {slug!r} has no tools: pass tools=[...]"
            raise ValueError(msg)
        self.slug = slug
        self.name = name.strip()
        self.description = description.strip()
        self.preload = preload
        self.tools: list[CustomTool] = [as_custom_tool(item)._in_toolkit(slug) for item in tools]
        seen: set[str] = set()
        for tool in self.tools:
            if tool.final_slug in seen:
                msg = f"custom toolkit {slug!r} has two tools with slug {tool.slug!r}"
                raise ValueError(msg)
            seen.add(tool.final_slug)

    def definition(self) -> CustomToolkitDefinition:
        """The wire definition (request form)."""
        from langchain_toolrouter.wire.models import CustomToolkitDefinition

        return CustomToolkitDefinition(
            slug=self.slug,
            name=self.name,
            description=self.description,
            tools=[tool.toolkit_definition() for tool in self.tools],
            **({"preload": True} if self.preload else {}),
        )

    def __repr__(self) -> str:
        return f"CustomToolkit(slug={self.slug!r}, tools={[t.slug for t in self.tools]!r})"


def single_item(items: object) -> bool:
    """Whether ``items``, where a list of tools belongs, is one tool or toolkit instead (a
    common slip: ``custom_tools=my_tool``)."""
    return isinstance(items, (CustomTool, CustomToolkit, BaseTool)) or (
        callable(items) and not isinstance(items, (list, tuple))
    )


def as_custom_tool(item: object) -> CustomTool:
    """Accept a `CustomTool`, a LangChain tool, or a plain function (decorated on the fly)."""
    if isinstance(item, CustomTool):
        return item
    if isinstance(item, BaseTool):
        return CustomTool.from_tool(item)
    if callable(item):
        return custom_tool(item)
    msg = f"expected a custom tool, a LangChain tool or a function, got {type(item).__name__}"
    raise TypeError(msg)


@overload
def custom_tool(func: Callable[..., Any], /) -> CustomTool: ...


@overload
def custom_tool(
    *,
    slug: str | None = None,
    name: str | None = None,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    output_schema: Mapping[str, Any] | None = None,
    extends_toolkit: str | None = None,
    preload: bool = False,
    parse_docstring: bool = False,
) -> Callable[[Callable[..., Any]], CustomTool]: ...


def custom_tool(
    func: Callable[..., Any] | None = None,
    /,
    *,
    slug: str | None = None,
    name: str | None = None,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    output_schema: Mapping[str, Any] | None = None,
    extends_toolkit: str | None = None,
    preload: bool = False,
    parse_docstring: bool = False,
) -> CustomTool | Callable[[Callable[..., Any]], CustomTool]:
    """Turn a sync or async function into a `CustomTool` (use bare or with options).

    Args:
        func: The function (when used as a bare decorator).
        slug: The tool's slug (default: the function's name); `LOCAL_` is added for you.
        name: Display name (default: the slug).
        description: What the model reads (default: the docstring).
        input_schema: An explicit input JSON Schema; the function then receives the
            arguments as keyword arguments. Default: built from the signature.
        output_schema: Optional output JSON Schema.
        extends_toolkit: A real toolkit slug whose connection the tool inherits.
        preload: List the tool in `session.get_tools()` (otherwise it is found by search).
        parse_docstring: Read Google-style `Args:` descriptions from the docstring.

    Every other parameter is a property under its exact name (`callbacks`, `_id` and
    `model_config` included). `*args` is refused (calls pass keyword arguments only), and so
    is `**kwargs` unless `input_schema` is given (without it the model would see no argument
    for it). A parameter annotated `CustomToolContext` (or
    `CustomToolContext | None`) receives the session context and is not part of the schema;
    so are LangChain injected arguments that have a default (the default is used). A call
    that sets one of these hidden arguments is refused, naming it: only your code supplies
    them. An injected argument without a default, or an `InjectedToolCallId`, is refused
    here: the service's model calls custom tools with schema arguments only.
    """

    def build(fn: Callable[..., Any]) -> CustomTool:
        _check_function(fn)
        tool_slug = fn.__name__ if slug is None else slug
        validate_slug(tool_slug)
        flags: tuple[tuple[str, object], ...] = (
            ("preload", preload),
            ("parse_docstring", parse_docstring),
        )
        for option, value in flags:
            if not isinstance(value, bool):
                msg = f"custom tool {tool_slug!r}: {option} must be True or False, got {value!r}"
                raise TypeError(msg)
        built: SignatureModel | None = None
        if input_schema is None:
            built = signature_model(
                tool_slug, fn, context_type=CustomToolContext, parse_docstring=parse_docstring
            )
            schema = built.schema()
            context, context_optional = built.context_param, built.context_optional
        else:  # the given schema is the contract; the signature only names the context
            written: object = input_schema
            if not isinstance(written, Mapping):
                msg = (
                    f"custom tool {tool_slug!r}: input_schema must be a JSON Schema object "
                    f"(a dict), got {type(input_schema).__name__}"
                )
                raise TypeError(msg)
            schema = dict(input_schema)
            context, context_optional = context_parameter(
                tool_slug, fn, context_type=CustomToolContext
            )
        hidden = injected_parameters(fn) | ({context} if context else set())
        if input_schema is not None:
            _check_schema_fits(tool_slug, fn, schema, hidden)
        doc = inspect.getdoc(fn) or ""
        text = description or (doc.split("\n\nArgs:")[0] if parse_docstring else doc)
        is_async = inspect.iscoroutinefunction(fn)
        return CustomTool(
            slug=tool_slug,
            name=name or tool_slug,
            description=text,
            input_schema=schema,
            func=None if is_async else fn,
            coroutine=fn if is_async else None,
            signature=built,
            context_param=context,
            context_optional=context_optional,
            output_schema=output_schema,
            extends_toolkit=extends_toolkit,
            preload=preload,
            hidden_arguments=hidden,
        )

    if func is not None:
        return build(func)
    return build


def _check_schema_fits(
    slug: str, fn: Callable[..., Any], schema: Mapping[str, Any], hidden: AbstractSet[str]
) -> None:
    """Refuse an explicit ``input_schema`` that the function cannot be called with: a
    property it has no parameter for (without ``**kwargs``), or a parameter with no default
    that no property supplies (``hidden`` ones aside: the application supplies those). Either
    way every call would fail at the call itself.

    Raises:
        TypeError: naming the names on each side that do not meet.
    """
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return  # CustomTool refuses it, with its own message
    params = inspect.signature(fn).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    keyword = {
        name
        for name, p in params.items()
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }
    unknown = [name for name in properties if name not in keyword]
    missing = [
        name
        for name in keyword
        if name not in properties
        and name not in hidden
        and params[name].default is inspect.Parameter.empty
    ]
    if unknown or missing:
        problems = []
        if unknown:
            problems.append(f"properties {unknown} are not parameters of {fn.__name__}()")
        if missing:
            problems.append(f"parameters {sorted(missing)} have no default and no property")
        msg = (
            f"custom tool {slug!r}: input_schema does not fit the function: "
            + "; ".join(problems)
            + ". Every call would fail: make the properties match the parameters (or accept "
            "**kwargs)"
        )
        raise TypeError(msg)


def _plain_schema(slug: str, what: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` as plain JSON data (tuples as lists, mappings as dicts), as it is sent to
    the service and as calls are checked against it.

    Raises:
        ValueError: a value JSON cannot carry (a set, an object, NaN, a non-string key).
    """
    try:
        plain: dict[str, Any] = json_copy(_as_json_containers(schema))
    except NotJSONError as exc:
        at = to_pointer(exc.path) or "the root"
        msg = (
            f"custom tool {slug!r}: {what} must be plain JSON, but at {at} {exc.detail}; "
            "use dicts, lists, strings, numbers, booleans and None"
        )
        raise ValueError(msg) from None
    return plain


def _as_json_containers(value: Any) -> Any:
    """``value`` with mappings as dicts and tuples as lists (JSON's own containers)."""
    if isinstance(value, Mapping):
        return {k: _as_json_containers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json_containers(v) for v in value]
    return value


def _check_function(fn: object) -> None:
    """Refuse what `custom_tool` cannot read as a function, naming what was given and the fix.

    Raises:
        TypeError: a LangChain tool, a `CustomTool`, or anything but a function or method
            (a `functools.partial` or a callable object has no signature of its own to read).
    """
    if isinstance(fn, CustomTool):
        msg = (
            f"custom_tool() got a CustomTool ({fn.final_slug}), already a custom tool: use "
            "it as is, or decorate the original function again for other options"
        )
        raise TypeError(msg)
    if isinstance(fn, BaseTool):
        msg = (
            f"custom_tool() takes a function, got a LangChain tool ({type(fn).__name__} "
            f"{fn.name!r}): use CustomTool.from_tool(tool) or pass it in custom_tools=[tool]"
        )
        raise TypeError(msg)
    if inspect.isfunction(fn) or inspect.ismethod(fn):
        return
    # Other callables whose parameters can be read and that have a name of their own, such
    # as a function under functools.lru_cache or another functools.wraps decorator.
    readable = callable(fn) and isinstance(getattr(fn, "__name__", None), str)
    if readable:
        try:
            inspect.signature(fn)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            readable = False
    if not readable:
        kind = type(fn)
        what = (
            kind.__qualname__
            if kind.__module__ == "builtins"
            else f"{kind.__module__}.{kind.__qualname__}"
        )
        msg = (
            f"custom_tool() takes a function, got {what} ({reprlib.repr(fn)}): decorate a "
            "def or async def (wrap a partial or a callable object in a def with the "
            "parameters the model may set)"
        )
        raise TypeError(msg)
