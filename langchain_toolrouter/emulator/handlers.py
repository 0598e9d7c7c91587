"""One async handler per operation. Handlers parse with the wire models, raise `EmulatorError`
for refused requests, and answer with the wire response models."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from langchain_toolrouter.emulator.catalog import split_origin
from langchain_toolrouter.emulator.config import build_config, check_config, patch_config
from langchain_toolrouter.emulator.context import (
    api_version,
    authenticate,
    base_url,
    parse_body,
    parse_query,
    session_for,
    state_of,
)
from langchain_toolrouter.emulator.customs import resolve_customs
from langchain_toolrouter.emulator.definitions import ToolContext, ToolFailure
from langchain_toolrouter.emulator.errors import EmulatorError, bad_request, session_not_found
from langchain_toolrouter.emulator.execution import (
    Outcome,
    SessionScope,
    connect_url,
    connection_required,
    run_app_tool,
    session_accounts,
    usable_accounts,
)
from langchain_toolrouter.emulator.listing import encode
from langchain_toolrouter.emulator.meta import run_meta_tool, run_search
from langchain_toolrouter.emulator.openapi import openapi_json
from langchain_toolrouter.emulator.pagination import paginate
from langchain_toolrouter.emulator.policy import meta_tools, toolkit_allowed
from langchain_toolrouter.emulator.presenters import (
    dump,
    session_payload,
    toolkit_item,
)
from langchain_toolrouter.emulator.store import SessionRecord, Store, UserState, iso, utc_now
from langchain_toolrouter.wire.models import (
    AttachRequest,
    DownloadUrl,
    ExecuteMetaRequest,
    ExecuteRequest,
    LinkExperimental,
    LinkRequest,
    LinkResponse,
    ListConfigHistoryQuery,
    ListMountItemsQuery,
    ListToolkitsQuery,
    ListToolsQuery,
    MountDeleteResult,
    MountItem,
    MountItemPage,
    MountPathRequest,
    ProxyRequest,
    ProxyResult,
    SearchRequest,
    SessionCreateRequest,
    SessionDeleteResult,
    SessionUpdateRequest,
    ToolkitPage,
    UploadUrl,
    UploadUrlRequest,
)

__all__ = [
    "attach",
    "connect_account",
    "create_download_url",
    "create_link",
    "create_session",
    "create_upload_url",
    "delete_mount_item",
    "delete_session",
    "execute",
    "execute_meta",
    "get_session",
    "list_config_history",
    "list_mount_items",
    "list_toolkits",
    "list_tools",
    "openapi",
    "presigned_download",
    "presigned_upload",
    "proxy_execute",
    "search",
    "update_session",
]

TOOLKITS_MAX_LIMIT = 50
TOOLS_MAX_LIMIT = 500
ITEMS_MAX_LIMIT = 500
HISTORY_MAX_LIMIT = 100


def _json(model: BaseModel | dict[str, Any], status: int = 200) -> JSONResponse:
    body = dump(model) if isinstance(model, BaseModel) else model
    return JSONResponse(body, status_code=status)


def _result(request: Request, outcome: Outcome) -> JSONResponse:
    """An execute response; `error` is always present (null on success), as the service sends it."""
    body = dump(outcome.to_result(state_of(request).store.new_id("log_")))
    body.setdefault("error", None)
    return JSONResponse(body)


# --------------------------------------------------------------------------- sessions


async def create_session(request: Request) -> Response:
    """POST .../session: 201 with the session, its assistive prompt and custom echoes."""
    project = authenticate(request)
    body = await parse_body(request, SessionCreateRequest)
    state = state_of(request)
    config = build_config(body)
    check_config(state.store, project, body.user_id, config)
    inline = body.experimental
    tools = list(inline.custom_tools or []) if inline else []
    toolkits = list(inline.custom_toolkits or []) if inline else []
    _, tool_echoes, toolkit_echoes = resolve_customs(state.catalog, tools, toolkits)
    version = api_version(request)
    overwrite = _link_overwrite(inline.link_url_overwrite if inline else None)
    timezone_name = _timezone(
        inline.assistive_prompt_config.user_timezone
        if inline and inline.assistive_prompt_config
        else None
    )
    record = SessionRecord(
        id=state.store.new_id("trs_"),
        project=project,
        user_id=body.user_id,
        api_version=version,
        config=config,
        created_at=iso(utc_now()),
        # v3 keeps custom definitions with the session; v3.1 needs them inline on each call.
        custom_tools=tools if version == "v3" else [],
        custom_toolkits=toolkits if version == "v3" else [],
        link_url_overwrite=overwrite,
        assistive_prompt=(
            f"You can reach the apps of user {body.user_id} through these tools: "
            f"{', '.join(meta_tools(config))}. Search before you call an app tool, connect a "
            f"toolkit before you use it. User timezone: {timezone_name}."
        ),
    )
    state.store.add_session(record)
    payload = session_payload(
        record,
        state.store,
        base_url(request),
        assistive_prompt=True,
        custom_tools=tool_echoes,
        custom_toolkits=toolkit_echoes,
    )
    return _json(payload, 201)


def _timezone(name: str | None) -> str:
    """The IANA zone of `assistive_prompt_config.user_timezone` (UTC when absent)."""
    if name is None:
        return "UTC"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise bad_request(
            f"experimental.assistive_prompt_config.user_timezone {name!r} is not an IANA time zone.",
            suggested_fix="Use a zone name such as 'Europe/Paris' or 'America/New_York'.",
            errors=["experimental.assistive_prompt_config.user_timezone: unknown time zone"],
        ) from exc
    return name


def _link_overwrite(value: str | None) -> str | None:
    """Check `experimental.link_url_overwrite`: an absolute http(s) origin for connect links."""
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise bad_request(
            f"experimental.link_url_overwrite {value!r} is not an absolute http(s) URL.",
            suggested_fix="Give the origin your users should open links on, e.g. "
            "'https://connect.example.com'.",
            errors=["experimental.link_url_overwrite: must be an absolute http(s) URL"],
        )
    return value


def _stored_echoes(request: Request, record: SessionRecord) -> dict[str, Any]:
    if record.api_version != "v3" or not (record.custom_tools or record.custom_toolkits):
        return {}
    _, tools, kits = resolve_customs(
        state_of(request).catalog, record.custom_tools, record.custom_toolkits
    )
    return {"custom_tools": tools, "custom_toolkits": kits}


async def get_session(request: Request) -> Response:
    """GET .../session/{id}: the session (v3 sessions also return their stored customs)."""
    _, record = session_for(request)
    state = state_of(request)
    echoes = _stored_echoes(request, record)
    with state.store.lock:  # config and config_version of one version, not of two
        payload = session_payload(record, state.store, base_url(request), **echoes)
    return _json(payload)


async def update_session(request: Request) -> Response:
    """PATCH .../session/{id}: replace config blocks, bump config_version (409 if stale)."""
    project, record = session_for(request)
    body = await parse_body(request, SessionUpdateRequest)
    store = state_of(request).store
    # Check and update as one step: of concurrent PATCHes expecting one version, one wins.
    with store.lock:
        _require_live(store, record)
        _check_expected_version(record, body.expected_config_version)
        config = patch_config(record.config, body)
        check_config(store, project, record.user_id, config)
        experimental = body.experimental
        if experimental is not None and "link_url_overwrite" in experimental.model_fields_set:
            record.link_url_overwrite = _link_overwrite(experimental.link_url_overwrite)
        store.update_config(record, config)
        payload = session_payload(record, store, base_url(request))
    return _json(payload)


def _require_live(store: Store, record: SessionRecord) -> None:
    """404 if the session was deleted since the request looked it up (hold `store.lock`)."""
    if not store.live(record):
        raise session_not_found(record.id)


def _check_expected_version(record: SessionRecord, expected: int | None) -> None:
    """409 when a conditional PATCH names a version the session has moved past."""
    if expected is not None and expected != record.config_version:
        raise EmulatorError(
            409,
            "ToolRouterV2_ConfigVersionConflict",
            4309,
            f"expected_config_version {expected} is stale; the session is at version "
            f"{record.config_version}.",
            suggested_fix="GET the session, re-apply your change to its current config and "
            "PATCH again with the new config_version.",
        )


async def delete_session(request: Request) -> Response:
    """DELETE .../session/{id}: remove it and its mount files; a second delete is 404."""
    project = authenticate(request)
    session_id = request.path_params["session_id"]
    state = state_of(request)
    with state.store.lock:  # no upload lands between forgetting the session and its files
        if not state.store.delete_session(project, session_id):
            raise session_not_found(session_id)
        state.mounts.drop_session(session_id)
    return _json(SessionDeleteResult(session_id=session_id, deleted=True))


async def attach(request: Request) -> Response:
    """POST .../attach: the session plus validated echoes of the inline customs."""
    _, record = session_for(request)
    body = await parse_body(request, AttachRequest)
    state = state_of(request)
    inline = body.experimental
    tools = list(inline.custom_tools or []) if inline else []
    toolkits = list(inline.custom_toolkits or []) if inline else []
    if record.api_version == "v3" and not (tools or toolkits):
        tools, toolkits = record.custom_tools, record.custom_toolkits
    _, tool_echoes, toolkit_echoes = resolve_customs(state.catalog, tools, toolkits)
    with state.store.lock:
        payload = session_payload(
            record,
            state.store,
            base_url(request),
            custom_tools=tool_echoes,
            custom_toolkits=toolkit_echoes,
        )
    return _json(payload)


async def list_config_history(request: Request) -> Response:
    """GET .../config_history: config versions, newest first, paginated (limit <= 100)."""
    _, record = session_for(request)
    query = parse_query(request, ListConfigHistoryQuery)
    with state_of(request).store.lock:  # exactly one entry is current, even mid-PATCH
        current, history = record.config_version, list(record.history)
    entries = [
        {
            "config": entry.config.model_dump(mode="json", by_alias=True, exclude_none=True),
            "created_at": entry.created_at,
            "is_current": entry.version == current,
            "version": entry.version,
        }
        for entry in reversed(history)
    ]
    page = paginate(
        entries,
        cursor=query.cursor,
        limit=query.limit,
        default_limit=20,
        max_limit=HISTORY_MAX_LIMIT,
    )
    body: dict[str, Any] = {
        "items": page.items,
        "current_page": page.current_page,
        "total_items": page.total_items,
        "total_pages": page.total_pages,
    }
    if page.next_cursor:
        body["next_cursor"] = page.next_cursor
    return _json(body)


# --------------------------------------------------------------------------- execution


async def execute(request: Request) -> Response:
    """POST .../execute: an app tool (or a meta tool) as the session's user."""
    _, record = session_for(request)
    body = await parse_body(request, ExecuteRequest)
    scope = SessionScope.build(state_of(request), record, body.experimental, base_url(request))
    arguments = body.arguments or {}
    if body.tool_slug.upper().startswith("COMPOSIO_"):
        outcome = await run_meta_tool(scope, body.tool_slug, arguments)
    else:
        outcome = run_app_tool(
            scope,
            body.tool_slug,
            arguments,
            body.account,
            input_responses=body.input_responses,
            request_state=body.request_state,
        )
    return _result(request, outcome)


