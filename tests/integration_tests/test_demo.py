"""The demo command, run as a user runs it: a subprocess, no keys, the embedded emulator."""

from __future__ import annotations

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPOSIO_")}
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _run(
    command: list[str], *, timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A command run as a user runs it, from the repository's root, output captured."""
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env or _env(),
        cwd=ROOT,
        check=False,
    )


DEMO = [sys.executable, "-m", "langchain_toolrouter", "demo"]


@pytest.fixture(scope="module")
def demo_run() -> subprocess.CompletedProcess[str]:
    """One run of the demo exactly as the README says to run it."""
    return _run(DEMO, timeout=240)


def _stable(text: str) -> str:
    """The transcript without what changes from run to run: ports and timings."""
    text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text)
    text = re.sub(r"\(\d+\.\d+s\)", "(T)", text)
    return re.sub(r"(?m)^(  time\s+)\S+$", r"\1T", text)


def test_demo_runs_offline_and_ends_with_its_summary(
    demo_run: subprocess.CompletedProcess[str],
) -> None:
    done = demo_run
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "No COMPOSIO_API_KEY set: starting the embedded Tool Router emulator" in out
    assert "Chat model: scripted" in out
    summary = out.split("== Summary", 1)[1]
    assert "result       task done" in summary
    assert "tool search  yes" in summary
    assert "connected    github, gmail" in summary
    assert "custom tools LOCAL_GET_ONCALL_ENGINEER" in summary
    assert "GMAIL_SEND_EMAIL" in summary
    assert "failures     1, recovered" in summary
    assert "Emulator stopped." in out


