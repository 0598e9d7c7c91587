"""A Gmail-like mail toolkit: send, list (with a small query language) and read messages.

The user's address is their user id when it is an email, else `<user_id>@mail.example`. The inbox
starts with two welcome messages; mail sent to the user's own address also lands in the inbox.
Reading a message removes its UNREAD label.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from langchain_toolrouter.emulator.definitions import (
    ProxyRoute,
    ToolContext,
    ToolFailure,
    Toolkit,
    tool_factory,
)

__all__ = ["TOOLKIT"]

SLUG = "gmail"
_EMAIL = r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$"


def _address(user_id: str) -> str:
    if re.match(_EMAIL, user_id):
        return user_id
    local = re.sub(r"[^A-Za-z0-9._-]+", ".", user_id).strip(".") or "user"
    return f"{local}@mail.example"


def _message(
    number: int,
    *,
    sender: str,
    to: str,
    subject: str,
    body: str,
    labels: list[str],
    date: str,
) -> dict[str, Any]:
    return {
        "messageId": f"msg{number:06d}",
        "threadId": f"thr{number:06d}",
        "sender": sender,
        "to": to,
        "cc": [],
        "subject": subject,
        "messageText": body,
        "preview": {"subject": subject, "body": body[:100]},
        "labelIds": labels,
        "messageTimestamp": date,
    }


def _init_state(user_id: str) -> dict[str, Any]:
    me = _address(user_id)
    return {
        "address": me,
        "messages": [
            _message(
                1,
                sender="team@mail.example",
                to=me,
                subject="Welcome to your mailbox",
                body="Hello! This mailbox is served by the langchain-toolrouter emulator.",
                labels=["INBOX", "UNREAD"],
                date="2026-01-01T09:00:00Z",
            ),
            _message(
                2,
                sender="billing@shop.example",
                to=me,
                subject="Your invoice #1042",
                body="Thanks for your order. The invoice total is 42.00 EUR, due in 14 days.",
                labels=["INBOX", "UNREAD", "CATEGORY_UPDATES"],
                date="2026-01-02T10:30:00Z",
            ),
        ],
        "_counters": {"message": 2},
    }


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SendEmailArgs(_Closed):
    recipient_email: str = Field(
        pattern=_EMAIL,
        description="Email address of the primary recipient.",
        examples=["john@doe.com"],
        json_schema_extra={"format": "email"},
    )
    subject: str = Field(default="", description="Subject line of the email.")
    body: str = Field(min_length=1, description="Body of the email, plain text or HTML.")
    is_html: bool = Field(default=False, description="Set to true when body is HTML.")
    cc: list[str] = Field(default=[], description="Carbon copy recipients' addresses.")
    bcc: list[str] = Field(default=[], description="Blind carbon copy recipients.")


class FetchEmailsArgs(_Closed):
    query: str | None = Field(
        default=None,
        description="Gmail-style search: words, from:<addr>, to:<addr>, subject:<word>, "
        "is:unread, label:<LABEL>; terms are ANDed.",
        examples=["from:billing@shop.example is:unread"],
    )
    label_ids: list[str] = Field(
        default=["INBOX"],
        description="Only messages carrying all of these labels, e.g. INBOX, SENT, UNREAD.",
    )
    max_results: int = Field(default=10, ge=1, le=500, description="Maximum messages to return.")
    page_token: str | None = Field(default=None, description="nextPageToken of a previous call.")
    include_payload: bool = Field(default=True, description="Include the message text.")


class FetchMessageArgs(_Closed):
    message_id: str = Field(min_length=1, description="The id of the message to fetch.")
    format: Literal["minimal", "full", "metadata"] = Field(
        default="full", description="How much of the message to return."
    )


def _matches(message: dict[str, Any], term: str) -> bool:
    key, _, value = term.partition(":")
    value = value.lower()
    if key == "from" and value:
        return value in message["sender"].lower()
    if key == "to" and value:
        return value in message["to"].lower()
    if key == "subject" and value:
        return value in message["subject"].lower()
    if key == "is" and value == "unread":
        return "UNREAD" in message["labelIds"]
    if key == "label" and value:
        return value.upper() in message["labelIds"]
    text = f"{message['subject']} {message['messageText']} {message['sender']}".lower()
    return term.lower() in text


def send_email(ctx: ToolContext, args: SendEmailArgs) -> dict[str, Any]:
    number = ctx.next_id("message")
    me = ctx.state["address"]
    date = ctx.now.isoformat().replace("+00:00", "Z")
    sent = _message(
        number,
        sender=me,
        to=args.recipient_email,
        subject=args.subject,
        body=args.body,
        labels=["SENT"],
        date=date,
    )
    sent["cc"] = list(args.cc)
    ctx.state["messages"].append(sent)
    if args.recipient_email.lower() == me.lower():
        copy = dict(sent, labelIds=["INBOX", "UNREAD"])
        copy["messageId"] = f"msg{ctx.next_id('message'):06d}"
        ctx.state["messages"].append(copy)
    return {"id": sent["messageId"], "threadId": sent["threadId"], "labelIds": ["SENT"]}


def _page_start(token: str) -> int:
    """The offset a nextPageToken stands for (ASCII digits only: `"²".isdigit()` is True)."""
    if not (token.isascii() and token.isdigit() and len(token) <= 18):
        raise ToolFailure(
            f"page_token {token!r} is not a token this mailbox issued; pass the "
            "nextPageToken of the previous response unchanged."
        )
    return int(token)


def fetch_emails(ctx: ToolContext, args: FetchEmailsArgs) -> dict[str, Any]:
    terms = (args.query or "").split()
    found = [
        m
        for m in reversed(ctx.state["messages"])
        if all(label in m["labelIds"] for label in args.label_ids)
        and all(_matches(m, term) for term in terms)
    ]
    start = _page_start(args.page_token) if args.page_token else 0
    page = found[start : start + args.max_results]
    if not args.include_payload:
        page = [{k: v for k, v in m.items() if k != "messageText"} for m in page]
    end = start + args.max_results
    return {
        "messages": page,
        "resultSizeEstimate": len(found),
        "nextPageToken": str(end) if end < len(found) else None,
    }


def fetch_message(ctx: ToolContext, args: FetchMessageArgs) -> dict[str, Any]:
    for message in ctx.state["messages"]:
        if message["messageId"] == args.message_id:
            if "UNREAD" in message["labelIds"]:
                message["labelIds"] = [label for label in message["labelIds"] if label != "UNREAD"]
            if args.format == "minimal":
                return {"messageId": message["messageId"], "labelIds": list(message["labelIds"])}
            if args.format == "metadata":
                return {k: v for k, v in message.items() if k != "messageText"}
            return dict(message)
    raise ToolFailure(
        f"Message {args.message_id!r} was not found; list messages with GMAIL_FETCH_EMAILS "
        "to get valid ids.",
        status=404,
    )


_tool = tool_factory(SLUG, scopes=("https://www.googleapis.com/auth/gmail.modify",))


TOOLS = (
    _tool(
        "GMAIL_SEND_EMAIL",
        "Send Email",
        "Sends an email from the user's mailbox to a recipient, with optional cc/bcc, subject "
        "and a plain text or HTML body.",
        SendEmailArgs,
        send_email,
        "openWorldHint",
    ),
    _tool(
        "GMAIL_FETCH_EMAILS",
        "Fetch emails",
        "Lists and searches the latest (most recent) emails in the user's mailbox (inbox), newest "
        "first, filtered by labels and "
        "a Gmail-style query (from:, to:, subject:, is:unread, label:).",
        FetchEmailsArgs,
        fetch_emails,
        "readOnlyHint",
        "openWorldHint",
    ),
    _tool(
        "GMAIL_FETCH_MESSAGE_BY_MESSAGE_ID",
        "Fetch message by message ID",
        "Reads one email by its message id and marks it as read.",
        FetchMessageArgs,
        fetch_message,
        "idempotentHint",
        "openWorldHint",
    ),
)

_MESSAGES = r"/gmail/v1/users/me/messages"

TOOLKIT = Toolkit(
    slug=SLUG,
    name="Gmail",
    description="Email: send, search and read messages in the user's mailbox.",
    no_auth=False,
    upstream="https://gmail.googleapis.example",
    tools=TOOLS,
    init_state=_init_state,
    categories=("collaboration & communication",),
    proxy_routes=(
        ProxyRoute("GET", re.compile(rf"^{_MESSAGES}$"), TOOLS[1].slug),
        ProxyRoute("POST", re.compile(rf"^{_MESSAGES}/send$"), TOOLS[0].slug),
        ProxyRoute("GET", re.compile(rf"^{_MESSAGES}/(?P<message_id>[^/]+)$"), TOOLS[2].slug),
    ),
)
