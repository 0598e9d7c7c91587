"""Without the ``emulator`` extra, the commands say in one line what to install."""

from __future__ import annotations

import sys

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
