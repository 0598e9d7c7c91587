"""The emulator package: public names, optional-dependency error, kept off the runtime path."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

import langchain_toolrouter.emulator as emulator
from tests.unit_tests.emulator.calls import API_KEY, V31, run_python


def test_public_names() -> None:
    assert sorted(emulator.__all__) == [
        "Catalog",
        "CatalogTool",
        "DEFAULT_API_KEY",
        "EmulatorServer",
        "EmulatorState",
        "FaultRule",
        "Faults",
        "RequestLog",
        "RequestRecord",
        "Store",
        "ToolContext",
        "ToolFailure",
        "Toolkit",
        "async_transport",
        "create_app",
        "default_catalog",
        "sync_transport",
    ]


@pytest.mark.parametrize("package", ["uvicorn", "wordllama"])
def test_missing_extra_gives_an_install_hint(package: str) -> None:
    """The package imports without the extra (so its command can say what to install in one
    line); the first name taken from it says it."""
    result = run_python(
        f"import sys; sys.modules['{package}'] = None; import langchain_toolrouter.emulator as e; "
        "e.EmulatorServer"
    )
    assert result.returncode != 0
    assert "ImportError: The Tool Router emulator needs the 'emulator' extra" in result.stderr
    assert 'pip install "langchain-toolrouter[emulator]"' in result.stderr
    assert f"({package} is missing)" in result.stderr


def test_library_import_does_not_load_the_emulator() -> None:
    code = (
        "import sys, langchain_toolrouter; "
        "bad = [m for m in ('langchain_toolrouter.emulator', 'starlette', 'uvicorn', 'wordllama', 'numpy') if m in sys.modules]; "
        "print(bad)"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_user_api_key_header_is_accepted_and_request_id_echoed(client: TestClient) -> None:
    client.headers.pop("x-api-key")
    response = client.post(
        f"{V31}/session",
        json={"user_id": "u"},
        headers={"x-user-api-key": API_KEY, "x-request-id": "r-1"},
    )
    assert response.status_code == 201
    assert response.headers["x-request-id"] == "r-1"


def test_an_unclosed_sync_transport_does_not_keep_the_process_alive() -> None:
    code = (
        "import httpx\n"
        "from langchain_toolrouter.emulator import create_app, sync_transport\n"
        "http = httpx.Client(transport=sync_transport(create_app()))\n"
        "print(http.get('http://emulator/api/v3/tool_router/session/x').status_code)\n"
    )
    result = run_python(code, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "401"
