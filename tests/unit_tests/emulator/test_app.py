"""The app as a whole: route table, auth, error bodies, request ids, bad bodies."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, create_app
from langchain_toolrouter.wire.operations import ALL_OPERATIONS
from tests.unit_tests.emulator.calls import API_KEY, OTHER_KEY, V3, V31
from tests.unit_tests.emulator.conftest import SessionFactory

OPERATIONS = {
    ("POST", "/session"): "create_session",
    ("GET", "/session/{session_id}"): "get_session",
    ("PATCH", "/session/{session_id}"): "update_session",
    ("DELETE", "/session/{session_id}"): "delete_session",
    ("POST", "/session/{session_id}/attach"): "attach",
    ("GET", "/session/{session_id}/config_history"): "list_config_history",
    ("POST", "/session/{session_id}/execute"): "execute",
    ("POST", "/session/{session_id}/execute_meta"): "execute_meta",
    ("POST", "/session/{session_id}/link"): "create_link",
    ("POST", "/session/{session_id}/proxy_execute"): "proxy_execute",
    ("GET", "/session/{session_id}/toolkits"): "list_toolkits",
    ("GET", "/session/{session_id}/tools"): "list_tools",
    ("POST", "/session/{session_id}/search"): "search",
    ("GET", "/session/{session_id}/mounts/{mount_id}/items"): "list_mount_items",
    ("POST", "/session/{session_id}/mounts/{mount_id}/download_url"): "create_download_url",
    ("POST", "/session/{session_id}/mounts/{mount_id}/upload_url"): "create_upload_url",
    ("POST", "/session/{session_id}/mounts/{mount_id}/delete"): "delete_mount_item",
}


def test_route_table(app: Starlette) -> None:
    table = set()
    for route in app.routes:
        assert isinstance(route, Route)
        assert route.methods is not None
        for method in route.methods - {"HEAD"}:
            table.add((method, route.path, route.name))
    expected = {
        (method, prefix + path, name)
        for prefix in (V3, V31)
        for (method, path), name in OPERATIONS.items()
    }
    expected |= {
        *(
            ("GET", f"/api/{version}/connected_accounts/{{account_id}}", "get_connected_account")
            for version in ("v3", "v3.1")
        ),
        *(
            ("GET", f"/api/{version}/toolkits/{{toolkit_slug}}", "get_toolkit")
            for version in ("v3", "v3.1")
        ),
        ("GET", "/_emulator/connect/{link_token}", "connect_account"),
        ("PUT", "/_emulator/files/{session_id}/{mount_id}/{path:path}", "presigned_upload"),
        ("GET", "/_emulator/files/{session_id}/{mount_id}/{path:path}", "presigned_download"),
        ("POST", "/tool_router/{session_id}/mcp", "mcp"),
        ("GET", "/openapi.json", "openapi"),
    }
    assert table == expected


def test_api_routes_are_the_operation_table_of_the_clients(app: Starlette) -> None:
    # One table for both sides: the emulator serves each operation the clients send.
    served = {
        (route.name, method, route.path)
        for route in app.routes
        if isinstance(route, Route) and route.methods
        for method in route.methods - {"HEAD"}
    }
    for op in ALL_OPERATIONS:
        for version in ("v3", "v3.1"):
            assert (op.name, op.method, f"/api/{version}{op.path}") in served


@pytest.mark.parametrize("headers", [{}, {"x-api-key": "wrong"}])
def test_missing_or_wrong_key_is_401_with_error_body(
    app: Starlette, headers: dict[str, str]
) -> None:
    with TestClient(app, headers=headers) as anonymous:
        response = anonymous.post(f"{V31}/session", json={"user_id": "a"})
    assert response.status_code == 401
    error = response.json()["error"]
    assert error["slug"] == "ToolRouterV2_Unauthorized"
    assert error["status"] == 401
    assert "x-api-key" in error["suggested_fix"] or "API key" in error["suggested_fix"]
    assert set(error) == {
        "message",
        "code",
        "slug",
        "status",
        "request_id",
        "suggested_fix",
        "errors",
    }


def test_unknown_session_is_404(client: TestClient) -> None:
    response = client.get(f"{V31}/session/trs_missing")
    assert response.status_code == 404
    assert response.json()["error"]["slug"] == "ToolRouterV2_SessionNotFound"


def test_session_of_another_project_is_404(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    response = client.get(f"{V31}/session/{session_id}", headers={"x-api-key": OTHER_KEY})
    assert response.status_code == 404
    assert response.json()["error"]["slug"] == "ToolRouterV2_SessionNotFound"


def test_request_id_is_echoed(client: TestClient) -> None:
    response = client.get(f"{V31}/session/trs_missing", headers={"x-request-id": "req-abc"})
    assert response.json()["error"]["request_id"] == "req-abc"
    assert response.headers["x-request-id"] == "req-abc"


def test_request_id_is_generated_when_absent(client: TestClient) -> None:
    response = client.get(f"{V31}/session/trs_missing")
    assert response.json()["error"]["request_id"].startswith("req_")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, ["user_id: Field required"]),
        ({"user_id": ""}, ["user_id: String should have at least 1 character"]),
        (
            {"user_id": "a", "search": {"enable": "maybe"}},
            ["search.enable: Input should be a valid boolean"],
        ),
    ],
)
def test_bad_body_is_400_with_field_paths(
    client: TestClient, body: dict[str, object], expected: list[str]
) -> None:
    response = client.post(f"{V31}/session", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["slug"] == "ToolRouterV2_BadRequest"
    assert error["errors"] == expected


def test_body_that_is_not_json_is_400(client: TestClient) -> None:
    response = client.post(
        f"{V31}/session", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["errors"] == ["(body): invalid JSON"]


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
        # parses, but the stored value would break the response's serialization
        b'{"tool_slug": "NOTES_KV_SET", "arguments": {"key": "k", "value": '
        + b"[" * 300
        + b"]" * 300
        + b"}}",
    ],
)
def test_body_nested_too_deeply_is_400(
    client: TestClient, new_session: SessionFactory, body: bytes
) -> None:
    response = client.post(
        f"{V31}/session/{new_session()}/execute",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["slug"] == "ToolRouterV2_BadRequest"
    assert error["errors"] == ["(body): invalid JSON, nested too deeply"]


@pytest.mark.parametrize(
    ("number", "why"),
    [
        ("NaN", "NaN is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
        ("1e400", "out of the range"),
    ],
)
def test_numbers_json_does_not_have_are_400_and_nothing_is_stored(
    client: TestClient, number: str, why: str
) -> None:
    # Python's reader takes them; stored, they broke every later answer about the session.
    body = '{"user_id": "nan", "workbench": {"auto_offload_threshold": NUMBER}}'
    body = body.replace("NUMBER", number)
    response = client.post(
        f"{V31}/session", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert why in response.json()["error"]["message"]


def test_body_that_is_not_an_object_is_400(client: TestClient) -> None:
    response = client.post(f"{V31}/session", json=["user_id"])
    assert response.status_code == 400
    assert "expected an object" in response.json()["error"]["errors"][0]


def test_unknown_route_and_wrong_method_use_the_error_body(client: TestClient) -> None:
    missing = client.get("/api/v3.1/nothing")
    assert missing.status_code == 404
    assert missing.json()["error"]["slug"] == "ToolRouterV2_RouteNotFound"
    wrong = client.put(f"{V31}/session")
    assert wrong.status_code == 405
    assert wrong.json()["error"]["status"] == 405


async def test_app_runs_under_httpx_asgi_transport(app: Starlette) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", headers={"x-api-key": API_KEY}
    ) as client:
        created = await client.post(f"{V3}/session", json={"user_id": "async"})
        assert created.status_code == 201
        session_id = created.json()["session_id"]
        listed = await client.get(f"{V3}/session/{session_id}/tools")
        assert listed.json()["total_items"] == 6


def test_create_app_rejects_empty_keys() -> None:
    with pytest.raises(ValueError, match="at least one non-empty key"):
        create_app(api_keys=[])


def test_a_single_key_string_is_accepted() -> None:
    app = create_app(api_keys="ak_single")
    with TestClient(app, headers={"x-api-key": "ak_single"}) as client:
        assert client.post(f"{V31}/session", json={"user_id": "u"}).status_code == 201


@pytest.mark.parametrize(
    ("options", "exception", "message"),
    [
        ({"api_keys": 5}, TypeError, r"api_keys=\.\.\.\) takes a key, a list of keys or a mapping"),
        ({"api_keys": [5]}, TypeError, r"takes string keys, got 5 \(int\)"),
        ({"api_keys": b"ak_bytes"}, TypeError, "takes a key, a list of keys"),
        ({"api_keys": {"ak_a": 1}}, TypeError, r"maps each key \(a string\) to its project name"),
        ({"api_keys": {"ak_a": ""}}, ValueError, "non-empty project name per key"),
        ({"api_keys": ["ak_a", ""]}, ValueError, "at least one non-empty key"),
        ({"url_ttl": -1}, ValueError, r"url_ttl=\.\.\.\) must be > 0, got -1; give seconds"),
        ({"url_ttl": 0}, ValueError, r"url_ttl=\.\.\.\) must be > 0"),
        ({"url_ttl": "900"}, TypeError, r"url_ttl=\.\.\.\) must be a number"),
        ({"url_ttl": float("inf")}, ValueError, "must be a finite number"),
        ({"seed": "x"}, TypeError, r"seed=\.\.\.\) must be an int"),
        ({"signing_secret": 5}, TypeError, "takes bytes or a str"),
        ({"signing_secret": b""}, ValueError, r"signing_secret=\.\.\.\) must not be empty"),
        ({"signing_secret": ""}, ValueError, r"signing_secret=\.\.\.\) must not be empty"),
        ({"data_dir": 5}, TypeError, r"data_dir=\.\.\.\) takes a directory path"),
        ({"data_dir": ""}, ValueError, r"data_dir=\.\.\.\) is an empty path"),
        ({"store": object()}, TypeError, r"store=\.\.\.\) takes a Store"),
        ({"catalog": {}}, TypeError, r"catalog=\.\.\.\) takes a Catalog"),
    ],
)
def test_bad_options_fail_when_the_app_is_built(
    options: dict[str, object], exception: type[Exception], message: str
) -> None:
    # Several of these used to build an app whose every request (or every file URL) failed.
    with pytest.raises(exception, match=message):
        create_app(**options)  # type: ignore[arg-type]


def test_a_data_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "not-a-dir"
    file.write_text("x")
    with pytest.raises(ValueError, match=r"must be a directory, but .* is a file"):
        create_app(data_dir=file)


@pytest.mark.parametrize("secret", ["a text secret", b"a byte secret"])
def test_a_signing_secret_may_be_str_or_bytes(secret: str | bytes) -> None:
    # A str used to answer 500 on every upload/download URL; it is now UTF-8 encoded.
    app = create_app(api_keys=[API_KEY], signing_secret=secret)
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        session_id = client.post(f"{V31}/session", json={"user_id": "u"}).json()["session_id"]
        mount = f"{V31}/session/{session_id}/mounts/files"
        url = client.post(f"{mount}/upload_url", json={"mount_relative_path": "a.txt"})
        assert url.status_code == 200, url.text
        upload = url.json()["upload_url"]
    with TestClient(app) as anonymous:
        assert anonymous.put(upload, content=b"x").status_code == 200


def test_a_crash_is_a_500_with_the_error_body(app: Starlette, state: EmulatorState) -> None:
    state.store.sessions = None  # type: ignore[assignment]  # break the store on purpose
    with TestClient(app, headers={"x-api-key": API_KEY}, raise_server_exceptions=False) as client:
        response = client.get(f"{V31}/session/trs_any", headers={"x-request-id": "boom-1"})
    assert response.status_code == 500
    error = response.json()["error"]
    assert (error["slug"], error["request_id"]) == ("ToolRouterV2_InternalServerError", "boom-1")
    assert "AttributeError" in error["message"]
    [record] = state.log.filter("get_session")
    assert (record.status, record.request_id) == (500, "boom-1")
