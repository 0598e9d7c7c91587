"""A 5,000-tool emulator catalog shaped like real toolkits: 25 apps of 200 tools.

Real toolkits are large and repetitive: GitHub has 871 actions, most of them "create / get /
list / update / delete a <thing>". Each app here has 20 kinds of object and 10 actions on each
(create, get, list, update, delete, search, archive, share, export, activity), with slugs,
names, descriptions and parameters in the service's style (`SLACK_CREATE_A_CHANNEL`, "Creates a
new channel in Slack..."), so a search must tell apart many near-identical tools. Everything is
generated from a seed: the benchmark's process and the emulator's process build the same
catalog.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["APPS", "GeneratedTool", "app_catalog", "generated_tools", "plural"]

#: slug -> (display name, what it is, its 20 kinds of object, comma-separated).
APPS: dict[str, tuple[str, str, str]] = {
    "slack": (
        "Slack",
        "team messaging",
        "channel, message, user, user group, reminder, file, bookmark, pin, emoji, workflow, "
        "canvas, scheduled message, conversation, star, call, team, app, invite, status, "
        "huddle",
    ),
    "jira": (
        "Jira",
        "issue and project tracking",
        "issue, project, sprint, board, epic, comment, worklog, attachment, version, "
        "component, filter, dashboard, label, priority, resolution, workflow, screen, field, "
        "watcher, issue link",
    ),
    "asana": (
        "Asana",
        "work management",
        "task, project, section, portfolio, goal, tag, team, workspace, story, attachment, "
        "custom field, status update, membership, subtask, time entry, rule, webhook, user, "
        "template, allocation",
    ),
    "trello": (
        "Trello",
        "kanban boards",
        "board, card, list, checklist, check item, label, member, action, attachment, "
        "sticker, power-up, organization, webhook, comment, custom field, plugin, "
        "notification, emoji reaction, token, enterprise",
    ),
    "notion": (
        "Notion",
        "docs and wikis",
        "page, database, block, comment, user, property, view, template, workspace, database "
        "row, synced block, link preview, file upload, integration, teamspace, mention, "
        "bookmark, callout, table, embed",
    ),
    "hubspot": (
        "HubSpot",
        "CRM and marketing",
        "contact, company, deal, ticket, note, task, meeting, call log, email campaign, form, "
        "list, pipeline, product, line item, quote, owner, workflow, landing page, blog post, "
        "association",
    ),
    "salesforce": (
        "Salesforce",
        "CRM",
        "account, lead, opportunity, case, contact, campaign, report, dashboard, task, event, "
        "contract, order, price book, quote, asset, solution, territory, forecast, approval, "
        "chatter post",
    ),
    "zendesk": (
        "Zendesk",
        "customer support",
        "ticket, user, organization, group, macro, view, trigger, automation, article, "
        "section, category, satisfaction rating, tag, ticket field, brand, sla policy, "
        "attachment, ticket comment, suspended ticket, side conversation",
    ),
    "intercom": (
        "Intercom",
        "customer messaging",
        "conversation, contact, company, admin, team, tag, segment, note, article, "
        "collection, ticket, ticket type, data attribute, event, message, news item, "
        "subscription type, visitor, help center, phone call",
    ),
    "shopify": (
        "Shopify",
        "online store",
        "product, order, customer, collection, inventory item, location, fulfillment, "
        "discount code, gift card, draft order, refund, transaction, theme, page, blog "
        "article, metafield, price rule, shipping zone, product variant, abandoned checkout",
    ),
    "stripe": (
        "Stripe",
        "payments",
        "customer, payment intent, charge, refund, invoice, subscription, product, price, "
        "coupon, promotion code, payout, balance transaction, dispute, payment method, "
        "checkout session, tax rate, credit note, setup intent, webhook endpoint, payment "
        "link",
    ),
    "dropbox": (
        "Dropbox",
        "file storage",
        "file, folder, shared link, file request, paper doc, team member, group, file "
        "revision, shared folder, tag, file lock, upload session, thumbnail, device session, "
        "namespace, team folder, legal hold, backup, comment, property template",
    ),
    "googledrive": (
        "Google Drive",
        "file storage",
        "file, folder, permission, comment, reply, revision, shared drive, label, shortcut, "
        "change, app property, channel, file copy, export link, access proposal, approval, "
        "trash item, starred file, drive activity, storage quota",
    ),
    "outlook": (
        "Microsoft Outlook",
        "email and calendar",
        "message, mail folder, calendar event, calendar, contact, contact folder, attachment, "
        "mail rule, category, draft, meeting room, task, task list, automatic reply, focused "
        "inbox override, mailbox setting, event reminder, shared calendar, message flag, "
        "signature",
    ),
    "microsoftteams": (
        "Microsoft Teams",
        "chat and meetings",
        "team, channel, chat, chat message, channel message, meeting, member, tab, app "
        "installation, tag, shift, schedule, time off request, online meeting, meeting "
        "recording, transcript, call record, presence, reply, team template",
    ),
    "zoom": (
        "Zoom",
        "video meetings",
        "meeting, webinar, recording, registrant, participant, user, room, poll, chat "
        "channel, chat message, contact, phone call, report, breakout room, meeting template, "
        "tracking field, panelist, survey, whiteboard, clip",
    ),
    "linear": (
        "Linear",
        "issue tracking",
        "issue, project, cycle, team, comment, label, workflow state, milestone, roadmap, "
        "initiative, attachment, document, favorite, notification, reaction, customer "
        "request, triage rule, view, template, integration",
    ),
    "gitlab": (
        "GitLab",
        "code hosting and CI",
        "project, merge request, issue, pipeline, job, branch, tag, commit, runner, "
        "environment, deployment, release, milestone, label, snippet, wiki page, group, "
        "variable, deploy key, protected branch",
    ),
    "confluence": (
        "Confluence",
        "team wiki",
        "page, space, blog post, comment, attachment, label, template, content property, "
        "whiteboard, database, folder, task, restriction, watcher, version, inline comment, "
        "space permission, macro, smart link, content draft",
    ),
    "airtable": (
        "Airtable",
        "spreadsheet database",
        "base, table, record, field, view, comment, webhook, automation, interface, "
        "workspace, collaborator, share link, attachment, sync source, form, extension, "
        "block, enterprise user, audit log event, record template",
    ),
    "mailchimp": (
        "Mailchimp",
        "email marketing",
        "audience, campaign, list member, segment, template, automation, landing page, tag, "
        "merge field, interest category, report, file, ecommerce store, product, order, "
        "signup form, survey, customer journey, webhook, batch operation",
    ),
    "twilio": (
        "Twilio",
        "SMS and voice",
        "message, call, phone number, recording, transcription, conference, queue, messaging "
        "service, verification, conversation, participant, sip domain, short code, address, "
        "application, usage record, media, flow, sync document, video room",
    ),
    "discord": (
        "Discord",
        "community chat",
        "guild, channel, message, role, member, invite, emoji, webhook, thread, reaction, "
        "ban, scheduled event, sticker, stage instance, audit log entry, auto moderation "
        "rule, integration, voice region, application command, forum post",
    ),
    "quickbooks": (
        "QuickBooks",
        "accounting",
        "invoice, customer, vendor, bill, payment, expense, estimate, sales receipt, credit "
        "memo, journal entry, account, item, employee, purchase order, time activity, tax "
        "code, class, department, deposit, transfer",
    ),
    "googlesheets": (
        "Google Sheets",
        "spreadsheets",
        "spreadsheet, sheet, row, column, cell range, named range, chart, filter view, pivot "
        "table, conditional format, data validation rule, protected range, developer "
        "metadata, banded range, slicer, formula, comment, revision, sheet copy, data source",
    ),
}


@dataclass(frozen=True)
class GeneratedTool:
    """One generated tool, with what the benchmark needs to ask for it."""

    slug: str
    name: str
    description: str
    toolkit: str
    action: str
    thing: str
    input_schema: dict[str, Any]
    tags: tuple[str, ...]


def plural(noun: str) -> str:
    """The English plural of a noun phrase (its last word)."""
    head, _, last = noun.rpartition(" ")
    if last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in "aeiou":
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def _upper(words: str) -> str:
    return words.upper().replace(" ", "_").replace("-", "_")


def _article(noun: str) -> str:
    return "an" if noun[0] in "aeiou" else "a"


# Fields an object may have (name, JSON Schema, description template); `{thing}` and `{app}`
# are filled in. Each kind of object gets a few, chosen by the seeded generator.
_FIELDS: tuple[tuple[str, dict[str, Any], str], ...] = (
    (
        "description",
        {"type": "string", "maxLength": 4000},
        "A longer description of the {thing}, in plain text or Markdown.",
    ),
    (
        "owner_id",
        {"type": "string"},
        "The id of the {app} user who owns the {thing}; defaults to the authenticated user.",
    ),
    (
        "due_date",
        {"type": "string", "format": "date"},
        "When the {thing} is due, as an ISO 8601 date (YYYY-MM-DD).",
    ),
    (
        "tags",
        {"type": "array", "items": {"type": "string"}, "maxItems": 50},
        "Tags to attach to the {thing}; unknown tags are created.",
    ),
    (
        "priority",
        {"type": "string", "enum": ["low", "medium", "high", "urgent"]},
        "The priority of the {thing}.",
    ),
    (
        "visibility",
        {"type": "string", "enum": ["private", "team", "public"]},
        "Who can see the {thing}: only its owner, the team, or anyone with access to {app}.",
    ),
    (
        "color",
        {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
        "The display color of the {thing}, as a hex code such as #1f883d.",
    ),
    (
        "notify",
        {"type": "boolean", "default": True},
        "Whether to notify the people the {thing} concerns.",
    ),
    (
        "assignee_ids",
        {"type": "array", "items": {"type": "string"}, "maxItems": 20},
        "The ids of the {app} users to assign the {thing} to.",
    ),
    (
        "parent_id",
        {"type": "string"},
        "The id of the parent the {thing} belongs to, if it is nested.",
    ),
    (
        "position",
        {"type": "integer", "minimum": 0},
        "Where to place the {thing} among its siblings (0 is first).",
    ),
    (
        "starts_at",
        {"type": "string", "format": "date-time"},
        "When the {thing} starts, as an ISO 8601 date-time with a time zone offset.",
    ),
    (
        "ends_at",
        {"type": "string", "format": "date-time"},
        "When the {thing} ends, as an ISO 8601 date-time with a time zone offset.",
    ),
    ("url", {"type": "string", "format": "uri"}, "A link the {thing} points to."),
    (
        "amount",
        {"type": "number", "minimum": 0},
        "The amount of the {thing}, in the account's currency.",
    ),
    (
        "language",
        {"type": "string", "enum": ["en", "es", "fr", "de", "ja", "pt"]},
        "The language of the {thing}'s text.",
    ),
    (
        "metadata",
        {
            "type": "object",
            "properties": {
                "key": {"type": "string", "description": "The metadata key."},
                "value": {"type": "string", "description": "The metadata value."},
            },
            "required": ["key", "value"],
        },
        "A key-value pair stored with the {thing} for your own use.",
    ),
    (
        "email",
        {"type": "string", "format": "email"},
        "The email address of the person the {thing} is for.",
    ),
    (
        "status",
        {"type": "string", "enum": ["draft", "active", "paused", "done"]},
        "The status of the {thing}.",
    ),
    (
        "is_template",
        {"type": "boolean", "default": False},
        "Whether the {thing} can be copied as a template.",
    ),
)


def _field(index: int, app: str, thing: str) -> tuple[str, dict[str, Any]]:
    name, schema, text = _FIELDS[index]
    return name, {**schema, "description": text.format(thing=thing, app=app)}


def _schema(properties: dict[str, dict[str, Any]], required: list[str]) -> dict[str, Any]:
    titled = {
        name: {"title": name.replace("_", " ").title(), **schema}
        for name, schema in properties.items()
    }
    return {"type": "object", "properties": titled, "required": required}


def _page_fields(app: str, things: str) -> dict[str, dict[str, Any]]:
    return {
        "page": {
            "type": "integer",
            "minimum": 1,
            "default": 1,
            "description": f"The page of {things} to return (1 is the first).",
        },
        "per_page": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 30,
            "description": f"How many {things} a page holds (at most 100).",
        },
    }


def _tools_of(app: str, rng: random.Random) -> Iterator[GeneratedTool]:
    title, what, listed = APPS[app]
    things = listed.split(", ")
    upper = _upper(app)
    workspace = {
        "workspace_id": {
            "type": "string",
            "description": f"The id of the {title} workspace; defaults to the user's first one.",
        }
    }
    for thing in things:
        many, key = plural(thing), f"{thing.replace(' ', '_').replace('-', '_')}_id"
        a = _article(thing)
        the_id = {
            "type": "string",
            "description": f"The id of the {thing}, as {upper}_LIST_"
            f"{_upper(many)} or {upper}_SEARCH_{_upper(many)} return it.",
        }
        chosen = rng.sample(range(len(_FIELDS)), k=rng.randint(3, 7))
        fields = dict(_field(i, title, thing) for i in chosen)
        title_field = {
            "type": "string",
            "maxLength": 255,
            "description": f"The name of the {thing}, as {title} shows it.",
        }
        actions: list[tuple[str, str, str, str, dict[str, Any], tuple[str, ...]]] = [
            (
                "create",
                f"CREATE_{_upper(a)}_{_upper(thing)}",
                f"Create {a} {thing}",
                f"Creates a new {thing} in {title} ({what}). Use it when the user wants to add, "
                f"make or open {a} {thing}; it returns the created {thing} with its id.",
                _schema({**workspace, "name": title_field, **fields}, ["name"]),
                (),
            ),
            (
                "get",
                f"GET_{_upper(a)}_{_upper(thing)}",
                f"Get {a} {thing}",
                f"Retrieves one {thing} from {title} by its id, with all of its fields.",
                _schema(
                    {
                        key: the_id,
                        "include_archived": {
                            "type": "boolean",
                            "default": False,
                            "description": f"Whether an archived {thing} is returned too.",
                        },
                    },
                    [key],
                ),
                ("readOnlyHint",),
            ),
            (
                "list",
                f"LIST_{_upper(many)}",
                f"List {many}",
                f"Lists the {many} in {title}, newest first, a page at a time; filter by owner, "
                "status or date.",
                _schema(
                    {
                        **workspace,
                        **_page_fields(title, many),
                        "sort": {
                            "type": "string",
                            "enum": ["created", "updated", "name"],
                            "default": "created",
                            "description": f"How to sort the {many}.",
                        },
                        "since": {
                            "type": "string",
                            "format": "date-time",
                            "description": f"Only {many} changed after this time.",
                        },
                    },
                    [],
                ),
                ("readOnlyHint",),
            ),
            (
                "update",
                f"UPDATE_{_upper(a)}_{_upper(thing)}",
                f"Update {a} {thing}",
                f"Updates fields of an existing {thing} in {title}; fields left out keep their "
                "values.",
                _schema({key: the_id, "name": title_field, **fields}, [key]),
                ("idempotentHint",),
            ),
            (
                "delete",
                f"DELETE_{_upper(a)}_{_upper(thing)}",
                f"Delete {a} {thing}",
                f"Permanently deletes {a} {thing} from {title}. This cannot be undone: archive it "
                "instead to keep it.",
                _schema({key: the_id}, [key]),
                ("destructiveHint",),
            ),
            (
                "search",
                f"SEARCH_{_upper(many)}",
                f"Search {many}",
                f"Searches the {many} in {title} by words in their name or content and returns "
                "the best matches first.",
                _schema(
                    {
                        "query": {
                            "type": "string",
                            "minLength": 1,
                            "description": f"The words to look for in the {many}.",
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 100,
                            "default": 20,
                            "description": "The most results to return.",
                        },
                    },
                    ["query"],
                ),
                ("readOnlyHint",),
            ),
            (
                "archive",
                f"ARCHIVE_{_upper(a)}_{_upper(thing)}",
                f"Archive {a} {thing}",
                f"Archives {a} {thing} in {title}: it is hidden from lists and searches but kept, "
                "and can be restored.",
                _schema(
                    {
                        key: the_id,
                        "reason": {
                            "type": "string",
                            "maxLength": 500,
                            "description": "Why it is archived (shown in its history).",
                        },
                    },
                    [key],
                ),
                ("idempotentHint",),
            ),
            (
                "share",
                f"SHARE_{_upper(a)}_{_upper(thing)}",
                f"Share {a} {thing}",
                f"Shares {a} {thing} in {title} with people by email, with a permission level.",
                _schema(
                    {
                        key: the_id,
                        "emails": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 100,
                            "items": {"type": "string", "format": "email"},
                            "description": "The email addresses to share it with.",
                        },
                        "role": {
                            "type": "string",
                            "enum": ["viewer", "commenter", "editor"],
                            "default": "viewer",
                            "description": "What they may do with it.",
                        },
                        "message": {
                            "type": "string",
                            "maxLength": 2000,
                            "description": "A note sent with the invitation.",
                        },
                    },
                    [key, "emails"],
                ),
                (),
            ),
            (
                "export",
                f"EXPORT_{_upper(many)}",
                f"Export {many}",
                f"Exports the {many} of {title} as a CSV, JSON or XLSX file and returns a "
                "download link.",
                _schema(
                    {
                        **workspace,
                        "format": {
                            "type": "string",
                            "enum": ["csv", "json", "xlsx"],
                            "description": "The file format.",
                        },
                        "fields": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "The fields to include; all when left out.",
                        },
                    },
                    ["format"],
                ),
                ("readOnlyHint",),
            ),
            (
                "activity",
                f"GET_{_upper(thing)}_ACTIVITY",
                f"Get {thing} activity",
                f"Returns the history of {a} {thing} in {title}: who changed what, and when.",
                _schema(
                    {
                        key: the_id,
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": 500,
                            "default": 50,
                            "description": "The most events to return.",
                        },
                    },
                    [key],
                ),
                ("readOnlyHint",),
            ),
        ]
        for action, slug, name, description, schema, tags in actions:
            yield GeneratedTool(
                slug=f"{upper}_{slug}",
                name=name,
                description=description,
                toolkit=app,
                action=action,
                thing=thing,
                input_schema=schema,
                tags=tags,
            )


def generated_tools(apps: int = len(APPS)) -> list[GeneratedTool]:
    """The tools of the first `apps` apps (200 each), the same on every call."""
    rng = random.Random(32)
    return [tool for app in list(APPS)[:apps] for tool in _tools_of(app, rng)]


def app_catalog(apps: int = len(APPS), *, with_built_in: bool = True) -> Any:
    """The emulator `Catalog` of the generated apps (no auth; every tool echoes its
    arguments), with the emulator's own toolkits (GitHub, Gmail, calendar, notes) beside them
    unless `with_built_in` is False."""
    from langchain_toolrouter.emulator.catalog import Catalog, CatalogTool, Toolkit
    from langchain_toolrouter.emulator.toolkits import BUILT_IN

    def run(ctx: Any, args: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "arguments": args}

    by_app: dict[str, list[GeneratedTool]] = {}
    for tool in generated_tools(apps):
        by_app.setdefault(tool.toolkit, []).append(tool)
    toolkits = [
        Toolkit(
            slug=app,
            name=APPS[app][0],
            description=f"{APPS[app][0]}: {APPS[app][1]}.",
            no_auth=True,
            upstream=f"https://{app}.emulator.example",
            tools=tuple(
                CatalogTool(
                    slug=tool.slug,
                    name=tool.name,
                    description=tool.description,
                    toolkit=app,
                    run=run,
                    input_schema=tool.input_schema,
                    tags=tool.tags,
                )
                for tool in tools
            ),
            init_state=lambda user_id: {},
            auth_scheme="NO_AUTH",
        )
        for app, tools in by_app.items()
    ]
    return Catalog([*(BUILT_IN if with_built_in else ()), *toolkits])
