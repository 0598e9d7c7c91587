"""Mounts: presigned upload/download, signatures, expiry, key refusal, path escape, listing."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import EmulatorState, create_app
from tests.unit_tests.emulator.calls import API_KEY, V31
from tests.unit_tests.emulator.conftest import SessionFactory


def mounts(session_id: str) -> str:
    return f"{V31}/session/{session_id}/mounts/files"


@pytest.fixture
def anonymous(app: Starlette) -> Iterator[TestClient]:
    """A client of the same app without the API key header (how presigned URLs are used)."""
    with TestClient(app) as keyless:
        yield keyless


def test_presigned_round_trip_without_the_key(
    anonymous: TestClient, new_session: SessionFactory, state: EmulatorState
) -> None:
    keyed = {"x-api-key": API_KEY}
    session_id = new_session()
    up = anonymous.post(
        f"{mounts(session_id)}/upload_url",
        json={"mount_relative_path": "data/report.csv", "mimetype": "text/csv"},
        headers=keyed,
    ).json()
    assert up["upload_url"].startswith(
        f"http://testserver/_emulator/files/{session_id}/files/data/report.csv?"
    )
    assert up["sandbox_mount_prefix"] == "/mnt/files"
    assert up["expires_at"].endswith("Z")
    assert (
        anonymous.put(
            up["upload_url"], content=b"a,b\n1,2\n", headers={"content-type": "text/csv"}
        ).status_code
        == 200
    )
    assert (
        state.mounts.root / session_id / "files" / "data" / "report.csv"
    ).read_bytes() == b"a,b\n1,2\n"
    down = anonymous.post(
        f"{mounts(session_id)}/download_url",
        json={"mount_relative_path": "data/report.csv"},
        headers=keyed,
    ).json()
    got = anonymous.get(down["download_url"])
    assert (got.status_code, got.content) == (200, b"a,b\n1,2\n")
    presigned = [r for r in state.log if r.operation.startswith("presigned")]
    assert [(r.operation, r.had_api_key) for r in presigned] == [
        ("presigned_upload", False),
        ("presigned_download", False),
    ]


def test_presigned_urls_refuse_the_api_key(
    client: TestClient, new_session: SessionFactory, state: EmulatorState
) -> None:
    session_id = new_session()
    url = client.post(
        f"{mounts(session_id)}/upload_url", json={"mount_relative_path": "a.txt"}
    ).json()["upload_url"]
    response = client.put(url, content=b"x")
    assert response.status_code == 400
    assert "must not receive an API key" in response.json()["error"]["message"]
    assert state.log.filter("presigned_upload")[0].had_api_key is True


def test_tampered_signature_and_swapped_method_are_403(
    anonymous: TestClient, new_session: SessionFactory
) -> None:
    keyed = {"x-api-key": API_KEY}
    session_id = new_session()
    url = anonymous.post(
        f"{mounts(session_id)}/upload_url", json={"mount_relative_path": "a.txt"}, headers=keyed
    ).json()["upload_url"]
    tampered = url[:-1] + ("0" if url[-1] != "0" else "1")
    response = anonymous.put(tampered, content=b"x")
    assert response.status_code == 403
    assert "signature does not match" in response.json()["error"]["message"]
    other_path = url.replace("/a.txt?", "/b.txt?")
    assert anonymous.put(other_path, content=b"x").status_code == 403
    assert anonymous.get(url).status_code == 403  # a PUT URL does not allow GET
    no_sig = url.split("?")[0]
    assert anonymous.put(no_sig, content=b"x").status_code == 403
    query = parse_qs(urlsplit(url).query)
    later = url.replace(
        f"expires={query['expires'][0]}", f"expires={int(query['expires'][0]) + 3600}"
    )
    assert later != url
    response = anonymous.put(later, content=b"x")
    assert response.status_code == 403, "extending the expiry breaks the signature"
    assert "signature does not match" in response.json()["error"]["message"]
    odd = url.replace(f"expires={query['expires'][0]}", "expires=%C2%B2")  # a non-ASCII digit
    assert anonymous.put(odd, content=b"x").status_code == 403
    other_session = new_session("mallory")
    elsewhere = url.replace(f"/{session_id}/", f"/{other_session}/")
    assert elsewhere != url
    assert anonymous.put(elsewhere, content=b"x").status_code == 403
    escaped = url.replace("/a.txt?", "/%2e%2e/%2e%2e/a.txt?")
    assert anonymous.put(escaped, content=b"x").status_code in (403, 404)


def test_expired_signature_is_403(
    anonymous: TestClient, new_session: SessionFactory, state: EmulatorState
) -> None:
    keyed = {"x-api-key": API_KEY}
    session_id = new_session()
    state.mounts.url_ttl = -1
    url = anonymous.post(
        f"{mounts(session_id)}/upload_url", json={"mount_relative_path": "a.txt"}, headers=keyed
    ).json()["upload_url"]
    assert int(parse_qs(urlsplit(url).query)["expires"][0]) < time.time()
    response = anonymous.put(url, content=b"x")
    assert response.status_code == 403
    assert "expired" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    "path",
    [
        "../escape.txt",
        "a/../../b",
        "/etc/passwd",
        "a/../b",
        "C:/x",
        "a\\b",
        "\\etc\\passwd",
        "",
        ".",
        "./",
        "a/./b",
        "%2e%2e/escape.txt",
        "a/%2E%2e/%2e%2E/b",
    ],
)
def test_paths_that_escape_the_mount_are_refused(
    client: TestClient, new_session: SessionFactory, path: str
) -> None:
    session_id = new_session()
    for operation in ("upload_url", "download_url", "delete"):
        response = client.post(
            f"{mounts(session_id)}/{operation}", json={"mount_relative_path": path}
        )
        assert response.status_code == 400, (operation, path)
        error = response.json()["error"]
        assert error["errors"][0].startswith("mount_relative_path")


def test_bad_mount_id_is_refused(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    response = client.get(f"{V31}/session/{session_id}/mounts/..%2F..%2Fetc/items")
    assert response.status_code in (400, 404)
    response = client.get(f"{V31}/session/{session_id}/mounts/a.b/items")
    assert response.status_code == 400


def test_list_with_prefix_and_pagination(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    keyless = TestClient(client.app)
    for name in ("out/b.txt", "out/a.txt", "in/c.txt"):
        url = client.post(
            f"{mounts(session_id)}/upload_url", json={"mount_relative_path": name}
        ).json()["upload_url"]
        assert keyless.put(url, content=name.encode()).status_code == 200
    everything = client.get(f"{mounts(session_id)}/items").json()
    assert [i["mount_relative_path"] for i in everything["items"]] == [
        "in/c.txt",
        "out/a.txt",
        "out/b.txt",
    ]
    assert everything["items"][0]["size"] == len(b"in/c.txt")
    assert "next_cursor" not in everything
    first = client.get(
        f"{mounts(session_id)}/items", params={"mount_relative_prefix": "/out/", "limit": 1}
    ).json()
    assert [i["mount_relative_path"] for i in first["items"]] == ["out/a.txt"]
    second = client.get(
        f"{mounts(session_id)}/items",
        params={"mount_relative_prefix": "out/", "cursor": first["next_cursor"]},
    ).json()
    assert [i["mount_relative_path"] for i in second["items"]] == ["out/b.txt"]
    assert client.get(f"{mounts(session_id)}/items", params={"limit": 501}).status_code == 400


def test_delete_is_idempotent(client: TestClient, new_session: SessionFactory) -> None:
    session_id = new_session()
    keyless = TestClient(client.app)
    url = client.post(
        f"{mounts(session_id)}/upload_url", json={"mount_relative_path": "x.bin"}
    ).json()["upload_url"]
    keyless.put(url, content=b"1")
    for _ in range(2):
        response = client.post(
            f"{mounts(session_id)}/delete", json={"mount_relative_path": "x.bin"}
        )
        assert response.json() == {
            "mount_relative_path": "x.bin",
            "sandbox_mount_prefix": "/mnt/files",
        }
    assert client.get(f"{mounts(session_id)}/items").json()["items"] == []
    missing = client.post(
        f"{mounts(session_id)}/download_url", json={"mount_relative_path": "x.bin"}
    )
    assert (missing.status_code, missing.json()["error"]["slug"]) == (
        404,
        "ToolRouterV2_FileNotFound",
    )


def test_files_of_a_deleted_session_are_gone(
    client: TestClient, new_session: SessionFactory, state: EmulatorState
) -> None:
    session_id = new_session()
    keyless = TestClient(client.app)
    url = client.post(
        f"{mounts(session_id)}/upload_url", json={"mount_relative_path": "x.bin"}
    ).json()["upload_url"]
    keyless.put(url, content=b"1")
    client.delete(f"{V31}/session/{session_id}")
    assert not (state.mounts.root / session_id).exists()
    assert keyless.put(url, content=b"2").status_code == 404


def test_mounts_of_one_session_are_invisible_to_another(
    client: TestClient, new_session: SessionFactory
) -> None:
    first, second = new_session(), new_session()
    keyless = TestClient(client.app)
    url = client.post(f"{mounts(first)}/upload_url", json={"mount_relative_path": "x.bin"}).json()[
        "upload_url"
    ]
    keyless.put(url, content=b"1")
    assert client.get(f"{mounts(second)}/items").json()["items"] == []


def test_oversized_upload_is_413(
    anonymous: TestClient, new_session: SessionFactory, state: EmulatorState
) -> None:
    session_id = new_session()
    state.mounts.max_upload_bytes = 4
    url = anonymous.post(
        f"{mounts(session_id)}/upload_url",
        json={"mount_relative_path": "big.bin"},
        headers={"x-api-key": API_KEY},
    ).json()["upload_url"]
    response = anonymous.put(url, content=b"12345")
    assert response.status_code == 413
    assert "4 byte limit" in response.json()["error"]["message"]
    assert anonymous.put(url, content=b"1234").status_code == 200


def _put(client: TestClient, anonymous: TestClient, session_id: str, path: str) -> Any:
    up = client.post(f"{mounts(session_id)}/upload_url", json={"mount_relative_path": path})
    assert up.status_code == 200, up.text
    return anonymous.put(up.json()["upload_url"], content=b"x")


@pytest.mark.parametrize(
    ("first", "second", "problem"),
    [
        ("a", "a/b", "a folder in the path is already a file"),
        ("a", "a/b/c", "a folder in the path is already a file"),
        ("d/x", "d", "the path is a folder"),
        (None, "/".join(["n" * 250] * 20), "at most 1024 bytes"),
        # A URL path cannot carry a newline to the file route: no URL is made for it.
        (None, "line\nbreak.txt", "invalid character"),
        (None, "tab\there.txt", "invalid character"),
    ],
)
def test_upload_url_refuses_a_path_it_could_not_store(
    client: TestClient,
    anonymous: TestClient,
    new_session: SessionFactory,
    state: EmulatorState,
    first: str | None,
    second: str,
    problem: str,
) -> None:
    session_id = new_session()
    if first is not None:
        assert _put(client, anonymous, session_id, first).status_code == 200
    refused = client.post(f"{mounts(session_id)}/upload_url", json={"mount_relative_path": second})
    assert refused.status_code == 400, refused.text
    error = refused.json()["error"]
    assert error["errors"] == [f"mount_relative_path: {problem}"]
    assert str(state.mounts.root) not in refused.text
    download = client.post(
        f"{mounts(session_id)}/download_url", json={"mount_relative_path": second + "/c"}
    )
    assert download.status_code in (400, 404)
    assert str(state.mounts.root) not in download.text


def test_a_path_too_long_for_the_data_directory_is_refused_before_the_upload(
    tmp_path: Path,
) -> None:
    root = tmp_path
    while len(os.fsencode(root)) < 3300:
        root = root / ("d" * 200)
    app = create_app(api_keys=[API_KEY], data_dir=root)
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        session_id = client.post(f"{V31}/session", json={"user_id": "u"}).json()["session_id"]
        path = "/".join(["n" * 200] * 5)
        refused = client.post(
            f"{mounts(session_id)}/upload_url", json={"mount_relative_path": path}
        )
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"]["errors"] == [
        "mount_relative_path: the path is too long for the emulator's data directory"
    ]
    assert str(root) not in refused.text


@pytest.mark.parametrize("operation", ["upload_url", "download_url", "delete"])
def test_a_name_over_255_bytes_is_400(
    client: TestClient, new_session: SessionFactory, operation: str
) -> None:
    response = client.post(
        f"{mounts(new_session())}/{operation}", json={"mount_relative_path": "dir/" + "é" * 128}
    )
    assert response.status_code == 400
    assert response.json()["error"]["errors"] == [
        "mount_relative_path: names must be at most 255 bytes"
    ]
