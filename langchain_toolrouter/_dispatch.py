"""Where one tool call of a session goes, and what the model hears when it fails.

`Dispatcher.route` (and `aroute`) is the single path every call takes:

* a custom tool (by its `LOCAL_...` slug) runs here;
* `COMPOSIO_MULTI_EXECUTE_TOOL` naming custom tools is split: local items run here
  concurrently, the others go to the service in ONE call that keeps every other field, and the
  answers are merged in order (`_multi_execute`);
* anything else goes to the service: `execute`, or `execute_meta` for `COMPOSIO_*` slugs, with
  the custom definitions inline when the API version needs them (v3.1).

A `LOCAL_` slug with no function here (a session resumed without its custom tools) goes to the
service too, which refuses it; its refusal, or the failed multi-execute item, then also says
how to pass the custom tools (`CustomRegistry.missing_hint`).

`SessionToolExecutor` is what a session's `ToolRouterTool` calls: it routes, and turns client
errors the model can act on into `ToolRouterToolError`s; "no active connection" first fetches a
connect link (one per toolkit, reused until the toolkit is connected). A custom tool's arguments
are checked first, so that a refusal is a `ToolArgumentsError` with the same text as the
schema check's (and as the custom tool's failed result on the other paths).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from contextvars import copy_context
from typing import TYPE_CHECKING, Any

from langchain_toolrouter._session.answers import (
    SESSION_NOT_FOUND,
    is_no_connection,
    translate_error,
)
from langchain_toolrouter._session.customs import CustomRegistry
from langchain_toolrouter._session.multi_execute import (
    MULTI_EXECUTE_SLUG,
    MultiExecutePlan,
    hint_unknown_local,
    merge,
    plan,
)
from langchain_toolrouter.custom_tools import CustomTool, CustomToolContext
from langchain_toolrouter.errors import (
    APIError,
    BadRequestError,
    NotFoundError,
    ToolArgumentsError,
    ToolNotConnectedError,
    TransportError,
    UnprocessableEntityError,
)
from langchain_toolrouter.schema.errors import ArgsValidationError
from langchain_toolrouter.types import ConnectionLink, ToolOutcome
from langchain_toolrouter.wire import models as m

if TYPE_CHECKING:
    from langchain_toolrouter.client import AsyncToolRouterClient, ToolRouterClient
    from langchain_toolrouter.session import ToolRouter

__all__ = ["Dispatcher", "SessionToolExecutor", "is_meta"]

MAX_LOCAL_WORKERS = 5
"""Threads for local items of one sync multi-execute call (as the official SDK)."""


def is_meta(slug: str) -> bool:
    """True for the service's `COMPOSIO_*` meta tools."""
    return slug.upper().startswith("COMPOSIO_")


