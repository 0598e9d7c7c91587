"""The pytest plugin of langchain-toolrouter: the emulator as fixtures (see
`langchain_toolrouter.testing` for what each gives).

pytest loads this module in every run wherever langchain-toolrouter is installed (the
``pytest11`` entry point). It lives outside the package so that loading it imports nothing but
pytest: importing `langchain_toolrouter` pulls in langchain-core and the emulator pulls in
uvicorn, starlette and numpy, each a noticeable part of a second. A fixture imports what it needs
when a test asks for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from langchain_toolrouter import ToolRouter
    from langchain_toolrouter.emulator import EmulatorServer

__all__ = ["toolrouter", "toolrouter_emulator", "toolrouter_env"]

MARKER = "toolrouter_emulator"
_MARKER_READ = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker, so ``--strict-markers`` accepts it."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(**options): options for the EmulatorServer of the toolrouter_emulator "
        "fixture, e.g. faults=[FaultRule(operation='search', status=503, times=1)]",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """Say so when a test's marker was not read: its `toolrouter_emulator` fixture is an
    override (e.g. with a wider scope in a conftest.py), which does not see the test's marker.

    Checked once the test's fixtures are set up, before it runs, so a failing test (the one
    that most needs to know) gets the warning too; it points at the test.
    """
    yield
    if (
        item.get_closest_marker(MARKER) is not None
        and MARKER in getattr(item, "fixturenames", ())
        and not item.stash.get(_MARKER_READ, False)
    ):
        item.warn(
            pytest.PytestWarning(
                f"@pytest.mark.{MARKER}(...) on {item.nodeid} had no effect: the "
                f"{MARKER} fixture it reached is not the plugin's per-test one (an override, "
                "e.g. with a wider scope in a conftest.py). Pass the options to EmulatorServer "
                "in the override, or change the running server in the test (its .faults)."
            )
        )


@pytest.fixture
def toolrouter_emulator(request: pytest.FixtureRequest) -> Iterator[EmulatorServer]:
    """A running Tool Router emulator on a free loopback port, new for each test.

    ``@pytest.mark.toolrouter_emulator(**options)`` passes options to `EmulatorServer`
    (``faults``, ``seed``, ``api_key``, ...). The server is stopped after the test.
    """
    try:
        from langchain_toolrouter.emulator import EmulatorServer
    except ImportError as exc:
        pytest.fail(
            f"the toolrouter_emulator fixture needs the emulator extra: "
            f'pip install "langchain-toolrouter[emulator]" ({exc})',
            pytrace=False,
        )
    marker = request.node.get_closest_marker(MARKER)
    if marker is not None and marker.args:
        pytest.fail(
            f"@pytest.mark.{MARKER}(...) takes EmulatorServer options by name, e.g. "
            f"@pytest.mark.{MARKER}(seed=1); got positional {marker.args!r}",
            pytrace=False,
        )
    options = dict(marker.kwargs) if marker is not None else {}
    request.node.stash[_MARKER_READ] = True
    with EmulatorServer(**options) as server:
        yield server


@pytest.fixture
def toolrouter(toolrouter_emulator: EmulatorServer) -> Iterator[ToolRouter]:
    """A `ToolRouter` pointed at the ``toolrouter_emulator`` server, closed after the test."""
    from langchain_toolrouter import ToolRouter

    with ToolRouter(
        api_key=toolrouter_emulator.api_key, base_url=toolrouter_emulator.base_url
    ) as router:
        yield router


@pytest.fixture
def toolrouter_env(
    toolrouter_emulator: EmulatorServer, monkeypatch: pytest.MonkeyPatch
) -> EmulatorServer:
    """``COMPOSIO_BASE_URL`` and ``COMPOSIO_API_KEY`` point at the emulator for the test.

    For code under test that builds ``ToolRouter()`` (or a client) from the environment.
    Returns the server, for its request log and fault rules.
    """
    monkeypatch.setenv("COMPOSIO_BASE_URL", toolrouter_emulator.base_url)
    monkeypatch.setenv("COMPOSIO_API_KEY", toolrouter_emulator.api_key)
    return toolrouter_emulator
