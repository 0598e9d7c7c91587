"""How friendly client arguments become wire payloads, and how pages are followed.

Shared by :class:`~langchain_toolrouter.client.ToolRouterClient` and its async twin, so neither
repeats this logic. Pure: no I/O.
"""

from __future__ import annotations

import difflib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from langchain_toolrouter._exceptions import RequestValidationError, ResponseValidationError
from langchain_toolrouter.wire.codec import validation_problems
from langchain_toolrouter.wire.models import SearchQuery
from langchain_toolrouter.wire.operations import Operation

__all__ = [
    "CursorTracker",
    "Page",
    "QueriesInput",
    "awalk_pages",
    "check_request_id",
    "inline_customs",
    "merge_payload",
    "mount_prefix",
    "payload",
    "search_queries",
    "unknown_fields",
    "walk_pages",
]

QueriesInput = (
    str | SearchQuery | Mapping[str, Any] | Sequence[str | SearchQuery | Mapping[str, Any]]
)
"""What :meth:`search` accepts: one use case, one query, or several."""


def _validate(
    op: Operation[Any], data: Mapping[str, Any], trusted: frozenset[str] = frozenset()
) -> BaseModel:
    """Validate ``data`` as ``op``'s request model, refusing fields the model does not know.

    Request models keep unknown fields (the emulator reads what clients send tolerantly), so a
    typo such as ``toolkit=`` would otherwise go out silently. Model instances the caller built
    (at any depth), and top-level keys in ``trusted``, are the caller's deliberate choice and
    are not checked.
    """
    model = op.request_model
    assert model is not None, f"{op.name} takes no payload"
    try:
        built = model.model_validate(dict(data))
    except ValidationError as exc:
        _, problems = validation_problems(exc)
        raise RequestValidationError(op.name, problems) from None
    given = _model_ids(data, depth=4)
    unknown = [line for key, line in unknown_fields(built, skip=given) if key not in trusted]
    if unknown:
        unknown.append(
            "to send a field this library does not know yet, pass it in extra_body={...} "
            "or build the request model yourself"
        )
        raise RequestValidationError(op.name, unknown)
    return built


def _model_ids(value: Any, depth: int) -> set[int]:
    """Ids of the model instances inside the caller's input (a few levels deep)."""
    if isinstance(value, BaseModel):
        return {id(value)}
    if depth <= 0:
        return set()
    if not isinstance(value, Mapping | list | tuple):
        return set()
    found: set[int] = set()
    for item in value.values() if isinstance(value, Mapping) else value:
        if isinstance(item, BaseModel | Mapping | list | tuple):
            found |= _model_ids(item, depth - 1)
    return found


def _known(model: BaseModel) -> list[str]:
    names: list[str] = []
    for name, info in type(model).model_fields.items():
        names.append(name)
        if info.serialization_alias and info.serialization_alias != name:
            names.append(info.serialization_alias)
    return names


