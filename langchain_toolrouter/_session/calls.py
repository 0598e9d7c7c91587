"""The one path of a tool call in a session.

`ToolCall.execute` (and `aexecute`) is where every call of a session goes, whoever makes it (a
session's LangChain tool, `session.execute`, a custom tool calling a sibling):

* a custom tool (by its `LOCAL_...` slug) runs here;
* `COMPOSIO_MULTI_EXECUTE_TOOL` naming custom tools is split: local items run here at once, the
  others go to the service in ONE call that keeps every other field, and the answers are merged
  in order (`custom_tools._multi_execute`);
* anything else goes to the service: `execute`, or `execute_meta` for a `COMPOSIO_*` slug, with
  the custom definitions inline when the API version needs them (v3.1).

The plain service call is made directly in `execute`/`aexecute`: that path is the hot one
(`ToolRouterTool._run` -> `ToolCall.execute` -> `ToolRouterClient.execute`). A failed call is
answered by `_failed`: for a model, as the `ToolRouterToolError` it can act on (a missing
account goes to the session's `Connections`, which may pause and make the call once more); for
a program (`session.execute`, `model=False`), as the client's own error. Every path of more than
one request is a flow (`faces`), written once for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_toolrouter._answers import SESSION_NOT_FOUND, ToolRouterToolError, translate_error
from langchain_toolrouter._exceptions import (
    APIError,
    BadRequestError,
    NotFoundError,
    TransportError,
    UnprocessableEntityError,
)
from langchain_toolrouter._langgraph import is_graph_signal
from langchain_toolrouter._session import inputs
from langchain_toolrouter._session.connections import (
    Connections,
    check_can_pause,
    is_no_connection,
)
from langchain_toolrouter._session.faces import AsyncFace, Face, Flow, SyncFace, run_sync
from langchain_toolrouter._session.runs import (
    RUNNING,
    RunCall,
    current_call,
    replayed,
    took_effect,
)
from langchain_toolrouter._session.runtime import Runtime
from langchain_toolrouter.client import ToolRouterClient
from langchain_toolrouter.custom_tools import CustomTool, CustomToolContext
from langchain_toolrouter.custom_tools._multi_execute import (
    MULTI_EXECUTE_SLUG,
    MultiExecutePlan,
    hint_unknown_local,
    merge,
    plan,
)
from langchain_toolrouter.custom_tools._registry import CustomRegistry
from langchain_toolrouter.types import ToolOutcome
from langchain_toolrouter.wire import models as m

__all__ = ["SessionCalls", "ToolCall", "is_meta"]

_MANAGE_CONNECTIONS_SLUG = "COMPOSIO_MANAGE_CONNECTIONS"
INPUT_REQUIRED = "input_required"


def is_meta(slug: str) -> bool:
    """True for the service's `COMPOSIO_*` meta tools."""
    return slug.upper().startswith("COMPOSIO_")


