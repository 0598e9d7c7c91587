"""The converters under comparison, behind one small interface.

Each adapter offers:

- ``prepare(tools)``: untimed set-up per tool (the MCP ``Tool`` objects a client would have parsed);
- ``convert(tool)``: the timed conversion (for the anchors, what builds their pydantic model);
- ``bind(tool)``: the LangChain tool and ``convert_to_openai_tool(tool)``, the bind-ready
  schema any agent computes (ours also has ``load``: the tool and its ``tool_call_schema``);
- ``model_facing(handle)``: the JSON schema the chat model sees for the loaded tool;
- ``send(handle, call)``: the payload that would reach the service, or :class:`Rejected`;
- ``clear()``: forget what the converter caches about schemas, for first-build timings.
"""

from __future__ import annotations

import contextlib
import os
import sys
import types
import warnings
from pathlib import Path
from typing import Any

from _corpus import Tool

__all__ = [
    "BENCH_PACKAGES_ENV",
    "CONVERTERS",
    "Converter",
    "Rejected",
    "available_converters",
    "make_converter",
]

BENCH_PACKAGES_ENV = "TOOLROUTER_BENCH_PACKAGES"
INSTALL_HINT = "run `bash scripts/bench.sh` to install the comparison libraries"


class Rejected(Exception):  # noqa: N818 - an outcome, not an error
    """The converter refused the call (nothing would be sent); ``crash`` marks a non-validation
    exception (a bug in the converter rather than a clean refusal)."""

    def __init__(self, detail: str, *, crash: bool = False) -> None:
        super().__init__(detail)
        self.crash = crash


def _openai_parameters(tool: Any) -> dict[str, Any]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return convert_to_openai_tool(tool)["function"]["parameters"]  # type: ignore[no-any-return]


class Converter:
    """Interface; see the module docstring."""

    key = ""
    label = ""
    convert_what = ""
    bind_what = ""

    def clear(self) -> None:
        """Drop schema caches so the next conversion is a first build."""

    def prepare(self, tools: list[Tool]) -> None:
        """Untimed work a real client has done before converting ``tools``."""

    def convert(self, tool: Tool) -> Any:
        raise NotImplementedError

    def bind(self, tool: Tool) -> Any:
        raise NotImplementedError

    def model_facing(self, handle: Any) -> dict[str, Any]:
        raise NotImplementedError

    def send(self, handle: Any, call: dict[str, Any]) -> Any:
        raise NotImplementedError


