"""The meta tools (`COMPOSIO_*`) with real behaviour, and the search operation they share.

Search ranks the session's allowed catalog tools and its custom tools with BM25F; multi-execute
runs each item through the same path as `/execute`; manage-connections starts the emulator's
connect flow; wait-for-connections polls until accounts are ACTIVE. The remote workbench and bash
tools need a sandbox the emulator does not have: they answer an in-band failure saying so.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

import anyio
from pydantic import BaseModel, ConfigDict, Field

from langchain_toolrouter.emulator.context import validate
from langchain_toolrouter.emulator.errors import EmulatorError
from langchain_toolrouter.emulator.execution import (
    Outcome,
    SessionScope,
    check_app_tool,
    connect_url,
    run_app_tool,
    session_accounts,
    usable_accounts,
)
from langchain_toolrouter.emulator.policy import meta_tools
from langchain_toolrouter.emulator.presenters import dump
from langchain_toolrouter.emulator.search import SearchIndex, match_use_case, tool_document
from langchain_toolrouter.emulator.store import iso, utc_now
from langchain_toolrouter.wire.models import (
    SearchConnectionStatus,
    SearchQuery,
    SearchResponse,
    SearchResult,
    SearchSchemaRef,
    SearchToolSchema,
    SearchWorkflowSession,
)

__all__ = ["run_meta_tool", "run_search"]

PRIMARY_LIMIT = 3
RELATED_LIMIT = 5


# --------------------------------------------------------------------------- search


def _searchable(scope: SessionScope) -> tuple[SearchIndex, frozenset[str], frozenset[str]]:
    """The index of the catalog and the session's custom tools; the slugs and the toolkits of
    the tools the session may use (its config read once per version)."""
    state = scope.state
    customs = [
        tool_document(c.slug, c.toolkit, c.name, c.description, c.input_schema)
        for c in scope.customs
    ]
    index = state.search.index(customs, base=state.search.catalog_documents(state.catalog))
    allowed = state.listings.allowed(state.catalog, state.store, scope.record)
    if not customs:
        return index, allowed.tools, allowed.toolkits
    return (
        index,
        allowed.tools | {c.slug for c in scope.customs},
        allowed.toolkits | {c.toolkit for c in scope.customs},
    )


def _schema_of(
    scope: SessionScope, slug: str
) -> tuple[str, str, dict[str, Any], dict[str, Any] | None]:
    tool = scope.state.catalog.tool(slug)
    if tool is not None:
        return tool.toolkit, tool.description, tool.input_schema, tool.output_schema
    custom = scope.custom(slug)
    assert custom is not None
    return custom.toolkit, custom.description, custom.input_schema, custom.output_schema


def _connection_status(scope: SessionScope, toolkit_slug: str) -> SearchConnectionStatus:
    toolkit = scope.state.catalog.toolkit(toolkit_slug)
    if toolkit is None:  # a custom toolkit: no auth
        return SearchConnectionStatus(
            toolkit=toolkit_slug,
            description=f"Custom toolkit {toolkit_slug}",
            has_active_connection=True,
            status_message="Custom tools run in your process; no connection needed.",
        )
    if toolkit.no_auth:
        return SearchConnectionStatus(
            toolkit=toolkit.slug,
            description=toolkit.description,
            has_active_connection=True,
            status_message=f"{toolkit.name} needs no connection.",
        )
    accounts = session_accounts(scope.record.config, scope.user, toolkit.slug)
    active = [a for a in accounts if a.status == "ACTIVE"]
    message = (
        f"Active connection found for {toolkit.name}."
        if active
        else f"No active connection for {toolkit.name}; call COMPOSIO_MANAGE_CONNECTIONS with "
        f"toolkits=['{toolkit.slug}'] and have the user open the link."
    )
    return SearchConnectionStatus(
        toolkit=toolkit.slug,
        description=toolkit.description,
        has_active_connection=bool(active),
        status_message=message,
        accounts=[
            {
                "id": a.id,
                "created_at": a.created_at,
                "is_default": a is (active[0] if active else None),
                "status": a.status,
                **({"alias": a.alias} if a.alias else {}),
                "account_type": a.account_type,
            }
            for a in accounts
        ],
    )


def run_search(
    scope: SessionScope, queries: list[SearchQuery], workflow: dict[str, Any] | None = None
) -> SearchResponse:
    """The search response for `queries` (one result per query, in order)."""
    found_in, allowed, toolkits = _searchable(scope)
    results: list[SearchResult] = []
    schemas: dict[str, SearchToolSchema] = {}
    toolkits_seen: list[str] = []
    names = {slug: toolkit.name for slug, toolkit in scope.state.catalog.toolkits.items()}
    names.update({c.toolkit: c.toolkit for c in scope.customs if c.toolkit not in names})
    for index, query in enumerate(queries, start=1):
        match = match_use_case(
            found_in,
            query.use_case,
            allowed=allowed,
            toolkits=toolkits,
            known_fields=query.known_fields or "",
            toolkit_names=names,
            primary_limit=PRIMARY_LIMIT,
            related_limit=RELATED_LIMIT,
        )
        primary, related = match.primary, match.related
        kits: list[str] = []
        for doc in primary + related:
            if doc.toolkit not in kits:
                kits.append(doc.toolkit)
            if doc.toolkit not in toolkits_seen:
                toolkits_seen.append(doc.toolkit)
        for doc in primary:
            toolkit, description, input_schema, _ = _schema_of(scope, doc.slug)
            schemas[doc.slug] = SearchToolSchema(
                tool_slug=doc.slug,
                toolkit=toolkit,
                description=description,
                has_full_schema=True,
                input_schema=input_schema,
            )
        for doc in related:
            if doc.slug in schemas:
                continue
            toolkit, description, _, _ = _schema_of(scope, doc.slug)
            schemas[doc.slug] = SearchToolSchema(
                tool_slug=doc.slug,
                toolkit=toolkit,
                description=description,
                has_full_schema=False,
                schema_ref=SearchSchemaRef(
                    tool="COMPOSIO_GET_TOOL_SCHEMAS",
                    args={"tool_slugs": [doc.slug]},
                    message="Fetch the input schema before calling this tool.",
                ),
            )
        if primary:
            guidance = f"Call {primary[0].slug} with arguments matching its input_schema."
        elif match.not_enabled:
            guidance = (
                f"This session does not enable {', '.join(match.not_enabled)}: enable the "
                "toolkit in the session config (its toolkits), or search for another app."
            )
        else:
            guidance = (
                "No tool matched; rephrase the use case with the app and action, e.g. "
                "'create a github issue'."
            )
        results.append(
            SearchResult(
                index=index,
                use_case=query.use_case,
                primary_tool_slugs=[d.slug for d in primary],
                related_tool_slugs=[d.slug for d in related],
                toolkits=kits,
                difficulty="easy" if primary else "unknown",
                execution_guidance=guidance,
                known_pitfalls=[],
                recommended_plan_steps=[f"Run {d.slug}" for d in primary[:1]],
            )
        )
    workflow = workflow or {}
    workflow_id = workflow.get("id") if isinstance(workflow.get("id"), str) else None
    generated = workflow_id is None
    now = utc_now()
    statuses = [_connection_status(scope, kit) for kit in toolkits_seen]
    next_steps = []
    if any(not s.has_active_connection for s in statuses):
        next_steps.append("Connect the toolkits without an active connection first.")
    next_steps.append("Execute the primary tools with their input schemas.")
    return SearchResponse(
        success=True,
        error=None,
        results=results,
        tool_schemas=schemas,
        toolkit_connection_statuses=statuses,
        next_steps_guidance=next_steps,
        session=SearchWorkflowSession(
            id=workflow_id or scope.state.store.new_id("", 6).lower(),
            generate_id=generated,
            instructions="Pass this id as session_id to the other meta tools of this task.",
        ),
        time_info={
            "current_time_utc": iso(now),
            "current_time_utc_epoch_seconds": int(now.timestamp()),
            "message": "Current time in UTC.",
        },
    )


# --------------------------------------------------------------------------- meta tool args


class _Args(BaseModel):
    """Arguments of a meta tool, checked as its published input schema says (`meta_tools.json`,
    served by `GET .../tools`): same required fields, enums and bounds, and JSON types taken
    strictly (no `"true"` for a boolean). `test_meta` holds the two side by side."""

    model_config = ConfigDict(extra="allow", strict=True)


class SearchArgs(_Args):
    queries: list[SearchQuery] = Field(min_length=1)
    session: dict[str, Any] | None = None
    model: str | None = None


SchemaPart = Literal["input_schema", "output_schema"]


def _input_schema_only() -> list[SchemaPart]:
    return ["input_schema"]


class SchemasArgs(_Args):
    tool_slugs: list[Annotated[str, Field(min_length=1)]]
    include: list[SchemaPart] = Field(default_factory=_input_schema_only)


class MultiItem(_Args):
    tool_slug: str = Field(min_length=1)
    arguments: dict[str, Any]
    account: str | None = None


class MultiArgs(_Args):
    tools: list[MultiItem] = Field(min_length=1, max_length=50)
    # Required by the published schema, which also says "default false in behaviour"; calls
    # through the low-level execute leave it out, so it keeps that default here (see RELAXED).
    sync_response_to_workbench: bool = False


#: Published-schema requirements these models deliberately do not enforce.
RELAXED = {"COMPOSIO_MULTI_EXECUTE_TOOL": frozenset({"sync_response_to_workbench"})}


class ManageArgs(_Args):
    toolkits: list[str]
    reinitiate_all: bool = False


class WaitArgs(_Args):
    toolkits: list[str] = Field(min_length=1)
    timeout_seconds: float = Field(default=10.0, ge=0, le=60)


# --------------------------------------------------------------------------- implementations


def _search(scope: SessionScope, args: SearchArgs) -> Outcome:
    response = run_search(scope, args.queries, args.session)
    return Outcome(data=dump(response))


def _schemas(scope: SessionScope, args: SchemasArgs) -> Outcome:
    found: dict[str, Any] = {}
    missing: list[str] = []
    for slug in args.tool_slugs:
        custom = scope.custom(slug)
        try:
            if custom is None:
                check_app_tool(scope, slug)
        except EmulatorError:
            missing.append(slug)
            continue
        toolkit, description, input_schema, output_schema = _schema_of(
            scope, custom.slug if custom else slug
        )
        entry: dict[str, Any] = {
            "tool_slug": custom.slug if custom else slug.upper(),
            "toolkit": toolkit,
            "description": description,
        }
        if "input_schema" in args.include:
            entry["input_schema"] = input_schema
        if "output_schema" in args.include and output_schema is not None:
            entry["output_schema"] = output_schema
        found[entry["tool_slug"]] = entry
    error = None
    if missing:
        error = (
            f"Unknown or not allowed tool slugs: {', '.join(missing)}. Use slugs returned by "
            "COMPOSIO_SEARCH_TOOLS."
        )
    # Partial success keeps the found schemas and lists the rest; nothing found is a failure.
    return Outcome(
        data={"tool_schemas": found, "not_found": missing}, error=None if found else error
    )


def _multi(scope: SessionScope, args: MultiArgs) -> Outcome:
    results: list[dict[str, Any]] = []
    for index, item in enumerate(args.tools):
        try:
            if item.tool_slug.upper().startswith("COMPOSIO_"):
                raise EmulatorError(
                    400,
                    "ToolRouterV2_BadRequest",
                    4300,
                    f"{item.tool_slug} is a meta tool; multi-execute runs app tools only.",
                )
            outcome = run_app_tool(
                scope, item.tool_slug, item.arguments, item.account, may_ask=False
            )
        except EmulatorError as refused:
            fix = f" {refused.suggested_fix}" if refused.suggested_fix else ""
            outcome = Outcome(data={}, error=f"{refused.message}{fix}")
        entry: dict[str, Any] = {
            "tool_slug": item.tool_slug,
            "index": index,
            "response": {
                "successful": outcome.successful,
                "data": outcome.data,
                "error": outcome.error,
            },
        }
        if outcome.error is not None:
            entry["error"] = outcome.error
        results.append(entry)
    failed = sum(1 for r in results if "error" in r)
    data = {
        "results": results,
        "total_count": len(results),
        "success_count": len(results) - failed,
        "error_count": failed,
    }
    if failed == 0:
        return Outcome(data=data)
    message = f"{failed} out of {len(results)} tools failed"
    return Outcome(data=data, error=message)


def _manage(scope: SessionScope, args: ManageArgs) -> Outcome:
    store = scope.state.store
    results: dict[str, Any] = {}
    errors: list[str] = []
    manage = scope.record.config.manage_connections
    callback = manage.callback_url if manage is not None else None
    for name in args.toolkits:
        toolkit = store.catalog.toolkit(name)
        if toolkit is None:
            errors.append(
                f"Unknown toolkit {name!r}; known: {', '.join(sorted(store.catalog.toolkits))}."
            )
            continue
        if toolkit.no_auth:
            results[toolkit.slug] = {
                "toolkit": toolkit.slug,
                "status": "no_auth_required",
                "has_active_connection": True,
            }
            continue
        active = usable_accounts(scope.record.config, scope.user, toolkit.slug)
        if active and not args.reinitiate_all:
            results[toolkit.slug] = {
                "toolkit": toolkit.slug,
                "status": "active",
                "has_active_connection": True,
                "connected_account_id": active[0].id,
            }
            continue
        account = store.initiate_account(
            scope.user,
            toolkit.slug,
            auth_scheme=toolkit.auth_scheme,
            callback_url=callback,
            auth_config_id=(scope.record.config.auth_configs or {}).get(toolkit.slug),
        )
        results[toolkit.slug] = {
            "toolkit": toolkit.slug,
            "status": "initiated",
            "has_active_connection": False,
            "connected_account_id": account.id,
            "redirect_url": connect_url(
                scope.base_url, account.link_token, scope.record.link_url_overwrite
            ),
            "instruction": f"Ask the user to open the redirect_url to connect {toolkit.name}.",
        }
    initiated = any(not state.get("has_active_connection") for state in results.values())
    message = (
        "Ask the user to open each redirect_url to connect its toolkit, then call the tool again."
        if initiated
        else "Every requested toolkit is connected: nothing to open."
    )
    data = {"results": results, "message": message}
    if errors and not results:
        return Outcome(data=data, error=" ".join(errors))
    if errors:
        data["errors"] = errors
    return Outcome(data=data)


def _statuses(scope: SessionScope, toolkits: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in toolkits:
        toolkit = scope.state.catalog.toolkit(name)
        if toolkit is None:
            out[name] = {"status": "unknown_toolkit", "has_active_connection": False}
        elif toolkit.no_auth:
            out[toolkit.slug] = {"status": "no_auth_required", "has_active_connection": True}
        else:
            active = usable_accounts(scope.record.config, scope.user, toolkit.slug)
            out[toolkit.slug] = {
                "status": "ACTIVE" if active else "NOT_CONNECTED",
                "has_active_connection": bool(active),
                **({"connected_account_id": active[0].id} if active else {}),
            }
    return out


async def _wait(scope: SessionScope, args: WaitArgs) -> Outcome:
    deadline = time.monotonic() + args.timeout_seconds
    while True:
        statuses = _statuses(scope, args.toolkits)
        ready = all(s["has_active_connection"] for s in statuses.values())
        if ready or time.monotonic() >= deadline:
            break
        await anyio.sleep(0.1)
    data = {"connections": statuses, "all_connected": ready}
    if ready:
        return Outcome(data=data)
    pending = [k for k, s in statuses.items() if not s["has_active_connection"]]
    return Outcome(
        data=data,
        error=f"Timed out after {args.timeout_seconds:g}s waiting for: {', '.join(pending)}. "
        "Ask the user to finish connecting, then wait again.",
    )


def _no_sandbox(slug: str) -> Outcome:
    return Outcome(
        data={},
        error=f"{slug} is not available on the emulator: it has no remote sandbox. Run the code "
        "locally, or use the app tools directly (COMPOSIO_MULTI_EXECUTE_TOOL).",
    )


async def run_meta_tool(scope: SessionScope, slug: str, arguments: dict[str, Any]) -> Outcome:
    """Run a meta tool the session exposes.

    Raises:
        EmulatorError: unknown meta tool (404) or one the session config hides (400); bad
            arguments are answered in-band like any tool failure.
    """
    slug = slug.upper()
    exposed = meta_tools(scope.record.config)
    known = {
        "COMPOSIO_SEARCH_TOOLS",
        "COMPOSIO_GET_TOOL_SCHEMAS",
        "COMPOSIO_MULTI_EXECUTE_TOOL",
        "COMPOSIO_MANAGE_CONNECTIONS",
        "COMPOSIO_WAIT_FOR_CONNECTIONS",
        "COMPOSIO_REMOTE_WORKBENCH",
        "COMPOSIO_REMOTE_BASH_TOOL",
    }
    if slug not in known:
        raise EmulatorError(
            404,
            "ToolRouterV2_ToolNotFound",
            4305,
            f"Meta tool {slug!r} does not exist on this service.",
            suggested_fix=f"Use one of the session's meta tools: {', '.join(exposed)}.",
        )
    if slug not in exposed:
        raise EmulatorError(
            400,
            "ToolRouterV2_ToolNotAllowed",
            4306,
            f"Meta tool {slug} is disabled by this session's config.",
            suggested_fix="Enable it in the session config (search.enable, "
            "execute.enable_multi_execute, manage_connections.enable, "
            "manage_connections.enable_wait_for_connections, workbench.enable).",
        )
    if slug in ("COMPOSIO_REMOTE_WORKBENCH", "COMPOSIO_REMOTE_BASH_TOOL"):
        return _no_sandbox(slug)
    handlers: dict[
        str, tuple[type[_Args], Callable[[SessionScope, Any], Outcome | Awaitable[Outcome]]]
    ] = {
        "COMPOSIO_SEARCH_TOOLS": (SearchArgs, _search),
        "COMPOSIO_GET_TOOL_SCHEMAS": (SchemasArgs, _schemas),
        "COMPOSIO_MULTI_EXECUTE_TOOL": (MultiArgs, _multi),
        "COMPOSIO_MANAGE_CONNECTIONS": (ManageArgs, _manage),
        "COMPOSIO_WAIT_FOR_CONNECTIONS": (WaitArgs, _wait),
    }
    model, handler = handlers[slug]
    try:
        args = validate(model, arguments, what=f"{slug} arguments")
    except EmulatorError as invalid:
        return Outcome(
            data={}, error=f"{invalid.message}. Fix the arguments to match the input schema."
        )
    result = handler(scope, args)
    if isinstance(result, Outcome):
        return result
    return await result
