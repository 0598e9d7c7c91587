"""`ToolRouter` (the entry point) and `ToolRouterSession` (one session's tools, search, links,
files and proxy).

Sync methods use the sync client and `a*` methods the async client, both native: no event
loop is started or borrowed here, so the sync API also works inside a running loop (Jupyter).
Tool calls are routed by `_dispatch` (custom tools run here, split multi-execute, the service).
"""

from __future__ import annotations

import asyncio
import logging
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import httpx
from pydantic import SecretStr

from langchain_toolrouter._arguments import check_number, check_text
from langchain_toolrouter._config import UNSET, TimeoutTypes, Unset
from langchain_toolrouter._connections import (
    ConnectionLink,
    McpConfig,
    ToolkitInfo,
    ToolkitList,
    mcp_config,
    toolkit_list,
)
from langchain_toolrouter._custom_registry import CustomRegistry, CustomToolInput
from langchain_toolrouter._dispatch import Dispatcher, SessionToolExecutor, is_meta
from langchain_toolrouter._display import ToolList, html_table, text_table
from langchain_toolrouter._loop_clients import LoopClients
from langchain_toolrouter._results import DEFAULT_MAX_CONTENT_CHARS, ToolOutcome
from langchain_toolrouter._search_results import ToolSearchResult
from langchain_toolrouter._session_args import session_request
from langchain_toolrouter.client import (
    AsyncToolRouterClient,
    ToolRouterClient,
    _check_http_client,
)
from langchain_toolrouter.custom_tools import CustomTool
from langchain_toolrouter.errors import ConfigurationError, ToolRouterError
from langchain_toolrouter.files import SessionFiles
from langchain_toolrouter.schema import ConversionOptions, SchemaConversionError
from langchain_toolrouter.search import ToolRetriever, ToolSearch
from langchain_toolrouter.toolkit import ToolRouterToolkit
from langchain_toolrouter.tools import NameStyle, ToolRouterTool, tool_name_for
from langchain_toolrouter.wire import models as m

if TYPE_CHECKING:
    from langchain_toolrouter.wire.retry import RetryPolicy

__all__ = [
    "ConnectionFailedError",
    "ConnectionTimeoutError",
    "ToolRouter",
    "ToolRouterSession",
    "ToolSearchError",
]

_log = logging.getLogger("langchain_toolrouter")

GET_TOOL_SCHEMAS = "COMPOSIO_GET_TOOL_SCHEMAS"
_TOOLS_PAGE = 500


class ConnectionTimeoutError(ToolRouterError, TimeoutError):
    """`wait_for_connection` gave up: the user did not finish connecting in time."""

    def __init__(self, toolkit: str, timeout: float, status: str | None) -> None:
        self.toolkit = toolkit
        self.timeout = timeout
        self.status = status
        super().__init__(
            f"{toolkit} was not connected within {timeout:g}s (status: {status or 'none'}); "
            "open the link from authorize() and finish connecting, then wait again"
        )


class ConnectionFailedError(ToolRouterError):
    """`wait_for_connection` stopped: the account ended in a state no waiting can change
    (`FAILED`, `EXPIRED`); its link is dead."""

    def __init__(self, toolkit: str, status: str) -> None:
        self.toolkit = toolkit
        self.status = status
        super().__init__(
            f"connecting {toolkit} ended with status {status}: that link can no longer be "
            f"used; call authorize({toolkit!r}) for a new link, then wait again"
        )


#: Account statuses that waiting cannot turn into ACTIVE.
_ENDED = frozenset(("FAILED", "EXPIRED"))


class ToolSearchError(ToolRouterError):
    """The service's search failed for the query (its message is kept)."""


_SchemaT = TypeVar("_SchemaT", m.ToolSchema, m.SearchToolSchema)


def _kept(seen: dict[str, _SchemaT], key: str, schema: _SchemaT) -> _SchemaT:
    """The schema object to build `key`'s tool from: the one kept from an earlier listing or
    search when it is unchanged (its conversion is then found by identity, and the schema
    cache does not fill up with a copy per listing), else `schema`, now kept."""
    previous = seen.get(key)
    if previous is not None and previous == schema:
        return previous
    seen[key] = schema
    return schema


# --------------------------------------------------------------------------- router


def _check_router_options(
    *,
    name_style: object,
    schema_options: object,
    max_content_chars: object,
    raise_errors: object,
) -> None:
    """Refuse the router's own settings now, naming each, rather than at first use."""
    if name_style not in ("exact", "safe"):
        raise ConfigurationError(
            f"name_style must be 'exact' (tool names are the slugs) or 'safe' (for providers "
            f"with strict name rules); got {name_style!r}"
        )
    if schema_options is not None and not isinstance(schema_options, ConversionOptions):
        raise ConfigurationError(
            f"schema_options must be a ConversionOptions or None; got "
            f"{type(schema_options).__name__}. Build one, e.g. "
            "ConversionOptions(strict_provider='openai') (from a dict: ConversionOptions(**d))."
        )
    if (
        isinstance(max_content_chars, bool)
        or not isinstance(max_content_chars, int)
        or max_content_chars < 1
    ):
        raise ConfigurationError(
            f"max_content_chars must be a positive int (the characters a model reads per tool "
            f"call; default {DEFAULT_MAX_CONTENT_CHARS}); got {max_content_chars!r} "
            f"({type(max_content_chars).__name__})"
        )
    if not isinstance(raise_errors, bool):
        raise ConfigurationError(
            f"raise_errors must be True or False; got {raise_errors!r} "
            f"({type(raise_errors).__name__})"
        )


