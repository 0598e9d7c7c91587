"""The project endpoints outside sessions that the official SDK's session flow polls.

`GET /api/v3(.1)/connected_accounts/{id}` is what `ConnectionRequest.wait_for_connection()`
polls until the account is ACTIVE; `GET /api/v3(.1)/toolkits/{slug}` is `toolkits.get(slug)`.
Their answers fill every field the official client's types require (composio-client 1.43 and
2.0), with the emulator's own values where the service's are not known (a fake token, fixed
dates). An account of another project is as unknown as one that does not exist.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from langchain_toolrouter.emulator.context import authenticate, base_url, state_of
from langchain_toolrouter.emulator.definitions import Toolkit
from langchain_toolrouter.emulator.errors import EmulatorError
from langchain_toolrouter.emulator.execution import connect_url
from langchain_toolrouter.emulator.store import ConnectedAccount

__all__ = ["connected_account_payload", "get_connected_account", "get_toolkit", "toolkit_payload"]

#: When the built-in toolkits "were published" (the service's dates are not known).
_PUBLISHED = "2026-01-01T00:00:00Z"
_VERSION = "20260101_00"


def connected_account_payload(account: ConnectedAccount, redirect_url: str) -> dict[str, Any]:
    """A connected account as `GET .../connected_accounts/{id}` answers it (`redirect_url`:
    where the user connects it, while it is INITIATED)."""
    value: dict[str, Any] = {"status": account.status}
    if account.status == "INITIATED":
        value["redirectUrl"] = redirect_url
        if account.callback_url:
            value["callbackUrl"] = account.callback_url
    elif account.status == "ACTIVE":
        # A made-up credential: the service masks real ones; this one opens nothing.
        value["access_token"] = f"emulator-token-{account.id}"
    return {
        "id": account.id,
        "user_id": account.user_id,
        "status": account.status,
        "status_reason": None,
        "toolkit": {"slug": account.toolkit},
        "auth_config": {
            "id": account.auth_config_id,
            "auth_scheme": account.auth_scheme,
            "is_composio_managed": True,
            "is_disabled": False,
        },
        "state": {"authScheme": account.auth_scheme, "val": value},
        "data": dict(value),
        "params": {},
        "alias": account.alias,
        "is_disabled": False,
        "created_at": account.created_at,
        "updated_at": account.updated_at or account.created_at,
        "experimental": {"account_type": account.account_type},
    }


def toolkit_payload(toolkit: Toolkit) -> dict[str, Any]:
    """A catalog toolkit as `GET .../toolkits/{slug}` answers it."""
    scopes = sorted({scope for tool in toolkit.tools for scope in tool.scopes})
    managed = [] if toolkit.no_auth else [toolkit.auth_scheme]
    return {
        "slug": toolkit.slug,
        "name": toolkit.name,
        "type": "native",
        "enabled": True,
        "is_local_toolkit": False,
        "no_auth": toolkit.no_auth,
        "base_url": toolkit.upstream,
        "composio_managed_auth_schemes": managed,
        "composio_managed_auth": [
            {"mode": mode, "scopes": {"available": scopes}} for mode in managed
        ],
        "deprecated": {"toolkitId": f"tk_{toolkit.slug}", "rawProxyInfoByAuthSchemes": []},
        "meta": {
            "description": toolkit.description,
            "logo": toolkit.logo,
            "categories": [
                {"slug": slug, "name": slug.replace("-", " ").title()}
                for slug in toolkit.categories
            ],
            "tools_count": len(toolkit.tools),
            "triggers_count": 0,
            "version": _VERSION,
            "available_versions": [_VERSION],
            "created_at": _PUBLISHED,
            "updated_at": _PUBLISHED,
        },
    }


async def get_connected_account(request: Request) -> Response:
    """GET .../connected_accounts/{account_id}: the account and its status."""
    project = authenticate(request)
    account_id = request.path_params["account_id"]
    account = state_of(request).store.find_account(project, account_id)
    if account is None:
        raise EmulatorError(
            404,
            "ConnectedAccount_NotFound",
            1800,
            f"Connected account {account_id!r} was not found.",
            suggested_fix="Use the connected_account_id a link (POST .../session/{id}/link) "
            "returned; accounts of another project's API key are not visible.",
        )
    redirect_url = connect_url(base_url(request), account.link_token)
    with state_of(request).store.lock:  # status and updated_at of one moment
        payload = connected_account_payload(account, redirect_url)
    return JSONResponse(payload)


async def get_toolkit(request: Request) -> Response:
    """GET .../toolkits/{toolkit_slug}: a toolkit of the catalog (any case)."""
    authenticate(request)
    slug = request.path_params["toolkit_slug"]
    catalog = state_of(request).catalog
    toolkit = catalog.toolkit(slug)
    if toolkit is None:
        raise EmulatorError(
            404,
            "Toolkit_NotFound",
            1900,
            f"Toolkit {slug!r} does not exist.",
            suggested_fix=f"Use one of: {', '.join(sorted(catalog.toolkits))}.",
        )
    return JSONResponse(toolkit_payload(toolkit))
