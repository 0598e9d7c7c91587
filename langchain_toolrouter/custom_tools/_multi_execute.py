"""Splitting a `COMPOSIO_MULTI_EXECUTE_TOOL` call between local custom tools and the service.

Pure functions, no I/O: `plan` sorts the items of one call into
local ones (custom tools, run here) and remote ones (sent to the service in ONE call that
keeps every other field), and `merge` puts the answers back in the original order with the
counts recomputed. The session drives both halves, sync or async. `hint_unknown_local` adds
the developer's fix to failed items naming a custom tool this process has no function for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from langchain_toolrouter._exceptions import AmbiguousSlugError
from langchain_toolrouter.custom_tools._tool import CustomTool
from langchain_toolrouter.types import ToolOutcome

__all__ = [
    "MULTI_EXECUTE_SLUG",
    "LocalItem",
    "MultiExecutePlan",
    "hint_unknown_local",
    "merge",
    "plan",
]

MULTI_EXECUTE_SLUG = "COMPOSIO_MULTI_EXECUTE_TOOL"
#: The service runs at most this many items per call (the meta tool's schema says
#: `maxItems: 50`) and refuses the whole call beyond it.
MAX_ITEMS = 50


@dataclass(frozen=True)
class LocalItem:
    """One item to run here: its position in the original list, its tool and arguments."""

    index: int
    tool: CustomTool
    arguments: dict[str, Any]


@dataclass(frozen=True)
class MultiExecutePlan:
    """How one multi-execute call is split.

    Attributes:
        total: Number of items in the original call.
        local: Items run here.
        failed: Items that cannot run (e.g. an ambiguous slug): position -> (slug, error).
        remote_indices: Original positions of the items sent to the service, in order.
        remote_arguments: The arguments of the one service call (every original field kept,
            `tools` narrowed to the remote items), or `None` when nothing goes remote.
    """

    total: int
    local: list[LocalItem]
    failed: dict[int, tuple[str, str]] = field(default_factory=dict)
    remote_indices: list[int] = field(default_factory=list)
    remote_arguments: dict[str, Any] | None = None


Resolver = Callable[[str], CustomTool | None]
"""Maps a tool slug to the local custom tool it names, or `None`; may raise
`AmbiguousSlugError`."""


def plan(arguments: Mapping[str, Any], resolve: Resolver) -> MultiExecutePlan | None:
    """Split a multi-execute payload; `None` means no local items (send it unchanged)."""
    items = arguments.get("tools")
    if not isinstance(items, Sequence) or isinstance(items, str):
        return None
    local: list[LocalItem] = []
    failed: dict[int, tuple[str, str]] = {}
    remote_indices: list[int] = []
    remote_items: list[Any] = []
    for position, item in enumerate(items):
        slug = item.get("tool_slug") if isinstance(item, Mapping) else None
        if not isinstance(slug, str):
            remote_indices.append(position)
            remote_items.append(item)
            continue
        try:
            tool = resolve(slug)
        except AmbiguousSlugError as exc:
            failed[position] = (slug, str(exc))
            continue
        if tool is None:
            remote_indices.append(position)
            remote_items.append(item)
        else:
            raw_args = item.get("arguments") if isinstance(item, Mapping) else None
            if raw_args is not None and not isinstance(raw_args, Mapping):
                failed[position] = (
                    slug,
                    f"arguments must be an object of {slug}'s parameters, not "
                    f"{type(raw_args).__name__}: nothing was run for this item",
                )
                continue
            local.append(LocalItem(position, tool, dict(raw_args or {})))
    if not local and not failed:
        return None
    if len(items) > MAX_ITEMS:
        # The service would refuse the call after the local items had run: refuse it whole,
        # before anything runs, as it would.
        why = (
            f"a multi-execute runs at most {MAX_ITEMS} tools, not {len(items)}: nothing was "
            "run; split the call"
        )
        everything = {position: (_slug_of(item), why) for position, item in enumerate(items)}
        return MultiExecutePlan(total=len(items), local=[], failed=everything)
    remote_arguments = None
    if remote_items:
        remote_arguments = {**arguments, "tools": remote_items}
    return MultiExecutePlan(
        total=len(items),
        local=local,
        failed=failed,
        remote_indices=remote_indices,
        remote_arguments=remote_arguments,
    )


def merge(
    split: MultiExecutePlan,
    local_outcomes: Mapping[int, ToolOutcome],
    remote: ToolOutcome | None = None,
    remote_error: str | None = None,
) -> ToolOutcome:
    """Merge local outcomes (by original position) and the service's answer, in order.

    A single local item and nothing else comes back unwrapped (`{data, error, successful}`),
    as the official SDK does. When the service call failed as a whole (`remote_error`, or a
    failed `remote` without per-item results), each remote item becomes a failed entry and the
    local results are kept.
    """
    if split.total == 1 and len(split.local) == 1 and not split.remote_indices and not split.failed:
        return local_outcomes[split.local[0].index]
    entries: dict[int, dict[str, Any]] = {}
    for item in split.local:
        entries[item.index] = _entry(item.tool.final_slug, item.index, local_outcomes[item.index])
    for position, (slug, reason) in split.failed.items():
        failure = ToolOutcome(successful=False, data={}, error=reason)
        entries[position] = _entry(slug, position, failure)
    extra_data: dict[str, Any] = {}
    if split.remote_indices:
        extra_data = _merge_remote(split, remote, remote_error, entries)
    ordered = [entries[position] for position in sorted(entries)]
    errors = sum(1 for entry in ordered if not _succeeded(entry))
    data = {
        **extra_data,
        "results": ordered,
        "total_count": len(ordered),
        "success_count": len(ordered) - errors,
        "error_count": errors,
    }
    error = f"{errors} out of {len(ordered)} tools failed" if errors else None
    return ToolOutcome(
        successful=errors == 0,
        data=data,
        error=error,
        log_id=remote.log_id if remote is not None else "",
    )


def hint_unknown_local(outcome: ToolOutcome, hint: Callable[[str], str | None]) -> ToolOutcome:
    """`outcome` with `hint(slug)` added to the error of each failed item whose slug has one
    (a `LOCAL_` slug with no function here: the service's text only says it does not know or
    run it); the same object when no item has a hint."""
    data = outcome.data
    results = data.get("results") if isinstance(data, Mapping) else None
    if not isinstance(data, Mapping) or not isinstance(results, list):
        return outcome
    hinted: list[Any] = []
    for entry in results:
        slug = entry.get("tool_slug") if isinstance(entry, Mapping) else None
        extra = hint(slug) if isinstance(slug, str) and not _succeeded(entry) else None
        if extra is None:
            hinted.append(entry)
            continue
        changed = {**entry, "error": _joined(entry.get("error"), extra)}
        response = entry.get("response")
        if isinstance(response, Mapping):
            changed["response"] = {**response, "error": _joined(response.get("error"), extra)}
        hinted.append(changed)
    if all(new is old for new, old in zip(hinted, results, strict=True)):
        return outcome
    return replace(outcome, data={**data, "results": hinted})


def _joined(text: Any, extra: str) -> str:
    return f"{text} {extra}" if text else extra


def _merge_remote(
    split: MultiExecutePlan,
    remote: ToolOutcome | None,
    remote_error: str | None,
    entries: dict[int, dict[str, Any]],
) -> dict[str, Any]:
    """Place the service's per-item results; return its other data fields."""
    data = remote.data if remote is not None and isinstance(remote.data, Mapping) else {}
    results = data.get("results")
    if remote_error is not None or not isinstance(results, list) or not results:
        reason: str = (
            remote_error
            or (remote.error if remote is not None else None)
            or "the service returned no result for this item"
        )
        for position in split.remote_indices:
            slug = _item_slug(split, position)
            entries[position] = _entry(
                slug, position, ToolOutcome(successful=False, data={}, error=reason)
            )
        return {}
    for local_index, result in _by_request_order(results, len(split.remote_indices)):
        position = split.remote_indices[local_index]
        entries[position] = {**result, "index": position}
    for position in split.remote_indices:
        if position not in entries:
            slug = _item_slug(split, position)
            missing = ToolOutcome(
                successful=False, data={}, error="the service returned no result for this item"
            )
            entries[position] = _entry(slug, position, missing)
    counts = {"results", "total_count", "success_count", "error_count"}
    return {key: value for key, value in data.items() if key not in counts}


