"""Keep the project's pytest settings valid in a run without pytest-asyncio.

`pyproject.toml` sets pytest-asyncio's options under ``--strict-config``, which rejects an option
no plugin registered. A run with only part of the test extra (e.g. ``pip install nbmake`` and
``pytest --nbmake notebooks``) has no pytest-asyncio, so its options are registered here, doing
nothing, and the run goes ahead. With pytest-asyncio installed (the ``test`` extra, CI) it
registers them itself and this does nothing: any other unknown option still fails the run.
"""

from __future__ import annotations

import pytest

_ASYNCIO_OPTIONS = ("asyncio_mode", "asyncio_default_fixture_loop_scope")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    if pluginmanager.hasplugin("asyncio"):
        return
    for name in _ASYNCIO_OPTIONS:
        parser.addini(name, "pytest-asyncio's option (not installed: ignored)")