async def execute_meta(request: Request) -> Response:
    """POST .../execute_meta: a COMPOSIO_* meta tool."""
    _, record = session_for(request)
    body = await parse_body(request, ExecuteMetaRequest)
    if not body.slug.upper().startswith("COMPOSIO_"):
        raise bad_request(
            f"slug {body.slug!r} is not a meta tool.",
            suggested_fix="Send app tools to POST .../execute; execute_meta takes COMPOSIO_* slugs.",
            errors=["slug: must be a COMPOSIO_* meta tool"],
        )
    scope = SessionScope.build(state_of(request), record, body.experimental, base_url(request))
    outcome = await run_meta_tool(scope, body.slug, body.arguments or {})
    return _result(request, outcome)


async def search(request: Request) -> Response:
    """POST .../search: BM25-ranked tools for each query."""
    _, record = session_for(request)
    body = await parse_body(request, SearchRequest)
    scope = SessionScope.build(state_of(request), record, body.experimental, base_url(request))
    return _json(run_search(scope, body.queries))


# --------------------------------------------------------------------------- connections


async def create_link(request: Request) -> Response:
    """POST .../link: 201 with an INITIATED account and a redirect URL on the emulator."""
    _, record = session_for(request)
    body = await parse_body(request, LinkRequest)
    state = state_of(request)
    toolkit = state.catalog.toolkit(body.toolkit)
    if toolkit is None:
        raise bad_request(
            f"Toolkit {body.toolkit!r} does not exist.",
            suggested_fix=f"Use one of: {', '.join(sorted(state.catalog.toolkits))}.",
            errors=["toolkit: unknown toolkit"],
        )
    if toolkit.no_auth:
        raise EmulatorError(
            400,
            "ToolRouterV2_ToolkitsIsNoAuth",
            4326,
            f"Toolkit '{toolkit.slug}' needs no authentication, so there is nothing to link.",
            suggested_fix=f"Call the {toolkit.name} tools directly.",
        )
    experimental = body.experimental or LinkExperimental()
    if experimental.acl_config_for_shared is not None and experimental.account_type != "SHARED":
        raise bad_request(
            "acl_config_for_shared is only valid for SHARED accounts.",
            suggested_fix="Set experimental.account_type to SHARED or drop acl_config_for_shared.",
            errors=["experimental.acl_config_for_shared: only valid with account_type SHARED"],
        )
    store = state.store
    user = store.user(record.project, record.user_id)
    with store.lock:  # of concurrent links with one alias, one gets it
        _require_live(store, record)
        _check_alias_free(user, toolkit.slug, body.alias)
        manage = record.config.manage_connections
        account = store.initiate_account(
            user,
            toolkit.slug,
            auth_scheme=toolkit.auth_scheme,
            alias=body.alias,
            callback_url=body.callback_url or (manage.callback_url if manage else None),
            auth_config_id=(record.config.auth_configs or {}).get(toolkit.slug),
            account_type=experimental.account_type or "PRIVATE",
        )
    response = LinkResponse(
        connected_account_id=account.id,
        link_token=account.link_token,
        redirect_url=connect_url(base_url(request), account.link_token, record.link_url_overwrite),
        experimental=LinkExperimental(account_type=account.account_type),
    )
    return _json(response, 201)


