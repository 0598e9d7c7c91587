"""Without the ``emulator`` extra, the commands say in one line what to install."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


def test_the_emulator_command_names_the_extra_and_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_toolrouter.emulator.__main__ import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # `import uvicorn` now fails
    assert main(["--port", "0"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "error: the Tool Router emulator needs the 'emulator' extra (uvicorn is missing): "
        'pip install "langchain-toolrouter[emulator]"'
    ]


def test_the_emulator_command_without_the_extra_prints_one_line_in_a_fresh_interpreter() -> None:
    """What a user without the extra sees: the package and the command import, and the command
    names the extra in one line (no traceback)."""
    import subprocess

    code = (
        "import sys\n"
        "sys.modules['starlette'] = None\n"
        "from langchain_toolrouter.emulator.__main__ import main\n"
        "raise SystemExit(main(['--port', '0']))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        "error: the Tool Router emulator needs the 'emulator' extra (starlette is missing): "
        'pip install "langchain-toolrouter[emulator]"'
    ]


def test_the_demo_without_a_key_or_the_extra_names_the_package_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from langchain_toolrouter.demo.run import DemoError, run_demo

    monkeypatch.setitem(sys.modules, "langchain_toolrouter.emulator", None)
    with pytest.raises(DemoError) as raised:
        run_demo()
    # Not `pip install -e ".[emulator]"`: that only works inside a clone of the repository.
    assert 'pip install "langchain-toolrouter[emulator]"' in str(raised.value)
    assert "-e" not in str(raised.value).split()
    assert "COMPOSIO_API_KEY" in str(raised.value)
    assert "Emulator ready" not in capsys.readouterr().out


def test_a_file_of_the_users_hiding_a_package_of_the_extra_is_named(tmp_path: Path) -> None:
    """A script called mcp.py (natural when following the MCP how-to) hides the mcp package:
    the error says so, not that the extra is missing."""
    import subprocess

    script = tmp_path / "mcp.py"
    script.write_text("from langchain_toolrouter.emulator import EmulatorServer\n")
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert "could not import mcp" in last
    assert f"mcp was loaded from {script}: if that is a file of yours, rename it" in last
    assert "needs the 'emulator' extra" not in last
