"""The one path of a tool call in a session, and what the model hears when it fails.

`ToolCall.execute` (and `aexecute`) is where every call of a session goes, whoever makes it (a
session's LangChain tool, `session.execute`, a custom tool calling a sibling):

* a custom tool (by its `LOCAL_...` slug) runs here;
* `COMPOSIO_MULTI_EXECUTE_TOOL` naming custom tools is split: local items run here at once, the
  others go to the service in ONE call that keeps every other field, and the answers are merged
  in order (`multi_execute`);
* anything else goes to the service: `execute`, or `execute_meta` for a `COMPOSIO_*` slug, with
  the custom definitions inline when the API version needs them (v3.1).

A failed service call is answered by `_failed`: for a model, as the `ToolRouterToolError` it can
act on ("no active connection" first gets a connect link, one per toolkit, shared by concurrent
calls); for a program (`session.execute`, `model=False`), as the client's own error. A `LOCAL_`
slug with no function here (a session resumed without its custom tools) goes to the service,
which refuses it; the refusal then also says how to pass the custom tools.

The plain service call is made directly in `execute`/`aexecute`: that path is the hot one
(`ToolRouterTool._run` -> `ToolCall.execute` -> `ToolRouterClient.execute`). Every path of
more than one step is a flow (`flows`), written once for both.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping
from typing import Any

from langchain_toolrouter._session.answers import SESSION_NOT_FOUND, is_no_connection
from langchain_toolrouter._session.answers import translate_error as _translate
from langchain_toolrouter._session.connect import wait_until_connected
from langchain_toolrouter._session.customs import CustomRegistry
from langchain_toolrouter._session.flows import (
    Flow,
    Gather,
    Interrupt,
    Notify,
    RunCustom,
    Shared,
    SingleFlight,
    call,
    run_async,
    run_sync,
)
from langchain_toolrouter._session.graph import is_graph_signal
from langchain_toolrouter._session.multi_execute import (
    MULTI_EXECUTE_SLUG,
    MultiExecutePlan,
    hint_unknown_local,
    merge,
    plan,
)
from langchain_toolrouter._session.runtime import ConnectionPolicy, Runtime
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.custom_tools import CustomTool, CustomToolContext
from langchain_toolrouter.errors import (
    APIError,
    ArgsValidationError,
    BadRequestError,
    ConnectionFailedError,
    ConnectionTimeoutError,
    NotFoundError,
    ToolArgumentsError,
    ToolNotConnectedError,
    TransportError,
    UnprocessableEntityError,
)
from langchain_toolrouter.types import ConnectionLink, ConnectionRequest, ToolOutcome
from langchain_toolrouter.wire import models as m

__all__ = ["SessionCalls", "ToolCall", "check_custom_arguments", "is_meta"]

_log = logging.getLogger("langchain_toolrouter")

MANAGE_CONNECTIONS_SLUG = "COMPOSIO_MANAGE_CONNECTIONS"
_NO_CONNECTION = re.compile(r"no active connection for toolkit '?([\w.-]+)'?", re.IGNORECASE)


def is_meta(slug: str) -> bool:
    """True for the service's `COMPOSIO_*` meta tools."""
    return slug.upper().startswith("COMPOSIO_")


