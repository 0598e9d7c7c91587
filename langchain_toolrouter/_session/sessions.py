"""Sessions, made and found: one user's (`ToolRouter.create_session`) or each user's of a run.

* `session_request` turns `create_session`'s friendly arguments into the wire request
  (`toolkits=["github"]` -> `{"enable": ["github"]}`); anything else given is passed on as the
  request form, and the wire model checks it.
* `Creation` is a session about to be made or resumed: its request, and `opened`, which turns
  the service's answer into the `OpenSession` the public `ToolRouterSession` wraps (its calls,
  its tool builder, its custom tools named as the service named them).
* `UserSessions` holds the sessions of one `per_user_tools(...)` list, one per user: made on a
  user's first call and reused, in an LRU bounded in size and age; concurrent first calls of
  one user make exactly one (threads and asyncio tasks alike); with a LangGraph store
  (`session_store=`), workers that share it reuse a user's session by id. `UserToolCall` is the
  executor of such a tool: the run's user (`user_of_run`), their session, that session's call.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables.config import var_child_runnable_config

from langchain_toolrouter._answers import SESSION_NOT_FOUND, no_session_error
from langchain_toolrouter._arguments import (
    check_integer,
    check_number,
    check_text,
    unknown_arguments,
)
from langchain_toolrouter._exceptions import (
    APIError,
    ConfigurationError,
    NotFoundError,
    RequestValidationError,
    TransportError,
    UserMismatchError,
)
from langchain_toolrouter._langgraph import RunFacts, facts_of, identity, run_facts
from langchain_toolrouter._session.builder import ToolBuilder
from langchain_toolrouter._session.calls import SessionCalls
from langchain_toolrouter._session.connections import ConnectionPolicy, Connections
from langchain_toolrouter._session.faces import AsyncFace, Face, SingleFlight, SyncFace, run_sync
from langchain_toolrouter._session.runs import RUNNING, current_call
from langchain_toolrouter._session.runtime import Runtime
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.custom_tools._registry import CustomRegistry
from langchain_toolrouter.types import ToolList, ToolOutcome
from langchain_toolrouter.wire import models as m

__all__ = [
    "SESSION_OPTIONS",
    "TOOLS_PAGE",
    "Creation",
    "OpenSession",
    "UserSessions",
    "UserToolCall",
    "per_user_tools",
    "session_request",
    "user_of_run",
    "user_sessions",
]

SESSION_OPTIONS = (
    *("toolkits", "tools", "tags", "auth_configs", "connected_accounts", "manage_connections"),
    *("workbench", "preload", "search", "multi_execute", "multi_account", "experimental"),
)
"""`create_session`'s options (the session's config at the service)."""

TOOLS_PAGE = 500
"""Tools asked for per page of a session's `/tools` listing."""

_log = logging.getLogger("langchain_toolrouter")

NAMESPACE = ("langchain_toolrouter", "sessions")
"""The store namespace of session ids (a digest of the session options is appended)."""


# --------------------------------------------------------------------------- one session


@dataclass(frozen=True)
class OpenSession:
    """A session the service made or resumed, with what its calls and tools share."""

    rt: Runtime
    session: m.Session
    registry: CustomRegistry
    calls: SessionCalls
    tools: ToolBuilder


