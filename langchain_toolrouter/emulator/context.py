"""Per-app state and the per-request steps every handler shares: auth, session lookup, body parsing.

`EmulatorState` is what `create_app` builds and what tests reach through `app.state.emulator` (or
`EmulatorServer`): the store, mounts, fault rules, request log, search engine and tool listings.
"""

from __future__ import annotations

import json
import math
import re
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

#: Deepest array/object nesting a JSON body may have: far beyond any real request, well below
#: what parsing, validation and the response's serialization can handle.
MAX_BODY_DEPTH = 128


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


async def _json(request: Request) -> Any:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        # Strict UTF-8 (RFC 8259): json.loads on bytes would let encoded surrogates through.
        text = raw.decode("utf-8")
        data = json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except RecursionError as exc:
        raise _too_deep() from exc
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as exc:
        raise bad_request(
            f"The request body is not valid JSON: {exc}",
            suggested_fix="Send a JSON object in UTF-8 with Content-Type: application/json.",
            errors=["(body): invalid JSON"],
        ) from exc
    # Nesting is at most the number of brackets: most bodies need no walk at all.
    if text.count("[") + text.count("{") > MAX_BODY_DEPTH and _depth_exceeds(text, MAX_BODY_DEPTH):
        raise _too_deep()
    if _SURROGATE_ESCAPE.search(text):
        _refuse_lone_surrogates(data)
    return data


#: A `\uD800`-`\uDFFF` escape: a lone one would be stored as text that cannot be encoded
#: again (every later answer holding it would fail), so such bodies are checked string by string.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(data: Any) -> None:
    """400 naming the first string (key or value) with a lone UTF-16 surrogate."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                path = f"{where}.{key}" if where else str(key)
                if not _encodable(key):
                    raise _lone_surrogate(path)
                stack.append((value, path))
        elif isinstance(item, list):
            stack.extend(
                (value, f"{where}.{i}" if where else str(i)) for i, value in enumerate(item)
            )
        elif isinstance(item, str) and not _encodable(item):
            raise _lone_surrogate(where or "(body)")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _lone_surrogate(where: str) -> EmulatorError:
    printable = where.encode("utf-8", "backslashreplace").decode("ascii")
    return bad_request(
        f"The request body has a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its "
        f"pair) at {printable}; it is not text.",
        suggested_fix="Escape characters outside the BMP as a surrogate pair (e.g. "
        "\\ud83d\\ude00), or send them as UTF-8.",
        errors=[f"{printable}: lone surrogate"],
    )


def _not_json(constant: str) -> float:
    """Python's reader takes NaN and Infinity; JSON (RFC 8259) has neither."""
    raise ValueError(f"{constant} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError(f"{text} is out of the range of a JSON number")
    return value


def _too_deep() -> EmulatorError:
    return bad_request(
        f"The request body is not valid JSON: it is nested more than {MAX_BODY_DEPTH} levels deep.",
        suggested_fix="Send a JSON object with fewer levels of nesting.",
        errors=["(body): invalid JSON, nested too deeply"],
    )


_INNERMOST = re.compile(r"\{\}|\[\]")
_QUOTES_AND_BRACKETS = {code: None for code in range(128) if chr(code) not in '"[]{}'}


def _depth_exceeds(text: str, limit: int) -> bool:
    """Whether the arrays/objects of a valid JSON text nest deeper than `limit`.

    Read off the text with string methods, not by walking the parsed value (millions of small
    objects took seconds): escaped backslashes and quotes out, quotes and brackets alone kept,
    the strings (every other piece between quotes) dropped; then one level of innermost pairs
    is removed per pass, and the text nests as deep as the passes it takes to empty.
    """
    plain = text.replace("\\\\", "").replace('\\"', "").translate(_QUOTES_AND_BRACKETS)
    brackets = "".join(plain.split('"')[::2])
    for _ in range(limit):
        if not brackets:
            return False
        brackets = _INNERMOST.sub("", brackets)
    return bool(brackets)


def validate(model: type[M], data: Any, *, what: str) -> M:
    """Validate `data` with a wire model; 400 with one `field.path: message` line per problem."""
    if not isinstance(data, Mapping):
        raise bad_request(
            f"The {what} must be a JSON object, got {type(data).__name__}.",
            suggested_fix=f"Send the {what} as a JSON object.",
            errors=[f"(body): expected an object, got {type(data).__name__}"],
        )
    try:
        return model.model_validate(dict(data))
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
    return validate(model, await _json(request), what="request body")


def parse_query(request: Request, model: type[M], *, lists: tuple[str, ...] = ()) -> M:
    """The query string parsed with a wire model; `lists` are comma-joined array parameters."""
    data: dict[str, Any] = {}
    for key, value in request.query_params.items():
        data[key] = [v for v in value.split(",") if v] if key in lists else value
    return validate(model, data, what="query string")