class Ours(Converter):
    """langchain_toolrouter.schema, and ToolRouterTool.from_schema when tools.py has it (then
    calls go through ``tool.invoke`` and the payload is what the executor receives)."""

    key = "ours"
    label = "langchain-toolrouter"

    def __init__(self) -> None:
        from langchain_toolrouter import schema

        self._schema = schema
        self._tool_cls: Any = None
        self.sent: list[dict[str, Any]] = []
        try:
            from langchain_toolrouter.tools import ToolRouterTool

            if hasattr(ToolRouterTool, "from_schema"):
                self._tool_cls = ToolRouterTool
        except ImportError:
            pass
        self.convert_what = "json_schema_to_model(...) + .llm_schema"
        self.load_what = (
            "ToolRouterTool.from_schema(...) + tool.tool_call_schema"
            if self._tool_cls
            else "json_schema_to_model(...) + .llm_schema (no tool constructor yet)"
        )
        self.bind_what = f"{self.load_what} + convert_to_openai_tool(tool)"

    def clear(self) -> None:
        self._schema.clear_cache()

    def convert(self, tool: Tool) -> Any:
        conversion = self._schema.json_schema_to_model(tool.schema, name=tool.name)
        conversion.llm_schema  # noqa: B018 - the model-facing schema is part of loading
        return conversion

    def cached(self, tool: Tool) -> Any:
        return self._schema.json_schema_to_model(tool.schema, name=tool.name)

    def load(self, tool: Tool) -> Any:
        """Our tool and its model-facing schema (the issue's "loading a tool")."""
        if self._tool_cls is None:
            return self.convert(tool)
        built = self._tool_cls.from_schema(tool.name, tool.description, tool.schema, self._capture)
        built.tool_call_schema  # noqa: B018
        return built

    def bind(self, tool: Tool) -> Any:
        built = self.load(tool)
        if self._tool_cls is not None:
            _openai_parameters(built)
        return built

    def _capture(self, payload: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(payload)
        return {}

    def conversion_of(self, handle: Any) -> Any:
        return handle.conversion if self._tool_cls is not None else handle

    def first_call(self, tool: Tool, call: dict[str, Any]) -> None:
        """Load, build the pydantic model and the validator, validate one call."""
        conversion = self.conversion_of(self.load(tool))
        conversion.model  # noqa: B018
        with contextlib.suppress(self._schema.ArgsValidationError):
            conversion.validate(call)

    def first_invoke(self, tool: Tool, call: dict[str, Any]) -> None:
        """Load, then one ``tool.invoke(call)`` as an agent makes it (no ``.model`` unless the
        call path needs it)."""
        built = self.load(tool)
        if self._tool_cls is None:
            with contextlib.suppress(self._schema.ArgsValidationError):
                built.validate(call)
            return
        built.invoke(dict(call))

    def model_facing(self, handle: Any) -> dict[str, Any]:
        if self._tool_cls is not None:
            return _openai_parameters(handle)
        return handle.llm_schema  # type: ignore[no-any-return]

    def send(self, handle: Any, call: dict[str, Any]) -> Any:
        if self._tool_cls is not None:
            # The whole LangChain path: invoke, argument parsing, our validation, the executor.
            self.sent.clear()
            try:
                result = handle.invoke(call)
            except Exception as exc:
                raise Rejected(f"{type(exc).__name__}: {exc}", crash=True) from None
            if not self.sent:
                raise Rejected(str(result)[:300])
            return self.sent[-1]
        try:
            return handle.validate(call)
        except self._schema.ArgsValidationError as exc:
            raise Rejected(str(exc)) from None
        except Exception as exc:
            raise Rejected(f"{type(exc).__name__}: {exc}", crash=True) from None


class Composio(Converter):
    """composio-langchain 0.30: ``LangchainProvider.wrap_tool``'s conversion and send path."""

    key = "composio"
    label = "composio-langchain"
    convert_what = "substitute_reserved_python_keywords + composio json_schema_to_model"
    bind_what = "LangchainProvider.wrap_tool(...) + convert_to_openai_tool(tool)"

    def __init__(self) -> None:
        from composio.utils import schema_converter, shared
        from composio_langchain import LangchainProvider

        self._shared = shared
        self._caches = [
            getattr(schema_converter, name)
            for name in ("_linear_pattern_matcher", "_string_pattern_matcher")
            if hasattr(getattr(schema_converter, name, None), "cache_clear")
        ]
        self._provider = LangchainProvider()
        self.sent: list[dict[str, Any]] = []

    def clear(self) -> None:
        # Per-pattern regex caches only: the validator classes they build once per process
        # are setup, like our imports.
        for cache in self._caches:
            cache.cache_clear()

    def convert(self, tool: Tool) -> Any:
        params, _keywords = self._shared.substitute_reserved_python_keywords(schema=tool.schema)
        return self._shared.json_schema_to_model(
            json_schema=params, skip_default=self._provider.skip_default
        )

    def bind(self, tool: Tool) -> Any:
        fake = types.SimpleNamespace(
            slug=tool.name, description=tool.description, input_parameters=tool.schema
        )
        built = self._provider.wrap_tool(tool=fake, execute_tool=self._execute)
        _openai_parameters(built)
        return built

    def _execute(self, slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.sent.append(arguments)
        return {"successful": True, "data": {}, "error": None}

    def model_facing(self, handle: Any) -> dict[str, Any]:
        return _openai_parameters(handle)

    def send(self, handle: Any, call: dict[str, Any]) -> Any:
        import copy

        self.sent.clear()
        try:
            result = handle.invoke(copy.deepcopy(call))
        except Exception as exc:
            raise Rejected(f"{type(exc).__name__}: {exc}", crash=True) from None
        if not self.sent:
            # StructuredTool.run turns a pydantic ValidationError into this error dict.
            raise Rejected(str(result)[:300])
        return self.sent[-1]


class JsonSchemaToPydantic(Converter):
    """json-schema-to-pydantic's ``create_model``, used as a LangChain StructuredTool's args."""

    key = "jstp"
    label = "json-schema-to-pydantic"
    convert_what = (
        "create_model(schema, allow_undefined_type=True, allow_undefined_array_items=True)"
    )
    bind_what = "create_model + StructuredTool.from_function + convert_to_openai_tool(tool)"

    def __init__(self) -> None:
        import json_schema_to_pydantic

        self._create = json_schema_to_pydantic.create_model

    def convert(self, tool: Tool) -> Any:
        return self._create(
            tool.schema, allow_undefined_type=True, allow_undefined_array_items=True
        )

    def bind(self, tool: Tool) -> Any:
        from langchain_core.tools import StructuredTool

        model = self.convert(tool)
        built = StructuredTool.from_function(
            func=_echo_kwargs, name=tool.name, description=tool.description, args_schema=model
        )
        _openai_parameters(built)
        return built

    def model_facing(self, handle: Any) -> dict[str, Any]:
        return _openai_parameters(handle)

    def send(self, handle: Any, call: dict[str, Any]) -> Any:
        from pydantic import ValidationError

        model = handle.args_schema
        try:
            instance = model.model_validate(call)
            return instance.model_dump(mode="json", by_alias=True, exclude_unset=True)
        except ValidationError as exc:
            raise Rejected(str(exc)[:300]) from None
        except Exception as exc:
            raise Rejected(f"{type(exc).__name__}: {exc}", crash=True) from None


class McpAdapters(Converter):
    """langchain-mcp-adapters: ``convert_mcp_tool_to_langchain_tool``, a ``StructuredTool`` whose
    ``args_schema`` is the MCP tool's ``inputSchema`` dict as given. It validates nothing: every
    call goes to the session's ``call_tool`` unchanged."""

    key = "mcp"
    label = "langchain-mcp-adapters"
    convert_what = "convert_mcp_tool_to_langchain_tool(session, mcp_tool) + tool.tool_call_schema"
    bind_what = "mcp.convert + convert_to_openai_tool(tool)"

    def __init__(self) -> None:
        from langchain_mcp_adapters.tools import convert_mcp_tool_to_langchain_tool
        from mcp.types import Tool as McpTool

        self._convert = convert_mcp_tool_to_langchain_tool
        self._mcp_tool = McpTool
        # The parsed ``tools/list`` entries a client holds before converting: made by
        # ``prepare``, untimed, as our ``ours.load`` starts from a parsed schema dict too.
        self._parsed: dict[int, Any] = {}
        self._session = _RecordingMcpSession()
        self._loop: Any = None

    def prepare(self, tools: list[Tool]) -> None:
        for tool in tools:
            if id(tool) not in self._parsed:
                self._parsed[id(tool)] = self._parse(tool)

    def _parse(self, tool: Tool) -> Any:
        return self._mcp_tool(name=tool.name, description=tool.description, inputSchema=tool.schema)

    def convert(self, tool: Tool) -> Any:
        parsed = self._parsed.get(id(tool)) or self._parse(tool)
        built = self._convert(self._session, parsed)
        built.tool_call_schema  # noqa: B018 - the model-facing schema, as ours.load reads it
        return built

    def bind(self, tool: Tool) -> Any:
        built = self.convert(tool)
        _openai_parameters(built)
        return built

    def model_facing(self, handle: Any) -> dict[str, Any]:
        return _openai_parameters(handle)

    def send(self, handle: Any, call: dict[str, Any]) -> Any:
        import asyncio
        import copy

        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        self._session.sent.clear()
        try:
            result = self._loop.run_until_complete(handle.ainvoke(copy.deepcopy(call)))
        except Exception as exc:
            raise Rejected(f"{type(exc).__name__}: {exc}", crash=True) from None
        if not self._session.sent:
            raise Rejected(str(result)[:300])
        return self._session.sent[-1]


class _RecordingMcpSession:
    """Stands in for ``mcp.ClientSession``: construction never calls it; the quality section's
    calls record what would be sent."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def call_tool(self, name: str, arguments: Any = None, *_args: Any, **_kwargs: Any) -> Any:
        from mcp.types import CallToolResult, TextContent

        self.sent.append(arguments)
        return CallToolResult(content=[TextContent(type="text", text="{}")])


def _echo_kwargs(**kwargs: Any) -> dict[str, Any]:
    return kwargs


def bench_packages_dir() -> Path:
    """Where scripts/bench.sh puts composio: $TOOLROUTER_BENCH_PACKAGES or <prefix>/toolrouter-bench-packages."""
    raw = os.environ.get(BENCH_PACKAGES_ENV)
    return Path(raw) if raw else Path(sys.prefix) / "toolrouter-bench-packages"


CONVERTERS: dict[str, type[Converter]] = {
    "ours": Ours,
    "composio": Composio,
    "jstp": JsonSchemaToPydantic,
    "mcp": McpAdapters,
}


def make_converter(key: str) -> Converter:
    """The converter named ``key`` in :data:`CONVERTERS`, with scripts/bench.sh's composio folder
    on ``sys.path``; ``ImportError`` when its library is not installed."""
    extra = bench_packages_dir()
    if extra.is_dir() and str(extra) not in sys.path:
        sys.path.insert(0, str(extra))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CONVERTERS[key]()


def available_converters() -> tuple[list[Converter], dict[str, str]]:
    """Every converter that imports, ours first; and, for the others, why not."""
    converters: list[Converter] = [make_converter("ours")]
    missing: dict[str, str] = {}
    for key in ("composio", "jstp", "mcp"):
        try:
            converters.append(make_converter(key))
        except ImportError as exc:  # noqa: PERF203 - once per converter
            missing[CONVERTERS[key].label] = f"{exc} ({INSTALL_HINT})"
    return converters, missing
