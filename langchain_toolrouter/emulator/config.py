"""Session config: from a create/PATCH request to the stored (response-spelled) config, checked.

Requests say `enable`/`disable`; the stored and returned config says `enabled`/`disabled` (as the
service answers). The response models accept both spellings, so the request's blocks are
validated straight into `SessionConfig`. Blocks the service always returns (`execute`, `preload`,
`search`, `manage_connections`) get their defaults. Every unknown toolkit, tool, tag or account
is reported in one 400; so are unknown top-level fields, and `user_id` on PATCH (a session keeps
its user).
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ValidationError

from langchain_toolrouter.emulator.definitions import TAGS, format_validation_error
from langchain_toolrouter.emulator.errors import EmulatorError, bad_request
from langchain_toolrouter.emulator.policy import tool_allowed
from langchain_toolrouter.emulator.store import Store
from langchain_toolrouter.wire.models import (
    ExecuteConfig,
    ManageConnectionsConfig,
    PreloadConfig,
    SearchConfig,
    SessionConfig,
    SessionCreateRequest,
    SessionUpdateRequest,
    TagsConfig,
)

__all__ = ["build_config", "check_config", "patch_config"]

#: Blocks a PATCH may replace or (with `null`) remove: create's blocks minus `user_id`.
_CONFIG_FIELDS = tuple(
    name
    for name in SessionUpdateRequest.model_fields
    if name not in ("experimental", "expected_config_version")
)

#: Maps keyed by toolkit slug, stored with lower-case keys.
_TOOLKIT_MAPS = ("auth_configs", "connected_accounts")


def _with_defaults(config: SessionConfig) -> SessionConfig:
    if config.execute is None:
        config.execute = ExecuteConfig(enable_multi_execute=True)
    if config.preload is None:
        config.preload = PreloadConfig(tools=[])
    if config.search is None:
        config.search = SearchConfig(enable=True)
    if config.manage_connections is None:
        config.manage_connections = ManageConnectionsConfig(
            enabled=True, enable_connection_removal=True, enable_wait_for_connections=False
        )
    return config


def _lower_toolkit_keys(data: dict[str, Any]) -> None:
    """Store the toolkit-keyed maps under lower-case slugs, so every lookup by slug agrees.

    Raises:
        EmulatorError: 400 when two keys name the same toolkit in different case.
    """
    problems: list[str] = []
    for name in _TOOLKIT_MAPS:
        given = data.get(name)
        if not isinstance(given, dict):
            continue
        lowered: dict[str, Any] = {}
        for key, value in given.items():
            slug = key.lower()
            if slug in lowered:
                problems.append(f"{name}.{key}: toolkit {slug!r} is given more than once")
            lowered[slug] = value
        data[name] = lowered
    if problems:
        raise bad_request(
            "Invalid session config: " + "; ".join(problems),
            suggested_fix="Give each toolkit once (toolkit slugs are case-insensitive).",
            errors=problems,
        )


def _to_config(data: dict[str, Any]) -> SessionConfig:
    _lower_toolkit_keys(data)
    try:
        return _with_defaults(SessionConfig.model_validate(data))
    except ValidationError as exc:
        problems = format_validation_error(exc)
        raise bad_request(
            "Invalid session config: " + "; ".join(problems),
            suggested_fix="Correct the config blocks listed in 'errors'.",
            errors=problems,
        ) from exc


#: Top-level fields newer services take without a shape our models type (the official SDK's
#: newer releases send `require_approval` lists): accepted and kept as given.
_DOCUMENTED_EXTRAS = frozenset({"require_approval"})


def _refuse_unknown_fields(request: BaseModel) -> None:
    """400 naming each top-level body field the service does not define, rather than storing a
    misspelt block or silently dropping it."""
    known = sorted({*type(request).model_fields, *_DOCUMENTED_EXTRAS})
    extra = request.model_extra or {}
    problems = [
        f"{name}: expected an object or a list (or null), got {type(extra[name]).__name__}"
        for name in _DOCUMENTED_EXTRAS & extra.keys()
        if extra[name] is not None and not isinstance(extra[name], dict | list)
    ]
    for name in extra.keys() - _DOCUMENTED_EXTRAS:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        problems.append(f"{name}: unknown field; {hint}known fields: {', '.join(known)}")
    if problems:
        raise bad_request(
            "Invalid request body: " + "; ".join(problems),
            suggested_fix="Remove or correct the fields listed in 'errors'.",
            errors=problems,
        )


def _refuse_user_id(update: SessionUpdateRequest, current: SessionConfig) -> None:
    """A session belongs to the user it was created for: PATCH takes no other `user_id` (the
    session's own, as in a config read back and sent again, is dropped)."""
    extra = update.model_extra or {}
    if "user_id" not in extra:
        return
    if extra["user_id"] == current.user_id:
        del extra["user_id"]
        return
    raise bad_request(
        "user_id cannot be changed: PATCH takes the blocks of create minus user_id.",
        suggested_fix="Drop user_id from the PATCH body; create a new session for another user.",
        errors=["user_id: not allowed in PATCH"],
    )


def build_config(request: SessionCreateRequest) -> SessionConfig:
    """The stored config of a new session.

    Raises:
        EmulatorError: 400 for unknown top-level fields or an invalid config.
    """
    _refuse_unknown_fields(request)
    data = request.to_wire()
    data.pop("experimental", None)
    return _to_config(data)


def patch_config(current: SessionConfig, update: SessionUpdateRequest) -> SessionConfig:
    """Apply a PATCH: given blocks replace stored ones, `null` removes a stored override.

    Raises:
        EmulatorError: 400 for `user_id`, unknown top-level fields or an invalid config.
    """
    _refuse_user_id(update, current)
    _refuse_unknown_fields(update)
    data = current.model_dump(mode="json", by_alias=True, exclude_none=True)
    sent = update.to_wire()
    for name in (*_CONFIG_FIELDS, *_DOCUMENTED_EXTRAS):
        if name not in sent:
            continue
        if sent[name] is None:
            data.pop(name, None)
        else:
            data[name] = sent[name]
    return _to_config(data)


def _tags(tags: TagsConfig | None, where: str, problems: list[str]) -> None:
    if tags is None:
        return
    for key, values in (("enabled", tags.enabled), ("disabled", tags.disabled)):
        problems.extend(
            f"{where}.{key}: unknown tag {tag!r} (known: {', '.join(TAGS)})"
            for tag in values or []
            if tag not in TAGS
        )


def _check_pins(store: Store, project: str, user_id: str, kit: str, ids: list[str]) -> list[str]:
    """Problems of one toolkit's pins: each must be the user's account of that toolkit, and
    at most one may be SHARED."""
    problems: list[str] = []
    shared = 0
    for account_id in ids:
        account = store.find_account(project, account_id)
        if account is None or account.user_id != user_id or account.toolkit != kit:
            problems.append(
                f"connected_accounts.{kit}: {account_id!r} is not a {kit} account of user "
                f"{user_id!r}"
            )
        elif account.account_type == "SHARED":
            shared += 1
    if shared > 1:
        problems.append(f"connected_accounts.{kit}: at most one SHARED account per toolkit")
    return problems


def check_config(store: Store, project: str, user_id: str, config: SessionConfig) -> None:
    """Refuse configs naming unknown toolkits, tools, tags or foreign accounts (one 400)."""
    catalog = store.catalog
    problems: list[str] = []
    known_kits = ", ".join(sorted(catalog.toolkits))
    if config.toolkits is not None:
        if config.toolkits.enabled is not None and config.toolkits.disabled is not None:
            problems.append("toolkits: give either enable or disable, not both")
        for key, slugs in (
            ("enable", config.toolkits.enabled),
            ("disable", config.toolkits.disabled),
        ):
            problems.extend(
                f"toolkits.{key}: unknown toolkit {slug!r} (known: {known_kits})"
                for slug in slugs or []
                if catalog.toolkit(slug) is None
            )
    for kit, rule in (config.tools or {}).items():
        toolkit = catalog.toolkit(kit)
        if toolkit is None:
            problems.append(f"tools.{kit}: unknown toolkit {kit!r} (known: {known_kits})")
            continue
        for key, slugs in (("enable", rule.enabled), ("disable", rule.disabled)):
            for slug in slugs or []:
                tool = catalog.tool(slug)
                if tool is None or tool.toolkit != toolkit.slug:
                    problems.append(f"tools.{kit}.{key}: {slug!r} is not a tool of {toolkit.slug}")
        _tags(rule.tags, f"tools.{kit}.tags", problems)
    _tags(config.tags, "tags", problems)
    preload = config.preload
    if preload is not None:
        if preload.tools == "all":
            if config.toolkits is None or config.toolkits.enabled is None:
                problems.append(
                    "preload.tools: 'all' needs a toolkit allowlist (toolkits.enable) to bound it"
                )
        else:
            for slug in preload.tools:
                if slug.upper().startswith("LOCAL_"):
                    problems.append(
                        f"preload.tools: {slug!r} is a custom tool; preload it with the "
                        "definition's preload flag instead"
                    )
                elif (tool := catalog.tool(slug)) is None:
                    problems.append(f"preload.tools: unknown tool {slug!r}")
                elif not tool_allowed(config, tool):
                    # Listed nowhere otherwise: get_tools() would silently lack it.
                    problems.append(
                        f"preload.tools: {slug!r} is not a tool this session allows (toolkit "
                        f"{tool.toolkit!r}); enable its toolkit (and tool) or drop it from preload"
                    )
    for kit, auth_config in (config.auth_configs or {}).items():
        toolkit = catalog.toolkit(kit)
        if toolkit is None:
            problems.append(f"auth_configs.{kit}: unknown toolkit {kit!r} (known: {known_kits})")
        elif toolkit.no_auth:
            problems.append(f"auth_configs.{kit}: {kit} needs no auth, so it takes no auth config")
        elif not auth_config.startswith("ac_"):
            problems.append(
                f"auth_configs.{kit}: {auth_config!r} is not an auth config id (ac_...)"
            )
    for kit, ids in (config.connected_accounts or {}).items():
        problems += _check_pins(store, project, user_id, kit, ids)
    multi = config.multi_account
    max_accounts = multi.max_accounts_per_toolkit if multi is not None else None
    if max_accounts is not None and not 2 <= max_accounts <= 10:
        problems.append("multi_account.max_accounts_per_toolkit: must be between 2 and 10")
    if problems:
        accounts_only = all(p.startswith("connected_accounts") for p in problems)
        if accounts_only:
            raise EmulatorError(
                400,
                "ToolRouterV2_InvalidConnectedAccountIds",
                4310,
                "Invalid connected accounts: " + "; ".join(problems),
                suggested_fix="Pin only accounts of this user, connected for that toolkit "
                "(see GET .../toolkits for their ids).",
                errors=problems,
            )
        raise bad_request(
            "Invalid session config: " + "; ".join(problems),
            suggested_fix="Use toolkit and tool slugs of this service (GET .../toolkits, "
            "COMPOSIO_SEARCH_TOOLS) and the tags " + ", ".join(TAGS) + ".",
            errors=problems,
        )
