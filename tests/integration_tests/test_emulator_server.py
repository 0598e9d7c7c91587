"""EmulatorServer on a real loopback socket, injected connection drops, and the CLI."""

from __future__ import annotations

import gc
import os
import re
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import httpx
import pytest

from langchain_toolrouter.emulator import EmulatorServer, FaultRule

V3 = "/api/v3/tool_router"


def test_server_lifecycle(tmp_path: Path) -> None:
    server = EmulatorServer(api_key="ak_life", data_dir=tmp_path, seed=1)
    assert "stopped" in repr(server)
    with server:
        assert server.base_url.startswith("http://127.0.0.1:")
        assert server.data_dir == tmp_path
        response = httpx.post(
            f"{server.base_url}{V3}/session",
            json={"user_id": "u"},
            headers={"x-api-key": "ak_life"},
        )
        assert response.status_code == 201
        assert response.json()["session_id"] in server.store.sessions
        with pytest.raises(RuntimeError, match="already started"):
            server.start()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{server.base_url}{V3}/session/x", timeout=1)


def test_port_zero_holds_its_socket_from_construction(monkeypatch: pytest.MonkeyPatch) -> None:
    # No "pick a free port, release it, bind it again" window for another process to use.
    import langchain_toolrouter.emulator.server as server_module

    def no_probe(host: str = "127.0.0.1") -> int:
        raise AssertionError("port 0 must not probe for a free port")

    monkeypatch.setattr(server_module, "free_port", no_probe)
    first, second = EmulatorServer(), EmulatorServer()
    assert first.port != second.port
    with first, second:
        for server in (first, second):
            response = httpx.get(
                f"{server.base_url}{V3}/session/trs_x", headers={"x-api-key": server.api_key}
            )
            assert response.status_code == 404


def test_server_refuses_app_and_options_together() -> None:
    from langchain_toolrouter.emulator import create_app

    with pytest.raises(ValueError, match="not both"):
        EmulatorServer(app=create_app(), seed=3)


def test_dropped_connections_over_a_real_socket() -> None:
    with (
        EmulatorServer(api_key="k") as server,
        httpx.Client(base_url=server.base_url, headers={"x-api-key": "k"}) as client,
    ):
        session_id = client.post(f"{V3}/session", json={"user_id": "u"}).json()["session_id"]
        server.faults.add(FaultRule("execute", drop="after", times=1))
        with pytest.raises(httpx.RemoteProtocolError):
            client.post(
                f"{V3}/session/{session_id}/execute",
                json={"tool_slug": "NOTES_CREATE_NOTE", "arguments": {"title": "t"}},
            )
        server.faults.add(FaultRule("get_session", drop="before", times=1))
        with pytest.raises(httpx.RemoteProtocolError):
            client.get(f"{V3}/session/{session_id}")
        assert client.get(f"{V3}/session/{session_id}").status_code == 200
        executed = server.log.filter("execute")
        assert [(r.processed, r.fault) for r in executed] == [(True, "drop after")]
        gets = server.log.filter("get_session")
        assert [r.processed for r in gets] == [False, True]


