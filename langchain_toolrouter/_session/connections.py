"""Connections, in one place: when a call needs an account, the link, the pause, the wait, the texts.

A call of an app tool whose toolkit has no active account is refused by the service ("no active
connection", `is_no_connection`), or answered in-band (a `COMPOSIO_MULTI_EXECUTE_TOOL` item, a
`COMPOSIO_MANAGE_CONNECTIONS` answer). `Connections` (one per session) then gets a connect link
(one per toolkit, reused until the account is connected) and, by the `ConnectionPolicy`:

* `"message"`: the model reads the link (`not_connected_error`);
* `"interrupt"`: the LangGraph run pauses with a `ConnectionRequest` and, on resume, the call
  waits for the account and is made once; a falsy resume is the user declining (`not_run`);
* `"wait"`: the request goes to `on_link`, then the same wait and call.

`wait_until_connected` polls the toolkit's state; `connect_links` reads the links out of a
tool's answer, for the program around the agent.
"""

from __future__ import annotations

import importlib.util
import inspect
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_toolrouter._answers import (
    NotConnectedReason,
    ToolNotConnectedError,
    ToolRouterToolError,
)
from langchain_toolrouter._arguments import check_number
from langchain_toolrouter._blocking import run_coroutine_sync
from langchain_toolrouter._exceptions import (
    APIError,
    ConfigurationError,
    ConnectionFailedError,
    ConnectionTimeoutError,
    TransportError,
)
from langchain_toolrouter._session.faces import Face, Flow, SingleFlight
from langchain_toolrouter._session.pauses import (
    ALREADY_PAUSED,
    NEEDS_LANGGRAPH,
    ROUNDS,
    check_can_pause,
    pause,
    pause_task,
)
from langchain_toolrouter._session.runs import RunCall
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.types import (
    ConnectionLink,
    ConnectionRequest,
    ToolkitInfo,
    ToolkitList,
    ToolOutcome,
    connect_key,
)

__all__ = [
    "ENDED",
    "NO_ACTIVE_CONNECTION",
    "ConnectionPolicy",
    "Connections",
    "OnConnectionRequired",
    "accepted",
    "check_can_pause",
    "connect_links",
    "connection_policy",
    "is_no_connection",
    "not_connected_error",
    "wait_until_connected",
]

_log = logging.getLogger("langchain_toolrouter")

OnConnectionRequired = Literal["message", "interrupt", "wait"]
"""What a tool does when its call needs an account the user has not connected."""

NO_ACTIVE_CONNECTION = "ToolRouterV2_NoActiveConnection"
"""The service's slug for "the toolkit has no active connected account"."""

ENDED = frozenset(("FAILED", "EXPIRED"))
"""Account statuses that waiting cannot turn into ACTIVE."""

MANAGE_CONNECTIONS_SLUG = "COMPOSIO_MANAGE_CONNECTIONS"
_NO_CONNECTION = re.compile(r"no active connection for toolkit '?([\w.-]+)'?", re.IGNORECASE)


# --------------------------------------------------------------------------- the policy


@dataclass(frozen=True)
class ConnectionPolicy:
    """How a session's tools handle "connect first" (see `ToolRouter`'s arguments).

    Attributes:
        mode: `"message"`: answer the model with the link; `"interrupt"`: pause the LangGraph
            run with the link and carry on when it is resumed; `"wait"`: hand the link to
            `on_link` and wait for the account.
        timeout: Seconds to wait for the account to be ACTIVE (`"interrupt"` after the
            resume, `"wait"` after `on_link`).
        on_link: Called with the `ConnectionRequest` in `"wait"` mode (default: a WARNING
            on the `langchain_toolrouter` logger); may be async for async calls.
        poll_interval: Seconds between two looks at the account's state.
    """

    mode: OnConnectionRequired = "message"
    timeout: float = 300.0
    on_link: Callable[[ConnectionRequest], Any] | None = None
    poll_interval: float = 1.0


