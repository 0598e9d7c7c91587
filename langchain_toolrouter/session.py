"""`ToolRouter` (the entry point) and `ToolRouterSession` (one session's tools, search, links,
files and proxy).

Both are thin faces. A one-request method is a pair of twins, the sync one with the sync
client and the `a*` one with the async client, natively; a method of several requests runs a
flow written once (`_session.faces`): no event loop is started or borrowed, so the sync API also
works inside a running loop (Jupyter). Sessions are made by `_session.sessions` and receive the
router's `Runtime` (clients and settings), never the router.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import httpx
from pydantic import SecretStr

from langchain_toolrouter._answers import DEFAULT_MAX_CONTENT_CHARS
from langchain_toolrouter._arguments import check_number, check_text
from langchain_toolrouter._config import UNSET, TimeoutTypes, Unset
from langchain_toolrouter._display import html_table, text_table
from langchain_toolrouter._exceptions import ConfigurationError
from langchain_toolrouter._session import sessions
from langchain_toolrouter._session.builder import GET_TOOL_SCHEMAS, read_schemas, search
from langchain_toolrouter._session.calls import is_meta
from langchain_toolrouter._session.connections import (
    ConnectionPolicy,
    OnConnectionRequired,
    connection_policy,
    wait_until_connected,
)
from langchain_toolrouter._session.faces import AsyncFace, Face, SyncFace, run_sync
from langchain_toolrouter._session.loop_clients import LoopClients
from langchain_toolrouter._session.runtime import Runtime, ToolOptions
from langchain_toolrouter._session.sessions import (
    TOOLS_PAGE,
    Creation,
    OpenSession,
)
from langchain_toolrouter.client import (
    AsyncToolRouterClient,
    ToolRouterClient,
    _check_http_client,
)
from langchain_toolrouter.custom_tools import CustomTool
from langchain_toolrouter.custom_tools._registry import CustomRegistry, CustomToolInput
from langchain_toolrouter.files import SessionFiles
from langchain_toolrouter.schema import ConversionOptions
from langchain_toolrouter.search import ToolRetriever, ToolSearch
from langchain_toolrouter.toolkit import ToolRouterToolkit
from langchain_toolrouter.tools import NameStyle, ToolRouterTool
from langchain_toolrouter.types import (
    ConnectionLink,
    ConnectionRequest,
    McpConfig,
    ToolkitInfo,
    ToolkitList,
    ToolList,
    ToolOutcome,
    ToolSearchResult,
)
from langchain_toolrouter.wire import models as m

if TYPE_CHECKING:
    from langchain_toolrouter.wire.retry import RetryPolicy

__all__ = ["ToolRouter", "ToolRouterSession"]

SCHEMA_USER_ID = "langchain-toolrouter-schema"
"""The user of the session `per_user_tools` reads the tool schemas from, unless told another."""


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
        max_response_bytes / attempt_deadline: The clients' limits on an answer: its size in
            decoded bytes (default 64 MiB) and the seconds one attempt may take in all
            (default twice the read timeout); None for no limit. See `ToolRouterClient`.
        http_client / async_http_client: Your own httpx clients for the service.
        storage_client / astorage_client: httpx clients for presigned file URLs (must not
            carry the API key; default: a fresh key-less client per transfer).
        name_style: `"exact"` tool names (the slugs) or `"safe"` for picky providers.
        schema_options: `ConversionOptions` for the model-facing schemas.
        max_content_chars: Cap on the text a model reads per tool call.
        raise_errors: Make tools raise `ToolRouterToolError` instead of answering the model.
        on_connection_required: What a tool does when its call needs an account the user has
            not connected: `"message"` (default) answers the model with the link;
            `"interrupt"` pauses the LangGraph run (`langgraph.types.interrupt`) with a
            `ConnectionRequest.as_payload()` and, once resumed, waits for the account and makes
            the call once (needs `langchain-toolrouter[langgraph]`); `"wait"` hands the
            `ConnectionRequest` to `on_link` and waits for the account (no LangGraph needed).
            Sessions may override it (`create_session(..., on_connection_required=...)`).
        connection_timeout: Seconds to wait for the account (`"interrupt"`, `"wait"`).
        on_link: Called with the `ConnectionRequest` in `"wait"` mode (default: one WARNING
            on the `langchain_toolrouter` logger); may be async.

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
        max_response_bytes: int | Unset | None = UNSET,
        attempt_deadline: float | Unset | None = UNSET,
        http_client: httpx.Client | None = None,
        async_http_client: httpx.AsyncClient | None = None,
        storage_client: httpx.Client | None = None,
        astorage_client: httpx.AsyncClient | None = None,
        name_style: NameStyle = "exact",
        schema_options: ConversionOptions | None = None,
        max_content_chars: int = DEFAULT_MAX_CONTENT_CHARS,
        raise_errors: bool = False,
        on_connection_required: OnConnectionRequired = "message",
        connection_timeout: float = 300.0,
        on_link: Callable[[ConnectionRequest], Any] | None = None,
    ) -> None:
        self._connection = connection_policy(
            ConnectionPolicy(),
            on_connection_required=on_connection_required,
            connection_timeout=connection_timeout,
            on_link=on_link,
        )
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
        client_options: dict[str, Any] = {
            # Kept for the async clients opened later; a SecretStr so it never shows in a repr.
            "api_key": SecretStr(api_key) if isinstance(api_key, str) else api_key,
            "base_url": base_url,
            "api_version": api_version,
            "timeout": timeout,
            "execute_timeout": execute_timeout,
            "retry": retry,
            "max_response_bytes": max_response_bytes,
            "attempt_deadline": attempt_deadline,
        }
        client = ToolRouterClient(**client_options, http_client=http_client)
        aclients = LoopClients(
            lambda: AsyncToolRouterClient(**client_options, http_client=async_http_client),
            per_loop=async_http_client is None,
        )
        self._rt = Runtime(
            client,
            aclients,
            storage_client=storage_client,
            astorage_client=astorage_client,
            tools=ToolOptions(
                name_style=name_style,
                schema_options=schema_options,
                max_content_chars=max_content_chars,
                raise_errors=raise_errors,
            ),
        )

    @property
    def client(self) -> ToolRouterClient:
        """The sync client."""
        return self._rt.client

    @property
    def aclient(self) -> AsyncToolRouterClient:
        """The async client for the running event loop, opened on first use (sync-only
        programs never open one).

        Connections belong to the loop that opened them, so each loop gets its own client
        (a script may call `asyncio.run` twice), closed when that loop shuts down or by
        `aclose()`. A caller's own `async_http_client` is always used as given.
        """
        return self._rt.aclient

    @property
    def api_version(self) -> str:
        """The API version in use (`v3` or `v3.1`)."""
        return self._rt.api_version

    @property
    def base_url(self) -> str:
        """The service root."""
        return self._rt.base_url

    @property
    def storage_client(self) -> httpx.Client | None:
        """Your httpx client for presigned file URLs, if you gave one."""
        return self._rt.storage_client

    @property
    def astorage_client(self) -> httpx.AsyncClient | None:
        """Your async httpx client for presigned file URLs, if you gave one."""
        return self._rt.astorage_client

    @property
    def name_style(self) -> NameStyle:
        """How slugs become tool names."""
        return self._rt.tools.name_style

    @property
    def schema_options(self) -> ConversionOptions | None:
        """The schema layer's options for model-facing schemas."""
        return self._rt.tools.schema_options

    @property
    def max_content_chars(self) -> int:
        """Cap on the text a model reads per tool call."""
        return self._rt.tools.max_content_chars

    @property
    def raise_errors(self) -> bool:
        """Whether tools raise `ToolRouterToolError`s instead of answering the model."""
        return self._rt.tools.raise_errors

    def close(self) -> None:
        """Close every client this router opened; the router cannot be used afterwards.

        The sync client closes now. Async clients cannot be awaited here: one whose loop is
        running is closed by a task scheduled on that loop, and one whose loop has stopped is
        closed when the loop shuts down (as `asyncio.run` does). In async code prefer
        `aclose()` (or `async with`), which waits. Clients you passed in stay open.
        """
        self._rt.close()

    async def aclose(self) -> None:
        """Close every client this router opened, waiting for the running loop's to close."""
        await self._rt.aclose()

    def __enter__(self) -> ToolRouter:
        self._check_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> ToolRouter:
        self._check_open()
        return self

    def _check_open(self) -> None:
        if self._rt.client.is_closed:
            msg = "this ToolRouter is closed; create a new one to make more calls"
            raise RuntimeError(msg)

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"ToolRouter(base_url={self.base_url!r}, api_version={self.api_version!r})"

    # ------------------------------------------------------------------ sessions

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
        on_connection_required: OnConnectionRequired | None = None,
        connection_timeout: float | None = None,
        on_link: Callable[[ConnectionRequest], Any] | None = None,
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
            on_connection_required, connection_timeout, on_link: This session's own
                connection handling (default: the router's; see `ToolRouter`).
        """
        options = locals()  # the session options are picked by name (SESSION_OPTIONS)
        creation = self._creation(custom_tools, on_connection_required, connection_timeout, on_link)
        body = creation.body(user_id, options)
        return ToolRouterSession(creation.opened(self._rt.client.create_session(body)))

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
        on_connection_required: OnConnectionRequired | None = None,
        connection_timeout: float | None = None,
        on_link: Callable[[ConnectionRequest], Any] | None = None,
    ) -> ToolRouterSession:
        """Async twin of `create_session`."""
        options = locals()  # the session options are picked by name (SESSION_OPTIONS)
        creation = self._creation(custom_tools, on_connection_required, connection_timeout, on_link)
        body = creation.body(user_id, options)
        return ToolRouterSession(creation.opened(await self._rt.aclient.create_session(body)))

    def get_session(
        self,
        session_id: str,
        *,
        custom_tools: Iterable[CustomToolInput] | None = None,
        on_connection_required: OnConnectionRequired | None = None,
        connection_timeout: float | None = None,
        on_link: Callable[[ConnectionRequest], Any] | None = None,
    ) -> ToolRouterSession:
        """Resume a session with the custom tools it was created with.

        Under v3.1 the service keeps no custom definitions, so they are attached (the answer
        maps their slugs); under v3 it kept them, and the session is read (attach is a v3.1
        operation).
        """
        creation = self._creation(custom_tools, on_connection_required, connection_timeout, on_link)
        session = run_sync(creation.resume(SyncFace(self._rt), session_id))
        return ToolRouterSession(_resumed(creation, session))

    async def aget_session(
        self,
        session_id: str,
        *,
        custom_tools: Iterable[CustomToolInput] | None = None,
        on_connection_required: OnConnectionRequired | None = None,
        connection_timeout: float | None = None,
        on_link: Callable[[ConnectionRequest], Any] | None = None,
    ) -> ToolRouterSession:
        """Async twin of `get_session`."""
        creation = self._creation(custom_tools, on_connection_required, connection_timeout, on_link)
        session = await creation.resume(AsyncFace(self._rt), session_id)
        return ToolRouterSession(_resumed(creation, session))

    def per_user_tools(
        self,
        *,
        custom_tools: Iterable[CustomToolInput] | None = None,
        on_connection_required: OnConnectionRequired | None = None,
        connection_timeout: float | None = None,
        on_link: Callable[[ConnectionRequest], Any] | None = None,
        session_store: Any = None,
        max_sessions: int = 1024,
        session_max_age: float = 3600.0,
        schema_user_id: str = SCHEMA_USER_ID,
        **session_options: Any,
    ) -> ToolList:
        """Tools for one agent that serves many users: each call runs in its user's session.

        The tools are the meta tools (and preloaded tools, and custom tools) of a session made
        with `session_options` (`create_session`'s: `toolkits`, `manage_connections`, ...). The
        session of each call is chosen from the run: `config["configurable"]["user_id"]`, else
        LangGraph's runtime context (`context.user_id`, or `context["user_id"]`, as
        `create_agent(context_schema=...)` passes it), else the LangGraph server's
        authenticated user (`config["configurable"]["langgraph_auth_user"]`, its
        `identity`). A call that names no user is answered with an error saying where it
        looked. A user's session is made on their first call (concurrent first calls make one)
        and kept in this process (at most `max_sessions`, each reused for
        `session_max_age` seconds, then looked up again); one user's session is never used
        for another.

        To read the tool schemas, building the list creates one session, for the user
        `schema_user_id` (default `"langchain-toolrouter-schema"`, a user id that exists only
        for this; on the real service pass one of your own users' ids instead).

        Args:
            custom_tools, on_connection_required, connection_timeout, on_link: As for
                `create_session`, for every user's session.
            session_store: A LangGraph `BaseStore` (e.g. `InMemoryStore`, or a Postgres store
                shared by several workers): a user's session id is kept there, and a worker
                that has no session for the user resumes that one instead of making another.
            max_sessions: Sessions kept in this process.
            session_max_age: Seconds a kept session is reused before it is looked up again.
            schema_user_id: The user of the session the schemas are read from.
            **session_options: `create_session`'s options.

        Raises:
            TypeError: an unknown session option (named, with the closest known one).
        """
        creation = self._creation(custom_tools, on_connection_required, connection_timeout, on_link)
        limits = (max_sessions, session_max_age, schema_user_id)
        return run_sync(
            sessions.per_user_tools(
                SyncFace(self._rt), creation, session_store, limits, session_options
            )
        )

    async def aper_user_tools(
        self,
        *,
        custom_tools: Iterable[CustomToolInput] | None = None,
        on_connection_required: OnConnectionRequired | None = None,
        connection_timeout: float | None = None,
        on_link: Callable[[ConnectionRequest], Any] | None = None,
        session_store: Any = None,
        max_sessions: int = 1024,
        session_max_age: float = 3600.0,
        schema_user_id: str = SCHEMA_USER_ID,
        **session_options: Any,
    ) -> ToolList:
        """Async twin of `per_user_tools`."""
        creation = self._creation(custom_tools, on_connection_required, connection_timeout, on_link)
        limits = (max_sessions, session_max_age, schema_user_id)
        return await sessions.per_user_tools(
            AsyncFace(self._rt), creation, session_store, limits, session_options
        )

    def _creation(
        self,
        custom_tools: Iterable[CustomToolInput] | None,
        mode: object,
        timeout: object,
        on_link: object,
    ) -> Creation:
        """A session about to be made or resumed, with these custom tools and connections."""
        registry = CustomRegistry(custom_tools or ())
        policy = connection_policy(
            self._connection,
            on_connection_required=mode,
            connection_timeout=timeout,
            on_link=on_link,
        )
        return Creation(self._rt, registry, policy)


def _resumed(creation: Creation, session: m.Session) -> OpenSession:
    """A resumed session, with a warning when its custom tools are not the ones passed."""
    opened = creation.opened(session)
    _warn_echo_mismatch(creation.registry, session)
    return opened


# --------------------------------------------------------------------------- session


class ToolRouterSession:
    """One Tool Router session: its tools for LangChain, search, connections, files, proxy.

    Get one from `ToolRouter.create_session` / `get_session` (or their async twins).

    Attributes:
        files: The session's files (`SessionFiles`).
    """

    def __init__(self, opened: OpenSession) -> None:
        self._rt = opened.rt
        self._session = opened.session
        self._registry = opened.registry
        self._calls = opened.calls
        self._tools = opened.tools
        self.files = SessionFiles(opened.rt, opened.session.session_id)

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
    def skipped_tools(self) -> list[tuple[str, str]]:
        """`(slug, reason)` for each tool whose schema could not be converted, or whose
        `name_style="safe"` name another tool already has (the other tools still load)."""
        return self._tools.skipped

    @property
    def mcp(self) -> McpConfig:
        """MCP endpoint; auth headers only when it has the API's origin."""
        key = self._rt.client.settings.api_key.get_secret_value()
        return McpConfig.for_session(
            self._session.mcp.url, self._session.mcp.type, self._rt.base_url, {"x-api-key": key}
        )

    def mcp_connection(self) -> dict[str, Any]:
        """The session's MCP server as a connection of langchain-mcp-adapters'
        `MultiServerMCPClient`: `{"transport": "streamable_http", "url": ..., "headers": ...}`
        (the key only for an MCP URL on the API's origin, as `mcp` gives it)."""
        mcp = self.mcp
        return {"transport": "streamable_http", "url": mcp.url, "headers": dict(mcp.headers)}

    # ------------------------------------------------------------------ tools

    def get_tools(self, *, include_custom: Literal["preloaded", "all"] = "preloaded") -> ToolList:
        """Every tool of the session as LangChain tools.

        That is every page of the service's `/tools` (meta tools and preloaded app tools)
        plus the custom tools: the preloaded ones by default (the others are found through
        search, as on the service), or all of them with `include_custom="all"`.
        """
        customs = self._customs(include_custom)
        schemas = self._rt.client.iter_tools(self.session_id, limit=TOOLS_PAGE)
        return self._tools.listed(schemas, customs)

    async def aget_tools(
        self, *, include_custom: Literal["preloaded", "all"] = "preloaded"
    ) -> ToolList:
        """Async twin of `get_tools`."""
        customs = self._customs(include_custom)
        schemas = self._rt.aclient.iter_tools(self.session_id, limit=TOOLS_PAGE)
        return self._tools.listed([schema async for schema in schemas], customs)

    def _customs(self, include_custom: object) -> Sequence[CustomTool]:
        """The custom tools `get_tools` lists."""
        if include_custom not in ("preloaded", "all"):
            msg = f"include_custom must be 'preloaded' or 'all', got {include_custom!r}"
            raise ValueError(msg)
        return self._registry.tools if include_custom == "all" else self._registry.preloaded()

    def as_toolkit(
        self, *, include: Sequence[str] | None = None, exclude: Sequence[str] = ()
    ) -> ToolRouterToolkit:
        """This session as a `ToolRouterToolkit` (with include/exclude filters)."""
        return ToolRouterToolkit(session=self, include=include, exclude=exclude)

    def tool(self, slug: str) -> ToolRouterTool:
        """One tool by slug: a custom tool, a tool already listed or found, or fetched
        (meta tools from the session's tool list, app tools with `COMPOSIO_GET_TOOL_SCHEMAS`).

        Raises:
            LookupError: the session has no such tool.
        """
        return run_sync(self._one_tool(SyncFace(self._rt), slug))

    async def atool(self, slug: str) -> ToolRouterTool:
        """Async twin of `tool`."""
        return await self._one_tool(AsyncFace(self._rt), slug)

    async def _one_tool(self, face: Face, slug: str) -> ToolRouterTool:
        check_text("the tool slug", slug, hint="e.g. 'GITHUB_CREATE_AN_ISSUE'")
        built = self._tools.known(slug)
        reason = None
        if built is False and is_meta(slug):
            schemas = await face.pages(
                ToolRouterClient.iter_tools, self.session_id, limit=TOOLS_PAGE
            )
            self._tools.listed(schemas, self._registry.preloaded())
            built = self._tools.known(slug)
        elif built is False:
            result = await face.call(
                ToolRouterClient.execute_meta,
                self.session_id,
                GET_TOOL_SCHEMAS,
                {"tool_slugs": [slug]},
                experimental=self._calls.inline(),
            )
            fetched = read_schemas(result)
            key = next((k for k in fetched if k.upper() == slug.upper()), None)
            built = False if key is None else self._tools.found(key, fetched[key])
            reason = result.error
        if built is False:
            msg = f"no tool {slug!r} in session {self.session_id}: {reason or 'unknown slug'}"
            hint = self._registry.missing_hint(slug)
            if hint is not None:
                msg += f" {hint}"
            raise LookupError(msg)
        if built is None or built is True:
            msg = f"tool {slug!r} has an input schema that cannot be used; see skipped_tools"
            raise LookupError(msg)
        return built

    # ------------------------------------------------------------------ search

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

        Raises:
            ToolSearchError: the service's search failed for the query.
        """
        return run_sync(
            self._search(SyncFace(self._rt), query, known_fields, include_related, model)
        )

    async def asearch_tools(
        self,
        query: str,
        *,
        known_fields: str | None = None,
        include_related: bool = True,
        model: str | None = None,
    ) -> ToolSearchResult:
        """Async twin of `search_tools`."""
        return await self._search(AsyncFace(self._rt), query, known_fields, include_related, model)

    async def _search(
        self,
        face: Face,
        query: str,
        known_fields: str | None,
        include_related: bool,
        model: str | None,
    ) -> ToolSearchResult:
        """Search, then fetch the schemas the answer left out, then build the tools."""
        return await search(
            face,
            self._tools,
            self.session_id,
            query,
            known_fields=known_fields,
            include_related=include_related,
            model=model,
            inline=self._calls.inline(),
        )

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
        items = self._rt.client.iter_toolkits(
            self.session_id, is_connected=connected, search=search, toolkits=slugs
        )
        return ToolkitList.from_items(items)

    async def atoolkits(
        self,
        *,
        connected: bool | None = None,
        search: str | None = None,
        toolkits: Sequence[str] | None = None,
    ) -> ToolkitList:
        """Async twin of `toolkits`."""
        slugs = _check_toolkit_filters(connected, search, toolkits)
        items = self._rt.aclient.iter_toolkits(
            self.session_id, is_connected=connected, search=search, toolkits=slugs
        )
        return ToolkitList.from_items([item async for item in items])

    def authorize(
        self, toolkit: str, *, callback_url: str | None = None, alias: str | None = None
    ) -> ConnectionLink:
        """Start connecting the user's `toolkit` account; send the user to `redirect_url`.

        Raises:
            ValueError: the toolkit is not part of the session.
        """
        self._check_in_session(toolkit)
        response = self._rt.client.create_link(
            self.session_id, toolkit, callback_url=callback_url, alias=alias
        )
        return ConnectionLink.from_response(toolkit, response)

    async def aauthorize(
        self, toolkit: str, *, callback_url: str | None = None, alias: str | None = None
    ) -> ConnectionLink:
        """Async twin of `authorize`."""
        self._check_in_session(toolkit)
        response = await self._rt.aclient.create_link(
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

    def wait_for_connection(
        self, toolkit: str, *, timeout: float = 120.0, poll_interval: float = 1.0
    ) -> ToolkitInfo:
        """Poll the toolkit list until `toolkit` is connected (or needs no auth).

        Raises:
            ValueError: the toolkit is not part of the session (checked before waiting).
            ConnectionFailedError: the account ended `FAILED` or `EXPIRED` (no use waiting).
            ConnectionTimeoutError: not connected after `timeout` seconds.
        """
        return run_sync(self._wait(SyncFace(self._rt), toolkit, timeout, poll_interval))

    async def await_for_connection(
        self, toolkit: str, *, timeout: float = 120.0, poll_interval: float = 1.0
    ) -> ToolkitInfo:
        """Async twin of `wait_for_connection`."""
        return await self._wait(AsyncFace(self._rt), toolkit, timeout, poll_interval)

    async def _wait(
        self, face: Face, toolkit: str, timeout: float, poll_interval: float
    ) -> ToolkitInfo:
        check_number("timeout (seconds)", timeout, minimum=0, infinite=True)
        check_number("poll_interval (seconds)", poll_interval, positive=True)
        self._check_in_session(toolkit)
        info = await wait_until_connected(
            face, self.session_id, toolkit, timeout=timeout, poll_interval=poll_interval
        )
        self._calls.connections.forget_link(toolkit)
        return info

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
        name, payload = _execute_args(slug, arguments)
        return self._calls.tool(name).execute(payload, account, model=False)

    async def aexecute(
        self,
        slug: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        account: str | None = None,
    ) -> ToolOutcome:
        """Async twin of `execute`."""
        name, payload = _execute_args(slug, arguments)
        return await self._calls.tool(name).aexecute(payload, account, model=False)

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
        return self._rt.client.proxy_execute(
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
        return await self._rt.aclient.proxy_execute(
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
        self._rt.client.delete_session(self.session_id)

    async def adelete(self) -> None:
        """Async twin of `delete`."""
        await self._rt.aclient.delete_session(self.session_id)

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