def unknown_fields(
    model: BaseModel, path: str = "", skip: frozenset[int] | set[int] = frozenset()
) -> Iterator[tuple[str, str]]:
    """(top-level field, message) for every unknown field kept by a request model or a nested one.

    Each message names the field by its dotted path and lists the known ones, a close match
    first when there is one (``toolkit``: did you mean ``toolkits``?). Models whose ``id`` is
    in ``skip`` are not looked into.
    """
    if id(model) in skip:
        return
    top = path.split(".", 1)[0]
    known = _known(model)
    for key in model.model_extra or {}:
        close = difflib.get_close_matches(key, known, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        yield (
            top or key,
            f"{path}{key}: unknown field; {hint}known fields: {', '.join(sorted(known))}",
        )
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            yield from unknown_fields(value, f"{path}{name}.", skip)
        elif isinstance(value, dict | list | tuple):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for index, item in items:
                if isinstance(item, BaseModel):
                    yield from unknown_fields(item, f"{path}{name}.{index}.", skip)


def payload(op: Operation[Any], **fields: Any) -> BaseModel:
    """The request model of ``op`` from keyword fields; None means "not given" and is not sent.

    Raises:
        RequestValidationError: a field is invalid or unknown (nothing is sent).
    """
    return _validate(op, {key: value for key, value in fields.items() if value is not None})


def merge_payload(
    op: Operation[Any], request: BaseModel | Mapping[str, Any] | None, fields: Mapping[str, Any]
) -> BaseModel:
    """A request model from a model or mapping plus keyword fields (keywords win).

    Unlike :func:`payload`, an explicit None in ``fields`` is kept: on PATCH it removes a block.
    Unknown fields in a mapping or in keywords are refused; a model instance is the caller's
    deliberate choice and is sent as built (its extra fields included).
    """
    model = op.request_model
    if model is not None and isinstance(request, model) and not fields:
        return request
    trusted: frozenset[str] = frozenset()
    if request is None:
        data: dict[str, Any] = {}
    elif isinstance(request, BaseModel):
        data = request.model_dump(by_alias=True, exclude_unset=True)
        trusted = frozenset(data) - frozenset(fields)
    elif isinstance(request, Mapping):
        data = dict(request)
    else:
        raise RequestValidationError(
            op.name, [f"request must be a mapping or a model; got {type(request).__name__}"]
        )
    data.update(fields)
    return _validate(op, data, trusted)


def inline_customs(
    custom_tools: Sequence[Any] | None, custom_toolkits: Sequence[Any] | None
) -> dict[str, Any] | None:
    """The ``experimental`` block carrying inline custom definitions (None when there are none)."""
    block = {
        key: list(value)
        for key, value in (("custom_tools", custom_tools), ("custom_toolkits", custom_toolkits))
        if value is not None
    }
    return block or None


def search_queries(queries: QueriesInput) -> list[Any]:
    """One string, one query, or a sequence of them -> the ``queries`` list of a search."""
    if isinstance(queries, str | SearchQuery | Mapping):
        queries = [queries]
    return [{"use_case": item} if isinstance(item, str) else item for item in queries]


def mount_prefix(prefix: str | None) -> str | None:
    """A mount path prefix: ``""`` or ``"/"`` means none, and a leading ``/`` is dropped."""
    if prefix is None:
        return None
    if not isinstance(prefix, str):
        raise RequestValidationError(
            "list_mount_items",
            [
                f"prefix must be a str such as 'reports/', or None for every file; got "
                f"{prefix!r} ({type(prefix).__name__})"
            ],
        )
    stripped = prefix.lstrip("/")
    return stripped or None


def check_request_id(request_id: str | None, operation: str = "request") -> str | None:
    """A caller-chosen request id must be a non-empty printable ASCII string."""
    if request_id is None:
        return None
    if not isinstance(request_id, str) or not request_id or not request_id.isascii():
        raise RequestValidationError(
            operation, [f"request_id must be a non-empty ASCII string; got {request_id!r}"]
        )
    if not request_id.isprintable() or " " in request_id:
        raise RequestValidationError(
            operation,
            [f"request_id must not contain spaces or control characters: {request_id!r}"],
        )
    return request_id


class CursorTracker:
    """Follows ``next_cursor`` across pages and stops a service that repeats a cursor."""

    def __init__(self, op: Operation[Any]) -> None:
        self._op = op
        self._seen: set[str] = set()

    def next(self, cursor: str | None) -> str | None:
        """The cursor of the next page, or None when the last page was read.

        Raises:
            ResponseValidationError: the service sent a cursor it had sent before (a loop).
        """
        if not cursor:
            return None
        if cursor in self._seen:
            raise ResponseValidationError(
                self._op.name,
                field="next_cursor",
                errors=[f"cursor {cursor!r} was already returned: the pages loop"],
                body="",
                status=200,
            )
        self._seen.add(cursor)
        return cursor


ItemT_co = TypeVar("ItemT_co", covariant=True)


class Page(Protocol[ItemT_co]):
    """One page of a cursor-paginated listing."""

    @property
    def items(self) -> Sequence[ItemT_co]: ...

    @property
    def next_cursor(self) -> str | None: ...


def walk_pages(
    op: Operation[Any], fetch: Callable[[str | None], Page[ItemT_co]]
) -> Iterator[ItemT_co]:
    """Every item of every page: `fetch(cursor)` reads one page, starting with no cursor."""
    pages, cursor = CursorTracker(op), None
    while True:
        page = fetch(cursor)
        yield from page.items
        if (cursor := pages.next(page.next_cursor)) is None:
            return


async def awalk_pages(
    op: Operation[Any], fetch: Callable[[str | None], Awaitable[Page[ItemT_co]]]
) -> AsyncIterator[ItemT_co]:
    """Async twin of :func:`walk_pages`."""
    pages, cursor = CursorTracker(op), None
    while True:
        page = await fetch(cursor)
        for item in page.items:
            yield item
        if (cursor := pages.next(page.next_cursor)) is None:
            return
