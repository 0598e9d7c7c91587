"""Running one tool for a session: access checks, connected account choice, in-band results.

HTTP errors are for refused requests (unknown or disallowed tool, no active connection, a custom
tool the server must not run); a tool that ran and failed is HTTP 200 with `error` set and
`result_type: "failed"`, as in the service.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_toolrouter.emulator.approvals import approval, needs_approval
from langchain_toolrouter.emulator.context import EmulatorState
from langchain_toolrouter.emulator.customs import CustomTool, resolve_customs
from langchain_toolrouter.emulator.definitions import CatalogTool, ToolContext, ToolFailure, Toolkit
from langchain_toolrouter.emulator.errors import EmulatorError, session_not_found
from langchain_toolrouter.emulator.policy import tool_allowed, toolkit_allowed
from langchain_toolrouter.emulator.store import ConnectedAccount, SessionRecord, UserState, utc_now
from langchain_toolrouter.wire.models import ExecuteResult, InlineCustomTools, SessionConfig

__all__ = [
    "Outcome",
    "SessionScope",
    "connection_required",
    "require_account",
    "run_app_tool",
    "session_accounts",
    "usable_accounts",
]


@dataclass
class SessionScope:
    """One request's view of a session: state, record, user and the custom tools in force."""

    state: EmulatorState
    record: SessionRecord
    user: UserState
    customs: list[CustomTool]
    base_url: str

    @classmethod
    def build(
        cls,
        state: EmulatorState,
        record: SessionRecord,
        inline: InlineCustomTools | None,
        base_url: str,
    ) -> SessionScope:
        """Customs in force: inline ones (v3.1 and v3), plus the stored ones under v3."""
        tools = list(inline.custom_tools or []) if inline else []
        toolkits = list(inline.custom_toolkits or []) if inline else []
        if record.api_version == "v3":
            inline_tool_slugs = {t.slug.upper() for t in tools}
            inline_kit_slugs = {k.slug.upper() for k in toolkits}
            tools += [t for t in record.custom_tools if t.slug.upper() not in inline_tool_slugs]
            toolkits += [
                k for k in record.custom_toolkits if k.slug.upper() not in inline_kit_slugs
            ]
        customs, _, _ = resolve_customs(state.catalog, tools, toolkits)
        user = state.store.user(record.project, record.user_id)
        return cls(state, record, user, customs, base_url)

    def custom(self, slug: str) -> CustomTool | None:
        """The custom tool with this final (or unique original) slug, any case."""
        wanted = slug.upper()
        for tool in self.customs:
            if tool.slug == wanted:
                return tool
        matches = [t for t in self.customs if t.original_slug.upper() == wanted]
        return matches[0] if len(matches) == 1 else None


@dataclass(frozen=True)
class Outcome:
    """Result of one tool run, before it is shaped as an execute response.

    `asked` holds the fields of an `input_required` answer (the tool did not run: it waits for
    the user's input)."""

    data: dict[str, Any]
    error: str | None = None
    asked: dict[str, Any] | None = None

    @property
    def successful(self) -> bool:
        """True when the tool completed."""
        return self.error is None and self.asked is None

    def to_result(self, log_id: str) -> ExecuteResult:
        """The execute response."""
        if self.asked is not None:
            return ExecuteResult(
                data=self.data,
                error=None,
                log_id=log_id,
                result_type="input_required",
                **self.asked,
            )
        return ExecuteResult(
            data=self.data,
            error=self.error,
            log_id=log_id,
            result_type="completed" if self.error is None else "failed",
        )


def connect_url(scope_base_url: str, link_token: str, overwrite: str | None = None) -> str:
    """The browser link of a connection: on the emulator, or on `link_url_overwrite`'s origin
    (the service lets a session swap the host of its connect links)."""
    base = (overwrite or scope_base_url).rstrip("/")
    return f"{base}/_emulator/connect/{link_token}"


def connection_required(toolkit: Toolkit, scope: SessionScope) -> EmulatorError:
    """The service's "no active connection" error, naming the ways to connect."""
    path = f"/tool_router/session/{scope.record.id}/link"
    return EmulatorError(
        400,
        "ToolRouterV2_NoActiveConnection",
        4302,
        f"No active connection for toolkit '{toolkit.slug}' for user '{scope.user.user_id}'.",
        suggested_fix=(
            f'Connect the account first: POST {path} with {{"toolkit": "{toolkit.slug}"}} '
            "(or run COMPOSIO_MANAGE_CONNECTIONS) and open the returned redirect_url, then retry."
        ),
    )


def session_accounts(
    config: SessionConfig, user: UserState, toolkit: str
) -> list[ConnectedAccount]:
    """The user's `toolkit` accounts (any status) a session may use, oldest first.

    The pinned ones when `config.connected_accounts` pins any for the toolkit; otherwise the
    PRIVATE ones: a SHARED account is used only when pinned.
    """
    pinned = (config.connected_accounts or {}).get(toolkit)
    accounts = [a for a in user.accounts if a.toolkit == toolkit]
    if pinned:
        return [a for a in accounts if a.id in pinned]
    return [a for a in accounts if a.account_type != "SHARED"]