def test_cli_prints_how_to_connect_and_serves(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [
        sys.executable,
        "-m",
        "langchain_toolrouter.emulator",
        "--port",
        "0",
        "--api-key",
        "ak_cli",
        "--data-dir",
        str(tmp_path),
    ]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as process:
        try:
            assert process.stdout is not None
            first = process.stdout.readline()
            assert first.startswith("Tool Router emulator on http://127.0.0.1:")
            base_url = first.split(" on ", 1)[1].strip()
            lines = [process.stdout.readline() for _ in range(3)]
            assert lines[0].strip() == f"export COMPOSIO_BASE_URL={base_url}"
            assert lines[1].strip() == "export COMPOSIO_API_KEY=ak_cli"
            assert str(tmp_path) in lines[2]
            deadline = time.monotonic() + 15
            while True:
                try:
                    response = httpx.post(
                        f"{base_url}{V3}/session",
                        json={"user_id": "u"},
                        headers={"x-api-key": "ak_cli"},
                    )
                    break
                except httpx.ConnectError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            assert response.status_code == 201
        finally:
            process.terminate()
            process.communicate(timeout=10)


def test_cli_help_names_every_option() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "langchain_toolrouter.emulator", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    for option in ("--host", "--port", "--api-key", "--data-dir"):
        assert option in result.stdout


def test_wait_for_connections_sees_a_link_opened_meanwhile() -> None:
    import threading

    with (
        EmulatorServer(api_key="k") as server,
        httpx.Client(base_url=server.base_url, headers={"x-api-key": "k"}, timeout=30) as client,
    ):
        session_id = client.post(
            f"{V3}/session",
            json={
                "user_id": "w",
                "manage_connections": {"enable": True, "enable_wait_for_connections": True},
            },
        ).json()["session_id"]
        link = client.post(f"{V3}/session/{session_id}/link", json={"toolkit": "github"}).json()
        results: list[httpx.Response] = []
        waiter = threading.Thread(
            target=lambda: results.append(
                client.post(
                    f"{V3}/session/{session_id}/execute",
                    json={
                        "tool_slug": "COMPOSIO_WAIT_FOR_CONNECTIONS",
                        "arguments": {"toolkits": ["github"], "timeout_seconds": 20},
                    },
                )
            )
        )
        started = time.monotonic()
        waiter.start()
        time.sleep(0.3)
        assert httpx.get(link["redirect_url"]).status_code == 200
        waiter.join(timeout=25)
        assert time.monotonic() - started < 10
        body = results[0].json()
        assert body["error"] is None
        assert body["data"]["connections"]["github"]["status"] == "ACTIVE"


def _new_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    """Threads started since `before` that are still alive."""
    return [t for t in threading.enumerate() if t not in before]


def test_a_stopped_server_starts_again_on_the_same_port_with_its_state() -> None:
    before = set(threading.enumerate())
    server = EmulatorServer(api_key="k")
    headers = {"x-api-key": "k"}
    with server:
        port = server.port
        created = httpx.post(
            f"{server.base_url}{V3}/session", json={"user_id": "u"}, headers=headers
        )
        session_id = created.json()["session_id"]
    assert "stopped" in repr(server)
    started = time.monotonic()
    with server:
        assert "running" in repr(server)
        assert server.port == port
        response = httpx.get(f"{server.base_url}{V3}/session/{session_id}", headers=headers)
        assert response.status_code == 200
    assert time.monotonic() - started < 5
    assert not _new_threads(before)


def test_a_server_on_a_given_port_starts_again() -> None:
    from langchain_toolrouter.emulator.server import free_port

    server = EmulatorServer(api_key="k", port=free_port())
    for _ in range(2):
        with server:
            response = httpx.get(f"{server.base_url}{V3}/session/trs_x", headers={"x-api-key": "k"})
            assert response.status_code == 404


def test_stop_without_start_closes_the_socket_bound_at_construction() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        server = EmulatorServer()
        server.stop()
        del server
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


def test_start_stop_cycles_leak_no_socket_or_thread() -> None:
    before = set(threading.enumerate())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        for _ in range(3):
            with EmulatorServer() as server:
                httpx.get(f"{server.base_url}/", timeout=2)
        server.start()
        server.stop()
        del server
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
    assert not _new_threads(before)


def test_a_failed_start_leaves_a_stopped_server_that_can_retry() -> None:
    before = set(threading.enumerate())
    with EmulatorServer() as holder:
        blocked = EmulatorServer(port=holder.port)
        for _ in range(2):  # the retry fails the same way, not with "already started"
            with pytest.raises(RuntimeError, match="could not start on"):
                blocked.start()
            assert "stopped" in repr(blocked)
    with blocked:  # the port is free now
        response = httpx.get(f"{blocked.base_url}{V3}/session/trs_x", headers={"x-api-key": "k"})
        assert response.status_code == 401
    assert not _new_threads(before)


def test_a_stop_from_another_thread_during_start_waits_for_it() -> None:
    before = set(threading.enumerate())
    failures: list[BaseException] = []
    for delay in (0.0, 0.0005, 0.001, 0.002, 0.003, 0.005):
        server = EmulatorServer()

        def stop_soon(server: EmulatorServer = server, delay: float = delay) -> None:
            time.sleep(delay)
            try:
                server.stop()
            except BaseException as exc:
                failures.append(exc)

        stopper = threading.Thread(target=stop_soon)
        stopper.start()
        try:
            server.start()
        except BaseException as exc:
            failures.append(exc)
        stopper.join()
        server.stop()
        assert "stopped" in repr(server)
    assert failures == []
    assert not _new_threads(before)


@pytest.mark.parametrize(
    ("options", "exception", "message"),
    [
        # Ports out of range used to fail in the server thread with a traceback, then as a
        # misleading "could not start ... (is the port in use?)".
        ({"port": 99999}, ValueError, r"port=\.\.\.\) must be within \[0, 65535\], got 99999"),
        ({"port": -1}, ValueError, r"got -1; give a TCP port 1-65535, or 0"),
        ({"port": "8765"}, TypeError, r"port=\.\.\.\) must be an int"),
        ({"port": True}, TypeError, r"port=\.\.\.\) must be an int"),
        ({"host": ""}, ValueError, r"host=\.\.\.\) must be a non-empty string"),
        ({"host": 127}, TypeError, r"host=\.\.\.\) must be a string"),
        ({"api_key": ""}, ValueError, r"api_key=\.\.\.\) must be a non-empty string"),
        ({"api_key": 5}, TypeError, r"api_key=\.\.\.\) must be a string"),
        ({"startup_timeout": -1}, ValueError, r"startup_timeout=\.\.\.\) must be > 0"),
        ({"startup_timeout": "10"}, TypeError, r"startup_timeout=\.\.\.\) must be a number"),
        ({"header_timeout": 0}, ValueError, r"header_timeout=\.\.\.\) must be > 0"),
        ({"keep_alive_timeout": None}, TypeError, r"keep_alive_timeout=\.\.\.\) must be a number"),
        ({"body_timeout": -1}, ValueError, r"body_timeout=\.\.\.\) must be > 0"),
        ({"app": object()}, TypeError, r"app=\.\.\.\) takes an app made by create_app"),
        ({"faults": {"operation": "execute"}}, TypeError, "takes a list of FaultRule"),
        ({"faults": FaultRule("execute", status=503)}, TypeError, "wrap the one rule in a list"),
        ({"url_ttl": -1}, ValueError, r"url_ttl=\.\.\.\) must be > 0"),
        ({"api_keys": []}, ValueError, "at least one non-empty key"),
        ({"api_keys": ["ak_a"], "api_key": "ak_b"}, ValueError, "is not one of the app's keys"),
        ({"fault": []}, TypeError, r"unknown argument 'fault' \(did you mean 'faults'\?\)"),
    ],
)
def test_bad_options_fail_at_construction(
    options: dict[str, object], exception: type[Exception], message: str
) -> None:
    with pytest.raises(exception, match=message):
        EmulatorServer(**options)  # type: ignore[arg-type]


def test_a_host_that_cannot_be_bound_names_the_option() -> None:
    with pytest.raises(RuntimeError, match=r"could not listen on no-such-host\.invalid .*host="):
        EmulatorServer(host="no-such-host.invalid")


def test_api_key_defaults_to_a_key_the_app_accepts() -> None:
    from langchain_toolrouter.emulator import create_app

    # It used to stay "ak_emulator_local", a key these servers refuse.
    for server in (
        EmulatorServer(api_keys={"ak_a": "project-a"}),
        EmulatorServer(app=create_app(api_keys=["ak_a", "ak_b"])),
    ):
        try:
            assert server.api_key == "ak_a"
        finally:
            server.stop()
    with_key = EmulatorServer(api_key="ak_b", api_keys=["ak_a", "ak_b"])
    with_key.stop()
    assert with_key.api_key == "ak_b"
    unset = EmulatorServer(api_keys=None)  # None is "not given", as before
    unset.stop()
    assert unset.api_key == "ak_emulator_local"


def test_cli_refuses_a_bad_port_before_printing_anything() -> None:
    # It used to print "Tool Router emulator on http://127.0.0.1:99999", then a traceback.
    result = subprocess.run(
        [sys.executable, "-m", "langchain_toolrouter.emulator", "--port", "99999"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "toolrouter-emulator: error: argument --port: '99999' is not a TCP port; give 1-65535, "
        "or 0 for any free port"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "-1"], "argument --port: '-1' is not a TCP port"),
        (["--port", "http"], "argument --port: 'http' is not a TCP port"),
        (["--api-key", ""], "argument --api-key: the API key must not be empty"),
        (["--host", " "], "argument --host: the host must not be empty"),
        (["--data-dir", ""], "argument --data-dir: the data directory must not be empty"),
        (["--header-timeout", "0"], "argument --header-timeout: '0' is not a number of seconds"),
        (["--body-timeout", "nan"], "argument --body-timeout: 'nan' is not a number of seconds"),
        (["--keep-alive-timeout", "x"], "argument --keep-alive-timeout: 'x' is not a number"),
        (["--host", "no-such-host.invalid", "--port", "0"], "cannot listen on no-such-host"),
    ],
)
def test_cli_bad_arguments_are_a_one_line_error_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_toolrouter.emulator.__main__ import main

    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines()[-1].startswith(f"toolrouter-emulator: error: {message}")