def _by_request_order(results: list[Any], count: int) -> list[tuple[int, Mapping[str, Any]]]:
    """`(position among the remote items, result)`. By each result's own `index` when every
    result has a distinct one in range (the service may answer in completion order); else by
    list position when the counts match; else by the indices that are usable."""
    items = [result for result in results if isinstance(result, Mapping)]
    indexed = [
        (i, result) for result in items if type(i := result.get("index")) is int and 0 <= i < count
    ]
    distinct = len({i for i, _ in indexed}) == len(indexed)
    if len(indexed) == len(items) and distinct:
        return indexed
    if len(results) == count:
        return [(order, r) for order, r in enumerate(results) if isinstance(r, Mapping)]
    return indexed


def _slug_of(item: Any) -> str:
    slug = item.get("tool_slug") if isinstance(item, Mapping) else None
    return slug if isinstance(slug, str) else ""


def _item_slug(split: MultiExecutePlan, position: int) -> str:
    arguments = split.remote_arguments or {}
    tools = arguments.get("tools") or []
    local_order = split.remote_indices.index(position)
    item = tools[local_order] if local_order < len(tools) else {}
    slug = item.get("tool_slug") if isinstance(item, Mapping) else None
    return str(slug or "")


def _succeeded(entry: Mapping[str, Any]) -> bool:
    response = entry.get("response")
    return isinstance(response, Mapping) and response.get("successful") is True


def _entry(slug: str, position: int, outcome: ToolOutcome) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "tool_slug": slug,
        "index": position,
        "response": {
            "successful": outcome.successful,
            "data": outcome.data,
            "error": outcome.error,
        },
    }
    if not outcome.successful:
        entry["error"] = outcome.error
    return entry