def usable_accounts(config: SessionConfig, user: UserState, toolkit: str) -> list[ConnectedAccount]:
    """The ACTIVE accounts among `session_accounts`: what a call of the toolkit may run as."""
    return [a for a in session_accounts(config, user, toolkit) if a.status == "ACTIVE"]


def require_account(
    toolkit: Toolkit, scope: SessionScope, account: str | None = None
) -> ConnectedAccount | None:
    """The ACTIVE account a call of `toolkit` runs as (None for no-auth toolkits).

    Honours `config.connected_accounts` pins, the SHARED-only-when-pinned rule and the
    request's `account` (id or alias).
    """
    if toolkit.no_auth:
        return None
    candidates = usable_accounts(scope.record.config, scope.user, toolkit.slug)
    if account:
        named = [a for a in candidates if account in (a.id, a.alias)]
        if not named:
            known = ", ".join(f"{a.id} ({a.alias})" if a.alias else a.id for a in candidates)
            raise EmulatorError(
                400,
                "ToolRouterV2_InvalidConnectedAccountIds",
                4310,
                f"Account {account!r} is not an active {toolkit.slug} account of this session.",
                suggested_fix=f"Use one of: {known or 'none (connect one first)'}.",
            )
        return named[0]
    if not candidates:
        raise connection_required(toolkit, scope)
    multi = scope.record.config.multi_account
    if len(candidates) > 1 and multi is not None and multi.require_explicit_selection:
        ids = ", ".join(a.id for a in candidates)
        raise EmulatorError(
            400,
            "ToolRouterV2_AccountSelectionRequired",
            4311,
            f"Several {toolkit.slug} accounts are connected and none was named.",
            suggested_fix=f"Pass 'account' with one of: {ids}.",
        )
    return candidates[0]


def check_app_tool(scope: SessionScope, slug: str) -> CatalogTool:
    """The catalog tool for `slug` if it exists and the session allows it."""
    tool = scope.state.catalog.tool(slug)
    if tool is None:
        raise EmulatorError(
            404,
            "ToolRouterV2_ToolNotFound",
            4305,
            f"Tool {slug!r} does not exist.",
            suggested_fix="Find tool slugs with COMPOSIO_SEARCH_TOOLS (or POST .../search); "
            "custom LOCAL_ tools must be sent inline in experimental.custom_tools.",
        )
    if not tool_allowed(scope.record.config, tool):
        reason = (
            f"toolkit '{tool.toolkit}' is not enabled"
            if not toolkit_allowed(scope.record.config, tool.toolkit)
            else "the session's tools/tags filters exclude it"
        )
        raise EmulatorError(
            400,
            "ToolRouterV2_ToolNotAllowed",
            4306,
            f"Tool {tool.slug} is not available in this session: {reason}.",
            suggested_fix="Update the session config (PATCH the session's toolkits, tools or "
            "tags) or create a session that allows this tool.",
        )
    return tool


def custom_tool_refused(tool: CustomTool) -> EmulatorError:
    """Custom tools run in the client process; the server only knows their definition."""
    return EmulatorError(
        400,
        "ToolRouterV2_CustomToolNotExecutable",
        4312,
        f"{tool.slug} is a custom tool; the server does not run custom tool code.",
        suggested_fix="Run custom tools in your own process (the client routes LOCAL_ slugs to "
        "the local function) and send only app and meta tools to execute.",
    )


def run_app_tool(
    scope: SessionScope,
    slug: str,
    arguments: dict[str, Any],
    account: str | None = None,
    *,
    input_responses: dict[str, Any] | None = None,
    request_state: Any = None,
    may_ask: bool = True,
) -> Outcome:
    """Run a catalog tool as the session's user (once approved, when the session asks for
    its approval: `input_responses` and `request_state` answer that; `may_ask=False` where no
    answer can come back, as an item of a multi-execute).

    Raises:
        EmulatorError: unknown/disallowed tool, custom tool, or no active connection.
    """
    custom = scope.custom(slug) if slug.upper().startswith("LOCAL_") else None
    if custom is not None:
        raise custom_tool_refused(custom)
    tool = check_app_tool(scope, slug)
    toolkit = scope.state.catalog.toolkits[tool.toolkit]
    require_account(toolkit, scope, account)
    store = scope.state.store
    if needs_approval(scope.record.config, tool):
        if not may_ask:
            return Outcome(
                data={}, error=f"{tool.slug} needs the user's approval: call it on its own."
            )
        decided = approval(
            store,
            scope.record,
            tool,
            arguments,
            input_responses=input_responses,
            request_state=request_state,
        )
        if isinstance(decided, str):
            return Outcome(data={}, error=decided)
        if decided is not None:
            return Outcome(data={}, asked=decided)
    with store.lock:  # a session deleted since the request looked it up runs nothing
        if not store.live(scope.record):
            raise session_not_found(scope.record.id)
        ctx = ToolContext(
            user_id=scope.user.user_id,
            state=store.toolkit_state(scope.user, toolkit.slug),
            now=utc_now(),
        )
        try:
            return Outcome(data=tool.invoke(ctx, arguments))
        except ToolFailure as failure:
            return Outcome(data={}, error=failure.message)