def test_cli_refuses_a_data_dir_that_is_a_file_and_a_port_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_toolrouter.emulator.__main__ import main

    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(SystemExit) as exited:
        main(["--data-dir", str(file)])
    assert exited.value.code == 2
    assert f"--data-dir {file} is not a directory" in capsys.readouterr().err
    with EmulatorServer() as busy, pytest.raises(SystemExit) as exited:
        main(["--port", str(busy.port)])
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing claims to serve an address that is not served
    assert f"cannot listen on 127.0.0.1:{busy.port}" in err
    assert "choose another --port (0 = any free port)" in err


def _start_cli(*argv: str) -> tuple[subprocess.Popen[str], str, Path]:
    """The CLI in a process of its own, once it serves: the process, its base URL, its mount
    folder."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "langchain_toolrouter.emulator", "--port", "0", *argv]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    header = [process.stdout.readline() for _ in range(5)]
    base_url = header[0].split(" on ", 1)[1].strip()
    folder = Path(header[3].split(" in ", 1)[1].strip())
    deadline = time.monotonic() + 15
    while not _answers(base_url):
        assert time.monotonic() < deadline, "the CLI did not start"
        time.sleep(0.05)
    return process, base_url, folder


def _answers(base_url: str) -> bool:
    try:
        httpx.get(f"{base_url}/openapi.json", timeout=5)
    except httpx.ConnectError:
        return False
    return True


def test_cli_stopped_with_sigterm_exits_0_and_removes_its_mount_folder() -> None:
    # SIGTERM (kill, docker stop, systemd) ended it with 143 and left the folder behind.
    process, _, folder = _start_cli()
    assert folder.is_dir()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert not folder.exists()


def test_cli_prints_one_access_line_per_request_unless_quiet() -> None:
    process, base_url, _ = _start_cli("--api-key", "ak_cli")
    try:
        httpx.post(
            f"{base_url}{V3}/session",
            json={"user_id": "u"},
            params={"secret": "s3cret"},
            headers={"x-api-key": "ak_cli"},
        )
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
    lines = [line for line in out.splitlines() if f"{V3}/session" in line]
    assert len(lines) == 1, out
    assert re.fullmatch(rf"\d\d:\d\d:\d\d POST {V3}/session 201 \d+\.\d ms", lines[0])
    assert "ak_cli" not in lines[0]
    assert "s3cret" not in out
    quiet, base_url, _ = _start_cli("--quiet")
    try:
        httpx.get(f"{base_url}{V3}/session/trs_none")
    finally:
        quiet.send_signal(signal.SIGTERM)
        out, _ = quiet.communicate(timeout=30)
    assert "trs_none" not in out
    assert "/openapi.json" not in out


def test_emulator_server_is_quiet_by_default(capfd: pytest.CaptureFixture[str]) -> None:
    with EmulatorServer() as server:
        httpx.post(
            f"{server.base_url}{V3}/session",
            json={"user_id": "u"},
            headers={"x-api-key": server.api_key},
        )
        httpx.get(f"{server.base_url}{V3}/nothing")
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
