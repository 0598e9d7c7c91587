"""One tool list for many users: the session of each call chosen from the run.

`UserSessions` holds the sessions of one `ToolRouter.per_user_tools(...)` list, one per user:
made on a user's first call and reused, in an LRU bounded in size and age; concurrent first
calls of one user make exactly one (threads and asyncio tasks alike); with a LangGraph store
(`session_store=`), workers that share it reuse a user's session by id instead of each making
one. `UserToolCall` is the executor of such a tool: it finds the run's user (`user_of_run`),
their session, and hands the call to that session's `ToolCall`.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.runnables.config import var_child_runnable_config

from langchain_toolrouter._session.answers import SESSION_NOT_FOUND
from langchain_toolrouter._session.calls import SessionCalls, check_custom_arguments
from langchain_toolrouter._session.customs import CustomRegistry
from langchain_toolrouter._session.flows import Flow, Shared, SingleFlight, run_async, run_sync
from langchain_toolrouter._session.runtime import ConnectionPolicy, Runtime
from langchain_toolrouter.errors import (
    APIError,
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ToolRateLimitError,
    ToolRouterToolError,
    ToolServiceError,
    ToolTransportError,
    TransportError,
)
from langchain_toolrouter.types import ToolOutcome

if TYPE_CHECKING:
    from langchain_toolrouter.wire import models as m

__all__ = ["StoreGet", "StorePut", "UserSessions", "UserToolCall", "user_of_run"]

NAMESPACE = ("langchain_toolrouter", "sessions")
"""The store namespace of session ids (a digest of the session options is appended)."""

_LOOKED = (
    "config['configurable']['user_id'], the LangGraph runtime context (context.user_id or "
    "context['user_id']) and config['configurable']['langgraph_auth_user'].identity"
)


def user_of_run() -> str | None:
    """The user of the running LangChain/LangGraph call: `configurable["user_id"]`, else the
    LangGraph runtime context's `user_id` (attribute or key, as `create_agent(context_schema=
    ...)` passes it), else the LangGraph server's authenticated user (`langgraph_auth_user`).

    Raises:
        ValueError: the first place that names a user gives something other than a non-empty
            str (it is not passed over for a later place: that could be another user).
    """
    config = var_child_runnable_config.get() or {}
    configurable = config.get("configurable") or {}
    user = configurable.get("user_id")
    if user is not None:
        return _checked(user, "config['configurable']['user_id']")
    context = _langgraph_context()
    if context is not None:
        user = (
            context.get("user_id")
            if isinstance(context, Mapping)
            else getattr(context, "user_id", None)
        )
        if user is not None:
            return _checked(user, "the LangGraph runtime context's user_id")
    auth = configurable.get("langgraph_auth_user")
    if auth is not None:
        user = (
            auth.get("identity") if isinstance(auth, Mapping) else getattr(auth, "identity", None)
        )
        if isinstance(user, str) and user:  # an anonymous user has no identity: not a user
            return user
    return None


def _checked(user: object, place: str) -> str:
    if isinstance(user, str) and user.strip():
        return user
    msg = f"{place} is {user!r} ({type(user).__name__}); a user id is a non-empty str"
    raise ValueError(msg)


def _langgraph_context() -> Any:
    """The LangGraph runtime context of the running graph, if any (langgraph is imported only
    when a graph already imported it: no graph, no context)."""
    if "langgraph.runtime" not in sys.modules:
        return None
    from langgraph.runtime import get_runtime

    try:
        runtime = get_runtime()
    except (RuntimeError, KeyError):
        return None
    return getattr(runtime, "context", None)


@dataclass(frozen=True)
class StoreGet:
    """Read `key` in a LangGraph store's `namespace` (`None` when absent)."""

    store: Any
    namespace: tuple[str, ...]
    key: str

    def run(self, rt: Runtime) -> Mapping[str, Any] | None:
        item = self.store.get(self.namespace, self.key)
        return None if item is None else item.value

    async def arun(self, rt: Runtime) -> Mapping[str, Any] | None:
        item = await self.store.aget(self.namespace, self.key)
        return None if item is None else item.value


@dataclass(frozen=True)
class StorePut:
    """Write `value` under `key` in a LangGraph store's `namespace`."""

    store: Any
    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any]

    def run(self, rt: Runtime) -> None:
        self.store.put(self.namespace, self.key, self.value, index=False)

    async def arun(self, rt: Runtime) -> None:
        await self.store.aput(self.namespace, self.key, self.value, index=False)


class UserSessions:
    """The sessions of one per-user tool list, one per user (see the module docstring).

    Args:
        rt: The router's runtime.
        create: The flow that creates a user's session (`user_id -> Flow[m.Session]`).
        resume: The flow that resumes a session by id (`session_id -> Flow[m.Session]`).
        registry: The custom tools every user's session carries.
        options_key: What the sessions are made with, as text (their store namespace's digest).
        policy: Their connection handling.
        max_sessions: Sessions kept in this process (least recently used dropped first).
        max_age: Seconds a kept session is reused before it is looked up again.
        store: A LangGraph `BaseStore` shared with other workers, or `None`.
    """

    def __init__(
        self,
        rt: Runtime,
        *,
        create: Callable[[str], Flow[m.Session]],
        resume: Callable[[str], Flow[m.Session]],
        registry: CustomRegistry,
        options_key: str,
        policy: ConnectionPolicy,
        max_sessions: int,
        max_age: float,
        store: Any = None,
    ) -> None:
        self.rt = rt
        self.registry = registry
        self.policy = policy
        self._create = create
        self._resume = resume
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

    def cached(self, user_id: str) -> SessionCalls | None:
        """The user's kept session, when it is young enough (the fast path of every call)."""
        entry = self._kept.get(user_id)
        if entry is None or time.monotonic() - entry[1] > self._max_age:
            return None
        with self._lock:
            if user_id in self._kept:
                self._kept.move_to_end(user_id)
        return entry[0]

    def session(self, user_id: str) -> SessionCalls:
        """The user's session: kept, found in the store, or made (once for concurrent calls)."""
        kept = self.cached(user_id)
        return kept if kept is not None else run_sync(self._shared(user_id), self.rt)

    async def asession(self, user_id: str) -> SessionCalls:
        """Async twin of `session`."""
        kept = self.cached(user_id)
        return kept if kept is not None else await run_async(self._shared(user_id), self.rt)

    def forget(self, user_id: str, calls: SessionCalls) -> None:
        """Stop reusing `calls` for the user (the service no longer has its session)."""
        with self._lock:
            kept = self._kept.get(user_id)
            if kept is not None and kept[0] is calls:
                del self._kept[user_id]

    def _shared(self, user_id: str) -> Flow[SessionCalls]:
        calls: SessionCalls = yield Shared(self._runs, user_id, self._open(user_id))
        return calls

    def _open(self, user_id: str) -> Flow[SessionCalls]:
        kept = self.cached(user_id)  # made by a run that ended while this one waited
        if kept is not None:
            return kept
        session = None
        if self._store is not None:
            found = yield StoreGet(self._store, self._namespace, user_id)
            session_id = found.get("session_id") if found else None
            if isinstance(session_id, str):
                try:
                    session = yield from self._resume(session_id)
                except NotFoundError:  # deleted or expired: make another
                    session = None
                if session is not None and session.config.user_id != user_id:
                    session = None  # never another user's session
        if session is None:
            session = yield from self._create(user_id)
            self.created += 1
            if self._store is not None:
                value = {"session_id": session.session_id, "user_id": user_id}
                yield StorePut(self._store, self._namespace, user_id, value)
        calls = SessionCalls(self.rt, session.session_id, user_id, self.registry, self.policy)
        with self._lock:
            self._kept[user_id] = (calls, time.monotonic())
            self._kept.move_to_end(user_id)
            while len(self._kept) > self._max_sessions:
                self._kept.popitem(last=False)
        return calls


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
        check_custom_arguments(self._sessions.registry, self.slug, payload, schema_checked)

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
            raise self._no_session(exc) from exc

    async def _acalls(self, user: str) -> SessionCalls:
        try:
            return await self._sessions.asession(user)
        except (APIError, TransportError) as exc:
            raise self._no_session(exc) from exc

    def _no_session(self, exc: APIError | TransportError) -> Exception:
        """The answer when the user's session could not be made or found: the call did not
        run. A bad key or a missing permission is the program's problem and propagates."""
        if isinstance(exc, AuthenticationError | PermissionDeniedError):
            return exc
        why = f"{self.slug} was not run: the user's Tool Router session could not be made"
        if isinstance(exc, TransportError):
            return ToolTransportError(
                f"{why}: {exc}. Call it again.",
                tool=self.slug,
                request_sent=False,
            )
        if isinstance(exc, RateLimitError):
            wait = f" Wait {exc.retry_after:g}s and call again." if exc.retry_after else ""
            return ToolRateLimitError(
                f"{why}: rate limited (HTTP 429).{wait}",
                tool=self.slug,
                retry_after=exc.retry_after,
            )
        return ToolServiceError(
            f"{why}: HTTP {exc.status}, {exc.message}. Call it again later.",
            tool=self.slug,
            status=exc.status,
            slug=exc.slug,
            suggested_fix=exc.suggested_fix,
        )

    def _user(self) -> str:
        try:
            user = user_of_run()
        except ValueError as exc:
            raise ToolRouterToolError(
                f"{self.slug} was not run: it is a per-user tool and {exc}. Pass the user's id "
                "as a str, e.g. config={'configurable': {'user_id': 'user-42'}}.",
                tool=self.slug,
            ) from exc
        if user is None:
            raise ToolRouterToolError(
                f"{self.slug} was not run: it is a per-user tool and this run names no user. "
                f"Looked in {_LOOKED}. Pass one, e.g. agent.invoke(..., "
                "config={'configurable': {'user_id': 'user-42'}}).",
                tool=self.slug,
            )
        return user


def options_key(body: Mapping[str, Any]) -> str:
    """A stable text of a session's create request (minus its user), for store namespaces."""
    rest = {key: value for key, value in body.items() if key != "user_id"}
    return json.dumps(rest, sort_keys=True, separators=(",", ":"), default=str)
