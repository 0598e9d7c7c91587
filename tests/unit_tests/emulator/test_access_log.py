"""The access log: one line per request (method, path, status, milliseconds), and never a key,
a query string, a connect link's token or a body; off unless the app is made with it."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from langchain_toolrouter.emulator import create_app
from tests.unit_tests.emulator.calls import API_KEY, V31

LOGGER = "langchain_toolrouter.emulator.access"
LINE = re.compile(r"^(GET|POST|PUT|PATCH|DELETE) (\S+) (\d{3}|-) \d+\.\d ms$")


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


def test_one_line_per_request_with_no_secret_in_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    app = create_app(api_keys=[API_KEY], data_dir=tmp_path, access_log=True)
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        session_id = client.post(f"{V31}/session", json={"user_id": "body-secret"}).json()[
            "session_id"
        ]
        client.get(f"{V31}/session/{session_id}/tools?cursor=query-secret")
        link = client.post(f"{V31}/session/{session_id}/link", json={"toolkit": "github"}).json()
        url = client.post(
            f"{V31}/session/{session_id}/mounts/files/upload_url",
            json={"mount_relative_path": "a.txt"},
        ).json()["upload_url"]
    with TestClient(app) as anonymous:
        anonymous.put(url, content=b"file-secret")
        anonymous.get(link["redirect_url"])
        anonymous.get("/api/v3.1/no%0Aroute")
    lines = _lines(caplog)
    assert len(lines) == 7, lines
    assert all(LINE.match(line) for line in lines), lines
    assert lines[0].startswith(f"POST {V31}/session 201 ")
    assert lines[1].startswith(f"GET {V31}/session/{session_id}/tools 400 ")  # a bad cursor
    assert lines[4].startswith(f"PUT /_emulator/files/{session_id}/files/a.txt 200 ")
    assert lines[5].startswith("GET /_emulator/connect/... 200 ")
    assert lines[6].startswith("GET /api/v3.1/no\\nroute 404 ")  # one line, whatever the path
    text = "\n".join(lines)
    token = link["redirect_url"].rsplit("/", 1)[1]
    for secret in (API_KEY, "body-secret", "query-secret", "file-secret", "signature", token):
        assert secret not in text


def test_apps_are_quiet_unless_asked(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    app = create_app(api_keys=[API_KEY], data_dir=tmp_path)
    with TestClient(app, headers={"x-api-key": API_KEY}) as client:
        assert client.post(f"{V31}/session", json={"user_id": "u"}).status_code == 201
    assert _lines(caplog) == []


def test_access_log_takes_a_boolean() -> None:
    with pytest.raises(TypeError, match=r"create_app\(access_log=...\) takes True or False"):
        create_app(access_log="yes")  # type: ignore[arg-type]