class ToolRouter:
    """Entry point: creates and resumes Tool Router sessions.

    Configuration: explicit argument, then `COMPOSIO_API_KEY` / `COMPOSIO_BASE_URL` /
    `COMPOSIO_API_VERSION`, then defaults (the clients' rules).

    Args:
        api_key: Project API key.
        base_url: Service root (e.g. an `EmulatorServer`'s `base_url`).
        api_version: `"v3"` or `"v3.1"`.
        timeout: Default request timeout; `execute_timeout` for tool runs.
        retry: The clients' `RetryPolicy`.
        http_client / async_http_client: Your own httpx clients for the service.
        storage_client / astorage_client: httpx clients for presigned file URLs (must not
            carry the API key; default: a fresh key-less client per transfer).
        name_style: `"exact"` tool names (the slugs) or `"safe"` for picky providers.
        schema_options: `ConversionOptions` for the model-facing schemas.
        max_content_chars: Cap on the text a model reads per tool call.
        raise_errors: Make tools raise `ToolRouterToolError` instead of answering the model.

    Use it as a context manager (`with` / `async with`), or call `close()` / `aclose()`, to
    close every client it opened; clients you passed in stay open.

    Raises:
        ConfigurationError: a setting that is missing or unusable (no API key, a `timeout`
            that is not a positive finite number, a `retry` that is not a `RetryPolicy`, a
            `max_content_chars` that is not a positive int, a `raise_errors` that is not a
            bool...), named with what was given and what is accepted; nothing is deferred
            to the first call.
        TypeError: an http or storage client that is not the httpx client its argument takes.
    """

    def __init__(
        self,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        api_version: str | None = None,
        *,
        timeout: TimeoutTypes | Unset = UNSET,
        execute_timeout: TimeoutTypes | Unset = UNSET,
        retry: RetryPolicy | None = None,
        http_client: httpx.Client | None = None,
        async_http_client: httpx.AsyncClient | None = None,
        storage_client: httpx.Client | None = None,
        astorage_client: httpx.AsyncClient | None = None,
        name_style: NameStyle = "exact",
        schema_options: ConversionOptions | None = None,
        max_content_chars: int = DEFAULT_MAX_CONTENT_CHARS,
        raise_errors: bool = False,
    ) -> None:
        _check_router_options(
            name_style=name_style,
            schema_options=schema_options,
            max_content_chars=max_content_chars,
            raise_errors=raise_errors,
        )
        # The async ones are opened later, at first async use: checked now, not then.
        _check_http_client(async_http_client, httpx.AsyncClient, "async_http_client")
        _check_http_client(storage_client, httpx.Client, "storage_client")
        _check_http_client(astorage_client, httpx.AsyncClient, "astorage_client")
        self._client_options: dict[str, Any] = {
            # Kept for the async clients opened later; a SecretStr so it never shows in a repr.
            "api_key": SecretStr(api_key) if isinstance(api_key, str) else api_key,
            "base_url": base_url,
            "api_version": api_version,
            "timeout": timeout,
            "execute_timeout": execute_timeout,
            "retry": retry,
        }
        self.client = ToolRouterClient(**self._client_options, http_client=http_client)
        self._aclients = LoopClients(
            lambda: AsyncToolRouterClient(**self._client_options, http_client=async_http_client),
            per_loop=async_http_client is None,
        )
        self.storage_client = storage_client
        self.astorage_client = astorage_client
        self.name_style: NameStyle = name_style
        self.schema_options = schema_options
        self.max_content_chars = max_content_chars
        self.raise_errors = raise_errors

    @property
    def aclient(self) -> AsyncToolRouterClient:
        """The async client for the running event loop, opened on first use (sync-only
        programs never open one).

        Connections belong to the loop that opened them, so each loop gets its own client
        (a script may call `asyncio.run` twice), closed when that loop shuts down or by
        `aclose()`. A caller's own `async_http_client` is always used as given.
        """
        return self._aclients.get()

    @property
    def api_version(self) -> str:
        """The API version in use (`v3` or `v3.1`)."""
        return self.client.settings.api_version

    @property
    def base_url(self) -> str:
        """The service root."""
        return self.client.settings.base_url

    def close(self) -> None:
        """Close every client this router opened; the router cannot be used afterwards.

        The sync client closes now. Async clients cannot be awaited here: one whose loop is
        running is closed by a task scheduled on that loop, and one whose loop has stopped is
        closed when the loop shuts down (as `asyncio.run` does). In async code prefer
        `aclose()` (or `async with`), which waits. Clients you passed in stay open.
        """
        self.client.close()
        self._aclients.close_nowait()

    async def aclose(self) -> None:
        """Close every client this router opened, waiting for the running loop's to close."""
        self.client.close()
        await self._aclients.aclose()

    def __enter__(self) -> ToolRouter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> ToolRouter:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"ToolRouter(base_url={self.base_url!r}, api_version={self.api_version!r})"

    # ------------------------------------------------------------------ sessions

    @staticmethod
    def _create_body(
        user_id: str, registry: CustomRegistry, options: dict[str, Any]
    ) -> dict[str, Any]:
        body = session_request(user_id, **options)
        inline = registry.inline()
        if inline is not None:
            body["experimental"] = {**body.get("experimental", {}), **inline.to_wire()}
        return body

    def create_session(
        self,
        user_id: str,
        *,
        toolkits: Sequence[str] | Mapping[str, Any] | None = None,
        tools: Mapping[str, Any] | None = None,
        tags: Sequence[str] | Mapping[str, Any] | None = None,
        auth_configs: Mapping[str, str] | None = None,
        connected_accounts: Mapping[str, str | Sequence[str]] | None = None,
        manage_connections: bool | Mapping[str, Any] | None = None,
        workbench: bool | Mapping[str, Any] | None = None,
        preload: Sequence[str] | Literal["all"] | Mapping[str, Any] | None = None,
        search: bool | Mapping[str, Any] | None = None,
        multi_execute: bool | Mapping[str, Any] | None = None,
        multi_account: bool | Mapping[str, Any] | None = None,
        experimental: Mapping[str, Any] | None = None,
        custom_tools: Iterable[CustomToolInput] | None = None,
    ) -> ToolRouterSession:
        """Create a session for `user_id`.

        Args:
            user_id: Your user's id.
            toolkits: Toolkit slugs to allow (`["github"]`), or `{"disable": [...]}`.
            tools: Toolkit slug -> tool slugs to allow (or a filter mapping).
            tags: Tool tags to require (`["readOnlyHint"]`), or `{"enable", "disable"}`.
            auth_configs: Toolkit slug -> auth config id.
            connected_accounts: Toolkit slug -> account id (or ids).
            manage_connections: Expose `COMPOSIO_MANAGE_CONNECTIONS` (True/False or the block).
            workbench: Expose the remote workbench (True/False or the block).
            preload: App tools listed directly by `get_tools()` (slugs or `"all"`).
            search: Expose `COMPOSIO_SEARCH_TOOLS`.
            multi_execute: Expose `COMPOSIO_MULTI_EXECUTE_TOOL`.
            multi_account: `True`/`False`, or the multi-account block
                (`{"enable": ..., "max_accounts_per_toolkit": ...}`).
            experimental: Further `experimental` fields (e.g. `permissions`).
            custom_tools: Custom tools/toolkits (`@custom_tool` functions, `CustomToolkit`,
                LangChain tools, plain functions).
        """
        registry = CustomRegistry(custom_tools or ())
        body = self._create_body(
            user_id,
            registry,
            {
                "toolkits": toolkits,
                "tools": tools,
                "tags": tags,
                "auth_configs": auth_configs,
                "connected_accounts": connected_accounts,
                "manage_connections": manage_connections,
                "workbench": workbench,
                "preload": preload,
                "search": search,
                "multi_execute": multi_execute,
                "multi_account": multi_account,
                "experimental": experimental,
            },
        )
        session = self.client.create_session(body)
        registry.apply_echo(session.experimental)
        return ToolRouterSession(self, session, registry)

    async def acreate_session(
        self,
        user_id: str,
        *,
        toolkits: Sequence[str] | Mapping[str, Any] | None = None,
        tools: Mapping[str, Any] | None = None,
        tags: Sequence[str] | Mapping[str, Any] | None = None,
        auth_configs: Mapping[str, str] | None = None,
        connected_accounts: Mapping[str, str | Sequence[str]] | None = None,
        manage_connections: bool | Mapping[str, Any] | None = None,
        workbench: bool | Mapping[str, Any] | None = None,
        preload: Sequence[str] | Literal["all"] | Mapping[str, Any] | None = None,
        search: bool | Mapping[str, Any] | None = None,
        multi_execute: bool | Mapping[str, Any] | None = None,
        multi_account: bool | Mapping[str, Any] | None = None,
        experimental: Mapping[str, Any] | None = None,
        custom_tools: Iterable[CustomToolInput] | None = None,
    ) -> ToolRouterSession:
        """Async twin of `create_session`."""
        registry = CustomRegistry(custom_tools or ())
        body = self._create_body(
            user_id,
            registry,
            {
                "toolkits": toolkits,
                "tools": tools,
                "tags": tags,
                "auth_configs": auth_configs,
                "connected_accounts": connected_accounts,
                "manage_connections": manage_connections,
                "workbench": workbench,
                "preload": preload,
                "search": search,
                "multi_execute": multi_execute,
                "multi_account": multi_account,
                "experimental": experimental,
            },
        )
        session = await self.aclient.create_session(body)
        registry.apply_echo(session.experimental)
        return ToolRouterSession(self, session, registry)

    @staticmethod
    def _attach_args(registry: CustomRegistry) -> dict[str, Any]:
        inline = registry.inline()
        assert inline is not None
        return {"custom_tools": inline.custom_tools, "custom_toolkits": inline.custom_toolkits}

    def get_session(
        self, session_id: str, *, custom_tools: Iterable[CustomToolInput] | None = None
    ) -> ToolRouterSession:
        """Resume a session with the custom tools it was created with.

        Under v3.1 the service keeps no custom definitions, so they are attached (the answer
        maps their slugs); under v3 it kept them, and the session is read (attach is a v3.1
        operation).
        """
        registry = CustomRegistry(custom_tools or ())
        if registry and self.api_version == "v3.1":
            session = self.client.attach(session_id, **self._attach_args(registry))
        else:
            session = self.client.get_session(session_id)
        registry.apply_echo(session.experimental)
        _warn_echo_mismatch(registry, session)
        return ToolRouterSession(self, session, registry)

    async def aget_session(
        self, session_id: str, *, custom_tools: Iterable[CustomToolInput] | None = None
    ) -> ToolRouterSession:
        """Async twin of `get_session`."""
        registry = CustomRegistry(custom_tools or ())
        if registry and self.api_version == "v3.1":
            session = await self.aclient.attach(session_id, **self._attach_args(registry))
        else:
            session = await self.aclient.get_session(session_id)
        registry.apply_echo(session.experimental)
        _warn_echo_mismatch(registry, session)
        return ToolRouterSession(self, session, registry)


