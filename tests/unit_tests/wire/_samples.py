"""Response bodies shaped like the wire reference, shared by the wire unit tests."""

from __future__ import annotations

from typing import Any

SESSION_ID = "trs_PTncEoK-r2ZE"

SESSION: dict[str, Any] = {
    "session_id": SESSION_ID,
    "mcp": {"type": "http", "url": f"https://backend.composio.dev/tool_router/{SESSION_ID}/mcp"},
    "tool_router_tools": ["COMPOSIO_SEARCH_TOOLS", "COMPOSIO_MULTI_EXECUTE_TOOL"],
    "config": {
        "user_id": "user-1",
        "toolkits": {"enabled": ["gmail", "github"]},
        "connected_accounts": {"gmail": ["ca_1"]},
        "manage_connections": {"enabled": True, "enable_wait_for_connections": False},
        "tags": {"enabled": ["readOnlyHint"]},
        "workbench": {"enable": True, "proxy_execution_enabled": False},
        "execute": {"enable_multi_execute": True},
        "preload": {"tools": []},
        "search": {"enable": True},
    },
    "config_version": 1,
    "experimental": {"assistive_prompt": "Use the tools."},
    "warnings": [],
}

EXECUTE_OK: dict[str, Any] = {
    "data": {"messages": [{"id": "m1"}]},
    "error": None,
    "log_id": "log_abc",
    "result_type": "completed",
}

LINK: dict[str, Any] = {
    "connected_account_id": "ca_new",
    "link_token": "lt_123",
    "redirect_url": "https://app.composio.dev/link/lt_123",
}

PROXY: dict[str, Any] = {
    "status": 200.0,
    "data": {"ok": True},
    "headers": {"content-type": "application/json"},
}


def toolkit(slug: str) -> dict[str, Any]:
    return {
        "slug": slug,
        "name": slug.title(),
        "enabled": True,
        "is_no_auth": False,
        "composio_managed_auth_schemes": ["OAUTH2"],
        "meta": {"description": f"{slug} toolkit", "logo": "https://logo"},
    }


def tool(slug: str) -> dict[str, Any]:
    return {
        "slug": slug,
        "name": slug,
        "description": f"Runs {slug}",
        "input_parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
        "toolkit": {"slug": "composio", "name": "Composio"},
        "tags": [],
    }


def mount_item(path: str) -> dict[str, Any]:
    return {
        "mount_relative_path": path,
        "sandbox_mount_prefix": "/mnt/files",
        "size": 12.0,
        "last_modified": "2026-01-01T00:00:00Z",
    }


TOOLKIT_PAGE: dict[str, Any] = {
    "items": [toolkit("gmail")],
    "current_page": 1.0,
    "total_items": 1.0,
    "total_pages": 1.0,
    "next_cursor": None,
}
TOOL_PAGE: dict[str, Any] = {
    "items": [tool("COMPOSIO_SEARCH_TOOLS")],
    "current_page": 1,
    "total_items": 1,
    "total_pages": 1,
    "next_cursor": None,
}
SEARCH: dict[str, Any] = {
    "success": True,
    "error": None,
    "results": [
        {
            "index": 1,
            "use_case": "send an email",
            "primary_tool_slugs": ["GMAIL_SEND_EMAIL"],
            "related_tool_slugs": [],
            "toolkits": ["gmail"],
        }
    ],
    "tool_schemas": {
        "GMAIL_SEND_EMAIL": {
            "tool_slug": "GMAIL_SEND_EMAIL",
            "toolkit": "gmail",
            "hasFullSchema": True,
        }
    },
    "toolkit_connection_statuses": [],
    "next_steps_guidance": [],
    "session": {"id": "wf_1", "generate_id": False, "instructions": "keep it"},
}
MOUNT_PAGE: dict[str, Any] = {"items": [mount_item("a.txt")], "next_cursor": None}
DOWNLOAD: dict[str, Any] = {
    "download_url": "https://storage.test/get?sig=1",
    "expires_at": "2026-01-01T01:00:00Z",
    "mount_relative_path": "a.txt",
    "sandbox_mount_prefix": "/mnt/files",
}
UPLOAD: dict[str, Any] = {
    "upload_url": "https://storage.test/put?sig=1",
    "expires_at": "2026-01-01T01:00:00Z",
    "mount_relative_path": "data/out.csv",
    "sandbox_mount_prefix": "/mnt/files",
}
MOUNT_DELETE: dict[str, Any] = {
    "mount_relative_path": "a.txt",
    "sandbox_mount_prefix": "/mnt/files",
}
CONFIG_HISTORY: dict[str, Any] = {
    "items": [
        {
            "config": SESSION["config"],
            "created_at": "2026-01-02T00:00:00Z",
            "is_current": True,
            "version": 2.0,
        },
        {
            "config": {"user_id": "user-1"},
            "created_at": "2026-01-01T00:00:00Z",
            "is_current": False,
            "version": 1,
        },
    ],
    "current_page": 1,
    "total_items": 2,
    "total_pages": 1,
    "next_cursor": None,
}
SESSION_DELETE: dict[str, Any] = {"session_id": SESSION_ID, "deleted": True}


def error_body(status: int, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"message": message, "status": status, **extra}}