def test_readme_transcript_matches_the_demo(demo_run: subprocess.CompletedProcess[str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## The demo", 1)[1].split("```text\n", 1)[1].split("```\n", 1)[0]
    shown = block.removeprefix("$ python -m langchain_toolrouter demo\n")
    assert _stable(shown) == _stable(demo_run.stdout), (
        "README.md's demo transcript no longer matches the demo; paste a fresh run of "
        "`python -m langchain_toolrouter demo` into its ```text block"
    )


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--model", "gpt-4o"], "argument --model: must look like provider:name"),
        # It used to run zero steps and report "task NOT done" (exit 1).
        (["--max-steps", "-1"], "argument --max-steps: must be a whole number of model turns"),
    ],
)
def test_a_bad_option_is_refused_before_the_demo_starts(option: list[str], message: str) -> None:
    done = _run([*DEMO, *option])
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"python -m langchain_toolrouter: error: {message}")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # --user-id "" used to end in a traceback from create_session.
        (["demo", "--user-id", ""], "argument --user-id: must name a user, got ''"),
        (["demo", "--user-id", "  "], "argument --user-id: must name a user"),
        (
            ["demo", "--max-steps", "0"],
            "argument --max-steps: must be a whole number of model turns >= 1",
        ),
        (["demo", "--max-steps", "ten"], "argument --max-steps: must be a whole number"),
        (
            ["demo", "--emulator-latency", "-1"],
            "argument --emulator-latency: must be a number of seconds",
        ),
        (
            ["demo", "--emulator-latency", "nan"],
            "argument --emulator-latency: must be a number of seconds",
        ),
        (
            ["demo", "--emulator-latency", "inf"],
            "argument --emulator-latency: must be a number of seconds",
        ),
        (["demo", "--model", ""], "argument --model: must look like provider:name"),
        (["demo", "--model", "openai:"], "argument --model: must look like provider:name"),
        (["demo", "--model", ":gpt-4o"], "argument --model: must look like provider:name"),
        (["run"], "argument command: invalid choice: 'run'"),
        (["demo", "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_arguments_are_one_error_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_toolrouter.demo.cli import main

    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith(f"langchain-toolrouter-demo: error: {message}")


@pytest.mark.parametrize(
    ("command", "prog"),
    [
        (
            [str(Path(sys.executable).with_name("langchain-toolrouter-demo"))],
            "langchain-toolrouter-demo",
        ),
        ([sys.executable, "-m", "langchain_toolrouter"], "python -m langchain_toolrouter"),
        (
            [sys.executable, "-m", "langchain_toolrouter.demo"],
            "python -m langchain_toolrouter.demo",
        ),
    ],
)
def test_help_names_the_command_that_was_typed(command: list[str], prog: str) -> None:
    done = _run([*command, "--help"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: {prog} [-h]"), done.stdout


def test_emulator_latency_with_a_key_is_refused_not_ignored(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_toolrouter.demo.cli import main

    monkeypatch.setenv("COMPOSIO_API_KEY", "ak_some_key")
    with pytest.raises(SystemExit) as exited:
        main(["demo", "--emulator-latency", "0.5"])
    assert exited.value.code == 2
    assert "drop --emulator-latency or unset COMPOSIO_API_KEY" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_steps": 0}, r"max_steps=\.\.\.\) must be an int >= 1"),
        ({"max_steps": True}, r"max_steps=\.\.\.\) must be an int >= 1"),
        ({"user_id": ""}, r"user_id=\.\.\.\) must name a user"),
        ({"emulator_latency": -0.5}, r"emulator_latency=\.\.\.\) must be a number of seconds"),
    ],
)
def test_run_demo_refuses_bad_arguments_before_starting(
    kwargs: dict[str, object], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_toolrouter.demo.run import run_demo

    with pytest.raises(ValueError, match=message):
        run_demo(**kwargs)  # type: ignore[arg-type]
    assert capsys.readouterr().out == ""  # no emulator was started


def _demo_with(key: str, base_url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return _run(
        [*DEMO, *extra],
        timeout=120,
        env=_env() | {"COMPOSIO_API_KEY": key, "COMPOSIO_BASE_URL": base_url},
    )


def _unused_loopback_url() -> str:
    with socket.socket() as probe:  # bound, never listening, closed: nothing answers there
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def _one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_a_wrong_key_fails_in_one_line_with_the_fix() -> None:
    from langchain_toolrouter.emulator import EmulatorServer

    with EmulatorServer() as service:
        done = _demo_with("ak_wrong_key", service.base_url)
        line = _one_error_line(done)
        assert service.base_url in line
        assert "COMPOSIO_API_KEY" in line
        assert "check the key" in line.lower()
        assert "unset COMPOSIO_API_KEY" in line  # ... to run on the embedded emulator
        assert "ak_wrong_key" not in done.stdout + done.stderr


def test_an_unreachable_service_fails_in_one_line_with_the_fix() -> None:
    url = _unused_loopback_url()
    line = _one_error_line(_demo_with("ak_some_key", url))
    assert f"could not reach the Tool Router service at {url}" in line
    assert "COMPOSIO_BASE_URL" in line
    assert "unset COMPOSIO_API_KEY" in line


def test_a_malformed_base_url_fails_in_one_line_with_the_fix() -> None:
    line = _one_error_line(_demo_with("ak_some_key", "not a url"))
    assert "COMPOSIO_BASE_URL" in line
    assert "'not a url'" in line


def test_debug_shows_the_traceback_of_a_service_error() -> None:
    done = _demo_with("ak_some_key", _unused_loopback_url(), "--debug")
    assert done.returncode == 1
    assert "Traceback" in done.stderr
    assert "ConnectError" in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: could not reach")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery differs on Windows")
def test_ctrl_c_stops_cleanly_and_shuts_the_emulator_down() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "langchain_toolrouter", "demo", "--emulator-latency", "0.5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    seen = ""
    while "== Task" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.readline()
    assert "== Task" in seen, seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, seen + out + err
    assert "Emulator stopped." in out
    assert "Interrupted" in err
    assert "Traceback" not in err


def _read_into(stream: IO[str], lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line)


def test_with_a_key_it_uses_that_service_and_waits_for_the_user_to_connect() -> None:
    """The real-service path: no emulator of its own; every link the agent's connection request
    made is printed at once, then the demo waits while the user opens them."""
    import httpx

    from langchain_toolrouter.emulator import EmulatorServer

    with EmulatorServer() as service:
        env = _env() | {"COMPOSIO_API_KEY": service.api_key, "COMPOSIO_BASE_URL": service.base_url}
        with subprocess.Popen(
            [sys.executable, "-m", "langchain_toolrouter", "demo"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=ROOT,
        ) as proc:
            assert proc.stdout is not None
            lines: queue.Queue[str] = queue.Queue()
            reader = threading.Thread(target=_read_into, args=(proc.stdout, lines))
            reader.start()
            seen: list[str] = []
            links: dict[str, str] = {}
            deadline = time.monotonic() + 60
            while len(links) < 2:  # the user opens nothing before both links are shown
                try:
                    seen.append(lines.get(timeout=max(0.0, deadline - time.monotonic())))
                except queue.Empty:
                    proc.kill()
                    pytest.fail(f"the demo did not show both links at once: {''.join(seen)}")
                found = re.match(r"\s+(\w+): (http\S+/_emulator/connect/\S+)$", seen[-1])
                if found:
                    links[found[1]] = found[2]
            assert sorted(links) == ["github", "gmail"]
            for url in links.values():
                httpx.get(url).raise_for_status()  # the user opens the links, in any order
            proc.wait(timeout=60)
            reader.join()
            while not lines.empty():
                seen.append(lines.get())
            out = "".join(seen)
        assert proc.returncode == 0, out
    assert f"COMPOSIO_API_KEY is set: using the service at {service.base_url}." in out
    assert "starting the embedded" not in out
    assert out.count("→ open these links in your browser to connect github and gmail:") == 1
    assert "result       task done" in out