class Dispatcher:
    """Runs the calls of one session (see the module docstring for the routes)."""

    def __init__(
        self, router: ToolRouter, session_id: str, user_id: str, registry: CustomRegistry
    ) -> None:
        self._router = router
        self.session_id = session_id
        self.user_id = user_id
        self.registry = registry
        self._links: dict[str, ConnectionLink] = {}
        self._link_lock = threading.Lock()
        self._pending_links: dict[
            tuple[asyncio.AbstractEventLoop, str],
            asyncio.Future[tuple[ConnectionLink | None, str | None]],
        ] = {}

    @property
    def client(self) -> ToolRouterClient:
        return self._router.client

    @property
    def aclient(self) -> AsyncToolRouterClient:
        return self._router.aclient

    def inline(self) -> m.InlineCustomTools | None:
        """Custom definitions to send with this call (every call under v3.1)."""
        if self.registry and self._router.api_version == "v3.1":
            return self.registry.inline()
        return None

    # ------------------------------------------------------------------ routing

    def context(self, tool: CustomTool | None = None) -> CustomToolContext:
        """What a custom tool function may ask for (user, session, sibling calls, and proxy
        calls through the connection of the toolkit the tool extends)."""
        return CustomToolContext(
            user_id=self.user_id,
            session_id=self.session_id,
            _execute=self._context_execute,
            _aexecute=self._context_aexecute,
            toolkit=tool.extends_toolkit if tool is not None else None,
            _proxy=self._context_proxy,
            _aproxy=self._context_aproxy,
        )

    def _context_proxy(self, toolkit: str, endpoint: str, method: str, **kw: Any) -> m.ProxyResult:
        return self.client.proxy_execute(self.session_id, toolkit, endpoint, method, **kw)

    async def _context_aproxy(
        self, toolkit: str, endpoint: str, method: str, **kw: Any
    ) -> m.ProxyResult:
        return await self.aclient.proxy_execute(self.session_id, toolkit, endpoint, method, **kw)

    def _context_execute(self, slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.route(slug, arguments).as_dict()

    async def _context_aexecute(self, slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return (await self.aroute(slug, arguments)).as_dict()

    def _plan(self, slug: str, payload: Mapping[str, Any]) -> MultiExecutePlan | None:
        if not self.registry or slug.upper() != MULTI_EXECUTE_SLUG:
            return None
        return plan(payload, self.registry.resolve)

    def route(self, slug: str, payload: dict[str, Any], account: str | None = None) -> ToolOutcome:
        """Run one call: locally, split (multi-execute with customs), or at the service.

        Raises:
            APIError, TransportError: the service refused or could not be reached.
        """
        custom = self.registry.resolve_exact(slug)
        if custom is not None:
            return custom.run(payload, self.context(custom))
        split = self._plan(slug, payload)
        if split is not None:
            return self._hinted(slug, self._run_split(split))
        try:
            return self._hinted(slug, self._remote(slug, payload, account))
        except APIError as exc:
            self._hint_refusal(slug, exc)
            raise

    async def aroute(
        self, slug: str, payload: dict[str, Any], account: str | None = None
    ) -> ToolOutcome:
        """Async twin of `route`."""
        custom = self.registry.resolve_exact(slug)
        if custom is not None:
            return await custom.arun(payload, self.context(custom))
        split = self._plan(slug, payload)
        if split is not None:
            return self._hinted(slug, await self._arun_split(split))
        try:
            return self._hinted(slug, await self._aremote(slug, payload, account))
        except APIError as exc:
            self._hint_refusal(slug, exc)
            raise

    def _hinted(self, slug: str, outcome: ToolOutcome) -> ToolOutcome:
        """A multi-execute answer with the fix added to items naming a custom tool this
        session has no function for."""
        if slug.upper() != MULTI_EXECUTE_SLUG:
            return outcome
        return hint_unknown_local(outcome, self.registry.missing_hint)

    def _hint_refusal(self, slug: str, exc: APIError) -> None:
        """Add the fix to the service's refusal of a custom tool this session has no function
        for (it is the caller's exception, made for this call: its `suggested_fix` and text
        gain the hint)."""
        hint = self.registry.missing_hint(slug)
        refused = isinstance(exc, BadRequestError | NotFoundError | UnprocessableEntityError)
        if hint is None or not refused or exc.slug == SESSION_NOT_FOUND:
            return
        exc.suggested_fix = f"{exc.suggested_fix} {hint}" if exc.suggested_fix else hint
        exc.args = (exc._render(),)

    def _remote(self, slug: str, payload: dict[str, Any], account: str | None) -> ToolOutcome:
        if is_meta(slug):
            result = self.client.execute_meta(
                self.session_id, slug, payload, experimental=self.inline()
            )
        else:
            result = self.client.execute(
                self.session_id, slug, payload, account=account, experimental=self.inline()
            )
        return ToolOutcome.from_wire(result.model_dump(mode="json", exclude_none=True))

    async def _aremote(
        self, slug: str, payload: dict[str, Any], account: str | None
    ) -> ToolOutcome:
        if is_meta(slug):
            result = await self.aclient.execute_meta(
                self.session_id, slug, payload, experimental=self.inline()
            )
        else:
            result = await self.aclient.execute(
                self.session_id, slug, payload, account=account, experimental=self.inline()
            )
        return ToolOutcome.from_wire(result.model_dump(mode="json", exclude_none=True))

    # ------------------------------------------------------------------ split multi-execute

    @staticmethod
    def _remote_failure(exc: APIError | TransportError) -> str:
        """The per-item error text when the service half of a split call failed as a whole
        (errors that are the caller's problem, such as a bad key, propagate). With no answer,
        it says whether the items may have run, as for a single tool."""
        translated = translate_error(exc, tool="This tool")
        if translated is None:
            raise exc
        return str(translated)

    def _split_remote(self, split: MultiExecutePlan) -> tuple[ToolOutcome | None, str | None]:
        assert split.remote_arguments is not None
        try:
            return self._remote(MULTI_EXECUTE_SLUG, split.remote_arguments, None), None
        except (APIError, TransportError) as exc:
            return None, self._remote_failure(exc)

    async def _asplit_remote(
        self, split: MultiExecutePlan
    ) -> tuple[ToolOutcome | None, str | None]:
        assert split.remote_arguments is not None
        try:
            return await self._aremote(MULTI_EXECUTE_SLUG, split.remote_arguments, None), None
        except (APIError, TransportError) as exc:
            return None, self._remote_failure(exc)

    def _run_split(self, split: MultiExecutePlan) -> ToolOutcome:
        """Local items on a short-lived pool, the service call beside them; each task runs in
        a copy of the caller's context (callbacks, tracing)."""
        workers = min(MAX_LOCAL_WORKERS, len(split.local) + 1)
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="toolrouter") as pool:
            remote = (
                pool.submit(copy_context().run, self._split_remote, split)
                if split.remote_arguments is not None
                else None
            )
            local = {
                item.index: pool.submit(
                    copy_context().run, item.tool.run, item.arguments, self.context(item.tool)
                )
                for item in split.local
            }
            outcomes = {index: future.result() for index, future in local.items()}
            remote_outcome, remote_error = remote.result() if remote else (None, None)
        return merge(split, outcomes, remote_outcome, remote_error)

    async def _arun_split(self, split: MultiExecutePlan) -> ToolOutcome:

        async def run_local() -> list[ToolOutcome]:
            return list(
                await asyncio.gather(
                    *(
                        item.tool.arun(item.arguments, self.context(item.tool))
                        for item in split.local
                    )
                )
            )

        remote_outcome: ToolOutcome | None = None
        remote_error: str | None = None
        if split.remote_arguments is not None:
            outcomes, (remote_outcome, remote_error) = await asyncio.gather(
                run_local(), self._asplit_remote(split)
            )
        else:
            outcomes = await run_local()
        by_index = {item.index: o for item, o in zip(split.local, outcomes, strict=True)}
        return merge(split, by_index, remote_outcome, remote_error)

    # ------------------------------------------------------------------ connect links

    def forget_link(self, toolkit: str) -> None:
        """Drop the cached connect link of a toolkit (it is connected now)."""
        self._links.pop(toolkit.lower(), None)

    def not_connected(self, slug: str, toolkit: str | None, exc: APIError) -> ToolNotConnectedError:
        """The model-facing "connect first" error, with a link (one per toolkit, reused; calls
        made at once on several threads wait for the one link rather than each making one)."""
        if toolkit is None:
            return not_connected_error(slug, None, exc, None, None)
        why = None
        with self._link_lock:
            link = self._links.get(toolkit.lower())
            if link is None:
                link, why = self._new_link(toolkit)
        return not_connected_error(slug, toolkit, exc, link, why)

    async def anot_connected(
        self, slug: str, toolkit: str | None, exc: APIError
    ) -> ToolNotConnectedError:
        """Async twin of `not_connected` (concurrent calls on one loop share one request)."""
        if toolkit is None:
            return not_connected_error(slug, None, exc, None, None)
        link, why = self._links.get(toolkit.lower()), None
        if link is None:
            key = (asyncio.get_running_loop(), toolkit.lower())
            pending = self._pending_links.get(key)
            if pending is None:
                pending = asyncio.ensure_future(self._anew_link(toolkit))
                self._pending_links[key] = pending
                pending.add_done_callback(lambda _: self._pending_links.pop(key, None))
            link, why = await asyncio.shield(pending)
        return not_connected_error(slug, toolkit, exc, link, why)

    def _new_link(self, toolkit: str) -> tuple[ConnectionLink | None, str | None]:
        try:
            response = self.client.create_link(self.session_id, toolkit)
        except APIError as link_error:
            return None, link_error.message
        except TransportError as link_error:  # the model still hears "connect first"
            return None, str(link_error)
        link = ConnectionLink.from_response(toolkit, response)
        return self._links.setdefault(toolkit.lower(), link), None

    async def _anew_link(self, toolkit: str) -> tuple[ConnectionLink | None, str | None]:
        try:
            response = await self.aclient.create_link(self.session_id, toolkit)
        except APIError as link_error:
            return None, link_error.message
        except TransportError as link_error:
            return None, str(link_error)
        link = ConnectionLink.from_response(toolkit, response)
        return self._links.setdefault(toolkit.lower(), link), None


def not_connected_error(
    slug: str, toolkit: str | None, exc: APIError, link: ConnectionLink | None, why: str | None
) -> ToolNotConnectedError:
    """The "connect first" error text: the link when there is one, else the service's fix."""
    name = toolkit or "the toolkit"
    if link is not None:
        text = (
            f"{slug} needs a connected {name} account and the user has none. Ask the user to "
            f"open this link to connect {name}, then call {slug} again: {link.redirect_url}"
        )
    else:
        text = f"{slug} needs a connected {name} account and the user has none. {exc.message}"
        if exc.suggested_fix:
            text += f" Suggested fix: {exc.suggested_fix}"
        if why:
            text += f" (A connect link could not be created: {why})"
    return ToolNotConnectedError(
        text,
        tool=slug,
        toolkit=toolkit,
        redirect_url=link.redirect_url if link else None,
        connected_account_id=link.connected_account_id if link else None,
    )


class SessionToolExecutor:
    """The `ToolExecutor` of a session's tools: routes the call, and raises the errors the
    model can act on as `ToolRouterToolError`s (the others propagate)."""

    def __init__(self, dispatcher: Dispatcher, slug: str, toolkit: str | None) -> None:
        self._dispatcher = dispatcher
        self._slug = slug
        self._toolkit = toolkit

    def __copy__(self) -> SessionToolExecutor:
        """Itself: a copied tool still calls the same live session (its clients, locks and
        connection state are shared, never copied)."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SessionToolExecutor:
        """Itself, as for :meth:`__copy__`."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        msg = (
            f"a session tool ({self._slug}) cannot be pickled: it calls a live session. "
            "Pickle the session id and the slug, and rebuild it with "
            "router.get_session(session_id).tool(slug)"
        )
        raise TypeError(msg)

    def check_arguments(self, payload: dict[str, Any], *, schema_checked: bool) -> None:
        """Refuse a custom tool call whose arguments its own checks refuse: its hidden
        arguments first, then the schema (unless `schema_checked`: the tool's own check of the
        same schema passed), then a function's parameter types. The tool calls this beside its
        schema check, so the model reads the same error on every path (the custom tool's own
        run checks again what reaches it)."""
        custom = self._dispatcher.registry.resolve_exact(self._slug)
        if custom is None:
            return
        try:
            custom.validate_arguments(payload, schema_checked=schema_checked)
        except ArgsValidationError as exc:
            raise ToolArgumentsError(tool=self._slug, errors=exc.errors, detail=str(exc)) from exc

    def execute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Run the call with the sync client."""
        try:
            return self._dispatcher.route(self._slug, payload)
        except (APIError, TransportError) as exc:
            if isinstance(exc, APIError) and is_no_connection(exc):
                raise self._dispatcher.not_connected(self._slug, self._toolkit, exc) from exc
            mapped = translate_error(exc, tool=self._slug)
            if mapped is None:
                raise
            raise mapped from exc

    async def aexecute(self, payload: dict[str, Any]) -> ToolOutcome:
        """Run the call with the async client."""
        try:
            return await self._dispatcher.aroute(self._slug, payload)
        except (APIError, TransportError) as exc:
            if isinstance(exc, APIError) and is_no_connection(exc):
                error = await self._dispatcher.anot_connected(self._slug, self._toolkit, exc)
                raise error from exc
            mapped = translate_error(exc, tool=self._slug)
            if mapped is None:
                raise
            raise mapped from exc