def connection_policy(
    base: ConnectionPolicy,
    *,
    on_connection_required: object = None,
    connection_timeout: object = None,
    on_link: object = None,
) -> ConnectionPolicy:
    """`base` with the options given (`None`: keep `base`'s), each checked.

    Raises:
        ConfigurationError: an unknown mode, `"interrupt"` without langgraph installed, a
            timeout that is not a number >= 0, or an `on_link` that is not callable.
    """
    mode = base.mode if on_connection_required is None else on_connection_required
    if mode not in ("message", "interrupt", "wait"):
        raise ConfigurationError(
            f"on_connection_required must be 'message' (the model gets the connect link), "
            f"'interrupt' (a LangGraph run pauses until the user connects) or 'wait' (the "
            f"call waits for the account); got {mode!r}"
        )
    if mode == "interrupt" and importlib.util.find_spec("langgraph") is None:
        raise ConfigurationError(NEEDS_LANGGRAPH)
    timeout = base.timeout
    if connection_timeout is not None:
        try:
            timeout = check_number(
                "connection_timeout (seconds)", connection_timeout, minimum=0, infinite=True
            )
        except (TypeError, ValueError) as exc:
            raise ConfigurationError(str(exc)) from None
    if on_link is not None and not callable(on_link):
        raise ConfigurationError(
            f"on_link must be a callable taking a ConnectionRequest (or None to log the link "
            f"at WARNING); got {type(on_link).__name__}"
        )
    return ConnectionPolicy(
        mode=mode,
        timeout=timeout,
        on_link=on_link or base.on_link,
        poll_interval=base.poll_interval,
    )


# --------------------------------------------------------------------------- detecting


def is_no_connection(exc: APIError) -> bool:
    """True for the service's "no active connection" error."""
    return exc.slug == NO_ACTIVE_CONNECTION or exc.code == 4302


def toolkit_named(text: str) -> str | None:
    """The toolkit a "no active connection" text names, if it names one."""
    found = _NO_CONNECTION.search(text or "")
    return found.group(1).lower() if found else None


def items_needing_connection(outcome: ToolOutcome) -> tuple[list[str], bool]:
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
        toolkit = toolkit_named(str(error or ""))
        if toolkit is None:
            ran = True
        elif toolkit not in needing:
            needing.append(toolkit)
    return needing, ran


def initiated_links(outcome: ToolOutcome) -> dict[str, str]:
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


# --------------------------------------------------------------------------- one session's


Retry = Callable[[], Flow[ToolOutcome]]
"""Makes the call once more (after the user connected), as a flow."""


