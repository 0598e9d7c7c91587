"""`GET /openapi.json`: a valid OpenAPI 3.1 document made from the operation table and the wire
models, so it says what the routes serve."""

from __future__ import annotations

from typing import Any

from openapi_spec_validator import validate
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import create_app
from langchain_toolrouter.wire.operations import ALL_OPERATIONS


def _document() -> dict[str, Any]:
    with TestClient(create_app()) as client:  # no key: it is documentation
        response = client.get("/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    document: dict[str, Any] = response.json()
    return document


def test_the_document_is_valid_openapi() -> None:
    document = _document()
    validate(document)
    assert document["openapi"] == "3.1.0"


def test_every_operation_is_described_as_it_is_served() -> None:
    document = _document()
    schemas = document["components"]["schemas"]
    for version in ("v3", "v3.1"):
        for op in ALL_OPERATIONS:
            described = document["paths"][f"/api/{version}{op.path}"][op.method.lower()]
            success = described["responses"][str(op.success_status)]
            reference = success["content"]["application/json"]["schema"]["$ref"]
            assert reference.rsplit("/", 1)[1].startswith(op.response_model.__name__)
            errors = described["responses"]["default"]["content"]["application/json"]
            assert errors["schema"]["$ref"] == "#/components/schemas/ErrorBody"
            in_path = [p["name"] for p in described["parameters"] if p["in"] == "path"]
            assert in_path == list(op.path_params)
            if op.request_in == "body":
                assert op.request_model is not None
                body = described["requestBody"]["content"]["application/json"]["schema"]
                name = body["$ref"].rsplit("/", 1)[1]
                assert name.startswith(op.request_model.__name__)
                assert set(schemas[name]["properties"]) == {
                    field.alias or key for key, field in op.request_model.model_fields.items()
                }
            elif op.request_in == "query":
                assert op.request_model is not None
                in_query = {p["name"] for p in described["parameters"] if p["in"] == "query"}
                assert in_query == set(op.request_model.model_fields)
    assert document["components"]["securitySchemes"]["ApiKey"]["name"] == "x-api-key"