# --------------------------------------------------------------------------- session


class ToolRouterSession:
    """One Tool Router session: its tools for LangChain, search, connections, files, proxy.

    Get one from `ToolRouter.create_session` / `get_session` (or their async twins).

    Attributes:
        files: The session's files (`SessionFiles`).
        skipped_tools: `(slug, reason)` for each tool whose schema could not be converted,
            or whose `name_style="safe"` name another tool already has (the other tools
            still load).
    """

    def __init__(self, router: ToolRouter, session: m.Session, registry: CustomRegistry) -> None:
        self._router = router
        self._session = session
        self._registry = registry
        self._schemas: dict[str, m.ToolSchema] = {}
        self._found: dict[str, m.SearchToolSchema] = {}  # the last schema search gave per slug
        self._dispatch = Dispatcher(router, session.session_id, session.config.user_id, registry)
        self.files = SessionFiles(session.session_id, router)
        self.skipped_tools: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ facts

    @property
    def session_id(self) -> str:
        """The session id (`trs_...`)."""
        return self._session.session_id

    @property
    def user_id(self) -> str:
        """The session's user."""
        return self._session.config.user_id

    @property
    def config(self) -> m.SessionConfig:
        """The session config as the service returned it."""
        return self._session.config

    @property
    def raw(self) -> m.Session:
        """The whole session object from the service."""
        return self._session

    @property
    def custom_tools(self) -> list[CustomTool]:
        """The session's custom tools (final slugs as the service named them)."""
        return list(self._registry.tools)

    @property
    def mcp(self) -> McpConfig:
        """MCP endpoint; auth headers only when it has the API's origin."""
        key = self._router.client.settings.api_key.get_secret_value()
        return mcp_config(
            self._session.mcp.url,
            self._session.mcp.type,
            self._router.base_url,
            {"x-api-key": key},
        )

    def mcp_connection(self) -> dict[str, Any]:
        """The session's MCP server as a connection of langchain-mcp-adapters'
        `MultiServerMCPClient`: `{"transport": "streamable_http", "url": ..., "headers": ...}`
        (the key only for an MCP URL on the API's origin, as `mcp` gives it)."""
        mcp = self.mcp
        return {"transport": "streamable_http", "url": mcp.url, "headers": dict(mcp.headers)}

    @property
    def _client(self) -> ToolRouterClient:
        return self._router.client

    @property
    def _aclient(self) -> AsyncToolRouterClient:
        return self._router.aclient

    def _inline(self) -> m.InlineCustomTools | None:
        """Custom definitions to send with this call (every call under v3.1)."""
        return self._dispatch.inline()

    # ------------------------------------------------------------------ building tools

    def _make_tool(
        self,
        slug: str,
        description: str | None,
        input_schema: Mapping[str, Any] | None,
        *,
        toolkit: str | None,
        kind: str,
        tags: Sequence[str] = (),
        output_schema: Mapping[str, Any] | None = None,
    ) -> ToolRouterTool | None:
        """A LangChain tool for one slug; `None` (and a warning) if its schema cannot convert."""
        metadata: dict[str, Any] = {
            "slug": slug,
            "toolkit": toolkit,
            "kind": kind,
            "tags": list(tags),
            "read_only": "readOnlyHint" in tags,
            "destructive": "destructiveHint" in tags,
            "output_schema": dict(output_schema) if output_schema else None,
            "session_id": self.session_id,
        }
        router = self._router
        try:
            return ToolRouterTool(
                name=tool_name_for(slug, router.name_style),
                slug=slug,
                description=description or slug,
                input_json_schema=input_schema or {"type": "object", "properties": {}},
                executor=SessionToolExecutor(self._dispatch, slug, toolkit),
                metadata=metadata,
                schema_options=router.schema_options,
                max_content_chars=router.max_content_chars,
                handle_tool_error=not router.raise_errors,
            )
        except SchemaConversionError as exc:
            self._skip(slug, f"its input schema cannot be used ({exc})")
            return None

    def _schema_tool(self, schema: m.ToolSchema) -> ToolRouterTool | None:
        return self._make_tool(
            schema.slug,
            schema.description,
            schema.input_parameters,
            toolkit=schema.toolkit.slug if schema.toolkit else None,
            kind="meta" if is_meta(schema.slug) else "app",
            tags=schema.tags,
            output_schema=schema.output_parameters,
        )

    def _custom_lc_tool(self, custom: CustomTool) -> ToolRouterTool | None:
        return self._make_tool(
            custom.final_slug,
            custom.description,
            custom.input_schema,
            toolkit=custom.toolkit or custom.extends_toolkit,
            kind="custom",
            output_schema=custom.output_schema,
        )

    def _tool_list(
        self, schemas: Iterable[m.ToolSchema], include_custom: Literal["preloaded", "all"]
    ) -> ToolList:
        if include_custom not in ("preloaded", "all"):
            msg = f"include_custom must be 'preloaded' or 'all', got {include_custom!r}"
            raise ValueError(msg)
        tools: list[ToolRouterTool] = []
        seen: set[str] = set()
        for schema in schemas:
            key = schema.slug.upper()
            if key in seen or self._registry.resolve_exact(schema.slug) is not None:
                continue  # a custom tool echoed by the service is built from our definition
            seen.add(key)
            tool = self._schema_tool(_kept(self._schemas, key, schema))
            if tool is not None:
                tools.append(tool)
        customs = self._registry.tools if include_custom == "all" else self._registry.preloaded()
        for custom in customs:
            tool = self._custom_lc_tool(custom)
            if tool is not None:
                tools.append(tool)
        result = ToolList(self._distinct_names(tools))
        result.caption = f"{len(result)} tools of session {self.session_id}"
        return result

    def _distinct_names(self, tools: Iterable[ToolRouterTool]) -> list[ToolRouterTool]:
        """The tools minus any whose name an earlier one has (logged, and in `skipped_tools`):
        `name_style="safe"` can give two slugs one name (`GET.USER`, `GET_USER`), and a model
        could only ever call the first."""
        kept: dict[str, ToolRouterTool] = {}
        for tool in tools:
            first = kept.setdefault(tool.name, tool)
            if first is not tool:
                why = (
                    f"its name {tool.name!r} is also the name of {first.slug} "
                    f"(name_style={self._router.name_style!r}); use name_style='exact' "
                    "to offer both"
                )
                self._skip(tool.slug, why)
        return list(kept.values())

    def get_tools(self, *, include_custom: Literal["preloaded", "all"] = "preloaded") -> ToolList:
        """Every tool of the session as LangChain tools.

        That is every page of the service's `/tools` (meta tools and preloaded app tools)
        plus the custom tools: the preloaded ones by default (the others are found through
        search, as on the service), or all of them with `include_custom="all"`.
        """
        schemas = self._client.iter_tools(self.session_id, limit=_TOOLS_PAGE)
        return self._tool_list(schemas, include_custom)

    async def aget_tools(
        self, *, include_custom: Literal["preloaded", "all"] = "preloaded"
    ) -> ToolList:
        """Async twin of `get_tools`."""
        items = self._aclient.iter_tools(self.session_id, limit=_TOOLS_PAGE)
        return self._tool_list([schema async for schema in items], include_custom)

    def as_toolkit(
        self, *, include: Sequence[str] | None = None, exclude: Sequence[str] = ()
    ) -> ToolRouterToolkit:
        """This session as a `ToolRouterToolkit` (with include/exclude filters)."""
        return ToolRouterToolkit(session=self, include=include, exclude=exclude)

    # ------------------------------------------------------------------ search

    def _search_body(self, query: str, known_fields: str | None) -> list[dict[str, Any]]:
        # Refused as ToolSearch refuses it: a blank use case finds nothing meaningful.
        entry: dict[str, Any] = {
            "use_case": check_text("the tool search query", query, hint="e.g. 'create a note'")
        }
        if known_fields is not None and known_fields != "":  # "" is "nothing known"
            entry["known_fields"] = check_text(
                "known_fields", known_fields, hint="e.g. 'repo:hello-world, owner:alice'"
            )
        return [entry]

    def _search_slugs(
        self, response: m.SearchResponse, include_related: bool
    ) -> tuple[list[str], list[str], list[str]]:
        """`(ordered slugs, primary slugs, slugs whose schema must be fetched)`."""
        if not response.results:
            raise ToolSearchError(response.error or "the service's search returned no result")
        result = response.results[0]
        if result.error and not result.primary_tool_slugs:
            raise ToolSearchError(result.error)
        ordered: list[str] = []
        for slug in [
            *result.primary_tool_slugs,
            *(result.related_tool_slugs if include_related else []),
        ]:
            if slug not in ordered:
                ordered.append(slug)
        missing = [
            slug
            for slug in ordered
            if self._registry.resolve_exact(slug) is None
            and not _full_schema(response.tool_schemas.get(slug))
            and slug.upper() not in self._schemas
        ]
        return ordered, list(result.primary_tool_slugs), missing

    def _search_result(
        self,
        query: str,
        response: m.SearchResponse,
        ordered: list[str],
        primary: list[str],
        fetched: Mapping[str, m.SearchToolSchema],
    ) -> ToolSearchResult:
        tools: list[ToolRouterTool] = []
        for slug in ordered:
            found = response.tool_schemas.get(slug)
            if not _full_schema(found):
                found = fetched.get(slug) or found
            tool = self._tool_for(slug, found)
            if tool is not None:
                tools.append(tool)
        connected = {
            status.toolkit: status.has_active_connection
            for status in response.toolkit_connection_statuses
        }
        return ToolSearchResult(
            self._distinct_names(tools),
            query=query,
            primary=[tool_name_for(s, self._router.name_style) for s in primary],
            connected=connected,
            response=response,
        )

    def _tool_for(self, slug: str, found: m.SearchToolSchema | None) -> ToolRouterTool | None:
        custom = self._registry.resolve_exact(slug)
        if custom is not None:
            return self._custom_lc_tool(custom)
        if _full_schema(found):
            assert found is not None
            found = _kept(self._found, slug, found)
            return self._make_tool(
                slug,
                found.description,
                found.input_schema,
                toolkit=found.toolkit,
                kind="meta" if is_meta(slug) else "app",
                output_schema=found.output_schema,
            )
        cached = self._schemas.get(slug.upper())
        if cached is not None:
            return self._schema_tool(cached)
        self._skip(slug, "search found it, but its schema is not available from the service")
        return None

    def _skip(self, slug: str, why: str) -> None:
        """Record (once; tools are listed again and again) and log a tool that is left out."""
        if (slug, why) not in self.skipped_tools:
            _log.warning("tool %s is skipped: %s", slug, why)
            self.skipped_tools.append((slug, why))

    def _schemas_args(self, missing: list[str]) -> dict[str, Any]:
        return {"tool_slugs": missing}

    @staticmethod
    def _read_schemas(result: m.ExecuteResult) -> dict[str, m.SearchToolSchema]:
        raw = result.data.get("tool_schemas") if result.data else None
        if not isinstance(raw, Mapping):
            return {}
        return {slug: m.SearchToolSchema.model_validate(entry) for slug, entry in raw.items()}

    def search_tools(
        self,
        query: str,
        *,
        known_fields: str | None = None,
        include_related: bool = True,
        model: str | None = None,
    ) -> ToolSearchResult:
        """Search the session's tools for a use case; returns ready LangChain tools.

        Schemas come from the search answer, or from `COMPOSIO_GET_TOOL_SCHEMAS` when search
        left them out. Primary tools come first, then related ones.

        Args:
            query: What the tool should do ("create a GitHub issue").
            known_fields: Known inputs as `"key:value, key:value"`.
            include_related: Also return related tools.
            model: The calling model's name (a hint for the service).
        """
        response = self._client.search(
            self.session_id,
            self._search_body(query, known_fields),
            model=model,
            experimental=self._inline(),
        )
        ordered, primary, missing = self._search_slugs(response, include_related)
        fetched: dict[str, m.SearchToolSchema] = {}
        if missing:
            result = self._client.execute_meta(
                self.session_id,
                GET_TOOL_SCHEMAS,
                self._schemas_args(missing),
                experimental=self._inline(),
            )
            fetched = self._read_schemas(result)
        return self._search_result(query, response, ordered, primary, fetched)

    async def asearch_tools(
        self,
        query: str,
        *,
        known_fields: str | None = None,
        include_related: bool = True,
        model: str | None = None,
    ) -> ToolSearchResult:
        """Async twin of `search_tools`."""
        response = await self._aclient.search(
            self.session_id,
            self._search_body(query, known_fields),
            model=model,
            experimental=self._inline(),
        )
        ordered, primary, missing = self._search_slugs(response, include_related)
        fetched: dict[str, m.SearchToolSchema] = {}
        if missing:
            result = await self._aclient.execute_meta(
                self.session_id,
                GET_TOOL_SCHEMAS,
                self._schemas_args(missing),
                experimental=self._inline(),
            )
            fetched = self._read_schemas(result)
        return self._search_result(query, response, ordered, primary, fetched)

    def as_search_runnable(
        self, *, include_related: bool = True, limit: int | None = None
    ) -> ToolSearch:
        """A `ToolSearch` Runnable over this session (query in, tools out)."""
        return ToolSearch(self, include_related=include_related, limit=limit)

    def as_retriever(self, *, include_related: bool = True) -> ToolRetriever:
        """A `ToolRetriever` over this session (one Document per tool found)."""
        return ToolRetriever(session=self, include_related=include_related)

    # ------------------------------------------------------------------ connections

    def toolkits(
        self,
        *,
        connected: bool | None = None,
        search: str | None = None,
        toolkits: Sequence[str] | None = None,
    ) -> ToolkitList:
        """The session's toolkits (every page) with the user's connection state."""
        slugs = _check_toolkit_filters(connected, search, toolkits)
        items = self._client.iter_toolkits(
            self.session_id, is_connected=connected, search=search, toolkits=slugs
        )
        return toolkit_list(items)

    async def atoolkits(
        self,
        *,
        connected: bool | None = None,
        search: str | None = None,
        toolkits: Sequence[str] | None = None,
    ) -> ToolkitList:
        """Async twin of `toolkits`."""
        slugs = _check_toolkit_filters(connected, search, toolkits)
        items = self._aclient.iter_toolkits(
            self.session_id, is_connected=connected, search=search, toolkits=slugs
        )
        return toolkit_list([item async for item in items])

    def authorize(
        self, toolkit: str, *, callback_url: str | None = None, alias: str | None = None
    ) -> ConnectionLink:
        """Start connecting the user's `toolkit` account; send the user to `redirect_url`.

        Raises:
            ValueError: the toolkit is not part of the session.
        """
        self._check_in_session(toolkit)
        response = self._client.create_link(
            self.session_id, toolkit, callback_url=callback_url, alias=alias
        )
        return ConnectionLink.from_response(toolkit, response)

    async def aauthorize(
        self, toolkit: str, *, callback_url: str | None = None, alias: str | None = None
    ) -> ConnectionLink:
        """Async twin of `authorize`."""
        self._check_in_session(toolkit)
        response = await self._aclient.create_link(
            self.session_id, toolkit, callback_url=callback_url, alias=alias
        )
        return ConnectionLink.from_response(toolkit, response)

    def _check_in_session(self, toolkit: str) -> None:
        """Fail fast for a toolkit the session's config leaves out (the service would list
        it anyway, and the wait would only end at its timeout)."""
        check_text("the toolkit", toolkit, hint="e.g. 'github'")
        allowed = self.config.toolkits
        if allowed is None:
            return
        key = toolkit.lower()
        if allowed.enabled is not None and key not in {t.lower() for t in allowed.enabled}:
            listed = ", ".join(allowed.enabled) or "none"
            msg = (
                f"toolkit {toolkit!r} is not part of session {self.session_id} (its "
                f"toolkits: {listed}); create a session with toolkits=[..., {toolkit!r}]"
            )
            raise ValueError(msg)
        if allowed.disabled is not None and key in {t.lower() for t in allowed.disabled}:
            msg = f"toolkit {toolkit!r} is not part of session {self.session_id}: it is disabled"
            raise ValueError(msg)

    def _connection_state(self, toolkit: str, items: ToolkitList) -> ToolkitInfo:
        info = items.get(toolkit)
        if info is None:
            msg = f"toolkit {toolkit!r} is not part of session {self.session_id}"
            raise ValueError(msg)
        if info.connected is False and (info.status or "").upper() in _ENDED:
            raise ConnectionFailedError(toolkit, (info.status or "").upper())
        return info

    def _check_wait(self, toolkit: str, timeout: float, poll_interval: float) -> None:
        check_number("timeout (seconds)", timeout, minimum=0, infinite=True)
        check_number("poll_interval (seconds)", poll_interval, positive=True)
        self._check_in_session(toolkit)

    def wait_for_connection(
        self, toolkit: str, *, timeout: float = 120.0, poll_interval: float = 1.0
    ) -> ToolkitInfo:
        """Poll the toolkit list until `toolkit` is connected (or needs no auth).

        Raises:
            ValueError: the toolkit is not part of the session (checked before waiting).
            ConnectionFailedError: the account ended `FAILED` or `EXPIRED` (no use waiting).
            ConnectionTimeoutError: not connected after `timeout` seconds.
        """
        self._check_wait(toolkit, timeout, poll_interval)
        deadline = time.monotonic() + timeout
        while True:
            info = self._connection_state(toolkit, self.toolkits(toolkits=[toolkit]))
            if info.connected is not False:
                self._dispatch.forget_link(toolkit)
                return info
            if time.monotonic() >= deadline:
                raise ConnectionTimeoutError(toolkit, timeout, info.status)
            time.sleep(min(poll_interval, max(0.0, deadline - time.monotonic())))

    async def await_for_connection(
        self, toolkit: str, *, timeout: float = 120.0, poll_interval: float = 1.0
    ) -> ToolkitInfo:
        """Async twin of `wait_for_connection`."""
        self._check_wait(toolkit, timeout, poll_interval)
        deadline = time.monotonic() + timeout
        while True:
            info = self._connection_state(toolkit, await self.atoolkits(toolkits=[toolkit]))
            if info.connected is not False:
                self._dispatch.forget_link(toolkit)
                return info
            if time.monotonic() >= deadline:
                raise ConnectionTimeoutError(toolkit, timeout, info.status)
            await asyncio.sleep(min(poll_interval, max(0.0, deadline - time.monotonic())))

    # ------------------------------------------------------------------ execution

    def execute(
        self,
        slug: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        account: str | None = None,
    ) -> ToolOutcome:
        """Run a tool directly (custom tools, named by their `LOCAL_...` slug, run here;
        multi-execute is split as for agents).

        Service errors raise (`APIError`, `TransportError`); a tool that ran and failed
        returns an outcome with `successful=False`.
        """
        return self._dispatch.route(*_execute_args(slug, arguments), account)

    async def aexecute(
        self,
        slug: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        account: str | None = None,
    ) -> ToolOutcome:
        """Async twin of `execute`."""
        return await self._dispatch.aroute(*_execute_args(slug, arguments), account)

    def _known_tool(self, slug: str) -> ToolRouterTool | Literal[False] | None:
        """A tool from what this session already knows (`False`: nothing known; `None`: its
        schema cannot be converted)."""
        check_text("the tool slug", slug, hint="e.g. 'GITHUB_CREATE_AN_ISSUE'")
        custom = self._registry.resolve_exact(slug)
        if custom is not None:
            return self._custom_lc_tool(custom)
        cached = self._schemas.get(slug.upper())
        if cached is not None:
            return self._schema_tool(cached)
        return False

    def _from_fetched(
        self, slug: str, result: m.ExecuteResult
    ) -> ToolRouterTool | Literal[False] | None:
        """The tool under the slug the service reports (any case asked for gives the same
        name as search and `get_tools`)."""
        fetched = self._read_schemas(result)
        key = next((k for k in fetched if k.upper() == slug.upper()), None)
        return False if key is None else self._tool_for(key, fetched[key])

    def _checked(
        self, slug: str, built: ToolRouterTool | Literal[False] | None, reason: str | None
    ) -> ToolRouterTool:
        if built is False:
            msg = f"no tool {slug!r} in session {self.session_id}: {reason or 'unknown slug'}"
            hint = self._registry.missing_hint(slug)
            if hint is not None:
                msg += f" {hint}"
            raise LookupError(msg)
        if built is None:
            msg = f"tool {slug!r} has an input schema that cannot be used; see skipped_tools"
            raise LookupError(msg)
        return built

    def tool(self, slug: str) -> ToolRouterTool:
        """One tool by slug: a custom tool, a tool already listed or found, or fetched
        (meta tools from the session's tool list, app tools with `COMPOSIO_GET_TOOL_SCHEMAS`).

        Raises:
            LookupError: the session has no such tool.
        """
        built = self._known_tool(slug)
        reason = None
        if built is False and is_meta(slug):
            self.get_tools()
            built = self._known_tool(slug)
        elif built is False:
            result = self._client.execute_meta(
                self.session_id,
                GET_TOOL_SCHEMAS,
                {"tool_slugs": [slug]},
                experimental=self._inline(),
            )
            built, reason = self._from_fetched(slug, result), result.error
        return self._checked(slug, built, reason)

    async def atool(self, slug: str) -> ToolRouterTool:
        """Async twin of `tool`."""
        built = self._known_tool(slug)
        reason = None
        if built is False and is_meta(slug):
            await self.aget_tools()
            built = self._known_tool(slug)
        elif built is False:
            result = await self._aclient.execute_meta(
                self.session_id,
                GET_TOOL_SCHEMAS,
                {"tool_slugs": [slug]},
                experimental=self._inline(),
            )
            built, reason = self._from_fetched(slug, result), result.error
        return self._checked(slug, built, reason)

    # ------------------------------------------------------------------ proxy and lifecycle

    def proxy_execute(
        self,
        toolkit: str,
        endpoint: str,
        method: str = "GET",
        *,
        body: Any = None,
        parameters: Sequence[m.ProxyParameter | Mapping[str, Any]] | None = None,
        binary_body: m.BinaryBody | Mapping[str, Any] | None = None,
        custom_connection_data: Mapping[str, Any] | None = None,
    ) -> m.ProxyResult:
        """Call the toolkit's own API with the user's connection (the service adds the auth)."""
        return self._client.proxy_execute(
            self.session_id,
            toolkit,
            endpoint,
            method,
            body=body,
            parameters=parameters,
            binary_body=binary_body,
            custom_connection_data=custom_connection_data,
        )

    async def aproxy_execute(
        self,
        toolkit: str,
        endpoint: str,
        method: str = "GET",
        *,
        body: Any = None,
        parameters: Sequence[m.ProxyParameter | Mapping[str, Any]] | None = None,
        binary_body: m.BinaryBody | Mapping[str, Any] | None = None,
        custom_connection_data: Mapping[str, Any] | None = None,
    ) -> m.ProxyResult:
        """Async twin of `proxy_execute`."""
        return await self._aclient.proxy_execute(
            self.session_id,
            toolkit,
            endpoint,
            method,
            body=body,
            parameters=parameters,
            binary_body=binary_body,
            custom_connection_data=custom_connection_data,
        )

    def delete(self) -> None:
        """Delete the session at the service; later calls on it fail with `NotFoundError`."""
        self._client.delete_session(self.session_id)

    async def adelete(self) -> None:
        """Async twin of `delete`."""
        await self._aclient.delete_session(self.session_id)

    # ------------------------------------------------------------------ display

    def _rows(self) -> list[tuple[str, str]]:
        toolkits = self.config.toolkits
        allowed = ""
        if toolkits is not None:
            if toolkits.enabled is not None:
                allowed = ", ".join(toolkits.enabled) or "(none)"
            elif toolkits.disabled is not None:
                allowed = "all but " + ", ".join(toolkits.disabled)
        return [
            ("session_id", self.session_id),
            ("user_id", self.user_id),
            ("toolkits", allowed or "all"),
            ("custom tools", ", ".join(t.final_slug for t in self._registry.tools) or "-"),
            ("mcp", self._session.mcp.url),
        ]

    def _repr_html_(self) -> str:
        return html_table(("field", "value"), self._rows(), caption="Tool Router session")

    def __str__(self) -> str:
        return text_table(("field", "value"), self._rows(), caption="Tool Router session")

    def __repr__(self) -> str:
        return (
            f"ToolRouterSession(session_id={self.session_id!r}, user_id={self.user_id!r}, "
            f"custom_tools={[t.final_slug for t in self._registry.tools]!r})"
        )