class Connections:
    """The connections of one session's calls: links, the pause and the wait.

    Args:
        session_id: The session.
        user_id: Its user (shown in the pause).
        policy: What a call does when it needs an account.
    """

    def __init__(self, session_id: str, user_id: str, policy: ConnectionPolicy) -> None:
        self.session_id = session_id
        self.user_id = user_id
        self.policy = policy
        self._links: dict[str, ConnectionLink] = {}
        self._link_runs = SingleFlight()

    async def refused(
        self,
        face: Face,
        tool: str,
        toolkit: str | None,
        exc: APIError,
        *,
        retry: Retry | None,
        run: RunCall | None = None,
    ) -> ToolOutcome:
        """Answer a call the service refused for want of an account: the link, then (unless
        the policy is `"message"`, or `retry` is `None`: this was the call made after
        connecting) the pause or the wait, and `retry` once.

        Raises:
            ToolNotConnectedError: the answer for the model (the link, or why there is none;
                or that the user did not connect).
        """
        toolkit = toolkit or toolkit_named(exc.message)
        link, why = await self.link(face, toolkit)
        if retry is not None and link is not None and toolkit and self.policy.mode != "message":
            return await self.connect_then(face, tool, {toolkit: link.redirect_url}, retry, run)
        raise not_connected_error(tool, toolkit, exc, link, why) from exc

    async def answered(
        self,
        face: Face,
        tool: str,
        outcome: ToolOutcome,
        *,
        retry: Retry | None,
        run: RunCall | None = None,
    ) -> ToolOutcome:
        """Connections a call answered about in-band: `COMPOSIO_MANAGE_CONNECTIONS` that made
        links, or multi-execute items that need a connection. Unless the policy is
        `"message"`, when nothing ran the user is asked to connect and the call is made once
        more; when some items ran (or `retry` is `None`: local items of a split call ran),
        nothing is run twice. Otherwise each item that needs an account says so as a direct
        call would, with its link."""
        pausing = retry is not None and self.policy.mode != "message"
        if tool.upper() == MANAGE_CONNECTIONS_SLUG:
            made = initiated_links(outcome)
            if made and retry is not None and pausing:
                return await self.connect_then(face, tool, made, retry, run)
            return outcome
        needing, ran = items_needing_connection(outcome)
        if not needing:
            return outcome
        links = await self.links(face, needing)
        if retry is not None and pausing and not ran and set(links) == set(needing):
            return await self.connect_then(face, tool, links, retry, run)
        return with_links(outcome, links)

    async def link(
        self, face: Face, toolkit: str | None
    ) -> tuple[ConnectionLink | None, str | None]:
        """A connect link for `toolkit` and, when none could be made, why: one per toolkit,
        reused until it is connected; concurrent calls (threads, tasks) share one request."""
        if toolkit is None:
            return None, None
        key = toolkit.lower()
        cached = self._links.get(key)
        if cached is not None:
            return cached, None
        run, lead = self._link_runs.lead_or_join(key, face.loop)
        if not lead:
            shared: tuple[ConnectionLink | None, str | None] = await face.wait(run)
            return shared
        made: tuple[ConnectionLink | None, str | None] = (None, "the call making it stopped")
        try:
            response = await face.call(ToolRouterClient.create_link, self.session_id, toolkit)
        except APIError as link_error:
            made = (None, link_error.message)
        except TransportError as link_error:  # the model still hears "connect first"
            made = (None, str(link_error))
        else:
            made = (
                self._links.setdefault(key, ConnectionLink.from_response(toolkit, response)),
                None,
            )
        finally:
            self._link_runs.end(key, run, made)
        return made

    async def links(self, face: Face, toolkits: list[str]) -> dict[str, str]:
        """Toolkit -> redirect URL, for each of `toolkits` a link could be made for."""
        made: dict[str, str] = {}
        for toolkit in toolkits:
            link, _ = await self.link(face, toolkit)
            if link is not None:
                made[toolkit] = link.redirect_url
        return made

    async def connect_then(
        self,
        face: Face,
        tool: str,
        links: Mapping[str, str],
        retry: Retry,
        run: RunCall | None = None,
    ) -> ToolOutcome:
        """Have the user connect `links`' toolkits, then run `retry` once.

        With `"interrupt"`, the LangGraph run pauses with the request (`run` is the call's
        record in the run; see `_session.runs`): the calls of one task that need accounts
        pause together, once, with every link; when the run is resumed, `resumed` reads the
        answer before anything is sent. With `"wait"`, the request goes to `on_link`. Either
        way the accounts are then waited for, up to the policy's timeout.

        Raises:
            ToolNotConnectedError: declined, timed out, or the account ended FAILED/EXPIRED;
                nothing was run.
            ConfigurationError: `"interrupt"` outside a LangGraph run with a checkpointer.
        """
        request = ConnectionRequest.of(
            tool, links, user_id=self.user_id, session_id=self.session_id
        )
        if self.policy.mode != "interrupt":
            callback = self.policy.on_link or _log_request
            await face.run(_notify, _anotify, callback, request)
            return await self._then(face, request, retry)
        if run is None:
            check_can_pause()
            return await self._answered(face, request, pause(request.as_payload()), retry)
        answer = await pause_task(face, run, request.as_payload())
        if answer is ALREADY_PAUSED:  # the model gets the link instead
            raise not_run(request, f"{' and '.join(links)} must be connected first")
        return await self._answered(face, request, answer, retry)

    async def resumed(
        self, face: Face, run: RunCall, record: Mapping[str, Any], retry: Retry
    ) -> ToolOutcome:
        """The call of a paused run, resumed: the answer is read before anything is sent for
        it. A decline, or a resume as another user than the pause was made for, runs nothing;
        a link the user was never shown (a call of an async task that joined the pause after
        it was raised) is answered to the model instead of waited for.

        Raises:
            ToolNotConnectedError: nothing was run, and why.
        """
        request = ConnectionRequest.from_payload(record["request"])
        answer = await ROUNDS.answer(face, str(record.get("round")), request.as_payload())
        if request.user_id != self.user_id:
            raise not_run(
                request,
                f"the run was resumed as user {self.user_id!r}, and the pause was for "
                f"{request.user_id!r}",
                reason="other_user",
            )
        if record.get("late"):
            raise not_run(request, f"{' and '.join(request.toolkits)} must be connected first")
        return await self._answered(face, request, answer, retry)

    async def _answered(
        self, face: Face, request: ConnectionRequest, answer: Any, retry: Retry
    ) -> ToolOutcome:
        """The user's answer to a pause: a decline runs nothing; a yes waits for the accounts
        and runs the call once."""
        if not accepted(answer, request.toolkits):
            why = f"the user did not connect {' and '.join(request.toolkits)}"
            raise not_run(request, why, reason="declined")
        return await self._then(face, request, retry)

    async def _then(self, face: Face, request: ConnectionRequest, retry: Retry) -> ToolOutcome:
        """Wait (bounded) for the request's accounts, then run `retry` once."""
        policy = self.policy
        deadline = time.monotonic() + policy.timeout
        for toolkit in request.toolkits:
            try:
                await wait_until_connected(
                    face,
                    self.session_id,
                    toolkit,
                    timeout=max(0.0, deadline - time.monotonic()),
                    poll_interval=policy.poll_interval,
                )
            except ConnectionTimeoutError as exc:
                why = f"{toolkit} was not connected within {policy.timeout:g}s"
                why = f"{why} (status: {exc.status or 'none'})"
                raise not_run(request, why, reason="timed_out") from exc
            except ConnectionFailedError as exc:
                self.forget_link(toolkit)  # dead: the next call asks for a new one
                why = f"connecting {toolkit} ended with status {exc.status}"
                raise not_run(request, why, reason="failed", dead=toolkit) from exc
            self.forget_link(toolkit)
        return await retry()

    def forget_link(self, toolkit: str) -> None:
        """Drop the cached connect link of a toolkit (it is connected now, or dead)."""
        self._links.pop(toolkit.lower(), None)