class Creation:
    """A session about to be made (`body`) or resumed (`inline`): the request, and what turns
    the service's answer into an `OpenSession`.

    Args:
        rt: The router's runtime.
        registry: The custom tools the session carries.
        policy: How its calls handle "connect first".
    """

    def __init__(self, rt: Runtime, registry: CustomRegistry, policy: ConnectionPolicy) -> None:
        self.rt = rt
        self.registry = registry
        self.policy = policy

    def body(self, user_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The create request for `options` (`SESSION_OPTIONS`, by name; other keys are not
        read), with the custom tools' definitions inline."""
        body = session_request(user_id, **{name: options.get(name) for name in SESSION_OPTIONS})
        inline = self.registry.definitions
        if inline is not None:
            body["experimental"] = {**body.get("experimental", {}), **inline.to_wire()}
        return body

    def opened(self, session: m.Session) -> OpenSession:
        """The session the service answered with, ready for its calls and tools."""
        connections = Connections(session.session_id, session.config.user_id, self.policy)
        calls = SessionCalls(
            self.rt, session.session_id, session.config.user_id, self.registry, connections
        )
        tools = ToolBuilder(self.rt, calls.tool, self.registry, session.session_id)
        opened = OpenSession(self.rt, session, self.registry, calls, tools)
        # The service's answer names the custom tools' final slugs (it is the source of truth).
        self.registry.apply_echo(session.experimental)
        return opened

    async def create(self, face: Face, user_id: str, options: Mapping[str, Any]) -> m.Session:
        """Make the session, in a flow (a per-user session, the schema session); `opened`
        takes the answer."""
        return await face.call(ToolRouterClient.create_session, self.body(user_id, options))

    async def resume(self, face: Face, session_id: str) -> m.Session:
        """Read a session back, attaching the custom tools under v3.1 (the service keeps none;
        under v3 it kept them, and attach is a v3.1 operation); `opened` takes the answer."""
        inline = self.registry.definitions if self.rt.api_version == "v3.1" else None
        if inline is None:
            return await face.call(ToolRouterClient.get_session, session_id)
        return await face.call(
            ToolRouterClient.attach,
            session_id,
            custom_tools=inline.custom_tools,
            custom_toolkits=inline.custom_toolkits,
        )


# --------------------------------------------------------------------------- each user's


def user_sessions(
    creation: Creation,
    store: Any,
    limits: tuple[object, object],
    options: Mapping[str, Any],
    *,
    owner: str = "per_user_tools",
) -> UserSessions:
    """Each user's session, made with `options` (`create_session`'s), kept in this process
    within `limits` (`max_sessions`, `session_max_age`) and shared through `store`.

    Raises:
        TypeError: an unknown session option (named, with the closest known one), or a
            `store` that is not a LangGraph `BaseStore`.
        ValueError: limits out of range.
    """
    unknown_arguments(owner, options, SESSION_OPTIONS)
    if store is not None and not all(
        callable(getattr(store, name, None)) for name in ("get", "put", "aget", "aput")
    ):
        msg = (
            "session_store must be a LangGraph BaseStore (e.g. "
            "langgraph.store.memory.InMemoryStore()), or None; got "
            f"{type(store).__name__}"
        )
        raise TypeError(msg)
    max_sessions = check_integer("max_sessions", limits[0], minimum=1)
    max_age = check_number("session_max_age (seconds)", limits[1], minimum=0, infinite=True)
    settings = creation.rt.client.settings
    inline = creation.registry.definitions
    key = options_key(
        {
            **session_request("-", **options),
            "custom": inline and inline.to_wire(),
            # Sessions belong to one project of one service: a store shared by several
            # must not hand one's session ids to another (a digest, never the key itself).
            "service": settings.base_url,
            "project": hashlib.sha256(settings.api_key.get_secret_value().encode()).hexdigest(),
        }
    )
    return UserSessions(
        creation,
        options,
        options_key=key,
        max_sessions=max_sessions,
        max_age=max_age,
        store=store,
    )


async def per_user_tools(
    face: Face,
    creation: Creation,
    store: Any,
    limits: tuple[object, object, object],
    options: dict[str, Any],
) -> ToolList:
    """`ToolRouter.per_user_tools`: make the schema session, list its tools, and build them on
    a `UserSessions`."""
    sessions = user_sessions(creation, store, (limits[0], limits[1]), options)
    schema_user = check_text("schema_user_id", limits[2], hint="a user id")
    registry = creation.registry
    template = await creation.create(face, schema_user, options)
    registry.apply_echo(template.experimental)  # the tools are listed under their final slugs
    schemas = await face.pages(ToolRouterClient.iter_tools, template.session_id, limit=TOOLS_PAGE)
    builder = ToolBuilder(face.rt, sessions.tool_call, registry, None)
    return builder.listed(schemas, registry.preloaded())


_LOOKED = (
    "config['configurable']['user_id'], the LangGraph runtime context (context.user_id or "
    "context['user_id']) and the LangGraph server's authenticated user "
    "(config['configurable']['langgraph_auth_user'] or the runtime's server_info.user)"
)


def user_of_run(runtime: Any = None) -> str:
    """The user of the running LangChain/LangGraph call.

    On a LangGraph server with auth, the user is the identity the server authenticated
    (`langgraph_auth_user` in the config, or the runtime's `server_info.user`): the config and
    the context come from the client, so a `user_id` there that differs is refused, not
    followed. Without one: `configurable["user_id"]`, else the LangGraph runtime context's
    `user_id` (attribute or key, as `create_agent(context_schema=...)` passes it).

    `runtime` is the LangGraph runtime a middleware hook was handed (a `ToolRuntime` also
    carries the config): the run is read from it rather than from the context variables
    LangGraph sets, which an async node on Python 3.10 does not see.

    Raises:
        UserMismatchError: a `user_id` in the config or the context that is not the
            authenticated user (nothing was sent).
        ConfigurationError: no user anywhere, or a `user_id` that is not a non-empty str (the
            first place that names one is never passed over for a later place: that could be
            another user). These are the program's mistakes, not the model's.
    """
    config = var_child_runnable_config.get()
    if runtime is not None:
        config = getattr(runtime, "config", None) or config
        facts: RunFacts | None = facts_of(runtime, config)
    else:
        facts = run_facts()
    configurable = (config or {}).get("configurable") or {}
    context = facts.context if facts is not None else None
    claims = [("config['configurable']['user_id']", configurable.get("user_id"))]
    if context is not None:
        claimed = (
            context.get("user_id")
            if isinstance(context, Mapping)
            else getattr(context, "user_id", None)
        )
        claims.append(("the LangGraph runtime context's user_id", claimed))
    authenticated = (
        facts.server_user
        if facts is not None
        else identity(configurable.get("langgraph_auth_user"))
    )
    if authenticated is not None:
        for place, claimed in claims:
            if claimed is not None and claimed != authenticated:
                raise UserMismatchError(
                    f"{place} is {claimed!r}, and the LangGraph server authenticated this run's "
                    f"user as {authenticated!r}: a run acts only as its authenticated user, and "
                    "nothing was sent. The config and the context come from the client: on a "
                    "server with auth, leave user_id out of them (the tools use the "
                    "authenticated identity) or set it to that identity.",
                    authenticated=authenticated,
                    claimed=(place, str(claimed)),
                )
        return authenticated
    for place, claimed in claims:
        if claimed is not None:
            return _checked(claimed, place)
    if config is None and _async_on_python_3_10():
        raise ConfigurationError(
            "this run names no user that Python 3.10 lets a per-user tool or ToolRouterMiddleware "
            "see: LangGraph hands an async hook no config there (asyncio copies no context into "
            "the node's task), so a config's user_id is out of reach. Name the user in the "
            "context: create_agent(..., context_schema=...) with context=... on every ainvoke "
            "and resume, or serve the agent behind LangGraph server auth, or run Python 3.11+. "
            f"Looked in {_LOOKED}. Nothing was sent."
        )
    raise ConfigurationError(
        "a per-user tool or ToolRouterMiddleware needs the run's user, and this run names no "
        f"user: looked in {_LOOKED}. Pass one, e.g. agent.invoke(..., config={{'configurable': "
        "{'user_id': 'user-42'}}) or create_agent(..., context_schema=...) with context=... on "
        "every invoke and resume (LangGraph does not keep the context), or serve the agent "
        "behind LangGraph server auth. Nothing was sent."
    )


def _async_on_python_3_10() -> bool:
    """Whether this runs in an event loop on Python 3.10, where LangGraph's async nodes see no
    config (asyncio copies no context into their tasks before 3.11)."""
    if sys.version_info >= (3, 11):
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _checked(user: object, place: str) -> str:
    if isinstance(user, str) and user.strip():
        return user
    msg = (
        f"{place} is {user!r} ({type(user).__name__}); a user id is a non-empty str, e.g. "
        "config={'configurable': {'user_id': 'user-42'}}. Nothing was sent."
    )
    raise ConfigurationError(msg)


class UserSessions:
    """The sessions of one per-user tool list, one per user (see the module docstring).

    Args:
        creation: How every user's session is made (runtime, custom tools, connections).
        options: `create_session`'s options for each user's session.
        options_key: What the sessions are made with, as text (their store namespace's digest).
        max_sessions: Sessions kept in this process (least recently used dropped first).
        max_age: Seconds a kept session is reused before it is looked up again.
        store: A LangGraph `BaseStore` shared with other workers, or `None`.
    """

    def __init__(
        self,
        creation: Creation,
        options: Mapping[str, Any],
        *,
        options_key: str,
        max_sessions: int,
        max_age: float,
        store: Any = None,
    ) -> None:
        self.creation = creation
        self.registry = creation.registry
        self._options = dict(options)
        self._max_sessions = max_sessions
        self._max_age = max_age
        self._store = store
        digest = hashlib.sha256(options_key.encode()).hexdigest()[:16]
        self._namespace = (*NAMESPACE, digest)
        self._kept: OrderedDict[str, tuple[SessionCalls, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._runs = SingleFlight()
        self.created = 0
        """Sessions this process created (not resumed)."""

    def tool_call(self, slug: str, toolkit: str | None) -> UserToolCall:
        """The executor of the per-user tool `slug`."""
        return UserToolCall(self, slug, toolkit)

    def cached(self, user_id: str) -> SessionCalls | None:
        """The user's kept session, when it is young enough (the fast path of every call)."""
        entry = self._kept.get(user_id)
        if entry is None or time.monotonic() - entry[1] > self._max_age:
            return None
        with self._lock:
            if user_id in self._kept:
                self._kept.move_to_end(user_id)
        return entry[0]

    async def of(self, face: Face, user_id: str) -> SessionCalls:
        """The user's session, in a flow: kept, found in the store, or made."""
        kept = self.cached(user_id)
        return kept if kept is not None else await self._shared(face, user_id)

    def session(self, user_id: str) -> SessionCalls:
        """The user's session: kept, found in the store, or made (once for concurrent calls)."""
        kept = self.cached(user_id)
        return kept if kept is not None else run_sync(self._shared(SyncFace(self.rt), user_id))

    async def asession(self, user_id: str) -> SessionCalls:
        """Async twin of `session`."""
        kept = self.cached(user_id)
        return kept if kept is not None else await self._shared(AsyncFace(self.rt), user_id)

    @property
    def rt(self) -> Runtime:
        """The router's runtime."""
        return self.creation.rt

    def forget(self, user_id: str, calls: SessionCalls) -> None:
        """Stop reusing `calls` for the user (the service no longer has its session)."""
        with self._lock:
            kept = self._kept.get(user_id)
            if kept is not None and kept[0] is calls:
                del self._kept[user_id]

    async def _shared(self, face: Face, user_id: str) -> SessionCalls:
        return await face.shared(self._runs, user_id, lambda: self._open(face, user_id))

    async def _open(self, face: Face, user_id: str) -> SessionCalls:
        kept = self.cached(user_id)  # made by a run that ended while this one waited
        if kept is not None:
            return kept
        if self._store is None:
            session = await self._create(face, user_id)
        else:
            session = await self._shared_by_workers(face, user_id)
        calls = self.creation.opened(session).calls
        with self._lock:
            self._kept[user_id] = (calls, time.monotonic())
            self._kept.move_to_end(user_id)
            while len(self._kept) > self._max_sessions:
                self._kept.popitem(last=False)
        return calls

    async def _create(self, face: Face, user_id: str) -> m.Session:
        session = await self.creation.create(face, user_id, self._options)
        self.created += 1
        return session

    async def _shared_by_workers(self, face: Face, user_id: str) -> m.Session:
        """The user's one session among the workers that share the store.

        The store's entries for the user are candidates, oldest first: the first one that is
        a session of this user at the service is it (an entry that is not, malformed,
        deleted or another user's, is removed, so it fails no later call). With none, this
        worker makes one and adds it; when another worker added one at the same moment, the
        older one wins everywhere: this worker's is deleted at the service before any call ran
        in it. Any `BaseStore` converges so; no store offers a compare-and-set in its API.
        """
        store = self._store
        session = await self._oldest_usable(face, user_id)
        if session is not None:
            return session
        made = await self._create(face, user_id)
        value = {"session_id": made.session_id, "user_id": user_id}
        key = f"{_digest(user_id)}:{made.session_id}"
        await face.run(store.put, store.aput, self._namespace, key, value, index=False)
        winner = await self._oldest_usable(face, user_id)
        if winner is None or winner.session_id == made.session_id:
            return made
        # Another worker's session came first: this one never ran a call, and goes.
        await face.run(store.delete, store.adelete, self._namespace, key)
        try:
            await face.call(ToolRouterClient.delete_session, made.session_id)
        except (APIError, TransportError) as exc:
            _log.debug("an extra session %s was left at the service: %s", made.session_id, exc)
        return winner

    async def _oldest_usable(self, face: Face, user_id: str) -> m.Session | None:
        """The session of the oldest usable store entry of the user; unusable ones removed."""
        store = self._store
        found = await face.run(
            store.search, store.asearch, self._namespace, filter={"user_id": user_id}, limit=50
        )
        for item in sorted(found, key=lambda item: (item.created_at, item.key)):
            session_id = item.value.get("session_id") if isinstance(item.value, Mapping) else None
            session = None
            if isinstance(session_id, str) and _SESSION_ID.fullmatch(session_id):
                try:
                    session = await self.creation.resume(face, session_id)
                except (NotFoundError, RequestValidationError):  # deleted, expired, refused
                    session = None
            if session is not None and session.config.user_id == user_id:
                return session
            # Not a session of this user (malformed, deleted, another user's): replaced now.
            await face.run(store.delete, store.adelete, self._namespace, item.key)
        return None


_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")
"""What a stored session id must look like before it is sent anywhere."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class UserToolCall:
    """The executor of a per-user tool: the run's user, their session, that session's call."""

    __slots__ = ("_sessions", "slug", "toolkit")

    def __init__(self, sessions: UserSessions, slug: str, toolkit: str | None) -> None:
        self._sessions = sessions
        self.slug = slug
        self.toolkit = toolkit

    def __copy__(self) -> UserToolCall:
        """Itself: a copied tool still uses the same sessions."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> UserToolCall:
        """Itself, as for :meth:`__copy__`."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        msg = f"a per-user tool ({self.slug}) cannot be pickled: it calls live sessions"
        raise TypeError(msg)

    def check_arguments(self, payload: dict[str, Any], *, schema_checked: bool) -> None:
        """A custom tool's own checks of its arguments (see `ToolCall.check_arguments`)."""
        self._sessions.registry.check_arguments(self.slug, payload, schema_checked=schema_checked)

    def execute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Run the call in the run's user's session, with the sync client. A kept session the
        service no longer has (deleted, expired) is replaced once: it refused, nothing ran."""
        user = self._user()
        calls = self._calls(user)
        try:
            return calls.tool(self.slug, self.toolkit).execute(payload)
        except NotFoundError as exc:
            if exc.slug != SESSION_NOT_FOUND:
                raise
            self._sessions.forget(user, calls)
        return self._calls(user).tool(self.slug, self.toolkit).execute(payload)

    async def aexecute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Async twin of `execute`."""
        run = current_call()  # counted as running from here: its session may take a while
        started = run is not None and RUNNING.start(run)
        try:
            return await self._aexecute(payload)
        finally:
            if started and run is not None:
                RUNNING.finish(run)

    async def _aexecute(self, payload: dict[str, Any]) -> ToolOutcome:
        user = self._user()
        calls = await self._acalls(user)
        try:
            return await calls.tool(self.slug, self.toolkit).aexecute(payload)
        except NotFoundError as exc:
            if exc.slug != SESSION_NOT_FOUND:
                raise
            self._sessions.forget(user, calls)
        return await (await self._acalls(user)).tool(self.slug, self.toolkit).aexecute(payload)

    def _calls(self, user: str) -> SessionCalls:
        try:
            return self._sessions.session(user)
        except (APIError, TransportError) as exc:
            raise no_session_error(self.slug, exc) from exc

    async def _acalls(self, user: str) -> SessionCalls:
        try:
            return await self._sessions.asession(user)
        except (APIError, TransportError) as exc:
            raise no_session_error(self.slug, exc) from exc

    def _user(self) -> str:
        return user_of_run()


def options_key(body: Mapping[str, Any]) -> str:
    """A stable text of a session's create request (minus its user), for store namespaces."""
    rest = {key: value for key, value in body.items() if key != "user_id"}
    return json.dumps(rest, sort_keys=True, separators=(",", ":"), default=str)


# --------------------------------------------------------------------------- the request


def _is_str_list(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(item, str) for item in value)
    )


def _bad(name: str, value: Any, accepted: str) -> TypeError:
    return TypeError(f"{name}: expected {accepted}, got {type(value).__name__} {value!r}")


def _enable_list(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"enable": [value]}
    if _is_str_list(value):
        return {"enable": list(value)}
    if isinstance(value, Mapping):
        return dict(value)
    raise _bad(name, value, "a list of slugs or {'enable': [...]} / {'disable': [...]}")


def _flag(name: str, value: Any, key: str) -> dict[str, Any]:
    if isinstance(value, bool):
        return {key: value}
    if isinstance(value, Mapping):
        return dict(value)
    raise _bad(name, value, f"True/False or a {{'{key}': ...}} mapping")


def _tools(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad(
            "tools",
            value,
            "a mapping of toolkit slug -> list of tool slugs (or {'disable': [...]}, "
            "{'tags': [...]})",
        )
    out: dict[str, Any] = {}
    for toolkit, spec in value.items():
        if isinstance(spec, str) or _is_str_list(spec):
            out[toolkit] = {"enable": [spec] if isinstance(spec, str) else list(spec)}
        elif isinstance(spec, Mapping):
            out[toolkit] = dict(spec)
        else:
            raise _bad(f"tools[{toolkit!r}]", spec, "a list of tool slugs or a filter mapping")
    return out


def _accounts(value: Any) -> dict[str, list[str]]:
    if not isinstance(value, Mapping):
        raise _bad("connected_accounts", value, "a mapping of toolkit slug -> account id(s)")
    out: dict[str, list[str]] = {}
    for toolkit, ids in value.items():
        if isinstance(ids, str):
            out[toolkit] = [ids]
        elif _is_str_list(ids):
            out[toolkit] = list(ids)
        else:
            raise _bad(f"connected_accounts[{toolkit!r}]", ids, "an account id or a list of ids")
    return out


def _preload(value: Any) -> dict[str, Any]:
    if value == "all":
        return {"tools": "all"}
    if isinstance(value, str):
        value = [value]
    if _is_str_list(value):
        local = [slug for slug in value if slug.upper().startswith("LOCAL_")]
        if local:
            msg = (
                f"preload names custom tools {local}: preload those with "
                "@custom_tool(preload=True) instead (the service rejects LOCAL_ slugs here)"
            )
            raise ValueError(msg)
        return {"tools": list(value)}
    if isinstance(value, Mapping):
        return dict(value)
    raise _bad("preload", value, "'all', a list of tool slugs or {'tools': ...}")


def session_request(
    user_id: str,
    *,
    toolkits: Any = None,
    tools: Any = None,
    tags: Any = None,
    auth_configs: Mapping[str, str] | None = None,
    connected_accounts: Any = None,
    manage_connections: Any = None,
    workbench: Any = None,
    preload: Any = None,
    search: Any = None,
    multi_execute: Any = None,
    multi_account: Any = None,
    experimental: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The `create_session` body for friendly arguments; `None` arguments are not sent."""
    if not isinstance(user_id, str) or not user_id:
        msg = f"user_id must be a non-empty string naming your user, got {user_id!r}"
        raise ValueError(msg)
    body: dict[str, Any] = {"user_id": user_id}
    if toolkits is not None:
        body["toolkits"] = _enable_list("toolkits", toolkits)
    if tools is not None:
        body["tools"] = _tools(tools)
    if tags is not None:
        if isinstance(tags, str):
            tags = [tags]
        if not (_is_str_list(tags) or isinstance(tags, Mapping)):
            raise _bad("tags", tags, "a list of tags or {'enable': [...], 'disable': [...]}")
        body["tags"] = list(tags) if _is_str_list(tags) else dict(tags)
    if auth_configs is not None:
        if not isinstance(auth_configs, Mapping):
            raise _bad("auth_configs", auth_configs, "a mapping of toolkit slug -> auth config id")
        body["auth_configs"] = dict(auth_configs)
    if connected_accounts is not None:
        body["connected_accounts"] = _accounts(connected_accounts)
    if manage_connections is not None:
        body["manage_connections"] = _flag("manage_connections", manage_connections, "enable")
    if workbench is not None:
        body["workbench"] = _flag("workbench", workbench, "enable")
    if preload is not None:
        body["preload"] = _preload(preload)
    if search is not None:
        body["search"] = _flag("search", search, "enable")
    if multi_execute is not None:
        body["execute"] = _flag("multi_execute", multi_execute, "enable_multi_execute")
    if multi_account is not None:
        body["multi_account"] = _flag("multi_account", multi_account, "enable")
    if experimental is not None:
        if not isinstance(experimental, Mapping):
            raise _bad("experimental", experimental, "a mapping of experimental options")
        if experimental:
            body["experimental"] = dict(experimental)
    return body
