"""`ToolRouterMiddleware`: each user's whole catalog in a `create_agent` agent, as typed tools
picked per turn.

LangChain 1.x builds agents with `create_agent(model, tools, middleware=[...])`. This middleware
gives one compiled agent every user's Tool Router session:

* the user comes from the run, by the rules of per-user tools (`ToolRouter.per_user_tools`): an
  identity LangGraph server authenticated wins; their session is made once and kept, and shared
  by workers through `session_store`;
* on each new user message it searches that user's session once, and the model gets the tools
  found as typed tools (their exact argument schemas), with the custom tools and
  `always_include`; tools found earlier in the thread stay loaded (in the agent's state, so a
  resume or another worker sees the same); the thousands of other schemas never reach the model;
* a call of one of those tools (which the agent never registered) runs in the user's session,
  with the call path of a session's tools: retries, errors for the model, the pause for a
  connection (`on_connection_required`) and a record per call, so nothing runs twice;
* tools the service marks destructive can wait for a person's approval (`approve=`), in the
  decision format of LangChain's `HumanInTheLoopMiddleware`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool, InjectedToolCallId, StructuredTool
from typing_extensions import NotRequired

try:
    from langchain.agents.middleware import (
        AgentMiddleware,
        AgentState,
        ExtendedModelResponse,
        ModelRequest,
        ModelResponse,
    )
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.types import Command
except ImportError as exc:  # the [langgraph] extra is missing, or an older langchain
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] not in (
        "langchain",
        "langgraph",
    ):
        raise
    _msg = (
        f"ToolRouterMiddleware needs langchain>=1.3 and langgraph ({exc}): "
        "pip install 'langchain-toolrouter[langgraph]'"
    )
    raise ImportError(_msg, name=__name__) from exc

from langchain_toolrouter._arguments import check_integer
from langchain_toolrouter._exceptions import (
    APIError,
    ConfigurationError,
    ToolSearchError,
    TransportError,
)
from langchain_toolrouter._langgraph import interrupt
from langchain_toolrouter._session.builder import GET_TOOL_SCHEMAS, ToolBuilder, read_schemas
from langchain_toolrouter._session.builder import search as search_session
from langchain_toolrouter._session.calls import SessionCalls
from langchain_toolrouter._session.faces import AsyncFace, Face, SyncFace, run_sync
from langchain_toolrouter._session.sessions import user_of_run, user_sessions
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.custom_tools._registry import CustomToolInput
from langchain_toolrouter.session import ToolRouter
from langchain_toolrouter.tools import ToolRouterTool
from langchain_toolrouter.wire.models import MAX_USE_CASE

__all__ = ["ToolRouterMiddleware", "ToolRouterState", "retry_on"]

Select = Literal["search", "meta", "all"]

MAX_KEPT = 64
"""The most tools a thread keeps loaded in its state (the newest first)."""

MAX_REMEMBERED = 1024
"""The searches made for user messages that this process remembers, for model calls retried
before their state was saved."""


def _kept(old: list[str] | None, new: list[str] | None) -> list[str]:
    """The tools loaded in a thread: the new ones last, each once, at most `MAX_KEPT`."""
    merged = [slug for slug in (old or []) if slug not in (new or [])] + list(new or [])
    return merged[-MAX_KEPT:]


class ToolRouterState(AgentState[Any]):
    """What the middleware keeps in the agent's state."""

    toolrouter_tools: NotRequired[Annotated[list[str], _kept]]
    """The slugs of the tools loaded in this thread (newest last)."""
    toolrouter_searched: NotRequired[str]
    """The id of the user message the last search was for."""