def _check_alias_free(user: UserState, toolkit: str, alias: str | None) -> None:
    """400 when another account of the user for `toolkit` has `alias` (hold `store.lock`)."""
    if alias and any(a.alias == alias and a.toolkit == toolkit for a in user.accounts):
        raise bad_request(
            f"Alias {alias!r} is already used by another {toolkit} account of this user.",
            suggested_fix="Choose another alias.",
            errors=["alias: must be unique per user and toolkit"],
        )


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head>
<body><h1>{title}</h1><p>{text}</p></body></html>"""


async def connect_account(request: Request) -> Response:
    """GET /_emulator/connect/{token}: the "browser" step; marks the account ACTIVE."""
    token = request.path_params["link_token"]
    account = state_of(request).store.complete_link(token)
    if account is None:
        page = _PAGE.format(
            title="Link not found", text="This connection link is unknown or expired."
        )
        return HTMLResponse(page, status_code=404)
    if account.callback_url:
        parts = urlsplit(account.callback_url)
        query = [
            *parse_qsl(parts.query),
            ("status", "success"),
            ("connected_account_id", account.id),
        ]
        return RedirectResponse(parts._replace(query=urlencode(query)).geturl(), status_code=303)
    text = html.escape(
        f"Your {account.toolkit} account {account.id} is now ACTIVE for user {account.user_id}. "
        "You can close this window."
    )
    return HTMLResponse(_PAGE.format(title="Connected", text=text))


# --------------------------------------------------------------------------- listings


async def list_toolkits(request: Request) -> Response:
    """GET .../toolkits: catalog toolkits with enabled flag and connection, paginated (<= 50)."""
    _, record = session_for(request)
    query = parse_query(request, ListToolkitsQuery, lists=("toolkits",))
    state = state_of(request)
    user = state.store.user(record.project, record.user_id)
    items = []
    wanted = {t.lower() for t in query.toolkits} if query.toolkits else None
    for toolkit in state.catalog.toolkits.values():
        if wanted is not None and toolkit.slug not in wanted:
            continue
        if wanted is None and not toolkit_allowed(record.config, toolkit.slug):
            continue
        accounts = session_accounts(record.config, user, toolkit.slug)
        active = [a for a in accounts if a.status == "ACTIVE"]
        account = active[0] if active else (accounts[-1] if accounts else None)
        if query.is_connected is not None and bool(active or toolkit.no_auth) != query.is_connected:
            continue
        if query.search:
            needle = query.search.lower()
            haystack = f"{toolkit.slug} {toolkit.name} {toolkit.description}".lower()
            if needle not in haystack:
                continue
        enabled = toolkit_allowed(record.config, toolkit.slug)
        items.append(toolkit_item(toolkit, enabled=enabled, account=account))
    page = paginate(
        items,
        cursor=query.cursor,
        limit=query.limit,
        default_limit=20,
        max_limit=TOOLKITS_MAX_LIMIT,
    )
    return _json(
        ToolkitPage(
            items=page.items,
            current_page=page.current_page,
            total_items=page.total_items,
            total_pages=page.total_pages,
            next_cursor=page.next_cursor,
        )
    )


async def list_tools(request: Request) -> Response:
    """GET .../tools: meta tools then preloaded app tools, with schemas, paginated (<= 500)."""
    _, record = session_for(request)
    query = parse_query(request, ListToolsQuery)
    page = paginate(
        state_of(request).session_tools(record).encoded,
        cursor=query.cursor,
        limit=query.limit,
        default_limit=TOOLS_MAX_LIMIT,
        max_limit=TOOLS_MAX_LIMIT,
    )
    # The page is joined from items encoded once (encoding them per page was the cost).
    counters: dict[str, Any] = {
        "current_page": page.current_page,
        "total_items": page.total_items,
        "total_pages": page.total_pages,
    }
    if page.next_cursor:
        counters["next_cursor"] = page.next_cursor
    body = b'{"items":[' + b",".join(page.items) + b"]," + encode(counters)[1:]
    return Response(body, media_type="application/json")


# --------------------------------------------------------------------------- proxy


def _ssrf_blocked(url: str, toolkit: str) -> EmulatorError:
    return EmulatorError(
        400,
        "ExternalProxy_SSRFBlocked",
        4401,
        f"Proxy target {url!r} is not an API host of toolkit '{toolkit}'; the request was blocked.",
        suggested_fix="Use an endpoint relative to the toolkit's API (e.g. '/user/repos') or an "
        "absolute URL on that toolkit's own API host.",
    )


AUTH_SCHEMES = frozenset(
    {
        "OAUTH2",
        "DCR_OAUTH",
        "API_KEY",
        "BASIC_WITH_JWT",
        "BASIC",
        "BEARER_TOKEN",
        "OAUTH1",
        "NO_AUTH",
        "SERVICE_ACCOUNT",
        "GOOGLE_SERVICE_ACCOUNT",
        "S2S_OAUTH2",
    }
)


def _check_custom_connection(data: dict[str, Any], toolkit: str) -> None:
    """Bring-your-own credentials: a known scheme, this toolkit, an access token for OAuth."""
    problems = []
    scheme = data.get("authScheme")
    if scheme not in AUTH_SCHEMES:
        problems.append(
            f"custom_connection_data.authScheme: must be one of {', '.join(sorted(AUTH_SCHEMES))}"
        )
    if str(data.get("toolkitSlug", "")).lower() != toolkit:
        problems.append(
            f"custom_connection_data.toolkitSlug: must be {toolkit!r}, the proxied toolkit"
        )
    value = data.get("val")
    if not isinstance(value, dict):
        problems.append("custom_connection_data.val: must be an object of credentials")
    elif scheme in ("OAUTH2", "DCR_OAUTH", "S2S_OAUTH2") and not value.get("access_token"):
        problems.append("custom_connection_data.val.access_token: required for OAuth schemes")
    if problems:
        raise bad_request(
            "Invalid custom_connection_data: " + "; ".join(problems),
            suggested_fix="Send {authScheme, toolkitSlug, val} with the credentials of that scheme, "
            "or leave it out to use the user's connected account.",
            errors=problems,
        )


async def proxy_execute(request: Request) -> Response:
    """POST .../proxy_execute: answered by the toolkit's fake upstream; other hosts are blocked."""
    _, record = session_for(request)
    body = await parse_body(request, ProxyRequest)
    state = state_of(request)
    toolkit = state.catalog.toolkit(body.toolkit_slug)
    if toolkit is None:
        raise bad_request(
            f"Toolkit {body.toolkit_slug!r} does not exist.",
            suggested_fix=f"Use one of: {', '.join(sorted(state.catalog.toolkits))}.",
            errors=["toolkit_slug: unknown toolkit"],
        )
    endpoint = body.endpoint
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", endpoint) or endpoint.startswith("//"):
        if state.catalog.toolkit_for_url(endpoint) is not toolkit:
            raise _ssrf_blocked(endpoint, toolkit.slug)
        upstream_path = split_origin(toolkit.upstream.rstrip("/"))[2]
        endpoint = split_origin(endpoint)[2][len(upstream_path) :] or "/"
    url = urlsplit(endpoint if endpoint.startswith("/") else "/" + endpoint)
    if not toolkit_allowed(record.config, toolkit.slug):
        raise EmulatorError(
            400,
            "ToolRouterV2_ToolNotAllowed",
            4306,
            f"Toolkit '{toolkit.slug}' is not enabled in this session.",
            suggested_fix="Enable the toolkit in the session config.",
        )
    scope = SessionScope.build(state, record, None, base_url(request))
    own_credentials = body.custom_connection_data is not None
    if own_credentials:
        _check_custom_connection(body.custom_connection_data or {}, toolkit.slug)
    usable = usable_accounts(record.config, scope.user, toolkit.slug)
    if not (toolkit.no_auth or own_credentials or usable):
        raise connection_required(toolkit, scope)
    if body.binary_body is not None:
        message = "This fake upstream accepts JSON bodies only; binary_body is not emulated."
        headers = {"content-type": "application/json", "x-emulator-upstream": toolkit.upstream}
        return _json(ProxyResult(status=415, data={"message": message}, headers=headers))
    method = "GET" if body.method == "HEAD" else body.method
    arguments: dict[str, Any] = dict(parse_qsl(url.query))
    arguments.update({p.name: p.value for p in body.parameters or [] if p.type == "query"})
    headers = {"content-type": "application/json", "x-emulator-upstream": toolkit.upstream}
    for route in toolkit.proxy_routes:
        match = route.pattern.match(url.path)
        if route.method != method or match is None:
            continue
        arguments.update(match.groupdict())
        if isinstance(body.body, dict):
            arguments.update(body.body)
        tool = state.catalog.tools[route.tool_slug]
        with state.store.lock:
            _require_live(state.store, record)
            ctx = ToolContext(
                user_id=record.user_id,
                state=state.store.toolkit_state(scope.user, toolkit.slug),
                now=utc_now(),
            )
            try:
                data: Any = tool.invoke(ctx, arguments)
                status = route.status
            except ToolFailure as failure:
                data, status = {"message": failure.message}, failure.status
        if body.method == "HEAD":
            data = None
        return _json(ProxyResult(status=status, data=data, headers=headers))
    allowed = sorted({r.method for r in toolkit.proxy_routes if r.pattern.match(url.path)})
    status = 405 if allowed else 404
    message = (
        f"Method {body.method} not allowed; use {', '.join(allowed)}." if allowed else "Not Found"
    )
    return _json(ProxyResult(status=status, data={"message": message}, headers=headers))