class SessionCalls:
    """What the calls of one session share: its ids, custom tools, clients and connections.

    One per session; `tool(slug)` gives the `ToolCall` of one of its tools.
    """

    def __init__(
        self,
        rt: Runtime,
        session_id: str,
        user_id: str,
        registry: CustomRegistry,
        connections: Connections,
    ) -> None:
        self.rt = rt
        self.session_id = session_id
        self.user_id = user_id
        self.registry = registry
        self.connections = connections

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

    __slots__ = ("_in_band", "_meta", "_multi", "_s", "slug", "toolkit")

    def __init__(self, calls: SessionCalls, slug: str, toolkit: str | None) -> None:
        self._s = calls
        self.slug = slug
        self.toolkit = toolkit
        self._meta = is_meta(slug)
        self._multi = slug.upper() == MULTI_EXECUTE_SLUG
        # Answers that may say in-band that an account is needed.
        self._in_band = self._multi or slug.upper() == _MANAGE_CONNECTIONS_SLUG

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
        """Refuse a custom tool call whose arguments its own checks refuse (see
        `CustomRegistry.check_arguments`); the tool calls this beside its schema check."""
        self._s.registry.check_arguments(self.slug, payload, schema_checked=schema_checked)

    # ------------------------------------------------------------------ the path

    def execute(
        self,
        payload: dict[str, Any],
        account: str | None = None,
        *,
        model: bool = True,
        run: RunCall | None = None,
    ) -> ToolOutcome:
        """Run the call with the sync client.

        For a model, inside a LangGraph run with a thread, the call keeps a record of its
        answer (`run`, found when not given): it runs once, however often LangGraph runs its task
        again, and a call that paused reads the user's answer before sending anything.

        Raises:
            ToolRouterToolError: a failure the model can act on (with `model=True`).
            APIError, TransportError: the service refused or could not be reached (always
                with `model=False`; for a model, only what it cannot fix, such as a bad key).
            ConfigurationError: `on_connection_required="interrupt"` outside a LangGraph run
                with a checkpointer (before anything is sent).
        """
        s = self._s
        custom = s.registry.resolve_exact(self.slug)
        if run is None and model:
            run = self._run_of(custom)
            if run is not None:
                return self._once(run, payload, account)
        if custom is not None:
            return custom.run(payload, s.context(custom))
        split = self._split(payload)
        if split is not None:
            return run_sync(self._split_flow(SyncFace(s.rt), split, model))
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
            failed = self._failed(SyncFace(s.rt), exc, payload, account, model=model, run=run)
            return run_sync(failed)
        outcome = self._finish(result)
        if model and (self._in_band or outcome.extra.get("result_type") == INPUT_REQUIRED):
            return run_sync(self._after(SyncFace(s.rt), outcome, payload, account, run))
        return outcome

    async def aexecute(
        self,
        payload: dict[str, Any],
        account: str | None = None,
        *,
        model: bool = True,
        run: RunCall | None = None,
    ) -> ToolOutcome:
        """Async twin of `execute`, with the async client."""
        s = self._s
        custom = s.registry.resolve_exact(self.slug)
        if run is None and model:
            run = self._run_of(custom)
            if run is not None:
                return await self._aonce(run, payload, account)
        if custom is not None:
            return await custom.arun(payload, s.context(custom))
        split = self._split(payload)
        if split is not None:
            return await self._split_flow(AsyncFace(s.rt), split, model)
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
            failed = self._failed(AsyncFace(s.rt), exc, payload, account, model=model, run=run)
            return await failed
        outcome = self._finish(result)
        if model and (self._in_band or outcome.extra.get("result_type") == INPUT_REQUIRED):
            return await self._after(AsyncFace(s.rt), outcome, payload, account, run)
        return outcome

    # ------------------------------------------------------------------ in a LangGraph run

    def _run_of(self, custom: CustomTool | None) -> RunCall | None:
        """The call's record in the LangGraph run it belongs to (`None`: not in a run with a
        thread). A call that may have to pause a run that could never be resumed is refused
        first."""
        run = current_call()
        if run is None and custom is None and self._s.connections.policy.mode == "interrupt":
            check_can_pause()
        return run

    def _once(self, run: RunCall, payload: dict[str, Any], account: str | None) -> ToolOutcome:
        """`execute` in a LangGraph run: answered from the call's record when it already ran,
        resumed when it paused, else run and recorded."""
        face = SyncFace(self._s.rt)
        record = run_sync(run.read(face))
        state = record.get("state") if record else None
        if record is not None and state == "ran":
            return replayed(record)
        try:
            if record is not None and state == "paused":
                outcome = run_sync(self._resumed(face, run, record, payload, account))
            else:
                outcome = self.execute(payload, account, run=run)
        except ToolRouterToolError as answer:
            if took_effect(answer):
                run_sync(run.ran(face, answer))
            raise
        run_sync(run.ran(face, outcome))
        return outcome

    async def _aonce(
        self, run: RunCall, payload: dict[str, Any], account: str | None
    ) -> ToolOutcome:
        """Async twin of `_once`."""
        face = AsyncFace(self._s.rt)
        started = RUNNING.start(run)
        try:
            record = await run.read(face)
            state = record.get("state") if record else None
            if record is not None and state == "ran":
                return replayed(record)
            try:
                if record is not None and state == "paused":
                    outcome = await self._resumed(face, run, record, payload, account)
                else:
                    outcome = await self.aexecute(payload, account, run=run)
            except ToolRouterToolError as answer:
                if took_effect(answer):
                    await run.ran(face, answer)
                raise
            await run.ran(face, outcome)
            return outcome
        finally:
            if started:
                RUNNING.finish(run)

    async def _resumed(
        self,
        face: Face,
        run: RunCall,
        record: dict[str, Any],
        payload: dict[str, Any],
        account: str | None,
    ) -> ToolOutcome:
        """A call of a paused run, resumed: the answer read first, then the call once."""
        if record.get("kind") == "input":
            return await inputs.resumed(
                face,
                run,
                record,
                user_id=self._s.user_id,
                answered=lambda answers, state: self._retry(
                    face, payload, account, run, answers=(answers, state)
                ),
            )
        retry = lambda: self._retry(face, payload, account, run)  # noqa: E731
        return await self._s.connections.resumed(face, run, record, retry)

    def _finish(self, result: m.ExecuteResult, *, hint: bool = True) -> ToolOutcome:
        """The outcome of the service's answer; a multi-execute's items naming a custom tool
        this session has no function for get the fix added (unless `hint` is false: the
        caller merges it first)."""
        outcome = ToolOutcome.from_wire(result.model_dump(mode="json", exclude_none=True))
        if self._multi and hint:
            return hint_unknown_local(outcome, self._s.registry.missing_hint)
        return outcome

    async def _remote(
        self,
        face: Face,
        payload: dict[str, Any],
        account: str | None = None,
        *,
        hint: bool = True,
        answers: tuple[dict[str, Any], Any] | None = None,
    ) -> ToolOutcome:
        """The service call of `execute`, in a flow (for the paths of several steps); with
        `answers`, the user's `input_responses` and the `request_state` they answer."""
        s = self._s
        responses, state = answers if answers is not None else (None, None)
        if self._meta:
            result = await face.call(
                ToolRouterClient.execute_meta,
                s.session_id,
                self.slug,
                payload,
                experimental=s.inline(),
                input_responses=responses,
                request_state=state,
            )
        else:
            result = await face.call(
                ToolRouterClient.execute,
                s.session_id,
                self.slug,
                payload,
                account=account,
                experimental=s.inline(),
                input_responses=responses,
                request_state=state,
            )
        return self._finish(result, hint=hint)

    # ------------------------------------------------------------------ failures

    async def _failed(
        self,
        face: Face,
        exc: APIError | TransportError,
        payload: dict[str, Any],
        account: str | None,
        *,
        model: bool,
        pause: bool = True,
        run: RunCall | None = None,
    ) -> ToolOutcome:
        """Answer a failed service call: the client's error for a program; for a model, the
        error it can act on, or the client's error when it cannot act on it (a bad key, a
        deleted session). "No active connection" goes to the session's connections, which
        (unless `pause` is false: this is the call made after connecting) may have the user
        connect and make the call once more."""
        if isinstance(exc, APIError):
            self._s.hint_refusal(self.slug, exc)
        if not model:
            raise exc
        if isinstance(exc, APIError) and is_no_connection(exc):
            retry = (lambda: self._retry(face, payload, account, run)) if pause else None
            connections = self._s.connections
            return await connections.refused(
                face, self.slug, self.toolkit, exc, retry=retry, run=run
            )
        answer = translate_error(exc, tool=self.slug)
        if answer is None:
            raise exc
        raise answer from exc

    async def _retry(
        self,
        face: Face,
        payload: dict[str, Any],
        account: str | None,
        run: RunCall | None,
        *,
        answers: tuple[dict[str, Any], Any] | None = None,
    ) -> ToolOutcome:
        """The call once more, after the user connected or answered (a failure is answered,
        not paused)."""
        try:
            return await self._remote(face, payload, account, answers=answers)
        except (APIError, TransportError) as exc:
            return await self._failed(face, exc, payload, account, model=True, pause=False, run=run)

    async def _after(
        self,
        face: Face,
        outcome: ToolOutcome,
        payload: dict[str, Any],
        account: str | None,
        run: RunCall | None,
    ) -> ToolOutcome:
        """An answer that may say in-band that accounts are needed (see
        `Connections.answered`), or that the user's input is (see `inputs.asked`)."""
        s = self._s
        if outcome.extra.get("result_type") == INPUT_REQUIRED:
            return await inputs.asked(
                face,
                outcome,
                tool=self.slug,
                user_id=s.user_id,
                session_id=s.session_id,
                pausing=s.connections.policy.mode == "interrupt",
                answered=lambda answers, state: self._retry(
                    face, payload, account, run, answers=(answers, state)
                ),
                run=run,
            )
        retry = lambda: self._retry(face, payload, account, run)  # noqa: E731
        return await s.connections.answered(face, self.slug, outcome, retry=retry, run=run)

    # ------------------------------------------------------------------ split multi-execute

    def _split(self, payload: Mapping[str, Any]) -> MultiExecutePlan | None:
        """How a multi-execute naming custom tools is split; `None` to send it as is."""
        if not self._multi or not self._s.registry:
            return None
        return plan(payload, self._s.registry.resolve)

    async def _split_flow(self, face: Face, split: MultiExecutePlan, model: bool) -> ToolOutcome:
        """The local items and the service's share, at once; the answers merged in order."""
        context = self._s.context
        flows: list[Flow[Any]] = [
            _run_local(face, item.tool, item.arguments, context(item.tool)) for item in split.local
        ]
        if split.remote_arguments is not None:
            flows.append(self._split_remote(face, split.remote_arguments))
        results = await face.gather(flows)
        remote: ToolOutcome | None = None
        remote_error: str | None = None
        if split.remote_arguments is not None:
            remote, remote_error = results.pop()
        by_index = {item.index: o for item, o in zip(split.local, results, strict=True)}
        outcome = hint_unknown_local(
            merge(split, by_index, remote, remote_error), self._s.registry.missing_hint
        )
        if model:  # the local items ran: nothing is run twice, the answer gets the links
            return await self._s.connections.answered(face, self.slug, outcome, retry=None)
        return outcome

    async def _split_remote(
        self, face: Face, arguments: dict[str, Any]
    ) -> tuple[ToolOutcome | None, str | None]:
        """The service's share of a split call; when it fails as a whole, the per-item error
        text (errors that are the caller's problem, such as a bad key, propagate)."""
        try:
            return await self._remote(face, arguments, hint=False), None
        except (APIError, TransportError) as exc:
            answer = translate_error(exc, tool="This tool")
            if answer is None:
                raise
            return None, str(answer)


async def _run_local(
    face: Face, tool: CustomTool, arguments: dict[str, Any], context: CustomToolContext
) -> ToolOutcome:
    """A custom tool's item of a multi-execute. It may not pause the graph: on resume LangGraph
    runs the whole call again, and the other items would run twice."""
    try:
        return await face.run(tool.run, tool.arun, arguments, context)
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
