"""The project's pytest settings work with part of the test extra and stay strict with all of it.

Each case runs pytest in the repository as a contributor would (a subprocess, collection only).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
A_TEST_FILE = "tests/unit_tests/test_imports.py"


def collect(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--co", "-q", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_run_without_pytest_asyncio_is_not_refused_by_the_config() -> None:
    """E.g. `pip install nbmake && pytest --nbmake notebooks/...` with no pytest-asyncio."""
    run = collect("-p", "no:asyncio", A_TEST_FILE)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Unknown config option" not in run.stdout + run.stderr


@pytest.mark.parametrize("plugins", [(), ("-p", "no:asyncio")], ids=["asyncio", "no-asyncio"])
def test_an_unknown_option_still_fails_the_run(plugins: tuple[str, ...]) -> None:
    run = collect(*plugins, "-o", "asyncio_mod=auto", A_TEST_FILE)
    assert run.returncode != 0
    assert "Unknown config option: asyncio_mod" in run.stdout + run.stderr


def test_the_strictness_is_in_the_config_ci_reads() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'addopts = "--strict-markers --strict-config' in text