# --------------------------------------------------------------------------- mounts


def _mount_id(request: Request) -> str:
    mount_id: str = request.path_params["mount_id"]
    state_of(request).mounts.check_mount_id(mount_id)
    return mount_id


async def list_mount_items(request: Request) -> Response:
    """GET .../mounts/{mount_id}/items: files under an optional prefix, paginated (<= 500)."""
    _, record = session_for(request)
    mount_id = _mount_id(request)
    query = parse_query(request, ListMountItemsQuery)
    mounts = state_of(request).mounts
    files = mounts.list(record.id, mount_id, query.mount_relative_prefix or "")
    page = paginate(
        files, cursor=query.cursor, limit=query.limit, default_limit=100, max_limit=ITEMS_MAX_LIMIT
    )
    items = [
        MountItem(
            mount_relative_path=f.mount_relative_path,
            sandbox_mount_prefix=mounts.sandbox_prefix(mount_id),
            size=f.size,
            last_modified=f.last_modified,
        )
        for f in page.items
    ]
    return _json(MountItemPage(items=items, next_cursor=page.next_cursor))


async def create_download_url(request: Request) -> Response:
    """POST .../download_url: a signed GET URL for an existing file."""
    _, record = session_for(request)
    mount_id = _mount_id(request)
    body = await parse_body(request, MountPathRequest)
    mounts = state_of(request).mounts
    path = mounts.normalize(body.mount_relative_path)
    if mounts.read(record.id, mount_id, path) is None:
        raise EmulatorError(
            404,
            "ToolRouterV2_FileNotFound",
            4313,
            f"No file {path!r} in mount {mount_id!r}.",
            suggested_fix="List the mount's files with GET .../items, or upload the file first.",
        )
    url, target = _presigned(request, "GET", record.id, mount_id, path)
    return _json(DownloadUrl(download_url=url, **target))