class SessionCalls:
    """What the calls of one session share: its ids, custom tools, clients and connect links.

    One per session; `tool(slug)` gives the `ToolCall` of one of its tools.
    """

    def __init__(
        self,
        rt: Runtime,
        session_id: str,
        user_id: str,
        registry: CustomRegistry,
        policy: ConnectionPolicy | None = None,
    ) -> None:
        self.rt = rt
        self.session_id = session_id
        self.user_id = user_id
        self.registry = registry
        self.policy = policy or rt.tools.connection
        self._links: dict[str, ConnectionLink] = {}
        self._link_runs = SingleFlight()

    def tool(self, slug: str, toolkit: str | None = None) -> ToolCall:
        """The call path of the tool `slug` (of toolkit `toolkit`, for its connect link)."""
        return ToolCall(self, slug, toolkit)

    def inline(self) -> m.InlineCustomTools | None:
        """Custom definitions to send with each call (every call under v3.1)."""
        if self.registry and self.rt.api_version == "v3.1":
            return self.registry.inline()
        return None

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

    def _context_execute(self, slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.tool(slug).execute(arguments, model=False).as_dict()

    async def _context_aexecute(self, slug: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return (await self.tool(slug).aexecute(arguments, model=False)).as_dict()

    def _context_proxy(self, toolkit: str, endpoint: str, method: str, **kw: Any) -> m.ProxyResult:
        return self.rt.client.proxy_execute(self.session_id, toolkit, endpoint, method, **kw)

    async def _context_aproxy(
        self, toolkit: str, endpoint: str, method: str, **kw: Any
    ) -> m.ProxyResult:
        return await self.rt.aclient.proxy_execute(self.session_id, toolkit, endpoint, method, **kw)

    # ------------------------------------------------------------------ connect links

    def link(self, toolkit: str | None) -> Flow[tuple[ConnectionLink | None, str | None]]:
        """A connect link for `toolkit` and, when none could be made, why: one per toolkit,
        reused until it is connected; concurrent calls share the one request."""
        if toolkit is None:
            return None, None
        cached = self._links.get(toolkit.lower())
        if cached is not None:
            return cached, None
        made: tuple[ConnectionLink | None, str | None] = yield Shared(
            self._link_runs, toolkit.lower(), self._new_link(toolkit)
        )
        return made

    def _new_link(self, toolkit: str) -> Flow[tuple[ConnectionLink | None, str | None]]:
        try:
            response = yield from call(ToolRouterClient.create_link, self.session_id, toolkit)
        except APIError as link_error:
            return None, link_error.message
        except TransportError as link_error:  # the model still hears "connect first"
            return None, str(link_error)
        link = ConnectionLink.from_response(toolkit, response)
        return self._links.setdefault(toolkit.lower(), link), None

    def links(self, toolkits: list[str]) -> Flow[dict[str, str]]:
        """Toolkit -> redirect URL, for each of `toolkits` a link could be made for."""
        made: dict[str, str] = {}
        for toolkit in toolkits:
            link, _ = yield from self.link(toolkit)
            if link is not None:
                made[toolkit] = link.redirect_url
        return made

    def connect_then(
        self, tool: str, links: Mapping[str, str], retry: Flow[ToolOutcome]
    ) -> Flow[ToolOutcome]:
        """Have the user connect `links`' toolkits, then run `retry` once.

        With `"interrupt"`, the LangGraph run pauses with the request as its value; a falsy
        resume value (or `{"connected": False}`) is the user declining. With `"wait"`, the
        request goes to `on_link`. Either way the accounts are then waited for, up to the
        policy's timeout.

        Raises:
            ToolNotConnectedError: declined, timed out, or the account ended FAILED/EXPIRED;
                nothing was run.
        """
        policy = self.policy
        request = ConnectionRequest.of(
            tool, links, user_id=self.user_id, session_id=self.session_id
        )
        if policy.mode == "interrupt":
            answer = yield Interrupt(request.as_payload())
            if not answer or (isinstance(answer, Mapping) and answer.get("connected") is False):
                raise _not_run(request, f"the user did not connect {' and '.join(links)}")
        else:
            yield Notify(policy.on_link or _log_request, request)
        deadline = time.monotonic() + policy.timeout
        for toolkit in links:
            try:
                yield from wait_until_connected(
                    self.session_id,
                    toolkit,
                    timeout=max(0.0, deadline - time.monotonic()),
                    poll_interval=policy.poll_interval,
                )
            except ConnectionTimeoutError as exc:
                why = f"{toolkit} was not connected within {policy.timeout:g}s"
                raise _not_run(request, f"{why} (status: {exc.status or 'none'})") from exc
            except ConnectionFailedError as exc:
                self.forget_link(toolkit)  # dead: the next call asks for a new one
                why = f"connecting {toolkit} ended with status {exc.status}"
                raise _not_run(request, why, dead=toolkit) from exc
            self.forget_link(toolkit)
        outcome: ToolOutcome = yield from retry
        return outcome

    def forget_link(self, toolkit: str) -> None:
        """Drop the cached connect link of a toolkit (it is connected now)."""
        self._links.pop(toolkit.lower(), None)

    def hint_refusal(self, slug: str, exc: APIError) -> None:
        """Add the fix to the service's refusal of a custom tool this session has no function
        for (the exception is the caller's, made for this call: its `suggested_fix` and text
        gain the hint)."""
        hint = self.registry.missing_hint(slug)
        refused = isinstance(exc, BadRequestError | NotFoundError | UnprocessableEntityError)
        if hint is None or not refused or exc.slug == SESSION_NOT_FOUND:
            return
        exc.suggested_fix = f"{exc.suggested_fix} {hint}" if exc.suggested_fix else hint
        exc.args = (exc._render(),)


class ToolCall:
    """Where the calls of one tool of a session go (see the module docstring).

    `execute` answers for a model: a failure it can act on raises a `ToolRouterToolError`;
    with `model=False` (for programs) the client's errors propagate instead.
    """

    __slots__ = ("_manage", "_meta", "_multi", "_s", "slug", "toolkit")

    def __init__(self, calls: SessionCalls, slug: str, toolkit: str | None) -> None:
        self._s = calls
        self.slug = slug
        self.toolkit = toolkit
        self._meta = is_meta(slug)
        self._multi = slug.upper() == MULTI_EXECUTE_SLUG
        self._manage = slug.upper() == MANAGE_CONNECTIONS_SLUG

    def __copy__(self) -> ToolCall:
        """Itself: a copied tool still calls the same live session (its clients, locks and
        connection state are shared, never copied)."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ToolCall:
        """Itself, as for :meth:`__copy__`."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        msg = (
            f"a session tool ({self.slug}) cannot be pickled: it calls a live session. "
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
        check_custom_arguments(self._s.registry, self.slug, payload, schema_checked)

    # ------------------------------------------------------------------ the path

    def execute(
        self, payload: dict[str, Any], account: str | None = None, *, model: bool = True
    ) -> ToolOutcome:
        """Run the call with the sync client.

        Raises:
            ToolRouterToolError: a failure the model can act on (with `model=True`).
            APIError, TransportError: the service refused or could not be reached (always
                with `model=False`; for a model, only what it cannot fix, such as a bad key).
        """
        s = self._s
        custom = s.registry.resolve_exact(self.slug)
        if custom is not None:
            return custom.run(payload, s.context(custom))
        split = self._split(payload)
        if split is not None:
            return run_sync(self._split_flow(split, model), s.rt)
        try:
            if self._meta:
                result = s.rt.client.execute_meta(
                    s.session_id, self.slug, payload, experimental=s.inline()
                )
            else:
                result = s.rt.client.execute(
                    s.session_id, self.slug, payload, account=account, experimental=s.inline()
                )
        except (APIError, TransportError) as exc:
            return run_sync(self._failed(exc, payload, account, model=model), s.rt)
        outcome = self._finish(result)
        if model and (self._multi or self._manage) and s.policy.mode != "message":
            return run_sync(self._connect_after(outcome, payload, account), s.rt)
        return outcome

    async def aexecute(
        self, payload: dict[str, Any], account: str | None = None, *, model: bool = True
    ) -> ToolOutcome:
        """Async twin of `execute`, with the async client."""
        s = self._s
        custom = s.registry.resolve_exact(self.slug)
        if custom is not None:
            return await custom.arun(payload, s.context(custom))
        split = self._split(payload)
        if split is not None:
            return await run_async(self._split_flow(split, model), s.rt)
        try:
            if self._meta:
                result = await s.rt.aclient.execute_meta(
                    s.session_id, self.slug, payload, experimental=s.inline()
                )
            else:
                result = await s.rt.aclient.execute(
                    s.session_id, self.slug, payload, account=account, experimental=s.inline()
                )
        except (APIError, TransportError) as exc:
            return await run_async(self._failed(exc, payload, account, model=model), s.rt)
        outcome = self._finish(result)
        if model and (self._multi or self._manage) and s.policy.mode != "message":
            return await run_async(self._connect_after(outcome, payload, account), s.rt)
        return outcome

    def _finish(self, result: m.ExecuteResult, *, hint: bool = True) -> ToolOutcome:
        """The outcome of the service's answer; a multi-execute's items naming a custom tool
        this session has no function for get the fix added (unless `hint` is false: the
        caller merges it first)."""
        outcome = ToolOutcome.from_wire(result.model_dump(mode="json", exclude_none=True))
        if self._multi and hint:
            return hint_unknown_local(outcome, self._s.registry.missing_hint)
        return outcome

    def _remote(
        self, payload: dict[str, Any], account: str | None = None, *, hint: bool = True
    ) -> Flow[ToolOutcome]:
        """The service call of `execute`, as a flow (for the paths of several steps)."""
        s = self._s
        if self._meta:
            result = yield from call(
                ToolRouterClient.execute_meta,
                s.session_id,
                self.slug,
                payload,
                experimental=s.inline(),
            )
        else:
            result = yield from call(
                ToolRouterClient.execute,
                s.session_id,
                self.slug,
                payload,
                account=account,
                experimental=s.inline(),
            )
        return self._finish(result, hint=hint)

    # ------------------------------------------------------------------ failures

    def _failed(
        self,
        exc: APIError | TransportError,
        payload: dict[str, Any],
        account: str | None,
        *,
        model: bool,
        pause: bool = True,
    ) -> Flow[ToolOutcome]:
        """Answer a failed service call: the client's error for a program; for a model, the
        error it can act on, or the client's error when it cannot act on it (a bad key, a
        deleted session). "No active connection" gets a connect link and, unless the policy
        is `"message"` (or `pause` is false: this is the call made after connecting), the user
        is asked to connect and the call is made once more."""
        if isinstance(exc, APIError):
            self._s.hint_refusal(self.slug, exc)
        if not model:
            raise exc
        if isinstance(exc, APIError) and is_no_connection(exc):
            toolkit = self.toolkit or _toolkit_named(exc.message)
            link, why = yield from self._s.link(toolkit)
            if pause and link is not None and toolkit and self._s.policy.mode != "message":
                retry = self._retry(payload, account)
                return (
                    yield from self._s.connect_then(self.slug, {toolkit: link.redirect_url}, retry)
                )
            raise not_connected_error(self.slug, toolkit, exc, link, why) from exc
        answer = _translate(exc, tool=self.slug)
        if answer is None:
            raise exc
        raise answer from exc

    def _retry(self, payload: dict[str, Any], account: str | None) -> Flow[ToolOutcome]:
        """The call once more, after the user connected (a failure is answered, not paused)."""
        try:
            outcome: ToolOutcome = yield from self._remote(payload, account)
        except (APIError, TransportError) as exc:
            return (yield from self._failed(exc, payload, account, model=True, pause=False))
        return outcome

    def _connect_after(
        self, outcome: ToolOutcome, payload: dict[str, Any], account: str | None
    ) -> Flow[ToolOutcome]:
        """Connections a call answered about in-band: `COMPOSIO_MANAGE_CONNECTIONS` that made
        links, or multi-execute items that need a connection. When nothing ran, the user is
        asked to connect and the call is made once more; when some items ran, nothing is run
        twice: the answer gets the links."""
        if self._manage:
            made = _initiated_links(outcome)
            if not made:
                return outcome
            return (yield from self._s.connect_then(self.slug, made, self._retry(payload, account)))
        needing, ran = _items_needing_connection(outcome)
        if not needing:
            return outcome
        links = yield from self._s.links(needing)
        if not ran and set(links) == set(needing):
            return (
                yield from self._s.connect_then(self.slug, links, self._retry(payload, account))
            )
        return _with_links(outcome, links)

    # ------------------------------------------------------------------ split multi-execute

    def _split(self, payload: Mapping[str, Any]) -> MultiExecutePlan | None:
        """How a multi-execute naming custom tools is split; `None` to send it as is."""
        if not self._multi or not self._s.registry:
            return None
        return plan(payload, self._s.registry.resolve)

    def _split_flow(self, split: MultiExecutePlan, model: bool) -> Flow[ToolOutcome]:
        """The local items and the service's share, at once; the answers merged in order."""
        context = self._s.context
        flows: list[Flow[Any]] = [
            _run_local(item.tool, item.arguments, context(item.tool)) for item in split.local
        ]
        if split.remote_arguments is not None:
            flows.append(self._split_remote(split.remote_arguments))
        results = yield Gather(flows)
        remote: ToolOutcome | None = None
        remote_error: str | None = None
        if split.remote_arguments is not None:
            remote, remote_error = results.pop()
        by_index = {item.index: o for item, o in zip(split.local, results, strict=True)}
        outcome = hint_unknown_local(
            merge(split, by_index, remote, remote_error), self._s.registry.missing_hint
        )
        needing, _ = _items_needing_connection(outcome)
        if model and needing and self._s.policy.mode != "message":
            # the local items ran: nothing is run twice, the answer gets the links
            return _with_links(outcome, (yield from self._s.links(needing)))
        return outcome

    def _split_remote(
        self, arguments: dict[str, Any]
    ) -> Flow[tuple[ToolOutcome | None, str | None]]:
        """The service's share of a split call; when it fails as a whole, the per-item error
        text (errors that are the caller's problem, such as a bad key, propagate)."""
        try:
            return (yield from self._remote(arguments, hint=False)), None
        except (APIError, TransportError) as exc:
            answer = _translate(exc, tool="This tool")
            if answer is None:
                raise
            return None, str(answer)


def check_custom_arguments(
    registry: CustomRegistry, slug: str, payload: dict[str, Any], schema_checked: bool
) -> None:
    """`ToolCall.check_arguments` for a registry's custom tool `slug` (nothing for others).

    Raises:
        ToolArgumentsError: the custom tool's own checks refuse the arguments.
    """
    custom = registry.resolve_exact(slug)
    if custom is None:
        return
    try:
        custom.validate_arguments(payload, schema_checked=schema_checked)
    except ArgsValidationError as exc:
        raise ToolArgumentsError(tool=slug, errors=exc.errors, detail=str(exc)) from exc


def _run_local(
    tool: CustomTool, arguments: dict[str, Any], context: CustomToolContext
) -> Flow[ToolOutcome]:
    """A custom tool's item of a multi-execute. It may not pause the graph: on resume LangGraph
    runs the whole call again, and the other items would run twice."""
    try:
        outcome: ToolOutcome = yield RunCustom(tool, arguments, context)
    except Exception as exc:
        if not is_graph_signal(exc):
            raise
        return ToolOutcome(
            successful=False,
            data={},
            error=(
                f"{tool.slug} asked to pause the run (a LangGraph interrupt), which a "
                f"multi-execute cannot do without running its other tools twice; call "
                f"{tool.slug} on its own"
            ),
        )
    return outcome


def not_connected_error(
    slug: str, toolkit: str | None, exc: APIError, link: ConnectionLink | None, why: str | None
) -> ToolNotConnectedError:
    """The "connect first" error: the link when there is one, else the service's fix."""
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


def _not_run(
    request: ConnectionRequest, why: str, *, dead: str | None = None
) -> ToolNotConnectedError:
    """The answer when the user did not connect: nothing ran; the links stay usable, but for
    the `dead` toolkit's (a new one comes with the next call)."""
    first = request.toolkits[0]
    links = "; ".join(
        f"{toolkit}: {'a new link comes with the next call' if toolkit == dead else url}"
        for toolkit, url in request.redirect_urls.items()
    )
    return ToolNotConnectedError(
        f"{request.tool} was not run: {why}. Ask the user to connect ({links}), then call "
        f"{request.tool} again.",
        tool=request.tool,
        toolkit=first,
        redirect_url=None if first == dead else request.redirect_urls.get(first),
        connected_account_id=None,
    )


def _log_request(request: ConnectionRequest) -> None:
    """The default `on_link`: one WARNING line with the links."""
    _log.warning("%s (user %s)", request.message, request.user_id)


def _toolkit_named(text: str) -> str | None:
    """The toolkit a "no active connection" text names, if it names one."""
    found = _NO_CONNECTION.search(text or "")
    return found.group(1).lower() if found else None


def _items_needing_connection(outcome: ToolOutcome) -> tuple[list[str], bool]:
    """The toolkits a multi-execute's failed items need a connection for, and whether any
    item ran (succeeded, or failed for another reason)."""
    data = outcome.data
    results = data.get("results") if isinstance(data, Mapping) else None
    needing: list[str] = []
    ran = False
    for item in results if isinstance(results, list) else []:
        response = item.get("response") if isinstance(item, Mapping) else None
        if isinstance(response, Mapping) and response.get("successful") is True:
            ran = True
            continue
        error = item.get("error") if isinstance(item, Mapping) else None
        if error is None and isinstance(response, Mapping):
            error = response.get("error")
        toolkit = _toolkit_named(str(error or ""))
        if toolkit is None:
            ran = True
        elif toolkit not in needing:
            needing.append(toolkit)
    return needing, ran


def _initiated_links(outcome: ToolOutcome) -> dict[str, str]:
    """Toolkit -> redirect URL for each connection `COMPOSIO_MANAGE_CONNECTIONS` started."""
    data = outcome.data
    results = data.get("results") if isinstance(data, Mapping) else None
    links: dict[str, str] = {}
    for toolkit, state in (results or {}).items() if isinstance(results, Mapping) else ():
        if (
            isinstance(state, Mapping)
            and state.get("has_active_connection") is False
            and isinstance(state.get("redirect_url"), str)
        ):
            links[str(state.get("toolkit") or toolkit)] = state["redirect_url"]
    return links


def _with_links(outcome: ToolOutcome, links: Mapping[str, str]) -> ToolOutcome:
    """A multi-execute answer whose items that need a connection say where to make it."""
    data = outcome.data
    if not links or not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        return outcome
    items: list[Any] = []
    for item in data["results"]:
        error = item.get("error") if isinstance(item, Mapping) else None
        toolkit = _toolkit_named(str(error or ""))
        if toolkit is not None and toolkit in links:
            fix = f" Ask the user to open {links[toolkit]} to connect {toolkit}, then retry."
            items.append({**item, "error": f"{error}{fix}"})
        else:
            items.append(item)
    return ToolOutcome(
        successful=outcome.successful,
        data={**data, "results": items, "connect_links": dict(links)},
        error=outcome.error,
        log_id=outcome.log_id,
        extra=outcome.extra,
    )
