"""The public surface is exactly what we mean it to be, and the pure layers stay pure."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import langchain_toolrouter

EXPECTED_ALL = [
    "AsyncToolRouterClient",
    "CustomTool",
    "CustomToolContext",
    "CustomToolkit",
    "ToolRetriever",
    "ToolRouter",
    "ToolRouterClient",
    "ToolRouterSession",
    "ToolRouterTool",
    "ToolRouterToolkit",
    "ToolSearch",
    "__version__",
    "custom_tool",
]


def test_all_is_pinned() -> None:
    assert sorted(langchain_toolrouter.__all__) == sorted(EXPECTED_ALL)
    for name in EXPECTED_ALL:
        assert getattr(langchain_toolrouter, name) is not None


def test_version_matches_installed_metadata() -> None:
    assert langchain_toolrouter.__version__ == version("langchain-toolrouter")


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return set(out.split())


def test_runtime_import_never_loads_the_emulator_or_its_dependencies() -> None:
    loaded = _loaded_after("import langchain_toolrouter")
    for forbidden in ("langchain_toolrouter.emulator", "starlette", "uvicorn", "bm25s"):
        assert forbidden not in loaded, f"importing the library loaded {forbidden}"