async def create_upload_url(request: Request) -> Response:
    """POST .../upload_url: a signed PUT URL (subdirectories allowed)."""
    _, record = session_for(request)
    mount_id = _mount_id(request)
    body = await parse_body(request, UploadUrlRequest)
    mounts = state_of(request).mounts
    path = mounts.normalize(body.mount_relative_path)
    mounts.check_storable(record.id, mount_id, path)
    url, target = _presigned(request, "PUT", record.id, mount_id, path)
    return _json(UploadUrl(upload_url=url, **target))


def _presigned(
    request: Request, method: str, session_id: str, mount_id: str, path: str
) -> tuple[str, dict[str, Any]]:
    """A signed URL for `method` on one mount file, and the fields both answers share."""
    mounts = state_of(request).mounts
    signed = mounts.presign(method, session_id, mount_id, path)
    target = {
        "expires_at": signed.expires_at,
        "mount_relative_path": path,
        "sandbox_mount_prefix": mounts.sandbox_prefix(mount_id),
    }
    return base_url(request) + signed.path_and_query.lstrip("/"), target


async def delete_mount_item(request: Request) -> Response:
    """POST .../delete: remove a file; deleting a missing file succeeds too."""
    _, record = session_for(request)
    mount_id = _mount_id(request)
    body = await parse_body(request, MountPathRequest)
    mounts = state_of(request).mounts
    path = mounts.normalize(body.mount_relative_path)
    mounts.delete(record.id, mount_id, path)
    return _json(
        MountDeleteResult(
            mount_relative_path=path, sandbox_mount_prefix=mounts.sandbox_prefix(mount_id)
        )
    )


