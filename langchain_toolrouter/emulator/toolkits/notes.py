"""A no-auth notes and key-value toolkit: usable at once, with no connection to make."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from langchain_toolrouter.emulator.definitions import (
    ProxyRoute,
    ToolContext,
    ToolFailure,
    Toolkit,
    tool_factory,
)

__all__ = ["TOOLKIT"]

SLUG = "notes"


def _init_state(user_id: str) -> dict[str, Any]:
    del user_id
    return {"notes": {}, "kv": {}, "_counters": {}}


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateNoteArgs(_Closed):
    title: str = Field(min_length=1, max_length=200, description="Title of the note.")
    content: str = Field(default="", description="Body of the note (Markdown).")
    tags: list[str] = Field(default=[], description="Tags to file the note under.")
    pinned: bool = Field(default=False, description="Pinned notes are listed first.")


class ListNotesArgs(_Closed):
    tag: str | None = Field(default=None, description="Only notes carrying this tag.")
    query: str | None = Field(default=None, description="Text to find in the title or content.")
    limit: int = Field(default=20, ge=1, le=100, description="Maximum notes returned.")


class NoteRefArgs(_Closed):
    note_id: str = Field(min_length=1, description="The id of the note, e.g. note_1.")


class KvSetArgs(_Closed):
    key: str = Field(
        pattern=r"^[A-Za-z0-9_.:-]{1,128}$",
        description="Key (letters, digits, '_', '.', ':', '-'; at most 128 characters).",
    )
    value: Any = Field(description="Any JSON value to store under the key.")


class KvGetArgs(_Closed):
    key: str = Field(min_length=1, description="Key to read.")


def create_note(ctx: ToolContext, args: CreateNoteArgs) -> dict[str, Any]:
    note_id = f"note_{ctx.next_id('note')}"
    stamp = ctx.now.isoformat().replace("+00:00", "Z")
    note = {"id": note_id, **args.model_dump(), "created_at": stamp, "updated_at": stamp}
    ctx.state["notes"][note_id] = note
    return dict(note)


def list_notes(ctx: ToolContext, args: ListNotesArgs) -> dict[str, Any]:
    notes = [
        n
        for n in ctx.state["notes"].values()
        if (args.tag is None or args.tag in n["tags"])
        and (not args.query or args.query.lower() in f"{n['title']} {n['content']}".lower())
    ]
    notes.sort(key=lambda n: (not n["pinned"], n["created_at"], n["id"]))
    return {"notes": notes[: args.limit], "total": len(notes)}


def get_note(ctx: ToolContext, args: NoteRefArgs) -> dict[str, Any]:
    note = ctx.state["notes"].get(args.note_id)
    if note is None:
        raise ToolFailure(
            f"Note {args.note_id!r} was not found; NOTES_LIST_NOTES lists the existing ids.",
            status=404,
        )
    return dict(note)


def delete_note(ctx: ToolContext, args: NoteRefArgs) -> dict[str, Any]:
    existed = ctx.state["notes"].pop(args.note_id, None) is not None
    return {"note_id": args.note_id, "deleted": existed}


def kv_set(ctx: ToolContext, args: KvSetArgs) -> dict[str, Any]:
    previous = ctx.state["kv"].get(args.key)
    ctx.state["kv"][args.key] = args.value
    return {"key": args.key, "value": args.value, "previous": previous}


def kv_get(ctx: ToolContext, args: KvGetArgs) -> dict[str, Any]:
    if args.key not in ctx.state["kv"]:
        raise ToolFailure(
            f"Key {args.key!r} is not set; store it first with NOTES_KV_SET.", status=404
        )
    return {"key": args.key, "value": ctx.state["kv"][args.key]}


_tool = tool_factory(SLUG)


TOOLS = (
    _tool(
        "NOTES_CREATE_NOTE",
        "Create note",
        "Creates (writes down, saves) a new note with a title, Markdown content and tags in the "
        "user's notebook.",
        CreateNoteArgs,
        create_note,
    ),
    _tool(
        "NOTES_LIST_NOTES",
        "List notes",
        "Lists or searches the user's notes, pinned first, optionally by tag or matching text.",
        ListNotesArgs,
        list_notes,
        "readOnlyHint",
        "idempotentHint",
    ),
    _tool(
        "NOTES_GET_NOTE",
        "Get note",
        "Reads one note by its id.",
        NoteRefArgs,
        get_note,
        "readOnlyHint",
        "idempotentHint",
    ),
    _tool(
        "NOTES_DELETE_NOTE",
        "Delete note",
        "Deletes a note by its id; deleting a missing note reports deleted=false.",
        NoteRefArgs,
        delete_note,
        "destructiveHint",
        "idempotentHint",
    ),
    _tool(
        "NOTES_KV_SET",
        "Set key-value",
        "Saves (stores, remembers) a JSON value under a key in the user's key-value store, replacing any "
        "previous value.",
        KvSetArgs,
        kv_set,
        "idempotentHint",
    ),
    _tool(
        "NOTES_KV_GET",
        "Get key-value",
        "Reads the JSON value stored under a key in the user's key-value store.",
        KvGetArgs,
        kv_get,
        "readOnlyHint",
        "idempotentHint",
    ),
)

TOOLKIT = Toolkit(
    slug=SLUG,
    name="Notes",
    description="A personal notebook and key-value store; needs no connection.",
    no_auth=True,
    auth_scheme="NO_AUTH",
    upstream="https://notes.emulator.example",
    tools=TOOLS,
    init_state=_init_state,
    categories=("productivity",),
    proxy_routes=(
        ProxyRoute("GET", re.compile(r"^/notes$"), TOOLS[1].slug),
        ProxyRoute("POST", re.compile(r"^/notes$"), TOOLS[0].slug, status=201),
        ProxyRoute("GET", re.compile(r"^/notes/(?P<note_id>[^/]+)$"), TOOLS[2].slug),
        ProxyRoute("DELETE", re.compile(r"^/notes/(?P<note_id>[^/]+)$"), TOOLS[3].slug),
        ProxyRoute("GET", re.compile(r"^/kv/(?P<key>[^/]+)$"), TOOLS[5].slug),
        ProxyRoute("PUT", re.compile(r"^/kv/(?P<key>[^/]+)$"), TOOLS[4].slug),
    ),
)
