"""Per-app state and the per-request steps every handler shares: auth, session lookup, body parsing.

`EmulatorState` is what `create_app` builds and what tests reach through `app.state.emulator` (or
`EmulatorServer`): the store, mounts, fault rules, request log, search engine and tool listings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from langchain_toolrouter.emulator.catalog import Catalog
from langchain_toolrouter.emulator.definitions import format_validation_error
from langchain_toolrouter.emulator.errors import EmulatorError, bad_request, session_not_found
from langchain_toolrouter.emulator.faults import Faults, RequestLog
from langchain_toolrouter.emulator.listing import SessionTools, ToolListings
from langchain_toolrouter.emulator.mounts import MountStore
from langchain_toolrouter.emulator.search import ToolSearch
from langchain_toolrouter.emulator.store import SessionRecord, Store
from langchain_toolrouter.emulator.strict_json import read_json

__all__ = [
    "EmulatorState",
    "api_version",
    "authenticate",
    "base_url",
    "parse_body",
    "parse_query",
    "session_for",
]

M = TypeVar("M", bound=BaseModel)


@dataclass
class EmulatorState:
    """Everything one emulator app holds."""

    api_keys: dict[str, str]
    store: Store
    mounts: MountStore
    faults: Faults
    log: RequestLog
    search: ToolSearch = field(default_factory=ToolSearch)
    listings: ToolListings = field(default_factory=ToolListings)

    @property
    def catalog(self) -> Catalog:
        """The app's catalog."""
        return self.store.catalog

    def session_tools(self, record: SessionRecord) -> SessionTools:
        """The session's tools as `GET .../tools` lists them (built once per config version)."""
        return self.listings.session(self.catalog, self.store, record)


def state_of(request: Request) -> EmulatorState:
    """The emulator state of the app serving `request`."""
    state: EmulatorState = request.app.state.emulator
    return state


def base_url(request: Request) -> str:
    """The emulator's own base URL as the client reached it, with a trailing slash."""
    return str(request.base_url)


def api_version(request: Request) -> str:
    """`v3.1` or `v3`, from the path prefix the client used."""
    return "v3.1" if request.url.path.startswith("/api/v3.1/") else "v3"


def authenticate(request: Request) -> str:
    """The project of the request's API key.

    Raises:
        EmulatorError: 401 when `x-api-key` (or `x-user-api-key`) is missing or unknown.
    """
    state = state_of(request)
    key = request.headers.get("x-api-key") or request.headers.get("x-user-api-key")
    if not key:
        raise EmulatorError(
            401,
            "ToolRouterV2_Unauthorized",
            4301,
            "No API key was sent.",
            suggested_fix="Send your project API key in the x-api-key header.",
        )
    project = state.api_keys.get(key)
    if project is None:
        raise EmulatorError(
            401,
            "ToolRouterV2_Unauthorized",
            4301,
            "The API key is not valid for this service.",
            suggested_fix="Use the API key the emulator printed at start-up (or passed to "
            "create_app(api_keys=...)).",
        )
    return project


def session_for(request: Request) -> tuple[str, SessionRecord]:
    """Authenticate, then find the path's session (404 when missing or another project's)."""
    project = authenticate(request)
    session_id = request.path_params["session_id"]
    record = state_of(request).store.session(project, session_id)
    if record is None:
        raise session_not_found(session_id)
    return project, record


def validate(model: type[M], data: Any, *, what: str, strict: bool = False) -> M:
    """Validate `data` with a wire model; 400 with one `field.path: message` line per problem.

    `strict` takes a JSON body's values as they are (`0` is not a boolean, `"1"` not a number),
    as the service does; without it (a query string, whose values are all text) the model's own
    config decides.
    """
    if not isinstance(data, Mapping):
        raise bad_request(
            f"The {what} must be a JSON object, got {type(data).__name__}.",
            suggested_fix=f"Send the {what} as a JSON object.",
            errors=[f"(body): expected an object, got {type(data).__name__}"],
        )
    try:
        return model.model_validate(dict(data), strict=strict or None)
    except ValidationError as exc:
        problems = format_validation_error(exc)
        raise bad_request(
            f"Invalid {what}: " + "; ".join(problems),
            suggested_fix="Correct the fields listed in 'errors' (see the API reference for "
            "this operation).",
            errors=problems,
        ) from exc


async def parse_body(request: Request, model: type[M]) -> M:
    """The JSON body parsed with a wire request model."""
    return validate(model, read_json(await request.body()), what="request body", strict=True)


def parse_query(request: Request, model: type[M], *, lists: tuple[str, ...] = ()) -> M:
    """The query string parsed with a wire model; `lists` are comma-joined array parameters."""
    data: dict[str, Any] = {}
    for key, value in request.query_params.items():
        data[key] = [v for v in value.split(",") if v] if key in lists else value
    return validate(model, data, what="query string")