def _presigned_target(request: Request, method: str) -> tuple[str, str, str]:
    if "x-api-key" in request.headers or "x-user-api-key" in request.headers:
        raise bad_request(
            "A presigned URL must not receive an API key.",
            suggested_fix="Send the request to the presigned URL without x-api-key: the "
            "signature is the credential, and the key must never leave the API origin.",
            errors=["x-api-key: must not be sent to presigned URLs"],
        )
    session_id = request.path_params["session_id"]
    mount_id = request.path_params["mount_id"]
    path = request.path_params["path"]
    state = state_of(request)
    state.mounts.verify(
        method,
        session_id,
        mount_id,
        path,
        expires=request.query_params.get("expires"),
        signature=request.query_params.get("signature"),
    )
    if session_id not in state.store.sessions:
        raise session_not_found(session_id)
    return session_id, mount_id, path


async def presigned_upload(request: Request) -> Response:
    """PUT /_emulator/files/...: store the raw body (signature, not the key, authorizes).

    The body streams to a temporary file, counted as it comes: an upload over the limit is
    refused (413) the moment it passes it, holding no more than one chunk in memory.
    """
    session_id, mount_id, path = _presigned_target(request, "PUT")
    mounts = state_of(request).mounts
    limit = mounts.max_upload_bytes
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise _upload_too_large(limit)
    with mounts.incoming(session_id, mount_id, path) as upload:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise _upload_too_large(limit)
            upload.write(chunk)
        store = state_of(request).store
        with store.lock:  # not after a DELETE has dropped the session's files
            if session_id not in store.sessions:
                raise session_not_found(session_id)
            upload.commit()
    return Response(status_code=200)


def _upload_too_large(limit: int) -> EmulatorError:
    return EmulatorError(
        413,
        "ToolRouterV2_FileTooLarge",
        4314,
        f"The upload exceeds the {limit} byte limit of a mount file.",
        suggested_fix="Upload a smaller file, or split it into several files.",
    )


async def presigned_download(request: Request) -> Response:
    """GET /_emulator/files/...: the file's bytes."""
    session_id, mount_id, path = _presigned_target(request, "GET")
    data = state_of(request).mounts.read(session_id, mount_id, path)
    if data is None:
        raise EmulatorError(
            404,
            "ToolRouterV2_FileNotFound",
            4313,
            f"No file {path!r} in mount {mount_id!r} (it was deleted after the URL was made).",
            suggested_fix="Upload the file again, then ask for a new download URL.",
        )
    return Response(data, media_type="application/octet-stream")


async def openapi(request: Request) -> Response:
    """GET /openapi.json: the OpenAPI document of the API operations (no key needed)."""
    del request
    return Response(openapi_json(), media_type="application/json")