def _warn_echo_mismatch(registry: CustomRegistry, session: m.Session) -> None:
    """Warn when a resumed session's custom tools are not the ones passed to resume it."""
    if not registry:
        return
    mismatch = registry.echo_mismatch(session.experimental)
    if mismatch is not None:
        warnings.warn(f"session {session.session_id}: {mismatch}", UserWarning, stacklevel=3)


def _check_toolkit_filters(connected: object, search: object, toolkits: object) -> list[str] | None:
    """`toolkits(...)`'s slugs as a list, after refusing filters of the wrong kind (a string
    for `connected` would be read as true, one toolkit slug as a list of its letters)."""
    if connected is not None and not isinstance(connected, bool):
        msg = f"connected must be True, False or None (all), got {connected!r}"
        raise TypeError(msg)
    if search is not None and not isinstance(search, str):
        msg = f"search must be a string, got {type(search).__name__}"
        raise TypeError(msg)
    if toolkits is None:
        return None
    slugs = (
        None
        if isinstance(toolkits, (str, bytes, Mapping)) or not isinstance(toolkits, Iterable)
        else list(toolkits)
    )
    if slugs is None or not all(isinstance(t, str) for t in slugs):
        msg = f"toolkits must be a list of toolkit slugs such as ['github'], got {toolkits!r}"
        raise TypeError(msg)
    return slugs


def _execute_args(slug: object, arguments: object) -> tuple[str, dict[str, Any]]:
    """``execute``'s slug and arguments, checked: the arguments are a JSON object (a dict)."""
    name = check_text("the tool slug", slug, hint="e.g. 'GITHUB_CREATE_AN_ISSUE'")
    if arguments is None:
        return name, {}
    if not isinstance(arguments, Mapping):
        msg = (
            f"the arguments of {name} must be a dict of named arguments (a JSON object), got "
            f"{type(arguments).__name__}: e.g. session.execute({name!r}, {{'title': 'Hi'}})"
        )
        raise TypeError(msg)
    return name, dict(arguments)


def _full_schema(found: m.SearchToolSchema | None) -> bool:
    return (
        found is not None and found.input_schema is not None and found.has_full_schema is not False
    )