class ToolRouterMiddleware(AgentMiddleware[ToolRouterState, Any]):
    """Each user's Tool Router session in a `create_agent` agent, typed tools picked per turn.

    ```python
    agent = create_agent(model, middleware=[ToolRouterMiddleware(router, toolkits=["github"])],
                         checkpointer=InMemorySaver())
    agent.invoke({"messages": [("user", "...")]}, {"configurable": {"user_id": "u1", ...}})
    ```

    Args:
        router: The `ToolRouter` whose clients and options the sessions use.
        select: Which tools the model gets: `"search"` (default) searches the user's session
            once per user message; `"meta"` gives the model a `search_tools` tool, and every
            tool a search finds is loaded for the next model call; `"all"` loads every tool of
            the session (for small sessions; the session lists them all, `preload="all"`).
        top_k: Tools loaded per search (primary ones first).
        keep: Tools the model gets at most, besides the custom tools and `always_include`:
            the newest loaded in the thread.
        always_include: Slugs the model always gets.
        defer_loading: Mark the tools `extras["defer_loading"]`, for a provider's own tool
            search (stack `ProviderToolSearchMiddleware` after this one).
        approve: `"destructive"` (tools the service marks `destructiveHint`), or slugs: those
            calls wait for a person's decision (`HumanInTheLoopMiddleware`'s format:
            approve, edit or reject) before they run.
        session_store, max_sessions, session_max_age: As for `per_user_tools`.
        custom_tools, on_connection_required, connection_timeout, on_link: As for
            `create_session`, for every user's session.
        **session_options: `create_session`'s options (`toolkits`, ...).

    Raises:
        ConfigurationError: an option of the wrong kind (named).
        TypeError: an unknown session option (named, with the closest known one).
    """

    state_schema = ToolRouterState

    def __init__(
        self,
        router: ToolRouter,
        *,
        select: Select = "search",
        top_k: int = 8,
        keep: int = 24,
        always_include: Sequence[str] = (),
        defer_loading: bool = False,
        approve: Literal["destructive"] | Sequence[str] | None = None,
        session_store: Any = None,
        max_sessions: int = 1024,
        session_max_age: float = 3600.0,
        custom_tools: Iterable[CustomToolInput] | None = None,
        on_connection_required: Literal["message", "interrupt", "wait"] | None = None,
        connection_timeout: float | None = None,
        on_link: Callable[..., Any] | None = None,
        **session_options: Any,
    ) -> None:
        super().__init__()
        given: object = router
        if not isinstance(given, ToolRouter):
            msg = f"ToolRouterMiddleware needs a ToolRouter, got {type(given).__name__}"
            raise ConfigurationError(msg)
        if select not in ("search", "meta", "all"):
            msg = f"select must be 'search', 'meta' or 'all', got {select!r}"
            raise ConfigurationError(msg)
        self.select = select
        self.top_k = _count("top_k", top_k)
        self.keep = _count("keep", keep)
        self.always_include = _slugs("always_include", always_include)
        self.defer_loading = _flag("defer_loading", defer_loading)
        self.approve = _approval(approve)
        if select == "all":
            session_options.setdefault("preload", "all")
        creation = router._creation(
            custom_tools, on_connection_required, connection_timeout, on_link
        )
        self._rt = router._rt
        self._sessions = user_sessions(
            creation,
            session_store,
            (max_sessions, session_max_age),
            session_options,
            owner="ToolRouterMiddleware",
        )
        self._registry = creation.registry
        self._builder = ToolBuilder(self._rt, self._sessions.tool_call, self._registry, None)
        self._all: list[str] | None = None
        self._searched: OrderedDict[tuple[str, str | None], list[str]] = OrderedDict()
        self.tools = [self._search_tool()] if select == "meta" else []

    # ------------------------------------------------------------------ model calls

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """The model call with the user's tools bound. On a new user message
        (`select="search"`), one search of the user's session first: its tools join the
        thread's state with the model's answer."""
        tools, update = run_sync(self._for_model(SyncFace(self._rt), request))
        response = handler(request.override(tools=[*request.tools, *tools]))
        return _with_update(response, update)

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Async twin of `wrap_model_call`."""
        tools, update = await self._for_model(AsyncFace(self._rt), request)
        response = await handler(request.override(tools=[*request.tools, *tools]))
        return _with_update(response, update)

    async def _for_model(
        self, face: Face, request: ModelRequest[Any]
    ) -> tuple[list[BaseTool], dict[str, Any] | None]:
        """The tools for this model call, and the state update of a search made for it.

        The search runs here rather than in a `before_model` hook: a node of its own would
        cost every model call of every turn more than the search's bookkeeping does.
        """
        state: Mapping[str, Any] = request.state
        runtime = request.runtime
        loaded = list(state.get("toolrouter_tools") or [])
        update = await self._select(face, state, runtime)
        if update is not None:
            loaded = _kept(loaded, update.get("toolrouter_tools"))
        return await self._tools(face, loaded, runtime), update

    async def _select(
        self, face: Face, state: Mapping[str, Any], runtime: Any
    ) -> dict[str, Any] | None:
        """On a user message no search was made for yet, search the user's session once."""
        if self.select != "search":
            return None
        message = _last_user_message(state)
        if message is None or message.id == state.get("toolrouter_searched"):
            return None
        user = user_of_run(runtime)
        key = (user, message.id)
        found = self._searched.get(key)
        if found is None:  # a model call retried before its state was saved searches once
            found = await self._search(face, message.text, user)
            self._searched[key] = found
            if len(self._searched) > MAX_REMEMBERED:
                self._searched.popitem(last=False)
        update: dict[str, Any] = {"toolrouter_searched": message.id}
        if found:
            update["toolrouter_tools"] = found
        return update

    async def _search(self, face: Face, query: str, user: str) -> list[str]:
        """The slugs the user's session finds for `query` (primary first, at most `top_k`)."""
        if not query.strip():
            return []
        calls = await self._sessions.of(face, user)
        try:
            result = await search_session(
                face,
                self._builder,
                calls.session_id,
                _use_case(query),
                inline=calls.inline(),
            )
        except ToolSearchError:
            return []
        return [tool.slug for tool in result if isinstance(tool, ToolRouterTool)][: self.top_k]

    async def _session(self, face: Face, runtime: Any) -> SessionCalls:
        """The session of the run's user (`runtime`: the one LangGraph handed the hook)."""
        return await self._sessions.of(face, user_of_run(runtime))

    async def _tools(self, face: Face, loaded: list[str], runtime: Any) -> list[BaseTool]:
        """The typed tools the model gets: custom tools, `always_include`, and the newest
        `loaded` in the thread (schemas fetched once for any this process has not seen)."""
        if self.select == "all":
            loaded = await self._every_tool(face, runtime)
        slugs = list(dict.fromkeys([*self.always_include, *loaded[-self.keep :]]))
        built = {slug: self._builder.known(slug) for slug in slugs}
        missing = [slug for slug, tool in built.items() if tool is False]
        if missing:
            await self._fetch(face, missing, runtime)
            built.update((slug, self._builder.known(slug)) for slug in missing)
        ours: list[ToolRouterTool] = [
            tool
            for custom in self._registry.tools
            if (tool := self._builder.custom(custom)) is not None
        ]
        ours += [tool for tool in built.values() if isinstance(tool, ToolRouterTool)]
        tools: list[BaseTool] = list(self._builder.distinct_names(ours))
        if self.defer_loading:
            tools = [_deferred(tool) for tool in tools]
        return tools

    async def _every_tool(self, face: Face, runtime: Any) -> list[str]:
        """Every tool the user's session lists (`select="all"`), listed once."""
        if self._all is None:
            calls = await self._session(face, runtime)
            schemas = await face.pages(ToolRouterClient.iter_tools, calls.session_id, limit=500)
            self._builder.listed(schemas, ())
            self._all = [schema.slug for schema in schemas if not _is_meta(schema.slug)]
        return self._all

    # ------------------------------------------------------------------ tool calls

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run a call of a tool the agent never registered (one the model got from here) in
        the user's session, after a person's approval when it needs one."""
        tool = run_sync(self._tool_for(SyncFace(self._rt), request))
        if tool is None:
            return handler(request)
        decided = self._approved(request, tool)
        if isinstance(decided, ToolMessage):
            return decided
        return handler(decided.override(tool=tool))

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async twin of `wrap_tool_call`."""
        tool = await self._tool_for(AsyncFace(self._rt), request)
        if tool is None:
            return await handler(request)
        decided = self._approved(request, tool)
        if isinstance(decided, ToolMessage):
            return decided
        return await handler(decided.override(tool=tool))

    async def _tool_for(self, face: Face, request: ToolCallRequest) -> ToolRouterTool | None:
        """Our tool the call names, when the agent has no tool of that name: one the model was
        given (a run resumed in another process has not built it yet: it is built again)."""
        if request.tool is not None:
            return None
        name = str(request.tool_call.get("name", ""))
        for custom in self._registry.tools:
            if custom.final_slug == name:
                return self._builder.custom(custom)
        built = self._builder.known(name)
        if built is False and name in self._offered(request.state):
            await self._fetch(face, [name], request.runtime)
            built = self._builder.known(name)
        return built if isinstance(built, ToolRouterTool) else None

    def _offered(self, state: Any) -> list[str]:
        """The slugs the model may have been given in this thread."""
        loaded = state.get("toolrouter_tools") if isinstance(state, Mapping) else None
        return [*self.always_include, *(loaded or []), *(self._all or [])]

    async def _fetch(self, face: Face, slugs: list[str], runtime: Any) -> None:
        """Fetch the schemas of `slugs` (one request, in the user's session) for the builder."""
        calls = await self._session(face, runtime)
        result = await face.call(
            ToolRouterClient.execute_meta,
            calls.session_id,
            GET_TOOL_SCHEMAS,
            {"tool_slugs": slugs},
            experimental=calls.inline(),
        )
        for slug, schema in read_schemas(result).items():
            self._builder.found(slug, schema)

    def _approved(
        self, request: ToolCallRequest, tool: ToolRouterTool
    ) -> ToolCallRequest | ToolMessage:
        """The call as a person decided it (approved, edited), or the answer to a rejection;
        the call itself when it needs no approval."""
        if not self._needs_approval(tool):
            return request
        call = request.tool_call
        decision = interrupt(
            {
                "action_requests": [
                    {
                        "name": call["name"],
                        "args": call["args"],
                        "description": f"{call['name']} changes or deletes data: approve it?",
                    }
                ],
                "review_configs": [
                    {
                        "action_name": call["name"],
                        "allowed_decisions": ["approve", "edit", "reject"],
                    }
                ],
            },
            getattr(request.runtime, "config", None),
        )
        decisions = decision.get("decisions") if isinstance(decision, Mapping) else None
        chosen = decisions[0] if isinstance(decisions, list) and decisions else decision
        kind = chosen.get("type") if isinstance(chosen, Mapping) else None
        if kind == "approve":
            return request
        if kind == "edit" and isinstance(chosen, Mapping):
            edited = chosen.get("edited_action") or {}
            args = edited.get("args") if isinstance(edited, Mapping) else None
            if isinstance(args, Mapping):
                return request.override(tool_call={**call, "args": dict(args)})
        reason = chosen.get("message") if isinstance(chosen, Mapping) else None
        return ToolMessage(
            content=(
                f"{call['name']} was not run: the user rejected it"
                + (f" ({reason})" if reason else "")
                + ". Do not call it again unless the user asks."
            ),
            name=call["name"],
            tool_call_id=call["id"] or "",
            status="error",
        )

    def _needs_approval(self, tool: ToolRouterTool) -> bool:
        if self.approve is None:
            return False
        if self.approve == "destructive":
            return bool((tool.metadata or {}).get("destructive"))
        return tool.slug in self.approve

    # ------------------------------------------------------------------ select="meta"

    def _search_tool(self) -> BaseTool:
        """`search_tools`: what the model calls to find tools (`select="meta"`); every tool
        it finds is loaded for the next model call."""

        def found(query: str, tool_call_id: Any, slugs: list[str]) -> Command[Any]:
            names = ", ".join(slugs) or "nothing"
            message = ToolMessage(
                content=f"Found: {names}. They can be called now.",
                tool_call_id=tool_call_id,
                name="search_tools",
            )
            return Command(update={"messages": [message], "toolrouter_tools": slugs})

        def run(query: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command[Any]:
            return found(
                query,
                tool_call_id,
                run_sync(self._search(SyncFace(self._rt), query, user_of_run())),
            )

        async def arun(
            query: str, tool_call_id: Annotated[str, InjectedToolCallId]
        ) -> Command[Any]:
            return found(
                query, tool_call_id, await self._search(AsyncFace(self._rt), query, user_of_run())
            )

        return StructuredTool.from_function(
            func=run,
            coroutine=arun,
            name="search_tools",
            description=(
                "Find the app tools for a task (say what it should do, e.g. 'create a GitHub "
                "issue'); the tools found can be called right after."
            ),
        )


def _with_update(
    response: ModelResponse[Any], update: dict[str, Any] | None
) -> ModelResponse[Any] | ExtendedModelResponse[Any]:
    """The model's answer, with the state update of the search made for it."""
    if update is None:
        return response
    return ExtendedModelResponse(model_response=response, command=Command(update=update))


def _last_user_message(state: Mapping[str, Any]) -> HumanMessage | None:
    for message in reversed(state.get("messages") or []):
        if isinstance(message, HumanMessage):
            return message
    return None


def _deferred(tool: BaseTool) -> BaseTool:
    deferred: BaseTool = tool.model_copy(
        update={"extras": {**(tool.extras or {}), "defer_loading": True}}
    )
    return deferred


def _is_meta(slug: str) -> bool:
    return slug.upper().startswith("COMPOSIO_")


def _count(name: str, value: object) -> int:
    try:
        return check_integer(name, value, minimum=1)
    except (TypeError, ValueError) as exc:
        raise ConfigurationError(str(exc)) from None


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        msg = f"{name} must be True or False, got {value!r}"
        raise ConfigurationError(msg)
    return value


def _slugs(name: str, value: object) -> tuple[str, ...]:
    slugs = None if isinstance(value, str) or not isinstance(value, Iterable) else tuple(value)
    if slugs is None or not all(isinstance(slug, str) and slug for slug in slugs):
        msg = f"{name} must be a list of tool slugs such as ['GMAIL_SEND_EMAIL'], got {value!r}"
        raise ConfigurationError(msg)
    return slugs


def _approval(value: object) -> Literal["destructive"] | tuple[str, ...] | None:
    if value is None:
        return None
    if value == "destructive":
        return "destructive"
    return _slugs("approve ('destructive' or tool slugs)", value)


def retry_on(exc: Exception) -> bool:
    """Whether a failed tool call may be retried: only when it provably did not run.

    For LangChain's `ToolRetryMiddleware`, which by default retries every exception and so
    could send an email twice: `ToolRetryMiddleware(retry_on=retry_on)`. A session's tools
    answer most failures to the model themselves (they do not raise); what they raise is the
    program's (a bad key) or the service out of reach; a request that may have been sent is
    never retried.
    """
    if isinstance(exc, TransportError):
        return not exc.request_sent
    if isinstance(exc, APIError):
        return exc.status == 429
    return False


def _use_case(text: str) -> str:
    """A user message as a search query: whole, or cut at a word to the service's limit."""
    text = text.strip()
    if len(text) <= MAX_USE_CASE:
        return text
    cut = text[:MAX_USE_CASE]
    space = cut.rfind(" ", MAX_USE_CASE // 2)
    return cut[:space] if space > 0 else cut