async def wait_until_connected(
    face: Face, session_id: str, toolkit: str, *, timeout: float, poll_interval: float
) -> ToolkitInfo:
    """Poll `toolkit`'s state until it is connected (or needs no auth).

    Raises:
        ValueError: the session has no such toolkit.
        ConnectionFailedError: the account ended `FAILED` or `EXPIRED` (no use waiting).
        ConnectionTimeoutError: not connected after `timeout` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        items = await face.pages(ToolRouterClient.iter_toolkits, session_id, toolkits=[toolkit])
        info = ToolkitList.from_items(items).get(toolkit)
        if info is None:
            msg = f"toolkit {toolkit!r} is not part of session {session_id}"
            raise ValueError(msg)
        status = (info.status or "").upper()
        if info.connected is False and status in ENDED:
            raise ConnectionFailedError(toolkit, status)
        if info.connected is not False:
            return info
        if time.monotonic() >= deadline:
            raise ConnectionTimeoutError(toolkit, timeout, info.status)
        await face.sleep(min(poll_interval, max(0.0, deadline - time.monotonic())))


def accepted(answer: Any, toolkits: Sequence[str]) -> bool:
    """Whether a resume value says yes to connecting `toolkits`: `True` (any truthy value),
    `{"connected": True}`, or elicitation answers (`{"responses": {"connect:<toolkit>":
    {"action": "accept"}}}`, one per toolkit). A falsy value, `{"connected": False}`, or a
    toolkit whose answer is `decline`, `cancel` or missing is a no."""
    if not answer:
        return False
    if not isinstance(answer, Mapping):
        return True
    if answer.get("connected") is False:
        return False
    responses = answer.get("responses")
    if responses is None:
        return True
    if not isinstance(responses, Mapping):
        return False
    for toolkit in toolkits:
        response = responses.get(connect_key(toolkit))
        if not isinstance(response, Mapping) or response.get("action") != "accept":
            return False
    return True


def _notify(callback: Callable[[ConnectionRequest], Any], request: ConnectionRequest) -> None:
    """`on_link(request)`, run to its end when it is async (a sync call waits for it)."""
    result = callback(request)
    if inspect.isawaitable(result):
        run_coroutine_sync(lambda: _awaited(result))


async def _anotify(
    callback: Callable[[ConnectionRequest], Any], request: ConnectionRequest
) -> None:
    """Async twin of `_notify`."""
    result = callback(request)
    if inspect.isawaitable(result):
        await result


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


def _log_request(request: ConnectionRequest) -> None:
    """The default `on_link`: one WARNING line with the links."""
    _log.warning("%s (user %s)", request.message, request.user_id)


# --------------------------------------------------------------------------- the texts


def not_connected_error(
    slug: str, toolkit: str | None, exc: APIError, link: ConnectionLink | None, why: str | None
) -> ToolNotConnectedError:
    """The "connect first" error: the link when there is one, else the service's fix."""
    name = toolkit or "the toolkit"
    if link is not None:
        text = connect_sentence(slug, name, link.redirect_url)
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


