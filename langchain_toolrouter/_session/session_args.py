"""Friendly `create_session` arguments turned into the wire request (pure, no I/O).

Users write `toolkits=["github"]`, `connected_accounts={"github": "ca_1"}`,
`manage_connections=True`; the service wants `{"enable": [...]}`, lists of ids and
`{"enable": true}` (the request forms of the session API). Anything else given is passed on
as the request form, and the wire model checks it; a value of the wrong kind is an error
naming the argument and the accepted forms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["session_request"]


def _is_str_list(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(item, str) for item in value)
    )


def _bad(name: str, value: Any, accepted: str) -> TypeError:
    return TypeError(f"{name}: expected {accepted}, got {type(value).__name__} {value!r}")


def _enable_list(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"enable": [value]}
    if _is_str_list(value):
        return {"enable": list(value)}
    if isinstance(value, Mapping):
        return dict(value)
    raise _bad(name, value, "a list of slugs or {'enable': [...]} / {'disable': [...]}")


def _flag(name: str, value: Any, key: str) -> dict[str, Any]:
    if isinstance(value, bool):
        return {key: value}
    if isinstance(value, Mapping):
        return dict(value)
    raise _bad(name, value, f"True/False or a {{'{key}': ...}} mapping")


def _tools(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad(
            "tools",
            value,
            "a mapping of toolkit slug -> list of tool slugs (or {'disable': [...]}, "
            "{'tags': [...]})",
        )
    out: dict[str, Any] = {}
    for toolkit, spec in value.items():
        if isinstance(spec, str) or _is_str_list(spec):
            out[toolkit] = {"enable": [spec] if isinstance(spec, str) else list(spec)}
        elif isinstance(spec, Mapping):
            out[toolkit] = dict(spec)
        else:
            raise _bad(f"tools[{toolkit!r}]", spec, "a list of tool slugs or a filter mapping")
    return out


def _accounts(value: Any) -> dict[str, list[str]]:
    if not isinstance(value, Mapping):
        raise _bad("connected_accounts", value, "a mapping of toolkit slug -> account id(s)")
    out: dict[str, list[str]] = {}
    for toolkit, ids in value.items():
        if isinstance(ids, str):
            out[toolkit] = [ids]
        elif _is_str_list(ids):
            out[toolkit] = list(ids)
        else:
            raise _bad(f"connected_accounts[{toolkit!r}]", ids, "an account id or a list of ids")
    return out


def _preload(value: Any) -> dict[str, Any]:
    if value == "all":
        return {"tools": "all"}
    if isinstance(value, str):
        value = [value]
    if _is_str_list(value):
        local = [slug for slug in value if slug.upper().startswith("LOCAL_")]
        if local:
            msg = (
                f"preload names custom tools {local}: preload those with "
                "@custom_tool(preload=True) instead (the service rejects LOCAL_ slugs here)"
            )
            raise ValueError(msg)
        return {"tools": list(value)}
    if isinstance(value, Mapping):
        return dict(value)
    raise _bad("preload", value, "'all', a list of tool slugs or {'tools': ...}")


def session_request(
    user_id: str,
    *,
    toolkits: Any = None,
    tools: Any = None,
    tags: Any = None,
    auth_configs: Mapping[str, str] | None = None,
    connected_accounts: Any = None,
    manage_connections: Any = None,
    workbench: Any = None,
    preload: Any = None,
    search: Any = None,
    multi_execute: Any = None,
    multi_account: Any = None,
    experimental: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The `create_session` body for friendly arguments; `None` arguments are not sent."""
    if not isinstance(user_id, str) or not user_id:
        msg = f"user_id must be a non-empty string naming your user, got {user_id!r}"
        raise ValueError(msg)
    body: dict[str, Any] = {"user_id": user_id}
    if toolkits is not None:
        body["toolkits"] = _enable_list("toolkits", toolkits)
    if tools is not None:
        body["tools"] = _tools(tools)
    if tags is not None:
        if isinstance(tags, str):
            tags = [tags]
        if not (_is_str_list(tags) or isinstance(tags, Mapping)):
            raise _bad("tags", tags, "a list of tags or {'enable': [...], 'disable': [...]}")
        body["tags"] = list(tags) if _is_str_list(tags) else dict(tags)
    if auth_configs is not None:
        if not isinstance(auth_configs, Mapping):
            raise _bad("auth_configs", auth_configs, "a mapping of toolkit slug -> auth config id")
        body["auth_configs"] = dict(auth_configs)
    if connected_accounts is not None:
        body["connected_accounts"] = _accounts(connected_accounts)
    if manage_connections is not None:
        body["manage_connections"] = _flag("manage_connections", manage_connections, "enable")
    if workbench is not None:
        body["workbench"] = _flag("workbench", workbench, "enable")
    if preload is not None:
        body["preload"] = _preload(preload)
    if search is not None:
        body["search"] = _flag("search", search, "enable")
    if multi_execute is not None:
        body["execute"] = _flag("multi_execute", multi_execute, "enable_multi_execute")
    if multi_account is not None:
        body["multi_account"] = _flag("multi_account", multi_account, "enable")
    if experimental is not None:
        if not isinstance(experimental, Mapping):
            raise _bad("experimental", experimental, "a mapping of experimental options")
        if experimental:
            body["experimental"] = dict(experimental)
    return body
