"""Contract: every answer the official client's types allow, our response models read.

Built from the response types of the official generated client (``composio-client``, pinned by
the test extra), not from hand-picked fields: for each operation's response type a document is
generated with every field present, then one variant per optional field left out, one per
position the types allow ``null`` at (a field, a list item, a map value, at any depth) set to
``null``, and one with every such position null at once. Each variant must satisfy the official
model (so the test only asks for what the service may really send) and be parsed by our codec,
exactly as a client parses an answer.
"""

from __future__ import annotations

import copy
import datetime
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal, Union

import httpx
import pydantic
import pytest
from composio_client.types.tool_router import (
    session_attach_response,
    session_config_history_response,
    session_create_response,
    session_execute_meta_response,
    session_execute_response,
    session_link_response,
    session_patch_response,
    session_proxy_execute_response,
    session_retrieve_response,
    session_search_response,
    session_toolkits_response,
    session_tools_response,
)
from composio_client.types.tool_router.session import (
    file_create_download_url_response,
    file_create_upload_url_response,
    file_delete_response,
    file_list_response,
)

from langchain_toolrouter.wire import operations as ops
from langchain_toolrouter.wire.codec import parse_response

Path = tuple[str | int, ...]

# (official response type, our operation): every response type the official client has.
CONTRACT: list[tuple[type[pydantic.BaseModel], ops.Operation[Any]]] = [
    (session_create_response.SessionCreateResponse, ops.CREATE_SESSION),
    (session_retrieve_response.SessionRetrieveResponse, ops.GET_SESSION),
    (session_patch_response.SessionPatchResponse, ops.UPDATE_SESSION),
    (session_attach_response.SessionAttachResponse, ops.ATTACH),
    (session_config_history_response.SessionConfigHistoryResponse, ops.LIST_CONFIG_HISTORY),
    (session_execute_response.SessionExecuteResponse, ops.EXECUTE),
    (session_execute_meta_response.SessionExecuteMetaResponse, ops.EXECUTE_META),
    (session_link_response.SessionLinkResponse, ops.CREATE_LINK),
    (session_proxy_execute_response.SessionProxyExecuteResponse, ops.PROXY_EXECUTE),
    (session_search_response.SessionSearchResponse, ops.SEARCH),
    (session_toolkits_response.SessionToolkitsResponse, ops.LIST_TOOLKITS),
    (session_tools_response.SessionToolsResponse, ops.LIST_TOOLS),
    (file_list_response.FileListResponse, ops.LIST_MOUNT_ITEMS),
    (file_create_download_url_response.FileCreateDownloadURLResponse, ops.CREATE_DOWNLOAD_URL),
    (file_create_upload_url_response.FileCreateUploadURLResponse, ops.CREATE_UPLOAD_URL),
    (file_delete_response.FileDeleteResponse, ops.DELETE_MOUNT_ITEM),
]


class Sample:
    """One document for an official model, and where its types allow ``null`` or absence."""

    def __init__(self, model: type[pydantic.BaseModel]) -> None:
        self.nullable: list[Path] = []
        self.optional: list[Path] = []
        self.document = self._model(model, (), set())

    def _model(self, model: type[pydantic.BaseModel], path: Path, seen: set[type]) -> Any:
        if model in seen:  # a recursive type: stop with the smallest document it takes
            return {}
        seen = seen | {model}
        document: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            key = info.alias or name
            if not info.is_required():
                self.optional.append((*path, key))
            document[key] = self._value(info.annotation, (*path, key), seen)
        return document

    def _value(self, annotation: Any, path: Path, seen: set[type]) -> Any:
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if origin is typing.Annotated:
            return self._value(args[0], path, seen)
        if origin is Union or origin is types.UnionType:
            members = [arg for arg in args if arg is not type(None)]
            if len(members) < len(args):
                self.nullable.append(path)
            return self._value(members[0], path, seen)
        if origin is Literal:
            return args[0]
        if origin in (list, typing.List):  # noqa: UP006 (the official types use typing.List)
            return [self._value(args[0], (*path, 0), seen)]
        if origin in (dict, typing.Dict):  # noqa: UP006
            return {"key": self._value(args[1], (*path, "key"), seen)}
        if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
            return self._model(annotation, path, seen)
        scalars: dict[Any, Any] = {
            str: "text",
            int: 1,
            float: 1.0,
            bool: True,
            object: {"any": ["json"]},
            Any: {"any": ["json"]},
            datetime.datetime: "2026-01-01T00:00:00Z",
        }
        if annotation in scalars:
            return scalars[annotation]
        raise AssertionError(f"no sample for {annotation!r} at {path}")


def _set(document: Any, path: Path, value: Any) -> Any:
    changed = copy.deepcopy(document)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


def _drop(document: Any, path: Path) -> Any:
    changed = copy.deepcopy(document)
    target = changed
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return changed


def _all_null(document: Any, paths: list[Path]) -> Any:
    changed = document
    # Outermost first would cut the inner paths off: set the deepest ones first.
    for path in sorted(paths, key=len, reverse=True):
        changed = _set(changed, path, None)
    return changed


def _variants(sample: Sample) -> Iterator[tuple[str, Any]]:
    yield "every field present", sample.document
    for path in sample.optional:
        yield f"{'.'.join(map(str, path))} left out", _drop(sample.document, path)
    for path in sample.nullable:
        yield f"{'.'.join(map(str, path))} null", _set(sample.document, path, None)
    if sample.nullable:
        yield "every nullable position null", _all_null(sample.document, sample.nullable)


def _parse(op: ops.Operation[Any], document: Any) -> str | None:
    """Our codec's verdict on an answer: None if it parsed, else the error."""
    request = httpx.Request("GET", "https://svc.test/x")
    try:
        parse_response(op, httpx.Response(200, json=document, request=request))
    except Exception as exc:  # any error: every refused variant is reported at once
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.mark.parametrize(("official", "op"), CONTRACT, ids=[op.name for _, op in CONTRACT])
def test_every_answer_the_official_types_allow_is_read(
    official: type[pydantic.BaseModel], op: ops.Operation[Any]
) -> None:
    sample = Sample(official)
    refused: list[str] = []
    checked = 0
    for label, document in _variants(sample):
        official.model_validate(document)  # the official types allow this answer
        problem = _parse(op, document)
        checked += 1
        if problem is not None:
            refused.append(f"{label}: {problem.splitlines()[0]}")
    assert not refused, f"{op.name} refuses {len(refused)} of {checked} answers:\n" + "\n".join(
        refused
    )


def test_the_contract_covers_every_official_response_type() -> None:
    import composio_client.types.tool_router as tool_router
    import composio_client.types.tool_router.session as files

    official = {
        name
        for module in (tool_router, files)
        for name in dir(module)
        if name.endswith("Response") and isinstance(getattr(module, name), type)
    }
    assert official == {model.__name__ for model, _ in CONTRACT}
    # The walk reaches nested types: nullable positions inside lists, maps and nested models.
    positions = [path for model, _ in CONTRACT for path in Sample(model).nullable]
    assert any(len(path) > 2 for path in positions)
    assert any(0 in path for path in positions)
    assert len(positions) > 100