def connect_sentence(tool: str, toolkit: str, url: str) -> str:
    """What the model reads when a call needs an account the user has not connected: the
    same words for a direct call and for an item of a multi-execute."""
    return (
        f"{tool} needs a connected {toolkit} account and the user has none. Ask the user to "
        f"open this link to connect {toolkit}, then call {tool} again: {url}"
    )


def not_run(
    request: ConnectionRequest,
    why: str,
    *,
    reason: NotConnectedReason = "needs_connection",
    dead: str | None = None,
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
        reason=reason,
    )


def with_links(outcome: ToolOutcome, links: Mapping[str, str]) -> ToolOutcome:
    """A multi-execute answer whose items that need a connection say where to make it."""
    data = outcome.data
    if not links or not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        return outcome
    items: list[Any] = []
    for item in data["results"]:
        error = item.get("error") if isinstance(item, Mapping) else None
        response = item.get("response") if isinstance(item, Mapping) else None
        if error is None and isinstance(response, Mapping):
            error = response.get("error")
        toolkit = toolkit_named(str(error or ""))
        if toolkit is not None and toolkit in links:
            slug = str(item.get("tool_slug") or "the tool")
            said = connect_sentence(slug, toolkit, links[toolkit])
            changed = {**item, "error": said}
            if isinstance(response, Mapping):
                changed["response"] = {**response, "error": said}
            items.append(changed)
        else:
            items.append(item)
    return ToolOutcome(
        successful=outcome.successful,
        data={**data, "results": items, "connect_links": dict(links)},
        error=outcome.error,
        log_id=outcome.log_id,
        extra=outcome.extra,
    )


# --------------------------------------------------------------------------- for programs


def connect_links(answer: object) -> dict[str, str]:
    """The accounts a tool's answer asks the user to connect: toolkit -> the link to open.

    `answer` is what a session's tool gave back: a `ToolMessage` (its artifact is read), the
    artifact itself, a `ToolNotConnectedError`, a `ConnectionRequest` or its interrupt
    payload, or a list of any of these (e.g. an agent's messages). Empty when it asks for
    nothing.

        for toolkit, url in connect_links(message).items():
            print(f"Connect {toolkit}: {url}")
    """
    found: dict[str, str] = {}
    _collect(answer, found, depth=0)
    return found


def _collect(value: object, found: dict[str, str], depth: int) -> None:
    if depth > 8:  # an artifact is a few levels deep; anything deeper is data, not links
        return
    if isinstance(value, ToolRouterToolError):
        value = value.artifact()
    elif isinstance(value, ConnectionRequest):
        value = value.as_payload()
    elif hasattr(value, "artifact") and hasattr(value, "tool_call_id"):  # a ToolMessage
        value = value.artifact
    if isinstance(value, Mapping):
        urls = value.get("redirect_urls")
        if isinstance(urls, Mapping):
            found.update({str(k): v for k, v in urls.items() if isinstance(v, str)})
        links = value.get("connect_links")
        if isinstance(links, Mapping):
            found.update({str(k): v for k, v in links.items() if isinstance(v, str)})
        url, toolkit = value.get("redirect_url"), value.get("toolkit")
        active = value.get("has_active_connection") is True
        if isinstance(url, str) and url and isinstance(toolkit, str) and not active:
            found.setdefault(toolkit, url)
        for nested in value.values():
            if isinstance(nested, Mapping | list | tuple):
                _collect(nested, found, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            _collect(item, found, depth + 1)
