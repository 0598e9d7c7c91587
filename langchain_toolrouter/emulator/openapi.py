"""The emulator's OpenAPI document (`GET /openapi.json`), made from what serves the requests: the
operation table (`wire.operations`: method, path, where the request goes, success status) and
the wire models' JSON Schemas (pydantic). It cannot drift from the routes or the models, and
schemathesis, Swagger UI or a client generator can be pointed at it.

It describes the API operations under both versions; the emulator's own routes (connect pages,
presigned files, MCP, the project endpoints the official SDK polls) are not in it. Every error
is the service's error body, under the `default` response.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from langchain_toolrouter._version import __version__
from langchain_toolrouter.emulator.routes import API_VERSIONS
from langchain_toolrouter.wire.operations import ALL_OPERATIONS, Operation

__all__ = ["openapi_document", "openapi_json"]

_REF = "#/components/schemas/{model}"

_ERROR_BODY: dict[str, Any] = {
    "type": "object",
    "description": "The service's error body.",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["message", "code", "slug", "status", "request_id"],
            "properties": {
                "message": {"type": "string"},
                "code": {"type": "integer"},
                "slug": {"type": "string"},
                "status": {"type": "integer"},
                "request_id": {"type": "string"},
                "suggested_fix": {"type": "string"},
                "errors": {"type": "array", "items": {"type": "string"}},
            },
        }
    },
}


def _query_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A query parameter's schema: a query string has no null, and sends no default."""
    branches = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    plain = dict(branches[0]) if len(branches) == 1 else {"anyOf": branches}
    for key in ("title", "description"):
        if key in schema:
            plain[key] = schema[key]
    return plain


def _parameters(op: Operation[BaseModel], defs: dict[str, Any]) -> list[dict[str, Any]]:
    parameters: list[dict[str, Any]] = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in op.path_params
    ]
    if op.request_in == "query" and op.request_model is not None:
        model = defs[op.request_model.__name__]
        required = set(model.get("required", ()))
        for name, schema in model["properties"].items():
            parameter: dict[str, Any] = {
                "name": name,
                "in": "query",
                "required": name in required,
                "schema": _query_schema(schema),
            }
            if parameter["schema"].get("type") == "array":  # sent comma-joined
                parameter.update(style="form", explode=False)
            parameters.append(parameter)
    return parameters


def _operation(
    op: Operation[BaseModel], version: str, refs: dict[Any, Any], defs: dict[str, Any]
) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": f"{op.name}_{version.replace('.', '_')}",
        "summary": op.name.replace("_", " "),
        "parameters": _parameters(op, defs),
        "responses": {
            str(op.success_status): {
                "description": "Success.",
                "content": {
                    "application/json": {"schema": refs[(op.response_model, "serialization")]}
                },
            },
            "default": {
                "description": "The request was refused (the HTTP status says why).",
                "content": {
                    "application/json": {"schema": {"$ref": _REF.format(model="ErrorBody")}}
                },
            },
        },
    }
    if op.request_in == "body" and op.request_model is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": refs[(op.request_model, "validation")]}},
        }
    return operation


@functools.cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the emulator's API operations (built once)."""
    pairs: list[tuple[type[BaseModel], JsonSchemaMode]] = []
    for op in ALL_OPERATIONS:
        if op.request_in == "body" and op.request_model is not None:
            pairs.append((op.request_model, "validation"))
        pairs.append((op.response_model, "serialization"))
    refs, schemas = models_json_schema(pairs, ref_template=_REF)
    defs: dict[str, Any] = schemas.get("$defs", {})
    query_defs = {
        op.request_model.__name__: op.request_model.model_json_schema()
        for op in ALL_OPERATIONS
        if op.request_in == "query" and op.request_model is not None
    }
    paths: dict[str, dict[str, Any]] = {}
    for version in API_VERSIONS:
        for op in ALL_OPERATIONS:
            path = paths.setdefault(f"/api/{version}{op.path}", {})
            path[op.method.lower()] = _operation(op, version, refs, query_defs)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tool Router emulator",
            "version": __version__,
            "description": "The Composio Tool Router session API as langchain-toolrouter's "
            "emulator serves it (generated from its operation table and wire models).",
        },
        "servers": [{"url": "/"}],
        "security": [{"ApiKey": []}],
        "paths": paths,
        "components": {
            "schemas": {**defs, "ErrorBody": _ERROR_BODY},
            "securitySchemes": {"ApiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"}},
        },
    }


@functools.cache
def openapi_json() -> bytes:
    """The document as the route serves it (encoded once)."""
    return json.dumps(openapi_document(), separators=(",", ":")).encode()
