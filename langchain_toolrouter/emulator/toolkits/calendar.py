"""A Google-Calendar-like toolkit: create, list and delete events on the primary calendar."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from langchain_toolrouter.emulator.definitions import (
    ProxyRoute,
    ToolContext,
    ToolFailure,
    Toolkit,
    tool_factory,
)

__all__ = ["TOOLKIT"]

SLUG = "googlecalendar"


def _init_state(user_id: str) -> dict[str, Any]:
    del user_id
    return {"events": {}, "_counters": {}}


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Attendee(_Closed):
    email: str = Field(
        pattern=r"^[^@\s]+@[^@\s]+$",
        description="The attendee's email address.",
        json_schema_extra={"format": "email"},
    )
    display_name: str | None = Field(default=None, description="The attendee's name.")
    optional: bool = Field(default=False, description="Whether attendance is optional.")


class ReminderOverride(_Closed):
    method: Literal["email", "popup"] = Field(description="How the reminder is delivered.")
    minutes: int = Field(ge=0, le=40320, description="Minutes before the event start.")


class Reminders(_Closed):
    use_default: bool = Field(default=True, description="Use the calendar's default reminders.")
    overrides: list[ReminderOverride] = Field(
        default=[], max_length=5, description="Custom reminders (at most 5)."
    )


class CreateEventArgs(_Closed):
    summary: str = Field(min_length=1, description="Title of the event.", examples=["Team sync"])
    start_datetime: AwareDatetime = Field(
        description="Event start as an RFC 3339 timestamp with an offset.",
        examples=["2026-03-01T10:00:00Z"],
    )
    event_duration_minutes: int = Field(
        default=30, ge=1, le=1440, description="Length of the event in minutes."
    )
    description: str | None = Field(default=None, description="Description of the event.")
    location: str | None = Field(default=None, description="Free-form location.")
    attendees: list[Attendee] = Field(default=[], description="People to invite.")
    reminders: Reminders | None = Field(default=None, description="Reminder settings.")
    visibility: Literal["default", "public", "private"] = Field(
        default="default", description="Who can see the event details."
    )


class ListEventsArgs(_Closed):
    time_min: AwareDatetime | None = Field(
        default=None, description="Only events ending after this RFC 3339 time."
    )
    time_max: AwareDatetime | None = Field(
        default=None, description="Only events starting before this RFC 3339 time."
    )
    q: str | None = Field(
        default=None, description="Free text matched against summary, description and location."
    )
    max_results: int = Field(default=250, ge=1, le=2500, description="Maximum events returned.")
    order_by: Literal["startTime", "updated"] = Field(
        default="startTime", description="Sort order."
    )


class DeleteEventArgs(_Closed):
    event_id: str = Field(min_length=1, description="The id of the event to delete.")


def _rfc3339(value: datetime) -> str:
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def _out_of_range(field: str) -> ToolFailure:
    return ToolFailure(
        f"{field} is outside the supported date range (years 1 to 9999 in UTC, end of the "
        "event included); give a nearer RFC 3339 timestamp.",
        status=422,
    )


def _span(args: CreateEventArgs) -> tuple[str, str]:
    """Start and end of the event as UTC RFC 3339 strings."""
    try:
        end = args.start_datetime + timedelta(minutes=args.event_duration_minutes)
        return _rfc3339(args.start_datetime), _rfc3339(end)
    except OverflowError as exc:
        raise _out_of_range("start_datetime") from exc


def _bound(value: datetime | None, field: str) -> str | None:
    """A list filter bound as a UTC RFC 3339 string."""
    if value is None:
        return None
    try:
        return _rfc3339(value)
    except OverflowError as exc:
        raise _out_of_range(field) from exc


def create_event(ctx: ToolContext, args: CreateEventArgs) -> dict[str, Any]:
    start, end = _span(args)
    number = ctx.next_id("event")
    event_id = f"evt{number:05d}"
    event = {
        "id": event_id,
        "status": "confirmed",
        "summary": args.summary,
        "description": args.description,
        "location": args.location,
        "start": {"dateTime": start},
        "end": {"dateTime": end},
        "attendees": [
            {**a.model_dump(exclude_none=True), "responseStatus": "needsAction"}
            for a in args.attendees
        ],
        "reminders": (args.reminders or Reminders()).model_dump(),
        "visibility": args.visibility,
        "htmlLink": f"https://calendar.example/event?eid={event_id}",
        "created": _rfc3339(ctx.now),
        "updated": _rfc3339(ctx.now),
    }
    ctx.state["events"][event_id] = event
    return dict(event)


def list_events(ctx: ToolContext, args: ListEventsArgs) -> dict[str, Any]:
    events = list(ctx.state["events"].values())
    floor = _bound(args.time_min, "time_min")
    if floor is not None:
        events = [e for e in events if e["end"]["dateTime"] > floor]
    ceiling = _bound(args.time_max, "time_max")
    if ceiling is not None:
        events = [e for e in events if e["start"]["dateTime"] < ceiling]
    if args.q:
        needle = args.q.lower()
        events = [
            e
            for e in events
            if needle
            in " ".join(str(e[k] or "") for k in ("summary", "description", "location")).lower()
        ]
    key = "updated" if args.order_by == "updated" else "start"
    events.sort(key=lambda e: e[key] if key == "updated" else e["start"]["dateTime"])
    return {"items": events[: args.max_results], "kind": "calendar#events", "timeZone": "UTC"}


def delete_event(ctx: ToolContext, args: DeleteEventArgs) -> dict[str, Any]:
    if ctx.state["events"].pop(args.event_id, None) is None:
        raise ToolFailure(
            f"Event {args.event_id!r} was not found (or was already deleted); list events with "
            "GOOGLECALENDAR_EVENTS_LIST to get valid ids.",
            status=404,
        )
    return {"deleted": True, "event_id": args.event_id}


_tool = tool_factory(SLUG, scopes=("https://www.googleapis.com/auth/calendar",))


TOOLS = (
    _tool(
        "GOOGLECALENDAR_CREATE_EVENT",
        "Create Event",
        "Creates (schedules) an event or meeting on the user's primary calendar with a start "
        "time, duration, attendees and reminders; invites the attendees.",
        CreateEventArgs,
        create_event,
        "openWorldHint",
    ),
    _tool(
        "GOOGLECALENDAR_EVENTS_LIST",
        "List Events",
        "Lists the events and meetings on the user's primary calendar (what is on it) within a "
        "time range, such as today, tomorrow or next week, or matching text, "
        "sorted by start time.",
        ListEventsArgs,
        list_events,
        "readOnlyHint",
        "idempotentHint",
        "openWorldHint",
    ),
    _tool(
        "GOOGLECALENDAR_DELETE_EVENT",
        "Delete Event",
        "Deletes (cancels) an event or meeting on the user's primary calendar by its id.",
        DeleteEventArgs,
        delete_event,
        "destructiveHint",
        "openWorldHint",
    ),
)

_EVENTS = r"/calendar/v3/calendars/primary/events"

TOOLKIT = Toolkit(
    slug=SLUG,
    name="Google Calendar",
    description="Calendar: schedule, list and cancel events.",
    no_auth=False,
    upstream="https://www.googleapis.example",
    tools=TOOLS,
    init_state=_init_state,
    categories=("productivity",),
    proxy_routes=(
        ProxyRoute("GET", re.compile(rf"^{_EVENTS}$"), TOOLS[1].slug),
        ProxyRoute("POST", re.compile(rf"^{_EVENTS}$"), TOOLS[0].slug),
        ProxyRoute("DELETE", re.compile(rf"^{_EVENTS}/(?P<event_id>[^/]+)$"), TOOLS[2].slug),
    ),
)
